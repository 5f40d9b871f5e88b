#!/usr/bin/env bash
# What one apply transaction (a batch of the write worker) sends to PostgreSQL at a fixed rate of POST /leads, and
# created→visible over it (issue 25; docs/BENCHMARKS.md "Writes: where created→visible at 500/s goes").
#
#   mvn -B -q -o package -pl server -am -DskipTests
#   bench/batch-profile.sh [RATE] [ROUNDS]     # defaults 500 writes/s, 2 rounds of 10 s; JAR=… for another build;
#                                              # AUTO_EXPLAIN=MS logs the plans of statements slower than MS
#                                              # (KEEP_LOGS=DIR keeps PostgreSQL's log, bench/stack.sh)
#   PRELOAD_SECONDS=10 bench/batch-profile.sh    # first, as bench/run.sh does before its RATE phase: a closed loop
#                                              # and an open loop at 5,000/s of that many seconds each (47,000–66,000 leads at 10)
#   PACED_MIX=mixed bench/batch-profile.sh     # the rounds send bench/Paced.java's mixed load (a lead, its click, its order)
#   TOP=40 bench/batch-profile.sh              # more statements in the per-transaction table (default 25)
#   JFR=DIR bench/batch-profile.sh              # a Java Flight Recording (settings=profile) of each round's send window
#                                              # in DIR/round-N.jfr (jfr print --events jdk.ExecutionSample …)
#
# A private stack (bench/stack.sh) whose PostgreSQL loads pg_stat_statements; a 30 s closed-loop warm-up (JIT), its
# backlog applied; then per round: the request log emptied and the statistics reset, RATE writes/s for 10 s
# (bench/Paced.java), the backlog applied, and created→visible p50/p90/p99 with the number of apply transactions
# (distinct xmin of write_requests) and the top-level statements per transaction with their mean time (planning
# included, and apart) and buffers per call. Before each round the stack settles (settle_writes: writes applied,
# CDC caught up, no ClickHouse merge), as in bench/run.sh.
# Per round also: the WAL written per write (pg_stat_wal: bytes, full-page images, syncs), the stored size of a
# write's payload and result, and this stack's CPU per write by component (bench/cpu/stack.py) from the first send
# until the last write is applied, and over the send window alone (accept_cpu_us_per_write: with the workers standing
# aside, SERVER_JAVA_OPTS="-Dattribution.worker.yield-above=5 -Dattribution.worker.max-yield=600s", the acceptance
# path alone).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RATE=${1:-500}
ROUNDS=${2:-2}
JAR=${JAR:-$ROOT/server/target/attribution-server.jar}
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
export PG_OPTS="-c shared_preload_libraries=pg_stat_statements${AUTO_EXPLAIN:+,auto_explain} -c pg_stat_statements.track=top -c pg_stat_statements.track_planning=on"
[ -n "${AUTO_EXPLAIN:-}" ] && PG_OPTS="$PG_OPTS -c auto_explain.log_min_duration=$AUTO_EXPLAIN -c auto_explain.log_analyze=on -c auto_explain.log_buffers=on"
source "$ROOT/bench/stack.sh"
"${PSQL[@]}" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
wrk -t2 -c50 -d"${WARMUP:-30}s" -s "$ROOT/bench/post-leads.lua" "http://127.0.0.1:$APP_PORT" >/dev/null
if [ "${PRELOAD_SECONDS:-0}" -gt 0 ]; then
  wrk -t2 -c50 -d"${PRELOAD_SECONDS}s" -s "$ROOT/bench/post-leads.lua" "http://127.0.0.1:$APP_PORT" >/dev/null
  settle_writes
  java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" 5000 "$PRELOAD_SECONDS" >/dev/null
fi
echo "# leads before the rounds: $("${PSQL[@]}" -c "SELECT count(*) FROM leads")"
for round in $(seq 1 "$ROUNDS"); do
  settle_writes
  "${PSQL[@]}" -c "TRUNCATE write_requests" >/dev/null
  "${PSQL[@]}" -c "SELECT pg_stat_statements_reset(), pg_stat_reset_shared('wal')" >/dev/null
  echo "# round $round: $RATE writes/s for 10 s (load $(cut -d' ' -f1-3 /proc/loadavg))"
  stack_snapshot "$WORK/stack.0"
  [ -n "${JFR:-}" ] && mkdir -p "$JFR" && jcmd "$SERVER_PID" JFR.start name=round settings=profile >/dev/null
  PACED_WARMUP=0 java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$RATE" 10
  stack_snapshot "$WORK/stack.s"
  [ -n "${JFR:-}" ] && jcmd "$SERVER_PID" JFR.stop name=round filename="$JFR/round-$round.jfr" >/dev/null
  echo "accept_cpu_us_per_write: $(python3 "$ROOT/bench/cpu/stack.py" --diff "$WORK/stack.0" "$WORK/stack.s" "$((RATE * 10))")"
  drain_writes
  stack_snapshot "$WORK/stack.1"
  "${PSQL[@]}" -c "SELECT 'wal_bytes_per_write=' || (SELECT round(wal_bytes / ($RATE * 10.0)) FROM pg_stat_wal)
    || ' wal_fpi=' || (SELECT wal_fpi FROM pg_stat_wal) || ' wal_syncs=' || (SELECT wal_sync FROM pg_stat_wal)
    || ' payload_bytes=' || round(avg(pg_column_size(payload))) || ' result_bytes=' || round(avg(pg_column_size(result)))
    FROM write_requests"
  echo "stack_cpu_us_per_write: $(python3 "$ROOT/bench/cpu/stack.py" --diff "$WORK/stack.0" "$WORK/stack.1" "$((RATE * 10))")"
  "${PSQL[@]}" -c "SELECT 'visible_p50_ms=' || round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1)
    || ' p90=' || round(percentile_cont(0.9) WITHIN GROUP (ORDER BY ms)::numeric, 1)
    || ' p99=' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1)
    || ' writes=' || count(*) || ' transactions=' || count(DISTINCT xmin::text)
    FROM (SELECT xmin, extract(epoch FROM processed_at - created_at) * 1000 AS ms FROM write_requests) t"
  B=$("${PSQL[@]}" -c "SELECT count(DISTINCT xmin::text) FROM write_requests")
  # planning counts: a statement planned afresh on every call can cost more to plan than to run (docs/BENCHMARKS.md
  # "The lead render's planning, and the outcome UPDATE's kept plan"); buffers per call show a plan that scans.
  # Per call, not pg_stat_statements' means: mean_plan_time is per planning, and a statement kept prepared is planned
  # on few of its calls (the columns before fc62033 added mean_exec_time and mean_plan_time, two means over
  # different counts, and showed mean_plan_time as "mean plan ms")
  echo "# per transaction | ms per call (plan + run) | planning ms per call | plans | ms per transaction | buffers per call | statement"
  "${PSQL[@]}" -F ' | ' -c "SELECT round(calls::numeric / $B, 2), round(((total_exec_time + total_plan_time) / nullif(calls, 0))::numeric, 3),
    round((total_plan_time / nullif(calls, 0))::numeric, 3), plans, round(((total_exec_time + total_plan_time) / $B)::numeric, 3),
    round((shared_blks_hit + shared_blks_read)::numeric / nullif(calls, 0), 1), left(regexp_replace(query, '\s+', ' ', 'g'), 110)
    FROM pg_stat_statements WHERE calls >= $B / 4 ORDER BY calls DESC LIMIT ${TOP:-25}"
done
