package dev.attribution.server.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 21 point 2: the served document passes {@code @redocly/cli lint} 2.77.0 with the committed
 * {@code redocly.yaml} (recommended rules as errors, the rules switched off each with its reason): 0 errors,
 * 0 warnings. Needs {@code npx} (scripts/lib/servers.sh install puts Node.js and npm in place) and the npm registry
 * on the first run.
 */
@MicronautTest(transactional = false)
class OpenApiLintTest extends ApiTest {

    static final String REDOCLY = "@redocly/cli@2.77.0";

    @Test
    void theServedDocumentLintsClean() throws Exception {
        Path file = Files.createDirectories(Path.of("target")).resolve("openapi-served.yml");
        Files.writeString(file, OpenApiDocumentTest.served(server.getURL() + "/openapi.yml"));
        Path config = Path.of("..", "redocly.yaml").toAbsolutePath().normalize();
        assertTrue(Files.exists(config), config.toString());

        Process p = new ProcessBuilder(List.of("npx", "--yes", REDOCLY, "lint", "--config", config.toString(),
                "--format=json", file.toAbsolutePath().toString()))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "redocly finished");
        JsonNode report = JsonBody.mapper().readTree(out.substring(out.indexOf('{')));
        assertEquals(0, report.path("totals").path("errors").asInt(-1), out);
        assertEquals(0, report.path("totals").path("warnings").asInt(-1), out);
        assertEquals(0, p.exitValue(), out);
    }
}
