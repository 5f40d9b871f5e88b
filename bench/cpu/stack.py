"""CPU ticks of one bench stack by component (issue 23 point 3's CPU budget): the server JVM by thread group, its
PostgreSQL by process role (client backends, walsender = logical decoding for the CDC bridge, checkpointer,
walwriter, autovacuum …) and its ClickHouse server. Only this stack's processes: other instances on the machine
(another agent's tests) are not counted, as procs.py would.

  stack.py SERVER_PID PG_DATA CH_PID          → JSON {component: ticks} on stdout
  stack.py --diff T0 T1 WRITES               → microseconds per write and component between two snapshots, largest
                                               first, with subtotals server / postgres / clickhouse
"""
import json
import os
import re
import sys


def ticks(stat):
    fields = stat[stat.rindex(')') + 2:].split()
    return int(fields[11]) + int(fields[12])


def snapshot(server_pid, pg_data, ch_pid):
    out = {}

    def add(k, v):
        out[k] = out.get(k, 0) + v

    for t in os.listdir(f"/proc/{server_pid}/task"):
        try:
            comm = open(f"/proc/{server_pid}/task/{t}/comm").read().strip()
            add("server " + re.sub(r'[-#]?\d+$', '', comm), ticks(open(f"/proc/{server_pid}/task/{t}/stat").read()))
        except OSError:
            continue
    pm = int(open(os.path.join(pg_data, "postmaster.pid")).readline())
    for pid in [pm] + children(pm):
        try:
            title = open(f"/proc/{pid}/cmdline").read().replace("\0", " ").strip()
            add("postgres " + role(pid, pm, title), ticks(open(f"/proc/{pid}/stat").read()))
        except OSError:
            continue
    try:
        add("clickhouse server", ticks(open(f"/proc/{ch_pid}/stat").read()))
    except OSError:
        pass
    return out


def children(pid):
    out = []
    for p in os.listdir("/proc"):
        try:
            if p.isdigit() and int(open(f"/proc/{p}/stat").read().rsplit(')', 1)[1].split()[1]) == pid:
                out.append(int(p))
        except (OSError, IndexError, ValueError):
            continue
    return out


def role(pid, pm, title):
    if pid == pm:
        return "postmaster"
    words = title[len("postgres: "):].split() if title.startswith("postgres: ") else title.split()
    if "walsender" in words:
        return "walsender"
    if len(words) >= 3 and ("(" in words[2] or words[2][:1].isdigit() or words[2] == "[local]"):
        return "backend"
    return " ".join(w for w in words[:2] if not w.startswith("/"))


def diff(t0, t1, writes):
    a, b = json.load(open(t0)), json.load(open(t1))
    us = 1e6 / os.sysconf('SC_CLK_TCK') / writes
    d = {k: (v - a.get(k, 0)) * us for k, v in b.items() if v > a.get(k, 0)}
    sub = {}
    for k, v in d.items():
        sub[k.split()[0]] = sub.get(k.split()[0], 0) + v
    return ("total=%.0f " % sum(d.values()) + " ".join("%s=%.0f" % (k, v) for k, v in sorted(sub.items(), key=lambda x: -x[1]))
            + " | " + " ".join("[%s]=%.0f" % (k, v) for k, v in sorted(d.items(), key=lambda x: -x[1]) if v >= 1))


if __name__ == '__main__':
    if sys.argv[1] == '--diff':
        print(diff(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    else:
        print(json.dumps(snapshot(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]))))
