#!/usr/bin/env bash
# Report latency at scale (issue 8): one account of LEADS leads, 20 clicks and 2 sales per lead over MONTHS months,
# generated on the servers themselves — ClickHouse with INSERT … SELECT FROM system.numbers (reports/data-ch.sql),
# PostgreSQL with generate_series (reports/data-pg.sql), the same rows in both. The conversion_touches and sale_credits
# projections the reports read: in PostgreSQL their triggers fill them while the rows load; in ClickHouse (no CDC here)
# they are derived from the loaded rows by schema/…/clickhouse/derived/{conversion_touches,sale_credits}.sql, and both
# sides are checked identical. Then:
#   1. GET /api/v1.0/attribution last_click at ad level (10 ads) over the last 30 days: p50/p99 of REQUESTS requests;
#   2. the same report computed on PostgreSQL (reports/last-click-ad.sql): median of 3 runs, and the ratio;
#   3. scientific, /attribution/roas and /attribution/marginal-cac-curve the same way, each only when the server
#      answers it with 200 (they are being built; otherwise the line says skipped and why);
#   4. another MONTHS months of older history added to ClickHouse, and step 1 again (24 vs 12 months); then both
#      in AB_ROUNDS (default 8) interleaved rounds of REQUESTS requests, the older months detached and attached
#      between rounds (bench/history-ab.sh), with the rows each side reads.
#
#   mvn -B -q -o package -pl server -am -DskipTests      # once
#   LEADS=100000 bench/reports.sh                         # default LEADS=1000000 MONTHS=12 REQUESTS=50
#   PG=0 SCIENTIFIC=0 bench/reports.sh                    # ClickHouse only: no PostgreSQL load / comparison, no scientific
#   OLDER=0 bench/reports.sh                              # no step 4 (12 months only)
#   PG=0 DERIVE_ONLY=1 bench/reports.sh                   # only the load and the conversion_touches derive (timed)
#   JAR=/tmp/other/attribution-server.jar bench/reports.sh  # another build (its lib/ beside it)
#   KEEP=1 … bench/reports.sh; REUSE=DIR bench/reports.sh  # the report steps again on the stores a KEEP=1 run kept in DIR
#       (its ports, account and dates from DIR/bench.env; no load: a 10 M load takes about an hour), e.g. for other builds;
#       stopped stores start again on their ports: . DIR/bench.env; scripts/lib/servers.sh pg-start DIR/pg $PG_PORT;
#       scripts/lib/servers.sh ch-start DIR/ch $CH_HTTP $CH_TCP
#   BEFORE_JAR=/tmp/old/attribution-server.jar bench/reports.sh  # two builds on the same data: a second server of
#       BEFORE_JAR on the same stores, and the report lines of step 1/3 run for each build in turn, before then after,
#       AB_REPORT_ROUNDS times (default 2); every line is labelled with its build
#
# The script starts and removes its own PostgreSQL, ClickHouse and server (CDC role off: the data is loaded into
# both stores directly). KEEP=1 keeps them (and prints where). Figures: docs/BENCHMARKS.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LEADS=${LEADS:-1000000}
MONTHS=${MONTHS:-12}
REQUESTS=${REQUESTS:-50}
ADS=200
CLICKS=$((LEADS * 20))
SALES=$((LEADS * 2))
SPAN=$((MONTHS * 30 * 86400))
T_END=$(( $(date -u +%s) / 86400 * 86400 - 86400 ))     # yesterday 00:00 UTC: the history ends in the past
JAR=${JAR:-$ROOT/server/target/attribution-server.jar}
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
if [ -n "${REUSE:-}" ]; then
  # the stores of an earlier KEEP=1 run, still running: their ports, the account and the dates of their data
  WORK=$REUSE KEEP=1
  . "$WORK/bench.env"
  CLICKS=$((LEADS * 20)) SALES=$((LEADS * 2)) SPAN=$((MONTHS * 30 * 86400))
  # the PostgreSQL comparison only if that run loaded PostgreSQL; no older history (it would be added a second time)
  PG=${PG:-$PG_LOADED} OLDER=0
else
  WORK=$(mktemp -d /tmp/attribution-reports.XXXXXX)
  chmod 755 "$WORK"
  PG_PORT=$(free_port); CH_HTTP=$(free_port); CH_TCP=$(free_port)
fi
APP_PORT=$(free_port)
SERVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  [ -n "${BEFORE_PID:-}" ] && kill "$BEFORE_PID" 2>/dev/null && wait "$BEFORE_PID" 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "# kept: $WORK (pg $PG_PORT, ch $CH_HTTP, account ${ACC:-} API key ${KEY:-})"; return; fi
  "$ROOT/scripts/lib/servers.sh" pg-stop "$WORK/pg" >/dev/null 2>&1 || true
  "$ROOT/scripts/lib/servers.sh" ch-stop "$WORK/ch" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f} s')" "$1" "$(now)"; }

if [ -z "${REUSE:-}" ]; then
"$ROOT/scripts/lib/servers.sh" pg-start "$WORK/pg" "$PG_PORT" >/dev/null
"$ROOT/scripts/lib/servers.sh" ch-start "$WORK/ch" "$CH_HTTP" "$CH_TCP" >/dev/null
fi
# every statement in system.query_log: the figures per request below come from it (users.xml is re-read live; a
# ClickHouse of REUSE's stores restarted with servers.sh ch-start has had it written anew)
grep -q '<log_queries>1</log_queries>' "$WORK/ch/users.xml" || sed -i '0,/<default>/s|<default>|<default><log_queries>1</log_queries>|' "$WORK/ch/users.xml"
export POSTGRES_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/attribution" CLICKHOUSE_URL="http://127.0.0.1:$CH_HTTP" PORT=$APP_PORT
PSQL=(/usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d attribution -v ON_ERROR_STOP=1 -qtA)
ch() { curl -sS --fail-with-body "http://127.0.0.1:$CH_HTTP/" --data-binary "$1"; }
# the bench's own bulk statements (deriving the projection) may use more than the server's per-query limit
chbig() { curl -sS --fail-with-body "http://127.0.0.1:$CH_HTTP/?max_memory_usage=${CH_QUERY_MEMORY:-8000000000}" --data-binary "$1"; }

# the server migrates both stores (Flyway, ClickHouse DDL); CDC stays off: the bench loads both stores itself
# start_server JAR PORT LOG: a server of JAR on PORT, CDC off; waits until it answers (401 without a key)
start_server() {
  local code
  PORT=$2 java -Xmx1g -Dattribution.roles.cdc=false -jar "$1" > "$3" 2>&1 &
  STARTED_PID=$!
  for _ in $(seq 1 300); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$2/api/v1.0/leads" || true)
    [ "$code" = 401 ] && return 0
    sleep 0.2
  done
  echo "server $1 did not start:"; tail -50 "$3"; kill "$STARTED_PID" 2>/dev/null; exit 1
}
start_server "$JAR" "$APP_PORT" "$WORK/server.log"
SERVER_PID=$STARTED_PID
if [ -z "${REUSE:-}" ]; then
created=$(java -jar "$JAR" admin account create --name Bench --time-zone UTC 2>/dev/null | tail -1)
ACC=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["accountId"])' "$created")
KEY=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["apiKey"])' "$created")
java -jar "$JAR" admin account set-rate-limit --account "$ACC" --per-second 100000 --per-minute 10000000 >/dev/null 2>&1
# what REUSE=DIR needs to run the report steps again on these stores
printf 'PG_PORT=%s CH_HTTP=%s CH_TCP=%s ACC=%s KEY=%s T_END=%s LEADS=%s MONTHS=%s PG_LOADED=%s\n' "$PG_PORT" "$CH_HTTP" "$CH_TCP" \
    "$ACC" "$KEY" "$T_END" "$LEADS" "$MONTHS" "${PG:-1}" > "$WORK/bench.env"
fi

echo "# machine: $(nproc) cores; load at start:$(uptime | sed 's/.*load average://')"
echo "# scale: $LEADS leads, $CLICKS clicks, $SALES sales, $ADS ads over $MONTHS months (account $ACC)"

fill() {  # fill FILE PREFIX T_END: the placeholders of a reports/*-ch.sql file, one statement per line
  sed -e "s/{db}/attribution/g; s/{acc}/$ACC/g; s/{leads}/$LEADS/g; s/{clicks}/$CLICKS/g; s/{sales}/$SALES/g" \
      -e "s/{ads}/$ADS/g; s/{ads_days}/$((ADS * SPAN / 86400))/g; s/{t_end}/$3/g; s/{span}/$SPAN/g; s/{p}/$2/g" "$1" | grep -v '^--'
}
if [ -z "${REUSE:-}" ]; then
t=$(now)
fill "$ROOT/bench/reports/dims-ch.sql" "" "$T_END" | while IFS= read -r stmt; do ch "$stmt"; done
fill "$ROOT/bench/reports/data-ch.sql" "" "$T_END" | while IFS= read -r stmt; do ch "$stmt"; done
ch "OPTIMIZE TABLE attribution.ads FINAL" >/dev/null
echo "load clickhouse: $(since "$t") ($(ch "SELECT count() FROM attribution.clicks") clicks)"
PARTS=$(( LEADS / 100000 > 1 ? LEADS / 100000 : 1 ))
touches() {  # touches SCOPE: derive the projection rows of the leads matching SCOPE, in PARTS shares of the leads
  # (each share a range of lead keys, cityHash64(lead_id): it reads its own range of clicks_by_lead, see the SQL file)
  local stmt bounds lo hi n=0
  grep -v '^--' "$ROOT/schema/src/main/resources/clickhouse/derived/conversion_touches.sql" | while IFS= read -r stmt; do
    n=$((n + 1))
    if [ "$n" = 1 ]; then bounds="0 18446744073709551615"; else
      bounds=$(python3 -c 'import sys; p = int(sys.argv[1]); [print(i * 2**64 // p, (i + 1) * 2**64 // p - 1) for i in range(p)]' "$PARTS")
    fi
    echo "$bounds" | while read -r lo hi; do
      chbig "$(echo "$stmt" | sed -e "s/{db}/attribution/g; s/{acc}/$ACC/g; s/{version}/$(date +%s)000/g; s/{lo}/$lo/g; s/{hi}/$hi/g" \
          -e "s/{scope}/$1/g")"
    done
  done
}
t=$(now)
touches 1
echo "derive conversion_touches in clickhouse: $(since "$t") ($(ch "SELECT count() FROM attribution.conversion_touches") rows)"
credits() {  # credits SCOPE: derive the sale_credits rows of the sales matching SCOPE (after their touches), in PARTS
  # shares of the leads (cityHash64(lead_id) ranges: both dedups and the join's in-memory side stay a share's)
  local stmt lo hi
  grep -v '^--' "$ROOT/schema/src/main/resources/clickhouse/derived/sale_credits.sql" | while IFS= read -r stmt; do
    python3 -c 'import sys; p = int(sys.argv[1]); [print(i * 2**64 // p, (i + 1) * 2**64 // p - 1) for i in range(p)]' "$PARTS" |
    while read -r lo hi; do
      chbig "$(echo "$stmt" | sed -e "s/{db}/attribution/g; s/{scope}/account_id = '$ACC' AND $1 AND cityHash64(lead_id) BETWEEN $lo AND $hi/g")"
    done
  done
}
t=$(now)
credits 1
echo "derive sale_credits in clickhouse: $(since "$t") ($(ch "SELECT count() FROM attribution.sale_credits") rows)"
if [ "${DERIVE_ONLY:-0}" = 1 ]; then echo "# load at end:$(uptime | sed 's/.*load average://')"; exit 0; fi
fi
if [ "${PG:-1}" = 1 ] && [ -z "${REUSE:-}" ]; then
t=$(now)
"${PSQL[@]}" -v acc="$ACC" -v leads="$LEADS" -v clicks="$CLICKS" -v sales="$SALES" -v ads="$ADS" -v t_end="$T_END" \
    -v span="$SPAN" -f "$ROOT/bench/reports/data-pg.sql" >/dev/null
echo "load postgresql (its triggers fill conversion_touches): $(since "$t") ($("${PSQL[@]}" -c "SELECT count(*) FROM clicks") clicks, $("${PSQL[@]}" -c "SELECT count(*) FROM conversion_touches") projection rows)"
# the same projection on both sides: every row's conversion and four picked clicks, sorted, hashed
pg_sum=$("${PSQL[@]}" -c "COPY (SELECT conversion_id, coalesce(last_paid_click_id, ''), coalesce(last_organic_click_id, ''), coalesce(first_paid_click_id, ''),
    coalesce(first_organic_click_id, '') FROM conversion_touches ORDER BY conversion_id COLLATE \"C\") TO STDOUT" | md5sum | cut -c1-32)
ch_sum=$(chbig "SELECT conversion_id, lp_click_id, lo_click_id, fp_click_id, fo_click_id FROM attribution.conversion_touches_current ORDER BY conversion_id FORMAT TabSeparated" | md5sum | cut -c1-32)
echo "conversion_touches identical in postgresql (triggers) and clickhouse (derived): $([ "$pg_sum" = "$ch_sum" ] && echo yes || echo "NO ($pg_sum vs $ch_sum)")"
pg_sum=$("${PSQL[@]}" -c "COPY (SELECT sale_id, ad, platform, price, coalesce(last_paid_click_id, ''), coalesce(first_organic_click_id, '')
    FROM sale_credits ORDER BY sale_id COLLATE \"C\", ad COLLATE \"C\", platform COLLATE \"C\") TO STDOUT" | md5sum | cut -c1-32)
ch_sum=$(chbig "SELECT sale_id, ad, platform, toString(sale_price), lp_click_id, fo_click_id FROM attribution.sale_credits_current ORDER BY sale_id, ad, platform FORMAT TabSeparated" | md5sum | cut -c1-32)
echo "sale_credits identical in postgresql (triggers) and clickhouse (derived): $([ "$pg_sum" = "$ch_sum" ] && echo yes || echo "NO ($pg_sum vs $ch_sum)")"
fi

END_TS=$(date -u -d "@$((T_END - 1))" +%Y-%m-%dT%H:%M:%S)
START_TS=$(date -u -d "@$((T_END - 30 * 86400))" +%Y-%m-%dT%H:%M:%S)
# ten ads with paid clicks (an ad whose number is a multiple of 5 only gets the organic rows' numbers: none)
IDS=$(python3 -c 'print(",".join(f"ad{i}" for i in range(1, 200, 20)))')
PG_IDS=$(python3 -c 'print(",".join(f"'"'"'ad{i}'"'"'" for i in range(1, 200, 20)))')
BASE="http://127.0.0.1:$APP_PORT/api/v1.0"
REPORT="attribution?attributionModel=last_click&level=facebook_ad&ids=$IDS&startDate=$START_TS&endDate=$END_TS&fields=name,sales,revenue,total_revenue,unique_customers,leads,clicks,cost,roas,cac"
LAST_CLICK="$BASE/$REPORT"

# timed URL LABEL: REQUESTS GETs after 3 warm-ups (5 GETs, 1 warm-up, when one takes over 5 s; 300 s timeout);
# prints p50/p99/max in ms, or why it was skipped
timed() {
  local url=$1 label=$2 code n=$REQUESTS first
  read -r code first < <(curl -s -m 300 -o "$WORK/probe.json" -w '%{http_code} %{time_total}\n' -H "API-Key: $KEY" "$url")
  if [ "$code" != 200 ]; then
    printf '%-34s skipped (HTTP %s: %s)\n' "$label" "$code" "$(head -c 160 "$WORK/probe.json")"
    if [ "$code" = 500 ]; then
      echo "  server log: $(grep -oE '(Code: [0-9]+|DB::Exception)[^"\\]{0,160}' "$WORK/server.log" | tail -1)"
    fi
    return
  fi
  if python3 -c "import sys; sys.exit(0 if float('$first') > 5 else 1)"; then
    n=5
  else
    for _ in 1 2; do curl -s -o /dev/null -H "API-Key: $KEY" "$url"; done
  fi
  local cpu0 cpu1 t0 t1
  sleep 1; t0=$(date +%s)          # the warm-ups' statements end in an earlier second than t0
  cpu0=$(ch_cpu)
  for _ in $(seq 1 "$n"); do
    curl -s -m 300 -o /dev/null -w '%{time_total}\n' -H "API-Key: $KEY" "$url"
  done > "$WORK/times"
  cpu1=$(ch_cpu)
  t1=$(date +%s); sleep 1
  sort -n "$WORK/times" | awk -v l="$label" -v cpu="$(( (cpu1 - cpu0) * 1000 / $(getconf CLK_TCK) / n ))" '{a[NR]=$1*1000} END {
      i=int(NR*0.5+0.5); j=int(NR*0.99+0.5); if (j<1) j=1;
      printf "%-34s n=%d p50=%.0f ms  p99=%.0f ms  max=%.0f ms  clickhouse cpu %d ms/request\n", l, NR, a[i], a[j], a[NR], cpu}'
  echo "  per request (system.query_log): $(ch_reads "$t0" "$t1" "$n")"
  if [ "${DETAIL:-0}" = 1 ]; then ch_statements "$t0" "$t1" "$n"; fi
}
# The statements of the requests finished in [FROM, TO] (epoch seconds), per request (N requests): how many, the rows
# and bytes they read, and their user + system CPU time (ProfileEvents) — figures the machine's other load barely moves
ch_reads() {
  ch "SYSTEM FLUSH LOGS"
  ch "SELECT concat(toString(round(count() / $3, 1)), ' statements, ', toString(round(sum(read_rows) / $3)), ' rows, ',
      toString(round(sum(read_bytes) / $3 / 1e6, 1)), ' MB read, cpu ', toString(round(sum(cpu_us) / $3 / 1000)), ' ms (',
      toString(round(sum(query_duration_ms) / $3)), ' ms summed durations)') FROM (SELECT read_rows, read_bytes, query_duration_ms,
      arraySum(arrayMap((n, v) -> if(n IN ('UserTimeMicroseconds', 'SystemTimeMicroseconds'), v, 0), ProfileEvents.Names,
      ProfileEvents.Values)) AS cpu_us FROM system.query_log WHERE type = 2 AND event_time >= toDateTime($1)
      AND event_time <= toDateTime($2) AND query NOT LIKE '%system.%') FORMAT TSV"
}
# DETAIL=1: the same per statement (its first 150 characters), the heaviest first
ch_statements() {
  ch "SELECT concat('    ', toString(round(count() / $3, 1)), ' x  ', toString(round(avg(read_rows))), ' rows  ',
      toString(round(avg(read_bytes) / 1e6, 1)), ' MB  cpu ', toString(round(avg(cpu_us) / 1000)), ' ms  ', toString(round(avg(query_duration_ms))),
      ' ms  ', q) FROM (SELECT substring(replaceRegexpAll(query, '[\\n ]+', ' '), 1, 150) AS q, read_rows, read_bytes, query_duration_ms,
      arraySum(arrayMap((n, v) -> if(n IN ('UserTimeMicroseconds', 'SystemTimeMicroseconds'), v, 0), ProfileEvents.Names,
      ProfileEvents.Values)) AS cpu_us FROM system.query_log WHERE type = 2 AND event_time >= toDateTime($1)
      AND event_time <= toDateTime($2) AND query NOT LIKE '%system.%') GROUP BY q ORDER BY avg(cpu_us) DESC FORMAT TSV"
}
# CPU time (user + system, clock ticks) the ClickHouse server has used: per request, a figure the machine's other
# load inflates far less than latency (the cores are shared)
ch_cpu() { awk '{print $14 + $15}' "/proc/$(cat "$WORK/ch/clickhouse.pid")/stat"; }

# measure a settled store: the background merges a bulk load starts (tables and the views' by-ad tables) would
# otherwise share the cores with the requests; waits up to 10 minutes
settle() {
  local t0 i
  t0=$(now)
  for i in $(seq 1 600); do
    [ "$(ch "SELECT count() FROM system.merges")" = 0 ] && break
    sleep 1
  done
  echo "# background merges done after $(since "$t0")"
}
settle
echo "# ClickHouse through the API, 30 days, 10 ads, load:$(uptime | sed 's/.*load average://')"
code=$(curl -s -m 300 -o "$WORK/probe.json" -w '%{http_code}' -H "API-Key: $KEY" "$LAST_CLICK")
echo "last_click with the dev stack's per-query memory limit (1 GB, scripts/lib/servers.sh): HTTP $code"
if [ "$code" != 200 ]; then
  echo "  server log: $(grep -oE '(Code: [0-9]+|DB::Exception)[^"\\]{0,160}' "$WORK/server.log" | tail -1)"
fi
# reports need more than that at this scale: raise the limit of this bench's ClickHouse (users.xml is re-read live)
sed -i "s|<max_memory_usage>1073741824</max_memory_usage>|<max_memory_usage>${CH_QUERY_MEMORY:-8000000000}</max_memory_usage>|" "$WORK/ch/users.xml"
sleep 5
echo "# per-query memory limit now: $(ch "SELECT value FROM system.settings WHERE name = 'max_memory_usage'") bytes"
# the report lines of one server: reports BASE SUFFIX (SUFFIX labels the build when two are compared)
reports() {
  local base=$1 sfx=$2
  timed "$base/$REPORT" "last_click ad 30d (${MONTHS} months)$sfx"
  echo "  sample row: $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["result"]; print(json.dumps(r[0]) if r else "no rows")' "$WORK/probe.json")"
  [ "${SCIENTIFIC:-1}" = 1 ] && timed "$base/${REPORT/last_click/scientific}" "scientific ad 30d$sfx"
  timed "$base/attribution/roas?id=ad1&level=ad&startDate=$START_TS&endDate=$END_TS" "roas ad 30d$sfx"
  timed "$base/attribution/marginal-cac-curve?id=ad1&level=ad&startDate=$START_TS&endDate=$END_TS&cacCeiling=100" "marginal-cac-curve ad 30d$sfx"
}
if [ -n "${BEFORE_JAR:-}" ]; then
  # the other build on the same stores (its migrations are those already applied, or older)
  BEFORE_PORT=$(free_port)
  start_server "$BEFORE_JAR" "$BEFORE_PORT" "$WORK/server-before.log"
  BEFORE_PID=$STARTED_PID
  for round in $(seq 1 "${AB_REPORT_ROUNDS:-2}"); do
    echo "# round $round: before ($BEFORE_JAR), load:$(uptime | sed 's/.*load average://')"
    reports "http://127.0.0.1:$BEFORE_PORT/api/v1.0" " [before]"
    echo "# round $round: after ($JAR), load:$(uptime | sed 's/.*load average://')"
    reports "$BASE" " [after]"
  done
  kill "$BEFORE_PID" 2>/dev/null && wait "$BEFORE_PID" 2>/dev/null || true
else
  reports "$BASE" ""
fi

if [ "${PG:-1}" = 1 ]; then
echo "# the same last_click report on PostgreSQL (bench/reports/last-click-ad.sql), 3 runs"
pg_ms=$(for _ in 1 2 3; do
  t=$(now)
  "${PSQL[@]}" -v acc="$ACC" -v start="$START_TS" -v end="$END_TS" -v ids="$PG_IDS" -f "$ROOT/bench/reports/last-click-ad.sql" >/dev/null
  python3 -c "import sys; print(round((float(sys.argv[2]) - float(sys.argv[1])) * 1000))" "$t" "$(now)"
done | sort -n | sed -n 2p)
echo "postgresql last_click ad 30d        median=${pg_ms} ms"
echo "  same figures? postgresql ad1 (ad, sales, one-time, unique sales, unique customers, revenue cents): $("${PSQL[@]}" -v acc="$ACC" \
    -v start="$START_TS" -v end="$END_TS" -v ids="'ad1'" -f "$ROOT/bench/reports/last-click-ad.sql" | head -1)"
api_p50=$(curl -s -m 300 -o /dev/null -w '%{time_total}' -H "API-Key: $KEY" "$LAST_CLICK")
echo "  ratio postgresql / api (one more api request: $(python3 -c "print(round(float('$api_p50')*1000))") ms) = $(python3 -c "print(round($pg_ms / (float('$api_p50') * 1000), 1))")"

fi
if [ "${OLDER:-1}" = 1 ]; then
echo "# $MONTHS more months of older history (leads, clicks, sales) into ClickHouse"
t=$(now)
fill "$ROOT/bench/reports/data-ch.sql" "o" "$((T_END - SPAN))" | while IFS= read -r stmt; do ch "$stmt"; done
touches "startsWith(lead_id, 'ldo')"
credits "startsWith(lead_id, 'ldo')"
echo "load older history: $(since "$t") ($(ch "SELECT count() FROM attribution.clicks") clicks, $(ch "SELECT count() FROM attribution.conversion_touches") projection rows)"
settle
timed "$LAST_CLICK" "last_click ad 30d ($((2 * MONTHS)) months)"
# the two measurements above are minutes apart: the same report with and without the older months, in interleaved
# rounds on this instance (bench/history-ab.sh: the older partitions detached and attached again between rounds)
echo "# $((2 * MONTHS)) vs $MONTHS months in interleaved rounds (bench/history-ab.sh)"
"$ROOT/bench/history-ab.sh" "http://127.0.0.1:$CH_HTTP" "$LAST_CLICK" "$KEY" "$(date -u -d "@$((T_END - SPAN))" +%Y%m)" \
    "${AB_ROUNDS:-8}" "$REQUESTS" | grep -v '^round'
fi
echo "# load at end:$(uptime | sed 's/.*load average://')"
