"""Step 2: the rules over the aligned timeline -> table ``findings``.

Every (rule, event) match, with the rank each match blames (a launcher line
blames the failed child), plus ``rule_edges`` (the rules' causal edges) that
scoring uses. Matching itself is the rulebook's (``rulebook.create_findings``).
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from correlator.analysis.rulebook import BLAME_TABLES_GIVEN_INITS_SQL, LoadedRule, create_findings

# A GPU (PCI bus) of a node that NCCL saw several ranks use names none of them: the
# rules pick one rank per bus, and among several that pick is arbitrary (a 1,024-rank
# job named a different rank than the same failure at 64). A fault on that GPU stays
# node-level, where decide's corroboration takes the rank whose own error says so.
_ONE_RANK_PER_BUS_SQL = """
CREATE OR REPLACE TEMP TABLE blame_bus AS
SELECT bus, node, min(rank) AS rank FROM blame_bus GROUP BY bus, node HAVING count(DISTINCT rank) = 1
"""


def find(con: duckdb.DuckDBPyConnection, rules: list[LoadedRule], located: bool) -> None:
    # NCCL_INITS_SQL's table, from the rows alignment read anyway
    con.execute("CREATE OR REPLACE TEMP TABLE nccl_inits AS "
                "SELECT node, rank, bus_id, nranks FROM attr_rows WHERE kind = 'nccl.comm_init'")
    con.execute(BLAME_TABLES_GIVEN_INITS_SQL)
    con.execute(_ONE_RANK_PER_BUS_SQL)
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

