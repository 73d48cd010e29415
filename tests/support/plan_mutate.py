#!/usr/bin/env python3
"""tests/support/plan_mutate.py — hand-edits a per-CPU partition plan the way
a user might (move a task, raise a wcet, halve a period, tie or swap
priorities, duplicate a task, name a bad CPU or priority, move a task to
`unassigned`) and says what `rtpack emit` must answer, from the exact
re-check in plan_check.py.

usage: plan_mutate.py PLAN SEED OUT  -> prints "KIND EXPECT" with EXPECT one of
ok (exit 0), infeasible (exit 1), malformed (exit 2), any (exit 0..2); or "skip"."""
import copy
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = open(os.path.join(HERE, "plan_check.py")).read().replace("\nmain()\n", "\n")
CHECK = {}
exec(compile(SRC, "plan_check.py", "exec"), CHECK)

plan = json.load(open(sys.argv[1]))
rng = random.Random(int(sys.argv[2]))
fp = plan["policy"] == "fp"
bins = plan.get("cpus", [])
nonempty = [b for b in bins if b["tasks"]]
if "clusters" in plan or not nonempty:
    print("skip")
    sys.exit()


def sched(b):
    ts = [(t["wcet"], t["deadline"], t["period"]) for t in b["tasks"]]
    if not fp:
        return CHECK["edf_ok"](ts)
    for t in b["tasks"]:
        hp = [(x["wcet"], x["deadline"], x["period"]) for x in b["tasks"]
              if x is not t and x["priority"] >= t["priority"]]
        if CHECK["fp_wcrt"]((t["wcet"], t["deadline"], t["period"]), hp) is None:
            return False
    return True


def renumber(b):
    if fp:
        ps = sorted(set(t["priority"] for t in b["tasks"]))
        for t in b["tasks"]:
            t["priority"] = ps.index(t["priority"]) + 1


def verdict():
    return "ok" if all(sched(x) for x in bins) else "infeasible"


kind = rng.choice(["move", "wcet", "period", "tie", "swap", "dup", "badcpu", "prio",
                   "unassigned"])
b = rng.choice(nonempty)
t = rng.choice(b["tasks"])
others = [x for x in b["tasks"] if x is not t]
expect = None
if kind == "move" and len(bins) > 1:
    d = rng.choice([x for x in bins if x is not b])
    b["tasks"].remove(t)
    d["tasks"].append(t)
    if fp:
        t["priority"] = max([x["priority"] for x in d["tasks"] if x is not t] + [0]) + 1
    renumber(b)
    renumber(d)
    expect = "malformed" if d["cpu"] not in t.get("affinity", [d["cpu"]]) else verdict()
elif kind == "wcet":
    t["wcet"] = min(t["deadline"], t["period"], t["wcet"] * rng.choice([2, 3, 5]))
    expect = verdict()
elif kind == "period":
    t["period"] = max(t["wcet"], t["period"] // 2)
    t["deadline"] = min(t["deadline"], t["period"])
    expect = verdict()
elif kind == "tie" and fp and others:
    rng.choice(others)["priority"] = t["priority"]
    renumber(b)
    expect = verdict()
elif kind == "swap" and fp and others:
    u = rng.choice(others)
    t["priority"], u["priority"] = u["priority"], t["priority"]
    expect = verdict()
elif kind == "dup":
    b["tasks"].append(copy.deepcopy(t))
    expect = "malformed"
elif kind == "badcpu":
    b["cpu"] = 4000
    expect = "malformed"
elif kind == "prio" and fp:
    t["priority"] = rng.choice([0, -1, len(b["tasks"]) + 1])
    expect = "malformed"
elif kind == "unassigned":
    b["tasks"].remove(t)
    renumber(b)
    t.pop("priority", None)
    t.pop("response_time", None)
    plan["unassigned"].append(t)
    plan["feasible"] = False
    expect = "infeasible"
if expect is None:
    print("skip")
    sys.exit()
json.dump(plan, open(sys.argv[3], "w"), indent=1)
print(kind, expect)
