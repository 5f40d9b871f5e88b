#!/usr/bin/env bash
# GET /leads at 1,000,000 leads in one account: the SQL LeadReader issues for each filter, run by pgbench
# (2 clients, prepared statements, 8 s each) against a private PostgreSQL 15 migrated to the current schema.
#   bench/leads-get.sh [PORT]        (default 38413; data directory /tmp/leads-bench-pg)
# Prints p50/p99 per script from pgbench's per-transaction log. The HTTP layer is not included.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${1:-38413}
DIR=/tmp/leads-bench-pg
bash scripts/lib/servers.sh pg-start "$DIR" "$PORT" >/dev/null
export PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=postgres PGDATABASE=attribution
if [ "$(psql -tAc "SELECT to_regclass('leads') IS NOT NULL")" != t ]; then
  for f in $(ls schema/src/main/resources/db/migration/*.sql | sort -V); do psql -q -v ON_ERROR_STOP=1 -f "$f"; done
  psql -q -v ON_ERROR_STOP=1 -f bench/leads-get-data.sql
fi
for f in bench/leads-get/*.sql; do
  name=$(basename "$f" .sql)
  /usr/lib/postgresql/15/bin/pgbench -n -M prepared -c 2 -j 1 -T 8 -f "$f" -l --log-prefix="/tmp/pgb_$name" >/dev/null 2>&1
  cat /tmp/pgb_"$name".* | awk '{print $3/1000}' | sort -n \
    | awk -v n="$name" '{a[NR]=$1} END {printf "%-14s n=%-6d p50=%.2f ms  p99=%.2f ms\n", n, NR, a[int(NR*0.5)], a[int(NR*0.99)]}'
  rm -f /tmp/pgb_"$name".*
done
