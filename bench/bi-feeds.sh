#!/bin/bash
# Issue 24 point 4: what per-account BI users cost on ClickHouse 18.16 (docs/BENCHMARKS.md "Per-account BI users").
# Inserts 2 × 1,000,000 clicks of 100 accounts (blocks of 8,192 rows, the CDC sink's batch size) into $DB.clicks with
# 0, 1, 10 and 50 per-account feeds attached (the materialized views `scripts/admin bi grant` creates on 18.16), then
# prints the rows and bytes of the main table and of two accounts' copies.
# Needs a running 18.16 on native port $PORT with the project's DDL applied in database $DB (e.g. the test stack, or
# scripts/up); it creates databases bi_acc_1..bi_acc_50 and truncates nothing: run it on a throwaway server.
set -euo pipefail
PORT=${PORT:-9000}
DB=${DB:-attribution}
C="clickhouse-client --port $PORT"
ins() { $C --max_block_size=8192 --max_insert_block_size=8192 --time -q "INSERT INTO $DB.clicks (account_id, id, lead_id, click_date, tracked_url, is_organic, integration_type, adspend_ad_id, created_at, _version, is_deleted) SELECT concat('acc_', toString(number % 100)), concat('clk_', toString(number + $2)), concat('led_', toString(number % 50000)), toDateTime('2026-11-01 00:00:00') + number % 2592000, concat('https://x.test/p?n=', toString(number)), 0, 'FACEBOOK', concat('ad', toString(number % 300)), now(), number + $2, 0 FROM numbers($1)" 2>&1; }
for n in 0 1 10 50; do
  for k in $(seq 1 $n); do
    $C -q "CREATE DATABASE IF NOT EXISTS bi_acc_$k"
    $C -q "CREATE TABLE IF NOT EXISTS bi_acc_$k.clicks AS $DB.clicks"
    $C -q "CREATE MATERIALIZED VIEW IF NOT EXISTS bi_acc_$k.clicks_feed TO bi_acc_$k.clicks AS SELECT * FROM $DB.clicks WHERE account_id = 'acc_$k'"
  done
  t1=$(ins 1000000 $((n * 10000000)))
  t2=$(ins 1000000 $((n * 10000000 + 5000000)))
  echo "feeds=$n insert 1M rows (8192/block): ${t1}s ${t2}s"
done
$C -q "SELECT database, sum(rows), sum(data_compressed_bytes), sum(bytes_on_disk) FROM system.parts WHERE active AND table = 'clicks' AND database IN ('$DB', 'bi_acc_1', 'bi_acc_2') GROUP BY database FORMAT TSV"
