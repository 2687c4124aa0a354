"""The verdict as one self-contained HTML page.

It must open on an air-gapped cluster and print on paper, so everything is inline:
CSS, an SVG chart drawn here, and a few lines of JavaScript that only add a time
cursor (the page reads the same without it). No fonts, images or scripts are
fetched; the page makes no request at all.

The chart has one lane per rank grouped by node (one per node above
``RANK_LANES_MAX`` ranks), aligned time on the x axis, event density per lane,
warnings and errors, collateral and root-cause findings, and the first deviating
line; every mark links to its line in the "Cited lines" section. Density is
drawn as merged runs, one path per lane and shade, so a 1,024-rank job stays
well under a few MB.
"""

from __future__ import annotations

import html
import math
import re
from datetime import UTC, datetime

import pyarrow as pa

from correlator import __version__
from correlator.report.common import (
    Binned,
    Lanes,
    Line,
    anchor,
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
    time_window,
    who,
    who_ranks,
    xid_rows,
)
from correlator.verdict import Evidence, Verdict

_W = 1160  # SVG user units; the SVG scales to the page width
_LABEL_W = 170
_RIGHT = 14
_AXIS_H = 34
_BINS = 420  # time bins across the plot (about 2.3 units each)

_CSS = """
:root { --fg:#1d2430; --muted:#5b6573; --line:#d8dde5; --bg:#ffffff; --card:#f6f8fb;
  --err:#c62828; --warn:#e0a100; --info:#6d8bb3; --coll:#ef6c00; --root:#b71c1c; --dev:#6a1b9a; --hl:#fff3c4; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: var(--fg); background: var(--bg); margin: 0 auto; padding: 18px 22px 40px; max-width: 1240px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 26px 0 8px;
  border-bottom: 1px solid var(--line); padding-bottom: 3px; }
h3 { font-size: 14px; margin: 14px 0 6px; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--card); border: 1px solid var(--line); border-radius: 4px; padding: 8px 10px;
  overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: 6px 0; }
a { color: #1c5fb8; text-decoration: none; } a:hover { text-decoration: underline; }
.sub { color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; }
.card table { border: 0; } .card th { text-align: left; vertical-align: top; padding: 3px 14px 3px 0;
  color: var(--muted); font-weight: 600; white-space: nowrap; } .card td { padding: 3px 0; }
.badge { display: inline-block; padding: 1px 9px; border-radius: 10px; color: #fff; font-weight: 700;
  font-size: 12px; letter-spacing: .04em; vertical-align: middle; }
.badge.failed { background: var(--err); } .badge.healthy { background: #2e7d32; }
.badge.inconclusive { background: #8d6e00; }
table.grid { border-collapse: collapse; width: 100%; margin: 6px 0; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 3px 7px; text-align: left;
  vertical-align: top; } table.grid th { background: var(--card); }
td.dev { background: #ffd9d6; font-weight: 700; } tr.winner td { background: #fdecea; }
tr.initiating th { color: var(--err); }
.chart { width: 100%; height: auto; display: block; border: 1px solid var(--line); border-radius: 4px;
  background: #fff; }
.chart text { font: 11px system-ui, sans-serif; fill: var(--fg); }
.chart .lbl { fill: var(--muted); } .chart .grp { font-weight: 700; }
.chart .tick { stroke: #e9edf2; } .chart .d1 { fill: #c5d3e6; } .chart .d2 { fill: #8fa9cc; }
.chart .d3 { fill: #5a7aa6; } .chart .warn { fill: var(--warn); } .chart .err { fill: var(--err); }
.chart .coll { fill: none; stroke: var(--coll); stroke-width: 1.6; }
.chart .rootf { fill: #fff; stroke: var(--root); stroke-width: 1.6; }
.chart .root { fill: var(--root); stroke: #000; stroke-width: 1; }
.chart .fd { stroke: var(--dev); stroke-width: 1.5; stroke-dasharray: 4 3; }
.chart .fdm { fill: var(--dev); } .chart .band { fill: #f3f5f9; } .chart .sep { stroke: #c9d1dc; }
.chart .cursor { stroke: #333; stroke-width: .6; }
.legend { color: var(--muted); font-size: 12px; margin: 4px 0 10px; }
.legend span { margin-right: 14px; white-space: nowrap; }
.sw { display: inline-block; width: 11px; height: 11px; vertical-align: -1px; margin-right: 4px; border-radius: 2px; }
.lines .ln { margin: 8px 0 12px; } .lines .cite { font-size: 12.5px; }
.lines .role { display: inline-block; font-size: 11px; background: #eef1f6; border-radius: 3px;
  padding: 0 5px; margin-left: 6px; color: var(--muted); }
.ln:target pre, pre:target, .ref:target { background: var(--hl); border-color: #d9b300; }
.lines .same { font-size: 12.5px; margin: -2px 0 0 10px; } .lines .ref { white-space: nowrap; }
pre.ctx .hit { background: #ffd9d6; display: block; font-weight: 700; }
details summary { cursor: pointer; color: var(--muted); }
.foot { color: var(--muted); font-size: 12px; margin-top: 30px; border-top: 1px solid var(--line); padding-top: 6px; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; }
  h2 { break-after: avoid; } .card, .ln, svg, table { break-inside: avoid; }
  a { color: inherit; } pre { white-space: pre-wrap; } details { display: block; }
  .noprint { display: none; }
}
"""

# The only script: a time cursor over the charts. Everything else is static.
_JS = """
(function () {
  function fmt(t) { var d = new Date(t * 1000); return d.toISOString().slice(11, 23) + ' UTC'; }
  var charts = document.querySelectorAll('svg.chart');
  Array.prototype.forEach.call(charts, function (svg) {
    var t0 = parseFloat(svg.getAttribute('data-t0')), t1 = parseFloat(svg.getAttribute('data-t1'));
    var x0 = parseFloat(svg.getAttribute('data-x0')), x1 = parseFloat(svg.getAttribute('data-x1'));
    var cur = svg.querySelector('.cursor'), lab = svg.querySelector('.cursor-label');
    if (!cur || !lab || !(t1 > t0)) { return; }
    svg.addEventListener('mousemove', function (ev) {
      var box = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
      var x = (ev.clientX - box.left) * vb.width / box.width;
      if (x < x0 || x > x1) { cur.setAttribute('visibility', 'hidden'); lab.setAttribute('visibility', 'hidden'); return; }
      cur.setAttribute('x1', x); cur.setAttribute('x2', x); cur.setAttribute('visibility', 'visible');
      lab.setAttribute('x', Math.min(x + 4, x1 - 110)); lab.setAttribute('visibility', 'visible');
      lab.textContent = fmt(t0 + (x - x0) / (x1 - x0) * (t1 - t0));
    });
    svg.addEventListener('mouseleave', function () {
      cur.setAttribute('visibility', 'hidden'); lab.setAttribute('visibility', 'hidden');
    });
  });
  document.documentElement.setAttribute('data-ready', '1');
})();
"""


def _e(s: object) -> str:
    return html.escape("" if s is None else str(s), quote=True)


def render_html(
    verdict: Verdict,
    events: pa.Table | None = None,
    facts: pa.Table | None = None,
    *,
    redact: bool = True,
    title: str | None = None,
) -> str:
    """The report page for ``verdict``.

    ``events``: the event sample (``analyze_with_events``); ``facts``: node facts
    (``correlator.report.common.report_facts``) for the environment and GPU
    sections; either may be omitted (those sections then say so). Secrets are
    masked unless ``redact=False``.
    """
    v, events, facts = prepare(verdict, events, facts, redact)
    rows = event_rows(events)
    lanes = make_lanes(events, v.ranks)
    lines = evidence_lines(v, events, lanes)
    cited = {ln.anchor for ln in lines}
    out: list[str] = []
    add = out.append
    page_title = title or f"correlator: {v.job}"
    add("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
    add('<meta name="viewport" content="width=device-width, initial-scale=1">')
    # Forbid every fetch: the page must work air-gapped and leak nothing when opened.
    add("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">")
    add(f"<title>{_e(page_title)}</title><style>{_CSS}</style></head><body>")
    add(f"<h1>{_e(v.job)} <span class=\"badge {_e(v.status)}\">{_e(v.status.upper())}</span></h1>")
    add(f"<div class=\"sub\">{v.ranks} ranks, {v.nodes} nodes, {v.files} files, {v.events:,} events"
        + (f"; compared with baseline <code>{_e(v.baseline)}</code>" if v.baseline else "")
        + (f"; clocks aligned to {_e(v.reference_node)}" if any(c.applied for c in v.clock) else "") + "</div>")
    add(_summary(v, events, facts))
    add(_timeline(v, rows, lanes, cited))
    add(_first_deviating(v))
    add(_collateral(v))
    add(_environment(facts))
    add(_hardware(facts))
    add(_hypotheses(v))
    add(_clock_and_missing(v))
    add(_lines(lines))
    add(f"<div class=\"foot\">correlator {_e(__version__)} · generated {fmt_ts(datetime.now(UTC))} · "
        f"verdict schema {v.schema_version} · "
        + ("secrets masked (tokens, keys, passwords, URL credentials)" if redact else "<b>not redacted</b>")
        + "</div>")
    add(f"<script>{_JS}</script></body></html>\n")
    return "\n".join(out)


# --------------------------------------------------------------------------- sections


def _cite(e: Evidence | None, text: str | None = None) -> str:
    if e is None:
        return "—"
    label = text or f"{e.file}:{span(e)}"
    return (f"<a href=\"#{anchor(e.file, e.line_no)}\"><code>{_e(label)}</code></a> "
            f"<span class=\"sub\">({_e(who(e))}, {_e(evidence_ts(e))})</span>")


def _summary(v: Verdict, events: pa.Table, facts: pa.Table) -> str:
    rows: list[tuple[str, str]] = []
    conf = f" · confidence {v.initiating.confidence:.2f}" if v.initiating else ""
    rows.append(("Status", f"<span class=\"badge {_e(v.status)}\">{_e(v.status)}</span>{_e(conf)}"))
    rows.append(("Initiating", _e(initiating_text(v))))
    rows.append(("GPU", _e(gpu_text(v, events, facts))))
    rc = v.root_cause
    if rc:
        rows.append(("Root cause", f"<b>{_e(rc.title)}</b> <span class=\"sub\">[{_e(rc.category)}]"
                     + (f" rule <code>{_e(rc.rule_id)}</code>" if rc.rule_id else " (no rule: unclassified)")
                     + "</span>"))
        rows.append(("Evidence", _cite(rc.evidence)))
        rows.append(("Why", _e(rc.explanation)))
        rows.append(("Fix", _e(rc.fix) if rc.fix else "<span class=\"sub\">no fix known</span>"))
        rows.append(("Verify", f"<code>{_e(rc.verify)}</code>" if rc.verify else "<span class=\"sub\">—</span>"))
        if rc.basis:
            rows.append(("Basis", f"<span class=\"sub\">{_e('; '.join(rc.basis))}</span>"))
        if rc.rule_evidence:
            rows.append(("Rule evidence", f"<span class=\"sub\">{_e(rc.rule_evidence)}</span>"))
    elif v.status == "healthy":
        rows.append(("Root cause", "none: " + _e(v.status_reason or "the run reports a healthy end")))
    else:
        rows.append(("Root cause", "not determined (see hypotheses and missing facts)"))
    if v.first_deviating:
        rows.append(("First deviating line", _cite(v.first_deviating)))
    if v.collateral:
        rows.append(("Collateral", _e("; ".join(
            f"{c.title} on {who_ranks(c.ranks, c.nodes)}" for c in v.collateral[:4]))
            + (f" and {len(v.collateral) - 4} more" if len(v.collateral) > 4 else "")))
    body = "".join(f"<tr><th>{k}</th><td>{val}</td></tr>" for k, val in rows)
    return f"<h2 id=\"summary\">Summary</h2><div class=\"card\"><table>{body}</table></div>"



def _timeline(v: Verdict, rows: list[dict], lanes: Lanes, cited: set[str]) -> str:
    whole = time_window(rows)
    head = "<h2 id=\"timeline\">Timeline</h2>"
    if whole is None or not lanes.lanes:
        return head + "<p class=\"sub\">No time-stamped events to draw.</p>"
    what = "one lane per rank, grouped by node" if lanes.per_rank else "one lane per node (ranks collapsed)"
    parts = [head, f"<div class=\"legend\">{_e(what)}; aligned time (UTC) →. "
             "<span><i class=\"sw\" style=\"background:#8fa9cc\"></i>events (darker: more)</span>"
             "<span><i class=\"sw\" style=\"background:#e0a100\"></i>warning</span>"
             "<span><i class=\"sw\" style=\"background:#c62828\"></i>error</span>"
             "<span><i class=\"sw\" style=\"border:2px solid #ef6c00\"></i>collateral finding</span>"
             "<span><i class=\"sw\" style=\"background:#b71c1c;transform:rotate(45deg)\"></i>root cause</span>"
             "<span><i class=\"sw\" style=\"border:2px solid #b71c1c;transform:rotate(45deg)\"></i>other root finding</span>"
             "<span><i class=\"sw\" style=\"background:#6a1b9a;width:3px\"></i>first deviating line</span>"
             " Marks link to their lines.</div>"]
    parts.append(_chart(v, rows, lanes, cited, whole, "whole job"))
    untimed = [what for what, e in (("the root cause", v.root_cause.evidence if v.root_cause else None),
                                    ("the first deviating line", v.first_deviating)) if e is not None and e.ts is None]
    if untimed:
        parts.append(f"<p class=\"sub\">Not on the time axis: {_e(' and '.join(untimed))} (a line with no wall-clock "
                     "stamp, e.g. raw dmesg seconds since boot); see the cited lines.</p>")
    zoom = failure_window(v, rows, whole)
    if zoom:
        parts.append(f"<h3>Around the failure: {_e(fmt_ts(datetime.fromtimestamp(zoom[0], UTC)))} to "
                     f"{_e(fmt_ts(datetime.fromtimestamp(zoom[1], UTC), with_date=False))}</h3>")
        parts.append(_chart(v, rows, lanes, cited, zoom, "around the failure"))
    return "\n".join(parts)


def _nice_step(seconds: float, target: int) -> float:
    raw = seconds / max(1, target)
    for step in (0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200,
                 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 7 * 86400):
        if step >= raw:
            return step
    return 7 * 86400 * math.ceil(raw / (7 * 86400))


def _tick_label(t: float, step: float) -> str:
    d = datetime.fromtimestamp(t, UTC)
    if step >= 86400:
        return d.strftime("%m-%d")
    if step < 1:
        return d.strftime("%H:%M:%S.") + f"{d.microsecond // 100000}"
    return d.strftime("%H:%M:%S") if step < 60 else d.strftime("%H:%M")


def _chart(v: Verdict, rows: list[dict], lanes: Lanes, cited: set[str], window: tuple[float, float],
           label: str) -> str:
    t0, t1 = window
    n = len(lanes.lanes)
    lane_h = 13.0 if n <= 40 else 10.0 if n <= 80 else 8.0 if n <= 200 else max(2.0, 1600.0 / n)
    x0, x1 = float(_LABEL_W), float(_W - _RIGHT)
    pw = x1 - x0
    height = _AXIS_H + n * lane_h + 8
    b: Binned = bin_events(rows, lanes, t0, t1, _BINS)
    bw = pw / _BINS

    def xt(t: float) -> float:
        return x0 + b.x(t) * pw

    o: list[str] = []
    o.append(f"<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {_W} {height:.0f}\" "
             f"data-t0=\"{t0:.6f}\" data-t1=\"{t1:.6f}\" data-x0=\"{x0:.0f}\" data-x1=\"{x1:.0f}\" "
             f"data-lanes=\"{n}\" data-mode=\"{'rank' if lanes.per_rank else 'node'}\" role=\"img\" "
             f"aria-label=\"timeline, {_e(label)}: {n} lanes\">")
    # time axis
    step = _nice_step(t1 - t0, 9)
    first = math.ceil(t0 / step) * step
    ticks = []
    t = first
    while t <= t1 + 1e-9 and len(ticks) < 40:
        ticks.append(t)
        t += step
    o.append("<g class=\"axis\">")
    date = datetime.fromtimestamp(t0, UTC).strftime("%Y-%m-%d")
    o.append(f"<text x=\"4\" y=\"14\" class=\"lbl\">{date} UTC</text>")
    for t in ticks:
        x = xt(t)
        o.append(f"<line class=\"tick\" x1=\"{x:.1f}\" y1=\"{_AXIS_H - 6}\" x2=\"{x:.1f}\" y2=\"{height - 4:.0f}\"/>"
                 f"<text x=\"{x:.1f}\" y=\"{_AXIS_H - 10}\" text-anchor=\"middle\">{_tick_label(t, step)}</text>")
    o.append("</g>")
    # lanes (the root cause's lane is always labelled)
    rc_ev = v.root_cause.evidence if v.root_cause else None
    root_lane = event_lane({"rank": rc_ev.rank, "node": rc_ev.node}, lanes) if rc_ev else None
    prev_group = None
    # labels need ~10 units: every lane at 10 and up, else every 2nd, 3rd, ...
    label_every = 1 if lane_h >= 10 else math.ceil(10 / lane_h)
    for i, lane in enumerate(lanes.lanes):
        y = _AXIS_H + i * lane_h
        o.append(f"<g class=\"lane\" data-lane=\"{_e(lane.key)}\" data-group=\"{_e(lane.group)}\">")
        o.append(f"<title>{_e(lane.label if lanes.per_rank else lane.group or lane.label)}"
                 f"{' on ' + _e(lane.group) if lanes.per_rank and lane.group else ''}</title>")
        if lane.group != prev_group:
            o.append(f"<line class=\"sep\" x1=\"0\" y1=\"{y:.1f}\" x2=\"{_W}\" y2=\"{y:.1f}\"/>")
        if i % 2 == 0:
            o.append(f"<rect class=\"band\" x=\"{x0:.0f}\" y=\"{y:.1f}\" width=\"{pw:.0f}\" height=\"{lane_h:.1f}\"/>")
        if lanes.per_rank:
            if lane.group != prev_group and lane.group:
                o.append(f"<text class=\"grp\" x=\"4\" y=\"{y + lane_h - 3:.1f}\">{_e(_short(lane.group, 14))}</text>")
            o.append(f"<text class=\"lbl\" x=\"{x0 - 6:.0f}\" y=\"{y + lane_h - 3:.1f}\" text-anchor=\"end\">"
                     f"{_e(lane.label)}</text>")
        elif i % label_every == 0 or lane.key == root_lane:
            cls = "lbl grp" if lane.key == root_lane else "lbl"
            o.append(f"<text class=\"{cls}\" x=\"{x0 - 6:.0f}\" y=\"{y + lane_h - 0.5:.1f}\" text-anchor=\"end\" "
                     f"style=\"font-size:{min(11.0, lane_h * label_every - 1):.0f}px\">{_e(_short(lane.label, 24))}</text>")
        prev_group = lane.group
        o.append(_lane_marks(b.cells.get(lane.key, {}), y, lane_h, x0, bw, cited))
        early = b.outside.get(lane.key)
        if early:
            o.append(f"<text class=\"lbl early\" x=\"{x0 + 1:.0f}\" y=\"{y + lane_h - 2:.1f}\" "
                     f"style=\"font-size:{min(11.0, lane_h + 1):.0f}px\"><title>{len(early)} earlier event(s), "
                     f"from {_e(fmt_ts(datetime.fromtimestamp(min(early), UTC)))}</title>◂</text>")
        o.append("</g>")
    # the first deviating line across all lanes, and the root cause mark
    fd = v.first_deviating
    if fd and fd.ts and t0 <= fd.ts.timestamp() <= t1:
        x = xt(fd.ts.timestamp())
        o.append(f"<a href=\"#{anchor(fd.file, fd.line_no)}\"><g class=\"first-deviating\">"
                 f"<title>first deviating line: {_e(fd.file)}:{fd.line_no} ({_e(who(fd))}, {_e(evidence_ts(fd))})</title>"
                 f"<line class=\"fd\" x1=\"{x:.1f}\" y1=\"{_AXIS_H - 4}\" x2=\"{x:.1f}\" y2=\"{height - 4:.0f}\"/>"
                 f"{_marker_at(fd, lanes, x, lane_h, 'fdm', 'circle')}</g></a>")
    rc = v.root_cause
    if rc and rc.evidence and rc.evidence.ts and t0 <= rc.evidence.ts.timestamp() <= t1:
        e = rc.evidence
        x = xt(e.ts.timestamp())
        o.append(f"<a href=\"#{anchor(e.file, e.line_no)}\"><g class=\"root-cause\">"
                 f"<title>root cause: {_e(rc.title)} at {_e(e.file)}:{e.line_no} ({_e(who(e))})</title>"
                 f"{_marker_at(e, lanes, x, lane_h, 'root', 'diamond')}</g></a>")
    o.append(f"<line class=\"cursor\" x1=\"0\" x2=\"0\" y1=\"{_AXIS_H - 4}\" y2=\"{height - 4:.0f}\" visibility=\"hidden\"/>"
             f"<text class=\"cursor-label\" x=\"0\" y=\"{_AXIS_H - 22}\" visibility=\"hidden\"></text>")
    o.append("</svg>")
    return "".join(o)


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _lane_y(e: Evidence, lanes: Lanes, lane_h: float) -> float | None:
    key = event_lane({"rank": e.rank, "node": e.node}, lanes)
    for i, lane in enumerate(lanes.lanes):
        if lane.key == key:
            return _AXIS_H + i * lane_h + lane_h / 2
    return None


def _marker_at(e: Evidence, lanes: Lanes, x: float, lane_h: float, cls: str, shape: str) -> str:
    y = _lane_y(e, lanes, lane_h)
    if y is None:
        y = _AXIS_H - 4.0
    r = max(4.0, min(7.0, lane_h * 0.6))
    if shape == "circle":
        return f"<circle class=\"{cls}\" cx=\"{x:.1f}\" cy=\"{y:.1f}\" r=\"{r * 0.7:.1f}\"/>"
    return (f"<path class=\"{cls}\" d=\"M{x:.1f} {y - r:.1f}l{r:.1f} {r:.1f}l{-r:.1f} {r:.1f}"
            f"l{-r:.1f} {-r:.1f}z\"/>")


def _n(v: float) -> str:
    """A coordinate to 0.1 unit, without a trailing ".0"."""
    t = f"{v:.1f}"
    return t[:-2] if t.endswith(".0") else t


def _runs(bins: list[int], y: float, h: float, x0: float, bw: float) -> str:
    """Adjacent bins merged into one rectangle each: a compact path. Each rectangle
    after the first moves relative to the one before (``m dx 0``: a closed subpath
    leaves the pen at its start), so a lane of many runs does not repeat its y."""
    if not bins:
        return ""
    bins.sort()
    parts = []
    start = prev = bins[0]
    last_x: str | None = None
    for i in [*bins[1:], None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        x = f"{x0 + start * bw:.1f}"
        w = _n((prev - start + 1) * bw)
        move = f"M{x} {y:.1f}" if last_x is None else f"m{_n(float(x) - float(last_x))} 0"
        parts.append(f"{move}h{w}v{_n(h)}h-{w}z")
        last_x = x
        if i is not None:
            start = prev = i
    return "".join(parts)


def _lane_marks(cells: dict, y: float, lane_h: float, x0: float, bw: float, cited: set[str]) -> str:
    if not cells:
        return ""
    o = []
    pad = 1.0 if lane_h >= 5 else 0.0
    h = lane_h - 2 * pad
    shades: dict[str, list[int]] = {"d1": [], "d2": [], "d3": []}
    peak = max(c.info + c.warn + c.error for c in cells.values()) or 1
    warn, err = [], []
    for i, c in cells.items():
        total = c.info + c.warn + c.error
        if total:
            level = total / peak
            shades["d3" if level > 0.5 else "d2" if level > 0.12 else "d1"].append(i)
        if c.error:
            err.append(i)
        elif c.warn:
            warn.append(i)
    for cls, bins in shades.items():
        if bins:
            o.append(f"<path class=\"{cls}\" d=\"{_runs(bins, y + pad, h, x0, bw)}\"/>")
    # warnings and errors: the lower half of the lane, so density stays visible
    if warn:
        o.append(f"<path class=\"warn\" d=\"{_runs(warn, y + lane_h / 2, lane_h / 2 - pad, x0, bw)}\"/>")
    if err:
        o.append(f"<path class=\"err\" d=\"{_runs(err, y + lane_h / 2, lane_h / 2 - pad, x0, bw)}\"/>")
    # findings: one linked mark per bin
    for i in sorted(cells):
        c = cells[i]
        if not (c.collateral or c.root) or c.first is None:
            continue
        r = c.first
        a = anchor(r["file"], r["line_no"])
        cx = x0 + (i + 0.5) * bw
        what = "root finding" if c.root else "collateral"
        tip = (f"{what}: {r.get('rule_id') or ''} · {r.get('file')}:{r.get('line_no')}"
               f" · {first_line(r.get('message') or '', 120)}")
        size = max(3.0, min(5.5, lane_h / 2))
        if c.root:
            shape = (f"<path class=\"rootf\" d=\"M{cx:.1f} {y + lane_h / 2 - size:.1f}l{size:.1f} {size:.1f}"
                     f"l{-size:.1f} {size:.1f}l{-size:.1f} {-size:.1f}z\"/>")
        else:
            shape = (f"<rect class=\"coll\" x=\"{cx - size / 2:.1f}\" y=\"{y + lane_h / 2 - size / 2:.1f}\" "
                     f"width=\"{size:.1f}\" height=\"{size:.1f}\"/>")
        mark = f"<g class=\"finding {'rootfinding' if c.root else 'collateral'}\"><title>{_e(tip)}</title>{shape}</g>"
        o.append(f"<a href=\"#{a}\">{mark}</a>" if a in cited else mark)
    return "".join(o)


def _first_deviating(v: Verdict) -> str:
    fd = v.first_deviating
    head = "<h2 id=\"first-deviating\">First deviating line</h2>"
    if fd is None:
        return head + "<p class=\"sub\">No line deviates from the healthy ranks.</p>"
    ctx = fd.context[-15:]
    body = []
    if len(fd.context) > len(ctx):
        body.append(f"<span class=\"sub\">… {len(fd.context) - len(ctx)} earlier events in the verdict JSON</span>")
    for c in ctx:
        body.append(f"<span class=\"sub\">{c.line_no:>7}</span>  {_e(first_line(c.text, 200))}")
    hit = "\n".join(f"{_e(ln)}" for ln in clip_lines(fd.text, 16))
    body.append(f"<span class=\"hit\">{fd.line_no:>7}  {hit}</span>")
    return (head + f"<p>{_cite(fd)} — <i>{_e(fd.why)}</i></p>"
            f"<pre class=\"ctx\">{chr(10).join(body)}</pre>")


def _collateral(v: Verdict) -> str:
    head = "<h2 id=\"collateral\">Collateral (echoes of the root cause)</h2>"
    if not v.collateral:
        return head + "<p class=\"sub\">None.</p>"
    rows = "".join(
        f"<tr><td><b>{_e(c.title)}</b><br><span class=\"sub\">{_e(c.rule_id)} [{_e(c.category)}]</span></td>"
        f"<td>{_e(who_ranks(c.ranks, c.nodes))}</td><td>{_e(', '.join(c.nodes[:12]))}"
        f"{' …' if len(c.nodes) > 12 else ''}</td><td>{c.count}</td><td>{_cite(c.first)}</td></tr>"
        for c in v.collateral
    )
    return (head + "<table class=\"grid\"><tr><th>failure</th><th>ranks</th><th>nodes</th><th>events</th>"
            f"<th>first</th></tr>{rows}</table>")


def _environment(facts: pa.Table) -> str:
    head = "<h2 id=\"environment\">Environment per node</h2>"
    m = env_matrix(facts)
    if not m.rows:
        return head + ("<p class=\"sub\">No <code>collect_env</code> report or nvidia-smi table in the logs. "
                       "Save <code>python -m torch.utils.collect_env</code> on every node to compare them.</p>")
    ths = "".join(f"<th>{_e(c)}</th>" for c in m.columns)
    body = []
    for i, r in enumerate(m.rows):
        f, ln = m.cites[i]
        tds = "".join(
            f"<td class=\"dev\" title=\"differs from the other nodes\">{_e(val)}</td>" if m.deviating[i][j]
            else f"<td>{_e(val) if val is not None else '<span class=sub>—</span>'}</td>"
            for j, val in enumerate(m.values[i])
        )
        body.append(f"<tr><th>{_e(r)}<br><span class=\"sub mono\">{_e(f)}:{ln}</span></th>{tds}</tr>")
    n_dev = sum(any(row) for row in zip(*m.deviating, strict=False)) if m.deviating else 0
    note = (f"<p><b>{n_dev} fact{'s' if n_dev != 1 else ''} differ between nodes</b> (highlighted).</p>" if n_dev
            else "<p class=\"sub\">All nodes report the same values.</p>")
    same = ""
    if m.identical:
        same = ("<details><summary>" + f"{len(m.identical)} facts identical on every node</summary>"
                + "<table class=\"grid\">" + "".join(f"<tr><th>{_e(k)}</th><td>{_e(val)}</td></tr>"
                                                    for k, val in m.identical) + "</table></details>")
    return (head + note + "<div style=\"overflow-x:auto\"><table class=\"grid env\"><tr><th>node</th>"
            + ths + "</tr>" + "".join(body) + "</table></div>" + same)


def _hardware(facts: pa.Table) -> str:
    head = "<h2 id=\"gpu\">GPU and kernel (nvidia-smi, Xid)</h2>"
    xids = xid_rows(facts)
    smis = smi_rows(facts)
    if not xids and not smis:
        return head + "<p class=\"sub\">No nvidia-smi output and no NVRM / Xid kernel lines in the logs.</p>"
    out = [head]
    if xids:
        out.append("<h3>Kernel GPU events</h3><table class=\"grid\"><tr><th>node</th><th>time</th><th>event</th>"
                   "<th>PCI</th><th>text</th><th>line</th></tr>")
        for x in xids:
            what = f"Xid {x['xid']}" if x.get("xid") else (x["kind"] or "").removeprefix("kernel.")
            out.append(f"<tr><td>{_e(x['node'])}</td><td>{_e(fmt_ts(x['ts']))}</td><td><b>{_e(what)}</b></td>"
                       f"<td class=\"mono\">{_e(x.get('pci') or '')}</td><td>{_e(x['text'])}</td>"
                       f"<td class=\"mono\">{_e(x['file'])}:{x['line_no']}</td></tr>")
        out.append("</table>")
    else:
        out.append("<p class=\"sub\">No NVRM / Xid kernel lines.</p>")
    if smis:
        out.append("<h3>nvidia-smi snapshots</h3><table class=\"grid\"><tr><th>node</th><th>time</th><th>driver</th>"
                   "<th>CUDA</th><th>GPUs</th><th>problems</th><th>line</th></tr>")
        gpus = [s["gpus"] for s in smis if s.get("gpus")]
        usual = max(set(gpus), key=gpus.count) if gpus else None
        for s in smis:
            missing = s.get("gpus") and usual and s["gpus"] != usual
            probs = list(s["problems"]) + ([f"{s['gpus']} GPUs where other nodes show {usual}"] if missing else [])
            out.append(f"<tr><td>{_e(s['node'])}</td><td>{_e(fmt_ts(s['ts']))}</td><td>{_e(s.get('driver') or '')}</td>"
                       f"<td>{_e(s.get('cuda') or '')}</td><td{' class=dev' if missing else ''}>{_e(s.get('gpus') or '')}</td>"
                       f"<td{' class=dev' if probs else ''}>{_e('; '.join(probs) or 'none')}</td>"
                       f"<td class=\"mono\">{_e(s['file'])}:{s['line_no']}</td></tr>")
        out.append("</table>")
    return "".join(out)


def _hypotheses(v: Verdict) -> str:
    head = "<h2 id=\"hypotheses\">Hypotheses</h2>"
    if not v.hypotheses:
        return head + "<p class=\"sub\">None considered.</p>"
    rows = []
    for i, h in enumerate(v.hypotheses):
        who_ = f"rank {h.rank}" if h.rank is not None else (h.node or "all ranks")
        won = i == 0 and v.root_cause is not None
        rows.append(f"<tr{' class=winner' if won else ''}><td>{_e(h.rule_id or 'unclassified')}</td>"
                    f"<td>{_e(h.category)}</td><td>{_e(who_)}</td><td>{h.score:.2f}</td>"
                    f"<td>{'<b>chosen</b>' if won else _e(h.why_not or '')}</td><td>{_cite(h.evidence)}</td></tr>")
    return (head + "<table class=\"grid\"><tr><th>rule</th><th>category</th><th>where</th><th>score</th>"
            "<th>why it lost</th><th>evidence</th></tr>" + "".join(rows) + "</table>")


def _clock_and_missing(v: Verdict) -> str:
    out = []
    if v.clock:
        out.append("<h2 id=\"clocks\">Clock offsets</h2><table class=\"grid\"><tr><th>node</th><th>offset</th>"
                   "<th>sync points</th><th>spread</th><th>applied</th></tr>")
        for c in v.clock:
            out.append(f"<tr><td>{_e(c.node)}</td><td>{c.offset_s:+.3f} s</td><td>{c.keys}</td>"
                       f"<td>{c.spread_s:.3f} s</td><td>{'yes' if c.applied else 'no'}</td></tr>")
        out.append(f"</table><p class=\"sub\">Reference node: {_e(v.reference_node)}.</p>")
    if v.missing:
        out.append("<h2 id=\"missing\">Missing facts</h2><ul>"
                   + "".join(f"<li>{_e(m)}</li>" for m in v.missing) + "</ul>")
    return "".join(out)


def _lines(lines: list[Line]) -> str:
    """Each cited line once. Lines that say the same thing (the same text but for
    its numbers, in the same roles: one collateral echo on 900 ranks) show their
    text once; the others are named by reference below it, each with its own anchor,
    so every chart mark still links to its line and the page stays small."""
    out = ["<h2 id=\"lines\">Cited lines</h2><div class=\"lines\">"]
    if not lines:
        out.append("<p class=\"sub\">No evidence lines.</p>")
    groups: dict[tuple[str, tuple[str, ...]], list[Line]] = {}
    for ln in lines:
        groups.setdefault((_DIGITS.sub("0", ln.ev.text), tuple(ln.roles)), []).append(ln)
    for first, *same in groups.values():
        e = first.ev
        roles = "".join(f"<span class=\"role\">{_e(r)}</span>" for r in first.roles[:4])
        text = "\n".join(_e(x) for x in clip_lines(e.text, 8, 200))
        out.append(f"<div class=\"ln\" id=\"{first.anchor}\"><div class=\"cite\"><code>{_e(e.file)}:{span(e)}</code> "
                   f"<span class=\"sub\">{_e(who(e))} · {_e(evidence_ts(e))}</span>{roles}</div><pre>{text}</pre>")
        if same:
            refs = ", ".join(
                f"<span class=\"ref\" id=\"{ln.anchor}\"><code>{_e(ln.ev.file)}:{span(ln.ev)}</code> "
                f"<span class=\"sub\">{_e(_who_short(ln.ev))}</span></span>" for ln in same)
            out.append(f"<div class=\"same\"><span class=\"sub\">The same line (numbers aside) at "
                       f"{len(same):,} more place{'s' if len(same) != 1 else ''}:</span> {refs}</div>")
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


_DIGITS = re.compile(r"\d+")


def _who_short(e: Evidence) -> str:
    """Rank (else node) and time of day: what tells one echo from the next."""
    where = f"rank {e.rank}" if e.rank is not None else (e.node or "launcher/node")
    return f"{where}, {e.ts.strftime('%H:%M:%S')}" if e.ts else where
