"""Whose lines a file holds, where its lines name no rank: stage 2's per-file readings, live.

``AppendParser`` runs ingest's per-file stages only; what ``analyze`` learns across a
file's lines and across files (``correlator/ingest/attribute.sql``) is not applied to
the live events. Without it a per-rank file whose lines name no rank (a numbered
``worker-3.log`` or ``out_2.txt`` of an unprefixed trainer) was "a file that names no
rank" and never judged late, so the rank that stalled in it was never named. Here
are the readings of stage 2 that decide such a file's rank, in its order:

* **stream**: a file whose lines that show a rank all show the same one: its other
  lines are that rank's (``stream_rank``; not a file whose ``rank R of N`` lines state
  several);
* **stated**: a file that shows none, whose ``rank R of N`` lines state one rank
  (``file_app_rank``);
* **sibling**: a member of a family of numbered siblings (``attribute.sibling``:
  ``worker-#``, ``out_#``) that shows none, where at least two members show a rank
  and each shows one, equal to its number; a number another file shows is not given
  again (``family_rank``).

Launcher consoles (lines of torchrun or Slurm, a child's reported error) and
node-level files (dmesg, nvidia-smi) speak of other processes: never read as a rank.

A member of a family that gets no rank (no member shows one yet, or the members
disagree: pods numbered from another base, nodes of several ranks) is still one
stream of its own: ``judged`` lists it, and the progress judges its silence per file
and names the file. A file that shows several ranks, or none and has no siblings (a
pod's log of several ranks, one console), stays no rank: never late.

State per file is a few numbers and at most two ranks: bounded whatever the job's length.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from correlator.ingest.attribute import facts_from_path, sibling
from correlator.ingest.pipeline import _child_reports

_LAUNCHER_SOURCES = ("torchrun", "slurm")
_APP_RANK_ATTRS = ("app_rank", "lightning_rank")


@dataclass
class _File:
    family: str | None
    member: int | None
    node_level: bool
    launcher: bool = False
    shown: set[int] = field(default_factory=set)  # ranks its lines show (at most two kept)
    stated: set[int] = field(default_factory=set)  # ranks its `rank R of N` lines state (at most two)


class FileRanks:
    """The rank of each followed file's unranked lines, as far as the lines so far tell."""

    def __init__(self) -> None:
        self.files: dict[str, _File] = {}
        self.rank: dict[str, int] = {}  # file -> the rank of its lines that name none
        self.judged: set[str] = set()  # rankless family members: each file one stream

    def see(self, ev: pl.DataFrame) -> bool:
        """Take a poll's events (``LIVE_COLUMNS``, attrs intact); True when a reading changed."""
        if ev.height == 0:
            return False
        # a launcher's console: its own lines, or its report of a child's error (stage 2's
        # `launcher_files`, found here by the report's literal words, as stage 1 finds it)
        launcher = (ev.get_column("source").is_in(_LAUNCHER_SOURCES).fill_null(False)
                    | _child_reports(ev.get_column("message")).fill_null(False))
        per_file = ev.select("file", "rank", launcher.alias("_launcher")).group_by("file", maintain_order=True).agg(
            pl.col("rank").drop_nulls().unique().head(2).alias("shown"), pl.col("_launcher").any())
        said: dict[str, list[int | None]] = {}
        if _has_attrs(ev):  # `rank R of N` lines are few: their attrs read alone
            app = ev.filter(pl.col("kind") == "app.world_size")
            if app.height:
                stated = pl.coalesce(*(_attr(a) for a in _APP_RANK_ATTRS)).cast(pl.Int64, strict=False)
                said = dict(app.group_by("file").agg(stated.drop_nulls().unique().head(2)).iter_rows())
        for rel, shown, is_launcher in per_file.iter_rows():
            f = self.files.get(rel)
            if f is None:
                fam = sibling(rel)
                f = self.files[rel] = _File(fam[0] if fam else None, fam[1] if fam else None,
                                            facts_from_path(rel).node_level)
            f.launcher |= bool(is_launcher)
            _add(f.shown, shown)
            _add(f.stated, said.get(rel, []))
        before = (dict(self.rank), set(self.judged))
        self._read()
        return (self.rank, self.judged) != before

    def _read(self) -> None:
        own: dict[str, int | None] = {}  # a file's own reading (stream, then stated); None: none
        several: set[str] = set()
        for rel, f in self.files.items():
            if f.launcher or f.node_level:
                continue
            if len(f.shown) > 1 or (not f.shown and len(f.stated) > 1):
                several.add(rel)
            elif f.shown:
                own[rel] = next(iter(f.shown)) if len(f.stated) <= 1 else None
            elif f.stated:
                own[rel] = next(iter(f.stated))
            else:
                own[rel] = None
        rank = {rel: r for rel, r in own.items() if r is not None}
        taken = set(rank.values())
        judged: set[str] = set()
        for members in _families(self.files, set(own) | several).values():
            if len(members) < 2:
                continue
            numbers = [self.files[m].member for m in members]
            agree = sum(1 for m in members if own.get(m) is not None and own[m] == self.files[m].member)
            disagree = any(m in several or (own.get(m) is not None and own[m] != self.files[m].member)
                           for m in members)
            ok = agree >= 2 and not disagree and len(set(numbers)) == len(numbers)
            for m in members:
                if m in several or own.get(m) is not None:
                    continue
                number = self.files[m].member
                if ok and number is not None and number not in taken:
                    rank[m] = number
                else:
                    judged.add(m)
        self.rank, self.judged = rank, judged


def _families(files: dict[str, _File], readable: set[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for rel in readable:
        fam = files[rel].family
        if fam is not None:
            out.setdefault(fam, []).append(rel)
    return out


def _add(into: set[int], values: list[int | None]) -> None:
    for v in values:
        if v is not None and len(into) < 2:
            into.add(int(v))


def _has_attrs(ev: pl.DataFrame) -> bool:
    dtype = ev.schema.get("attrs")
    return isinstance(dtype, pl.List) and isinstance(dtype.inner, pl.Struct)


def _attr(key: str) -> pl.Expr:
    """The value of ``key`` in a row's attrs (a list of key/value structs), or null."""
    return (pl.col("attrs").list.eval(pl.element().filter(pl.element().struct.field("key") == key)
                                      .struct.field("value")).list.last())
