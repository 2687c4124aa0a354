"""Who a launcher rendezvous waited for, when no worker ever started.

A rendezvous timeout (torchrun's agent gave up waiting for ``--nnodes`` agents)
is a witness's report: the culprit is the node that did not join. With no
worker started, the logs hold agents only, so:

* an agent whose first line comes after another agent had already given up was
  not there in time: that node started late (its scheduler, its container pull),
  a cause from outside the job (kind ``external``, its node named);
* otherwise every agent in the logs was a witness, and the node that never
  joined left no log: nobody can be named (kind ``unknown``).

A node is the one its lines name; where none does, a file's top directory
stands for it (one directory per node, as multi-node captures are laid out).
"""

from __future__ import annotations

from datetime import datetime

import duckdb

_SQL = """
WITH per_node AS (
    SELECT coalesce(node, CASE WHEN file LIKE '%/%' THEN split_part(file, '/', 1) END) AS node,
           min(ts_aligned) AS first
    FROM events WHERE ts_aligned IS NOT NULL GROUP BY ALL
)
SELECT node, first FROM per_node
WHERE node IS NOT NULL AND first > $gave_up
ORDER BY first DESC
"""


def late_node(con: duckdb.DuckDBPyConnection, gave_up: datetime | None) -> tuple[str, datetime] | None:
    """The node whose agent first logged after the first agent gave up (``gave_up``),
    with that time; None when every node in the logs was there in time (or two were late)."""
    if gave_up is None:
        return None
    found = con.execute(_SQL, {"gave_up": gave_up}).fetchall()
    return found[0] if len(found) == 1 else None
