#!/usr/bin/env bash
# Two builds' POST /leads at the same moments (issue 25's "write figures not worse than before"; docs/BENCHMARKS.md).
#
#   mvn -B -q -o package -pl server -am -DskipTests           # a jar; copy an older build's jar + lib/ for the other
#   bench/writes-side-by-side.sh BEFORE_JAR AFTER_JAR [ROUNDS] [SECONDS] [RATE]   # defaults 5 rounds, 10 s, 250 writes/s
#
# bench/run.sh measures one build, then the other: on this machine the disk swung from 772 to 8,866 fdatasync/s
# within hours (pg_test_fsync, 2026-11-27), and one build's run met a slow disk while the other's did not. Here each
# build has its own stack (bench/stack.sh: PostgreSQL, ClickHouse, server), both stacks are warmed alike, and each
# round both senders run at once — an open loop of RATE new leads per second for SECONDS on each (bench/Paced.java) —
# so both builds meet the same disk and the same neighbours, each other included. Per round and build: acceptance
# p50/p99, created→visible p50/p99/max (bench/stack.sh visible_writes, as bench/run.sh: when GET /leads shows the
# lead) and sent→visible p50/p99/max (sent_to_visible: from the send, acceptance included). Before each round both
# stacks settle (writes applied, CDC caught up, no merge) and agree to start; which sender starts first alternates
# (they start within milliseconds).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n 2,5p "$0" >&2; exit 2; }
ROUNDS=${3:-5}
SECS=${4:-10}
RATE=${5:-250}
SYNC=$(mktemp -d /tmp/side-by-side.XXXXXX)
trap 'touch "$SYNC/end"; wait; rm -rf "$SYNC"' EXIT

# One build's side: its stack, a warm-up, then per round: settle, say ready, wait for go, send, report.
side() {
  local name=$1 round
  JAR=$2
  source "$ROOT/bench/stack.sh"
  wrk -t1 -c16 -d"${WARMUP:-20}s" -s "$ROOT/bench/post-leads.lua" "http://127.0.0.1:$APP_PORT" >/dev/null
  for round in $(seq 1 "$ROUNDS"); do
    settle_writes >/dev/null
    "${PSQL[@]}" -c "TRUNCATE write_requests" >/dev/null
    touch "$SYNC/ready.$round.$name"
    while [ ! -e "$SYNC/go.$round" ]; do sleep 0.05; done
    [ "$name" = "$(cat "$SYNC/go.$round")" ] || sleep 0.01
    accept=$(PACED_SENDS="$WORK/sends.csv" java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$RATE" "$SECS" | head -1)
    drain_writes
    visible="$(visible_writes) $(sent_to_visible "$WORK/sends.csv")"
    echo "round=$round build=$name $(tr ' ' '\n' <<<"$accept" | grep -E '^(accept_p50_ms|accept_p99_ms|late_sends|non_200)=' | tr '\n' ' ')$visible" > "$SYNC/result.$round.$name"
  done
  while [ ! -e "$SYNC/end" ]; do sleep 0.2; done
}

side before "$1" > "$SYNC/before.log" 2>&1 &
BEFORE_PID=$!
side after "$2" > "$SYNC/after.log" 2>&1 &
AFTER_PID=$!
# both sides still running, or stop with their logs' ends (a side that failed would otherwise be waited for forever)
alive() {
  kill -0 "$BEFORE_PID" 2>/dev/null && kill -0 "$AFTER_PID" 2>/dev/null && return
  echo "a side ended early:"; tail -20 "$SYNC"/*.log; exit 1
}
echo "# $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS rounds of $RATE writes/s for ${SECS}s on each build at once"
for round in $(seq 1 "$ROUNDS"); do
  while [ ! -e "$SYNC/ready.$round.before" ] || [ ! -e "$SYNC/ready.$round.after" ]; do
    sleep 0.2
    alive
  done
  first=$([ $((round % 2)) = 1 ] && echo before || echo after)
  echo "$first" > "$SYNC/go.$round.tmp" && mv "$SYNC/go.$round.tmp" "$SYNC/go.$round"
  while [ ! -e "$SYNC/result.$round.before" ] || [ ! -e "$SYNC/result.$round.after" ]; do sleep 0.2; alive; done
  cat "$SYNC/result.$round.before" "$SYNC/result.$round.after"
  echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
done
