package dev.attribution.server.roles;

import dev.attribution.api.RoleSettings;

import dev.attribution.api.ApiException;
import dev.attribution.api.ErrorResponses;
import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
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
 * default). Each route's side is the one its controller declares with {@link ServedBy} (a method's declaration
 * overrides its class's); a node with one side switched off answers that side's routes 404 with the error envelope,
 * before authentication, so a load balancer can route writes and reads to separate pools of stateless nodes.
 * (The CDC role is switched by {@code @Requires} on the cdc-bridge's bean.)
 */
@ServerFilter("/api/v1.0/**")
public class NodeRolesFilter implements Ordered {

    private final boolean command;
    private final boolean query;

    public NodeRolesFilter(RoleSettings roles) {
        this.command = roles.isCommand();
        this.query = roles.isQuery();
    }

    @RequestFilter
    @Nullable
    public HttpResponse<?> refuseSwitchedOffSide(HttpRequest<?> request) {
        if (command && query) {
            return null;
        }
        NodeSide side = RouteAttributes.getRouteMatch(request)
                .filter(MethodBasedRouteMatch.class::isInstance)
                .flatMap(m -> ((MethodBasedRouteMatch<?, ?>) m).getAnnotationMetadata().enumValue(ServedBy.class, NodeSide.class))
                .orElse(NodeSide.EVERY_NODE);
        boolean off = !command && side == NodeSide.COMMAND || !query && side == NodeSide.QUERY;
        return off ? ErrorResponses.of(ApiException.notFound("This node does not serve " + request.getMethodName() + " "
                + request.getPath() + " (attribution.roles." + side.role() + " is false)"))
                : null;
    }

    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE + 10;
    }
}
