package dev.attribution.server.marketing;

import dev.attribution.server.support.ApiTest;

import java.util.HashMap;
import java.util.Map;

/** {@link ApiTest} on a random HTTP port, so test JVMs running side by side never fight over 8080. */
abstract class MarketingApiTest extends ApiTest {

    @Override
    public Map<String, String> getProperties() {
        Map<String, String> p = new HashMap<>(super.getProperties());
        p.put("micronaut.server.port", "-1");
        return p;
    }
}
