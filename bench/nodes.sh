#!/usr/bin/env bash
# Does a second API node add write throughput? (issue 28 point 3; results in docs/BENCHMARKS.md "Several API nodes")
#
#   mvn -B -q -o package -pl server -am -DskipTests
#   bench/nodes.sh [SECONDS] [BACKLOG_RATE]      # defaults 10 s, 1,500 writes/s
#
# Over one private PostgreSQL and ClickHouse (bench/stack.sh), the same load first on one server node, then on two
# (the second started beside the first, every role on both; the CDC role stays on one, the other is a standby), then
# on the first alone again (the tables have grown by then: a bracket around the two-node figures):
# 1. accept: a closed loop of POST /api/v1.0/leads for SECONDS, 50 connections in all (wrk -c50 on one node, two
#    wrk -c25 on two nodes at once) → accepted writes/s summed over the nodes; its backlog is applied before (2);
# 2. apply: a backlog of BACKLOG_RATE × SECONDS writes accepted (bench/Paced.java, split over the nodes) while a psql
#    session holds the leads table locked, so nothing is applied; the lock is then released and every node's workers
#    drain it → applied writes/s (count / (last processed_at − first)), and the wall time to an empty backlog.
# The machine's load average is printed with each figure: on a shared 2-core machine both nodes compete for the same
# cores, so a second node cannot add CPU, only lanes and connections.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_RUN=${1:-10}
BACKLOG_RATE=${2:-1500}
JAR=$ROOT/server/target/attribution-server.jar
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is required: apt-get install -y wrk" >&2; exit 1; }
source "$ROOT/bench/stack.sh"
SECOND_PID=
trap '[ -n "$SECOND_PID" ] && kill "$SECOND_PID" 2>/dev/null; cleanup' EXIT

load() { cut -d' ' -f1 /proc/loadavg; }
echo "# machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $(java -version 2>&1 | head -1)"

measure() {
  local label=$1; shift
  local urls=("$@") n=$# total=0 i
  drain_writes
  "${PSQL[@]}" -c "TRUNCATE write_requests" >/dev/null
  local wrks=()
  for i in "${!urls[@]}"; do
    BENCH_SALT="n$i-" wrk -t1 -c$((50 / n)) -d"${SECONDS_RUN}s" -s "$ROOT/bench/post-leads.lua" "${urls[$i]}" > "$WORK/wrk.$i" 2>&1 &
    wrks+=($!)
  done
  wait "${wrks[@]}"
  for i in "${!urls[@]}"; do
    total=$(( total + $(sed -n 's/.*accepted_per_second=\([0-9]*\).*/\1/p' "$WORK/wrk.$i") ))
  done
  echo "nodes=$n phase=accept accepted_per_s=$total load=$(load) ($label)"
  drain_writes

  "${PSQL[@]}" -c "TRUNCATE write_requests" >/dev/null
  PGAPPNAME=bench-lock "${PSQL[@]}" -c "BEGIN; LOCK TABLE leads IN EXCLUSIVE MODE; SELECT pg_sleep(900);" >/dev/null 2>&1 &
  local locker=$!
  until [ "$("${PSQL[@]}" -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'bench-lock' AND state = 'active'")" = 1 ]; do sleep 0.1; done
  local pids=()
  for i in "${!urls[@]}"; do
    PACED_WARMUP=0 java "$ROOT/bench/Paced.java" "${urls[$i]}" "$BENCH_API_KEY" $((BACKLOG_RATE / n)) "$SECONDS_RUN" > "$WORK/paced.$i" 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
  local backlog processed
  backlog=$(pending)
  processed=$("${PSQL[@]}" -c "SELECT count(*) FROM write_requests WHERE status <> 'PENDING'")
  local t0 t1
  t0=$(date +%s.%N)
  "${PSQL[@]}" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bench-lock'" >/dev/null
  wait "$locker" 2>/dev/null || true
  drain_writes
  t1=$(date +%s.%N)
  "${PSQL[@]}" -c "SELECT 'nodes=$n phase=apply backlog=$backlog applied_before_release=$processed drained_after_s=' || round(($t1 - $t0)::numeric, 1)
    || ' applied_per_s=' || round(count(*) / extract(epoch FROM max(processed_at) - min(processed_at))::numeric)
    || ' failed=' || sum(CASE WHEN status = 'FAILED' THEN 1 ELSE 0 END) || ' load=$(load) ($label)' FROM write_requests"
}

# warm-up of the first node (JIT), its backlog applied before measuring
wrk -t1 -c50 -d20s -s "$ROOT/bench/post-leads.lua" "http://127.0.0.1:$APP_PORT" >/dev/null
measure "one node" "http://127.0.0.1:$APP_PORT"

SECOND_PORT=$(free_port)
PORT=$SECOND_PORT java -Xmx1g ${SERVER_JAVA_OPTS:-} -jar "$JAR" > "$WORK/server2.log" 2>&1 &
SECOND_PID=$!
for _ in $(seq 1 300); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$SECOND_PORT/api/v1.0/leads" || true)
  [ "$code" = 401 ] && break
  sleep 0.2
done
[ "$code" = 401 ] || { echo "second node did not start:"; tail -50 "$WORK/server2.log"; exit 1; }
BENCH_SALT=warm2- wrk -t1 -c50 -d20s -s "$ROOT/bench/post-leads.lua" "http://127.0.0.1:$SECOND_PORT" >/dev/null
echo "# CDC roles: first $(curl -s "http://127.0.0.1:$APP_PORT/health" | python3 -c 'import json,sys; print(json.load(sys.stdin)["details"]["cdc"]["details"]["role"])'), second $(curl -s "http://127.0.0.1:$SECOND_PORT/health" | python3 -c 'import json,sys; print(json.load(sys.stdin)["details"]["cdc"]["details"]["role"])')"
measure "two nodes" "http://127.0.0.1:$APP_PORT" "http://127.0.0.1:$SECOND_PORT"
kill "$SECOND_PID"; wait "$SECOND_PID" 2>/dev/null || true; SECOND_PID=
measure "one node again, the second stopped" "http://127.0.0.1:$APP_PORT"
