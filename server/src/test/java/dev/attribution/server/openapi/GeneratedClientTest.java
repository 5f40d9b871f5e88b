package dev.attribution.server.openapi;

import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 21 point 4: openapi-generator-maven-plugin 7.25.0 generates a Java client (library {@code native}) from the
 * document this server serves, and {@code CoreScenario} (server/src/test/client) runs, through that client only,
 * against this server: leads created and polled to PROCESSED, {@code GET /leads} paged to its last page (a null
 * {@code nextPageId}), an order, {@code /attribution}, a source and its campaign's {@code /attribution/roas}. The
 * client project is built by a nested {@code mvn} and loaded in a class loader of its own (its dependencies, not the
 * server's).
 */
@MicronautTest(transactional = false)
class GeneratedClientTest extends ApiTest {

    @Test
    void aGeneratedJavaClientRunsTheCoreScenario() throws Exception {
        Path build = Files.createDirectories(Path.of("target", "generated-client")).toAbsolutePath();
        Path spec = build.resolve("attribution-api.yml");
        Files.writeString(spec, OpenApiDocumentTest.served(server.getURL() + "/openapi.yml"));
        Path pom = Path.of("src", "test", "client", "pom.xml").toAbsolutePath();

        Process mvn = new ProcessBuilder(List.of("mvn", "-B", "-q", "-f", pom.toString(), "-Dspec=" + spec,
                "-Dclient.build=" + build.resolve("build"), "compile", "dependency:build-classpath"))
                .redirectErrorStream(true).start();
        String out = new String(mvn.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(mvn.waitFor(15, TimeUnit.MINUTES), "mvn finished");
        assertEquals(0, mvn.exitValue(), out);

        List<URL> urls = new ArrayList<>();
        urls.add(build.resolve("build").resolve("classes").toUri().toURL());
        for (String jar : Files.readString(build.resolve("build").resolve("classpath.txt")).trim().split(File.pathSeparator)) {
            urls.add(Path.of(jar).toUri().toURL());
        }
        List<String> log;
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Class<?> scenario = loader.loadClass("dev.attribution.clientcheck.CoreScenario");
            String key = newUnthrottledAccount("America/New_York", dev.attribution.api.auth.Roles.ALL);
            try {
                @SuppressWarnings("unchecked")
                List<String> lines = (List<String>) scenario.getMethod("run", String.class, String.class)
                        .invoke(null, server.getURL() + "/api/v1.0", key);
                log = lines;
            } catch (InvocationTargetException e) {
                throw new AssertionError("the scenario failed: " + e.getCause(), e.getCause());
            }
        }
        assertEquals(List.of("createLead OK PROCESSED", "createLead OK PROCESSED", "createLead OK PROCESSED",
                "listLeads pages=2 leads=3 lastNextPageId=null", "createOrder OK PROCESSED",
                "getAttributionReport request_id=true", "createSource OK PROCESSED", "getRoasReport request_id=true"), log);
    }
}
