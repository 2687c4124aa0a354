"""The batch's index: failures by category over time and the repeat offenders.

Reads the summary rows ``correlator.batch.run`` wrote and renders ``index.md`` and
``index.html``. A node (or GPU) is a repeat offender when it initiated more failed
jobs than chance predicts, given how many jobs it took part in.

Machines are keyed by host: a node the logs name (``files.hosts``) is the same machine
in every job, while a node known only by its directory's name (``node-1/``; the
summary's ``path_nodes``) is a machine of that job alone, keyed ``job/node-1``, so that
five jobs' ``node-1`` directories on five hosts are never added up. The directory names
a host went by are shown beside it (``initiating_node_alias``).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from correlator import __version__
from correlator.output import atomic_write_text
from correlator.timeline.collection import read_summary


@dataclass
class Offender:
    key: str  # machine, or "machine cuda:N" (machine: the host, or job/dir for a directory's name)
    node: str  # the machine part of the key
    gpu: str | None
    initiated: int
    exposure: int  # failed jobs it took part in
    expected: float  # initiations expected if every member were equally likely
    p_value: float  # chance of at least this many initiations under that assumption
    flag: str  # "suspect" (strong), "possible", or ""
    categories: dict[str, int]
    jobs: list[str]
    aliases: list[str] = field(default_factory=list)  # directory names the host went by in these jobs

    @property
    def shown(self) -> str:
        """The key, with the directory names a host went by: ``gpn022 (node-1)``."""
        return f"{self.key} ({', '.join(self.aliases)})" if self.aliases else self.key


ALPHA = 0.05


def repeat_offenders(rows: list[dict], by: str = "node") -> tuple[list[Offender], int]:
    """Nodes (``by='node'``) or GPUs (``by='gpu'``) that initiated failures in more
    than one job, with how unlikely that is by chance.

    A node that runs in many failed jobs initiates some by chance alone: in a
    failed 4-node job each member initiates with probability 1/4. Initiations are
    compared with that: ``p_value`` is the chance of at least as many (a
    Poisson-binomial tail over the failed jobs it ran in). ``suspect``: below
    ALPHA after a Bonferroni correction over every node tested; ``possible``: below
    ALPHA alone. Returns the offenders (most telling first) and how many were tested.
    """
    failed = [r for r in rows if r.get("status") == "failed" and not r.get("all_ranks")
              and r.get("initiating_node")]
    exposure: dict[str, list[float]] = defaultdict(list)  # key -> per failed job, chance it initiates
    hits: dict[str, list[dict]] = defaultdict(list)
    machine_of: dict[str, str] = {}
    for r in rows:
        if r.get("status") != "failed" or r.get("all_ranks"):
            continue
        names = r.get("node_list") or ([r["initiating_node"]] if r.get("initiating_node") else [])
        members = [machine(r, n) for n in names]
        if by == "node":
            for m in members:
                exposure[m].append(1.0 / max(1, len(members)))
        else:
            ranks = max(1, r.get("ranks") or 1)
            per_node = max(1, round(ranks / max(1, len(members))))
            for m in members:
                for g in range(per_node):
                    exposure[f"{m} cuda:{g}"].append(1.0 / ranks)
    for r in failed:
        m = machine(r, r["initiating_node"])
        if by == "node":
            hits[m].append(r)
            machine_of[m] = m
        elif r.get("initiating_gpu"):
            key = f"{m} {r['initiating_gpu']}"
            hits[key].append(r)
            machine_of[key] = m
            if key not in exposure:
                exposure[key] = [1.0 / max(1, r.get("ranks") or 1)]
    tested = max(1, len(exposure))
    out = []
    for key, rs in hits.items():
        if len({r["job"] for r in rs}) < 2:
            continue
        ps = exposure.get(key) or [1.0] * len(rs)
        p = _tail(ps, len(rs))
        flag = "suspect" if p <= ALPHA / tested else "possible" if p <= ALPHA else ""
        node = machine_of[key]
        gpu = key[len(node) + 1:] or None
        aliases = sorted({a for r in rs if (a := r.get("initiating_node_alias")) and a != r["initiating_node"]})
        out.append(Offender(key, node, gpu, len(rs), len(ps), round(sum(ps), 2), p, flag,
                            dict(Counter(r.get("category") or "?" for r in rs).most_common()),
                            sorted(r["job"] for r in rs), aliases))
    out.sort(key=lambda o: (o.p_value, -o.initiated, o.key))
    return out, tested


def machine(row: dict, node: str) -> str:
    """The machine ``node`` of the job of ``row`` is: the node itself where the logs
    name it as a host, else ``job/node`` (a directory's name, one machine of one job).
    Rows written before ``path_nodes`` existed key every node by its name."""
    return f"{row['job']}/{node}" if node in (row.get("path_nodes") or ()) else node


def _tail(ps: list[float], k: int) -> float:
    """P(X >= k) for X a sum of independent Bernoulli(p_i) (Poisson-binomial)."""
    dist = [1.0]
    for p in ps:
        nxt = [0.0] * (len(dist) + 1)
        for i, q in enumerate(dist):
            nxt[i] += q * (1 - p)
            nxt[i + 1] += q * p
        dist = nxt
    return min(1.0, max(0.0, sum(dist[k:])))


# --------------------------------------------------------------------------- index


def _bucket(rows: list[dict]) -> tuple[str, Callable[[datetime], str]]:
    times = [_when(r) for r in rows if _when(r)]
    length = (max(times) - min(times)).total_seconds() if times else 0
    if length <= 2 * 86400:
        return "hour", lambda t: t.strftime("%Y-%m-%d %H:00")
    if length <= 120 * 86400:
        return "day", lambda t: t.strftime("%Y-%m-%d")
    return "week", lambda t: f"{t.isocalendar().year}-W{t.isocalendar().week:02d}"


def _when(r: dict) -> datetime | None:
    return r.get("failure_ts") or r.get("job_end") or r.get("job_start")


def category_over_time(rows: list[dict]) -> tuple[str, list[str], list[str], dict[tuple[str, str], int]]:
    """(bucket unit, buckets, categories, counts) of failed and inconclusive jobs."""
    bad = [r for r in rows if r.get("status") in ("failed", "inconclusive")]
    unit, key = _bucket(bad)
    counts: Counter[tuple[str, str]] = Counter()
    for r in bad:
        w = _when(r)
        b = key(w) if w else "unknown time"
        counts[(b, r.get("category") or "undetermined")] += 1
    buckets = sorted({b for b, _ in counts})
    cats = [c for c, _ in Counter({c: 0 for _, c in counts} | _sum_by_cat(counts)).most_common()]
    return unit, buckets, cats, dict(counts)


def _sum_by_cat(counts: Counter[tuple[str, str]]) -> Counter[str]:
    out: Counter[str] = Counter()
    for (_, c), n in counts.items():
        out[c] += n
    return out


def write_index(out: Path) -> None:
    rows = read_summary(out)
    nodes, tested = repeat_offenders(rows, "node")
    gpus, gtested = repeat_offenders(rows, "gpu")
    atomic_write_text(out / "index.md", _index_md(rows, nodes, tested, gpus, gtested))
    atomic_write_text(out / "index.html", _index_html(rows, nodes, tested, gpus, gtested))


def _counts(rows: list[dict]) -> str:
    c = Counter(r["status"] for r in rows)
    return ", ".join(f"{c[s]} {s}" for s in ("failed", "inconclusive", "healthy", "error") if c[s])


def _md(s: object) -> str:
    return ("" if s is None else str(s)).replace("|", "\\|").replace("\n", " ")


def _fmt_p(p: float) -> str:
    return f"{p:.1e}" if p < 0.001 else f"{p:.3f}"


def _index_md(rows: list[dict], nodes: list[Offender], tested: int, gpus: list[Offender], gtested: int) -> str:
    from correlator.report.redact import redact

    o = [f"# correlator batch: {len(rows)} jobs", "", _counts(rows) + ".", ""]
    o += ["## Repeat offenders: nodes", "",
          f"Nodes that initiated failures in more than one job. *p*: the chance of at least that many "
          f"initiations if every node of a failed job were equally likely to start it; **suspect**: *p* ≤ "
          f"{ALPHA}/{tested} (Bonferroni over the {tested} nodes seen in failed jobs); possible: *p* ≤ {ALPHA}.", ""]
    o += _offender_md(nodes, "node")
    o += ["", "## Repeat offenders: GPUs", "", f"The same, per GPU (node and CUDA device; {gtested} tested).", ""]
    o += _offender_md(gpus, "GPU")
    unit, buckets, cats, counts = category_over_time(rows)
    o += ["", f"## Failures by category over time (per {unit})", ""]
    if buckets:
        o += ["| " + unit + " | " + " | ".join(cats) + " | total |", "|---|" + "---|" * (len(cats) + 1)]
        for b in buckets:
            vals = [counts.get((b, c), 0) for c in cats]
            o.append(f"| {b} | " + " | ".join(str(v) if v else "" for v in vals) + f" | {sum(vals)} |")
        tot = [sum(counts.get((b, c), 0) for b in buckets) for c in cats]
        o.append("| **all** | " + " | ".join(f"**{t}**" for t in tot) + f" | **{sum(tot)}** |")
    else:
        o.append("_No failed or inconclusive job._")
    inc = [r for r in rows if r["status"] == "inconclusive"]
    o += ["", f"## Inconclusive jobs ({len(inc)})", ""]
    if inc:
        o += ["| job | best guess | confidence | missing facts |", "|---|---|---|---|"]
        for r in inc:
            guess = f"{r.get('category') or '?'} on {r.get('initiating_node') or '?'}"
            o.append(f"| [{_md(r['job'])}]({r.get('report') or ''}) | {_md(guess)} | "
                     f"{r.get('confidence') if r.get('confidence') is not None else ''} | "
                     f"{_md('; '.join(r.get('missing') or []))} |")
    else:
        o.append("_None._")
    err = [r for r in rows if r["status"] == "error"]
    if err:
        o += ["", f"## Jobs that could not be analysed ({len(err)})", "", "| job | error |", "|---|---|"]
        o += [f"| {_md(r['job'])} | {_md(r.get('error'))} |" for r in err]
    o += ["", "## All jobs", "", "| job | status | category | initiating | confidence | failure time | events | seconds |",
          "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        init = _init(r)
        link = f"[{_md(r['job'])}]({r['report']})" if r.get("report") else _md(r["job"])
        conf = f"{r['confidence']:.2f}" if r.get("confidence") is not None else ""
        w = _when(r)
        o.append(f"| {link} | {r['status']} | {_md(r.get('category') or '')} | {_md(init)} | {conf} | "
                 f"{w.strftime('%Y-%m-%d %H:%M:%S') if w else ''} | {r.get('events') or ''} | "
                 f"{r.get('total_s') or ''} |")
    o += ["", f"<sub>correlator {__version__} · SQL over the batch: `correlator sql DIR \"SELECT ... FROM "
          "summary\"` (views summary, events, files, problems)</sub>", ""]
    return redact("\n".join(o))


def _init(r: dict) -> str:
    if r.get("all_ranks"):
        return "all ranks"
    parts = []
    if r.get("initiating_node"):
        alias = r.get("initiating_node_alias")
        parts.append(r["initiating_node"] + (f" ({alias})" if alias and alias != r["initiating_node"] else ""))
    if r.get("initiating_rank") is not None:
        parts.append(f"rank {r['initiating_rank']}")
    return " ".join(parts)


def _offender_md(offs: list[Offender], what: str) -> list[str]:
    if not offs:
        return [f"_No {what} initiated failures in more than one job._"]
    o = [f"| {what} | initiated | failed jobs it ran in | expected | p | flag | categories | jobs |",
         "|---|---|---|---|---|---|---|---|"]
    for x in offs:
        cats = ", ".join(f"{c} {n}" for c, n in x.categories.items())
        jobs = ", ".join(x.jobs[:12]) + (f" … ({len(x.jobs)})" if len(x.jobs) > 12 else "")
        flag = f"**{x.flag}**" if x.flag == "suspect" else x.flag
        o.append(f"| {_md(x.shown)} | {x.initiated} | {x.exposure} | {x.expected} | {_fmt_p(x.p_value)} | {flag} | "
                 f"{_md(cats)} | {_md(jobs)} |")
    return o


_INDEX_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1d2430;
  margin: 0 auto; padding: 18px 22px 40px; max-width: 1240px; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 26px; border-bottom: 1px solid #d8dde5; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { border: 1px solid #d8dde5; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #f6f8fb; } a { color: #1c5fb8; text-decoration: none; }
table.offenders td:first-child { white-space: nowrap; }
.suspect td { background: #fdecea; } .possible td { background: #fff7e0; }
.sub { color: #5b6573; } code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
.failed { color: #c62828; font-weight: 600; } .inconclusive { color: #8d6e00; font-weight: 600; }
.healthy { color: #2e7d32; } .error { color: #6a1b9a; font-weight: 600; }
svg text { font: 11px system-ui, sans-serif; fill: #1d2430; }
@media print { body { max-width: none; padding: 0; } table, svg { break-inside: avoid; } }
"""

_PALETTE = ("#c62828", "#1565c0", "#ef6c00", "#2e7d32", "#6a1b9a", "#00838f", "#8d6e00", "#ad1457",
            "#4e342e", "#37474f", "#558b2f", "#283593", "#d84315", "#00695c")


def _index_html(rows: list[dict], nodes: list[Offender], tested: int, gpus: list[Offender], gtested: int) -> str:
    import html as h

    from correlator.report.redact import redact

    def e(s: object) -> str:
        return h.escape("" if s is None else str(s))

    o = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
         f"<title>correlator batch: {len(rows)} jobs</title><style>{_INDEX_CSS}</style></head><body>",
         f"<h1>correlator batch: {len(rows)} jobs</h1><p>{e(_counts(rows))}.</p>"]
    o.append("<h2 id=\"offenders\">Repeat offenders: nodes</h2>"
             "<p class=\"sub\">Nodes that initiated failures in more than one job. <i>p</i>: the chance of at least "
             "that many initiations if every node of a failed job were equally likely to start it; "
             f"<b>suspect</b>: <i>p</i> ≤ {ALPHA}/{tested} (Bonferroni over the {tested} nodes seen in failed jobs); "
             f"possible: <i>p</i> ≤ {ALPHA}.</p>")
    o.append(_offender_html(nodes, "node", rows, e))
    o.append(f"<h2 id=\"gpus\">Repeat offenders: GPUs</h2><p class=\"sub\">The same per GPU "
             f"(node and CUDA device; {gtested} tested).</p>")
    o.append(_offender_html(gpus, "GPU", rows, e))
    unit, buckets, cats, counts = category_over_time(rows)
    o.append(f"<h2 id=\"categories\">Failures by category over time (per {e(unit)})</h2>")
    if buckets:
        o.append(_category_svg(buckets, cats, counts))
        o.append(f"<details{' open' if len(buckets) <= 20 else ''}><summary>the counts, per {e(unit)}</summary>")
        o.append("<table><tr><th>" + e(unit) + "</th>" + "".join(f"<th>{e(c)}</th>" for c in cats)
                 + "<th>total</th></tr>")
        for b in buckets:
            vals = [counts.get((b, c), 0) for c in cats]
            o.append(f"<tr><td>{e(b)}</td>" + "".join(f"<td>{v or ''}</td>" for v in vals)
                     + f"<td>{sum(vals)}</td></tr>")
        o.append("</table></details>")
    else:
        o.append("<p class=\"sub\">No failed or inconclusive job.</p>")
    inc = [r for r in rows if r["status"] == "inconclusive"]
    o.append(f"<h2 id=\"inconclusive\">Inconclusive jobs ({len(inc)})</h2>")
    if inc:
        o.append("<table><tr><th>job</th><th>best guess</th><th>confidence</th><th>missing facts</th></tr>")
        for r in inc:
            guess = f"{r.get('category') or '?'} on {r.get('initiating_node') or '?'}"
            o.append(f"<tr><td>{_link(r, e)}</td><td>{e(guess)}</td><td>{e(r.get('confidence'))}</td>"
                     f"<td>{e('; '.join(r.get('missing') or []))}</td></tr>")
        o.append("</table>")
    else:
        o.append("<p class=\"sub\">None.</p>")
    err = [r for r in rows if r["status"] == "error"]
    if err:
        o.append(f"<h2 id=\"errors\">Jobs that could not be analysed ({len(err)})</h2><table>"
                 "<tr><th>job</th><th>error</th></tr>"
                 + "".join(f"<tr><td>{e(r['job'])}</td><td><code>{e(r.get('error'))}</code></td></tr>" for r in err)
                 + "</table>")
    o.append("<h2 id=\"jobs\">All jobs</h2><table><tr><th>job</th><th>status</th><th>category</th>"
             "<th>initiating</th><th>confidence</th><th>failure time</th><th>events</th><th>seconds</th></tr>")
    for r in rows:
        conf = f"{r['confidence']:.2f}" if r.get("confidence") is not None else ""
        w = _when(r)
        o.append(f"<tr><td>{_link(r, e)}</td><td class=\"{e(r['status'])}\">{e(r['status'])}</td>"
                 f"<td>{e(r.get('category') or '')}</td><td>{e(_init(r))}</td><td>{conf}</td>"
                 f"<td>{w.strftime('%Y-%m-%d %H:%M:%S') if w else ''}</td><td>{e(r.get('events') or '')}</td>"
                 f"<td>{e(r.get('total_s') or '')}</td></tr>")
    o.append("</table>")
    o.append(f"<p class=\"sub\">correlator {e(__version__)} · SQL over the batch: <code>correlator sql "
             "DIR \"SELECT ... FROM summary\"</code> (views summary, events, files, problems)</p></body></html>\n")
    return redact("\n".join(o))


def _link(r: dict, e: Callable[[object], str]) -> str:
    return f"<a href=\"{e(r['report'])}\">{e(r['job'])}</a>" if r.get("report") else e(r["job"])


def _offender_html(offs: list[Offender], what: str, rows: list[dict], e: Callable[[object], str]) -> str:
    if not offs:
        return f"<p class=\"sub\">No {e(what)} initiated failures in more than one job.</p>"
    report = {r["job"]: r.get("report") for r in rows}
    o = [f"<table class=\"offenders\"><tr><th>{e(what)}</th><th>initiated</th><th>failed jobs it ran in</th>"
         "<th>expected</th><th>p</th><th>flag</th><th>categories</th><th>jobs</th></tr>"]
    for x in offs:
        cats = ", ".join(f"{c} {n}" for c, n in x.categories.items())
        jobs = ", ".join(f"<a href=\"{e(report.get(j))}\">{e(j)}</a>" if report.get(j) else e(j) for j in x.jobs)
        o.append(f"<tr class=\"{e(x.flag)}\" data-key=\"{e(x.key)}\"><td><b>{e(x.shown)}</b></td><td>{x.initiated}</td>"
                 f"<td>{x.exposure}</td><td>{x.expected}</td><td>{_fmt_p(x.p_value)}</td><td>{e(x.flag)}</td>"
                 f"<td>{e(cats)}</td><td>{jobs}</td></tr>")
    o.append("</table>")
    return "".join(o)


def _category_svg(buckets: list[str], cats: list[str], counts: dict[tuple[str, str], int]) -> str:
    w, h, left, bottom, top = 1100, 240, 70, 50, 14
    peak = max(sum(counts.get((b, c), 0) for c in cats) for b in buckets) or 1
    bw = (w - left - 10) / len(buckets)
    o = [f"<svg viewBox=\"0 0 {w} {h + 24}\" width=\"100%\" role=\"img\" aria-label=\"failures by category\">"]
    for i in range(0, 5):
        v = peak * i / 4
        y = h - bottom - (h - bottom - top) * i / 4
        o.append(f"<line x1=\"{left}\" x2=\"{w - 10}\" y1=\"{y:.1f}\" y2=\"{y:.1f}\" stroke=\"#e9edf2\"/>"
                 f"<text x=\"{left - 4}\" y=\"{y + 4:.1f}\" text-anchor=\"end\">{math.ceil(v) if i else 0}</text>")
    for i, b in enumerate(buckets):
        y = float(h - bottom)
        for j, c in enumerate(cats):
            n = counts.get((b, c), 0)
            if not n:
                continue
            bh = (h - bottom - top) * n / peak
            y -= bh
            o.append(f"<rect x=\"{left + i * bw + 1:.1f}\" y=\"{y:.1f}\" width=\"{max(1.0, bw - 2):.1f}\" "
                     f"height=\"{bh:.1f}\" fill=\"{_PALETTE[j % len(_PALETTE)]}\"><title>{b}: {n} {c}</title></rect>")
        if len(buckets) <= 40 or i % math.ceil(len(buckets) / 40) == 0:
            x = left + (i + 0.5) * bw
            o.append(f"<text x=\"{x:.1f}\" y=\"{h - bottom + 12}\" text-anchor=\"end\" "
                     f"transform=\"rotate(-35 {x:.1f} {h - bottom + 12})\">{b[-11:]}</text>")
    x = left
    for j, c in enumerate(cats):
        o.append(f"<rect x=\"{x}\" y=\"{h + 8}\" width=\"10\" height=\"10\" fill=\"{_PALETTE[j % len(_PALETTE)]}\"/>"
                 f"<text x=\"{x + 14}\" y=\"{h + 17}\">{c}</text>")
        x += 24 + 7 * len(c)
    o.append("</svg>")
    return "".join(o)


# --------------------------------------------------------------------------- SQL over a batch
