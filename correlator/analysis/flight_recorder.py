"""Cross-rank inferences from Flight Recorder dumps (``flight_recorder.sql``).

Each rank's dump lists the collectives it enqueued, per process group, by
sequence number. Compared across ranks they say who the others wait for (the
rank whose last sequence number is behind an unretired one of theirs), who ran
a different collective or a different size at the same sequence number (the
minority), whether that difference is only the batch dimension (uneven data,
not a code path), and which rank left no dump. A 1-against-1 disagreement is
reported as a tie with what would break it, never settled by a silent pick.
The rows join ``inferred``, so they become hypotheses like the other
cross-rank inferences; torch's own analyser (``fr_trace``) is not needed.
"""

from __future__ import annotations

import duckdb

from correlator.analysis.evidence import sql_file

_REST = "-- @@"


def create_fr_inferences(con: duckdb.DuckDBPyConnection) -> None:
    """Add the Flight Recorder rows to ``inferred`` (created by ``inferences.sql``)."""
    entries, rest = sql_file("flight_recorder.sql").split(_REST, 1)
    con.execute(entries)
    if con.execute("SELECT count(*) FROM fr_entries").fetchone()[0]:
        con.execute(_REST + rest)
