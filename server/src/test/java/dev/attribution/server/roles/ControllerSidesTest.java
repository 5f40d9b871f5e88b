package dev.attribution.server.roles;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.server.support.ApiTest;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.annotation.Controller;
import io.micronaut.inject.BeanDefinition;
import io.micronaut.inject.qualifiers.Qualifiers;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.web.router.Router;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every controller declares the side serving it ({@link ServedBy}), so a node's roles never depend on where a class
 * lives: a controller added without a declaration fails here, naming it.
 */
@MicronautTest(transactional = false)
class ControllerSidesTest extends ApiTest {

    @Inject
    ApplicationContext context;

    @Inject
    Router router;

    @Test
    void everyControllerDeclaresItsSide() {
        List<String> undeclared = context.getBeanDefinitions(Qualifiers.byStereotype(Controller.class)).stream()
                .filter(d -> !d.hasDeclaredAnnotation(ServedBy.class))
                .map(BeanDefinition::getBeanType).map(Class::getName).sorted().toList();
        assertFalse(context.getBeanDefinitions(Qualifiers.byStereotype(Controller.class)).isEmpty());
        assertEquals(List.of(), undeclared, "controllers without @ServedBy");
    }

    @Test
    void everyApiRouteHasASideOfTheApi() {
        List<String> unsided = router.uriRoutes()
                .filter(r -> r.getUriMatchTemplate().toString().startsWith("/api/v1.0/"))
                .filter(r -> r.getAnnotationMetadata().enumValue(ServedBy.class, NodeSide.class)
                        .filter(side -> side != NodeSide.EVERY_NODE).isEmpty())
                .map(r -> r.getHttpMethodName() + " " + r.getUriMatchTemplate())
                .sorted().toList();
        assertEquals(List.of(), unsided, "API routes served by no side (command or query)");
    }
}
