package dev.attribution.server.mcp;

import io.micronaut.web.router.Router;
import io.swagger.v3.oas.annotations.Operation;
import io.micronaut.web.router.UriRouteInfo;
import jakarta.inject.Singleton;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The API's operations as the router knows them: every {@code GET/POST/PUT/DELETE /api/v1.0/…} route with the role
 * its controller declares. One tool per entry; a new endpoint becomes a tool without an edit here.
 */
@Singleton
public class ApiOperations {

    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "DELETE");

    private final Router router;
    private volatile List<ApiOperation> operations;

    ApiOperations(Router router) {
        this.router = router;
    }

    public List<ApiOperation> all() {
        List<ApiOperation> ops = operations;
        if (ops == null) {
            Map<String, ApiOperation> byName = new LinkedHashMap<>();
            router.uriRoutes()
                    .filter(r -> METHODS.contains(r.getHttpMethodName()))
                    .filter(r -> r.getUriMatchTemplate().toPathString().startsWith(ApiOperation.PREFIX + "/"))
                    .map(ApiOperations::operation)
                    .sorted(Comparator.comparing(ApiOperation::path).thenComparing(ApiOperation::method))
                    .forEach(op -> byName.putIfAbsent(op.toolName(), op));
            ops = List.copyOf(byName.values());
            operations = ops;
        }
        return ops;
    }

    private static ApiOperation operation(UriRouteInfo<?, ?> route) {
        return ApiOperation.of(route.getHttpMethodName(), route.getUriMatchTemplate().toPathString(), route.getAnnotationMetadata(),
                route.getTargetMethod().getReturnType().asArgument(),
                route.getProduces().stream().map(Object::toString).toList(),
                route.getTargetMethod().getTargetMethod().getAnnotation(Operation.class));
    }
}
