-- The CDC bridge's heartbeat row (Debezium heartbeat.action.query updates it every heartbeat interval). The table is
-- in the bridge's publication, so each beat is a change the bridge receives: its applied WAL position keeps up with
-- the head even when the domain tables are quiet (lag reads 0, the slot's confirmed position moves, WAL is freed).
-- The sink drops these changes; ClickHouse has no such table. Reversible: drop it (and remove it from the publication).
CREATE TABLE cdc_heartbeat (
    id       integer     PRIMARY KEY,
    beat_at  timestamptz NOT NULL
);
