"""The job as a Chrome trace-event JSON (opens in ui.perfetto.dev and chrome://tracing).

Layout: a process per node, a thread (track) per rank, plus a "node" thread for
node-level lines (dmesg, nvidia-smi) and a "launcher / other" process for lines
with neither. On each rank track:

- instant events (``ph: i``) for log events, ``args`` carrying level, template,
  kind, file:line and the first line of the message;
- phase slices (``ph: X``) where they can be derived from step lines: ``init``
  (first event to first step), ``training`` (first to last step) with one child
  slice per step, and after the last step ``hang / failure`` (when the rank went
  on to fail) or ``shutdown``;
- finding slices for root-cause and collateral events (1 ms, clipped so they
  nest), because flow arrows bind to slices, not to instants;
- flow arrows (``ph: s`` / ``ph: f``, one id each) from the root cause to the
  first event of each collateral group on each rank (on each node for large jobs).

Times are microseconds since the epoch, aligned (``ts_aligned``). Events are
emitted sorted by time, so every track is monotonic; slices on one track never
partially overlap.

The trace covers the job's span (``TraceWindow``: its first to last line that is
not the kernel's, widened by a margin and to the verdict's own evidence), not the
weeks a ``dmesg`` reaches back to boot: a trace 40 days wide shows the job as a
hairline. Lines outside it are not dropped silently: each node's track gets one
instant at the window's edge that counts them and says when they were (their
count from the whole timeline where ``trace_span`` read it), and ``otherData``
``outside_span`` lists them per node.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from correlator.output import atomic_write_text
from correlator.report.common import natural_key
from correlator.report.redact import redact_table, redact_verdict
from correlator.verdict import Evidence, Verdict

FINDING_US = 1000  # finding slices last 1 ms: visible when zoomed, never hiding their neighbours
MAX_STEP_SLICES = 50_000  # above this, step children are left out (training slice stays): ~150 bytes each
FLOW_PER_RANK_MAX = 64  # collateral on more ranks than this: one arrow per node


SPAN_MARGIN_US = 300_000_000  # 5 min either side of the job (or 5 % of its length, when more)


@dataclass
class _Track:
    pid: int
    tid: int


@dataclass
class Outside:
    """Lines of one node (None: neither rank nor node) outside the trace's window."""

    before: int = 0
    after: int = 0
    first_us: int | None = None
    last_us: int | None = None

    def add(self, n: int, first: int, last: int, before: bool) -> None:
        if before:
            self.before += n
        else:
            self.after += n
        self.first_us = first if self.first_us is None else min(self.first_us, first)
        self.last_us = last if self.last_us is None else max(self.last_us, last)


@dataclass
class TraceWindow:
    start_us: int
    end_us: int
    outside: dict[str | None, Outside]  # counted over the whole timeline (empty: count the sample's)


# The job's span: every stamped line that is not the kernel's (dmesg keeps boot
# lines from weeks before the job). Aligned time, as the trace draws it.
_SPAN_SQL = """
SELECT epoch_us(min(ts_aligned)), epoch_us(max(ts_aligned)) FROM events
WHERE ts_aligned IS NOT NULL AND source IS DISTINCT FROM 'kernel'
"""
_OUTSIDE_SQL = """
SELECT node, ts_aligned < make_timestamp({start}) AS before, count(*),
       epoch_us(min(ts_aligned)), epoch_us(max(ts_aligned))
FROM events
WHERE ts_aligned < make_timestamp({start}) OR ts_aligned > make_timestamp({end})
GROUP BY ALL
"""


def trace_span(con: duckdb.DuckDBPyConnection, verdict: Verdict | None = None) -> TraceWindow | None:
    """The trace's window over the analysed timeline open on ``con`` (view ``events``
    with ``ts_aligned``), and every line outside it counted per node. None: nothing
    is stamped. Two scans of narrow columns (node, source, ts)."""
    lo, hi = con.execute(_SPAN_SQL).fetchall()[0]
    if lo is None:
        lo, hi = con.execute("SELECT epoch_us(min(ts_aligned)), epoch_us(max(ts_aligned)) FROM events").fetchall()[0]
    if lo is None:
        return None
    start, end = _widen(lo, hi, verdict)
    outside: dict[str | None, Outside] = {}
    for node, before, n, first, last in con.execute(_OUTSIDE_SQL.format(start=start, end=end)).fetchall():
        outside.setdefault(node, Outside()).add(n, first, last, bool(before))
    return TraceWindow(start, end, outside)


def _widen(lo: int, hi: int, verdict: Verdict | None) -> tuple[int, int]:
    margin = max(SPAN_MARGIN_US, (hi - lo) // 20)
    start, end = lo - margin, hi + margin
    if verdict is not None:  # the verdict's own evidence is always drawn
        marks = [e.ts for e in (verdict.root_cause.evidence if verdict.root_cause else None,
                                verdict.first_deviating) if e is not None and e.ts is not None]
        for ts in marks:
            us = int(ts.timestamp() * 1_000_000)
            start, end = min(start, us - FINDING_US), max(end, us + 2 * FINDING_US)
    return start, end


def _rows_window(rows: list[dict], verdict: Verdict) -> TraceWindow | None:
    """The window from the sample alone (no timeline at hand): the same rule as ``trace_span``."""
    stamped = [r["us"] for r in rows if r["us"] is not None]
    job = [r["us"] for r in rows if r["us"] is not None and r.get("source") != "kernel"] or stamped
    if not job:
        return None
    start, end = _widen(min(job), max(job), verdict)
    return TraceWindow(start, end, {})


def step_events(con: duckdb.DuckDBPyConnection, verdict: Verdict, limit: int | None = None) -> pa.Table:
    """Every rank's step lines, with ``ts_aligned`` from the verdict's clock offsets.

    The report's event sample may keep only some step lines; phase slices need them
    all. ``con`` is an open timeline (``correlator.target.open_timeline``).

    Past ``limit`` (default ``MAX_STEP_SLICES``) step lines in all, the trace draws
    no per-step slice, only each rank's phases: then only each rank's first and last
    step line come back, with ``n``, the rank's count of steps (a 1 GB job has
    millions of step lines; turning each into a Python dict cost more than the
    verdict).
    """
    limit = MAX_STEP_SLICES if limit is None else limit
    offsets = {c.node: c.offset_s for c in verdict.clock if c.applied}
    case = " ".join(
        f"WHEN node = '{n.replace(chr(39), chr(39) * 2)}' THEN ts - to_microseconds({round(o * 1e6)})"
        for n, o in offsets.items()
    )
    aligned = f"CASE {case} ELSE ts END" if case else "ts"
    where = "kind = 'app.step_metrics' AND rank IS NOT NULL AND ts IS NOT NULL"
    total = con.execute(f"SELECT count(*) FROM events WHERE {where}").fetchall()[0][0]
    if total <= limit:
        return con.sql(
            f"""SELECT rank, node, file, line_no, {aligned} AS ts_aligned, attrs['step'] AS step
                FROM events WHERE {where} ORDER BY rank, ts_aligned"""
        ).to_arrow_table()
    return con.sql(
        f"""WITH s AS (SELECT rank, node, file, line_no, {aligned} AS ts_aligned, attrs['step'] AS step
                       FROM events WHERE {where}),
            ends AS (SELECT rank, count(*) AS n,
                            arg_min(struct_pack(node, file, line_no, ts_aligned, step), ts_aligned) AS a,
                            arg_max(struct_pack(node, file, line_no, ts_aligned, step), ts_aligned) AS b
                     FROM s GROUP BY rank)
            SELECT rank, e.node AS node, e.file AS file, e.line_no AS line_no, e.ts_aligned AS ts_aligned,
                   e.step AS step, n
            FROM (SELECT rank, n, unnest([a, b]) AS e FROM ends)
            ORDER BY 1, 5"""
    ).to_arrow_table()


def perfetto_trace(
    verdict: Verdict,
    events: pa.Table,
    steps: pa.Table | None = None,
    *,
    redact: bool = True,
    window: TraceWindow | None = None,
) -> dict:
    """The trace as a JSON-ready dict (``{"traceEvents": [...], ...}``).

    ``events``: the event sample (``analyze_with_events``; columns
    ``REPORT_EVENT_COLUMNS``, or a subset with at least rank, node, ts_aligned or
    ts, file, line_no). ``steps``: ``step_events(...)``; without it, step lines in
    ``events`` are used. ``window``: ``trace_span(...)``; without it, the job's span
    is taken from ``events`` and only their lines outside it are counted.
    """
    if redact:
        # mask the inputs, not the output: the output repeats every string and is larger
        verdict = redact_verdict(verdict)
        events = redact_table(events, [c for c in ("message", "template", "file") if c in events.column_names])
        if steps is not None:
            steps = redact_table(steps, [c for c in ("file",) if c in steps.column_names])
    rows = _rows(events)
    step_rows = _rows(steps) if steps is not None else [r for r in rows if r.get("kind") == "app.step_metrics"]
    window = window or _rows_window(rows, verdict)
    outside: dict[str | None, Outside] = dict(window.outside) if window else {}
    if window is not None:
        counted = bool(outside)  # from the whole timeline: the sample's own are among them
        kept = []
        for r in rows:
            us = r["us"]
            if us is None or window.start_us <= us <= window.end_us:
                kept.append(r)
            elif not counted:
                outside.setdefault(r.get("node"), Outside()).add(1, us, us, us < window.start_us)
        rows = kept
        step_rows = [s for s in step_rows if s["us"] is None or window.start_us <= s["us"] <= window.end_us]

    # processes and threads
    node_votes: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in rows + step_rows:
        if r.get("rank") is not None and r.get("node"):
            node_votes[r["rank"]][r["node"]] += 1
    node_of_rank = {k: max(v, key=lambda n: v[n]) for k, v in node_votes.items()}
    nodes = sorted({r["node"] for r in rows if r.get("node")} | set(node_of_rank.values())
                   | {n for n in outside if n}, key=natural_key)
    pid_of = {n: i + 1 for i, n in enumerate(nodes)}
    other_pid = len(nodes) + 1
    meta: list[dict] = []
    for n, pid in pid_of.items():
        meta += [_m("process_name", pid, None, name=n), _m("process_sort_index", pid, None, sort_index=pid)]
    meta += [_m("process_name", other_pid, None, name="launcher / other"),
             _m("process_sort_index", other_pid, None, sort_index=other_pid)]
    threads: dict[tuple[int, int], str] = {}

    def track(rank: int | None, node: str | None) -> _Track:
        if rank is not None:
            n = node_of_rank.get(rank, node)
            pid = pid_of.get(n, other_pid) if n else other_pid
            tid = rank + 1
            threads.setdefault((pid, tid), f"rank {rank}")
            return _Track(pid, tid)
        if node:
            pid = pid_of[node]
            tid = 1_000_000 + pid  # node-level lines: one thread per node, sorted after its ranks
            threads.setdefault((pid, tid), "node (dmesg, nvidia-smi, launcher)")
            return _Track(pid, tid)
        threads.setdefault((other_pid, 1), "launcher / other")
        return _Track(other_pid, 1)

    out: list[dict] = []
    # instant events: the trace's bulk (20,000 by default). Each (rank, node)'s track
    # is looked up once, in the order track() registers its thread.
    skipped = 0
    tracks: dict[tuple[int | None, str | None], _Track] = {}
    for r in rows:
        us = r["us"]
        if us is None:
            skipped += 1
            continue
        get = r.get
        key = (get("rank"), get("node"))
        t = tracks.get(key)
        if t is None:
            t = tracks[key] = track(*key)
        source = get("source")
        args = {"level": get("level"), "template": (get("template") or "")[:160], "kind": get("kind"),
                "source": source, "line": f"{get('file')}:{get('line_no')}", "message": _brief(get("message"))}
        rule_id = get("rule_id")
        if rule_id:
            args["rule_id"], args["role"] = rule_id, get("role")
        out.append({"name": _name(r), "cat": source or "log", "ph": "i", "s": "t", "ts": us,
                    "pid": t.pid, "tid": t.tid, "args": args})

    # what the window leaves out, on each node's track at the window's edge
    for node, o in sorted(outside.items(), key=lambda kv: natural_key(kv[0])):
        if window is None or not (o.before or o.after):
            continue
        t = track(None, node if node in pid_of else None)
        for n, at, side in ((o.before, window.start_us, "before"), (o.after, window.end_us, "after")):
            if n:
                out.append({"name": f"{n:,} node lines {side} the job's span, not drawn", "cat": "outside_span",
                            "ph": "i", "s": "t", "ts": at, "pid": t.pid, "tid": t.tid,
                            "args": {"lines": n, "node": node, "first": _iso(o.first_us), "last": _iso(o.last_us),
                                     "why": "before the job's first line (dmesg reaches back to boot)"
                                     if side == "before" else "after the job's last line"}})

    # phase slices per rank
    slices: dict[tuple[int, int], list[dict]] = defaultdict(list)
    by_rank_steps: dict[int, list[dict]] = defaultdict(list)
    for s in step_rows:
        if s["us"] is not None and s.get("rank") is not None:
            by_rank_steps[s["rank"]].append(s)
    span_of: dict[int, tuple[int, int]] = {}
    failing_after: dict[int, int] = {}
    for r in rows:  # one pass for both
        rank, us = r.get("rank"), r["us"]
        if rank is None or us is None:
            continue
        a, b = span_of.get(rank, (us, us))
        span_of[rank] = (min(a, us), max(b, us))
        if r.get("level") in ("ERROR", "CRITICAL") or r.get("role") in ("root", "collateral"):
            failing_after[rank] = max(failing_after.get(rank, 0), us)
    # a rank's count of steps: "n" where step_events gave only its first and last
    n_of = {s["rank"]: s["n"] for s in step_rows if s.get("n") is not None and s.get("rank") is not None}
    n_steps = sum(n_of.get(k, len(v)) for k, v in by_rank_steps.items())
    for rank, st in by_rank_steps.items():
        st.sort(key=lambda s: s["us"])
        t = track(rank, st[0].get("node"))
        first_ev, last_ev = span_of.get(rank, (st[0]["us"], st[-1]["us"]))
        first_ev, last_ev = min(first_ev, st[0]["us"]), max(last_ev, st[-1]["us"])
        key = (t.pid, t.tid)
        if first_ev < st[0]["us"]:
            slices[key].append(_x("init", "phase", first_ev, st[0]["us"], t,
                                  {"what": "first event to first step"}))
        if len(st) >= 2:
            slices[key].append(_x(f"training (steps {_step(st[0])}–{_step(st[-1])})", "phase", st[0]["us"],
                                  st[-1]["us"], t, {"steps": n_of.get(rank, len(st))}))
            if n_steps <= MAX_STEP_SLICES and rank not in n_of:  # n: only the ends came back
                for s0, s1 in pairwise(st):
                    if s1["us"] > s0["us"]:
                        slices[key].append(_x(f"step {_step(s1)}", "step", s0["us"], s1["us"], t,
                                              {"line": f"{s1.get('file')}:{s1.get('line_no')}"}))
        if last_ev > st[-1]["us"]:
            failed = failing_after.get(rank, 0) > st[-1]["us"]
            name = "hang / failure" if failed else "shutdown"
            slices[key].append(_x(name, "phase", st[-1]["us"], last_ev + 2 * FINDING_US, t,
                                  {"what": "last step to the " + ("failure" if failed else "last event"),
                                   "seconds": round((last_ev - st[-1]["us"]) / 1e6, 3)}))

    # finding slices: the verdict's root cause and first deviating line, and every
    # root / collateral event of the sample
    findings: dict[tuple[str, int], dict] = {}

    def finding(e: dict, role: str, rule_id: str | None, title: str) -> None:
        k = (e["file"], e["line_no"])
        if e["us"] is None or k in findings:
            if k in findings and role == "root cause":
                findings[k]["role"] = role
            return
        findings[k] = {**e, "role": role, "rule_id": rule_id, "title": title}

    rc = verdict.root_cause
    if rc and rc.evidence:
        finding(_ev_row(rc.evidence), "root cause", rc.rule_id, rc.title)
    if verdict.first_deviating:
        finding(_ev_row(verdict.first_deviating), "first deviating", None, "first deviating line")
    for r in rows:
        if r.get("role") in ("root", "collateral"):
            finding(r, r["role"], r.get("rule_id"), r.get("rule_id") or r["role"])
    f_by_track: dict[tuple[int, int], list[dict]] = defaultdict(list)
    for f in findings.values():
        t = track(f.get("rank"), f.get("node"))
        f["pid"], f["tid"] = t.pid, t.tid
        f_by_track[(t.pid, t.tid)].append(f)
    finding_slices: dict[tuple[str, int], dict] = {}
    for key, fs in f_by_track.items():
        bounds = sorted({s["ts"] for s in slices[key]} | {s["ts"] + s["dur"] for s in slices[key]})
        fs.sort(key=lambda f: (f["us"], f["file"], f["line_no"]))
        starts = sorted({f["us"] for f in fs})
        for f in fs:
            nxt = [b for b in bounds if b > f["us"]][:1] + [s for s in starts if s > f["us"]][:1]
            dur = min([FINDING_US, *(b - f["us"] for b in nxt)])
            sl = _x(f"{f['role']}: {f['title']}", f["role"].replace(" ", "_"), f["us"], f["us"] + dur,
                    _Track(f["pid"], f["tid"]),
                    {"rule_id": f.get("rule_id"), "line": f"{f['file']}:{f['line_no']}",
                     "message": _brief(f.get("message"))})
            slices[key].append(sl)
            finding_slices[(f["file"], f["line_no"])] = sl

    # flows: root cause -> first collateral event of each group per rank (per node when many)
    flows: list[dict] = []
    root_sl = finding_slices.get((rc.evidence.file, rc.evidence.line_no)) if rc and rc.evidence else None
    if root_sl is not None:
        groups: dict[str, list[dict]] = defaultdict(list)
        for f in sorted(findings.values(), key=lambda f: f["us"]):
            if f["role"] == "collateral":
                groups[f.get("rule_id") or "collateral"].append(f)
        fid = 0
        for rule_id, fs in groups.items():
            ranks = {f.get("rank") for f in fs}
            per = (lambda f: f.get("rank")) if len(ranks) <= FLOW_PER_RANK_MAX else (
                lambda f: node_of_rank.get(f.get("rank"), f.get("node")))
            seen = set()
            for f in fs:
                k = per(f)
                if k in seen or (f["file"], f["line_no"]) == (rc.evidence.file, rc.evidence.line_no):
                    continue
                seen.add(k)
                target = finding_slices[(f["file"], f["line_no"])]
                fid += 1
                name = f"root cause → {rule_id}"
                flows.append({"name": name, "cat": "causality", "ph": "s", "id": fid,
                              "ts": root_sl["ts"] + root_sl["dur"] // 2, "pid": root_sl["pid"], "tid": root_sl["tid"]})
                flows.append({"name": name, "cat": "causality", "ph": "f", "bp": "e", "id": fid,
                              "ts": target["ts"] + target["dur"] // 2, "pid": target["pid"], "tid": target["tid"]})

    for (pid, tid), name in threads.items():
        meta += [_m("thread_name", pid, tid, name=name),
                 _m("thread_sort_index", pid, tid, sort_index=tid)]
    timed = out + [s for v in slices.values() for s in v] + flows
    # time order; at one instant the longer slice first, so parents open before children
    timed.sort(key=lambda e: (e["ts"], -e.get("dur", 0), _ph_order(e["ph"])))
    info = {
        "job": verdict.job, "status": verdict.status,
        "initiating": verdict.initiating.model_dump(mode="json") if verdict.initiating else None,
        "root_cause": rc.title if rc else None, "category": rc.category if rc else None,
        "events_in_trace": len(out), "events_in_job": verdict.events, "events_without_time": skipped,
        "clock_reference_node": verdict.reference_node,
        "window": {"start": _iso(window.start_us), "end": _iso(window.end_us)} if window else None,
        "outside_span": {"events": sum(o.before + o.after for o in outside.values()),
                         "per_node": {str(k): {"before": o.before, "after": o.after, "first": _iso(o.first_us),
                                               "last": _iso(o.last_us)} for k, o in outside.items()}},
        "generator": "correlator export --format perfetto",
    }
    trace = {"traceEvents": meta + timed, "displayTimeUnit": "ms", "otherData": info}
    return trace


def write_trace(trace: dict, path: str) -> None:
    # one dumps() call: the C encoder; json.dump() to a file streams through the slow one
    atomic_write_text(path, json.dumps(trace, separators=(",", ":"), ensure_ascii=False))


def _iso(us: int | None) -> str | None:
    from datetime import UTC, datetime

    return None if us is None else datetime.fromtimestamp(us / 1e6, UTC).isoformat()


def _ph_order(ph: str) -> int:
    return {"X": 0, "s": 1, "f": 2, "i": 3}.get(ph, 4)


def _m(what: str, pid: int, tid: int | None, **args: object) -> dict:
    e = {"name": what, "ph": "M", "pid": pid, "args": args}
    if tid is not None:
        e["tid"] = tid
    return e


def _x(name: str, cat: str, start: int, end: int, t: _Track, args: dict) -> dict:
    return {"name": name, "cat": cat, "ph": "X", "ts": start, "dur": max(0, end - start), "pid": t.pid,
            "tid": t.tid, "args": args}


def _brief(message: str | None) -> str:
    """First and last line: a traceback's telling line is its last."""
    if not message or "\n" not in message:  # most events: one line, no list to build
        return (message or "")[:300] if message and message.strip() else ""
    lines = [ln for ln in message.split("\n") if ln.strip()]
    if len(lines) <= 1:
        return (lines[0] if lines else "")[:300]
    return f"{lines[0][:200]} ⏎ … ⏎ {lines[-1][:300]}" if len(lines) > 2 else f"{lines[0][:200]} ⏎ {lines[1][:300]}"


def _step(s: dict) -> str:
    return str(s.get("step") or "?")


def _name(r: dict) -> str:
    if r.get("rule_id"):
        return f"{r['rule_id']} ({r.get('role')})"
    if r.get("kind"):
        return r["kind"]
    tpl = (r.get("template") or r.get("message") or "").split("\n", 1)[0]
    return tpl[:80] or "event"


def _ev_row(e: Evidence) -> dict:
    return {"rank": e.rank, "node": e.node, "file": e.file, "line_no": e.line_no, "message": e.text,
            "us": int(e.ts.timestamp() * 1_000_000) if e.ts else None}


def _rows(t: pa.Table) -> list[dict]:
    """Rows with ``us``: aligned epoch microseconds (ts where no aligned time)."""
    if t is None or not t.num_rows:
        return []
    col = t.column("ts_aligned") if "ts_aligned" in t.column_names else t.column("ts")
    if "ts_aligned" in t.column_names and "ts" in t.column_names:
        col = pc.coalesce(col, pc.cast(t.column("ts"), col.type))
    us = pc.cast(pc.cast(col, pa.timestamp("us", tz="UTC")), pa.int64()).to_pylist()
    keep = [c for c in t.column_names if c not in ("ts", "ts_aligned")]
    rows = t.select(keep).to_pylist()
    for r, u in zip(rows, us, strict=True):
        r["us"] = u
    return rows
