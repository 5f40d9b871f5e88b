#!/usr/bin/env bash
# Where the apply path's time goes (issue 23 point 3; docs/BENCHMARKS.md "Apply path: statements and CPU per write").
#
#   mvn -B -q -o package -pl server -am -DskipTests
#   bench/apply-profile.sh [WRITES] [RATE]     # defaults 6,000 mixed writes sent at 2,000/s; JAR=… for another build,
#                                              # WARMUP_SECONDS=… (5) of the same load applied first
#
# 1. a private stack (bench/stack.sh) whose PostgreSQL loads pg_stat_statements (track=all: statements run by
#    triggers and functions counted too, marked nested);
# 2. a short burst of the sustained phase's mixed load (bench/Paced.java PACED_MIX=mixed: in turn a new lead, a
#    click of it, an order of it) — the workers stand aside during a burst (AcceptBursts), so most of it is applied
#    after the burst, alone;
# 3. the drain of that backlog, measured: writes applied per second, the server's CPU per applied write by thread
#    group and PostgreSQL's CPU per applied write, a JFR profile of the write-worker threads (top methods), and from
#    pg_stat_statements the statements per applied write: top-level ones (a round trip each) and nested ones.
# 4. the CPU budget by component (bench/cpu/stack.py: server threads, this stack's PostgreSQL by process role, its
#    ClickHouse): per accepted write over the burst (the accept alone: the workers stand aside, CDC has nothing to
#    stream) and per applied write over the drain and until the CDC bridge has caught up and ClickHouse has no merge
#    running (apply + CDC + ClickHouse); and the rows each applied write changes per table (pg_stat_user_tables:
#    what the WAL, the CDC bridge and ClickHouse carry).
# Figures are per applied write of the mix (1/3 each). On a shared machine label them with the load printed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WRITES=${1:-6000}
RATE=${2:-2000}
JAR=${JAR:-$ROOT/server/target/attribution-server.jar}
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
export PG_OPTS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all"
source "$ROOT/bench/stack.sh"
"${PSQL[@]}" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
load() { cut -d' ' -f1-3 /proc/loadavg; }
pgcpu() { local pm s=0 p; pm=$(head -1 "$PG_DATA/postmaster.pid"); for p in $pm $(pgrep -P "$pm"); do
  s=$((s + $(awk '{print $14+$15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done; echo "$s"; }
tuples() { "${PSQL[@]}" -c "SELECT coalesce(json_object_agg(relname, json_build_array(n_tup_ins, n_tup_upd, n_tup_del, n_tup_hot_upd)), '{}')
  FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0" > "$1"; }
done_count() { "${PSQL[@]}" -c "SELECT count(*) FROM write_requests WHERE status <> 'PENDING'"; }

echo "# warm-up: $RATE mixed writes/s for ${WARMUP_SECONDS:-5} s, applied (load $(load))"
PACED_MIX=mixed PACED_WARMUP=0 java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$RATE" "${WARMUP_SECONDS:-5}" >/dev/null
drain_writes 0.5
echo "# burst: $WRITES mixed writes at $RATE/s (load $(load))"
a0=$("${PSQL[@]}" -c "SELECT count(*) FROM write_requests"); p0=$(done_count); stack_snapshot "$WORK/b0"
PACED_MIX=mixed PACED_WARMUP=0 java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$RATE" $((WRITES / RATE))
stack_snapshot "$WORK/b1"; accepted=$(( $("${PSQL[@]}" -c "SELECT count(*) FROM write_requests") - a0 ))
echo "accept_cpu_us_per_accepted_write (accepted=$accepted, applied meanwhile=$(( $(done_count) - p0 ))): $(python3 "$ROOT/bench/cpu/stack.py" --diff "$WORK/b0" "$WORK/b1" "$accepted")"
"${PSQL[@]}" -c "SELECT pg_stat_statements_reset()" >/dev/null
n0=$(done_count); left=$(pending)
python3 "$ROOT/bench/cpu/threads.py" "$SERVER_PID" > "$WORK/t0"; g0=$(pgcpu); s0=$(date +%s.%N); stack_snapshot "$WORK/d0"; tuples "$WORK/r0"
jcmd "$SERVER_PID" JFR.start name=apply settings=profile filename="$WORK/apply.jfr" >/dev/null
echo "# drain of $left pending writes (load $(load))"
drain_writes
s1=$(date +%s.%N); g1=$(pgcpu); python3 "$ROOT/bench/cpu/threads.py" "$SERVER_PID" > "$WORK/t1"
jcmd "$SERVER_PID" JFR.stop name=apply >/dev/null
n=$(( $(done_count) - n0 ))
await_cdc   # then until the CDC bridge has streamed it all and ClickHouse has merged it
stack_snapshot "$WORK/d1"; s2=$(date +%s.%N); sleep 11; tuples "$WORK/r1"   # an idle backend publishes its table counters up to 10 s late (PostgreSQL 15)
echo "applied=$n drain_s=$(python3 -c "print(round($s1 - $s0, 1))") applied_per_s=$(python3 -c "print(round($n / ($s1 - $s0)))") load=$(load)"
echo "server_cpu_us_per_applied_write: $(python3 "$ROOT/bench/cpu/threads.py" --diff "$WORK/t0" "$WORK/t1" "$n")"
echo "postgres_cpu_us_per_applied_write=$(python3 -c "import os; print(round(($g1 - $g0) * 1e6 / os.sysconf('SC_CLK_TCK') / $n))")"
echo "apply_cdc_cpu_us_per_applied_write (drain and CDC caught up: $(python3 -c "print(round($s2 - $s0, 1))") s, CDC behind ${behind:-?} bytes, merges $merges): $(python3 "$ROOT/bench/cpu/stack.py" --diff "$WORK/d0" "$WORK/d1" "$n")"
echo "rows_changed_per_applied_write (table: inserted/updated/deleted, HOT updates): $(python3 -c "
import json; a, b = json.load(open('$WORK/r0')), json.load(open('$WORK/r1'))
d = {t: [v[i] - a.get(t, [0, 0, 0, 0])[i] for i in range(4)] for t, v in b.items()}
print(' '.join('%s=%.2f/%.2f/%.2f,%.2f' % (t, v[0] / $n, v[1] / $n, v[2] / $n, v[3] / $n) for t, v in sorted(d.items(), key=lambda x: -sum(x[1][:3])) if sum(v[:3]) > 0))")"
"${PSQL[@]}" -c "SELECT event_type || '=' || count(*) FROM write_requests GROUP BY event_type ORDER BY event_type" | tr '\n' ' '; echo
"${PSQL[@]}" -c "SELECT status || '=' || count(*) FROM write_requests GROUP BY status ORDER BY status" | tr '\n' ' '; echo
echo "deadlocks_logged_by_postgres=$(grep -c 'deadlock detected' "$WORK/pg/log/postgres.log" || true)"
echo "# statements per applied write (pg_stat_statements; top level = one round trip each)"
"${PSQL[@]}" -c "SELECT 'top_level=' || round(sum(calls) FILTER (WHERE toplevel) / $n.0, 2)
  || ' nested=' || round(coalesce(sum(calls) FILTER (WHERE NOT toplevel), 0) / $n.0, 2)
  || ' pg_exec_ms_per_write_top_level=' || round((sum(total_exec_time) FILTER (WHERE toplevel) / $n)::numeric, 3)
  FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'"
"${PSQL[@]}" -F ' | ' -c "SELECT round(calls / $n.0, 3) AS per_write, round((total_exec_time / $n)::numeric, 4) AS ms_per_write,
  CASE WHEN toplevel THEN 'top' ELSE 'nested' END, left(regexp_replace(query, '\s+', ' ', 'g'), 110)
  FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 30"
echo "# JFR, write-worker threads (bench/cpu/jfr-top.py)"
jfr print --json --stack-depth 200 --events jdk.ExecutionSample "$WORK/apply.jfr" > "$WORK/apply.json"
python3 "$ROOT/bench/cpu/jfr-top.py" "$WORK/apply.json" 'write-worker' 30
