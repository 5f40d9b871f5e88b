#!/usr/bin/env bash
# Runs a benchmark command ahead of everything else on a shared machine: every thread of the other Java, ClickHouse,
# PostgreSQL and Maven processes running now is reniced to 19 for the duration (threads they start meanwhile inherit
# it), the command runs at nice -20, and the others are set back to 0 afterwards. Needs root. The figures it gives are
# those of a machine whose other work only runs on what the benchmark leaves idle — say so beside them.
#
#   bench/prioritized.sh bench/run.sh 10 50 500
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: bench/prioritized.sh COMMAND [ARGS…]" >&2; exit 2; }
pids=$(ps -eo pid=,comm= | awk '$2 ~ /java|clickhouse|postgres|mvn/ {print $1}')
others=$(for p in $pids; do ls "/proc/$p/task" 2>/dev/null || true; done)
restore() { [ -z "$others" ] || renice -n 0 -p $others >/dev/null 2>&1 || true; }
trap restore EXIT
[ -z "$others" ] || renice -n 19 -p $others >/dev/null 2>&1 || true
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg); $(echo $others | wc -w) threads of other processes at nice 19"
nice -n -20 "$@"
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
