"""Statement variants timed on a kept report stack (issue 26 point 5; docs/BENCHMARKS.md "Reports at 1 M leads, quiet,
and where the clicks statement's time goes"): each variant of FILE run ROUNDS times in turn on one ClickHouse, then
its median duration and CPU (system.query_log), rows read and peak memory, and whether its result equals the first
variant's.

  KEEP=1 PG=0 OLDER=0 LEADS=1000000 bench/reports.sh        # prints "# kept: DIR (pg …, ch PORT, account ACC …)"
  python3 bench/reports/variants.py http://127.0.0.1:PORT ACC bench/reports/clicks-dedup.sql [ROUNDS]

FILE: "-- name" lines each start a variant; {acc} is replaced by the account id, {start} / {end} by the epoch
seconds of the report's 30 days (the bench's last 30 days: yesterday 00:00 UTC minus 30 days .. yesterday 23:59:59).
"""
import sys
import time
import urllib.request
import uuid

url, acc, path = sys.argv[1], sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 10
day = int(time.time()) // 86400 * 86400 - 86400
start, end = day - 30 * 86400, day - 1


def q(sql):
    return urllib.request.urlopen(urllib.request.Request(url + "/", data=sql.encode())).read().decode()


variants, name = {}, None
for line in open(path):
    if line.startswith("-- "):
        name = line[3:].strip()
        variants[name] = ""
    elif name:
        variants[name] += line.replace("{acc}", acc).replace("{start}", str(start)).replace("{end}", str(end))
results = {n: sorted(q(s.strip() + " FORMAT TSV").splitlines()) for n, s in variants.items()}
tags = {n: [] for n in variants}
for r in range(rounds):
    for n, s in variants.items():
        tag = f"variant_{uuid.uuid4().hex[:12]}"
        q(f"/* {tag} */ " + s.strip() + " FORMAT TSV")
        tags[n].append(tag)
time.sleep(8)  # query_log is flushed every 7.5 s
first = results[next(iter(variants))]
cpu = ("ProfileEvents.Values[indexOf(ProfileEvents.Names, 'UserTimeMicroseconds')]"
       " + ProfileEvents.Values[indexOf(ProfileEvents.Names, 'SystemTimeMicroseconds')]")
print("variant | duration p50 ms | cpu p50 ms | rows read | peak MB | same result as the first")
for n in variants:
    like = " OR ".join(f"query LIKE '/* {t} */%'" for t in tags[n])
    row = q(f"SELECT round(quantileExact(0.5)(query_duration_ms)), round(quantileExact(0.5)({cpu}) / 1000), any(read_rows), "
            f"round(max(memory_usage) / 1e6) FROM system.query_log WHERE type = 2 AND ({like}) FORMAT TSV").split()
    print(f"{n} | {' | '.join(row)} | {results[n] == first}")
