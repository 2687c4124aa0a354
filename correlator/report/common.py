"""What the Markdown and HTML reports share: their inputs and the facts they derive.

A report draws on three things:

- the **verdict** (``correlator.verdict.Verdict``);
- the **event sample** (``correlator.report.sample.report_events``, columns
  ``REPORT_EVENT_COLUMNS``): the timeline chart and the evidence lines;
- the **node facts** (``FACTS_SQL`` over the timeline): ``collect_env`` reports,
  nvidia-smi snapshots and kernel GPU lines, which the event sample may leave out
  (an INFO-level nvidia-smi table is no finding) but the environment and GPU
  sections need whole.

``load_report_data`` gets all three for a target in one call; renderers take them
as plain arguments so a caller that already has a timeline open can pass its own.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import duckdb
import pyarrow as pa

from correlator.report.redact import redact_table, redact_verdict
from correlator.verdict import Evidence, Verdict, ranges

if TYPE_CHECKING:
    from correlator.ingest import IngestOptions

# Node facts for the environment and GPU sections. ``attrs`` whole; ``message``
# clipped: an ``nvidia-smi -q`` dump runs to thousands of lines.
FACTS_SQL = """
SELECT node, rank, source, kind, file, line_no, ts, level, attrs, left(message, 4000) AS message
FROM events
WHERE source IN ('collect_env', 'nvidia_smi')
   OR kind IN ('kernel.xid', 'kernel.gpu_fallen_off_bus', 'kernel.oom_kill', 'kernel.gpu_uuid')
ORDER BY node NULLS LAST, file, line_no
LIMIT 5000
"""

FACTS_SCHEMA = pa.schema([
    ("node", pa.string()), ("rank", pa.int32()), ("source", pa.string()), ("kind", pa.string()),
    ("file", pa.string()), ("line_no", pa.int64()), ("ts", pa.timestamp("us", tz="UTC")),
    ("level", pa.string()), ("attrs", pa.map_(pa.string(), pa.string())), ("message", pa.string()),
])


# The same rows picked by position first (the analysis' ``timeline_raw_rows``): a
# filter on source / kind still read ``attrs`` and ``message`` of every event (2 s
# of a 1 GB job); fetched by ``event_row``, only the pages holding the few facts.
_FACTS_BY_POSITION = FACTS_SQL.replace("FROM events\nWHERE", """FROM timeline_raw_rows
WHERE event_row IN (SELECT event_row FROM timeline_raw_rows WHERE""").replace(
    "ORDER BY node NULLS LAST", ")\nORDER BY node NULLS LAST")


def report_facts(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """The node facts of the timeline open on ``con`` (view ``events``; by position
    where the analysis left ``timeline_raw_rows``)."""
    from correlator.report.sample import has_positions

    return con.sql(_FACTS_BY_POSITION if has_positions(con) else FACTS_SQL).to_arrow_table()


def empty_facts() -> pa.Table:
    return FACTS_SCHEMA.empty_table()


@dataclass
class ReportData:
    verdict: Verdict
    events: pa.Table
    facts: pa.Table = field(default_factory=empty_facts)


def load_report_data(
    target: str,
    *,
    baseline: str | None = None,
    rules_dirs: tuple[str, ...] = (),
    options: IngestOptions | None = None,
    builtin_rules: bool = True,
    max_events: int = 20000,
    timeline_out: str | None = None,
) -> ReportData:
    """Verdict, event sample and node facts for ``target`` (logs, Parquet or DuckDB).

    Logs are ingested once, into ``timeline_out`` when given (batch mode keeps it),
    else into a scratch Parquet file; the sample and the facts are drawn on the
    connection that decided the verdict (``report_data_on``), so the timeline is
    opened once and never read whole a second time.
    """
    from correlator.analysis.analyze import analysis_open
    from correlator.ingest import ingest
    from correlator.target import kind_of

    path = target
    if timeline_out is not None and kind_of(target) == "logs":
        ingest(target, out_parquet=timeline_out, options=options)
        path = timeline_out
    with analysis_open(path, baseline=baseline, rules_dirs=rules_dirs, options=options,
                       builtin_rules=builtin_rules) as (verdict, con):
        return report_data_on(con, verdict, max_events)


def report_data_on(con: duckdb.DuckDBPyConnection, verdict: Verdict, max_events: int = 20000) -> ReportData:
    """The report's inputs from an analysed timeline still open on ``con``
    (``correlator.analysis.analyze.analysis_open``)."""
    from correlator.report.sample import report_events

    return ReportData(verdict, report_events(con, max_events), report_facts(con))


def prepare(
    verdict: Verdict, events: pa.Table | None, facts: pa.Table | None, redact: bool
) -> tuple[Verdict, pa.Table, pa.Table]:
    """Inputs made safe to render: missing tables filled, secrets masked."""
    if events is None:
        from correlator.report.sample import empty_events

        events = empty_events()
    if facts is None:
        facts = empty_facts()
    if redact:
        verdict = redact_verdict(verdict)
        events = redact_table(events, [c for c in ("message", "template", "file") if c in events.column_names])
        facts = redact_table(facts, [c for c in ("message", "file", "attrs") if c in facts.column_names])
    return verdict, events, facts


# --------------------------------------------------------------------------- small helpers


def fmt_ts(ts: datetime | None, with_date: bool = True) -> str:
    if ts is None:
        return "no time"
    ts = ts.astimezone(UTC) if ts.tzinfo else ts.replace(tzinfo=UTC)
    return ts.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3] + " UTC" if with_date else ts.strftime("%H:%M:%S")


def evidence_ts(e: Evidence) -> str:
    """The evidence's time, marked when it is only an estimate from the lines around it."""
    if e.ts is not None and e.ts_estimated:
        return f"~{fmt_ts(e.ts)} (estimated: no stamp of its own)"
    return fmt_ts(e.ts)


def span(e: Evidence) -> str:
    return f"{e.line_no}" if not e.line_end or e.line_end == e.line_no else f"{e.line_no}-{e.line_end}"


def who(e: Evidence) -> str:
    parts = []
    if e.rank is not None:
        parts.append(f"rank {e.rank}")
    if e.node:
        parts.append(e.node)
    return ", ".join(parts) or "launcher/node"


def anchor(file: str, line_no: int) -> str:
    """A stable HTML id for file:line (the same line cited twice shares it)."""
    return "L-" + re.sub(r"[^A-Za-z0-9_.-]", "_", file) + "-" + str(int(line_no))


def clip_lines(text: str, max_lines: int = 12, width: int = 240) -> list[str]:
    """The event's lines, long ones cut, a long traceback kept at its head and tail."""
    lines = [ln.rstrip() for ln in text.splitlines()] or [""]
    if len(lines) > max_lines:
        head = max(1, max_lines // 3)
        lines = [*lines[:head], f"… ({len(lines) - max_lines + 1} lines) …", *lines[-(max_lines - head - 1):]]
    return [ln if len(ln) <= width else ln[: width - 1] + "…" for ln in lines]


def first_line(text: str, width: int = 160) -> str:
    for ln in text.splitlines():
        if ln.strip():
            return ln if len(ln) <= width else ln[: width - 1] + "…"
    return ""


def who_ranks(ranks: list[int], nodes: list[str], width: int = 80) -> str:
    """'5 ranks (0-3,5)', or the nodes for node-level evidence; a long list of
    ranges is cut at ``width`` (the verdict JSON has them all)."""
    if ranks:
        rs = ranges(ranks)
        if len(rs) > width:
            rs = rs[: rs.rfind(",", 0, width)] + ",…"
        return f"{len(ranks)} rank{'s' if len(ranks) != 1 else ''} ({rs})"
    text = ", ".join(nodes) or "node-level"
    return text if len(text) <= width else text[: text.rfind(",", 0, width)] + ", …"


def status_line(v: Verdict) -> str:
    s = v.status.upper()
    if v.initiating:
        s += f" (confidence {v.initiating.confidence:.2f})"
    return s


def initiating_text(v: Verdict) -> str:
    i = v.initiating
    if i is None:
        return "not determined" if v.status != "healthy" else "none (healthy)"
    if i.all_ranks:
        return "all ranks alike (configuration or code, not one bad rank)"
    parts = [f"rank {i.rank}" if i.rank is not None else "no single rank"]
    if i.node:
        parts.append(f"node {i.node}")
    return ", ".join(parts)


def gpu_text(v: Verdict, events: pa.Table, facts: pa.Table) -> str:
    """The initiating GPU: the verdict's, else its local rank's device, else an Xid's PCI bus."""
    i = v.initiating
    if i is None or i.all_ranks:
        return "—"
    if i.gpu:
        return i.gpu
    local = i.local_rank
    if local is None and i.rank is not None and "local_rank" in events.column_names and events.num_rows:
        locs = [r["local_rank"] for r in events.select(["rank", "local_rank"]).to_pylist()
                if r["rank"] == i.rank and r["local_rank"] is not None]
        local = Counter(locs).most_common(1)[0][0] if locs else None
    xids = [f.get("pci") for f in xid_rows(facts) if f.get("node") == i.node and f.get("pci")]
    parts = []
    if local is not None:
        parts.append(f"cuda:{local} (local rank {local})")
    if xids:
        parts.append("Xid on PCI " + ", ".join(sorted(set(xids))))
    return "; ".join(parts) or "unknown"


# --------------------------------------------------------------------------- facts


def _attrs(value: object) -> dict[str, str]:
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    return dict(value)  # pyarrow gives a map as a list of (key, value) pairs


# Environment keys shown first, in this order, when present.
ENV_KEYS = (
    "pytorch_version", "cuda_used_to_build_pytorch", "cuda_runtime_version", "nvidia_driver_version",
    "cudnn_version", "python_version", "os", "gpu_models_and_configuration", "smi.driver_version",
    "smi.cuda_version", "smi.gpus",
)


@dataclass
class EnvMatrix:
    """One row per node (or per reporting file), one column per fact."""

    rows: list[str]  # row labels (node, or node + file when a node has several reports)
    cites: list[tuple[str, int]]  # file, line of each row's report
    columns: list[str]
    values: list[list[str | None]]  # [row][column]
    deviating: list[list[bool]]  # cells that differ from the majority of nodes
    identical: list[tuple[str, str]]  # facts the same everywhere (folded away)


def env_matrix(facts: pa.Table, max_columns: int = 40) -> EnvMatrix:
    """Per-node environment from collect_env reports and nvidia-smi tables.

    A column is kept when it differs between rows or is a key fact (``ENV_KEYS``);
    facts equal everywhere are listed apart. A cell deviates when its value is not
    the single most common one of its column (with a tie, every differing cell does).
    """
    per_row: dict[str, dict[str, str]] = {}
    cites: dict[str, tuple[str, int]] = {}
    for f in facts.to_pylist() if facts.num_rows else []:
        if f["source"] == "collect_env":
            attrs = {k: v for k, v in _attrs(f["attrs"]).items()}
        elif f["kind"] == "nvidia_smi.table":
            a = _attrs(f["attrs"])
            attrs = {f"smi.{k}": a[k] for k in ("driver_version", "cuda_version", "gpus") if k in a}
        else:
            continue
        node = f["node"] or f["file"]
        label = node
        if label in per_row and f["source"] == "collect_env" and any(
            k in per_row[label] and per_row[label][k] != v for k, v in attrs.items()
        ):
            label = f"{node} ({f['file']})"  # two reports on one node that disagree: keep both
        per_row.setdefault(label, {}).update(attrs)
        cites.setdefault(label, (f["file"], f["line_no"]))
    rows = sorted(per_row, key=natural_key)
    keys = {k for r in per_row.values() for k in r}
    differing = [k for k in keys if len({per_row[r].get(k) for r in rows}) > 1]
    key_facts = [k for k in ENV_KEYS if k in keys]
    cols = key_facts + sorted((k for k in differing if k not in key_facts), key=_env_order)
    cols = cols[:max_columns]
    identical = sorted(
        ((k, next(iter({per_row[r].get(k) for r in rows}))) for k in keys if k not in differing and k not in cols),
        key=lambda kv: _env_order(kv[0]),
    ) if len(rows) > 1 else []
    values = [[per_row[r].get(c) for c in cols] for r in rows]
    dev = [[False] * len(cols) for _ in rows]
    for j, _c in enumerate(cols):
        counts = Counter(values[i][j] for i in range(len(rows)))
        if len(counts) < 2:
            continue
        (top, n1), *rest = counts.most_common()
        tie = rest and rest[0][1] == n1
        for i in range(len(rows)):
            dev[i][j] = tie or values[i][j] != top
    return EnvMatrix(rows, [cites[r] for r in rows], cols, values, dev, identical)


def _env_order(k: str) -> tuple[int, str]:
    return (1 if k.startswith(("pip.", "conda.")) else 0, k)


def natural_key(s: str | None) -> tuple:
    """'node-2' before 'node-10'."""
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s or "\uffff"))


def xid_rows(facts: pa.Table) -> list[dict]:
    """Kernel GPU events (Xid, fallen off the bus, OOM killer) as flat dicts."""
    out = []
    for f in facts.to_pylist() if facts.num_rows else []:
        if f["source"] != "kernel" and not (f["kind"] or "").startswith("kernel."):
            continue
        if f["kind"] == "kernel.gpu_uuid":
            continue
        a = _attrs(f["attrs"])
        out.append({
            "node": f["node"], "file": f["file"], "line_no": f["line_no"], "ts": f["ts"], "kind": f["kind"],
            "xid": a.get("xid"), "pci": a.get("pci"), "text": a.get("xid_text") or first_line(f["message"], 200),
        })
    return out


def smi_rows(facts: pa.Table) -> list[dict]:
    """One row per nvidia-smi snapshot: GPUs seen, driver, and GPUs reporting ECC errors."""
    out = []
    for f in facts.to_pylist() if facts.num_rows else []:
        if f["source"] != "nvidia_smi" or f["kind"] not in ("nvidia_smi.table", "nvidia_smi.query"):
            continue
        a = _attrs(f["attrs"])
        ecc = sorted(
            f"GPU {k.split('.')[0].removeprefix('gpu')}: {v}" for k, v in a.items()
            if k.endswith("ecc_uncorrected") and v not in ("0", "N/A", "-")
        )
        notes = [f"{k} = {v}" for k, v in a.items() if "ERR!" in v or "Unknown Error" in v]
        out.append({
            "node": f["node"], "file": f["file"], "line_no": f["line_no"], "ts": f["ts"],
            "driver": a.get("driver_version") or a.get("Driver Version"), "cuda": a.get("cuda_version"),
            "gpus": a.get("gpus"), "problems": ecc + notes,
        })
    return out


# --------------------------------------------------------------------------- evidence lines


@dataclass
class Line:
    """One cited line of the lines section: its anchor and why it is cited."""

    anchor: str
    ev: Evidence
    roles: list[str]


def evidence_lines(v: Verdict, events: pa.Table, lanes: Lanes | None = None, per_lane: bool = True) -> list[Line]:
    """The lines a report cites, in time order, each once: root cause, first
    deviating line, each hypothesis, each collateral group's first line, and the
    first collateral event of each rule in each chart lane (so every chart mark
    has a line to link to; per node for large jobs, so the list stays bounded).
    """
    found: dict[str, Line] = {}

    def add(e: Evidence | None, role: str) -> None:
        if e is None:
            return
        a = anchor(e.file, e.line_no)
        if a in found:
            if role not in found[a].roles:
                found[a].roles.append(role)
        else:
            found[a] = Line(a, e, [role])

    if v.root_cause:
        add(v.root_cause.evidence, "root cause")
    if v.first_deviating:
        add(Evidence(**v.first_deviating.model_dump(exclude={"context", "why"})), "first deviating")
    for h in v.hypotheses[1:]:
        add(h.evidence, f"hypothesis: {h.rule_id or h.category}")
    for c in v.collateral:
        add(c.first, f"collateral: {c.title}")
    if per_lane and events.num_rows and "role" in events.column_names:
        lanes = lanes or make_lanes(events)
        seen: set[tuple] = set()
        for r in events.filter(_eq(events, "role", "collateral")).to_pylist():
            key = (r.get("rule_id"), event_lane(r, lanes))
            if key not in seen:
                seen.add(key)
                add(row_evidence(r), f"collateral: {r.get('rule_id')}")
    return sorted(found.values(), key=lambda ln: (ln.ev.ts is None, ln.ev.ts or datetime.min.replace(tzinfo=UTC),
                                                  ln.ev.file, ln.ev.line_no))


def _eq(t: pa.Table, col: str, value: str) -> pa.Array:
    import pyarrow.compute as pc

    return pc.fill_null(pc.equal(t.column(col), value), False)


def row_evidence(r: dict) -> Evidence:
    return Evidence(file=r["file"], line_no=r["line_no"], line_end=r.get("line_end"), rank=r.get("rank"),
                    node=r.get("node"), ts=r.get("ts_aligned") or r.get("ts"), text=r.get("message") or "")


# --------------------------------------------------------------------------- lanes


@dataclass
class Lane:
    key: str
    label: str
    group: str  # node name the lane sits under


@dataclass
class Lanes:
    per_rank: bool
    lanes: list[Lane]
    node_of_rank: dict[int, str]


RANK_LANES_MAX = 64  # above this many ranks, one lane per node keeps the chart legible


def make_lanes(events: pa.Table, ranks_hint: int = 0) -> Lanes:
    """Lanes for the chart: one per rank grouped by node (plus a node-level lane
    where dmesg / nvidia-smi lines exist), or one per node for large jobs."""
    rows = events.select([c for c in ("rank", "node") if c in events.column_names]).to_pylist() \
        if events.num_rows else []
    node_votes: dict[int, Counter[str]] = defaultdict(Counter)
    nodes: set[str] = set()
    node_level: set[str] = set()
    has_job = False
    for r in rows:
        rank, node = r.get("rank"), r.get("node")
        if node:
            nodes.add(node)
        if rank is not None and node:
            node_votes[rank][node] += 1
        elif rank is None and node:
            node_level.add(node)
        elif rank is None:
            has_job = True
    ranks = sorted({r["rank"] for r in rows if r.get("rank") is not None})
    node_of_rank = {k: c.most_common(1)[0][0] for k, c in node_votes.items()}
    per_rank = max(len(ranks), ranks_hint) <= RANK_LANES_MAX
    lanes: list[Lane] = []
    if per_rank:
        by_node: dict[str, list[int]] = defaultdict(list)
        for rk in ranks:
            by_node[node_of_rank.get(rk, "")].append(rk)
        for node in sorted(set(by_node) | node_level, key=natural_key):
            for rk in by_node.get(node, []):
                lanes.append(Lane(f"r{rk}", f"rank {rk}", node or "(no node)"))
            if node and node in node_level:
                lanes.append(Lane(f"n{node}", "node", node))
    else:
        for node in sorted(nodes, key=natural_key):
            lanes.append(Lane(f"n{node}", node, node))
        if any(r.get("rank") is not None and not r.get("node") and r["rank"] not in node_of_rank for r in rows):
            has_job = True
    if has_job:
        lanes.append(Lane("job", "launcher / other", ""))
    return Lanes(per_rank, lanes, node_of_rank)


def event_lane(r: dict, lanes: Lanes) -> str:
    rank, node = r.get("rank"), r.get("node")
    if lanes.per_rank:
        if rank is not None:
            return f"r{rank}"
        return f"n{node}" if node else "job"
    if node:
        return f"n{node}"
    if rank is not None and rank in lanes.node_of_rank:
        return f"n{lanes.node_of_rank[rank]}"
    return "job"


# --------------------------------------------------------------------------- binning


@dataclass
class Cell:
    """What happened in one lane during one time bin."""

    info: int = 0
    warn: int = 0
    error: int = 0
    collateral: int = 0
    root: int = 0  # root-role findings (the winner's and competing ones)
    first: dict | None = None  # the earliest collateral / root event in the bin


@dataclass
class Binned:
    t0: float  # epoch seconds
    t1: float
    nbins: int
    cells: dict[str, dict[int, Cell]]  # lane key -> bin -> cell
    outside: dict[str, list[float]] = field(default_factory=dict)  # lane -> times left of the window

    def x(self, t: float) -> float:
        """0..1 position of t in the window."""
        return 0.0 if self.t1 <= self.t0 else min(1.0, max(0.0, (t - self.t0) / (self.t1 - self.t0)))


def event_rows(events: pa.Table) -> list[dict]:
    """Events with ``t`` (aligned epoch seconds, null where unstamped), in time order."""
    if not events.num_rows:
        return []
    cols = [c for c in ("rank", "node", "source", "level", "role", "rule_id", "file", "line_no", "kind", "message")
            if c in events.column_names]
    rows = events.select(cols).to_pylist()
    tcol = "ts_aligned" if "ts_aligned" in events.column_names else "ts"
    ts = events.column(tcol)
    if pa.types.is_timestamp(ts.type):
        import pyarrow.compute as pc

        micros = pc.cast(pc.cast(ts, pa.timestamp("us", tz="UTC")), pa.int64()).to_pylist()
        for r, us in zip(rows, micros, strict=True):
            r["t"] = us / 1e6 if us is not None else None
    else:
        for r in rows:
            r["t"] = None
    return rows


def bin_events(rows: list[dict], lanes: Lanes, t0: float, t1: float, nbins: int) -> Binned:
    b = Binned(t0, t1, nbins, defaultdict(dict))
    width = (t1 - t0) / nbins if t1 > t0 else 1.0
    for r in rows:
        t = r["t"]
        if t is None or t > t1:
            continue
        if t < t0:
            b.outside.setdefault(event_lane(r, lanes), []).append(t)
            continue
        i = min(nbins - 1, int((t - t0) / width))
        cell = b.cells[event_lane(r, lanes)].setdefault(i, Cell())
        lvl = r.get("level")
        if lvl in ("ERROR", "CRITICAL"):
            cell.error += 1
        elif lvl == "WARNING":
            cell.warn += 1
        else:
            cell.info += 1
        role = r.get("role")
        if role in ("collateral", "root"):
            if role == "collateral":
                cell.collateral += 1
            else:
                cell.root += 1
            if cell.first is None or (cell.first.get("role") == "collateral" and role == "root"):
                cell.first = r
    return b


def time_window(rows: list[dict]) -> tuple[float, float] | None:
    """The job's time span. Kernel lines that are no finding are left out: dmesg
    keeps boot messages from days before the job, which would squash the chart."""
    ts = [r["t"] for r in rows if r["t"] is not None and (r.get("source") != "kernel" or r.get("role"))]
    if not ts:
        ts = [r["t"] for r in rows if r["t"] is not None]
    if not ts:
        return None
    t0, t1 = min(ts), max(ts)
    if t1 - t0 < 1.0:
        t0, t1 = t0 - 0.5, t1 + 0.5
    return t0, t1


def failure_window(v: Verdict, rows: list[dict], whole: tuple[float, float]) -> tuple[float, float] | None:
    """The stretch from the first sign of trouble to the end, when it is a small part
    of the job (a 600 s timeout after hours of training): worth a zoomed chart."""
    marks = []
    if v.first_deviating and v.first_deviating.ts:
        marks.append(v.first_deviating.ts.timestamp())
    if v.root_cause and v.root_cause.evidence and v.root_cause.evidence.ts:
        marks.append(v.root_cause.evidence.ts.timestamp())
    marks += [r["t"] for r in rows if r["t"] is not None and r.get("role") in ("root", "collateral")]
    if not marks:
        return None
    start, end = min(marks), whole[1]
    length = end - start
    pad = max(5.0, 0.1 * length)
    start = max(whole[0], start - pad)
    if end - start > 0.4 * (whole[1] - whole[0]):
        return None
    return start, end + min(pad, 0.02 * (end - start) + 1)
