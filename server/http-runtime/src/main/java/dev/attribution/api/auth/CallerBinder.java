package dev.attribution.api.auth;

import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import jakarta.inject.Singleton;

import java.util.Optional;

/** Lets controllers declare a {@link Caller} parameter, filled by {@link ApiKeyFilter}. */
@Singleton
public class CallerBinder implements TypedRequestArgumentBinder<Caller> {

    @Override
    public Argument<Caller> argumentType() {
        return Argument.of(Caller.class);
    }

    @Override
    public BindingResult<Caller> bind(ArgumentConversionContext<Caller> context, HttpRequest<?> source) {
        Optional<Caller> caller = source.getAttribute(Caller.ATTRIBUTE, Caller.class);
        return () -> caller;
    }
}
