package dev.attribution.server.platform;

import dev.attribution.testing.TestStack;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Two server nodes (application contexts, CDC off) over the test stack's one PostgreSQL, for the test's lifetime. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TwoNodeTest {

    final List<EmbeddedServer> nodes = new ArrayList<>();

    /** Properties of both nodes besides the test stack's. */
    Map<String, Object> nodeProperties() {
        return Map.of();
    }

    @BeforeAll
    void startTwoNodes() {
        Map<String, Object> properties = new HashMap<>(TestStack.get().properties());
        properties.put("attribution.roles.cdc", "false");
        properties.putAll(nodeProperties());
        for (int i = 0; i < 2; i++) {
            nodes.add(ApplicationContext.run(EmbeddedServer.class, properties, "test"));
        }
    }

    @AfterAll
    void stopNodes() {
        nodes.forEach(EmbeddedServer::stop);
    }
}
