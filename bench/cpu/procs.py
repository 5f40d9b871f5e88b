"""CPU of every process on the machine, grouped, between two snapshots: where the cores went during a window.

  procs.py snapshot FILE            → writes {group: ticks} and the time to FILE
  procs.py diff FILE0 FILE1         → cores used per group over the window (1.00 = one core busy), largest first

Groups: the process name, with PostgreSQL backends split by role from their title (walsender, checkpointer,
walwriter, autovacuum, client backend …) and JVMs by their main class or jar.
"""
import json
import os
import sys
import time


def group(pid):
    comm = open(f"/proc/{pid}/comm").read().strip()
    if comm in ("postgres", "postmaster"):
        title = open(f"/proc/{pid}/cmdline").read().replace("\0", " ").strip()
        if title.startswith("postgres: "):
            words = title[len("postgres: "):].split()
            if "walsender" in words:
                return "postgres walsender"
            if len(words) >= 3 and ("(" in words[2] or words[2][:1].isdigit()):   # user db host(port) STATE
                return "postgres backend"
            return "postgres " + " ".join(w for w in words[:2] if not w.startswith("/"))
        return "postgres postmaster"
    if comm == "java":
        args = open(f"/proc/{pid}/cmdline").read().split("\0")
        for a in args:
            if a.endswith(".jar") or a.endswith(".java"):
                return "java " + os.path.basename(a)
        return "java " + next((a for a in args[1:] if a and not a.startswith("-")), "?")
    return comm


def snapshot():
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = open(f"/proc/{pid}/stat").read()
            g = group(pid)
        except OSError:
            continue
        fields = stat[stat.rindex(')') + 2:].split()
        out[g] = out.get(g, 0) + int(fields[11]) + int(fields[12])
    return out


if __name__ == '__main__':
    if sys.argv[1] == 'snapshot':
        json.dump({"t": time.time(), "ticks": snapshot()}, open(sys.argv[2], "w"))
    else:
        a, b = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
        secs = (b["t"] - a["t"]) * os.sysconf('SC_CLK_TCK')
        d = {k: (v - a["ticks"].get(k, 0)) / secs for k, v in b["ticks"].items() if v > a["ticks"].get(k, 0)}
        print("cores total=%.2f " % sum(d.values())
              + " ".join("[%s]=%.2f" % (k, v) for k, v in sorted(d.items(), key=lambda x: -x[1]) if v >= 0.01))
