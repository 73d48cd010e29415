#!/usr/bin/env python3
"""tests/support/report_check.py -- holds an `rtpack report` page to the
CLI's own documents (docs/spec.md "rtpack report"):

  - the page is well-formed XML (xml.etree, the strict parser of python3's
    standard library) and, when html5lib is installed, free of HTML5 parse
    errors (html5lib's strict mode);
  - every number is a <data value="V" data-j="[FORMULA:]DOC:PATH"> whose
    shown text is V in the page's unit rule and whose V equals the member
    PATH of DOC: plan (partition --sensitivity --json), sim (simulate --json
    over the page's window), emit (the launch script emit writes; a lock's
    ceiling, emit:resources[i].ceiling, from emit --format header), rehearsal,
    probe, opt (the report's options, given here), count (counted from the
    documents), const; FORMULA "slack" (deadline - response_time) and "grow"
    (wcet_max / wcet, two decimals rounded down) are computed from the member;
    DOC "analysis" is a figure of the analysis no other command prints, and
    is only counted;
  - every <span class="txt" data-j="DOC:PATH"> shows that string member;
  - no digit is shown anywhere else in the body (outside numbers, names,
    strings from the documents, code, citations, abbreviations and the
    Gantt chart), so no number escapes these checks.

usage: report_check.py PAGE --plan PLAN.json [--sim SIM.json] [--script S.sh] [--header H.h]
       [--rehearsal R.json] [--probe P.json] [--opt key=value ...]
Exit 0 with a summary line, 1 with one line per failure.
"""
import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/1999/xhtml}"
UNITS = {"ns": 1, "\u00b5s": 1000, "ms": 10**6, "s": 10**9}
EXEMPT = {"svg", "style", "code", "cite", "abbr", "title", "script"}
EXEMPT_CLASSES = {"txt", "name", "title", "say"}


def parse_shown_time(text):
    m = re.fullmatch(r"(\d+)(?:\.(\d+))?\u00a0(ns|\u00b5s|ms|s)", text)
    if not m:
        return None
    whole, frac, unit = m.group(1), m.group(2) or "", m.group(3)
    scale = UNITS[unit]
    digits = {1: 0, 1000: 3, 10**6: 6, 10**9: 9}[scale]
    if len(frac) > digits:
        return None
    return int(whole) * scale + (int(frac.ljust(digits, "0")) if frac else 0)


def time_of(v):
    """A JSON time: an integer of ns or a string such as "4570247ns"."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        m = re.fullmatch(r"(\d+)(?:\.(\d+))?(ns|us|ms|s)", v)
        if m:
            scale = {"ns": 1, "us": 1000, "ms": 10**6, "s": 10**9}[m.group(3)]
            frac = m.group(2) or ""
            return int(m.group(1)) * scale + int(frac.ljust(9, "0")[:9]) * scale // 10**9
    return None


def resolve(doc, path):
    """The member of doc at a docs/spec.md path such as cpus[0].tasks[2].wcet."""
    node = doc
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            node = node[int(part[1:-1])]
        else:
            node = node[part]
    return node


class Checker:
    def __init__(self, a):
        self.fails = []
        self.counts = {}
        self.docs = {}
        for name in ("plan", "sim", "rehearsal", "probe"):
            f = getattr(a, name)
            if f:
                with open(f) as fh:
                    self.docs[name] = json.load(fh)
        self.script = open(a.script).read() if a.script else None
        self.header = open(a.header).read() if a.header else None
        self.opts = dict(kv.split("=", 1) for kv in a.opt)

    def fail(self, msg):
        self.fails.append(msg)

    def tasks_of(self, plan):
        for bins in ("cpus", "clusters"):
            for b in plan.get(bins, []):
                yield from b["tasks"]

    def count(self, key):
        plan = self.docs["plan"]
        placed = sum(1 for _ in self.tasks_of(plan))
        if key == "tasks":
            return placed + len(plan["unassigned"])
        if key == "cpus":
            return len(plan["platform"]["cpus"])
        if key == "unassigned":
            return len(plan["unassigned"])
        rt = self.docs.get("rehearsal", {}).get("tasks", [])
        if key == "misses":
            return sum(t["misses"] for t in rt)
        if key == "jobs":
            return sum(t["jobs"] for t in rt)
        if key == "over_bound":
            return sum(1 for t in rt if t["over_bound"])
        m = re.fullmatch(r"(clusters\[\d+\])\.cpus", key)
        if m:
            return len(resolve(plan, m.group(1))["cpus"])
        m = re.fullmatch(r"resources\[(\d+)\]\.cpus", key)
        if m:  # the CPUs whose tasks use that resource
            name = plan["resources"][int(m.group(1))]["name"]
            return sum(1 for b in plan.get("cpus", [])
                       if any(q["resource"] == name for t in b["tasks"]
                              for q in t.get("requests", [])))
        raise KeyError(key)

    def emit_value(self, path):
        m = re.fullmatch(r"resources\[(\d+)\]\.ceiling", path)
        if m:
            if self.header is None:
                return None
            c = re.search(r"#define RTPACK_LOCK_%s_CEILING (\d+)" % m.group(1), self.header)
            return int(c.group(1)) if c else None
        task_path, what = path.rsplit(".", 1)
        name = resolve(self.docs["plan"], task_path)["name"]
        for line in self.script.splitlines():
            if "'%s' '%s'" % (name, name) in line:
                key = r"chrt -[fr] (\d+)" if what == "priority" else r"--(?:sched-)?runtime (\d+)"
                m = re.search(key, line)
                return int(m.group(1)) if m else None
        return None

    def expected(self, src):
        """(kind, value) the source names: kind 'int', 'str', 'float' or 'free'."""
        formula = None
        parts = src.split(":")
        if parts[0] in ("slack", "grow"):
            formula = parts.pop(0)
        doc, path = parts[0], ":".join(parts[1:])
        if doc == "analysis":
            return "free", None
        if doc == "count":
            return "int", self.count(path)
        if doc == "const":
            return "int", {"gantt_max_boxes": 1500}[path]
        if doc == "opt":
            return "float", float(self.opts[path])
        if doc == "emit":
            if self.script is None:  # emit refuses the plan: nothing to hold it to
                return "free", None
            return "int", self.emit_value(path)
        try:
            value = resolve(self.docs[doc], path)
        except KeyError:  # jitter and blocking are written only when non-zero
            if not re.search(r"\.(jitter|blocking)$", path):
                raise
            value = 0
        if formula == "slack":
            return "int", value["deadline"] - value["response_time"]
        if formula == "grow":
            h = value["wcet_max"] * 100 // value["wcet"]
            return "str", "%d.%02d" % (h // 100, h % 100)
        if isinstance(value, float):
            return "float", value
        if isinstance(value, str) and time_of(value) is None:
            return "str", value
        return "int", time_of(value) if isinstance(value, str) else value

    def check_data(self, el):
        v, src, shown = el.get("value"), el.get("data-j"), "".join(el.itertext())
        kind_name = src.split(":")[0]
        self.counts[kind_name] = self.counts.get(kind_name, 0) + 1
        ns = parse_shown_time(shown)
        if ns is not None:
            if str(ns) != v:
                self.fail("%s: shows %r, value %s" % (src, shown, v))
        elif shown != v:
            self.fail("%s: shows %r, value %s" % (src, shown, v))
        try:
            kind, want = self.expected(src)
        except (KeyError, IndexError, TypeError, ValueError) as e:
            self.fail("%s: no such member in the documents (%s)" % (src, e))
            return
        if kind == "free":
            return
        if kind == "int":
            ok = want is not None and re.fullmatch(r"\d+", v) and int(v) == want
        elif kind == "str":
            ok = v == want
        else:
            decimals = len(v.split(".")[1]) if "." in v else 0
            ok = abs(float(v) - want) <= 0.5 * 10**-decimals + 1e-9
        if not ok:
            self.fail("%s: the page says %s, the document %r" % (src, v, want))

    def check_string(self, el):
        src, shown = el.get("data-j"), "".join(el.itertext())
        self.counts["string"] = self.counts.get("string", 0) + 1
        try:
            want = self.expected(src)[1]
        except (KeyError, IndexError, TypeError) as e:
            self.fail("%s: no such member in the documents (%s)" % (src, e))
            return
        if shown != want:
            self.fail("%s: the page says %r, the document %r" % (src, shown, want))

    def walk(self, el, exempt):
        tag = el.tag.replace(NS, "")
        classes = set((el.get("class") or "").split())
        if tag == "data":
            self.check_data(el)
        elif tag == "span" and "txt" in classes:
            self.check_string(el)
        exempt = exempt or tag in EXEMPT or tag == "data" or bool(classes & EXEMPT_CLASSES) \
            or el.tag.startswith("{http://www.w3.org/2000/svg}")
        if not exempt and el.text and re.search(r"\d", el.text):
            self.fail("a number outside the checked elements: %r (in <%s>)" % (el.text.strip()[:80], tag))
        for child in el:
            self.walk(child, exempt)
            if not exempt and child.tail and re.search(r"\d", child.tail):
                self.fail("a number outside the checked elements: %r (after <%s>)"
                          % (child.tail.strip()[:80], child.tag.replace(NS, "")))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--plan", required=True)
    ap.add_argument("--sim")
    ap.add_argument("--script")
    ap.add_argument("--header")
    ap.add_argument("--rehearsal")
    ap.add_argument("--probe")
    ap.add_argument("--opt", action="append", default=[])
    a = ap.parse_args()
    c = Checker(a)
    raw = open(a.page, "rb").read()
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        print("report_check: FAIL not well-formed XML: %s" % e)
        return 1
    try:
        import html5lib
        html5lib.HTMLParser(strict=True).parse(raw)
        html5 = "no HTML5 parse error"
    except ImportError:
        html5 = "html5lib not installed: HTML5 parse not checked"
    except Exception as e:  # html5lib's ParseError
        c.fail("HTML5 parse error: %s" % e)
        html5 = "HTML5 parse failed"
    if len(set(re.findall(rb' id="([^"]+)"', raw))) != len(re.findall(rb' id="([^"]+)"', raw)):
        c.fail("an id is used twice")
    body = root.find(NS + "body")
    c.walk(body, False)
    for f in c.fails:
        print("report_check: FAIL %s" % f)
    total = sum(v for k, v in c.counts.items() if k != "string")
    print("report_check: %s: well-formed XML, %s; %d numbers (%s), %d strings checked; %d failure(s)"
          % (a.page, html5, total, ", ".join("%s %d" % kv for kv in sorted(c.counts.items())
                                             if kv[0] != "string"),
             c.counts.get("string", 0), len(c.fails)))
    return 1 if c.fails else 0


if __name__ == "__main__":
    sys.exit(main())
