package dev.attribution.server.roles;

import dev.attribution.server.support.ApiTest;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A read-only node (attribution.roles.command=false) serves reads and refuses writes with a 404 envelope. */
@MicronautTest(transactional = false)
@Property(name = "attribution.roles.command", value = "false")
class CommandOffNodeTest extends ApiTest {

    @Test
    void writesAreNotServedAndReadsAre() {
        String key = newAccount();
        Response write = post(key, "/api/v1.0/leads", "{\"email\":\"c@example.com\"}");
        assertEquals(404, write.status());
        assertEquals("This node does not serve POST /api/v1.0/leads (attribution.roles.command is false)", write.message());

        Response read = get(key, "/api/v1.0/leads");
        assertEquals(200, read.status(), read.raw());
        assertEquals(0, read.body().get("result").size());
    }
}
