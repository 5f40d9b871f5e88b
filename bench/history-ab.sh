#!/usr/bin/env bash
# Does a longer history slow a report down? (issue 8: 24 months instead of 12 changes latency by ≤ 10 %)
# Compares one report with and without the older months, on the same instance, in interleaved rounds:
# the older months' partitions are detached (ALTER TABLE … DETACH PARTITION: metadata only, the same data files and
# page cache) and attached again between rounds, in the order 24 12 12 24 24 12 … so that a drift of the machine
# falls on both sides. Each round is REQUESTS requests after one unmeasured request; also printed: the rows and
# bytes ClickHouse read per request on each side (system.query_log), which show whether the older months are read.
#
#   bench/history-ab.sh CLICKHOUSE_URL REPORT_URL API_KEY CUTOFF [ROUNDS] [REQUESTS]
#     CUTOFF: partitions (toYYYYMM) below it are the older history, e.g. 202511; ROUNDS default 8, REQUESTS 20
# bench/reports.sh runs it after loading the older months; it can also be run on a kept instance (KEEP=1).
# Every partition it detached is attached again on exit.
set -euo pipefail
CH_URL=$1; URL=$2; KEY=$3; CUTOFF=$4; ROUNDS=${5:-8}; REQUESTS=${6:-20}
ch() { curl -sS --fail-with-body "$CH_URL/" --data-binary "$1"; }
LIST=$(mktemp)
ch "SELECT DISTINCT table, partition FROM system.parts WHERE active AND database = 'attribution' AND partition != 'tuple()'
    AND partition < '$CUTOFF' ORDER BY table, partition FORMAT TSV" > "$LIST"
[ -s "$LIST" ] || { echo "no partition below $CUTOFF: nothing older to compare" >&2; exit 1; }
DETACHED=0
attach() { [ "$DETACHED" = 1 ] || return 0; while read -r t p; do ch "ALTER TABLE attribution.$t ATTACH PARTITION $p"; done < "$LIST"; DETACHED=0; }
detach() { [ "$DETACHED" = 0 ] || return 0; while read -r t p; do ch "ALTER TABLE attribution.$t DETACH PARTITION $p"; done < "$LIST"; DETACHED=1; }
trap 'attach; rm -f "$LIST"' EXIT

# one round: one unmeasured request, then REQUESTS timed ones → their times (ms), one per line, appended to FILE
round() {
  local answer
  curl -s -o /dev/null -H "API-Key: $KEY" "$URL"
  for _ in $(seq 1 "$REQUESTS"); do
    answer=$(curl -s -m 300 -o /dev/null -w '%{http_code} %{time_total}' -H "API-Key: $KEY" "$URL")
    [ "${answer%% *}" = 200 ] || { echo "HTTP ${answer%% *}" >&2; exit 1; }
    echo "${answer#* }"
  done | awk '{printf "%.1f\n", $1 * 1000}' >> "$1"
}
read_per_request() {  # FROM TO: rows and MB one request reads (each statement's most, summed over statements) in [FROM, TO]
  [ "$(ch "SELECT value FROM system.settings WHERE name = 'log_queries'")" = 1 ] || { echo "n/a (log_queries is off)"; return; }
  ch "SYSTEM FLUSH LOGS"
  ch "SELECT concat(toString(sum(r)), ' rows, ', toString(round(sum(b) / 1e6, 1)), ' MB') FROM (SELECT substring(query, 1, 200) AS q,
      max(read_rows) AS r, max(read_bytes) AS b FROM system.query_log WHERE type = 2 AND event_time >= toDateTime($1)
      AND event_time <= toDateTime($2) AND query NOT LIKE 'ALTER%' AND query NOT LIKE '%system.%' GROUP BY q) FORMAT TSV"
}
p50() { sort -n | awk '{a[NR]=$1} END {print a[int(NR*0.5+0.5)]}'; }   # of the times on stdin

LONG=$(mktemp); SHORT=$(mktemp)
echo "# older history: $(wc -l < "$LIST") partitions below $CUTOFF ($(cut -f1 "$LIST" | sort -u | tr '\n' ' '))"
for r in $(seq 1 "$ROUNDS"); do
  # ABBA: 24 12 | 12 24 | 24 12 …
  if [ $((r % 2)) = 1 ]; then order="long short"; else order="short long"; fi
  for side in $order; do
    if [ "$side" = long ]; then attach; f=$LONG; else detach; f=$SHORT; fi
    n0=$(wc -l < "$f"); round "$f"
    echo "round $r $side: p50 $(tail -n +"$((n0 + 1))" "$f" | p50) ms"
  done
done
attach
t0=$(date +%s); round "$LONG.probe"; t1=$(date +%s); sleep 1
long_read=$(read_per_request "$t0" "$t1")
detach
t0=$(date +%s); round "$SHORT.probe"; t1=$(date +%s); sleep 1
short_read=$(read_per_request "$t0" "$t1")
attach
pl=$(p50 < "$LONG"); ps=$(p50 < "$SHORT")
echo "with the older months    n=$(wc -l < "$LONG") p50=${pl} ms  read per request: $long_read"
echo "without them            n=$(wc -l < "$SHORT") p50=${ps} ms  read per request: $short_read"
echo "change of p50 with the older months: $(python3 -c "print(f'{($pl - $ps) / $ps * 100:+.1f} %')")"
rm -f "$LONG" "$SHORT" "$LONG.probe" "$SHORT.probe"
