"""rtpack from Python: exact schedulability analysis and partitioning of
real-time task sets, over librtpack.so's public C API (cffi, ABI mode).

Exact values stay exact: times are int nanoseconds, ratios (capacity, the
critical scaling factor) fractions.Fraction. Results are the documents
`rtpack analyze --json`, `rtpack partition --json` and `rtpack simulate --json`
print, as Python dicts (the same library calls make them), with convenience
attributes. Errors are exceptions carrying the JSON path and the CLI's
exit-code class.

Threads: every call works on its own C objects and the library has no
global mutable state, so Python threads may analyse at once; cffi releases
the GIL around each C call, so they run in parallel. A TaskSet is immutable
once built and may be shared between threads."""
import json
import re
from fractions import Fraction

from ._capi import ffi, lib, libc

__all__ = ["Task", "TaskSet", "Analysis", "Plan", "RtpackError", "InputError", "LimitError",
           "analyze", "sensitivity", "partition", "gen", "Sweep", "emit", "Simulation",
           "simulate"]

_POLICIES = {"edf": lib.RTP_POLICY_EDF, "fp": lib.RTP_POLICY_FP, "gedf": lib.RTP_POLICY_GEDF,
             "gfp": lib.RTP_POLICY_GFP}
_PRIORITIES = {"opa": lib.RTP_PRIO_OPA, "dm": lib.RTP_PRIO_DM, "rm": lib.RTP_PRIO_RM,
               "given": lib.RTP_PRIO_GIVEN}
_PLACEMENTS = {"ff": lib.RTP_PLACE_FF, "bf": lib.RTP_PLACE_BF, "wf": lib.RTP_PLACE_WF,
               "nf": lib.RTP_PLACE_NF}
_ORDERS = {"util": lib.RTP_ORDER_UTIL, "density": lib.RTP_ORDER_DENSITY,
           "deadline": lib.RTP_ORDER_DEADLINE, "period": lib.RTP_ORDER_PERIOD,
           "input": lib.RTP_ORDER_INPUT}
# --method: one placement in decreasing-utilization order, or every one.
_METHODS = {"ffd": "ff", "bfd": "bf", "wfd": "wf", "nfd": "nf", "best": None}


class RtpackError(Exception):
    """A failed call. `status` is "input", "limit", "nomem" or "internal";
    `exit_code` the CLI's for it (2 bad input, 3 resource limit or
    internal); `path` the JSON path of the offending member ("" when none),
    `line`/`column` where a JSON text stops parsing (0 when not that)."""

    def __init__(self, status, exit_code, message, path="", line=0, column=0):
        super().__init__(f"{path}: {message}" if path else message)
        self.status, self.exit_code, self.message = status, exit_code, message
        self.path, self.line, self.column = path, line, column


class InputError(RtpackError, ValueError):
    """Bad input (the CLI's exit 2)."""


class LimitError(RtpackError):
    """A resource limit, out of memory or an internal failure (exit 3)."""


_STATUS = {lib.RTP_EINPUT: ("input", InputError), lib.RTP_ELIMIT: ("limit", LimitError),
           lib.RTP_ENOMEM: ("nomem", LimitError), lib.RTP_EINTERNAL: ("internal", LimitError)}


def _check(status, diag):
    if status == lib.RTP_OK:
        return
    name, cls = _STATUS.get(status, ("internal", LimitError))
    raise cls(name, lib.rtp_status_exit_code(status), ffi.string(diag.message).decode(),
              ffi.string(diag.path).decode(), diag.line, diag.column)


def _diag():
    d = ffi.new("rtp_diag *")
    lib.rtp_diag_clear(d)
    return d


def _take_text(ptr):
    """A malloc'd C string as str; frees it. NULL is out of memory."""
    if ptr == ffi.NULL:
        raise LimitError("nomem", 3, "out of memory")
    try:
        return ffi.string(ptr).decode()
    finally:
        libc.free(ptr)


_NS = re.compile(r"^([0-9]+)ns$")
# Members whose strings are times ("<n>ns" past 2^53) or exact ratios ("p/q").
_TIME_KEYS = {"wcet", "deadline", "period", "jitter", "blocking", "response_time", "first_miss",
              "wcet_max", "release_latency", "context_switch", "deadline_charge",
              "noise_per_ms", "bound", "slack", "computed_blocking", "spin", "until",
              "response_max"}
_RATIO_KEYS = {"critical_scaling_factor_exact"}


def _exact_members(pairs):
    """json.loads' object hook: times as int ns, "p/q" as Fraction."""
    d = {}
    for k, v in pairs:
        if v.__class__ is str:
            if k in _TIME_KEYS:
                m = _NS.match(v)
                if m:
                    v = int(m.group(1))
            elif k in _RATIO_KEYS:
                v = Fraction(v)
        d[k] = v
    return d


def _document(text):
    """A document with exact values: times as int ns, "p/q" as Fraction."""
    return json.loads(text, object_pairs_hook=_exact_members)


class Task:
    """One task; times in int nanoseconds (deadline defaults to period)."""

    __slots__ = ("name", "wcet", "period", "deadline", "jitter", "blocking", "priority",
                 "affinity")

    def __init__(self, name, wcet, period, deadline=None, jitter=0, blocking=0, priority=None,
                 affinity=None):
        self.name, self.wcet, self.period = name, wcet, period
        self.deadline = period if deadline is None else deadline
        self.jitter, self.blocking, self.priority = jitter, blocking, priority
        self.affinity = None if affinity is None else list(affinity)

    def _json(self):
        d = {"name": self.name}
        for k in ("wcet", "deadline", "period", "jitter", "blocking"):
            v = getattr(self, k)
            if not isinstance(v, int) or isinstance(v, bool):
                raise InputError("input", 2, f"{k} must be an int number of ns, not {v!r}")
            if k in ("wcet", "deadline", "period") or v:
                d[k] = f"{v}ns"
        if self.priority is not None:
            d["priority"] = self.priority
        if self.affinity is not None:
            d["affinity"] = self.affinity
        return d

    def __repr__(self):
        return (f"Task({self.name!r}, wcet={self.wcet}, period={self.period}, "
                f"deadline={self.deadline})")


class TaskSet:
    """A task set, held by the C library (parsed with its strict reader, so
    a set built in Python gets exactly the checks a JSON file gets).
    TaskSet(tasks, cpus=None) builds one (cpus: a count or a list of Linux
    CPU ids); TaskSet.from_json(text) and TaskSet.load(path) read one."""

    def __init__(self, tasks=(), cpus=None, _text=None, _ts=None):
        if _ts is not None:
            self._ts = _ts
            return
        if _text is None:
            doc = {"tasks": [t._json() for t in tasks]}
            if cpus is not None:
                doc["platform"] = {"cpus": cpus}
            _text = json.dumps(doc)
        raw = _text.encode() if isinstance(_text, str) else bytes(_text)
        ts = ffi.new("rtp_taskset *")
        diag = _diag()
        _check(lib.rtp_taskset_parse_json(raw, len(raw), ts, diag), diag)
        self._ts = ffi.gc(ts, lib.rtp_taskset_free)

    @classmethod
    def from_json(cls, text):
        return cls(_text=text)

    @classmethod
    def load(cls, path):
        with open(path, "rb") as f:
            return cls(_text=f.read())

    @property
    def tasks(self):
        out = []
        for i in range(self._ts.n_tasks):
            t = self._ts.tasks[i]
            aff = [t.affinity[k] for k in range(t.affinity_len)] if t.affinity != ffi.NULL \
                else None
            out.append(Task(ffi.string(t.name).decode(), t.wcet_ns, t.period_ns, t.deadline_ns,
                            t.jitter_ns, t.blocking_ns, t.priority if t.has_priority else None,
                            aff))
        return out

    def __len__(self):
        return self._ts.n_tasks

    def to_json(self, pretty=False):
        """The set as a task-set document (times in ns), as the C writer makes it."""
        return _take_text(lib.rtp_taskset_to_json(self._ts, 1 if pretty else 0))


def _limits(max_iterations):
    lim = lib.rtp_limits_default()
    if max_iterations is not None:
        if max_iterations < 1:
            raise InputError("input", 2, "max_iterations must be at least 1")
        lim.max_iterations = max_iterations
    return lim


def _choice(table, value, what):
    try:
        return table[value]
    except KeyError:
        raise InputError("input", 2, f"unknown {what} {value!r} (one of "
                         f"{', '.join(sorted(table))})") from None


class Analysis:
    """`rtpack analyze --json`'s document (`document`, exact values) and its
    verdict; tasks are dicts with int-ns times ("response_time" None when it
    exceeds the deadline), critical_scaling_factor a Fraction (sensitivity)."""

    def __init__(self, document):
        self.document = document
        self.schedulable = document["schedulable"]
        self.tasks = document["tasks"]
        self.critical_scaling_factor = document.get("critical_scaling_factor_exact")
        self.first_miss = document.get("first_miss")

    def __repr__(self):
        return f"Analysis(schedulable={self.schedulable}, tasks={len(self.tasks)})"


def analyze(ts, policy="edf", priority=None, cpus=None, sensitivity=False,
            max_iterations=None):
    """rtpack analyze FILE --policy POLICY [--priority P] [--cpus M]
    [--sensitivity]: the exact test on one CPU (edf, fp) or the global tests
    on one cluster (gedf, gfp)."""
    pol = _choice(_POLICIES, policy, "policy")
    opts = ffi.new("rtp_analyze_opts *", lib.rtp_analyze_opts_default(pol))
    if priority is not None:
        opts.priority = _choice(_PRIORITIES, priority, "priority")
    if cpus is not None:
        if pol in (lib.RTP_POLICY_EDF, lib.RTP_POLICY_FP) and cpus > 1:
            raise InputError("input", 2, f"cpus={cpus} under policy {policy} would still "
                             "analyse one CPU: use gedf or gfp, or partition")
        opts.cpus_override = cpus
    opts.limits = _limits(max_iterations)
    opts.sensitivity = 1 if sensitivity else 0
    a = ffi.new("rtp_analysis *")
    diag = _diag()
    try:
        _check(lib.rtp_analyze(ts._ts, opts, a, diag), diag)
        text = _take_text(lib.rtp_analysis_doc_to_json(ffi.addressof(a, "doc"), 0))
    finally:
        lib.rtp_analysis_free(a)
    return Analysis(_document(text))


def sensitivity(ts, policy="edf", **kw):
    """analyze(..., sensitivity=True): per task wcet_max (int ns, None when
    no wcet keeps the set schedulable) and the critical scaling factor."""
    return analyze(ts, policy, sensitivity=True, **kw)


class Plan:
    """`rtpack partition --json`'s plan document (`document`, exact values):
    feasible, per CPU its tasks; `to_json()` is the text `rtpack emit` reads."""

    def __init__(self, document, text):
        self.document, self._text = document, text
        self.feasible = document["feasible"]
        self.cpus = document.get("cpus", [])
        self.unassigned = [t["name"] for t in document.get("unassigned", [])]

    def to_json(self):
        return self._text

    def __repr__(self):
        return f"Plan(feasible={self.feasible}, cpus={len(self.cpus)})"


def partition(ts, policy="edf", method="best", cpus=None, priority=None, capacity=None,
              sensitivity=False, max_iterations=None):
    """rtpack partition FILE --policy POLICY --method METHOD [--cpus M]
    [--priority P] [--capacity C] [--sensitivity] onto single CPUs (methods
    ffd, bfd, wfd, nfd, best; capacity a Fraction/int/str like "9/10")."""
    opts = ffi.new("rtp_part_opts *", lib.rtp_part_opts_default())
    opts.policy = _choice({"edf": lib.RTP_POLICY_EDF, "fp": lib.RTP_POLICY_FP}, policy,
                          "policy")
    place = _choice(_METHODS, method, "method")
    if priority is not None:
        opts.priority = _choice(_PRIORITIES, priority, "priority")
    if capacity is not None:
        c = Fraction(capacity)
        if c <= 0 or c > 1:
            raise InputError("input", 2, f"capacity must be in (0, 1], not {c}")
        opts.capacity.num, opts.capacity.den = c.numerator, c.denominator
    opts.limits = _limits(max_iterations)
    diag = _diag()
    ids, n_ids = ffi.new("int **"), ffi.new("size_t *")
    _check(lib.rtp_taskset_cpu_ids(ts._ts, cpus or 0, ids, n_ids, diag), diag)
    ids_owned = ffi.gc(ids[0], libc.free)
    plan = ffi.new("rtp_plan *")
    try:
        if place is None:
            st = lib.rtp_part_best(ts._ts, ids_owned, n_ids[0], opts, plan, diag)
        else:
            opts.placement = _PLACEMENTS[place]
            st = lib.rtp_part_pack(ts._ts, ids_owned, n_ids[0], opts, plan, diag)
        _check(st, diag)
        if sensitivity:
            _check(lib.rtp_part_sensitivity(plan, opts, diag), diag)
        # Whether emit, with its defaults, would take the plan ("deployable").
        deploy = ffi.new("rtp_deploy_opts *", lib.rtp_deploy_opts_default())
        deploy.limits = opts.limits
        _check(lib.rtp_deploy_judge(plan, deploy, diag), diag)
        text = _take_text(lib.rtp_plan_to_json(plan, 1))
    finally:
        lib.rtp_plan_free(plan)
    return Plan(_document(text), text)


def _ratio(value, what):
    r = Fraction(value)
    if r <= 0:
        raise InputError("input", 2, f"{what} must be positive, not {r}")
    return r.numerator, r.denominator


def gen(n_tasks, utilization, seed=1, point=0, index=0, generator="uunifast-discard",
        periods=(1_000_000, 1_000_000_000), deadlines="implicit", max_task_util=None):
    """rtpack gen --tasks N --utilization U --seed S [...]: the random set of
    (seed, point, index), the same bytes as the CLI and `rtpack explore`
    (utilization and max_task_util exact: Fraction, int or decimal str;
    periods in int ns)."""
    opts = ffi.new("rtp_gen_opts *", lib.rtp_gen_opts_default())
    opts.n_tasks = n_tasks
    opts.total_util.num, opts.total_util.den = _ratio(utilization, "utilization")
    if max_task_util is not None:
        opts.max_task_util.num, opts.max_task_util.den = _ratio(max_task_util, "max_task_util")
    opts.algo = _choice({"uunifast-discard": lib.RTP_GEN_UUNIFAST_DISCARD,
                         "randfixedsum": lib.RTP_GEN_RANDFIXEDSUM}, generator, "generator")
    opts.deadlines = _choice({"implicit": lib.RTP_DL_IMPLICIT,
                              "constrained": lib.RTP_DL_CONSTRAINED,
                              "arbitrary": lib.RTP_DL_ARBITRARY}, deadlines, "deadlines")
    opts.period_min_ns, opts.period_max_ns = periods
    ts = ffi.new("rtp_taskset *")
    diag = _diag()
    _check(lib.rtp_gen_taskset(opts, seed, point, index, ts, diag), diag)
    return TaskSet(_ts=ffi.gc(ts, lib.rtp_taskset_free))


class Sweep:
    """A sweep file of `rtpack explore` (docs/explore.md): `points` lists
    each point as a dict (tasks, cpus, utilization per CPU as a Fraction,
    deadlines) in explore's order; taskset(point, index) is the set explore
    evaluates there, so a script can re-run or extend explore's numbers."""

    def __init__(self, path):
        with open(path, "rb") as f:
            raw = f.read()
        self.document = _document(raw.decode())
        diag = _diag()
        sw = lib.rtp_sweep_open(raw, len(raw), diag)
        if sw == ffi.NULL:
            _check(lib.RTP_EINPUT if diag.message[0] else lib.RTP_ENOMEM, diag)
        self._sw = ffi.gc(sw, lib.rtp_sweep_close)
        key = ffi.new("char[128]")
        self.points = []
        for p in range(lib.rtp_sweep_n_points(self._sw)):
            lib.rtp_sweep_point_key(self._sw, p, key, 128)
            tasks, cpus, util, deadlines = ffi.string(key).decode().split(",")
            self.points.append({"tasks": int(tasks), "cpus": int(cpus),
                                "utilization": Fraction(util), "deadlines": deadlines})
        self.sets_per_point = self.document["sets_per_point"]

    def taskset(self, point, index):
        ts = ffi.new("rtp_taskset *")
        diag = _diag()
        _check(lib.rtp_sweep_taskset(self._sw, point, index, ts, diag), diag)
        return TaskSet(_ts=ffi.gc(ts, lib.rtp_taskset_free))


def emit(plan, name="rtpack", budget=None):
    """rtpack emit PLAN --format script [--name N] [--budget B]: the launch
    script as text, after the same re-check (exact tests, Linux's rules).
    `plan` is a Plan or a plan document's text. Returns (script, warnings);
    a plan Linux would refuse raises InputError with exit_code 1 and the
    reason (the CLI's "not deployable", exit 1)."""
    raw = (plan.to_json() if isinstance(plan, Plan) else plan).encode()
    opts = ffi.new("rtp_deploy_opts *", lib.rtp_deploy_opts_default())
    keep = ffi.new("char[]", name.encode())
    opts.name = keep
    if budget is not None:
        opts.budget.num, opts.budget.den = _ratio(budget, "budget")
    p = ffi.new("rtp_plan *")
    diag = _diag()
    deployable = ffi.new("int *")
    warnings = ffi.new("rtp_text *")
    lib.rtp_text_init(warnings)
    script = ffi.new("char **")
    try:
        _check(lib.rtp_plan_parse_json(raw, len(raw), p, diag), diag)
        _check(lib.rtp_deploy_flags_check(p, opts, 0, diag), diag)
        _check(lib.rtp_deploy_check(p, opts, deployable, diag), diag)
        if not deployable[0]:
            raise InputError("not deployable", 1, ffi.string(diag.message).decode(),
                             ffi.string(diag.path).decode())
        p.deploy_judged = p.deployable = 1
        lib.rtp_deploy_priority_warnings(p, opts, warnings)
        _check(lib.rtp_deploy_script(p, opts, script, warnings, diag), diag)
        text = _take_text(script[0])
        notes = ffi.string(warnings.data).decode() if warnings.data != ffi.NULL else ""
    finally:
        lib.rtp_text_free(warnings)
        lib.rtp_plan_free(p)
    return text, notes


class Simulation:
    """`rtpack simulate --json`'s document (`document`, exact values): per
    task jobs, misses, first_miss and response_max (int ns, None when no
    job missed / completed), until, schedulable_in_simulation; `svg` the
    Gantt chart when asked for."""

    def __init__(self, document, svg=None):
        self.document, self.svg = document, svg
        self.schedulable = document["schedulable_in_simulation"]
        self.until = document["until"]
        self.tasks = document["tasks"]

    def __repr__(self):
        return f"Simulation(schedulable={self.schedulable}, until={self.until})"


def simulate(what, policy=None, priority=None, cpus=None, until=None, overrun=None,
             gantt=False, gantt_from=0, max_iterations=None):
    """rtpack simulate FILE|PLAN [--policy P] [--priority R] [--cpus M]
    [--until T] [--overrun NAME:T]: `what` is a TaskSet (one CPU under edf,
    fp; one cluster under gedf, gfp) or a Plan or a plan document's text
    (CPU by CPU with its own policy and priorities; then policy, priority
    and cpus are refused as the CLI refuses them). until and the overrun's
    time (overrun=(name, ns)) in int ns. gantt=True also draws the chart of
    [gantt_from, until] (Simulation.svg)."""
    is_plan = not isinstance(what, TaskSet)
    if is_plan and (policy is not None or priority is not None or cpus is not None):
        raise InputError("input", 2, "a plan carries its own CPUs, policy and priorities "
                         "(policy, priority and cpus are for task sets)")
    pol = _choice(_POLICIES, policy or "edf", "policy")
    opts = ffi.new("rtp_simulate_opts *", lib.rtp_simulate_opts_default(pol))
    if priority is not None:
        opts.priority = _choice(_PRIORITIES, priority, "priority")
    opts.cpus_override = cpus or 0
    if until is not None:
        if until < 1:
            raise InputError("input", 2, f"until must be positive, not {until}")
        opts.until_ns = until
    keep = None
    if overrun is not None:
        name, ns = overrun
        keep = ffi.new("char[]", name.encode())
        opts.overrun_task, opts.overrun_ns = keep, ns
    opts.gantt, opts.gantt_from_ns = (1 if gantt else 0), gantt_from
    opts.limits = _limits(max_iterations)
    diag = _diag()
    r = ffi.new("rtp_simulation *")
    p = ffi.new("rtp_plan *")
    svg = None
    try:
        if is_plan:
            raw = (what.to_json() if isinstance(what, Plan) else what).encode()
            _check(lib.rtp_plan_parse_json(raw, len(raw), p, diag), diag)
            _check(lib.rtp_simulate_plan(p, opts, r, diag), diag)
        else:
            _check(lib.rtp_simulate(what._ts, opts, r, diag), diag)
        text = _take_text(lib.rtp_sim_doc_to_json(ffi.addressof(r, "doc"), 0))
        if gantt:
            svg = _take_text(lib.rtp_simulation_svg(r, b"simulated schedule"))
    finally:
        lib.rtp_simulation_free(r)
        lib.rtp_plan_free(p)
    del keep
    return Simulation(_document(text), svg)
