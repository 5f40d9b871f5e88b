package dev.attribution.api;

import io.micronaut.core.annotation.AnnotationMetadata;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import io.micronaut.web.router.RouteAttributes;
import jakarta.inject.Singleton;

import java.util.Optional;

/**
 * Lets controllers declare a {@link QueryParams} argument: the request's query string read by the route's
 * {@link QueryParameters} declaration (refused at binding on an enforcing endpoint, with the messages of spec 4.0).
 */
@Singleton
public class QueryParamsBinder implements TypedRequestArgumentBinder<QueryParams> {

    @Override
    public Argument<QueryParams> argumentType() {
        return Argument.of(QueryParams.class);
    }

    @Override
    public BindingResult<QueryParams> bind(ArgumentConversionContext<QueryParams> context, HttpRequest<?> source) {
        AnnotationMetadata method = RouteAttributes.getRouteMatch(source)
                .map(m -> m.getRouteInfo().getAnnotationMetadata()).orElse(AnnotationMetadata.EMPTY_METADATA);
        QueryParams q = QueryParams.of(source.getParameters(), source.getUri().getRawQuery(), QueryDeclaration.of(method));
        return () -> Optional.of(q);
    }
}
