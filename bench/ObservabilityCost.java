import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import net.logstash.logback.encoder.LogstashEncoder;
import net.logstash.logback.marker.Markers;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * CPU cost of what the server adds per request for issue 24 (server/.../observability), measured in CPU time of the
 * measuring thread, so other load on the machine inflates it less than a wall-clock benchmark:
 * a Timer with the 14 buckets of RequestTimers recorded (looked up in a map first, as RequestTimers does), and one
 * access-log line encoded by LogstashEncoder and written to a file (as the server logs to a file under scripts/up);
 * then the CPU time of one /prometheus scrape with ROUTES × 3 statuses request series.
 *
 *   mvn -B -q -o package -pl server -am -DskipTests
 *   java -cp 'server/target/lib/*' bench/ObservabilityCost.java [REQUESTS] [ROUTES]    # defaults 1,000,000 and 60
 */
public class ObservabilityCost {

    static final Duration[] BUCKETS = {
            Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)};

    record Key(String method, String route, int status) {
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int routes = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ConcurrentHashMap<Key, Timer> timers = new ConcurrentHashMap<>();
        int[] statuses = {200, 400, 429};

        Path log = Files.createTempFile("access", ".log");
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LogstashEncoder encoder = new LogstashEncoder();
        encoder.setContext(context);
        encoder.start();
        FileAppender<ILoggingEvent> file = new FileAppender<>();
        file.setContext(context);
        file.setEncoder(encoder);
        file.setFile(log.toString());
        file.start();
        Logger access = context.getLogger("dev.attribution.access");
        access.detachAndStopAllAppenders();
        access.setAdditive(false);
        access.addAppender(file);

        String[] routeNames = new String[routes];
        for (int r = 0; r < routes; r++) {
            routeNames[r] = "/api/v1.0/route-" + r;
        }
        for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up; the last is reported
            long t0 = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < requests; i++) {
                Key key = new Key("GET", routeNames[i % routes], statuses[i % 3]);
                timers.computeIfAbsent(key, k -> Timer.builder("http.server.requests").description("d")
                        .tags("method", k.method(), "route", k.route(), "status", Integer.toString(k.status()))
                        .serviceLevelObjectives(BUCKETS).register(registry)).record(1_000_000 + i % 50_000_000, TimeUnit.NANOSECONDS);
            }
            long t1 = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < requests / 10; i++) {
                Map<String, Object> fields = new LinkedHashMap<>();
                fields.put("method", "GET");
                fields.put("route", "/api/v1.0/leads");
                fields.put("status", 200);
                fields.put("duration_ms", 3.12);
                fields.put("account", "acc_1a2169c2733-bf4e8ee15c90646c");
                MDC.put("request_id", "1a2169c3873-5559c0c88b22240e");
                access.info(Markers.appendEntries(fields), "{} {} {} {} ms", "GET", "/api/v1.0/leads", 200, 3.12);
                MDC.remove("request_id");
            }
            long t2 = cpu.getCurrentThreadCpuTime();
            long bytes = Files.size(log);
            Files.write(log, new byte[0]);
            String scrape = registry.scrape();
            long t3 = cpu.getCurrentThreadCpuTime();
            if (round == 2) {
                System.out.printf("timer record: %.0f ns CPU per request (%,d requests, %d series)%n", (t1 - t0) / (double) requests, requests, timers.size());
                System.out.printf("access log line: %.0f ns CPU per request (%,d lines of %d bytes)%n",
                        (t2 - t1) / (requests / 10.0), requests / 10, bytes / (requests / 10));
                System.out.printf("scrape: %.1f ms CPU for %,d bytes, %d lines%n", (t3 - t2) / 1e6, scrape.length(), scrape.split("\n").length);
            }
        }
        file.stop();
        Files.delete(log);
    }
}
