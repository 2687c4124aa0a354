"""From a timeline to a verdict: who failed first, why, and what was only an echo.

The entry points (``analyze``, ``analyze_with_events``) open the target as a
timeline and run the steps, each a module of this package that reads the tables
the previous one made on the DuckDB connection and writes its own:

1. ``align``: per-node clock offsets -> view ``events`` with ``ts_aligned``;
2. ``findings``: the rules' matches -> ``findings``, ``rule_edges``;
3. ``deviation``: minority templates -> ``first_deviating_candidates``;
   ``copies``: copies of one failure (stderr.log, error.json, tee echo, launcher
   table) reconciled into one logical event, stamp intervals (``stamp_bounds``);
4. ``hypotheses``: cross-rank inferences (``inferred``), hypotheses, scores;
5. ``decide``: the verdict.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pyarrow as pa

from correlator.analysis import align, copies, deviation, findings, hypotheses, outcome
from correlator.analysis.decide import decide
from correlator.analysis.rulebook import LoadedRule, load_rules
from correlator.ingest import IngestOptions
from correlator.progress import step
from correlator.target import open_timeline
from correlator.verdict import Verdict


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
    with analysis_open(target, baseline=baseline, rules_dirs=rules_dirs, options=options,
                       builtin_rules=builtin_rules) as (verdict, con):
        events = _report_events(con, max_events) if max_events else pa.table({c: [] for c in REPORT_EVENT_COLUMNS})
        return verdict, events


@contextmanager
def analysis_open(
    target: str,
    *,
    baseline: str | None = None,
    rules_dirs: tuple[str, ...] = (),
    options: IngestOptions | None = None,
    builtin_rules: bool = True,
) -> Iterator[tuple[Verdict, duckdb.DuckDBPyConnection]]:
    """The verdict, with the timeline still open on the connection that decided it
    (views ``events``, ``timeline_raw_rows``; tables ``event_role``, ``clock_offsets``):
    reports and batch draw what they cite from it without opening the timeline again."""
    rules = load_rules([Path(d) for d in rules_dirs], builtin=builtin_rules)
    with open_timeline(target, options) as con:
        baseline_templates = _baseline_templates(baseline, options) if baseline else None
        with step("analysis"):
            verdict = _verdict(con, rules, baseline_templates, baseline)
        yield verdict, con


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


def _baseline_templates(baseline: str, options: IngestOptions | None) -> set[str]:
    with open_timeline(baseline, options) as con:
        return {t for (t,) in con.execute("SELECT DISTINCT template FROM events").fetchall()}



def _verdict(
    con: duckdb.DuckDBPyConnection, rules: list[LoadedRule], baseline_templates: set[str] | None,
    baseline: str | None,
) -> Verdict:
    located = align.prepare(con)
    findings.find(con, rules, located)
    copies.reconcile(con)  # stamp intervals; one logical event per failure, whichever copies were collected
    deviation.find_deviations(con, baseline_templates)
    copies.reconcile_deviation(con)
    hypotheses.create_inferences(con)
    outcome.find_outcome(con)
    copies.reconcile_outcome(con)
    return decide(con, rules, baseline)
