"""From a timeline to a verdict: who failed first, why, and what was only an echo.

Each step is a named SQL query over the ``events`` view (``correlator/analysis/*.sql``)
plus a little glue here:

1. ``align.sql``: per-node clock offsets from simultaneous events -> ``ts_aligned``;
2. rules (``correlator.analysis.rulebook``) -> ``findings``: every (rule, event) match,
   with the rank each match *blames* (a launcher line blames the failed child);
3. ``deviation.sql``: templates only a minority of ranks (or nodes) print, or
   that a healthy baseline never printed -> ``deviating``;
4. hypotheses: each root finding per rank, plus cross-rank inferences (a rank
   whose peers all time out while it falls silent; an error on every rank
   alike); each is scored on timing, role, specificity and causal edges;
5. the verdict: the winner, the collateral groups, why the others lost, and
   the missing fact when the evidence is thin.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import duckdb
import pyarrow as pa

from correlator.analysis.rulebook import (
    BLAME_TABLES_GIVEN_INITS_SQL,
    LoadedRule,
    create_findings,
    load_rules,
)
from correlator.ingest import IngestOptions
from correlator.target import ROWS_VIEW, open_timeline
from correlator.timeline.schema import sql_literal
from correlator.timeline.shapes import SHAPE_SQL
from correlator.verdict import (
    ClockOffset,
    Collateral,
    Evidence,
    FirstDeviating,
    Hypothesis,
    Initiating,
    RootCause,
    Verdict,
    ranges,
)

CONTEXT_EVENTS = 100  # events kept before the first deviating line in the JSON
SIMULTANEOUS_S = 2.0  # stamps this close are "at the same time" (1 s stamps, tee lag)
TIME_DECAY_S = 120.0  # a hypothesis this much later than the earliest scores 1/e as much
MIN_CONFIDENCE = 0.35
ALL_RANKS_WINDOW_S = 10.0
LEAD_WINDOW_S = 3600.0  # a cause precedes its echoes by at most about a (long) collective timeout  # an "all ranks alike" failure happens on every rank within this  # below this the verdict is "inconclusive"


def _sql(name: str) -> str:
    return resources.files("correlator.analysis").joinpath(name).read_text()


@dataclass
class _Hyp:
    rule: LoadedRule | None
    category: str
    rank: int | None
    node: str | None
    ts: float | None  # epoch seconds, aligned
    evidence: Evidence | None
    base: float  # prior from role / kind of inference
    n_ranks_same: int = 1  # ranks where the same rule matched
    corroborated: bool = False  # node-level evidence whose rank another hypothesis named
    notes: list[str] = field(default_factory=list)
    score: float = 0.0


def _ev(row: dict) -> Evidence:
    ts = row.get("ts_aligned") or row.get("ts")
    return Evidence(
        file=row["file"], line_no=row["line_no"], line_end=row.get("line_end"), rank=row.get("rank"),
        node=row.get("node"), ts=ts, ts_estimated=ts is not None and bool(row.get("ts_estimated")),
        text=row["message"],
    )


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> list[dict]:
    rel = con.execute(sql, params or [])
    cols = [d[0] for d in rel.description]
    return [dict(zip(cols, r, strict=True)) for r in rel.fetchall()]


def _epoch(ts) -> float | None:
    return ts.timestamp() if ts is not None else None


def analyze(
    target: str,
    *,
    baseline: str | None = None,
    rules_dirs: tuple[str, ...] = (),
    options: IngestOptions | None = None,
    builtin_rules: bool = True,
) -> Verdict:
    """The verdict for ``target`` (logs, a Parquet timeline or a DuckDB file)."""
    return analyze_with_events(
        target, baseline=baseline, rules_dirs=rules_dirs, options=options, builtin_rules=builtin_rules,
        max_events=0,
    )[0]


# Columns of the event sample reports draw (timeline chart, Perfetto trace).
REPORT_EVENT_COLUMNS = (
    "rank", "node", "local_rank", "source", "file", "line_no", "line_end", "ts", "ts_aligned", "level",
    "kind", "template", "message", "rule_id", "role",
)


def analyze_with_events(
    target: str,
    *,
    baseline: str | None = None,
    rules_dirs: tuple[str, ...] = (),
    options: IngestOptions | None = None,
    builtin_rules: bool = True,
    max_events: int = 20000,
) -> tuple[Verdict, pa.Table]:
    """The verdict plus the events a report draws, as an Arrow table.

    The sample keeps every finding and every WARNING-or-worse event, then each
    rank's first and last event, then fills up to ``max_events`` with an even
    sample of the rest, so a 1,024-rank job stays drawable. Columns:
    ``REPORT_EVENT_COLUMNS`` (``message`` cut to 2,000 characters; ``rule_id``
    and ``role`` of the event's most telling finding, null without one).
    """
    rules = load_rules([Path(d) for d in rules_dirs], builtin=builtin_rules)
    with open_timeline(target, options) as con:
        baseline_templates = _baseline_templates(baseline, options) if baseline else None
        verdict = _verdict(con, rules, baseline_templates, baseline)
        events = _report_events(con, max_events) if max_events else pa.table({c: [] for c in REPORT_EVENT_COLUMNS})
        return verdict, events


def _report_events(con: duckdb.DuckDBPyConnection, max_events: int) -> pa.Table:
    return con.sql(
        f"""
        WITH tagged AS (
            SELECT e.rank, e.node, e.local_rank, e.source, e.file, e.line_no, e.line_end, e.ts, e.ts_aligned,
                   e.level, e.kind, e.template, left(e.message, 2000) AS message, r.rule_id, r.role,
                   CASE WHEN r.rule_id IS NOT NULL OR e.level IN ('WARNING', 'ERROR', 'CRITICAL') THEN 0
                        WHEN row_number() OVER (PARTITION BY e.rank, e.node ORDER BY e.ts_aligned, e.line_no) = 1
                          OR row_number() OVER (PARTITION BY e.rank, e.node ORDER BY e.ts_aligned DESC, e.line_no DESC) = 1
                        THEN 1 ELSE 2 END AS tier,
                   hash(e.file, e.line_no) AS h
            FROM events e LEFT JOIN event_role r ON r.file = e.file AND r.line_no = e.line_no
        )
        SELECT {", ".join(REPORT_EVENT_COLUMNS)} FROM tagged
        ORDER BY tier, h
        LIMIT {int(max_events)}
        """
    ).to_arrow_table().sort_by([("ts_aligned", "ascending")])


# Up to this many shifted nodes, events' ts_aligned is a CASE on node; past it, a join.
_CASE_NODES = 64


def _create_aligned_events(con: duckdb.DuckDBPyConnection) -> None:
    """View ``events``: ``timeline_raw`` with ``ts_aligned`` = ``ts`` minus its node's
    applied clock offset.

    Written as a join, the view made every one of the analysis' scans probe a hash
    table with every row (DuckDB cannot know a node has one offset), and kept it
    from pruning columns: a projection with a CASE over the few shifted nodes is a
    fifth to a third cheaper per query.
    """
    shifted = con.execute(
        "SELECT node, epoch_us(shift) FROM clock_offsets WHERE applied ORDER BY node"
    ).fetchall()
    if len(shifted) > _CASE_NODES:
        con.execute(
            "CREATE OR REPLACE VIEW events AS SELECT t.* REPLACE (t.ts - coalesce(o.shift, INTERVAL 0 SECOND) "
            "AS ts_aligned) FROM timeline_raw t LEFT JOIN clock_offsets o ON o.node = t.node"
        )
        return
    aligned = "ts"
    if shifted:
        whens = " ".join(f"WHEN {sql_literal(node)} THEN ts - to_microseconds({us})" for node, us in shifted)
        aligned = f"CASE node {whens} ELSE ts END"
    con.execute(f"CREATE OR REPLACE VIEW events AS SELECT * REPLACE ({aligned} AS ts_aligned) FROM timeline_raw")


def _baseline_templates(baseline: str, options: IngestOptions | None) -> set[str]:
    with open_timeline(baseline, options) as con:
        return {t for (t,) in con.execute("SELECT DISTINCT template FROM events").fetchall()}


def _verdict(
    con: duckdb.DuckDBPyConnection, rules: list[LoadedRule], baseline_templates: set[str] | None,
    baseline: str | None,
) -> Verdict:
    columns = {d[0] for d in con.execute("SELECT * FROM events LIMIT 0").description}
    # a timeline written before these columns existed: derived as the ingest would
    missing = {"shape": f"{SHAPE_SQL.format(message='message')} AS shape",
               "task": "TRY_CAST(attrs['task'] AS INTEGER) AS task"}
    added = [sql for name, sql in missing.items() if name not in columns]
    located = ROWS_VIEW in {name for (name,) in con.execute("SELECT view_name FROM duckdb_views()").fetchall()}
    if added:
        con.execute("ALTER VIEW events RENAME TO timeline_as_written")
        con.execute(f"CREATE VIEW timeline_raw AS SELECT *, {', '.join(added)} FROM timeline_as_written")
        if located:
            con.execute(f"CREATE VIEW timeline_raw_rows AS SELECT *, {', '.join(added)} FROM {ROWS_VIEW}")
    else:
        con.execute("ALTER VIEW events RENAME TO timeline_raw")
        if located:
            con.execute(f"CREATE VIEW timeline_raw_rows AS SELECT * FROM {ROWS_VIEW}")
    con.execute(_sql("align.sql"))
    _create_aligned_events(con)
    by_id = {lr.rule.id: lr for lr in rules}
    # NCCL_INITS_SQL's table, from the rows alignment read anyway
    con.execute("CREATE OR REPLACE TEMP TABLE nccl_inits AS "
                "SELECT node, rank, bus_id, nranks FROM attr_rows WHERE kind = 'nccl.comm_init'")
    con.execute(BLAME_TABLES_GIVEN_INITS_SQL)
    # Rules scan the unaligned timeline (no CASE per row); the few
    # matches get their aligned time afterwards.
    create_findings(con, rules, source="timeline_raw", rows="timeline_raw_rows" if located else None)
    con.execute(
        "UPDATE findings SET ts_aligned = ts - o.shift FROM clock_offsets o WHERE o.node = findings.node AND o.applied"
    )
    edges = sorted({(lr.rule.id, t) for lr in rules for t in lr.rule.leads_to}
                   | {(c, lr.rule.id) for lr in rules for c in lr.rule.preceded_by})
    con.register("rule_edges_arrow", pa.table({"cause": [c for c, _ in edges], "effect": [e for _, e in edges]},
                                              schema=pa.schema([("cause", pa.string()), ("effect", pa.string())])))
    con.execute("CREATE OR REPLACE TEMP TABLE rule_edges AS SELECT * FROM rule_edges_arrow")
    con.unregister("rule_edges_arrow")
    con.execute(_sql("bounds.sql"))
    if baseline_templates is not None:
        con.execute("CREATE TEMP TABLE baseline_templates (template VARCHAR)")
        con.executemany("INSERT INTO baseline_templates VALUES (?)", [[t] for t in baseline_templates])
    else:
        con.execute("CREATE TEMP TABLE baseline_templates AS SELECT NULL::VARCHAR AS template WHERE false")
    con.execute(_sql("deviation.sql").replace("$USE_BASELINE", "true" if baseline_templates is not None else "false"))
    con.execute(_sql("inferences.sql"))

    job, n_events = con.execute("SELECT any_value(job), count(*) FROM timeline_raw").fetchone()
    # the files view counts each file's events already (a distinct over every row is not free)
    n_files = con.execute("SELECT count(*) FROM files WHERE events > 0").fetchone()[0]
    if not n_files and n_events:  # a timeline that came without its files table
        n_files = con.execute("SELECT count(DISTINCT file) FROM timeline_raw").fetchone()[0]
    known_ranks = sorted(r for (r,) in con.execute("SELECT rank FROM known_ranks").fetchall())
    # the job's size as the story tells it: a rank only a launcher names (a child it
    # spawned or killed) counts too, so the header never says fewer ranks than the findings
    world = set(known_ranks) | {r for (r,) in con.execute(
        "SELECT rank FROM findings WHERE rank IS NOT NULL UNION SELECT rank FROM blame_pid WHERE rank IS NOT NULL"
    ).fetchall()}
    nodes = sorted(n for (n,) in con.execute("SELECT DISTINCT node FROM events WHERE node IS NOT NULL").fetchall())
    clock = [
        ClockOffset(node=r["node"], offset_s=round(r["offset_s"], 3), keys=r["keys"],
                    spread_s=round(r["spread_s"], 3), applied=bool(r["applied"]))
        for r in _rows(con, "SELECT * FROM clock_offsets ORDER BY node")
    ]
    ref = con.execute("SELECT node FROM reference_node").fetchone()
    verdict = Verdict(
        job=job or "job", ranks=len(world), nodes=len(nodes), files=n_files, events=n_events,
        status="healthy", clock=clock, reference_node=ref[0] if ref else None, baseline=baseline,
    )

    root_rows = _rows(
        con,
        """SELECT f.*, d.n_ranks FROM findings f
           LEFT JOIN template_spread d ON d.template = f.template
           WHERE f.role = 'root' ORDER BY coalesce(f.ts_aligned, f.ts_bound) NULLS LAST, f.file, f.line_no""",
    )
    collateral_rows = _rows(
        con, "SELECT * FROM findings WHERE role = 'collateral' ORDER BY ts_aligned NULLS LAST, file, line_no"
    )
    candidates = _rows(con, "SELECT * FROM first_deviating_candidates ORDER BY sort_key LIMIT 5000")
    first_dev = candidates[:1]

    hyps = _hypotheses(con, root_rows, by_id, known_ranks, candidates)

    # Failed = a cause or an echo was found; errors every rank survived are not a failure.
    failing = bool(hyps or collateral_rows)
    if not failing:
        verdict.collateral = _collateral(collateral_rows, by_id, None)
        if first_dev:
            verdict.first_deviating = _first_deviating(con, first_dev[0])
        return verdict

    _score(hyps, by_id, collateral_rows, len(known_ranks))
    hyps.sort(key=lambda h: -h.score)
    total = sum(h.score for h in hyps) or 1.0
    verdict.hypotheses = [
        Hypothesis(
            rule_id=h.rule.rule.id if h.rule else None, category=h.category, rank=h.rank, node=h.node,
            score=round(h.score / total, 3), evidence=h.evidence,
            why_not=None if i == 0 else _why_not(h, hyps[0]),
        )
        for i, h in enumerate(hyps[:10])
    ]
    verdict.missing = _missing(con, known_ranks, hyps, collateral_rows)
    if not hyps:
        verdict.status = "inconclusive"
        verdict.collateral = _collateral(collateral_rows, by_id, None)
        if first_dev:
            verdict.first_deviating = _first_deviating(con, first_dev[0])
        return verdict
    top = hyps[0]
    confidence = top.score / total
    _corroborate(top, hyps)
    _launcher_names_rank(con, top)
    all_ranks = top.rank is None and top.rule is not None and (
        top.n_ranks_same >= max(2, len(known_ranks)) or top.rule.rule.scope == "job"
    )
    local_rank, gpu = (None, None) if all_ranks else _device_of(con, top)
    verdict.initiating = Initiating(
        rank=None if all_ranks else top.rank, node=None if all_ranks else top.node,
        local_rank=local_rank, gpu=gpu, all_ranks=all_ranks, confidence=round(confidence, 3),
    )
    verdict.root_cause = _root_cause(top)
    verdict.status = "failed" if confidence >= MIN_CONFIDENCE else "inconclusive"
    init_rank = None if all_ranks else top.rank
    # Echoes: collateral findings, and the winner's peers repeating a root signature
    # after it (every rank raising "Loss is NaN" once rank 1's loss went inf).
    echoes = collateral_rows + [
        r for r in root_rows
        if not all_ranks and r["rank"] is not None and r["rank"] != init_rank
        and (top.ts is None or r["ts_aligned"] is None or _epoch(r["ts_aligned"]) >= top.ts - SIMULTANEOUS_S)
    ]
    verdict.collateral = _collateral(echoes, by_id, init_rank)
    chosen = _pick_first_deviating(candidates, top, init_rank, all_ranks)
    if chosen is not None:
        verdict.first_deviating = _first_deviating(con, chosen)
    elif top.evidence is not None and top.rule is not None:
        verdict.first_deviating = _evidence_as_first_deviating(con, top, all_ranks)
    return verdict


def _device_of(con: duckdb.DuckDBPyConnection, top: _Hyp) -> tuple[int | None, str | None]:
    """The winner's local rank and GPU, where its own lines say so.

    The local rank is the one the rank's events carry, if they agree. The GPU is
    the PCI address of the evidence itself (an Xid names the device), else the
    CUDA device and bus id NCCL printed when it set up the rank's largest
    communicator. Nothing is inferred from the local rank alone: it is the CUDA
    device only under the usual one-GPU-per-process launch.
    """
    local_rank = gpu = None
    if top.rank is not None:
        row = _one(con, "SELECT min(local_rank), count(DISTINCT local_rank) FROM events "
                        "WHERE rank = ? AND local_rank IS NOT NULL", [top.rank])
        if row and row[1] == 1:
            local_rank = row[0]
    if top.evidence is not None:
        row = _one(con, "SELECT any_value(attrs['pci']) FROM timeline_raw WHERE file = ? AND line_no = ?",
                   [top.evidence.file, top.evidence.line_no])
        if row and row[0]:
            gpu = f"PCI {row[0]}"
    if gpu is None and top.rank is not None:
        row = _one(
            con,
            """SELECT attrs['cuda_dev'], attrs['bus_id'] FROM events
               WHERE kind = 'nccl.comm_init' AND rank = ? AND attrs['cuda_dev'] IS NOT NULL
               ORDER BY TRY_CAST(attrs['nranks'] AS INTEGER) DESC NULLS LAST, file, line_no LIMIT 1""",
            [top.rank],
        )
        if row:
            pci = _pci_of_nccl_bus(row[1]) if row[1] else None
            gpu = f"cuda:{row[0]}" + (f" (PCI {pci})" if pci else "")
    return local_rank, gpu


def _pci_of_nccl_bus(bus: str) -> str | None:
    """NCCL's busId is the PCI address with ':' and '.' removed, printed as %lx
    (``3a000`` = ``0000:3a:00.0``; ../shared/formats/01-nccl.md §1)."""
    if not re.fullmatch(r"[0-9a-fA-F]{4,12}", bus):
        return None
    s = bus.lower().zfill(9)
    return f"{s[:-5].zfill(4)}:{s[-5:-3]}:{s[-3:-1]}.{s[-1]}"


def _one(con: duckdb.DuckDBPyConnection, sql: str, params: list) -> tuple | None:
    rows = con.execute(sql, params).fetchall()  # fetched whole: the connection is reused
    return rows[0] if rows else None


def _corroborate(top: _Hyp, hyps: list[_Hyp]) -> None:
    """A node-level winner (an Xid in dmesg) takes its rank from a ranked hypothesis
    of the same category on the same node within the time window (the rank whose
    own error names the same fault), when exactly one rank says so."""
    if top.rank is not None or top.node is None:
        return
    ranks = {
        h.rank for h in hyps[1:]
        if h.rank is not None and h.node == top.node and h.category == top.category
        and (h.ts is None or top.ts is None or abs(h.ts - top.ts) <= ALL_RANKS_WINDOW_S * 60)
    }
    if len(ranks) == 1:
        top.rank = ranks.pop()
        top.corroborated = True
        top.notes.append(f"rank {top.rank} on the same node reports the same fault")


def _launcher_names_rank(con: duckdb.DuckDBPyConnection, top: _Hyp) -> None:
    """An unattributed winner (a C++ abort printed without a rank prefix) takes its
    rank from the launcher's first observed failure when exactly one rank is named
    (evidence, not verdict: used only when nothing better names the rank)."""
    if top.rank is not None or top.node is not None or top.rule is None:
        return
    ranks = [r for (r,) in con.execute(
        "SELECT DISTINCT rank FROM findings WHERE kind = 'torchrun.worker_failed' AND rank IS NOT NULL"
    ).fetchall()]
    if len(ranks) == 1:
        top.rank = ranks[0]
        top.notes.append(f"the launcher saw rank {top.rank} fail first")


def _pick_first_deviating(candidates: list[dict], top: _Hyp, init_rank: int | None, all_ranks: bool) -> dict | None:
    """The earliest deviating line that belongs to the verdict's story.

    Deviation alone is blind to who failed first; the verdict is not. So the
    first deviating line is the earliest candidate of the initiating rank (or
    node, for node-level evidence), else the earliest at all. An all-ranks
    failure deviates from nothing across ranks: its first occurrence is used.
    """
    if all_ranks or top.corroborated:
        return None
    if init_rank is not None:
        mine = [c for c in candidates if c["subject_rank"] == init_rank]
        if mine:
            return mine[0]
        return None
    if top.node is not None:
        return None  # node-level evidence: the root cause's own line
    return candidates[0] if candidates else None


def _evidence_as_first_deviating(con: duckdb.DuckDBPyConnection, top: _Hyp, all_ranks: bool) -> FirstDeviating:
    ev = top.evidence
    assert ev is not None
    row = {"file": ev.file, "line_no": ev.line_no, "line_end": ev.line_end, "rank": ev.rank, "node": ev.node,
           "ts_aligned": ev.ts, "message": ev.text,
           "why": "every rank printed it: the same failure everywhere (first occurrence)" if all_ranks
           else "the root-cause evidence (no line of this rank deviates from its peers)"}
    return _first_deviating(con, row)


def _hypotheses(
    con: duckdb.DuckDBPyConnection, root_rows: list[dict], by_id: dict[str, LoadedRule],
    known_ranks: list[int], candidates: list[dict],
) -> list[_Hyp]:
    hyps: dict[tuple, _Hyp] = {}
    ranks_per_rule: dict[str, set] = defaultdict(set)
    ranked_nodes: dict[str, set] = defaultdict(set)
    for r in root_rows:
        if r["rank"] is not None:
            ranks_per_rule[r["rule_id"]].add(r["rank"])
            ranked_nodes[r["rule_id"]].add(r["node"])
    # A launcher's copy of a child's error (the torchrun table quotes the child's
    # traceback) adds nothing when the child's own line is there.
    root_rows = [
        r for r in root_rows
        if r["rank"] is not None or not (r["node"] in ranked_nodes[r["rule_id"]] or None in ranked_nodes[r["rule_id"]])
    ]
    for r in root_rows:
        if r["rank"] is None:
            ranks_per_rule[r["rule_id"]].add(("node", r["node"]))
    for r in root_rows:
        lr = by_id[r["rule_id"]]
        key = (r["rule_id"], r["rank"], r["node"] if r["rank"] is None else None)
        if key in hyps:
            continue
        hyps[key] = _Hyp(
            rule=lr, category=lr.rule.category, rank=r["rank"], node=r["node"],
            ts=_epoch(r["ts_aligned"] or r.get("ts_bound")),
            evidence=_ev(r), base=lr.rule.weight, n_ranks_same=len(ranks_per_rule[r["rule_id"]]),
        )
        if r["ts_aligned"] is None and r.get("ts_bound") is not None:
            hyps[key].notes.append("no wall-clock stamp: placed no later than the failure it caused")
    # An all-ranks failure is one hypothesis, not one per rank: the same root
    # signature on every known rank, close together in (aligned) time.
    first_step = con.execute("SELECT min(first) FROM last_progress").fetchone()[0]
    for rule_id, ranks in ranks_per_rule.items():
        if len(known_ranks) < 2 or len(ranks) < len(known_ranks):
            continue
        group = [h for k, h in hyps.items() if k[0] == rule_id]
        times = [h.ts for h in group if h.ts is not None]
        if times and max(times) - min(times) > ALL_RANKS_WINDOW_S:
            continue  # the same failure at different times: per-rank hypotheses compete
        first = min(group, key=lambda h: (h.ts is None, h.ts or 0))
        for k in [k for k in hyps if k[0] == rule_id]:
            del hyps[k]
        first.rank = None
        first.notes.append(f"matched on all {len(ranks)} ranks within {ALL_RANKS_WINDOW_S:.0f} s")
        if first_step is not None and first.ts is not None and first.ts > first_step.timestamp():
            # after training started, a failure everywhere at once is more often an
            # echo (a NaN spread by all-reduce, a lost peer) than the cause
            first.base *= 0.6
            first.notes.append("after training had started")
        first.n_ranks_same = len(ranks)
        hyps[(rule_id, "all")] = first

    out = list(hyps.values())
    # A deviating error no rule explains is still a hypothesis (unclassified).
    # The first unexplained ERROR that its rank did not survive is a hypothesis too
    # (a WARNING is a symptom to show, not a cause; an error the rank kept training
    # after, like a retried read, did not stop the job).
    unexplained = [
        c for c in candidates
        if c["rule_role"] is None and c["level"] in ("ERROR", "CRITICAL") and not c["survived"]
    ]
    if unexplained:
        d = _with_message(con, unexplained[0])
        is_tb = "Traceback (most recent call last)" in d["message"]
        out.append(_Hyp(rule=None, category="code_exception" if is_tb else "other", rank=d["rank"],
                        node=d["node"], ts=_epoch(d["ts_aligned"]), evidence=_ev(d), base=0.6,
                        notes=["deviating error that no rule explains"]))
    out.extend(_inferred_hypotheses(con))
    return out


def _inferred_hypotheses(con: duckdb.DuckDBPyConnection) -> list[_Hyp]:
    """Hypotheses from the cross-rank inferences in ``inferences.sql``."""
    out = []
    for r in _rows(con, "SELECT * FROM inferred ORDER BY inference, rank"):
        out.append(_Hyp(
            rule=None, category=r["category"], rank=r["rank"], node=r["node"], ts=_epoch(r["ts_aligned"]),
            evidence=_ev(r) if r["file"] else None, base=r["base"],
            notes=[f"{r['inference']}: {r['note']}"],
        ))
    return out


def _score(hyps: list[_Hyp], by_id: dict[str, LoadedRule], collateral_rows: list[dict], n_ranks: int) -> None:
    """Score = prior (rule weight / inference strength) x timing x causal edges x specificity.

    Timing is measured against the failure: the echoes (collateral) mark when
    the job broke; a cause precedes them by at most about a collective timeout
    (``LEAD_WINDOW_S``). Inside that window the earliest hypothesis is preferred;
    evidence from long before (a warning hours earlier that training survived)
    fades, and so does evidence after the earliest.
    """
    echo_times = [_epoch(r["ts_aligned"]) for r in collateral_rows if r["ts_aligned"] is not None]
    times = [h.ts for h in hyps if h.ts is not None]
    t_fail = min(echo_times) if echo_times else (max(times) if times else None)
    window = [t for t in times if t_fail is None or t >= t_fail - LEAD_WINDOW_S]
    t0 = min(window) if window else None
    collateral_rules = {r["rule_id"] for r in collateral_rows}
    for h in hyps:
        s = h.base
        if h.ts is None:
            s *= 0.5
        elif t_fail is not None and h.ts < t_fail - LEAD_WINDOW_S:
            s *= math.exp(-(t_fail - LEAD_WINDOW_S - h.ts) / LEAD_WINDOW_S) * 0.5
            h.notes.append("long before the failure")
        elif t0 is not None:
            late = max(0.0, h.ts - t0 - SIMULTANEOUS_S)
            s *= math.exp(-late / TIME_DECAY_S)
        if h.rule is not None:
            echoes = set(h.rule.rule.leads_to) & collateral_rules
            if echoes:
                s *= 1.25
                h.notes.append("its known consequences were seen: " + ", ".join(sorted(echoes)))
            if h.rank is not None and n_ranks >= 2 and h.n_ranks_same > 1:
                # the same failure on several ranks is less specific to this one
                s *= 1.0 / (1.0 + math.log(h.n_ranks_same))
        h.score = s


def _why_not(h: _Hyp, winner: _Hyp) -> str:
    reasons = []
    if h.ts is not None and winner.ts is not None and h.ts - winner.ts > SIMULTANEOUS_S:
        reasons.append(f"{h.ts - winner.ts:.0f} s after the winner's evidence")
    if h.n_ranks_same > 1 and h.rank is not None:
        reasons.append(f"the same signature on {h.n_ranks_same} ranks")
    if h.rule is None:
        reasons.append("no rule explains it" if not h.notes else h.notes[0])
    if not reasons:
        reasons.append("weaker evidence (rule weight, role or timing)")
    return "; ".join(reasons)


def _root_cause(top: _Hyp) -> RootCause:
    if top.rule is None:
        return RootCause(
            rule_id=None, category=top.category,  # type: ignore[arg-type]
            title="Unclassified failure" if top.category != "nccl_timeout_hang" else "Silent rank: its peers timed out waiting for it",
            explanation="; ".join(top.notes) or "no rule in the knowledge base matches this evidence",
            evidence=top.evidence,
        )
    r = top.rule.rule
    return RootCause(
        rule_id=r.id, category=r.category, title=r.title, explanation=r.root_cause, fix=r.fix,
        verify=r.verify, evidence=top.evidence,
        rule_evidence=f"{r.evidence.kind}: {r.evidence.provenance}",
    )


def _collateral(rows: list[dict], by_id: dict[str, LoadedRule], init_rank: int | None) -> list[Collateral]:
    """Echo findings grouped by rule; the initiating rank's own echoes are left out."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        if init_rank is not None and r["rank"] == init_rank:
            continue
        groups[r["rule_id"]].append(r)
    out = []
    for rule_id, rs in groups.items():
        rule = by_id[rule_id].rule
        out.append(Collateral(
            rule_id=rule_id, category=rule.category, title=rule.title,
            ranks=sorted({r["rank"] for r in rs if r["rank"] is not None}),
            nodes=sorted({r["node"] for r in rs if r["node"] is not None}),
            count=len({(r["file"], r["line_no"]) for r in rs}), first=_ev(rs[0]),
        ))
    return sorted(out, key=lambda c: (-len(c.ranks), -c.count))


def _with_message(con: duckdb.DuckDBPyConnection, row: dict) -> dict:
    """A deviating line's row with its message, which ``deviating`` leaves out.

    Found again by file, lines, kind and shape: two events of one line (pieces of a
    progress-bar line) that also share those differ in digits at most."""
    if "message" in row:
        return row
    found = _one(con, "SELECT message FROM events WHERE file = ? AND line_no = ? AND line_end = ? "
                      "AND kind IS NOT DISTINCT FROM ? AND shape = ? AND ts IS NOT DISTINCT FROM ? LIMIT 1",
                 [row["file"], row["line_no"], row["line_end"], row["kind"], row["shape"], row["ts"]])
    return {**row, "message": found[0] if found else row["template"]}


def _first_deviating(con: duckdb.DuckDBPyConnection, row: dict) -> FirstDeviating:
    row = _with_message(con, row)
    ctx = _rows(
        con,
        """SELECT * FROM events WHERE file = ? AND line_no < ?
           AND (rank IS NOT DISTINCT FROM ? OR rank IS NULL)
           ORDER BY line_no DESC LIMIT ?""",
        [row["file"], row["line_no"], row["rank"], CONTEXT_EVENTS],
    )
    base = _ev(row)
    if row.get("subject_rank") is not None:
        base.rank = row["subject_rank"]  # a launcher line about rank 1 is rank 1's deviation
    return FirstDeviating(**base.model_dump(), context=[_ev(c) for c in reversed(ctx)], why=row["why"])


def _missing(
    con: duckdb.DuckDBPyConnection, known_ranks: list[int], hyps: list[_Hyp], collateral_rows: list[dict]
) -> list[str]:
    out = []
    silent = [r for (r,) in con.execute("SELECT rank FROM ranks_without_logs ORDER BY rank").fetchall()]
    if silent:
        out.append(f"rank(s) {ranges(silent)} left no log in this directory: collect their output")
    kinds = {k for (k,) in con.execute("SELECT DISTINCT kind FROM events WHERE kind IS NOT NULL").fetchall()}
    if any(r["category"] == "nccl_timeout_hang" for r in collateral_rows) and not any(k.startswith("nccl.") for k in kinds):
        out.append("no NCCL lines: re-run with NCCL_DEBUG=INFO to see which peer or link failed")
    if "c10d.watchdog_timeout" in kinds and "c10d.dump_signal" not in kinds:
        out.append("enable the flight recorder (TORCH_NCCL_TRACE_BUFFER_SIZE=2000, TORCH_NCCL_DUMP_ON_TIMEOUT=1) "
                   "to see each rank's last collective")
    return out
