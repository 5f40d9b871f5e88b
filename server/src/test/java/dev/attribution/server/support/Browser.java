package dev.attribution.server.support;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import java.util.stream.Stream;

/**
 * A real headless Chromium for the browser tests: Debian's {@code /usr/bin/chromium} driven through its
 * {@code /usr/bin/chromedriver} (both installed by {@code scripts/lib/install.sh}; {@code CHROMIUM_BIN} and
 * {@code CHROMEDRIVER_BIN} override the paths). Both paths are given to Selenium, so Selenium Manager never looks
 * anything up on the network. Each browser has a private profile directory, removed by {@link #close()}.
 * Screenshots go to {@code server/target/screenshots/}. Open one per test class (starting Chromium takes seconds).
 */
public final class Browser implements AutoCloseable {

    /** Where {@link #screenshot} writes: surefire runs with the module directory ({@code server/}) as working dir. */
    public static final Path SCREENSHOTS = Path.of("target", "screenshots").toAbsolutePath();

    /** How long {@link #await} waits for a condition: generous, the machine running the tests may be loaded. */
    public static final Duration PATIENCE = Duration.ofSeconds(60);

    /**
     * Selenium warns once per browser that it has no DevTools classes for this Chromium's version; the tests use
     * WebDriver only, never CDP. Held here so the logger (and its level) is not garbage-collected.
     */
    private static final java.util.logging.Logger CDP_FINDER = quiet("org.openqa.selenium.devtools.CdpVersionFinder");

    private final ChromeDriverService service;
    private final ChromeDriver driver;
    private final Path profile;

    private Browser(ChromeDriverService service, ChromeDriver driver, Path profile) {
        this.service = service;
        this.driver = driver;
        this.profile = profile;
    }

    /** Starts a headless Chromium with a 1400x1000 window. */
    public static Browser start() {
        File chromium = executable("CHROMIUM_BIN", "/usr/bin/chromium");
        File chromedriver = executable("CHROMEDRIVER_BIN", "/usr/bin/chromedriver");
        Path profile;
        try {
            profile = Files.createTempDirectory("browser-profile-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--user-data-dir=" + profile, "--window-size=1400,1000", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync", "--lang=en-US");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver)
                .usingAnyFreePort()
                .withTimeout(PATIENCE)
                .build();
        try {
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(PATIENCE).scriptTimeout(PATIENCE);
            driver.manage().window().setSize(new Dimension(1400, 1000));
            return new Browser(service, driver, profile);
        } catch (RuntimeException e) {
            service.stop();
            deleteTree(profile);
            throw e;
        }
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(Level.SEVERE);
        return logger;
    }

    private static File executable(String env, String fallback) {
        String path = System.getenv().getOrDefault(env, fallback);
        File f = new File(path);
        if (!f.canExecute()) {
            throw new IllegalStateException(path + " is missing: run scripts/lib/servers.sh install (installs Debian's "
                    + "chromium and chromium-driver), or set " + env);
        }
        return f;
    }

    public WebDriver driver() {
        return driver;
    }

    /** Loads {@code url} and waits for the document to be complete. */
    public Browser open(String url) {
        driver.get(url);
        await(d -> "complete".equals(((ChromeDriver) d).executeScript("return document.readyState")) ? true : null);
        return this;
    }

    /** Waits (up to {@link #PATIENCE}) until {@code condition} gives a non-null, non-false value, and returns it. */
    public <T> T await(ExpectedCondition<T> condition) {
        return new WebDriverWait(driver, PATIENCE, Duration.ofMillis(100)).until(condition);
    }

    /** The element {@code css} once it is present and displayed. */
    public WebElement visible(String css) {
        return await(d -> d.findElements(By.cssSelector(css)).stream().filter(WebElement::isDisplayed).findFirst().orElse(null));
    }

    /** Runs {@code script} in the page and returns its value (Selenium's types: String, Long, Double, List, Map). */
    public Object script(String script, Object... args) {
        return driver.executeScript(script, args);
    }

    /** Writes a PNG of the viewport to {@code target/screenshots/<name>.png} and returns its path. */
    public Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The page's console messages at SEVERE level since the last call (uncaught errors, failed loads). */
    public List<String> consoleErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage).toList();
    }

    /** Quits Chromium and its driver and removes the profile directory. */
    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
            deleteTree(profile);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp directory is harmless
        }
    }
}
