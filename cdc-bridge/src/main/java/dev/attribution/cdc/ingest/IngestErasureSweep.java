package dev.attribution.cdc.ingest;

import dev.attribution.cdc.CdcBridge;
import dev.attribution.cdc.Erasure;
import dev.attribution.cdc.ErasureSweep;
import io.micronaut.context.annotation.Requires;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;

/**
 * The {@link ErasureSweep} on a node that takes CDC from Debezium Server (ingest on, embedded bridge off): erasure
 * waits on the same replication slot whichever engine reads it, so it runs the same way here.
 */
@Singleton
@Requires(bean = CdcIngestController.class)
@Requires(missingBeans = CdcBridge.class)
public class IngestErasureSweep {

    private static final Logger LOG = LoggerFactory.getLogger(IngestErasureSweep.class);

    private final ErasureSweep sweep;

    public IngestErasureSweep(Erasure erasure, DataSource postgres) {
        this.sweep = new ErasureSweep(erasure, postgres);
    }

    @Scheduled(fixedDelay = ErasureSweep.INTERVAL, initialDelay = "1s")
    void scheduled() {
        try {
            sweep.sweep();
        } catch (RuntimeException e) {
            LOG.warn("erasure sweep failed, retried next round: {}", e.getMessage());
        }
    }
}
