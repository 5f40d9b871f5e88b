"""Bytes allocated and young-GC pauses in a window, from `jstat -gc PID 100` output (one line every 100 ms).

  alloc.py JSTAT_OUTPUT WRITES  → alloc_kb_per_write, young GCs, their pause time per write

Allocation is the growth of eden between samples; across a young GC, eden is taken as full when it ran (what
triggers a G1 young collection), so the figure is approximate (±1 eden per GC at worst, averaged over many GCs).
"""
import sys

rows = []
cols = None
for line in open(sys.argv[1]):
    parts = line.split()
    if not parts:
        continue
    if parts[0] == 'S0C':
        cols = parts
        continue
    if cols and len(parts) == len(cols):
        rows.append(dict(zip(cols, map(float, parts))))
writes = int(sys.argv[2])
alloc_kb = 0.0
for a, b in zip(rows, rows[1:]):
    if b['YGC'] == a['YGC']:
        alloc_kb += max(0.0, b['EU'] - a['EU'])
    else:
        alloc_kb += max(0.0, a['EC'] - a['EU']) + b['EU']
ygc = rows[-1]['YGC'] - rows[0]['YGC']
ygct_ms = (rows[-1]['YGCT'] - rows[0]['YGCT']) * 1000
print("alloc_kb_per_write=%.1f young_gcs=%d young_gc_ms=%.0f young_gc_us_per_write=%.1f"
      % (alloc_kb / writes, ygc, ygct_ms, ygct_ms * 1000 / writes))
