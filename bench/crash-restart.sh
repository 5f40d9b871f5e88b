#!/usr/bin/env bash
# Restart after a crash (issue 23 point 2; docs/BENCHMARKS.md): how long a server killed with SIGKILL under a write
# load takes to answer again, and to apply what it had accepted.
#
#   mvn -B -q -o package -pl server -am -DskipTests
#   bench/crash-restart.sh [ROUNDS] [RATE]          # defaults 3 rounds, 300 writes/s
#
# Each round: an open loop of POST /api/v1.0/leads at RATE writes/s (bench/Paced.java) for 8 s; after 5 s the server
# JVM is killed (kill -9) and started again over the same PostgreSQL and ClickHouse (data kept). Printed per round:
# ms from the restart to the first answered API request, to /health UP, and to an empty request-log backlog.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${1:-3}
RATE=${2:-300}
JAR=$ROOT/server/target/attribution-server.jar
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
source "$ROOT/bench/stack.sh"

echo "# machine: $(nproc) cores, $(uname -r); load average $(cut -d' ' -f1-3 /proc/loadavg)"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
for round in $(seq 1 "$ROUNDS"); do
  java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$RATE" 8 >/dev/null 2>&1 &
  load=$!
  sleep 5
  kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  t0=$(now_ms)
  java -Xmx1g ${SERVER_JAVA_OPTS:-} -jar "$JAR" >> "$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  answered= up=
  while [ -z "$up" ]; do
    [ -z "$answered" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$APP_PORT/api/v1.0/leads")" = 401 ] && answered=$(( $(now_ms) - t0 ))
    [ -n "$answered" ] && curl -fs -o /dev/null "http://127.0.0.1:$APP_PORT/health" && up=$(( $(now_ms) - t0 ))
    [ $(( $(now_ms) - t0 )) -gt 300000 ] && { echo "no answer within 300 s"; tail -30 "$WORK/server.log"; exit 1; }
    sleep 0.1
  done
  wait "$load" 2>/dev/null || true
  backlog=$(pending)
  drain_writes
  drained=$(( $(now_ms) - t0 ))
  echo "round=$round first_answer_ms=$answered health_up_ms=$up pending_after_restart=$backlog backlog_empty_ms=$drained"
done
