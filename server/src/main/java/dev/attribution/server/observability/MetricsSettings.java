package dev.attribution.server.observability;

import dev.attribution.api.Settings;
import io.micronaut.context.annotation.ConfigurationProperties;

import java.time.Duration;

/** Every setting of this server's own metrics, each defined once here with its default ({@code attribution.metrics.*}). */
@ConfigurationProperties("attribution.metrics")
public class MetricsSettings {

    /** How often the backlog gauges (request log, webhook deliveries, report jobs) read PostgreSQL again. */
    private Duration gaugeRefresh = Duration.ofSeconds(15);

    public Duration getGaugeRefresh() { return gaugeRefresh; }
    public void setGaugeRefresh(Duration v) { this.gaugeRefresh = Settings.positive("attribution.metrics.gauge-refresh", v); }
}
