#!/usr/bin/env bash
# GET /leads over HTTP at 1,000,000 leads in one account (issue 5: p99 ≤ 50 ms), end to end: API key check, rate
# limit, query parsing, the SQL, JSON. Uses database attribution_http in the PostgreSQL of bench/leads-get.sh: the
# server migrates it (Flyway) on first start and bench/leads-get-data.sql fills it once (a few minutes). The server
# runs with the CDC role off (the bench reads PostgreSQL only; streaming a million leads into ClickHouse is not what
# is measured) and a private ClickHouse; then wrk runs per filter.
#   mvn -B -q -o package -pl server -am -DskipTests
#   bench/leads-get-http.sh [SECONDS] [CONNECTIONS]     (defaults 8 s, 8 connections)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECONDS_RUN=${1:-8}
CONNECTIONS=${2:-8}
JAR=$ROOT/server/target/attribution-server.jar
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is required (apt-get install wrk)" >&2; exit 1; }
PG_PORT=38413
DIR=/tmp/leads-bench-pg
bash "$ROOT/scripts/lib/servers.sh" pg-start "$DIR" "$PG_PORT" >/dev/null
export PGHOST=127.0.0.1 PGPORT=$PG_PORT PGUSER=postgres PGDATABASE=attribution_http
psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'attribution_http'" | grep -q 1 \
  || psql -d postgres -qc "CREATE DATABASE attribution_http"
WORK=$(mktemp -d /tmp/leads-http.XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
CH_HTTP=$(free_port); CH_TCP=$(free_port); APP_PORT=$(free_port)
SERVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  "$ROOT/scripts/lib/servers.sh" ch-stop "$WORK/ch" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
"$ROOT/scripts/lib/servers.sh" ch-start "$WORK/ch" "$CH_HTTP" "$CH_TCP" >/dev/null
export POSTGRES_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/attribution_http" CLICKHOUSE_URL="http://127.0.0.1:$CH_HTTP" PORT=$APP_PORT
java -Xmx1g -Dattribution.roles.cdc=false -jar "$JAR" > "$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 150); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$APP_PORT/api/v1.0/leads" || true)
  [ "$code" = 401 ] && break
  sleep 0.2
done
[ "$code" = 401 ] || { echo "server did not start:"; tail -50 "$WORK/server.log"; exit 1; }
if [ "$(psql -tAc "SELECT count(*) FROM leads WHERE account_id = 'acc_bench'")" = 0 ]; then
  echo "# loading 1,000,000 leads (once)" >&2
  psql -q -v ON_ERROR_STOP=1 -f "$ROOT/bench/leads-get-data.sql"
fi
export BENCH_API_KEY=$(java -jar "$JAR" admin key create --account acc_bench --roles "Get Leads" 2>/dev/null | tail -1 \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["apiKey"])')
java -jar "$JAR" admin account set-rate-limit --account acc_bench --per-second 100000000 --per-minute 2000000000 >/dev/null 2>&1

echo "# machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); wrk -t1 -c$CONNECTIONS -d${SECONDS_RUN}s per filter; 1,000,000 leads"
for filter in unfiltered email-prefix phone stage tag; do
  FILTER=$filter wrk -t1 -c"$CONNECTIONS" -d2s -s "$ROOT/bench/leads-get-http.lua" "http://127.0.0.1:$APP_PORT" >/dev/null
  printf '%-14s ' "$filter"
  FILTER=$filter wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency -s "$ROOT/bench/leads-get-http.lua" "http://127.0.0.1:$APP_PORT" | tail -1
done
