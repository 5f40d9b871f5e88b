#!/usr/bin/env bash
# One long-lived session refreshing conversion_touches / sale_credits, as a write worker's pooled connection does
# (issue 23 point 3; docs/BENCHMARKS.md "The conversion_touches triggers' cost per write"). On a private stack
# (bench/stack.sh: the server migrates PostgreSQL), one account gets LEADS leads, 4 clicks and 1.6 sales per lead
# (plain SQL); then ONE psql session calls conversion_touches_refresh for 25 random leads, CALLS times, each call its own
# transaction, and prints per block of 1,000 calls the time per call and the bytes of the session's scratch tables;
# then pgbench times an UPDATE of 25 sales in a deferred transaction (the statement trigger's change detection).
#
#   mvn -B -q -o package -pl server -am -DskipTests
#   bench/refresh-session.sh [CALLS] [LEADS]          # defaults 3000 5000; JAR=… for another build
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CALLS=${1:-3000}
LEADS=${2:-5000}
JAR=${JAR:-$ROOT/server/target/attribution-server.jar}
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
source "$ROOT/bench/stack.sh"
echo "# $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $LEADS leads, $CALLS calls of 25 leads; build $JAR"
"${PSQL[@]}" -v ON_ERROR_STOP=1 -q <<SQL
INSERT INTO leads (account_id, id, email, created_at, updated_at)
SELECT '$ACCOUNT', 'l' || g, 'u' || g || '@refresh.test', now() - interval '60 days', now() - interval '60 days' FROM generate_series(1, $LEADS) g;
INSERT INTO clicks (account_id, id, lead_id, click_date, tracked_url, is_organic, created_at, integration_type, ad_source_id)
SELECT '$ACCOUNT', 'c' || g, 'l' || (g % $LEADS + 1), now() - interval '50 days' + (g || ' minutes')::interval, 'https://x.test', g % 3 = 0,
       now(), 'FACEBOOK', 'ad' || (g % 20)
FROM generate_series(1, $LEADS * 4) g;
INSERT INTO sales (account_id, id, order_id, lead_id, buyer_lead_id, product_name, position, quantity, unit_price, price, discount, taxes,
                   shipping, hard_cost, cost_of_goods, currency, recurring, sale_date, created_at, updated_at)
SELECT '$ACCOUNT', 's' || g, 'o' || g, 'l' || (g % $LEADS + 1), 'l' || (g % $LEADS + 1), 'p', 1, 1, 10, 10, 0, 0, 0, 0, 0, 'USD', false,
       now() - interval '5 days', now(), now()
FROM generate_series(1, $LEADS * 8 / 5) g;
ANALYZE;
SQL
python3 - "$ACCOUNT" "$CALLS" "$LEADS" > "$WORK/calls.sql" <<'PY'
import random, sys
acc, calls, leads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
size = ("SELECT coalesce((SELECT pg_relation_size(to_regclass('pg_temp.conversion_touches_fresh'))), 0) AS touches_fresh_bytes, "
        "coalesce((SELECT pg_relation_size(to_regclass('pg_temp.sale_credits_fresh'))), 0) AS credits_fresh_bytes;")
def mark(n):
    print(f"\\echo calls {n}")
    print("SELECT to_char(clock_timestamp(), 'HH24:MI:SS.MS') AS at;")
    print(size)
mark(0)
for i in range(calls):
    k = random.randrange(leads)
    print(f"SELECT conversion_touches_refresh((SELECT array_agg('{acc}'::text) FROM generate_series(1, 25)), "
          f"(SELECT array_agg('l' || ((g * 7 + {k}) % {leads} + 1)) FROM generate_series(1, 25) g));")
    if i % 1000 == 999:
        mark(i + 1)
PY
"${PSQL[@]}" -q -F ' ' -f "$WORK/calls.sql" | grep -v '^$' \
  | python3 -c '
import sys, datetime
prev = None
for line in sys.stdin:
    line = line.strip()
    if line.startswith("calls"):
        calls = line.split()[1]
    elif ":" in line:
        at = datetime.datetime.strptime(line, "%H:%M:%S.%f")
        ms = "" if prev is None else f" ms_per_call={(at - prev).total_seconds():.3f}"
        prev = at
    else:
        t, c = line.split()
        print(f"calls={calls}{ms} conversion_touches_fresh_bytes={t} sale_credits_fresh_bytes={c}", flush=True)
'

# An UPDATE of 25 sales in a deferred transaction (as a worker's order batch updates their first_sale flags), rolled
# back: what the statement trigger's change detection costs (V104 point 1), pgbench for 10 s in one session.
cat > "$WORK/update.sql" <<SQL
\set k random(1, $((LEADS * 8 / 5 - 25)))
BEGIN;
SET LOCAL attribution.touches_deferred = on;
UPDATE sales SET first_sale = NOT first_sale WHERE account_id = '$ACCOUNT' AND id = ANY (SELECT 's' || (:k + g) FROM generate_series(1, 25) g);
ROLLBACK;
SQL
echo "update_of_25_sales_with_trigger: $(/usr/lib/postgresql/15/bin/pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -n -c1 -T10 \
  -f "$WORK/update.sql" attribution 2>&1 | grep -E 'latency average')"
