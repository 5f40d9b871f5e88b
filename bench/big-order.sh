#!/usr/bin/env bash
# Apply time of one large order (issue 23 point 1; docs/BENCHMARKS.md).
#
#   mvn -B -q -o package -pl server -am -DskipTests
#   bench/big-order.sh [SIZES]          # default "100 1000 10000" items
#
# For each size, one POST /api/v1.0/orders with that many items (10 product names, 1.25 each) on an idle server; the
# request log's created_at → processed_at is the apply time, and the sum of the order's sales is checked.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SIZES=${1:-100 1000 10000}
JAR=$ROOT/server/target/attribution-server.jar
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
source "$ROOT/bench/stack.sh"

echo "# machine: $(nproc) cores, $(uname -r); load average $(cut -d' ' -f1-3 /proc/loadavg); $(git -C "$ROOT" log -1 --format=%h)"
for n in $SIZES; do
  python3 -c 'import json,sys; n=int(sys.argv[1]); print(json.dumps({"orderId": "big-%d" % n, "email": "big%d@bench.test" % n,
    "items": [{"name": "Widget %d" % (i % 10), "price": 1.25} for i in range(n)]}))' "$n" >"$WORK/order.json"
  id=$(curl -s -X POST "http://127.0.0.1:$APP_PORT/api/v1.0/orders" -H "API-Key: $BENCH_API_KEY" -H 'Content-Type: application/json' \
       --data-binary @"$WORK/order.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["request_id"])')
  while [ "$("${PSQL[@]}" -c "SELECT status FROM write_requests WHERE id = '$id'")" = PENDING ]; do sleep 0.2; done
  "${PSQL[@]}" -c "SELECT 'items=$n status=' || w.status || ' apply_ms=' || round(extract(epoch FROM w.processed_at - w.created_at) * 1000)
                   || ' sales=' || (SELECT count(*) || ' sum=' || sum(price) FROM sales s WHERE s.order_id = 'big-$n')
                   FROM write_requests w WHERE w.id = '$id'"
done
