package dev.attribution.server.marketing;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link MarketingApiTest} with a fresh account per test ({@code key}) and the async create and 400 checks. */
abstract class AccountApiTest extends MarketingApiTest {

    String key;

    @BeforeEach
    void account() {
        key = newAccount();
    }

    /** POSTs {@code json} to {@code path}, waits for it and asserts it was PROCESSED as {@code eventType}: its result. */
    JsonNode created(String path, String eventType, String json) {
        return processed(key, "POST", path, json, eventType);
    }

    void assertError(Response r, String message) {
        assertEquals(400, r.status(), r.raw());
        assertEquals(message, r.message());
    }
}
