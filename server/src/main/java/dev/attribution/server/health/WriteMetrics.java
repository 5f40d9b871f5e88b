package dev.attribution.server.health;

import dev.attribution.api.RoleSettings;

import dev.attribution.command.requests.AcceptBursts;
import dev.attribution.command.requests.WriteAcceptance;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;

/**
 * Prometheus gauges of the accept side (README "Architecture", ingest first): {@code writes_accepted_per_second} on
 * this node, {@code writes_burst} (1 while the workers that caught up within max-yield stand aside) and
 * {@code write_workers_standing_aside} (how many of this node's worker threads stand aside right now); and its capacity:
 * {@code writes_in_flight} (writes being validated, committed or answered) and {@code writes_refused_at_capacity_total}
 * (503s given because {@code attribution.requests.max-in-flight} were in flight).
 */
@Context
@Requires(property = RoleSettings.COMMAND, notEquals = "false")
class WriteMetrics {

    WriteMetrics(AcceptBursts bursts, WriteAcceptance acceptance, MeterRegistry registry) {
        Gauge.builder("writes.accepted.per.second", bursts, AcceptBursts::rate)
                .description("writes accepted per second on this node, over the last quarter second").register(registry);
        Gauge.builder("writes.burst", bursts, b -> b.burst() ? 1 : 0)
                .description("1 while this node accepts faster than attribution.worker.yield-above (workers stand aside)")
                .register(registry);
        Gauge.builder("write.workers.standing.aside", bursts, AcceptBursts::standingAside)
                .description("write worker threads of this node standing aside for a burst of accepts right now")
                .register(registry);
        Gauge.builder("writes.in.flight", acceptance, WriteAcceptance::inFlight)
                .description("writes this node is validating, committing or answering right now").register(registry);
        FunctionCounter.builder("writes.refused.at.capacity", acceptance, WriteAcceptance::refused)
                .description("writes refused with a 503 because attribution.requests.max-in-flight were in flight")
                .register(registry);
    }
}
