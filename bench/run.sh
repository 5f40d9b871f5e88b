#!/usr/bin/env bash
# Load benchmark of POST /api/v1.0/leads on loopback (issue 3; results in docs/BENCHMARKS.md).
#
#   mvn -B -q -o package -pl server -am -DskipTests      # builds server/target/attribution-server.jar + lib/
#   bench/run.sh [SECONDS] [CONNECTIONS] [PACED_RATE]    # defaults 10 s, 50 connections, 500 writes/s
#   WARMUP=10 bench/run.sh …                              # warm-up seconds (default 30; rows before 2026-11-25 used 10, before 2026-11-24 3)
#
# 1. starts a private PostgreSQL and ClickHouse (scripts/lib/servers.sh) and the server jar on free ports;
# 2. creates an account whose rate limit cannot interfere (admin CLI);
# 3. closed loop: wrk -t2 -cCONNECTIONS for SECONDS → accepted writes/s, p50/p99 acceptance latency;
#    then how long the workers need to apply the backlog;
#    open loop at TARGET_RATE (default 5,000) writes/s for SECONDS → acceptance p50/p99 at that fixed load (a closed
#    loop's latency is that of a saturated server: CONNECTIONS / throughput on average, whatever the server's speed);
# 4. open loop at PACED_RATE writes/s for SECONDS (bench/Paced.java, plain keep-alive sockets: the JDK HTTP client took
#    half a core at 500/s; both open loops send PACED_WARMUP (3) seconds of their schedule first, not counted) →
#    acceptance p50/p99 (from the send and from the due time) and, from the request log, created→visible p50/p99/max
#    over every write of the phase, the warm-up's included; and sent→visible p50/p99/max over the measured writes (from
#    the send, bench/stack.sh sent_to_visible: acceptance and apply together, as a client sees them). GET /leads reads
#    PostgreSQL, and a write's effects and its PROCESSED mark commit in one transaction, so processed_at - created_at
#    is the time until GET /leads shows the lead.
# 5. with SUSTAINED_SECONDS=N (issue 23 point 3; e.g. 300): a sustained mixed load — in turn a new lead, a click of it,
#    an order of it — at SUSTAINED_RATE (3,000) writes/s for N s (Paced.java, PACED_MIX=mixed). Every 10 s the backlog
#    (pending writes, age of the oldest, writes applied in those 10 s and in how many transactions); a probe lead each second (bench/Probe.java)
#    gives created→visible in ClickHouse p50/p99/max; then how long the backlog takes to drain and created→applied
#    p50/p99 over the phase's writes, and this stack's CPU over the load per write applied meanwhile (bench/cpu/stack.py:
#    server threads, its PostgreSQL by role, its ClickHouse). SUSTAINED_ONLY=1 skips phases 3–4. A growing pending
#    column is a rate the server does not sustain.
# Before each measured phase the machine settles (settle_writes, bench/stack.sh: writes applied, CDC caught up, no ClickHouse merge),
# and after each the cores used per process group are printed.
# Everything is stopped and deleted on exit. Needs wrk: apt-get install -y wrk.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_RUN=${1:-10}
CONNECTIONS=${2:-50}
RATE=${3:-500}
TARGET_RATE=${TARGET_RATE:-5000}   # the open loop at issue 3's throughput target: p99 acceptance latency at that load
# CPU_ROUNDS=N: after the measurements, bench/cpu-per-write.sh N times (SECONDS each) on the same warm server.
# SERVER_JAVA_OPTS: extra JVM options for the server (e.g. -Xlog:gc:file=/tmp/gc.log); KEEP_LOGS=DIR keeps the server's
# and PostgreSQL's logs there.
WARMUP=${WARMUP:-30}   # seconds of closed-loop warm-up (JIT: C2 still compiled after 10 s) before measuring; its backlog is applied first
JAR=${JAR:-$ROOT/server/target/attribution-server.jar}   # JAR=… to measure another build (before/after)
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is required: apt-get install -y wrk" >&2; exit 1; }

source "$ROOT/bench/stack.sh"

echo "# machine: $(nproc) cores, $(uname -r); $(java -version 2>&1 | head -1)"
# Cores used per process group while COMMAND runs (bench/cpu/procs.py): what shares the machine with the server. The
# load tool itself has ended by the second snapshot, so it is not listed: most of what is left of the 2 cores is its.
cores() {
  python3 "$ROOT/bench/cpu/procs.py" snapshot "$WORK/cores.0"
  "$@"
  python3 "$ROOT/bench/cpu/procs.py" snapshot "$WORK/cores.1"
  echo "# $(python3 "$ROOT/bench/cpu/procs.py" diff "$WORK/cores.0" "$WORK/cores.1")"
}
if [ -z "${SUSTAINED_ONLY:-}" ]; then
echo "# closed loop: wrk -t2 -c$CONNECTIONS -d${SECONDS_RUN}s POST /api/v1.0/leads (warm-up ${WARMUP}s first, its backlog applied before)"
wrk -t2 -c"$CONNECTIONS" -d"${WARMUP}s" -s "$ROOT/bench/post-leads.lua" "http://127.0.0.1:$APP_PORT" >/dev/null
settle_writes
"${PSQL[@]}" -c "TRUNCATE write_requests" >/dev/null
echo "# measuring from $(date -u +%T)"
cores wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency -s "$ROOT/bench/post-leads.lua" "http://127.0.0.1:$APP_PORT" | tail -2
t0=$(date +%s.%N)
drain_writes
t1=$(date +%s.%N)
"${PSQL[@]}" -c "SELECT 'applied=' || count(*) || ' backlog_drained_after_s=' || round(($t1 - $t0)::numeric, 1)
  || ' apply_rate_per_s=' || round(count(*) / extract(epoch FROM max(processed_at) - min(processed_at))::numeric)
  FROM write_requests"

echo "# open loop at the target rate: $TARGET_RATE writes/s for ${SECONDS_RUN}s (acceptance latency at a fixed load; its backlog applied after)"
settle_writes
"${PSQL[@]}" -c "TRUNCATE write_requests" >/dev/null
cores java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$TARGET_RATE" "$SECONDS_RUN"

echo "# open loop: $RATE writes/s for ${SECONDS_RUN}s"
settle_writes
"${PSQL[@]}" -c "TRUNCATE write_requests" >/dev/null
PACED_SENDS="$WORK/sends.csv" cores java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$RATE" "$SECONDS_RUN"
drain_writes
visible_writes
sent_to_visible "$WORK/sends.csv"
fi
for _ in $(seq 1 "${CPU_ROUNDS:-0}"); do
  echo "# CPU per write on this server: bench/cpu-per-write.sh"
  "$ROOT/bench/cpu-per-write.sh" "$SERVER_PID" "$APP_PORT" "$PG_PORT" "$BENCH_API_KEY" "$SECONDS_RUN"
done

if [ "${SUSTAINED_SECONDS:-0}" -gt 0 ]; then
  SUSTAINED_RATE=${SUSTAINED_RATE:-3000}
  echo "# sustained: mixed lead/click/order at $SUSTAINED_RATE writes/s for ${SUSTAINED_SECONDS}s (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  settle_writes
  "${PSQL[@]}" -c "TRUNCATE write_requests" >/dev/null
  stack_snapshot "$WORK/stack.0"
  PACED_MIX=mixed PACED_WARMUP=0 PACED_MAX_CONNECTIONS=${PACED_MAX_CONNECTIONS:-2048} java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$SUSTAINED_RATE" "$SUSTAINED_SECONDS" > "$WORK/sustained.out" &
  paced=$!
  java "$ROOT/bench/Probe.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "http://127.0.0.1:$CH_HTTP" attribution "$SUSTAINED_SECONDS" > "$WORK/probe.out" &
  probe=$!
  t0=$(date +%s)
  while kill -0 "$paced" 2>/dev/null; do
    sleep 10
    aside=$(curl -s "http://127.0.0.1:$APP_PORT/prometheus" | awk '/^write_workers_standing_aside / {printf "%d", $2}')
    "${PSQL[@]}" -c "SELECT 't=' || ($(date +%s) - $t0) || 's accepted=' || count(*) || ' pending=' || count(*) FILTER (WHERE status = 'PENDING')
      || ' oldest_pending_s=' || coalesce(round(extract(epoch FROM now() - min(created_at) FILTER (WHERE status = 'PENDING'))::numeric, 1), 0)
      || ' applied_last_10s=' || count(*) FILTER (WHERE processed_at > now() - interval '10 seconds')
      || ' batches_last_10s=' || count(DISTINCT xmin::text) FILTER (WHERE processed_at > now() - interval '10 seconds')
      || ' workers_aside=${aside:-?} load=$(cut -d' ' -f1 /proc/loadavg)' FROM write_requests"
  done
  wait "$paced" || true
  stack_snapshot "$WORK/stack.1"
  cat "$WORK/sustained.out"
  # this stack's CPU over the load (bench/cpu/stack.py: server threads, its PostgreSQL by role, its ClickHouse) per
  # write applied meanwhile; the sender and the probe are not in it
  applied=$("${PSQL[@]}" -c "SELECT count(*) FROM write_requests WHERE status <> 'PENDING'")
  echo "stack_cpu_us_per_write_applied_during_the_load (applied=$applied): $(python3 "$ROOT/bench/cpu/stack.py" --diff "$WORK/stack.0" "$WORK/stack.1" "$applied")"
  t1=$(date +%s.%N)
  drain_writes 0.5
  "${PSQL[@]}" -c "SELECT 'backlog_drained_after_s=' || round(($(date +%s.%N) - $t1)::numeric, 1) || ' applied=' || count(*)
    || ' failed=' || count(*) FILTER (WHERE status = 'FAILED')
    || ' applied_p50_ms=' || round(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM processed_at - created_at) * 1000)::numeric)
    || ' applied_p99_ms=' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM processed_at - created_at) * 1000)::numeric)
    FROM write_requests"
  wait "$probe" || true
  cat "$WORK/probe.out"
fi
