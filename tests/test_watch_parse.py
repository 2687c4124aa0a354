"""Appended lines are parsed by ingest's own per-file stages: fed in pieces, a file gives
the events it gives whole (``AppendParser`` against ``lines_as_events``)."""

from __future__ import annotations

import itertools
from pathlib import Path

import polars as pl
import pytest

from correlator.ingest import AppendParser, lines_as_events
from correlator.ingest.read import AppendedLines
from correlator.timeline.problems import ProblemLog

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
COLUMNS = ["line_no", "line_end", "kind", "level", "template"]


@pytest.mark.parametrize("rel", ["gloo-data-error-per-rank/rank2.log", "torchrun-tee-console/console.log"])
def test_pieces_parse_as_the_whole(rel: str) -> None:
    raw = (SAMPLES / rel).read_bytes()
    whole = lines_as_events(raw.decode().splitlines(), file="x.log").select(COLUMNS).to_pylist()
    parser, lines = AppendParser("job"), AppendedLines("x.log", ProblemLog(echo=False))
    got: list[dict] = []
    # cut in three, each cut in the middle of the file's lines (a traceback included)
    cuts = [0, len(raw) // 3, 2 * len(raw) // 3, len(raw)]
    for a, b in itertools.pairwise(cuts):
        a = raw.rfind(b"\n", 0, a) + 1 if a else 0
        b = raw.rfind(b"\n", 0, b) + 1 if b < len(raw) else b
        first, chunk = lines.lines(raw[a:b])
        ev = parser.parse({"x.log": (first, chunk)})
        got += ev.filter(~ev["pending"]).select(COLUMNS).to_dicts()
    ev = parser.parse({}, flush=("x.log",))
    got += ev.select(COLUMNS).to_dicts()
    assert [{k: str(v) for k, v in e.items()} for e in got] == [{k: str(v) for k, v in e.items()} for e in whole]


def test_a_followed_file_indented_as_a_block_parses_as_ingest_reads_it():
    lines = ["Traceback (most recent call last):", '  File "/srv/x/run.py", line 3, in <module>', "    go()",
             "ValueError: bad shard index 7", "step 12 loss 0.48"]
    p = AppendParser("job")
    ev = p.parse({"log.txt": (1, pl.Series(["   " + ln for ln in lines]))}, flush=("log.txt",))
    assert ev.sort("line_no")["line_end"].to_list() == [4, 5]
