"""The first odd line of a rank the others waited for.

A rank named by inference (silent while its peers timed out, the odd one out,
the rank whose store key never came) often printed no error: what deviates is
what it was doing instead of what its peers did. Its first odd line is the
first of its own lines whose template no other rank prints, after the last
template it shares with them: the start of the loop it was busy in (``still
loading shard 1/64``), the role line of a rank that had nothing to do, the
preparation a late rank was still in. A rank that stopped on a shared line
(its last step line, like its peers') has none: its silence is the deviation.
No wording is looked for; only which templates the other ranks print.
"""

from __future__ import annotations

import duckdb

from correlator.analysis.evidence import rows

_SQL = """
WITH mine AS (
    SELECT file, line_no, line_end, rank, node, ts, ts_aligned, ts_estimated, template, message
    FROM events WHERE rank = $rank AND source NOT IN ('torchrun', 'slurm') AND template IS NOT NULL
),
shared AS (
    SELECT DISTINCT template FROM events
    WHERE rank IS NOT NULL AND rank <> $rank AND template IN (SELECT template FROM mine)
),
ordered AS (
    SELECT *, template IN (SELECT template FROM shared) AS is_shared,
           row_number() OVER (ORDER BY ts_aligned NULLS LAST, file, line_no) AS i
    FROM mine
)
SELECT * EXCLUDE (is_shared, i, template) FROM ordered
WHERE NOT is_shared AND i > coalesce((SELECT max(i) FROM ordered WHERE is_shared), 0)
ORDER BY i LIMIT 1
"""


def first_odd_line(con: duckdb.DuckDBPyConnection, rank: int) -> dict | None:
    """The row of ``rank``'s first line no peer's template matches, after the last
    one they share; None when it ends on a shared line or its peers print nothing."""
    if not con.execute("SELECT count(*) FROM events WHERE rank IS NOT NULL AND rank <> ?", [rank]).fetchone()[0]:
        return None
    found = rows(con, _SQL, {"rank": rank})
    if not found:
        return None
    row = found[0]
    row["subject_rank"] = rank
    row["why"] = ("its first line no other rank prints, after the last line it shares with them: "
                  "what it was doing while the others waited")
    return row
