package dev.attribution.api;

import io.micronaut.core.convert.ConversionService;
import io.micronaut.http.HttpParameters;
import io.micronaut.http.simple.SimpleHttpParameters;
import io.micronaut.http.uri.QueryStringDecoder;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Query parameters decoded from a query string, as the server hands them to controllers. */
final class TestParams {

    private TestParams() {
    }

    static HttpParameters of(String query) {
        Map<CharSequence, List<String>> values = new LinkedHashMap<>(new QueryStringDecoder("/x?" + query).parameters());
        return new SimpleHttpParameters(values, ConversionService.SHARED);
    }
}
