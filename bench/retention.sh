#!/usr/bin/env bash
# Retention purge of the request log and the outbox under a write load (issue 29 point 2; docs/BENCHMARKS.md).
#
#   mvn -B -q -o package -pl server -am -DskipTests
#   bench/retention.sh [OLD_ROWS] [RATE] [SECONDS]      # defaults 1,000,000 old requests (and as many old events), 500 writes/s, 90 s
#
# 1. baseline: open loop at RATE writes/s of POST /api/v1.0/leads for SECONDS (bench/Paced.java), nothing to purge →
#    acceptance p50/p99 and created→visible p50/p99 from the request log;
# 2. OLD_ROWS applied requests and OLD_ROWS fanned-out events are inserted at the start of both tables, dated so that
#    they pass the 14-day window PURGE_IN (60) seconds after the insert began; the same open loop runs again for
#    SECONDS and the server's own scheduled purge (attribution.retention.interval=2s) deletes them meanwhile →
#    acceptance and visibility percentiles of a run holding the whole purge, the purge's start, end and rows/s.
# The server runs with its defaults otherwise (batch-size 2000, one short transaction per window).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OLD_ROWS=${1:-1000000}
RATE=${2:-500}
SECONDS_RUN=${3:-90}
PURGE_IN=${PURGE_IN:-60}
JAR=$ROOT/server/target/attribution-server.jar
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
SERVER_JAVA_OPTS="${SERVER_JAVA_OPTS:-} -Dattribution.retention.interval=2s"
source "$ROOT/bench/stack.sh"

echo "# machine: $(nproc) cores, $(uname -r); load average $(cut -d' ' -f1-3 /proc/loadavg)"
visible() {
  drain_writes
  "${PSQL[@]}" -c "SELECT 'visible_p50_ms=' || round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1)
    || ' visible_p99_ms=' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1)
    FROM (SELECT extract(epoch FROM processed_at - created_at) * 1000 AS ms FROM write_requests
          WHERE created_at > now() - interval '1 day') t"
}

echo "# baseline: $RATE writes/s for ${SECONDS_RUN}s, nothing to purge"
java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$RATE" "$SECONDS_RUN"
visible

"${PSQL[@]}" -c "TRUNCATE write_requests RESTART IDENTITY" >/dev/null
t0=$(date +%s.%N)
"${PSQL[@]}" >/dev/null <<SQL
BEGIN;
SELECT set_config('bench.old', (now() - interval '14 days' + interval '$PURGE_IN seconds')::text, true);
INSERT INTO write_requests (id, account_id, event_type, lane, payload, status, result, created_at, processed_at)
SELECT 'old_' || g, '$ACCOUNT', 'CREATE_LEAD', g % 16, '{"email":"old@bench.test","leadIps":[]}', 'PROCESSED',
       '{"id":"lead_x"}', current_setting('bench.old')::timestamptz, current_setting('bench.old')::timestamptz
FROM generate_series(1, $OLD_ROWS) g;
INSERT INTO domain_events (id, account_id, event_type, subject_id, payload, occurred_at, created_at, fanned_out)
SELECT 'evt_old_' || g, '$ACCOUNT', 'lead.tag.added', 'lead_x', '{"tag":"old"}', current_setting('bench.old')::timestamptz,
       current_setting('bench.old')::timestamptz, true
FROM generate_series(1, $OLD_ROWS) g;
COMMIT;
SQL
t1=$(date +%s.%N)
echo "# inserted $OLD_ROWS old requests and $OLD_ROWS old events in $(python3 -c "print(round($t1 - $t0, 1))") s; purgeable $PURGE_IN s after the insert began"
echo "# with the purge: $RATE writes/s for ${SECONDS_RUN}s"
# index lookups only, so the watch itself costs nothing: the purge walks requests first (the oldest first), then events
exists() { "${PSQL[@]}" -c "SELECT count(*) FROM $1 WHERE id = '$2'"; }
(
  while [ "$(exists write_requests old_1)" = 1 ]; do sleep 0.5; done
  s=$(date +%s.%N)
  while [ "$(exists domain_events "evt_old_$OLD_ROWS")" = 1 ]; do sleep 0.5; done
  e=$(date +%s.%N)
  echo "# purge: began $(python3 -c "print(round($s - $t0, 1))") s after the insert began, took $(python3 -c "print(round($e - $s, 1))") s: $(python3 -c "print(round(2 * $OLD_ROWS / ($e - $s)))") rows/s"
) &
WATCH=$!
java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$RATE" "$SECONDS_RUN"
wait "$WATCH"
visible
grep "retention:" "$WORK/server.log" | tail -3 || true
