package dev.attribution.query.account;

import dev.attribution.api.ApiException;
import dev.attribution.api.QueryDeclaration;
import dev.attribution.api.QueryParameter;
import io.micronaut.http.HttpParameters;
import jakarta.inject.Singleton;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The account's tracking snippet (GET /tracking-script): a script tag loading the universal script from
 * {@link TrackingScriptSettings#getBaseUrl()} (default: this server as addressed by the request), with the
 * client's options {@code spa}, {@code ignorePrevUrl}, {@code embed}, {@code deleteTrackingScriptParams}.
 */
@Singleton
class TrackingScript {

    private static final List<String> FLAGS = QueryDeclaration.of(Query.class, true).parameters().entrySet().stream()
            .filter(p -> p.getValue().kind() == QueryParameter.Kind.BOOLEAN).map(java.util.Map.Entry::getKey).toList();

    private final String baseUrl;

    TrackingScript(TrackingScriptSettings settings) {
        this.baseUrl = settings.getBaseUrl();
    }

    String render(String accountId, String host, HttpParameters params) {
        List<String> problems = new ArrayList<>();
        StringBuilder query = new StringBuilder("ph=").append(enc(accountId));
        for (String flag : FLAGS) {
            String v = params.get(flag);
            if (v == null) {
                continue;
            }
            if (!v.equals("true") && !v.equals("false")) {
                problems.add(AccountMessages.notBoolean(flag));
            } else if (v.equals("true")) {
                query.append('&').append(flag).append("=true");
            }
        }
        String domain = params.get("domain");
        if (domain != null && !domain.isBlank()) {
            query.append("&domain=").append(enc(domain.trim().toLowerCase(java.util.Locale.ROOT)));
        }
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(problems);
        }
        String base = !baseUrl.isEmpty() ? baseUrl : "//" + (host == null ? "localhost" : host);
        return "<script>\n"
                + "var head = document.head;\n"
                + "var script = document.createElement('script');\n"
                + "script.type = 'text/javascript';\n"
                + "script.src = \"" + base + "/v1/lst/universal-script?" + query
                + "&tag=!clicked&ref_url=\" + encodeURI(document.URL);\n"
                + "head.appendChild(script);\n"
                + "</script>\n";
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    interface Query extends QueryParameter {
        Spec domain = Spec.string("one of the account's domains");
        Spec spa = Spec.bool("single-page application");
        Spec ignorePrevUrl = Spec.bool("ignore the previous URL");
        Spec embed = Spec.bool("embedded page");
        Spec deleteTrackingScriptParams = Spec.bool("remove the tracking parameters from the page URL");
    }
}
