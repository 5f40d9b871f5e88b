#!/usr/bin/env bash
# Cost of the request metrics and the access log (issue 24; docs/BENCHMARKS.md "Metrics and access log"):
#
#   mvn -B -q -o package -pl server -am -DskipTests
#   bench/observability.sh [SECONDS] [CONNECTIONS]       # defaults 10 s, 50 connections
#   JAR=/path/to/other/attribution-server.jar bench/observability.sh …   # the same bench on another build (before/after)
#
# On a private stack (bench/stack.sh: PostgreSQL, ClickHouse, the server jar, an unthrottled account):
# 1. warm-up, not counted: SECONDS of POST /api/v1.0/leads and of GET /api/v1.0/leads?limit=1;
# 2. wrk -t2 -cCONNECTIONS -dSECONDS of each → requests/s, p50/p99 (the server logs to a file, as scripts/up does);
# 3. /prometheus after that traffic: lines, bytes, and the time of 20 scrapes one after the other (p50, max).
# Needs wrk (apt-get install -y wrk).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_RUN=${1:-10}
CONNECTIONS=${2:-50}
JAR=${JAR:-$ROOT/server/target/attribution-server.jar}
[ -f "$JAR" ] || { echo "no $JAR: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is required: apt-get install -y wrk" >&2; exit 1; }
source "$ROOT/bench/stack.sh"
BASE="http://127.0.0.1:$APP_PORT"

cat >"$WORK/get.lua" <<LUA
wrk.headers["API-Key"] = os.getenv("BENCH_API_KEY")
function done(summary, latency, requests)
  io.write(string.format("per_second=%.0f p50_ms=%.2f p99_ms=%.2f non_2xx=%d errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

echo "# jar: $JAR ($(date -r "$JAR" -u +%FT%TZ)); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" -s "$ROOT/bench/post-leads.lua" "$BASE" >/dev/null
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" -s "$WORK/get.lua" "$BASE/api/v1.0/leads?limit=1" >/dev/null
echo "POST /api/v1.0/leads: $(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" -s "$ROOT/bench/post-leads.lua" "$BASE" | tail -1)"
echo "GET /api/v1.0/leads?limit=1: $(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" -s "$WORK/get.lua" "$BASE/api/v1.0/leads?limit=1" | tail -1)"

curl -s "$BASE/prometheus" >"$WORK/scrape.txt"
times=$(for _ in $(seq 1 20); do curl -s -o /dev/null -w '%{time_total}\n' "$BASE/prometheus"; done | sort -n)
echo "/prometheus: $(grep -vc '^#' "$WORK/scrape.txt") samples, $(wc -c <"$WORK/scrape.txt") bytes;" \
     "20 scrapes p50 $(echo "$times" | sed -n 10p) s, max $(echo "$times" | tail -1) s"
echo "# access log lines: $(grep -c '"logger_name":"dev.attribution.access"' "$WORK/server.log" || true)"
