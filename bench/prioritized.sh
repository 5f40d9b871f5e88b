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
# the threads of the other processes whose nice value is $1 (one pass over /proc: a sed per thread, every 2 s, took a
# core and a half while two test suites ran, ~1,000 threads)
threads_at() {
  python3 - "$1" <<'PY'
import os, sys
for pid in os.listdir('/proc'):
    try:
        if not pid.isdigit() or not any(n in open(f'/proc/{pid}/comm').read() for n in ('java', 'clickhouse', 'postgres', 'mvn')):
            continue
        for tid in os.listdir(f'/proc/{pid}/task'):
            stat = open(f'/proc/{pid}/task/{tid}/stat').read()
            # field 19 of stat is the nice value; the name before it may hold spaces, so count from the last ')'
            if stat[stat.rindex(')') + 2:].split()[16] == sys.argv[1]:
                print(tid)
    except OSError:
        continue
PY
}
# With autogroups (kernel.sched_autogroup_enabled=1) a nice value only weighs within its session: the sessions
# themselves share the CPU evenly. So the other processes' sessions are demoted too (/proc/PID/autogroup), and ours
# is raised.
OWN_GROUP=$(cut -d' ' -f1 /proc/$$/autogroup 2>/dev/null || true)
set_groups() {
  local p g
  for p in $(ps -eo pid=,comm= | awk '$2 ~ /java|clickhouse|postgres|mvn/ {print $1}'); do
    g=$(cut -d' ' -f1 "/proc/$p/autogroup" 2>/dev/null) || continue
    [ -n "$g" ] && [ "$g" != "$OWN_GROUP" ] && { echo "$1" > "/proc/$p/autogroup"; } 2>/dev/null || true
  done
}
demote() {
  local t; t=$(threads_at 0); [ -z "$t" ] || renice -n 19 -p $t >/dev/null 2>&1 || true
  set_groups 19
}
restore() {
  [ -n "${WATCHER:-}" ] && kill "$WATCHER" 2>/dev/null || true
  local t; t=$(threads_at 19); [ -z "$t" ] || renice -n 0 -p $t >/dev/null 2>&1 || true
  set_groups 0
  [ -w /proc/$$/autogroup ] && echo 0 > /proc/$$/autogroup 2>/dev/null || true
}
trap restore EXIT
[ -w /proc/$$/autogroup ] && echo -20 > /proc/$$/autogroup 2>/dev/null || true
demote
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg); $(threads_at 19 | wc -l) threads of other processes at nice 19"
( while sleep 2; do demote; done ) &
WATCHER=$!
nice -n -20 "$@"
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
