"""Step 3: what deviates -> ``deviating`` and ``first_deviating_candidates``.

``bounds.sql`` gives unstamped findings an upper bound in time (no later than
the failure they caused); ``deviation.sql`` finds the templates only a minority
of ranks (or nodes) print, or that a healthy baseline never printed.
"""

from __future__ import annotations

import duckdb

from correlator.analysis.evidence import sql_file


def find_deviations(con: duckdb.DuckDBPyConnection, baseline_templates: set[str] | None) -> None:
    con.execute(sql_file("bounds.sql"))
    if baseline_templates is not None:
        con.execute("CREATE TEMP TABLE baseline_templates (template VARCHAR)")
        con.executemany("INSERT INTO baseline_templates VALUES (?)", [[t] for t in baseline_templates])
    else:
        con.execute("CREATE TEMP TABLE baseline_templates AS SELECT NULL::VARCHAR AS template WHERE false")
    con.execute(sql_file("deviation.sql").replace("$USE_BASELINE", "true" if baseline_templates is not None else "false"))

