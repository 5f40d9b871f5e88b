package dev.attribution.server.console;

import dev.attribution.server.support.BrowserTest;
import dev.attribution.server.support.Browser;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The browser harness ({@link Browser}) against the running server: a real headless Chromium loads the console's
 * static page without an API key, runs its JavaScript module, and leaves a screenshot under target/screenshots.
 */
@MicronautTest(transactional = false)
class BrowserHarnessTest extends BrowserTest {

    @Test
    void chromiumLoadsTheConsolePageAndRunsItsModule() throws Exception {
        browser.open(server.getURL() + "/console/");
        // the module rewrites the loading text: proves the page and its JavaScript were served and ran
        assertEquals("ready", browser.visible("body[data-state=ready]").getAttribute("data-state"));
        assertEquals("Attribution console", browser.driver().getTitle());
        assertEquals(java.util.List.of(), browser.consoleErrors());
        Path shot = browser.screenshot("browser-harness");
        assertTrue(Files.size(shot) > 1000, shot + " is a PNG of the page");
    }

    @Test
    void theStaticPageNeedsNoKeyAndUnknownConsolePathsAre404() {
        Response page = get(null, "/console/");
        assertEquals(200, page.status(), page.raw());
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        Response chart = get(null, "/console/vendor/echarts.min.js");
        assertEquals(200, chart.status());
        assertTrue(chart.raw().length() > 100_000, "the vendored chart library is served");
        Response bare = get(null, "/console");
        assertEquals(200, bare.status(), bare.raw());
        assertTrue(bare.raw().contains("<base href=\"/console/\">"), "without the slash, the page's paths still resolve from /console/");
        for (String missing : new String[]{"/console/no-such-page.js", "/console/js/pages/nope.js", "/console/%2e%2e/application.yml",
                "/console/../application.yml", "/console/..%2Fapplication.yml"}) {
            Response r = get(null, missing);
            assertEquals(404, r.status(), missing + ": " + r.raw());
            assertFalse(r.raw().contains("micronaut:"), missing + " must not serve a configuration file");
        }
        // the metrics label the files "static" and the misses "unmatched", never the path
        String metrics = get(null, "/prometheus").raw();
        assertTrue(metrics.contains("route=\"static\",status=\"200\""), "static files are labelled static");
        assertFalse(metrics.contains("no-such-page"), "paths never become labels");
    }
}
