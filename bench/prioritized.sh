#!/usr/bin/env bash
# Runs a benchmark command ahead of everything else on a shared machine: every thread of the other Java, ClickHouse,
# PostgreSQL and Maven processes (and their sessions' autogroups, below) is reniced to 19 for the duration — those running now, and, checked every 2 s, those
# started meanwhile (any such thread still at nice 0: the benchmark's own run at -20) — the command runs at nice -20,
# and the others are set back to 0 afterwards. Needs root. The figures it gives are those of a machine whose other
# work only runs on what the benchmark leaves idle — say so beside them.
#
#   bench/prioritized.sh bench/run.sh 10 50 500
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: bench/prioritized.sh COMMAND [ARGS…]" >&2; exit 2; }
# With autogroups (kernel.sched_autogroup_enabled=1) a nice value only weighs within its session: the sessions
# themselves share the CPU evenly. So the other processes' sessions are demoted too (/proc/PID/autogroup), and ours
# is raised.
OWN_GROUP=$(cut -d' ' -f1 /proc/$$/autogroup 2>/dev/null || true)
# others ACTION, one pass over /proc for the Java, ClickHouse, PostgreSQL and Maven processes:
#   demote: the other processes' threads at nice 0 to 19 and their sessions' autogroups to 19; the benchmark's own
#           servers (main thread at -20) get autogroup -20: PostgreSQL and ClickHouse start sessions of their own
#           (setsid), so they are not in ours, and before 2026-11-25 13:50 they were demoted with the others;
#   restore: the others back to 0; count: the others' threads at 19.
# A few processes per pass: a sed per thread and a cut per process, every 2 s, took 45 % to 150 % of a core while
# test suites ran (and python3 takes 0.7 s of CPU to start here).
others() {
  local action=$1 p files=() rows own="" n g tids
  for p in $(ps -eo pid=,comm= | awk '$2 ~ /java|clickhouse|postgres|mvn/ {print $1}'); do files+=(/proc/"$p"/task/*/stat); done
  [ ${#files[@]} -gt 0 ] || { [ "$action" != count ] || echo 0; return 0; }
  # "PID TID NICE" per thread; field 19 of stat counted from the last ')' (the thread name may hold spaces)
  rows=$(grep -sH '' "${files[@]}" | awk '{ split($0, path, "/"); s = $0; sub(/.*\) /, "", s); split(s, f, " "); print path[3], path[5], f[17] }')
  own=" $(awk '$1 == $2 && $3 == -20 {printf "%s ", $1}' <<<"$rows")"
  case $action in
    count) awk -v own="$own" 'index(own, " " $1 " ") == 0 && $3 == 19' <<<"$rows" | wc -l; return 0 ;;
    demote) tids=$(awk -v own="$own" 'index(own, " " $1 " ") == 0 && $3 == 0 {print $2}' <<<"$rows"); n=19 ;;
    restore) tids=$(awk -v own="$own" 'index(own, " " $1 " ") == 0 && $3 == 19 {print $2}' <<<"$rows"); n=0 ;;
  esac
  [ -z "$tids" ] || renice -n "$n" -p $tids >/dev/null 2>&1 || true
  for p in $(awk '{print $1}' <<<"$rows" | sort -u); do
    { read -r g _ _ < "/proc/$p/autogroup"; } 2>/dev/null || continue
    if [[ "$own" == *" $p "* ]]; then
      [ "$action" = demote ] && { echo -20 > "/proc/$p/autogroup"; } 2>/dev/null
    elif [ "$g" != "$OWN_GROUP" ]; then
      { echo "$n" > "/proc/$p/autogroup"; } 2>/dev/null
    fi
  done
  return 0
}
restore() {
  [ -n "${WATCHER:-}" ] && kill "$WATCHER" 2>/dev/null || true
  others restore || true
  [ -w /proc/$$/autogroup ] && echo 0 > /proc/$$/autogroup 2>/dev/null || true
}
trap restore EXIT
[ -w /proc/$$/autogroup ] && echo -20 > /proc/$$/autogroup 2>/dev/null || true
others demote
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg); $(others count) threads of other processes at nice 19"
( while sleep 2; do others demote || true; done ) &
WATCHER=$!
nice -n -20 "$@"
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
