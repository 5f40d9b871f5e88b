package dev.attribution.query.adspend;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.DateRange;
import dev.attribution.api.Envelopes;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.query.sources.SourceFilter;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** {@code GET /ad-accounts} (4.5), {@code GET /ads} (4.8) and {@code GET /keywords} (4.13) from PostgreSQL. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0")
class AdHierarchyController {

    static final List<String> AD_ACCOUNT_FIELDS = List.of("name", "type");

    private final AdHierarchyReader reader;
    private final PageTokens pageTokens;

    AdHierarchyController(AdHierarchyReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    /**
     * Any parameter other than {@code pageId} that differs from the one the token was issued for resets paging
     * (first page again) instead of failing; a forged or expired token is still 400.
     */
    @Get("/ad-accounts")
    @Operation(summary = "List ad accounts.")
    @RequiresRole(Roles.GET_AD_ACCOUNTS)
    @QueryParameters(AdAccountsQuery.class)
    Envelopes.Page<AdHierarchyReader.AdAccount> adAccounts(QueryParams q, Caller caller) {
        List<String> ids = q.list("ids");
        List<String> fields = q.string("fields").map(f -> Arrays.stream(f.split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).toList()).orElse(AD_ACCOUNT_FIELDS);
        for (String f : fields) {
            if (!AD_ACCOUNT_FIELDS.contains(f)) {
                throw ApiException.badRequest("Invalid field: " + f + ". Accepted values: name, type");
            }
        }
        DateRange.read(q, "fromDate", "toDate", caller.account().timeZone(), true);
        int pageSize = q.intInRange("pageSize", 50);
        String fingerprint = String.join(",", ids) + "|" + String.join(",", fields) + "|" + pageSize;
        AdHierarchyReader.Cursor after = cursor(q, caller, "ad-accounts", fingerprint);
        AdHierarchyReader.Page<AdHierarchyReader.AdAccount> page = reader.adAccounts(caller.accountId(), ids,
                fields.contains("name"), fields.contains("type"), after, pageSize);
        return new Envelopes.Page<>(page.items(), next(caller, "ad-accounts", fingerprint, page.next()), RequestIds.current());
    }

    @Get("/ads")
    @Operation(summary = "List ads.")
    @RequiresRole(Roles.GET_ADS)
    @QueryParameters(AdsQuery.class)
    Envelopes.Page<AdHierarchyReader.Ad> ads(QueryParams q, Caller caller) {
        Optional<String> platform = q.string("integrationType").map(v -> FixedSet.require("integrationType", v, SourceFilter.PLATFORMS));
        List<String> adIds = q.list("adSourceIds");
        DateRange.read(q, "fromDate", "toDate", caller.account().timeZone(), true);
        int pageSize = q.intInRange("pageSize", 50);
        String fingerprint = platform.orElse("") + "|" + String.join(",", adIds);
        AdHierarchyReader.Cursor after = strictCursor(q, caller, "ads", fingerprint);
        AdHierarchyReader.Page<AdHierarchyReader.Ad> page = reader.ads(caller.accountId(), platform, adIds, after, pageSize);
        return new Envelopes.Page<>(page.items(), next(caller, "ads", fingerprint, page.next()), RequestIds.current());
    }

    @Get("/keywords")
    @Operation(summary = "List keywords.")
    @RequiresRole(Roles.GET_ADS)
    @QueryParameters(KeywordsQuery.class)
    Envelopes.Page<AdHierarchyReader.Keyword> keywords(QueryParams q, Caller caller) {
        Optional<String> group = q.string("adgroupId");
        DateRange range = DateRange.read(q, "fromDate", "toDate", caller.account().timeZone(), true);
        int pageSize = q.intInRange("pageSize", 50);
        String fingerprint = group.orElse("") + "|" + range.from().map(Object::toString).orElse("") + "|"
                + range.to().map(Object::toString).orElse("");
        AdHierarchyReader.Cursor after = strictCursor(q, caller, "keywords", fingerprint);
        AdHierarchyReader.Page<AdHierarchyReader.Keyword> page = reader.keywords(caller.accountId(),
                caller.account().timeZone(), group, range.from(), range.to(), after, pageSize);
        return new Envelopes.Page<>(page.items(), next(caller, "keywords", fingerprint, page.next()), RequestIds.current());
    }

    /** Resetting cursor: the token is bound to the list only; the parameters it was made for are inside it. */
    private AdHierarchyReader.Cursor cursor(QueryParams q, Caller caller, String list, String fingerprint) {
        return q.string("pageId").map(token -> {
            JsonNode c = pageTokens.open(token, caller.accountId(), list, PageTokens.INVALID);
            return fingerprint.equals(c.path("f").asText()) ? toCursor(c) : null;
        }).orElse(null);
    }

    private AdHierarchyReader.Cursor strictCursor(QueryParams q, Caller caller, String list, String fingerprint) {
        return q.string("pageId").map(token -> {
            JsonNode c = pageTokens.open(token, caller.accountId(), list, PageTokens.INVALID);
            if (!fingerprint.equals(c.path("f").asText())) {
                throw ApiException.badRequest(PageTokens.INVALID);
            }
            return toCursor(c);
        }).orElse(null);
    }

    private static AdHierarchyReader.Cursor toCursor(JsonNode c) {
        return new AdHierarchyReader.Cursor(Instant.parse(c.get("t").asText()), c.get("k").asText());
    }

    private String next(Caller caller, String list, String fingerprint, AdHierarchyReader.Cursor next) {
        if (next == null) {
            return null;
        }
        ObjectNode c = JsonBody.mapper().createObjectNode().put("t", next.createdAt().toString()).put("k", next.key())
                .put("f", fingerprint);
        return pageTokens.issue(caller.accountId(), list, c);
    }

    interface AdAccountsQuery extends QueryParameter.Paged {
        Spec ids = Spec.list(50, "ad account ids");
        Spec fields = Spec.string("comma-separated, of " + AD_ACCOUNT_FIELDS + " (default all)");
        Spec fromDate = Spec.date("checked only (spec 7.2)");
        Spec toDate = Spec.date("checked only (spec 7.2)");
    }

    interface AdsQuery extends QueryParameter.Paged {
        Spec integrationType = SourceFilter.Parameters.integrationType;
        Spec adSourceIds = SourceFilter.Parameters.adSourceIds;
        Spec fromDate = Spec.date("checked only (spec 7.2)");
        Spec toDate = Spec.date("checked only (spec 7.2)");
    }

    interface KeywordsQuery extends QueryParameter.Paged {
        Spec adgroupId = Spec.string("ad group id");
        Spec fromDate = Spec.date("created at or after");
        Spec toDate = Spec.date("created at or before");
    }
}
