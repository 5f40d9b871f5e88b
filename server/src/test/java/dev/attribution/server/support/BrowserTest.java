package dev.attribution.server.support;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * An {@link ApiTest} with one headless Chromium for the whole class ({@link Browser}: starting it takes seconds),
 * started before the class's own {@code @BeforeAll} and quit after its {@code @AfterAll}.
 */
public abstract class BrowserTest extends ApiTest {

    protected Browser browser;

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
}
