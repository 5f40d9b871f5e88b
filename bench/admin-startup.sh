#!/usr/bin/env bash
# Start-up time of one-shot admin commands (docs/BENCHMARKS.md "Admin CLI start-up"), before vs after, interleaved.
#   BEFORE_JAR=/path/to/old/attribution-server.jar (with its lib/ beside it) RUNS=5 bench/admin-startup.sh
# Needs a migrated PostgreSQL at POSTGRES_URL (e.g. servers.sh pg-start DIR PORT, then one scripts/admin command).
# "before" runs the old jar the way the old scripts/admin ran it (no archive); "after" runs this checkout's jar the way
# scripts/admin runs it now, with the class-data-sharing archive $DATA/admin.jsa (make it first: one scripts/admin
# command, then wait until $DATA/admin.jsa.lock is gone). Prints milliseconds per command and the load average.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib/env.sh"
: "${BEFORE_JAR:?BEFORE_JAR=path of the old jar}"
[ -f "$DATA/admin.jsa" ] && [ "$DATA/admin.jsa" -nt "$JAR" ] || { echo "no fresh $DATA/admin.jsa: run one scripts/admin command first" >&2; exit 1; }
common=(-Xmx1g -XX:TieredStopAtLevel=1 -DLOG_TARGET=System.err -DLOG_LEVEL=WARN -DFLYWAY_MIGRATE_LOG_LEVEL=ERROR -DMETER_REGISTRY_LOG_LEVEL=ERROR)
before=(java "${common[@]}" -jar "$BEFORE_JAR" admin)
after=(java "${common[@]}" -Xlog:disable -Xlog:all=error:stderr -Dattribution.admin.progress=false -XX:SharedArchiveFile="$DATA/admin.jsa" -jar "$JAR" admin)
ms() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000000 )); }
for i in $(seq 1 "${RUNS:-5}"); do
  echo "run $i load $(cut -d' ' -f1 /proc/loadavg)" \
    "create before $(ms "${before[@]}" account create --name b --time-zone UTC) after $(ms "${after[@]}" account create --name a --time-zone UTC)" \
    "| create --help before $(ms "${before[@]}" account create --help) after $(ms "${after[@]}" account create --help)" \
    "| --help before $(ms "${before[@]}" --help) after $(ms "${after[@]}" --help)"
done
