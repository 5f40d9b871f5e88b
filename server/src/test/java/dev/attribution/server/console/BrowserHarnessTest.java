package dev.attribution.server.console;

import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.Browser;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The browser harness ({@link Browser}) against the running server: a real headless Chromium loads the console's
 * static page without an API key, runs its JavaScript module, and leaves a screenshot under target/screenshots.
 */
@MicronautTest(transactional = false)
class BrowserHarnessTest extends ApiTest {

    Browser browser;

    @BeforeAll
    void startBrowser() {
        browser = Browser.start();
    }

    @AfterAll
    void quitBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void chromiumLoadsTheConsolePageAndRunsItsModule() throws Exception {
        browser.open(server.getURL() + "/console/");
        // the module rewrites the loading text: proves the page and its JavaScript were served and ran
        assertEquals("ready", browser.visible("#app[data-state=ready]").getAttribute("data-state"));
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
        assertEquals(404, get(null, "/console/no-such-page.js").status());
    }
}
