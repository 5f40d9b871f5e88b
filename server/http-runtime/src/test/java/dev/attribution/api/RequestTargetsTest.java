package dev.attribution.api;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Request targets as hand-built query strings write them, made parseable without changing what they say. */
class RequestTargetsTest {

    @ParameterizedTest
    @CsvSource(delimiterString = " => ", value = {
            "/api/v1.0/leads?email=ada+x@example.com => /api/v1.0/leads?email=ada+x@example.com",
            "/api/v1.0/leads?email=ada%2Bx%40example.com => /api/v1.0/leads?email=ada%2Bx%40example.com",
            "/api/v1.0/leads?email=100%off@example.com => /api/v1.0/leads?email=100%25off@example.com",
            "/api/v1.0/leads?email=o|brien{x}@example.com => /api/v1.0/leads?email=o%7Cbrien%7Bx%7D@example.com",
            "/api/v1.0/leads?email=a^b`c@example.com => /api/v1.0/leads?email=a%5Eb%60c@example.com",
            "/api/v1.0/leads?email=50% => /api/v1.0/leads?email=50%25",
            "/api/v1.0/leads?email=jos\u00e9@example.com => /api/v1.0/leads?email=jos%C3%A9@example.com",
            "/api/v1.0/leads?ids=%22a%22,%22b%22&pageSize=250 => /api/v1.0/leads?ids=%22a%22,%22b%22&pageSize=250",
    })
    void lenient(String target, String expected) {
        String fixed = RequestTargets.lenient(target);
        assertEquals(expected, fixed);
        URI.create(fixed); // parseable
    }
}
