package dev.attribution.server.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.server.support.BrowserTest;
import dev.attribution.server.support.Browser;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 21 point 5: Swagger UI as a newcomer uses it, in a real headless Chromium. Open {@code /swagger-ui/index.html}
 * (README), authorize with the key, "Try it out" on {@code POST /leads} with the document's example body as it stands,
 * poll the request with {@code GET /requests/{requestId}} until PROCESSED, and list it with {@code GET /leads} and an
 * {@code emails} filter in the spec's list form. Every step is a click or a typed value in the page; each answer is
 * read from the page, not from a side channel.
 */
@MicronautTest(transactional = false)
class SwaggerUiTest extends BrowserTest {

    @Test
    void aNewcomerCreatesPollsAndListsALeadThroughTryItOut() throws IOException {
        String key = newUnthrottledAccount("America/New_York", dev.attribution.api.auth.Roles.ALL);
        OpenApiDocumentTest.served(server.getURL() + "/openapi.yml"); // built on first request: slow on a loaded machine
        browser.open(server.getURL() + "/swagger-ui/index.html");
        try {
            browser.visible("#operations-leads-createLead");
        } catch (RuntimeException e) {
            browser.screenshot("swagger-ui-not-loaded");
            java.nio.file.Files.writeString(Browser.SCREENSHOTS.resolve("swagger-ui-not-loaded.html"), browser.driver().getPageSource());
            throw new AssertionError("Swagger UI showed no operations; console: " + browser.consoleErrors(), e);
        }
        authorize(key);

        JsonNode created = execute("#operations-leads-createLead", null, null);
        assertEquals("OK", created.path("result").asText(), created.toString());
        String requestId = created.path("request_id").asText();
        assertTrue(!requestId.isBlank(), created.toString());

        JsonNode status = null;
        for (int attempt = 0; attempt < 600 && (status == null || "PENDING".equals(status.path("status").asText())); attempt++) {
            status = execute("#operations-requests-getRequest", "requestId", requestId).path("result");
        }
        assertEquals("PROCESSED", status.path("status").asText(), status.toString());
        assertEquals("CREATE_LEAD", status.path("eventType").asText(), status.toString());

        JsonNode leads = null; // the lead reaches the list once CDC has carried it (seconds)
        for (int attempt = 0; attempt < 100 && (leads == null || leads.path("result").isEmpty()); attempt++) {
            leads = execute("#operations-leads-listLeads", "emails", "\"ada@example.com\"");
        }
        assertEquals(1, leads.path("result").size(), leads + " from " + requestUrl("#operations-leads-listLeads"));
        // only what the user typed is sent: Swagger UI sends every example it shows, so optional filters have none
        assertTrue(requestUrl("#operations-leads-listLeads").endsWith("/api/v1.0/leads?emails=%22ada%40example.com%22"),
                requestUrl("#operations-leads-listLeads"));
        assertEquals("ada@example.com", leads.path("result").path(0).path("email").asText());
        assertEquals("Lovelace", leads.path("result").path(0).path("lastName").asText());
        assertTrue(leads.path("nextPageId").isNull(), leads.toString());
        browser.screenshot("swagger-ui-list-leads");
        assertEquals(java.util.List.of(), browser.consoleErrors());
    }

    /** The request URL Swagger UI shows for the operation's last execution. */
    private String requestUrl(String operation) {
        return browser.visible(operation + " .request-url pre").getText();
    }

    /** The "Authorize" dialog: the key into the API-Key field, Authorize, Close. */
    private void authorize(String key) {
        browser.visible("button.authorize").click();
        browser.visible(".modal-ux input[type=text], .modal-ux input[type=password]").sendKeys(key);
        browser.visible(".modal-ux .auth-btn-wrapper button.authorize").click();
        browser.visible(".modal-ux button.btn-done").click();
        browser.await(d -> d.findElements(By.cssSelector(".modal-ux")).isEmpty() ? true : null);
    }

    /**
     * Expands the operation (once), presses "Try it out" (once), types {@code value} into the parameter {@code param}
     * when given, presses Execute, and returns the JSON body Swagger UI shows for the live response, asserting 200.
     */
    private JsonNode execute(String operation, String param, String value) throws IOException {
        WebElement block = browser.visible(operation);
        if (block.findElements(By.cssSelector(".opblock-body")).isEmpty()) {
            block.findElement(By.cssSelector(".opblock-summary-control, .opblock-summary")).click();
        }
        WebElement tryOut = browser.await(d -> block.findElements(By.cssSelector("button.try-out__btn")).stream()
                .findFirst().orElse(null));
        if (!tryOut.getAttribute("class").contains("cancel")) {
            tryOut.click();
        }
        if (param != null) {
            WebElement input = browser.await(d -> block.findElements(
                    By.cssSelector("tr[data-param-name='" + param + "'] input")).stream().findFirst().orElse(null));
            input.sendKeys(Keys.chord(Keys.CONTROL, "a"), value);
        }
        // a previous answer is cleared first, so the one read below is this execution's
        block.findElements(By.cssSelector("button.btn-clear")).forEach(WebElement::click);
        browser.await(d -> block.findElements(By.cssSelector(".live-responses-table")).isEmpty() ? true : null);
        block.findElement(By.cssSelector("button.execute")).click();
        WebElement status = browser.await(d -> block.findElements(
                By.cssSelector(".live-responses-table tr.response td.response-col_status")).stream().findFirst().orElse(null));
        String body = browser.await(d -> {
            var code = block.findElements(By.cssSelector(".live-responses-table tr.response td.response-col_description pre"));
            return code.isEmpty() || code.get(0).getText().isBlank() ? null : code.get(0).getText();
        });
        assertEquals("200", status.getText().trim(), operation + " answered " + body);
        return JsonBody.mapper().readTree(body);
    }
}
