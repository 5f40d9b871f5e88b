package dev.attribution.server.roles;

import dev.attribution.server.support.ApiTest;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A write-only node (attribution.roles.query=false) accepts writes and refuses reads with a 404 envelope. */
@MicronautTest(transactional = false)
@Property(name = "attribution.roles.query", value = "false")
class QueryOffNodeTest extends ApiTest {

    @Test
    void readsAreNotServedAndWritesAre() {
        String key = newAccount();
        Response read = get(key, "/api/v1.0/leads");
        assertEquals(404, read.status());
        assertEquals("ERROR", read.body().get("result").asText());
        assertEquals("This node does not serve GET /api/v1.0/leads (attribution.roles.query is false)", read.message());

        Response write = post(key, "/api/v1.0/leads", "{\"email\":\"q@example.com\"}");
        assertEquals(200, write.status(), write.raw());
    }
}
