"""Step 1: the timeline as the analysis sees it, with each node's clock aligned.

``prepare`` renames the opened timeline to ``timeline_raw`` (deriving columns an
older timeline lacks), runs ``align.sql`` (per-node clock offsets from events
that happen together on every rank: the same training step, one communicator's
NCCL init, one collective's watchdog timeout) and creates the view ``events``
with ``ts_aligned``.
"""

from __future__ import annotations

import duckdb

from correlator.analysis.evidence import sql_file
from correlator.target import ROWS_VIEW
from correlator.timeline.schema import sql_literal
from correlator.timeline.shapes import SHAPE_SQL


def prepare(con: duckdb.DuckDBPyConnection) -> bool:
    """Views ``timeline_raw`` and ``events`` (aligned); True when the timeline's rows
    are addressable by position (``timeline_raw_rows``)."""
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
    con.execute(sql_file("align.sql"))
    _create_aligned_events(con)
    return located


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

