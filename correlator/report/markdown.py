"""The verdict as Markdown, for an incident ticket or a GitHub issue.

The same content as the HTML page (summary, timeline, first deviating line,
collateral, environment per node, GPU / kernel facts, hypotheses, cited lines),
in what renders everywhere: tables, fenced blocks, and the timeline drawn in
characters. It stays well under a GitHub comment's 65,536 characters for
ordinary jobs: the cited lines are the verdict's, not one per chart lane.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pyarrow as pa

from correlator import __version__
from correlator.report.common import (
    Lanes,
    bin_events,
    clip_lines,
    env_matrix,
    event_lane,
    event_rows,
    evidence_lines,
    evidence_ts,
    failure_window,
    first_line,
    fmt_ts,
    gpu_text,
    initiating_text,
    make_lanes,
    prepare,
    smi_rows,
    span,
    status_line,
    time_window,
    who,
    who_ranks,
    xid_rows,
)
from correlator.report.redact import redact as redact_text
from correlator.verdict import Evidence, Verdict

CHART_COLS = 72
CHART_LANES_MAX = 96  # more lanes than this: only the lanes where something went wrong


def _cell(s: object) -> str:
    """Text safe inside a Markdown table cell."""
    text = "" if s is None else str(s)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ⏎ ").replace("\r", "")


def _code(s: object) -> str:
    text = _cell(s)
    ticks = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (ticks + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _fence(lines: list[str], lang: str = "text") -> str:
    body = "\n".join(lines)
    ticks = max((len(m) for m in re.findall(r"`{3,}", body)), default=2)
    fence = "`" * max(3, ticks + 1)
    return f"{fence}{lang}\n{body}\n{fence}"


def _cite(e: Evidence | None) -> str:
    if e is None:
        return "—"
    return f"{_code(f'{e.file}:{span(e)}')} ({_cell(who(e))}, {evidence_ts(e)})"


def render_markdown(
    verdict: Verdict,
    events: pa.Table | None = None,
    facts: pa.Table | None = None,
    *,
    redact: bool = True,
) -> str:
    """The report as Markdown; arguments as ``correlator.report.html.render_html``."""
    v, events, facts = prepare(verdict, events, facts, redact)
    out: list[str] = []
    add = out.append
    add(f"# correlator: {_cell(v.job)} — {status_line(v)}")
    add("")
    add(f"{v.ranks} ranks, {v.nodes} nodes, {v.files} files, {v.events:,} events"
        + (f"; compared with baseline {_code(v.baseline)}" if v.baseline else "")
        + (f"; clocks aligned to {_cell(v.reference_node)}" if any(c.applied for c in v.clock) else ""))
    add("")
    add(_summary(v, events, facts))
    add(_timeline(v, events))
    add(_first_deviating(v))
    add(_collateral(v))
    add(_environment(facts))
    add(_hardware(facts))
    add(_hypotheses(v))
    add(_clock_and_missing(v))
    add(_lines(v, events))
    add(f"<sub>correlator {__version__} · generated {fmt_ts(datetime.now(UTC))} · "
        + ("secrets masked" if redact else "**not redacted**") + "</sub>")
    text = "\n".join(out).rstrip() + "\n"
    # a last pass over the whole text: whatever a section composed from parts is masked too
    return redact_text(text) if redact else text


def _summary(v: Verdict, events: pa.Table, facts: pa.Table) -> str:
    rows: list[tuple[str, str]] = [("Status", status_line(v).lower()), ("Initiating", initiating_text(v)),
                                   ("GPU", gpu_text(v, events, facts))]
    rows = [(k, _cell(val)) for k, val in rows]
    rc = v.root_cause
    if rc:
        rows.append(("Root cause", f"**{_cell(rc.title)}** `[{rc.category}]`"
                     + (f" rule {_code(rc.rule_id)}" if rc.rule_id else " (no rule: unclassified)")))
        rows.append(("Evidence", _cite(rc.evidence)))
        rows.append(("Why", _cell(rc.explanation)))
        rows.append(("Fix", _cell(rc.fix) if rc.fix else "_no fix known_"))
        rows.append(("Verify", _code(rc.verify) if rc.verify else "—"))
        if rc.basis:
            rows.append(("Basis", _cell("; ".join(rc.basis))))
        if rc.rule_evidence:
            rows.append(("Rule evidence", _cell(rc.rule_evidence)))
    elif v.status == "healthy":
        rows.append(("Root cause", "none: " + _cell(v.status_reason or "the run reports a healthy end")))
    else:
        rows.append(("Root cause", "not determined (see hypotheses and missing facts)"))
    if v.first_deviating:
        rows.append(("First deviating line", _cite(v.first_deviating)))
    if v.collateral:
        rows.append(("Collateral", _cell("; ".join(f"{c.title} on {who_ranks(c.ranks, c.nodes)}"
                                                   for c in v.collateral[:4]))
                     + (f" and {len(v.collateral) - 4} more" if len(v.collateral) > 4 else "")))
    return "\n".join(["## Summary", "", "| | |", "|---|---|", *[f"| **{k}** | {val} |" for k, val in rows], ""])



def _timeline(v: Verdict, events: pa.Table) -> str:
    rows = event_rows(events)
    lanes = make_lanes(events, v.ranks)
    whole = time_window(rows)
    head = ["## Timeline", ""]
    if whole is None or not lanes.lanes:
        return "\n".join([*head, "_No time-stamped events to draw._", ""])
    what = "one row per rank, grouped by node" if lanes.per_rank else "one row per node (ranks collapsed)"
    head.append(f"{what}; aligned time (UTC) left to right. `.` `:` events (`:` more), `w` warning, "
                "`E` error, `c` collateral finding, `r` other root finding, `X` root cause, "
                "`v` above the column of the first deviating line.")
    head.append("")
    parts = [*head, _chart(v, rows, lanes, whole)]
    untimed = [what for what, e in (("the root cause", v.root_cause.evidence if v.root_cause else None),
                                    ("the first deviating line", v.first_deviating)) if e is not None and e.ts is None]
    if untimed:
        parts += ["", f"Not on the time axis: {' and '.join(untimed)} (a line with no wall-clock stamp, e.g. raw "
                  "dmesg seconds since boot); see the cited lines."]
    zoom = failure_window(v, rows, whole)
    if zoom:
        parts += ["", "Around the failure:", "", _chart(v, rows, lanes, zoom)]
    parts.append("")
    return "\n".join(parts)


def _chart(v: Verdict, rows: list[dict], lanes: Lanes, window: tuple[float, float]) -> str:
    t0, t1 = window
    b = bin_events(rows, lanes, t0, t1, CHART_COLS)
    root_key = root_col = None
    rc = v.root_cause
    if rc and rc.evidence and rc.evidence.ts and t0 <= rc.evidence.ts.timestamp() <= t1:
        root_key = event_lane({"rank": rc.evidence.rank, "node": rc.evidence.node}, lanes)
        root_col = min(CHART_COLS - 1, int(b.x(rc.evidence.ts.timestamp()) * CHART_COLS))
    fd = v.first_deviating
    fd_col = (min(CHART_COLS - 1, int(b.x(fd.ts.timestamp()) * CHART_COLS))
              if fd and fd.ts and t0 <= fd.ts.timestamp() <= t1 else None)
    shown = lanes.lanes
    omitted = 0
    if len(shown) > CHART_LANES_MAX:
        busy = [ln for ln in shown if any(c.error or c.collateral or c.root for c in b.cells.get(ln.key, {}).values())
                or ln.key == root_key]
        omitted = len(shown) - len(busy)
        shown = busy[:CHART_LANES_MAX]
        omitted += len(busy) - len(shown)
    label_w = max([len(_label(ln, lanes)) for ln in shown] + [8])
    t0s = datetime.fromtimestamp(t0, UTC).strftime("%Y-%m-%d %H:%M:%S")
    t1s = datetime.fromtimestamp(t1, UTC).strftime("%H:%M:%S")
    lines = [" " * label_w + "  " + t0s + " " * max(1, CHART_COLS - len(t0s) - len(t1s)) + t1s]
    marker = [" "] * CHART_COLS
    if fd_col is not None:
        marker[fd_col] = "v"
    lines.append(" " * label_w + "  " + "".join(marker).rstrip())
    for ln in shown:
        cells = b.cells.get(ln.key, {})
        peak = max((c.info + c.warn + c.error for c in cells.values()), default=1) or 1
        chars = []
        for i in range(CHART_COLS):
            c = cells.get(i)
            if ln.key == root_key and i == root_col:
                ch = "X"
            elif c is None:
                ch = " "
            elif c.root:
                ch = "r"
            elif c.collateral:
                ch = "c"
            elif c.error:
                ch = "E"
            elif c.warn:
                ch = "w"
            else:
                ch = ":" if (c.info / peak) > 0.3 else "."
            chars.append(ch)
        lines.append(f"{_label(ln, lanes):>{label_w}} |{''.join(chars)}|")
    if omitted:
        lines.append(f"({omitted} quiet lanes without errors or findings not shown)")
    return _fence(lines)


def _label(lane, lanes: Lanes) -> str:
    if lanes.per_rank:
        return f"{lane.group} {lane.label}" if lane.group else lane.label
    return lane.label


def _first_deviating(v: Verdict) -> str:
    fd = v.first_deviating
    if fd is None:
        return "## First deviating line\n\n_No line deviates from the healthy ranks._\n"
    ctx = fd.context[-10:]
    lines = [f"{c.line_no:>7}  {first_line(c.text, 200)}" for c in ctx]
    hit = clip_lines(fd.text, 16)
    lines.append(f"{fd.line_no:>7} >{hit[0]}")
    lines += [" " * 8 + ">" + x for x in hit[1:]]
    return "\n".join(["## First deviating line", "", f"{_cite(fd)} — _{_cell(fd.why)}_", "", _fence(lines), ""])


def _collateral(v: Verdict) -> str:
    out = ["## Collateral (echoes of the root cause)", ""]
    if not v.collateral:
        return "\n".join([*out, "_None._", ""])
    out += ["| failure | rule | ranks | nodes | events | first |", "|---|---|---|---|---|---|"]
    for c in v.collateral:
        nodes = ", ".join(c.nodes[:8]) + (" …" if len(c.nodes) > 8 else "")
        out.append(f"| {_cell(c.title)} | {_code(c.rule_id)} `[{c.category}]` | {_cell(who_ranks(c.ranks, c.nodes))} | "
                   f"{_cell(nodes)} | {c.count} | {_cite(c.first)} |")
    return "\n".join([*out, ""])


def _environment(facts: pa.Table) -> str:
    out = ["## Environment per node", ""]
    m = env_matrix(facts)
    if not m.rows:
        return "\n".join([*out, "_No `collect_env` report or nvidia-smi table in the logs. Save "
                          "`python -m torch.utils.collect_env` on every node to compare them._", ""])
    n_dev = sum(any(col) for col in zip(*m.deviating, strict=False)) if m.deviating else 0
    out.append(f"**{n_dev} fact{'s' if n_dev != 1 else ''} differ between nodes** (marked ⚠)."
               if n_dev else "All nodes report the same values.")
    out.append("")

    def val(i: int, j: int) -> str:
        x = m.values[i][j]
        if x is None:
            return "—"
        return f"**⚠ {_cell(x)}**" if m.deviating[i][j] else _cell(x)

    if len(m.rows) <= 8:  # few nodes: one column per node reads better
        out.append("| fact | " + " | ".join(_cell(r) for r in m.rows) + " |")
        out.append("|---|" + "---|" * len(m.rows))
        for j, c in enumerate(m.columns):
            out.append(f"| {_code(c)} | " + " | ".join(val(i, j) for i in range(len(m.rows))) + " |")
        out.append("| _source_ | " + " | ".join(_code(f"{f}:{ln}") for f, ln in m.cites) + " |")
    else:
        out.append("| node | " + " | ".join(_code(c) for c in m.columns) + " |")
        out.append("|---|" + "---|" * len(m.columns))
        for i, r in enumerate(m.rows):
            out.append(f"| {_cell(r)} | " + " | ".join(val(i, j) for j in range(len(m.columns))) + " |")
    if m.identical:
        out += ["", f"<details><summary>{len(m.identical)} facts identical on every node</summary>", "",
                "| fact | value |", "|---|---|", *[f"| {_code(k)} | {_cell(x)} |" for k, x in m.identical],
                "", "</details>"]
    return "\n".join([*out, ""])


def _hardware(facts: pa.Table) -> str:
    out = ["## GPU and kernel (nvidia-smi, Xid)", ""]
    xids, smis = xid_rows(facts), smi_rows(facts)
    if not xids and not smis:
        return "\n".join([*out, "_No nvidia-smi output and no NVRM / Xid kernel lines in the logs._", ""])
    if xids:
        out += ["| node | time | event | PCI | text | line |", "|---|---|---|---|---|---|"]
        for x in xids:
            what = f"Xid {x['xid']}" if x.get("xid") else (x["kind"] or "").removeprefix("kernel.")
            out.append(f"| {_cell(x['node'])} | {fmt_ts(x['ts'])} | **{_cell(what)}** | {_cell(x.get('pci') or '')} | "
                       f"{_cell(x['text'])} | {_code(str(x['file']) + ':' + str(x['line_no']))} |")
    else:
        out.append("_No NVRM / Xid kernel lines._")
    if smis:
        gpus = [s["gpus"] for s in smis if s.get("gpus")]
        usual = max(set(gpus), key=gpus.count) if gpus else None
        out += ["", "nvidia-smi snapshots:", "", "| node | time | driver | CUDA | GPUs | problems | line |",
                "|---|---|---|---|---|---|---|"]
        for s in smis:
            probs = list(s["problems"])
            if s.get("gpus") and usual and s["gpus"] != usual:
                probs.append(f"⚠ {s['gpus']} GPUs where other nodes show {usual}")
            out.append(f"| {_cell(s['node'])} | {fmt_ts(s['ts'])} | {_cell(s.get('driver') or '')} | "
                       f"{_cell(s.get('cuda') or '')} | {_cell(s.get('gpus') or '')} | {_cell('; '.join(probs) or 'none')} | "
                       f"{_code(str(s['file']) + ':' + str(s['line_no']))} |")
    return "\n".join([*out, ""])


def _hypotheses(v: Verdict) -> str:
    out = ["## Hypotheses", ""]
    if not v.hypotheses:
        return "\n".join([*out, "_None considered._", ""])
    out += ["| rule | category | where | score | why it lost | evidence |", "|---|---|---|---|---|---|"]
    for i, h in enumerate(v.hypotheses):
        where = f"rank {h.rank}" if h.rank is not None else (h.node or "all ranks")
        won = i == 0 and v.root_cause is not None
        out.append(f"| {_code(h.rule_id or 'unclassified')} | {h.category} | {_cell(where)} | {h.score:.2f} | "
                   f"{'**chosen**' if won else _cell(h.why_not or '')} | {_cite(h.evidence)} |")
    return "\n".join([*out, ""])


def _clock_and_missing(v: Verdict) -> str:
    out: list[str] = []
    if v.clock:
        out += ["## Clock offsets", "", f"Reference node: {_cell(v.reference_node)}.", "",
                "| node | offset | sync points | spread | applied |", "|---|---|---|---|---|"]
        out += [f"| {_cell(c.node)} | {c.offset_s:+.3f} s | {c.keys} | {c.spread_s:.3f} s | "
                f"{'yes' if c.applied else 'no'} |" for c in v.clock]
        out.append("")
    if v.missing:
        out += ["## Missing facts", "", *[f"- {_cell(m)}" for m in v.missing], ""]
    return "\n".join(out)


def _lines(v: Verdict, events: pa.Table) -> str:
    lines = evidence_lines(v, events, per_lane=False)
    out = ["## Cited lines", ""]
    if not lines:
        return "\n".join([*out, "_No evidence lines._", ""])
    for ln in lines:
        e = ln.ev
        out.append(f"**{_code(f'{e.file}:{span(e)}')}** ({_cell(who(e))}, {evidence_ts(e)}) — "
                   + ", ".join(_cell(r) for r in ln.roles[:4]))
        out.append("")
        out.append(_fence(clip_lines(e.text, 10, 200)))
        out.append("")
    return "\n".join(out)
