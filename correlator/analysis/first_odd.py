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

import re
from collections import Counter

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


# A line every compared rank prints once or a few times (a set-up or a per-phase line, not a
# step line) whose text is the same on every rank but one: that rank's is odd ("gathering
# per-class counts (5 classes)" where the others say 4, "resuming from ckpt/rank2.pt (0
# bytes)" where the others' files have a size). Numbers that are the rank's own (its file
# name, "rank 2") are not a difference. Values that vary from rank to rank anyway (losses,
# timings, ports, pids) make the peers disagree among themselves: no line of theirs is odd.
_ONCE = 3  # lines of a template a rank prints at most, to be compared occurrence by occurrence
_MIN_AGREEING = 2

_SHARED_SQL = """
WITH per AS (  -- templates no rank prints more than a few times: set-up and phase lines
    SELECT template, rank, count(*) AS n FROM events
    WHERE rank IS NOT NULL AND template IS NOT NULL AND source NOT IN ('torchrun', 'slurm')
      AND coalesce(level, 'INFO') NOT IN ('ERROR', 'CRITICAL')
    GROUP BY template, rank
),
few AS (SELECT template FROM per GROUP BY template HAVING max(n) <= $once AND count(*) > $min_agreeing),
-- a rank's lines after its first error are its failure's aftermath (a dump written, a
-- teardown), not where it began to differ: a line after one in its file, or stamped later
errs AS (
    SELECT rank, file, min(line_no) AS line_no, min(ts_aligned) FILTER (WHERE NOT ts_estimated) AS ts
    FROM events WHERE rank IS NOT NULL AND level IN ('ERROR', 'CRITICAL') GROUP BY rank, file
),
first_err AS (SELECT rank, min(ts) AS ts FROM errs GROUP BY rank)
SELECT e.rank, e.template, e.file, e.line_no, e.line_end, e.node, e.ts, e.ts_aligned, e.ts_estimated, e.message,
       row_number() OVER (PARTITION BY e.rank, e.template ORDER BY e.ts_aligned NULLS LAST, e.file, e.line_no) AS k
FROM events e
LEFT JOIN errs x ON x.rank = e.rank AND x.file = e.file
LEFT JOIN first_err f ON f.rank = e.rank
WHERE e.rank IS NOT NULL AND e.template IN (SELECT template FROM few)
  AND coalesce(e.level, 'INFO') NOT IN ('ERROR', 'CRITICAL')
  AND (x.line_no IS NULL OR e.line_no < x.line_no)
  AND (f.ts IS NULL OR e.ts_aligned IS NULL OR e.ts_estimated OR e.ts_aligned <= f.ts)
QUALIFY k <= $once
LIMIT $max_rows
"""
_MAX_ROWS = 200_000  # beyond this many set-up lines the comparison is skipped, not slowed down

# when a line was printed and by which process are no difference: its stamp (ISO, syslog,
# glog's "I1206 02:03:57.785"), a time of day, a pid in brackets
_WHEN_AND_WHO = re.compile(
    r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"
    r"|\b[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+|\b\d\d:\d\d:\d\d(?:[.,]\d+)?|\[\d+\]|\bpid[ =:]?\d+"
)


def _one_odd(texts: dict[int, str]) -> int | None:
    """The one rank whose text differs from all the others', which all agree."""
    counts = Counter(texts.values())
    if len(counts) != 2 or min(counts.values()) != 1:
        return None
    lone = next(t for t, n in counts.items() if n == 1)
    return next(r for r, t in texts.items() if t == lone)


def _odd_rank(messages: dict[int, str]) -> int | None:
    """The odd rank among these ranks' messages of one place, their stamps and pids aside.
    A number that is each rank's own in the same place on every rank ("rank 2",
    "ckpt/rank2.pt", "shard_02.npz") is the same text: it names the rank, it is no difference."""
    plain = {r: _WHEN_AND_WHO.sub("<t>", m) for r, m in messages.items()}
    tokens = {r: re.split(r"(\d+)", t) for r, t in plain.items()}
    if len({len(t) for t in tokens.values()}) == 1:
        width = len(next(iter(tokens.values())))
        # (zero-padded too: "shard_03", "rank_0003" name rank 3)
        own = [i for i in range(1, width, 2) if all(int(t[i]) == r for r, t in tokens.items())]
        for t in tokens.values():
            for i in own:
                t[i] = "<rank>"
        plain = {r: "".join(t) for r, t in tokens.items()}
    return _one_odd(plain)


def odd_value_lines(con: duckdb.DuckDBPyConnection) -> dict[int, dict]:
    """Per rank, its first line whose text differs from what every other rank printed in
    the same place (same template, same occurrence), where at least two peers printed it
    and all agree. Ranks with no such line are absent."""
    found = rows(con, _SHARED_SQL, {"once": _ONCE, "min_agreeing": _MIN_AGREEING, "max_rows": _MAX_ROWS})
    if not found or len(found) >= _MAX_ROWS:
        return {}
    by_place: dict[tuple[str, int], dict[int, dict]] = {}
    for row in found:
        by_place.setdefault((row["template"], row["k"]), {})[row["rank"]] = row
    odd: dict[int, list[dict]] = {}
    for ranks in by_place.values():
        if len(ranks) <= _MIN_AGREEING:
            continue
        r = _odd_rank({r: row["message"] for r, row in ranks.items()})
        if r is None:
            continue
        odd.setdefault(r, []).append(ranks[r])
    out = {}
    for r, lines in odd.items():
        first = min(lines, key=lambda x: (x["ts_aligned"] is None, x["ts_aligned"] or 0, x["file"], x["line_no"]))
        first = {k: v for k, v in first.items() if k not in ("template", "k")}
        first["subject_rank"] = r
        first["why"] = ("every other rank printed this line with the same values; this rank's differ: "
                        "the first place it did something else")
        out[r] = first
    return out
