"""CPU ticks per thread group of a JVM (threads named like io-executor-thread-3 are summed as io-executor-thread).

  threads.py PID                     → JSON {group: ticks} on stdout
  threads.py --diff T0 T1 WRITES     → microseconds per write and group between two snapshots, largest first
"""
import json
import os
import re
import sys


def snapshot(pid):
    out = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            comm = open(f"/proc/{pid}/task/{t}/comm").read().strip()
            stat = open(f"/proc/{pid}/task/{t}/stat").read()
        except OSError:
            continue
        fields = stat[stat.rindex(')') + 2:].split()
        group = re.sub(r'[-#]?\d+$', '', comm)
        out[group] = out.get(group, 0) + int(fields[11]) + int(fields[12])
    return out


def diff(t0, t1, writes):
    a, b = json.load(open(t0)), json.load(open(t1))
    us = 1e6 / os.sysconf('SC_CLK_TCK') / writes
    d = {k: (v - a.get(k, 0)) * us for k, v in b.items() if v > a.get(k, 0)}
    return "total=%.0f " % sum(d.values()) + " ".join("%s=%.0f" % (k, v) for k, v in sorted(d.items(), key=lambda x: -x[1])[:8])


if __name__ == '__main__':
    if sys.argv[1] == '--diff':
        print(diff(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    else:
        print(json.dumps(snapshot(sys.argv[1])))
