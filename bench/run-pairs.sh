#!/usr/bin/env bash
# Two builds through bench/run.sh in alternated pairs, and their figures side by side with medians (issue 25's "not
# worse than before": docs/BENCHMARKS.md "Writes before/after issue 25: eight alternated pairs").
#
#   bench/run-pairs.sh BEFORE_JAR AFTER_JAR [PAIRS] [RUN_ARGS…]   # default 8 pairs of `bench/run.sh 10 50 500`
#   LOGS=DIR bench/run-pairs.sh …                                 # keep the logs in DIR (default: a temporary one)
#   bench/run-pairs.sh --table DIR                                # only the table, from the logs of an earlier run
#
# The after build runs first in every even pair, so neither build always meets the machine as the other left it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --table ]; then
  exec python3 "$ROOT/bench/run_pairs_table.py" "$2"
fi
BEFORE=$1; AFTER=$2; PAIRS=${3:-8}; shift 2; [ $# -gt 0 ] && shift
ARGS=("$@"); [ ${#ARGS[@]} -eq 0 ] && ARGS=(10 50 500)
LOGS=${LOGS:-$(mktemp -d /tmp/run-pairs.XXXXXX)}
mkdir -p "$LOGS"
for i in $(seq 1 "$PAIRS"); do
  order=(before after); [ $((i % 2)) = 0 ] && order=(after before)
  for side in "${order[@]}"; do
    jar=$([ "$side" = before ] && echo "$BEFORE" || echo "$AFTER")
    echo "# pair $i $side $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    JAR=$jar timeout 900 "$ROOT/bench/run.sh" "${ARGS[@]}" > "$LOGS/pair$i-$side.log" 2>&1 || echo "# pair $i $side failed (see $LOGS/pair$i-$side.log)"
  done
done
echo "# logs: $LOGS"
python3 "$ROOT/bench/run_pairs_table.py" "$LOGS"
