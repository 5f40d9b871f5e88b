package dev.attribution.cdc.ingest;

import dev.attribution.cdc.Change;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** What the ingest endpoint has written since start: posts, row changes, snapshot rows among them, newest version. */
@Singleton
public class CdcIngestStatus {

    private final AtomicLong posts = new AtomicLong();
    private final AtomicLong changes = new AtomicLong();
    private final AtomicLong snapshotRows = new AtomicLong();
    private final AtomicLong newestVersion = new AtomicLong();
    private volatile long lastAppliedAt;

    void applied(List<Change> batch) {
        posts.incrementAndGet();
        changes.addAndGet(batch.size());
        long snapshots = 0;
        long newest = 0;
        for (Change c : batch) {
            snapshots += c.snapshot() ? 1 : 0;
            newest = Math.max(newest, c.version());
        }
        snapshotRows.addAndGet(snapshots);
        newestVersion.accumulateAndGet(newest, Math::max);
        lastAppliedAt = System.currentTimeMillis();
    }

    /** Posts answered 204. */
    public long posts() { return posts.get(); }
    /** Row changes written to ClickHouse. */
    public long changes() { return changes.get(); }
    /** Row changes read by a snapshot (version 0): a resync, none when an engine took over the other's offsets. */
    public long snapshotRows() { return snapshotRows.get(); }
    /** The highest version (WAL position) written so far, 0 before the first streamed change. */
    public long newestVersion() { return newestVersion.get(); }
    /** Epoch milliseconds of the last post that held row changes, 0 before. */
    public long lastAppliedAt() { return lastAppliedAt; }
}
