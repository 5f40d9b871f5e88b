package dev.attribution.api;

import io.micronaut.context.BeanLocator;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.annotation.NonBlocking;
import io.micronaut.inject.MethodReference;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.scheduling.executor.DefaultExecutorSelector;
import io.micronaut.scheduling.executor.ThreadSelection;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * Where a route runs. The server's {@code micronaut.server.thread-selection} is {@code BLOCKING}: every route runs on
 * the blocking pool, so a route may read the database. Micronaut then ignores {@link NonBlocking}; here a route
 * annotated {@link NonBlocking} (and without {@link ExecuteOn}) runs on the event loop that received the request.
 * Such a route must not block: it returns a future and hands any database work to another thread (the write routes,
 * {@code WriteAcceptance}).
 */
@Singleton
@Replaces(DefaultExecutorSelector.class)
public class NonBlockingRoutes extends DefaultExecutorSelector {

    protected NonBlockingRoutes(BeanLocator beanLocator,
                                @Named(TaskExecutors.IO) BeanProvider<ExecutorService> io,
                                @Named(TaskExecutors.BLOCKING) BeanProvider<ExecutorService> blocking) {
        super(beanLocator, io, blocking);
    }

    @Override
    public Optional<ExecutorService> select(MethodReference<?, ?> method, ThreadSelection threadSelection) {
        if (method.hasStereotype(NonBlocking.class) && !method.hasStereotype(ExecuteOn.class)) {
            return Optional.empty();
        }
        return super.select(method, threadSelection);
    }
}
