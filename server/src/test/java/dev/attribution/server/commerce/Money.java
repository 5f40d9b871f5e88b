package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Money assertions: JSON numbers compared as exact decimals (12.5 equals 12.50, never a double). */
final class Money {

    private Money() {
    }

    static void assertAmount(String expected, JsonNode actual) {
        assertNotNull(actual, "amount missing");
        assertTrue(actual.isNumber(), "amount is a JSON number: " + actual);
        assertEquals(0, new BigDecimal(expected).compareTo(actual.decimalValue()), "expected " + expected + " but was " + actual);
    }

    static BigDecimal sum(JsonNode sales, String field) {
        BigDecimal total = BigDecimal.ZERO;
        for (JsonNode sale : sales) {
            total = total.add(sale.get("price").get(field).decimalValue());
        }
        return total;
    }
}
