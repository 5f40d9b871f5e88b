#!/usr/bin/env bash
# Does the load tool (bench/Paced.java) hold its rate, so that a bench measures the server and not the client?
# (issue 23 point 3; docs/BENCHMARKS.md "The sender holds 3,000 writes/s").
#
#   bench/sender-check.sh [RATE] [SECONDS]     # defaults 3,000 writes/s for 20 s; JAR=… for another build
#
# On a private stack (bench/stack.sh), the sustained phase's mixed load (PACED_MIX=mixed) at RATE for SECONDS:
# 1. to a trivial endpoint: a path the server answers 404 at once (PACED_PATH), so the sender's own limits show;
# 2. to the real write routes, the workers applying beside the accepts as in the sustained phase of bench/run.sh.
# Each prints Paced's line: paced_seconds (≈ SECONDS when the rate was held), late_sends (sent > 10 ms after their
# due time), the connections it needed and its own CPU per write (sender_cpu_us_per_write: its whole JVM), and the
# writes the server accepted. The backlog left is not applied: everything is stopped at exit.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RATE=${1:-3000}
SECS=${2:-20}
JAR=${JAR:-$ROOT/server/target/attribution-server.jar}
[ -f "$JAR" ] || { echo "build first: mvn -B -q -o package -pl server -am -DskipTests" >&2; exit 1; }
source "$ROOT/bench/stack.sh"
load() { cut -d' ' -f1-3 /proc/loadavg; }
count() { "${PSQL[@]}" -c "SELECT count(*) FROM write_requests"; }

echo "# trivial endpoint (404): $RATE writes/s for ${SECS}s, load $(load)"
PACED_MIX=mixed PACED_PATH=/api/v1.0/paced-trivial PACED_MAX_CONNECTIONS=${PACED_MAX_CONNECTIONS:-2048} java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$RATE" "$SECS"
echo "# write routes: $RATE mixed writes/s for ${SECS}s, load $(load)"
n0=$(count)
PACED_MIX=mixed PACED_MAX_CONNECTIONS=${PACED_MAX_CONNECTIONS:-2048} java "$ROOT/bench/Paced.java" "http://127.0.0.1:$APP_PORT" "$BENCH_API_KEY" "$RATE" "$SECS"
echo "accepted=$(( $(count) - n0 )) of $((RATE * (SECS + 3))) sent (3 s of warm-up included) load=$(load)"
