package dev.attribution.server.surfaces;

import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Without the test switch, loopback targets are refused like every other non-public address. */
@MicronautTest(transactional = false)
class WebhookSsrfTest extends ApiTest {

    @Test
    void loopbackRefusedByDefault() {
        String key = newAccount();
        for (String url : new String[]{"http://127.0.0.1:8080/", "http://localhost/", "http://[::1]/", "https://127.8.9.10/"}) {
            Response r = subscribe(key, url);
            assertEquals(400, r.status(), url);
            assertEquals("targetUrl must resolve to a public address", r.message(), url);
        }
    }

    /**
     * Issue 29: IPv6 forms that embed a private IPv4 address, and IPv4 spellings parsers read differently, are
     * refused like the address they stand for (the same rule runs at creation, update and delivery: UrlGuard).
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "http://[64:ff9b::a9fe:a9fe]/",         // NAT64 of 169.254.169.254, the cloud metadata address
            "http://[64:ff9b::a00:1]/",             // NAT64 of 10.0.0.1
            "http://[64:ff9b:1::a00:1]/",           // local-use NAT64
            "http://[::7f00:1]/",                   // IPv4-compatible 127.0.0.1
            "http://[::a00:1]/",                    // IPv4-compatible 10.0.0.1
            "http://[::ffff:a9fe:a9fe]/",           // IPv4-mapped 169.254.169.254
            "http://[2002:7f00:1::]/",              // 6to4 of 127.0.0.1
            "http://[2002:c0a8:101::1]/",           // 6to4 of 192.168.1.1
            "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", // Teredo
            "http://0177.0.0.1/", "http://2130706433/", "http://0x7f000001/", "http://10.0.0.010/"}) // 127.0.0.1 / 10.0.0.8 to glibc
    void embeddedAndAmbiguousPrivateAddressesAreRefused(String url) {
        Response r = subscribe(newAccount(), url);
        assertEquals(400, r.status(), url + " " + r.raw());
        assertEquals("targetUrl must resolve to a public address", r.message(), url);
    }

    /** Spellings the JDK's URI parser already takes for no host at all: refused as not an http(s) URL. */
    @ParameterizedTest
    @ValueSource(strings = {"http://0x7f.0.0.1/", "http://127.1/"})
    void otherIpv4SpellingsAreNoHost(String url) {
        Response r = subscribe(newAccount(), url);
        assertEquals(400, r.status(), url + " " + r.raw());
        assertEquals("targetUrl must be an absolute http or https URL", r.message(), url);
    }

    /** The decoding does not refuse public addresses in the same forms. */
    @ParameterizedTest
    @ValueSource(strings = {"http://[64:ff9b::808:808]/", "http://[2002:808:808::1]/", "http://8.8.8.8/"})
    void embeddedPublicAddressesAreAccepted(String url) {
        Response r = subscribe(newAccount(), url);
        assertEquals(200, r.status(), url + " " + r.raw());
    }

    private Response subscribe(String key, String url) {
        return post(key, "/api/v1.0/webhook-subscriptions",
                "{\"name\":\"n\",\"targetUrl\":\"" + url + "\",\"eventTypes\":[\"lead.tag.added\"]}");
    }
}
