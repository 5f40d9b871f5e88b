package dev.attribution.cdc.ingest;

import dev.attribution.clickhouse.ClickHouseSettings;

import dev.attribution.api.ApiException;
import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.cdc.Change;
import dev.attribution.cdc.ChangeSink;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.Hidden;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * {@code POST /cdc/ingest}: where an external Debezium Server's HTTP sink posts the change events of the replication
 * slot the embedded bridge used (docs/scaling.md "CDC outside the process"). Each post goes through the very sink the
 * embedded bridge writes with ({@link ChangeSink}: same tables, {@code _version} = WAL position, {@code is_deleted}),
 * and is answered 204 only once ClickHouse took the rows: Debezium Server commits a batch's offsets only after its posts
 * succeeded, so a failure (503 here) is retried or replayed, and a replay is harmless (versioned rows).
 * <p>
 * Not part of the public API ({@code /api/v1.0}, API keys): it exists only when {@code attribution.cdc.ingest.secret}
 * is set, and takes only posts signed with that secret (Standard Webhooks, Debezium's
 * {@code authentication.type=standard-webhooks}); anything else is a 401 in the error envelope.
 */
@Controller("/cdc/ingest")
@Requires(property = CdcIngestSettings.SECRET)
@Requires(property = ClickHouseSettings.URL)
@ServedBy(NodeSide.EVERY_NODE) // on wherever its secret is set, whatever the node's roles
@Hidden
public class CdcIngestController {

    private static final Logger LOG = LoggerFactory.getLogger(CdcIngestController.class);

    private final ChangeSink sink;
    private final CdcIngestStatus status;
    private final WebhookSignature signature;
    private final long toleranceSeconds;

    public CdcIngestController(ChangeSink sink, CdcIngestStatus status, CdcIngestSettings settings) {
        this.sink = sink;
        this.status = status;
        this.signature = new WebhookSignature(settings.getSecret());
        this.toleranceSeconds = settings.getToleranceSeconds();
    }

    @Post(consumes = MediaType.ALL)
    @ExecuteOn(TaskExecutors.BLOCKING)
    HttpResponse<Void> ingest(@Nullable @Header("webhook-id") String id, @Nullable @Header("webhook-timestamp") String timestamp,
                              @Nullable @Header("webhook-signature") String signed, @Nullable @Body byte[] body) {
        byte[] bytes = body == null ? new byte[0] : body;
        if (!signature.verify(id, timestamp, signed, bytes, System.currentTimeMillis() / 1000, toleranceSeconds)) {
            throw new ApiException(HttpStatus.UNAUTHORIZED, List.of("The post is not signed with attribution.cdc.ingest.secret "
                    + "(Standard Webhooks headers webhook-id, webhook-timestamp within " + toleranceSeconds + " s, webhook-signature)"), Map.of());
        }
        List<Change> changes;
        try {
            changes = DebeziumJsonEvents.parse(bytes);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        if (!changes.isEmpty()) {
            try {
                sink.write(changes);
            } catch (RuntimeException e) {
                LOG.warn("CDC ingest: {} changes not written, Debezium Server retries: {}", changes.size(), e.getMessage());
                throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, List.of("ClickHouse did not take the changes: " + e.getMessage()),
                        Map.of("Retry-After", "1"));
            }
            status.applied(changes);
        }
        return HttpResponse.noContent();
    }
}
