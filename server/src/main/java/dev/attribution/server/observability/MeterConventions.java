package dev.attribution.server.observability;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * What keeps {@code /prometheus} clean for {@code promtool check metrics} (the metrics test runs it): every meter has
 * help text, no name ends in {@code _count} outside a histogram, and time is in seconds. Meters of the libraries that
 * broke those rules are renamed or replaced here; ours follow them where they are made.
 */
@Factory
class MeterConventions {

    /** Help text for the library meters registered without one (Micronaut's executor metrics). */
    private static final Map<String, String> HELP = Map.of(
            "executor", "time the tasks of this executor took",
            "executor.idle", "time the tasks of this executor waited before they ran");

    @Bean
    @Singleton
    MeterFilter conventions() {
        return new MeterFilter() {
            @Override
            public MeterFilterReply accept(Meter.Id id) {
                // process_cpu_time_ns_total, in nanoseconds: replaced by process_cpu_seconds_total (processCpu below)
                return "process.cpu.time".equals(id.getName()) ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
            }

            @Override
            public Meter.Id map(Meter.Id id) {
                if ("system.cpu.count".equals(id.getName())) {
                    id = id.withName("system.cpus"); // system_cpu_count reads as a histogram's _count
                }
                String help = id.getDescription();
                if (help == null || help.isBlank()) {
                    help = HELP.getOrDefault(id.getName(), id.getName().replace('.', ' ') + " (docs/operations.md)");
                    return new Meter.Id(id.getName(), Tags.of(id.getTags()), id.getBaseUnit(), help, id.getType());
                }
                return id;
            }
        };
    }

    /** {@code process_cpu_seconds_total}, the name Prometheus' own clients give the process' CPU time. */
    @Bean
    @Singleton
    MeterBinder processCpu() {
        return registry -> {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                FunctionCounter.builder("process.cpu", os, o -> o.getProcessCpuTime() / 1e9).baseUnit("seconds")
                        .description("CPU time used by the JVM process").register(registry);
            }
        };
    }
}
