package dev.attribution.clientcheck;

import dev.attribution.client.ApiClient;
import dev.attribution.client.ApiException;
import dev.attribution.client.api.AttributionApi;
import dev.attribution.client.api.LeadsApi;
import dev.attribution.client.api.OrdersApi;
import dev.attribution.client.api.RequestsApi;
import dev.attribution.client.api.SourcesApi;
import dev.attribution.client.model.AttributionControllerResponse;
import dev.attribution.client.model.LeadCreateBody;
import dev.attribution.client.model.LeadView;
import dev.attribution.client.model.OrderCreateBody;
import dev.attribution.client.model.OrderLinesItem;
import dev.attribution.client.model.PageOfLeadView;
import dev.attribution.client.model.RoasControllerResponse;
import dev.attribution.client.model.SourceCreateBody;
import dev.attribution.client.model.SourceCreateBodyPlatform;
import dev.attribution.client.model.WriteAccepted;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Issue 21 point 4's core scenario through the generated client only: create leads and poll their requests to
 * PROCESSED, page through {@code GET /leads} to the last page (nextPageId null), create an order, read
 * {@code /attribution}, create a source (its campaign) and read that campaign's {@code /attribution/roas}. Returns what it saw, one line per step; throws on any failure.
 */
public final class CoreScenario {

    private CoreScenario() {
    }

    public static List<String> run(String baseUri, String apiKey) throws Exception {
        ApiClient client = new ApiClient();
        client.updateBaseUri(baseUri);
        client.setRequestInterceptor(request -> request.header("API-Key", apiKey));
        LeadsApi leads = new LeadsApi(client);
        RequestsApi requests = new RequestsApi(client);
        List<String> log = new ArrayList<>();

        String tag = "gen" + System.nanoTime();
        for (int i = 0; i < 3; i++) {
            LeadCreateBody body = new LeadCreateBody().email(tag + i + "@example.com").firstName("Ada").tags(List.of(tag));
            WriteAccepted accepted = leads.createLead(LeadsApi.APICreateLeadRequest.newBuilder().leadCreateBody(body).build());
            log.add("createLead " + accepted.getResult() + " " + awaitProcessed(requests, accepted.getRequestId()));
        }

        Set<String> seen = new LinkedHashSet<>();
        String pageId = null;
        int pages = 0;
        do {
            PageOfLeadView page = leads.listLeads(LeadsApi.APIListLeadsRequest.newBuilder()
                    .tags("\"" + tag + "\"").pageSize(2).pageId(pageId).build());
            for (LeadView lead : page.getResult()) {
                seen.add(lead.getEmail());
            }
            pageId = page.getNextPageId();
            pages++;
        } while (pageId != null && pages < 10);
        log.add("listLeads pages=" + pages + " leads=" + seen.size() + " lastNextPageId=" + pageId);

        OrdersApi orders = new OrdersApi(client);
        OrderCreateBody order = new OrderCreateBody().email(tag + "0@example.com")
                .items(List.of(new OrderLinesItem().name("Thing").price(new BigDecimal("10"))));
        WriteAccepted placed = orders.createOrder(OrdersApi.APICreateOrderRequest.newBuilder().orderCreateBody(order).build());
        log.add("createOrder " + placed.getResult() + " " + awaitProcessed(requests, placed.getRequestId()));

        AttributionApi attribution = new AttributionApi(client);
        String today = LocalDate.now().minusDays(1).toString(); // never "in the future" in the account's zone
        String start = LocalDate.now().minusDays(7).toString();
        AttributionControllerResponse report = attribution.getAttributionReport(
                AttributionApi.APIGetAttributionReportRequest.newBuilder().attributionModel("last_click")
                        .level("facebook_ad").ids("\"x\"").fields("sales").startDate(start).endDate(today).build());
        log.add("getAttributionReport request_id=" + (report.getRequestId() != null));
        SourcesApi sources = new SourcesApi(client);
        SourceCreateBody source = new SourceCreateBody().name("Prospecting " + tag)
                .integrationType(SourceCreateBodyPlatform.FACEBOOK).adSourceId("as_" + tag).accountId("act_" + tag)
                .campaignId("cmp_" + tag);
        WriteAccepted created = sources.createSource(SourcesApi.APICreateSourceRequest.newBuilder()
                .sourceCreateBody(source).build());
        log.add("createSource " + created.getResult() + " " + awaitProcessed(requests, created.getRequestId()));
        RoasControllerResponse roas = null;
        for (int i = 0; roas == null; i++) { // the campaign reaches the reports through CDC, within seconds
            try {
                roas = attribution.getRoasReport(AttributionApi.APIGetRoasReportRequest.newBuilder()
                        .level("campaign").id("cmp_" + tag).startDate(start).endDate(today).build());
            } catch (ApiException e) {
                if (e.getCode() != 400 || i >= 600) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
        log.add("getRoasReport request_id=" + (roas.getRequestId() != null));
        return log;
    }

    private static String awaitProcessed(RequestsApi requests, String requestId) throws Exception {
        for (int i = 0; i < 1200; i++) {
            String status = requests.getRequest(RequestsApi.APIGetRequestRequest.newBuilder().requestId(requestId).build())
                    .getResult().getStatus();
            if (!"PENDING".equals(status)) {
                return status;
            }
            Thread.sleep(100);
        }
        return "PENDING";
    }
}
