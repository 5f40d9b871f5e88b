package dev.attribution.server.leads;

import dev.attribution.server.support.ApiTest;

/**
 * Base of the lead tests: these tests send many requests per second to one endpoint of one account, so a 429 of
 * the rate limiter (spec 8.1, tested elsewhere) is waited out and the request sent again.
 */
abstract class LeadsApiTest extends ApiTest {

    @Override
    protected Response send(String key, String method, String pathAndQuery, String json) {
        for (int attempt = 0; ; attempt++) {
            Response r = super.send(key, method, pathAndQuery, json);
            if (r.status() != 429 || attempt == 50) {
                return r;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return r;
            }
        }
    }
}
