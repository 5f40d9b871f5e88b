# Sourced by the benches (bench/run.sh, bench/retention.sh, …): a private PostgreSQL, ClickHouse and server jar on free
# ports under a temporary WORK directory, removed on exit, and an account whose rate limit cannot interfere
# (ACCOUNT, BENCH_API_KEY). Needs ROOT and JAR; SERVER_JAVA_OPTS adds JVM options; KEEP_LOGS=DIR keeps the logs.
# Defines, for the sourcing bench: PG_DATA and CH_PID (this stack's PostgreSQL data directory and ClickHouse pid),
# stack_snapshot FILE (this stack's CPU by component, bench/cpu/stack.py), pending (writes not yet applied),
# drain_writes [POLL_SECONDS] (until none is pending), visible_writes (created→visible p50/p99/max), sent_to_visible FILE
# (send→visible of the writes bench/Paced.java listed), await_cdc and settle_writes.
WORK=$(mktemp -d /tmp/attribution-bench.XXXXXX)
chmod 755 "$WORK"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PG_PORT=$(free_port); CH_HTTP=$(free_port); CH_TCP=$(free_port); APP_PORT=$(free_port)
SERVER_PID=
cleanup() {
  if [ -n "${KEEP_LOGS:-}" ]; then mkdir -p "$KEEP_LOGS"; cp "$WORK/server.log" "$WORK/pg/log/postgres.log" "$KEEP_LOGS/" 2>/dev/null || true; fi
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  "$ROOT/scripts/lib/servers.sh" pg-stop "$WORK/pg" >/dev/null 2>&1 || true
  "$ROOT/scripts/lib/servers.sh" ch-stop "$WORK/ch" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

"$ROOT/scripts/lib/servers.sh" pg-start "$WORK/pg" "$PG_PORT" >/dev/null
"$ROOT/scripts/lib/servers.sh" ch-start "$WORK/ch" "$CH_HTTP" "$CH_TCP" >/dev/null
export POSTGRES_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/attribution" CLICKHOUSE_URL="http://127.0.0.1:$CH_HTTP" PORT=$APP_PORT
PSQL=(/usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d attribution -tA)

java -Xmx1g ${SERVER_JAVA_OPTS:-} -jar "$JAR" > "$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 "${STARTUP_POLLS:-600}"); do   # 0.2 s each: a loaded 2-core machine took over 30 s
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$APP_PORT/api/v1.0/leads" || true)
  [ "$code" = 401 ] && break
  sleep 0.2
done
[ "$code" = 401 ] || { echo "server did not start:"; tail -50 "$WORK/server.log"; exit 1; }

created=$(java -jar "$JAR" admin account create --name Bench --time-zone UTC 2>/dev/null | tail -1)
ACCOUNT=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["accountId"])' "$created")
export BENCH_API_KEY=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["apiKey"])' "$created")
java -jar "$JAR" admin account set-rate-limit --account "$ACCOUNT" --per-second 100000000 --per-minute 2000000000 >/dev/null 2>&1

# Builds before bd2c7e8 registered the cdc_* gauges at the first /health only: ask once, so that settle_writes can read
# cdc_wal_behind_bytes from them too (before, its settle waited for the merges only: CDC could still be streaming).
curl -s -o /dev/null "http://127.0.0.1:$APP_PORT/health"
PG_DATA=$("${PSQL[@]}" -c "SHOW data_directory"); CH_PID=$(cat "$WORK/ch/clickhouse.pid")
stack_snapshot() { python3 "$ROOT/bench/cpu/stack.py" "$SERVER_PID" "$PG_DATA" "$CH_PID" > "$1"; }
pending() { "${PSQL[@]}" -c "SELECT count(*) FROM write_requests WHERE status = 'PENDING'"; }
drain_writes() { while [ "$(pending)" != 0 ]; do sleep "${1:-0.2}"; done; }
# created→visible of every write in the request log (processed_at - created_at: when GET /leads shows a lead), and how
# many failed
visible_writes() {
  "${PSQL[@]}" -c "SELECT 'visible_p50_ms=' || round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1)
    || ' visible_p99_ms=' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1)
    || ' visible_max_ms=' || round(max(ms)::numeric, 1) || ' failed=' || sum(CASE WHEN status = 'FAILED' THEN 1 ELSE 0 END)
    FROM (SELECT status, extract(epoch FROM processed_at - created_at) * 1000 AS ms FROM write_requests) t"
}
# sent→visible of the writes a bench/Paced.java run listed in FILE (PACED_SENDS): from each write's send until GET /leads
# shows it (the request log's processed_at), p50/p99/max, and how many of them the request log has
sent_to_visible() {
  "${PSQL[@]}" -q -c "CREATE TEMP TABLE sends (id text PRIMARY KEY, sent_us bigint)" -c "\\copy sends FROM '$1' CSV" \
    -c "SELECT 'sent_visible_p50_ms=' || round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1)
      || ' sent_visible_p99_ms=' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1)
      || ' sent_visible_max_ms=' || round(max(ms)::numeric, 1) || ' sent_listed=' || (SELECT count(*) FROM sends)
      || ' sent_in_log=' || count(*)
      FROM (SELECT (extract(epoch FROM w.processed_at) * 1e6 - s.sent_us) / 1000 AS ms FROM sends s JOIN write_requests w USING (id)) t"
}
# Until the CDC bridge has streamed everything committed (under 1 MiB of WAL behind) and ClickHouse has merged it, up
# to 120 s; sets behind and merges (what was last read).
await_cdc() {
  for _ in $(seq 1 600); do
    behind=$(curl -s "http://127.0.0.1:$APP_PORT/prometheus" | awk '/^cdc_wal_behind_bytes/ {print int($2)}')
    merges=$(curl -s "http://127.0.0.1:$CH_HTTP/" --data-binary "SELECT count() FROM system.merges")
    [ -n "$behind" ] && [ "$behind" -lt 1048576 ] && [ "$merges" = 0 ] && return
    sleep 0.2
  done
}
# The previous phase's aftermath done before a measurement: every write applied, CDC caught up with the WAL head and
# ClickHouse's merges of what it streamed finished (a warm-up of ~100,000 leads leaves minutes of both).
settle_writes() {
  local t0
  t0=$(date +%s.%N)
  drain_writes
  await_cdc
  echo "# settled in $(python3 -c "import time; print(round(time.time() - $t0, 1))") s (CDC behind ${behind:-?} bytes, ClickHouse merges $merges)"
}
