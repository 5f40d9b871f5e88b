#!/usr/bin/env bash
# More randomized data sets for ApiWrittenAttributionTest (issue 20 point 4): accounts written only through the API,
# every number of GET /attribution and GET /attribution/ad-account against the plain-Java oracle. CI runs 10 sets
# (seeds 1..10); this runs N sets from seed K. Starts its own PostgreSQL and ClickHouse (as the tests do).
#   bench/api-oracle.sh [sets, default 100] [first seed, default 1]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -o verify -pl server -am -Dtest=ApiWrittenAttributionTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dapi.oracle.sets="${1:-100}" -Dapi.oracle.firstSeed="${2:-1}" 2>&1 \
  | grep -E 'ApiWrittenAttributionTest: |mismatches|^seed |read back|Tests run:|BUILD' | cut -c1-2000
