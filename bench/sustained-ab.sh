#!/usr/bin/env bash
# Sustained mixed load, before and after (issue 23 point 3; docs/BENCHMARKS.md): bench/run.sh's sustained phase alone
# (SUSTAINED_ONLY=1), once per server jar, one after the other in one run, each on a fresh PostgreSQL and ClickHouse.
#
#   mvn -B -q -o package -pl server -am -DskipTests            # the "after" jar; copy an older build's jar + lib/ for "before"
#   bench/sustained-ab.sh BEFORE_JAR AFTER_JAR [SECONDS] [RATE]  # defaults 300 s at 3,000 writes/s
#
# A jar is run from its own directory (its lib/ beside it). Per build: backlog every 10 s, acceptance p50/p99,
# drain time, created→applied p50/p99 and created→visible in ClickHouse p50/p99/max (bench/Probe.java).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SECS=${3:-300}
RATE=${4:-3000}
for jar in "$1" "$2"; do
  echo "## $jar (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  JAR=$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar") SUSTAINED_ONLY=1 SUSTAINED_SECONDS=$SECS SUSTAINED_RATE=$RATE "$ROOT/bench/run.sh"
done
