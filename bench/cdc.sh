#!/usr/bin/env bash
# CDC benchmark: end-to-end lag at a sustained rate, burst throughput (bridge vs the same engine only counting),
# resync throughput. Starts its own PostgreSQL and ClickHouse (as the tests do). Results: docs/BENCHMARKS.md.
#   bench/cdc.sh [rate rows/s, default 2000] [seconds, default 60] [burst rows, default 200000]
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:--1} mvn -B -q -o verify -pl server -am -Dtest=CdcBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
  -Dbench=true -Dbench.rate="${1:-2000}" -Dbench.seconds="${2:-60}" -Dbench.burst="${3:-200000}" 2>&1 \
  | sed -n '/==== CDC benchmark/,$p' | grep -v '^\s*at \|^[0-9][0-9]:'
