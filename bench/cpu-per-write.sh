#!/usr/bin/env bash
# CPU per accepted and per applied POST /api/v1.0/leads write, by thread group, on a server that is already running
# (the machine is shared: CPU time per write varies far less with the load than writes per second do).
#
#   bench/cpu-per-write.sh SERVER_PID APP_PORT PG_PORT API_KEY [SECONDS]
#
# 1. wrk -t2 -c50 for SECONDS (default 15) → accepted/s, p50/p99, and the server's CPU per accepted write split by
#    thread name (/proc/PID/task/*/stat), and the CPU of that PostgreSQL instance (its postmaster's children);
#    and the heap allocated per accepted write and the young-GC pauses (jstat -gc every 100 ms, bench/cpu/alloc.py);
# 2. then the drain of the backlog alone (no accepts running) → applied/s and CPU per applied write.
# The key's account needs a rate limit that cannot interfere (admin account set-rate-limit). Profile with JFR at
# the same time: jcmd PID JFR.start settings=profile filename=x.jfr; then
# jfr print --json --stack-depth 200 --events jdk.ExecutionSample x.jfr > x.json (the default keeps only 5 frames)
# and python3 bench/cpu/jfr-top.py x.json 'io-executor|request-log' (or 'write-worker').
set -euo pipefail
DIR=$(cd "$(dirname "$0")" && pwd)
PID=$1; APP_PORT=$2; PG_PORT=$3; export BENCH_API_KEY=$4; SECS=${5:-15}
PSQL=(/usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d attribution -tA)
PG_DATA=$("${PSQL[@]}" -c "SHOW data_directory")
pgcpu() { local pm s=0 p; pm=$(head -1 "$PG_DATA/postmaster.pid"); for p in $pm $(pgrep -P "$pm"); do
  s=$((s + $(awk '{print $14+$15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done; echo "$s"; }
done_count() { "${PSQL[@]}" -c "SELECT count(*) FROM write_requests WHERE status <> 'PENDING'"; }
per_write() { python3 "$DIR/cpu/threads.py" --diff /tmp/cpu-per-write.$$.t0 /tmp/cpu-per-write.$$.t1 "$1"; }
trap 'rm -f /tmp/cpu-per-write.$$.*' EXIT
load() { uptime | sed 's/.*average: //'; }

echo "# accept: wrk -t2 -c50 -d${SECS}s; load $(load)"
python3 "$DIR/cpu/threads.py" "$PID" > /tmp/cpu-per-write.$$.t0; g0=$(pgcpu)
jstat -gc "$PID" 100 > /tmp/cpu-per-write.$$.gc & JSTAT=$!
out=$(wrk -t2 -c50 -d"${SECS}s" --latency -s "$DIR/post-leads.lua" "http://127.0.0.1:$APP_PORT" | tail -1)
kill "$JSTAT"; wait "$JSTAT" 2>/dev/null || true
python3 "$DIR/cpu/threads.py" "$PID" > /tmp/cpu-per-write.$$.t1; g1=$(pgcpu)
n=$(( $(echo "$out" | sed 's/.*accepted_per_second=\([0-9]*\).*/\1/') * SECS ))
echo "$out"; echo "server_us_per_accepted: $(per_write "$n")"; echo "postgres_us_per_accepted=$(( (g1 - g0) * 1000000 / $(getconf CLK_TCK) / n ))"
echo "heap_per_accepted: $(python3 "$DIR/cpu/alloc.py" /tmp/cpu-per-write.$$.gc "$n")"

echo "# drain of the backlog (polled once a second); load $(load)"
n0=$(done_count); python3 "$DIR/cpu/threads.py" "$PID" > /tmp/cpu-per-write.$$.t0; g0=$(pgcpu); s0=$(date +%s.%N)
while [ "$("${PSQL[@]}" -c "SELECT count(*) FROM (SELECT 1 FROM write_requests WHERE status = 'PENDING' LIMIT 1) t")" != 0 ]; do sleep 1; done
s1=$(date +%s.%N); n=$(( $(done_count) - n0 )); python3 "$DIR/cpu/threads.py" "$PID" > /tmp/cpu-per-write.$$.t1; g1=$(pgcpu)
echo "applied=$n in $(python3 -c "print(round($s1 - $s0, 1))") s"
echo "server_us_per_applied: $(per_write "$n")"; echo "postgres_us_per_applied=$(( (g1 - g0) * 1000000 / $(getconf CLK_TCK) / n ))"
echo "# load $(load)"
