package dev.attribution.server.roles;

import dev.attribution.api.ApiException;
import dev.attribution.api.ErrorResponses;
import io.micronaut.context.annotation.Value;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.web.router.MethodBasedRouteMatch;
import io.micronaut.web.router.RouteAttributes;

/**
 * Which API roles this node serves ({@code attribution.roles.command}, {@code attribution.roles.query}; both on by
 * default). Controllers of {@code dev.attribution.command…} are the command side, those of
 * {@code dev.attribution.query…} the query side; a node with one side switched off answers that side's routes
 * 404 with the error envelope, before authentication, so a load balancer can route writes and reads to separate
 * pools of stateless nodes. (The CDC role is switched by the same prefix in the cdc-bridge module.)
 */
@ServerFilter("/api/v1.0/**")
public class NodeRolesFilter implements Ordered {

    private final boolean command;
    private final boolean query;

    public NodeRolesFilter(@Value("${attribution.roles.command:true}") boolean command,
                           @Value("${attribution.roles.query:true}") boolean query) {
        this.command = command;
        this.query = query;
    }

    @RequestFilter
    @Nullable
    public HttpResponse<?> refuseSwitchedOffSide(HttpRequest<?> request) {
        if (command && query) {
            return null;
        }
        String side = RouteAttributes.getRouteMatch(request)
                .filter(MethodBasedRouteMatch.class::isInstance)
                .map(m -> ((MethodBasedRouteMatch<?, ?>) m).getDeclaringType().getPackageName())
                .orElse("");
        boolean off = (!command && side.startsWith("dev.attribution.command"))
                || (!query && side.startsWith("dev.attribution.query"));
        return off ? ErrorResponses.of(ApiException.notFound(
                "This node does not serve " + request.getMethodName() + " " + request.getPath()
                        + " (attribution.roles." + (side.startsWith("dev.attribution.command") ? "command" : "query") + " is false)"))
                : null;
    }

    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE + 10;
    }
}
