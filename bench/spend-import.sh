#!/usr/bin/env bash
# Spend import throughput: generates a spend file (default 1,000,000 rows), imports it into a fresh account of a
# private PostgreSQL (the test stack), then imports it again. Prints "BENCH ..." lines; results go in
# docs/BENCHMARKS.md. Usage: bench/spend-import.sh [ROWS]
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-1000000}
mvn -B -q -o verify -pl server -am -Dtest='SpendImportBench' -Dsurefire.failIfNoSpecifiedTests=false \
    -Dbench=true -Dbench.rows="$ROWS" 2>&1 | grep -E '^BENCH|ERROR|FAIL' || true
grep -h '^BENCH' server/target/surefire-reports/*SpendImportBench-output.txt 2>/dev/null || true
