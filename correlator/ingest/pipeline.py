"""Ingest: a job's logs -> one timeline (Parquet or DuckDB).

Two stages, so that per-file work runs in parallel and job-wide facts can be
applied afterwards without holding the timeline in memory:

1. **Per file** (worker processes, one file at a time, streamed in batches;
   small plain files several to a batch, each row keeping its file's index):
   read -> demux -> stamp -> fold -> classify -> template -> estimate missing
   stamps, written as finished Parquet parts (the timeline's columns and
   encoding, plus three columns stage 2 reads) into a scratch directory, each
   with two small side files: the events job-wide facts are learned from, and
   per-file counts.
2. **Per job** (DuckDB over the side files only): what facts learned anywhere in
   the job change (``correlator/ingest/attribute.sql``): NCCL pid->rank, torchrun
   tables, one-rank-per-file, node names, the year of year-less stamps. Only the
   parts with such changes are rewritten (in the workers); what stage 1 can answer
   exactly for one file (a file whose path and lines name no node takes the one host
   its own lines name: ``_file_host``) it writes at once, so that a flat folder of
   rank files costs no rewrite. The timeline file is
   then every part's row groups copied as they are under one footer
   (``correlator/ingest/parquet_concat.py``), so no value is encoded twice.

Where the tasks of both stages run is an engine's business (``correlator.engine``):
this machine's worker processes by default, or Ray tasks (``--engine ray``), which
write the same parts (byte for byte) into a scratch directory beside the output, on
the filesystem the cluster shares. Stage 2's decisions are always made here, in one
DuckDB over the side files (a few rows a part), never over the events.

A job of tens of GB need not become one file: ``out_dir`` keeps the parts
themselves as the timeline (``write_parts_dir``, ``correlator.timeline.parts_dir``),
each finished where it lies (its footer written again, no data copied), so this
process never reads the events at all: its memory is the side files' and the
per-file counts', whatever the job's size.
"""

from __future__ import annotations

import errno
import fnmatch
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from correlator.engine import Engine, Task, failures_raise
from correlator.engine.local import LocalEngine
from correlator.ingest.attribute import PathFacts, facts_from_path, sibling
from correlator.ingest.classify import ATTR_TYPE, classify
from correlator.ingest.demux import (
    SHAPE_CODE,
    _rows_where,
    join_hard_wraps,
    pid_in_record_head,
    rank_a_pid_states,
    rank_in_record_head,
    restrip_glued,
    split_fused_mpi,
    split_glued_progress,
    split_kept_segments,
    strip_prefixes,
)
from correlator.ingest.discover import InputFile, discover
from correlator.ingest.flight_recorder import fr_events
from correlator.ingest.fold import CHILD_REPORT, fold, one_stream, per_stream
from correlator.ingest.json_records import RECORD_LEVEL, unwrap_json_records
from correlator.ingest.options import IngestOptions, NothingToRead
from correlator.ingest.parquet_concat import (
    concat_parquet,
    finish_in_place,
    footer_path,
    save_prepared,
)
from correlator.ingest.polars_thread import on_polars_thread
from correlator.ingest.read import LineBatch, iter_line_batches
from correlator.ingest.record_heads import (
    unrepeat_record_heads,
    without_escaped_terminal_control,
    without_pasted_colour_codes,
    without_terminal_control,
)
from correlator.ingest.secrets import part_has_secret
from correlator.ingest.templates import templates
from correlator.ingest.timestamps import parse_timestamps
from correlator.ingest.workers import PARALLEL_MIN_BYTES, discard_early, worker_pool
from correlator.output import atomic_dir, atomic_path
from correlator.progress import step
from correlator.timeline.parts_dir import is_timeline_dir, write_meta
from correlator.timeline.problems import Problem, ProblemLog
from correlator.timeline.schema import (
    EVENT_SCHEMA,
    FILE_SCHEMA,
    LEVELS,
    SCHEMA_VERSION,
    sql_literal,
)
from correlator.timeline.secrets import SECRETS_KEY, column_has_secret, secrets_note
from correlator.timeline.shapes import digit_shapes, with_new_texts

if TYPE_CHECKING:  # imported where stage 2 runs: a worker process never needs it (90 ms)
    import duckdb

# Year given to year-less stamps in stage 1; stage 2 moves them to the job's year.
# A leap year, so "Feb 29" in a glog line still parses.
PROVISIONAL_YEAR = 2000

# Demux / stamp facts kept as attrs when present.
_EXTRA_ATTRS = {"boot_s": "boot_s", "task": "task", "host": "host", "glued": "glued_after_progress_bar"}
_CARRY = ["fi", "part", "rank", "local_rank", "task", "pid", "host", "ts_needs_year", "boot_s", "glued"]


@dataclass
class IngestResult:
    job: str
    files: int
    events: int
    lines: int
    bytes_read: int
    seconds: float
    problems: ProblemLog = field(default_factory=ProblemLog)


# --------------------------------------------------------------------------- stage 1


@dataclass
class _StreamState:
    """What one file's previous batch leaves to the next: last stamp per stream."""

    last_ts: pl.DataFrame | None = None
    file_last_ts: pl.Expr = field(default_factory=lambda: pl.lit(None, dtype=pl.Datetime("us", "UTC")))
    file_last_ny: pl.Expr = field(default_factory=lambda: pl.lit(None, dtype=pl.Boolean))
    year: int | None = None  # the year the file's full stamps carry
    # (fi, line_no) of lines whose launcher prefix named a rank / pid / task that does
    # not fit its column (past 2^31, Unicode digits): read as NULL, reported by the caller
    bad_prefixes: list[tuple[int, int]] = field(default_factory=list)
    # the whitespace every non-blank line of the file's first batch starts with (a paste
    # indented as a block, a console that prints " <stamp> <line>"): not indentation of
    # the log's own, which fold reads as "continues the line above"
    indent: str | None = None


def common_indent(lines: pl.Series) -> str:
    """The leading whitespace all non-blank ``lines`` share ("" if any starts without)."""
    lead = lines.filter(lines.str.strip_chars().str.len_bytes() > 0).str.extract(r"^([ \t]*)", 1)
    if lead.len() == 0:
        return ""
    shortest = lead.str.len_chars().min()
    if not shortest:
        return ""
    head = lead.str.slice(0, shortest)
    return str(head[0]) if head.n_unique() == 1 else ""


def _dedent(lines: pl.Series, state: _StreamState) -> pl.Series:
    if state.indent is None:
        state.indent = common_indent(lines)
    return lines.str.strip_prefix(state.indent) if state.indent else lines


def _stream_key(df: pl.DataFrame, files: _Files) -> pl.Expr:
    """One process's output within a file.

    The outermost wrapper's identity (Slurm task, torchrun local rank, pdsh host,
    Ray pid) names the stream; only without one does the rank do it, so that
    ``[default0]:[rank0]: Traceback`` and ``[default0]:step 5`` are one stream
    and a per-rank file's ``[rank2]:`` traceback joins its unprefixed lines.
    In a batch of several files, the file is part of the key.
    """
    fact = files.fact("rank")
    named = df.get_column("rank").drop_nulls().unique().to_list()
    # A per-rank file whose lines name no rank but the path's: the key is one
    # literal, not a cast and a concatenation on every row.
    same = not named or (files.n == 1 and named == files.values("rank"))
    rank = (fact if same else pl.coalesce(pl.col("rank"), fact)).cast(pl.Utf8).fill_null("")
    if files.all_null("local_rank") and df.select(
        pl.all_horizontal(pl.col(c).is_null().all() for c in ("task", "local_rank", "host", "pid"))
    ).item():
        key = pl.lit("r") + rank  # no wrapper anywhere in the batch (most per-rank files)
    else:
        wrapper = pl.concat_str(
            [
                pl.col("task").cast(pl.Utf8).fill_null(""),
                pl.coalesce(pl.col("local_rank"), files.fact("local_rank")).cast(pl.Utf8).fill_null(""),
                pl.col("host").fill_null(""),
                pl.col("pid").cast(pl.Utf8).fill_null(""),
            ],
            separator="|",
        )
        key = pl.when(wrapper != "|||").then(wrapper).otherwise(pl.lit("r") + rank)
    if files.n > 1:
        key = pl.col("fi").cast(pl.Utf8) + pl.lit("/") + key
    return key.alias("stream")


@dataclass
class _Files:
    """The files of one batch (usually one; several small ones read together) and
    what their paths say. Rows carry ``fi``, their file's index here."""

    rels: list[str]
    facts: list[PathFacts]

    @property
    def n(self) -> int:
        return len(self.rels)

    def values(self, name: str) -> list:
        """Each file's ``PathFacts.<name>`` (or ``file``, its path), in batch order."""
        return [getattr(f, name) for f in self.facts] if name != "file" else self.rels

    def fact(self, name: str) -> pl.Expr:
        """Each row's file's ``PathFacts.<name>`` (or ``file``, its path)."""
        dtype = {"rank": pl.Int32, "local_rank": pl.Int32, "node": pl.Utf8, "node_level": pl.Boolean,
                 "file": pl.Utf8}[name]
        values = self.values(name)
        if len(set(values)) == 1:
            return pl.lit(values[0], dtype=dtype)
        return pl.lit(pl.Series(values, dtype=dtype)).gather(pl.col("fi"))

    def all_null(self, name: str) -> bool:
        return all(v is None for v in self.values(name))


def _lines_to_events(
    lines: pl.Series, first_line_no: int, rel: str, facts: PathFacts, job: str, tz: str,
    state: _StreamState,
) -> pl.DataFrame:
    df = pl.DataFrame(
        {
            "fi": pl.repeat(0, len(lines), dtype=pl.UInt32, eager=True),
            "line_no": pl.int_range(first_line_no, first_line_no + len(lines), dtype=pl.Int64, eager=True),
            "text": lines,
        }
    )
    return _events(df, _Files([rel], [facts]), job, tz, state)


def lines_as_events(
    lines: list[str], *, file: str = "example.log", job: str = "example", tz: str = "UTC"
) -> pa.Table:
    """These lines, as the timeline's events (``EVENT_SCHEMA``'s columns, plain strings).

    One file's batch through the per-file stages (prefixes, stamps, folding,
    classification, templates), with what ``file``'s path says of rank and node;
    nothing is discovered, read or written, and nothing learned across files
    (stage 2) is applied. For checking a rule's example lines and for tests.
    """
    series = pl.Series("text", lines, dtype=pl.Utf8)
    ev = _lines_to_events(series, 1, file, facts_from_path(file), job, tz, _StreamState())
    return _plain_strings(_to_part(ev)).drop_columns(list(PART_EXTRAS))


# The columns ``AppendParser`` hands back: what a live view needs of an event.
LIVE_COLUMNS = ("file", "line_no", "line_end", "rank", "local_rank", "node", "source", "ts", "ts_estimated", "level",
                "kind", "template", "message", "attrs")


class AppendParser:
    """Stage 1 over lines as they are appended to followed files (``correlator watch``).

    The per-file stages of ``ingest`` (prefixes, stamps, folding, classification,
    templates), run once per poll over every file that grew, as one batch of several
    files: a batch's fixed cost (~20 ms) is paid once a poll, not once a file. Each
    file keeps its index for good, so its streams keep their identity from one poll
    to the next, and the stamps a batch leaves carry into the next (``_StreamState``).
    A file's last event may go on in its next lines (a traceback being written): its
    lines are kept and parsed again with them, and meanwhile it is handed back with
    ``pending`` set; ``parse(..., flush=...)`` takes it as finished. Nothing learned
    across files (stage 2) is applied: the final verdict comes from ``analyze``.
    """

    def __init__(self, job: str, tz: str = "UTC") -> None:
        self.job, self.tz = job, tz
        self._rels: list[str] = []
        self._facts: list[PathFacts] = []
        self._index: dict[str, int] = {}
        self._state = _StreamState()
        self._carry: dict[int, tuple[int, pl.Series]] = {}  # file index -> (first line no, lines)
        self._indent: dict[int, str] = {}  # file index -> the block indent of its first lines (_dedent)

    def _fi(self, rel: str) -> int:
        if rel not in self._index:
            self._index[rel] = len(self._rels)
            self._rels.append(rel)
            self._facts.append(facts_from_path(rel))
        return self._index[rel]

    def forget(self, rel: str) -> None:
        """Drop what is carried for ``rel`` (truncated: its line numbers start again)."""
        if rel in self._index:
            self._carry.pop(self._index[rel], None)

    def carried(self) -> list[str]:
        """The files whose last event is still held back."""
        return [self._rels[i] for i in self._carry]

    def parse(self, new: dict[str, tuple[int, pl.Series]], flush: tuple[str, ...] = ()) -> pl.DataFrame:
        """Events of the lines ``new`` gives per file (first line number, lines), in the
        order of files and lines; ``LIVE_COLUMNS`` plus ``pending``. ``flush``: files
        whose held-back event is taken as finished (they went quiet)."""
        pieces: list[tuple[int, int, pl.Series]] = []
        wanted = {self._fi(rel) for rel in (*new, *flush)}
        for fi in sorted(wanted):
            rel = self._rels[fi]
            first, lines = new.get(rel, (None, None))
            if lines is not None and len(lines):
                # dedented as ingest does, before a carried tail (already dedented) joins them
                # (once per file: setdefault would compute its argument on every poll)
                indent = self._indent.get(fi)
                if indent is None:
                    indent = self._indent[fi] = common_indent(lines)
                lines = lines.str.strip_prefix(indent) if indent else lines
            carry = self._carry.pop(fi, None)
            if carry is not None:
                if lines is not None and carry[0] + len(carry[1]) != first:  # a gap: start again
                    carry = None
                else:
                    first = carry[0]
                    lines = carry[1] if lines is None else pl.concat([carry[1], lines], rechunk=True)
            if lines is not None and len(lines):
                pieces.append((fi, first, lines))
        if not pieces:
            return pl.DataFrame(schema={c: pl.Null for c in (*LIVE_COLUMNS, "pending")}).head(0)
        counts = pl.DataFrame({"fi": [fi for fi, _, _ in pieces], "first": [first for _, first, _ in pieces],
                               "n": [len(lines) for _, _, lines in pieces]}, schema={"fi": pl.UInt32,
                               "first": pl.Int64, "n": pl.Int64})
        df = counts.select(  # one frame for every file's lines, as _work_on_small builds it
            pl.col("fi").repeat_by("n").explode(),
            pl.int_ranges("first", pl.col("first") + pl.col("n"), dtype=pl.Int64).explode().alias("line_no"),
        ).with_columns(pl.concat([lines for _, _, lines in pieces]).alias("text"))
        try:
            ev = _events(df, _Files(self._rels, self._facts), self.job, self.tz, self._state)
        except Exception:  # a parser bug must not stop the follower: these lines go unparsed
            return pl.DataFrame(schema={c: pl.Null for c in (*LIVE_COLUMNS, "pending")}).head(0)
        ev = ev.select(*LIVE_COLUMNS)
        finished = {self._rels[fi] for fi, _, _ in pieces if self._rels[fi] in flush and self._rels[fi] not in new}
        cuts = {f: c for f, c in _unfinished_per_file(ev).items() if f not in finished}
        for fi, first, lines in pieces:
            cut = cuts.get(self._rels[fi])
            if cut is None:
                continue
            tail = lines.slice(cut - first)
            if tail.str.len_bytes().sum() <= _MAX_CARRY_BYTES:
                self._carry[fi] = (cut, tail)
            else:
                cuts.pop(self._rels[fi])
        if not cuts:
            return ev.with_columns(pl.lit(False).alias("pending"))
        held = pl.DataFrame({"file": list(cuts), "_cut": list(cuts.values())}, schema={"file": pl.String,
                                                                                      "_cut": pl.Int64})
        return ev.join(held, on="file", how="left", maintain_order="left").with_columns(
            (pl.col("line_no") >= pl.col("_cut")).fill_null(False).alias("pending")).drop("_cut")


def _unfinished_per_file(ev: pl.DataFrame) -> dict[str, int]:
    """``_unfinished_event`` for every file of a batch at once: file -> the first line of
    its last event, where that event may go on in the file's next lines."""
    if ev.height == 0:
        return {}
    last = ev.group_by("file").agg(
        pl.col("line_no").gather(pl.col("line_end").arg_max()).first().alias("start"),
        pl.col("line_end").max().alias("end"),
    )
    spanned = ev.join(last, on="file").filter(pl.col("line_no") < pl.col("start")).group_by("file").agg(
        (pl.col("line_end").max() >= pl.col("start").first()).alias("spanned"))
    last = last.join(spanned, on="file", how="left").filter(
        ~pl.col("spanned").fill_null(False) & (pl.col("end") - pl.col("start") < _MAX_CARRY_LINES))
    return dict(zip(last.get_column("file").to_list(), last.get_column("start").to_list(), strict=True))


def _events(df: pl.DataFrame, files: _Files, job: str, tz: str, state: _StreamState) -> pl.DataFrame:
    """Stage 1 for the lines of ``df`` (``fi``, ``line_no``, ``text``, in file order)."""
    df = without_escaped_terminal_control(join_hard_wraps(without_terminal_control(df)))
    df = df.with_columns(pl.lit(0, dtype=pl.Int32).alias("part"))
    df = unwrap_json_records(df)
    # the lines' digit shapes, taken before demux: its searches ask them instead of
    # every line, and the rows it leaves unchanged (nearly all) keep them for fold
    raw_shapes, raw_codes = digit_shapes(df.get_column("text"))
    df = df.with_columns(raw_codes.alias(SHAPE_CODE))
    df = without_pasted_colour_codes(df, lambda d, test: _rows_where(d, raw_shapes, test))
    df = split_kept_segments(split_fused_mpi(df, raw_shapes), raw_shapes)
    before = df.get_column("text")
    df = strip_prefixes(df, shapes=raw_shapes)
    _note_bad_prefixes(df, before, state)
    df = split_glued_progress(df, raw_shapes)
    df = restrip_glued(df)
    df = unrepeat_record_heads(df, lambda d, test: _rows_where(d, raw_shapes, test))

    line_shapes = with_new_texts(df.get_column("text"), raw_shapes, df.get_column(SHAPE_CODE), keep_unused=True)
    stamps = parse_timestamps(df.get_column("text"), tz=tz, default_year=PROVISIONAL_YEAR, shapes=line_shapes)
    df = df.with_columns(
        stamps.get_column("ts"),
        stamps.get_column("ts_format"),
        stamps.get_column("boot_s"),
        stamps.get_column("ts_needs_year"),
    )
    if df.get_column("wrapper_ts").is_not_null().any():
        # a wrapper's stamp dates a line that has none of its own. kubectl's carries its zone;
        # a syslog header's is the machine's local time without a year, which it gets as the
        # lines' own year-less stamps do (stage 2's job year)
        wrapper = parse_timestamps(df.get_column("wrapper_ts").fill_null(""), tz=tz, default_year=PROVISIONAL_YEAR)
        own = pl.col("ts").is_not_null()
        df = df.with_columns(
            pl.coalesce(pl.col("ts"), wrapper.get_column("ts")).alias("ts"),
            pl.when(own).then(pl.col("ts_format")).otherwise(wrapper.get_column("ts_format")).alias("ts_format"),
            pl.when(own).then(pl.col("ts_needs_year"))
            .otherwise(wrapper.get_column("ts_needs_year")).alias("ts_needs_year"),
        )
    df = df.with_columns(_stream_key(df, files))
    # a rank field in a record's own head is that record's rank, read after the streams are
    # keyed: the record's traceback below it (exc_info) names no rank and is the same stream
    df = rank_a_pid_states(pid_in_record_head(rank_in_record_head(df)))
    df = df.drop(SHAPE_CODE)
    ev = fold(df, carry_cols=_CARRY + [c for c in (RECORD_LEVEL,) if c in df.columns], shaped=line_shapes)
    ev = ev.filter(_not_blank(ev.get_column("message"), line_shapes[0], ev.get_column("shape_code")))
    ev = _spawn_child_rank(ev)
    own_rank = ev.get_column("rank").is_not_null()  # the line's own prefix or record field
    # Path facts rank below the line's own prefix; Slurm's task id stands in for
    # the rank only when nothing else names one (one task per rank).
    ev = ev.with_columns(
        pl.coalesce(pl.col("rank"), files.fact("rank")).alias("rank"),
        pl.coalesce(pl.col("local_rank"), files.fact("local_rank")).alias("local_rank"),
    ).with_columns(
        pl.when(pl.col("rank").is_null() & pl.col("local_rank").is_null())
        .then(pl.col("task"))
        .otherwise(pl.col("rank"))
        .alias("rank"),
    )
    if any(f.node_level for f in files.facts):
        # a node's log (dmesg, a syslog file) is no rank's, except a line whose own prefix
        # says whose it is (a rank's `[rank1]: ...` that `logger` sent to syslog)
        node_level = files.fact("node_level")
        ev = ev.with_columns(
            pl.when(node_level & ~own_rank).then(pl.lit(None, dtype=pl.Int32)).otherwise(pl.col("rank")).alias("rank"),
            pl.when(node_level).then(pl.lit(None, dtype=pl.Int32)).otherwise(pl.col("local_rank")).alias("local_rank"),
        )

    # a one-line event's shape is its line's, known from the fold
    shapes, codes = with_new_texts(ev.get_column("message"), line_shapes[0], ev.get_column("shape_code"))
    ev = ev.drop("shape_code")
    ev = classify(ev, extra_attrs=_EXTRA_ATTRS, shapes=shapes, codes=codes)
    ev = _default_group_rank(ev, files)
    ev = ev.with_columns(templates(ev.get_column("message"), shapes, codes), _shape_column(shapes, codes))

    ev = _estimate_ts(ev, state, several_files=files.n > 1)
    ev = _give_year(ev, state)
    return _mark_child_reports(ev).select(
        pl.lit(job).alias("job"),
        pl.coalesce(pl.col("host"), files.fact("node")).alias("node"),
        pl.col("rank").cast(pl.Int32),
        pl.col("local_rank").cast(pl.Int32),
        pl.col("pid").cast(pl.Int32),
        pl.col("source"),
        files.fact("file").alias("file"),
        pl.col("line_no"),
        pl.col("ts"),
        pl.col("ts_estimated"),
        pl.col("level"),
        pl.col("template"),
        pl.col("message"),
        pl.col("attrs").cast(ATTR_TYPE),
        pl.col("line_end"),
        pl.col("kind"),
        pl.col("shape"),
        pl.col("task").cast(pl.Int32),
        files.fact("node").alias("node_alias"),
        pl.col("ts_year"),
        pl.col("part"),
        _host_attr(),
    )


# torch.multiprocessing.spawn's and Ray Train's reports of a child's exception (fold.py keeps
# each one event); a Ray header naming several ranks (`[Rank 0,3 Error Snippet]:`) names no
# one rank
_SPAWN_CHILD = "(?m)" + CHILD_REPORT
_CHILD_REPORT_LITERALS = ("terminated with the following error:", "Error Snippet]:")


def _child_reports(msg: pl.Series) -> pl.Series:
    """Which messages may hold a launcher's report of a child's error (literal scans)."""
    return (msg.str.contains(_CHILD_REPORT_LITERALS[0], literal=True)
            | msg.str.contains(_CHILD_REPORT_LITERALS[1], literal=True))


def _child_report_names(msg: pl.Series) -> tuple[pl.Series, pl.Series] | None:
    """The rows of ``msg`` holding a report of a child's error and the rank(s) each names
    (as printed), or None. The regex runs on the rows the literal scan admits only."""
    maybe = _child_reports(msg)
    if not maybe.any():
        return None
    idx = maybe.arg_true()
    found = msg.gather(idx).str.extract_groups(_SPAWN_CHILD)
    named = found.struct.field("1").fill_null(found.struct.field("2"))
    keep = named.is_not_null()
    if not keep.any():
        return None
    return idx.filter(keep), named.filter(keep)


def _spawn_child_rank(ev: pl.DataFrame) -> pl.DataFrame:
    """The child that ``mp.spawn``'s or Ray Train's report names is the rank of the error
    it carries (``fn(i, *args)``: the spawn index is the rank the job passes on, as every
    spawn-launched trainer does; Ray names the worker's world rank); a prefix on the line
    itself still wins. The report is the parent's (the launcher's, the driver's) line:
    attr ``child_report`` (the ranks it names) tells stage 2 that its file is a launcher's,
    whose other lines are not that child's."""
    reports = _child_report_names(ev.get_column("message"))
    if reports is None:
        return ev
    idx, named = reports
    rank = ev.get_column("rank").cast(pl.Int32)
    child = pl.select(pl.coalesce(rank.gather(idx), named.cast(pl.Int32, strict=False))).to_series()
    return ev.with_columns(rank.scatter(idx, child).alias("rank"))


def _mark_child_reports(ev: pl.DataFrame) -> pl.DataFrame:
    """Attr ``child_report`` (the ranks a launcher's report of a child's error names) on
    those events, once their attrs exist (``_spawn_child_rank``)."""
    reports = _child_report_names(ev.get_column("message"))
    if reports is None:
        return ev
    idx, named = reports
    report = pl.concat_list(pl.struct(pl.lit("child_report").alias("key"), pl.lit(named).alias("value")))
    marked = ev[idx].with_columns(pl.col("attrs").list.concat(report))
    return _replace_rows(ev, idx, marked)


# Past this many rows, replacing rows by slices would leave the frame in too many chunks
_FEW_REPLACED = 256


def _replace_rows(df: pl.DataFrame, idx: pl.Series, rows: pl.DataFrame) -> pl.DataFrame:
    """``df`` with its rows at ``idx`` (ascending) replaced by ``rows``, in order. A few as
    slices around them (no copy: a list-of-structs column cannot be scattered into, and a
    when/then over every row of one costs a rebuild of the whole column); many by a gather
    over both frames."""
    if idx.len() > _FEW_REPLACED:
        take = pl.arange(0, df.height, eager=True, dtype=pl.UInt32).scatter(
            idx, pl.arange(df.height, df.height + idx.len(), eager=True, dtype=pl.UInt32))
        return pl.concat([df, rows]).select(pl.all().gather(take))
    pieces, start = [], 0
    for i, at in enumerate(idx.to_list()):
        pieces += [df.slice(start, at - start), rows.slice(i, 1)]
        start = at + 1
    pieces.append(df.slice(start))
    return pl.concat(pieces, rechunk=False)


_PREFIX_FACTS = ("rank", "local_rank", "task", "pid", "host", "wrapper_ts")


def _note_bad_prefixes(df: pl.DataFrame, before: pl.Series, state: _StreamState) -> None:
    """Lines whose prefix was stripped but said nothing although it held a number: one
    that did not fit (``[rank99999999999]:``, ``[rank٣]:``; demux reads those as NULL).
    (A wrapper that names nothing, a group bar or a grep's file name, says nothing by design.)
    Two length columns and a filter; the removed heads are read only on the rows left."""
    if df.height != before.len():
        return
    removed = before.str.len_bytes() - df.get_column("text").str.len_bytes()
    stripped = removed != 0
    if not stripped.any():
        return
    silent = df.select(pl.all_horizontal(pl.col(c).is_null() for c in _PREFIX_FACTS)).to_series()
    at = (stripped & silent).arg_true()
    if not at.len():
        return
    heads = before.gather(at).str.slice(0, removed.gather(at))
    bad = df[at.filter(heads.str.contains(r"\d{10,}|[^\x00-\x7f]").fill_null(False))]
    if bad.height:
        state.bad_prefixes.extend(bad.select("fi", "line_no").iter_rows())


def _report_bad_prefixes(state: _StreamState, rels: list[str], problems: ProblemLog) -> None:
    by_file: dict[int, list[int]] = {}
    for fi, line in state.bad_prefixes:
        by_file.setdefault(fi, []).append(line)
    for fi, lines in by_file.items():
        problems.add(Problem(
            rels[fi], f"{len(lines):,} launcher prefix(es) with a rank, pid or task that is not a number "
            f"that fits 32 bits, the first on line {min(lines)}", "read as unknown (NULL)", min(lines),
        ))
    state.bad_prefixes.clear()


def _not_blank(messages: pl.Series, shapes: pl.Series | None = None, codes: pl.Series | None = None) -> pl.Series:
    """Does each message hold a non-whitespace character?

    Only a message that is empty or starts with whitespace (ASCII, or any non-ASCII
    byte: Unicode spaces among them) can be blank, and only those few are stripped
    to find out: stripping every message copied them all. ``codes``: each message's
    code into ``shapes``, its digit shape (null if unknown): a digit is not
    whitespace, so a message is blank where its shape is, asked once per shape.
    """
    if shapes is not None and codes is not None:
        keep = _not_blank(shapes).gather(codes)
        unknown = keep.is_null().arg_true()
        if unknown.len() == 0:
            return keep
        return keep.scatter(unknown, _not_blank(messages.gather(unknown)))
    first = messages.cast(pl.Binary).bin.get(0, null_on_oob=True)
    maybe = (~first.is_between(0x21, 0x7F)).fill_null(True)  # a printable ASCII start is never blank
    idx = maybe.arg_true()
    keep = pl.repeat(True, messages.len(), dtype=pl.Boolean, eager=True)
    if idx.len() == 0:
        return keep
    return keep.scatter(idx, messages.gather(idx).str.strip_chars().str.len_bytes() > 0)


def _shape_column(shapes: pl.Series, codes: pl.Series) -> pl.Series:
    """Column ``shape`` from ``digit_shapes``' answer, as an Enum of the batch's shapes:
    it becomes an Arrow dictionary as it is, with no second pass over the messages
    (and, unlike a Categorical, holds no other batch's strings)."""
    return shapes.cast(pl.Enum(shapes)).gather(codes).alias("shape")


def _give_year(ev: pl.DataFrame, state: _StreamState) -> pl.DataFrame:
    """Year-less stamps (glog, c10, syslog), parsed in PROVISIONAL_YEAR, take the year
    the file's full stamps carry (its first batch with any), else this year; column
    ``ts_year`` says which. Stage 2 moves them again only if the job's year differs,
    and then rewrites the part, so a good guess here saves a rewrite."""
    needs = pl.col("ts_needs_year").fill_null(False)
    if state.year is None:
        full = pl.col("ts").filter(pl.col("ts").is_not_null() & ~needs & ~pl.col("ts_estimated"))
        # the years of the first and last full stamps first: a year per row costs a
        # time-zone lookup each (3 ms a 15 MB batch), two cost nothing
        first, last = ev.select(full.min(), full.max().alias("hi")).row(0)  # None: no full stamp yet
        if first is None or first.year == last.year:  # one year, nearly always
            state.year = None if first is None else first.year
        else:
            state.year = ev.select(full.dt.year().mode().min()).item()
    where = ev.select(needs).to_series()
    if not where.any():  # most batches
        return ev.with_columns(pl.lit(None, dtype=pl.Int32).alias("ts_year"))
    year = state.year or datetime.now(UTC).year
    ts = ev.get_column("ts")
    if year != PROVISIONAL_YEAR:  # calendar arithmetic on the few rows that need it
        idx = where.arg_true()
        ts = ts.scatter(idx, ts.gather(idx).dt.offset_by(f"{year - PROVISIONAL_YEAR}y"))
    return ev.with_columns(ts, pl.when(where).then(pl.lit(year, dtype=pl.Int32)).alias("ts_year"))


# c10d's logPrefix() names the process group a line is about: `[PG 0 (default_pg) Rank 3]`,
# `[PG ID 0 PG GUID 0(default_pg) Rank 1]` (docs/formats/pytorch-c10d.md §2). Group 0 is the
# default one, whose rank is the global rank; any other group's (`[PG ID 2 PG GUID 9 Rank 4]`)
# is a rank within that sub-group, and so is the group-less `[Rank N]` of old releases as far
# as a line can tell: those stay attrs['pg_rank'] only.
_DEFAULT_PG = r"^PG (?:ID )?0(?:[^0-9]|$)"


def _default_group_rank(ev: pl.DataFrame, files: _Files) -> pl.DataFrame:
    """A c10d line without a rank of its own takes the rank it names for the default
    process group; stage 2 spreads it to the line's stream as any other line rank.
    Only those few lines' attrs are read (a prefixed line already has its rank)."""
    need = (ev.get_column("kind").str.starts_with("c10d.") & ev.get_column("rank").is_null()).fill_null(False)
    levels = [f.node_level for f in files.facts]
    if all(levels):
        return ev
    if any(levels):  # several small files in one batch, some node-level
        need = need & ~ev.select(pl.lit(pl.Series(levels, dtype=pl.Boolean)).gather(pl.col("fi"))).to_series()
    if not need.any():
        return ev
    field = pl.element().struct.field

    def attr(key: str) -> pl.Expr:
        return pl.col("attrs").list.eval(pl.element().filter(field("key") == key).struct.field("value")).list.first()

    found = ev.filter(need).select(
        pl.when(attr("pg").str.contains(_DEFAULT_PG).fill_null(False))
        .then(attr("pg_rank").cast(pl.Int32, strict=False)).alias("rank"))
    rank = ev.get_column("rank").cast(pl.Int32).scatter(need.arg_true(), found.get_column("rank"))
    return ev.with_columns(rank.alias("rank"))


def _host_attr() -> pl.Expr:
    # The host an event's own text names (NCCL header, pdsh prefix): stage 2 joins
    # on it, and a column is far cheaper to read there than a map lookup per row.
    return pl.col("attrs").list.eval(
        pl.element().filter(pl.element().struct.field("key") == "host").struct.field("value")
    ).list.first().alias("host_attr")


def _estimate_ts(ev: pl.DataFrame, state: _StreamState, several_files: bool = False) -> pl.DataFrame:
    """Lines without a stamp take their stream's previous stamp, else the file's.

    The stream (one process's output) is the better neighbour; the whole file
    is the fallback for a stream that never stamps (a tee'd traceback whose
    process logged its stamped lines without the prefix). Leading unstamped
    lines take the next stamp instead. ``state`` carries the last stamps into
    the file's next batch.
    """
    ev = ev.with_columns(pl.col("ts").is_null().alias("_no_ts"), pl.lit("").alias("_file"))
    if state.last_ts is not None:
        ev = ev.join(state.last_ts, on="stream", how="left")
    else:
        ev = ev.with_columns(
            pl.lit(None, dtype=pl.Datetime("us", "UTC")).alias("_carry_ts"),
            pl.lit(None, dtype=pl.Boolean).alias("_carry_ny"),
        )
    # a line without a stamp has no year question of its own: it inherits its source's
    ts = pl.col("ts")
    ny = pl.when(ts.is_null()).then(pl.lit(None, dtype=pl.Boolean)).otherwise(pl.col("ts_needs_year"))
    if not _in_file_order(ev):
        ev = ev.sort(["fi", "line_no", "part"], maintain_order=True)
    # the file's neighbours: within each file of a batch of several
    in_file = (lambda e: e.over("fi")) if several_files else (lambda e: e)
    single = one_stream(ev)
    in_stream = (lambda e: e) if single else per_stream(ev)
    # where the stream is the whole file, its fills are the file's: computed once
    # (an eager select evaluates a repeated expression again)
    same = single and not several_files

    def fill_from_neighbours(e: pl.Expr, carried: str, file_last: pl.Expr) -> pl.Expr:
        if same:
            return pl.coalesce(e, e.forward_fill(), carried, file_last, e.backward_fill())
        return pl.coalesce(
            e, in_stream(e.forward_fill()), carried, in_file(e.forward_fill()),
            file_last, in_stream(e.backward_fill()), in_file(e.backward_fill()),
        )

    ev = ev.with_columns(
        fill_from_neighbours(ts, "_carry_ts", state.file_last_ts).alias("ts"),
        fill_from_neighbours(ny, "_carry_ny", state.file_last_ny).alias("ts_needs_year"),
    ).with_columns((pl.col("_no_ts") & pl.col("ts").is_not_null()).alias("ts_estimated"))
    stamped = ev.filter(pl.col("ts").is_not_null())
    if stamped.height:
        state.last_ts = stamped.group_by("stream").agg(
            pl.col("ts").last().alias("_carry_ts"), pl.col("ts_needs_year").last().alias("_carry_ny")
        )
        state.file_last_ts = pl.lit(stamped.get_column("ts")[-1], dtype=pl.Datetime("us", "UTC"))
        state.file_last_ny = pl.lit(stamped.get_column("ts_needs_year")[-1], dtype=pl.Boolean)
    return ev.drop("_no_ts", "_file", "_carry_ts", "_carry_ny")


def _in_file_order(ev: pl.DataFrame) -> bool:
    """Already sorted by (fi, line_no, part)? Fold nearly always leaves it so, and
    a check is a fraction of a sort that carries every column."""
    fi, line, part = pl.col("fi").diff(), pl.col("line_no").diff(), pl.col("part").diff()
    ordered = (fi > 0) | ((fi == 0) & ((line > 0) | ((line == 0) & (part >= 0))))
    return bool(ev.select(ordered.fill_null(True).all()).item())


# A part is a finished piece of the timeline: the timeline's columns, then these,
# which stage 2 reads and the timeline file leaves out (parquet_concat drops them).
PART_EXTRAS = ("ts_year", "part", "host_attr")
# Low-cardinality strings, dictionary-encoded in the file. They reach the writer as
# Arrow dictionaries: the writer's own encoding of plain strings costs several times
# Arrow's `dictionary_encode` (a 15 MB part: 40 ms of a 105 ms write, against 9 ms).
# (Shapes come as a dictionary from the start: no hashing at all.)
_DICT_COLUMNS = ("job", "node", "source", "file", "level", "template", "kind", "shape", "node_alias", "host_attr")
_DICT_STRING = pa.dictionary(pa.int32(), pa.string())
# Messages and attrs stay Arrow string views, as Polars holds them: the file's bytes
# and types are the same (UTF8 strings), and the copy into offset-based strings cost
# ~12 ms a 15 MB part. (The parts' own Arrow schema says "view"; the timeline file
# keeps none of it, see write_parquet.)
_VIEW_TYPES = {"message": pa.string_view(), "attrs": pa.map_(pa.string_view(), pa.string_view())}
_PART_SCHEMA = pa.schema(
    [
        *(
            pa.field(f.name, _DICT_STRING) if f.name in _DICT_COLUMNS
            else pa.field(f.name, _VIEW_TYPES[f.name]) if f.name in _VIEW_TYPES else f
            for f in EVENT_SCHEMA
        ),
        pa.field("ts_year", pa.int32()),  # the year given to a year-less stamp
        pa.field("part", pa.int32()),
        pa.field("host_attr", _DICT_STRING),
    ]
)
# How parts are written; their bytes become the timeline file's as they are.
_PART_WRITE = {
    "compression": "zstd",
    # dictionary-encoding messages only costs time; attr keys are as small plain
    # (a few repeated words that zstd takes) and as fast to scan, and cheaper to write
    "use_dictionary": list(_DICT_COLUMNS),
    # min/max of every message, template and shape would cost more than their filters save
    "write_statistics": [f.name for f in _PART_SCHEMA if f.name not in ("template", "message", "attrs", "shape")],
    # sorted within a file: delta-packed they are a twentieth of their zstd'd plain size
    # and cheaper to write and to read
    "column_encoding": {c: "DELTA_BINARY_PACKED" for c in ("line_no", "line_end", "ts", "ts_aligned")},
    # DuckDB skips row groups by these on `kind IN (...)` (a rare kind's attrs are then
    # read from a few row groups, not all: 0.5 s -> 0.02 s) and `level = 'ERROR'`. Not
    # on node and file: one to a part but for small files, their min/max do as well;
    # nor on source, which hardly any row group lacks (10 ms a part saved).
    "bloom_filter_options": {c: {"ndv": 1024, "fpp": 0.01} for c in ("kind", "level")},
    # values handed to the encoders at a time (default 1024): the per-call overhead was
    # ~10 ms of a 15 MB part's 65 ms write; pages stay about data_page_size
    "write_batch_size": 16384,
}
_ATTR_LIST = pa.list_(pa.struct([("key", pa.string_view()), ("value", pa.string_view())]))

# A crashed job's evidence is at the end of its logs: the errors the rules look for,
# the steps clock alignment reads (its last 30 minutes), the watchdog lines. A file's
# last rows get a row group of their own, so that DuckDB skips the rest of a part by
# its bloom filters and min/max where they hold none of what a query asks for (the
# rule candidates of the 1 GB bench: 0.57 -> 0.13 s; the part's write costs the same).
_TAIL_ROWS = 4096

# Events stage 2 learns job-wide facts from (sql/attribute.sql reads them as view
# fact_events). Each worker also writes them to a small side file, so that stage 2
# never scans the whole job for a few thousand rows.
FACT_KINDS = (
    "nccl.comm_init",
    "torchrun.failure_entry", "torchrun.closing_signal", "torchrun.worker_failed", "torchrun.forced_kill",
    "deepspeed.world_info", "deepspeed.launcher_spawn", "deepspeed.killing_subprocess",
    "app.world_size", "python.test_process_started",
)
# The columns of them that attribute.sql reads (a missing one fails its binding, so
# every ingest test would say so): the side file holds only these, with plain strings
# (a 15 MB part's ~2,200 NCCL init lines: 8 -> 3.5 ms to convert and write).
FACT_COLUMNS = ("file", "node", "pid", "kind", "line_no", "attrs")
_FACTS_SCHEMA = pa.schema([
    pa.field(c, pa.string()) if c in ("file", "node", "kind") else _PART_SCHEMA.field(c) for c in FACT_COLUMNS
])
# Per file, one row per distinct (attribution columns, source, year-less stamp or
# not, full-stamp year) with its count: what stage 2 needs of every event, without
# reading every event; `part_index` says which part file the rows are in.
_SUMMARY_KEYS = ["file", "rank", "local_rank", "pid", "node", "host_attr", "source", "ts_year", "year"]
_SUMMARY_SCHEMA = pa.schema(
    [*(_PART_SCHEMA.field(k) for k in _SUMMARY_KEYS[:-1]), pa.field("year", pa.int64()), pa.field("n", pa.int64()),
     pa.field("part_index", pa.int32()),
     # the node the part already holds where stage 1 knew stage 2's answer (`_file_host`);
     # the summary's own `node` stays what the lines and the path said, which stage 2 reads
     pa.field("filled_node", pa.string()),
     # whether the batch these rows count holds a secret (`correlator.ingest.secrets`)
     pa.field("secret", pa.bool_())]
)


@dataclass
class _PartBatch:
    """A batch of events in the parts' schema, the ``FACT_COLUMNS`` of its fact-kind
    ones (None: none; taken in Polars, as Arrow's filter has no kernel for string
    views), and the sizes of the row groups it is written as (None: one)."""

    table: pa.Table
    facts: pa.Table | None
    groups: list[int] | None = None
    # the node every row is written with (`_file_host`); `table` keeps stage 1's own
    filled_node: str | None = None


def _part_batch(ev: pl.DataFrame, groups: list[int] | None = None) -> _PartBatch:
    # (and a launcher's report of a child's error, whatever its kind: see _spawn_child_rank)
    facts = ev.select(FACT_COLUMNS).filter(
        pl.col("kind").is_in(list(FACT_KINDS)).fill_null(False) | _child_reports(ev.get_column("message")))
    return _PartBatch(_to_part(ev), _facts_table(facts) if facts.height else None, groups)


def _facts_table(facts: pl.DataFrame) -> pa.Table:
    """The side file's rows (``FACT_COLUMNS`` of the fact-kind events) as Arrow."""
    table = facts.to_arrow(compat_level=pl.CompatLevel.newest())
    i = table.schema.get_field_index("attrs")
    return table.set_column(i, "attrs", _attrs_map(table.column(i))).cast(_FACTS_SCHEMA)


def _summary(table: pa.Table) -> pa.Table:
    """Counts per attribution key; ``year`` only for stamps that carry a year themselves."""
    if table.num_rows == 0:
        return _SUMMARY_SCHEMA.empty_table()
    full_stamp = pc.and_kleene(
        pc.is_valid(table.column("ts")),
        pc.and_kleene(pc.is_null(table.column("ts_year")), pc.invert(table.column("ts_estimated").fill_null(False))),
    )
    lo, hi = pc.min_max(pc.filter(table.column("ts"), full_stamp)).values()
    if lo.is_valid and lo.as_py().year == hi.as_py().year:  # nearly always: one year, no per-row year
        year = pc.if_else(full_stamp, pa.scalar(lo.as_py().year, pa.int64()), pa.scalar(None, pa.int64()))
    else:
        year = pc.if_else(full_stamp, pc.year(table.column("ts")), pa.scalar(None, pa.int64()))
    keyed = table.select(_SUMMARY_KEYS[:-1]).append_column("year", year)
    # a part is one file, mostly of one rank: only the keys that vary are hashed (half
    # the cost of grouping by all nine), the others are the same on every count
    varying = [k for k in _SUMMARY_KEYS if not _is_constant(keyed.column(k))]
    if varying:
        counted = keyed.group_by(varying, use_threads=False).aggregate([([], "count_all")])
    else:
        counted = pa.table({"count_all": pa.array([keyed.num_rows], pa.int64())})
    one = pa.array([0] * counted.num_rows, pa.int32())
    columns = [counted.column(k) if k in varying else keyed.column(k).take(one) for k in _SUMMARY_KEYS]
    columns += [counted.column("count_all"), pa.nulls(counted.num_rows, pa.int32()),  # part_index: at close
                pa.nulls(counted.num_rows, pa.string()),  # filled_node: by the writer
                pa.nulls(counted.num_rows, pa.bool_())]  # secret: by the writer
    return pa.Table.from_arrays(columns, names=_SUMMARY_SCHEMA.names).cast(_SUMMARY_SCHEMA)


def _is_constant(col: pa.ChunkedArray) -> bool:
    """Does ``col`` hold one value (null included) in every row? Answered from its
    null count, dictionaries and min/max, without hashing a row; False when unsure."""
    if len(col) == 0 or col.null_count == len(col):
        return True
    if col.null_count:
        return False
    if pa.types.is_dictionary(col.type):  # no nulls: a one-value dictionary is every row's value
        chunks = [c for c in col.chunks if len(c)]
        return all(len(c.dictionary) == 1 for c in chunks) and len({c.dictionary[0].as_py() for c in chunks}) == 1
    if pa.types.is_integer(col.type):
        lo, hi = pc.min_max(col).values()
        return lo == hi
    return False


def _to_part(ev: pl.DataFrame) -> pa.Table:
    """Arrow in the parts' schema; attrs become a map here. ``ts_aligned`` starts as
    ``ts`` (analyze aligns clocks on its own view)."""
    if "shape" not in ev.columns:  # raw lines kept after a parser error
        ev = ev.with_columns(_shape_column(*digit_shapes(ev.get_column("message"))))
    table = ev.with_columns(pl.col("ts").alias("ts_aligned")).select(_PART_SCHEMA.names).to_arrow(
        compat_level=pl.CompatLevel.newest())
    for name in _DICT_COLUMNS:
        if (one := _one_value(ev.get_column(name))) is not None:
            table = table.set_column(table.schema.get_field_index(name), name, one)
    return _with_attr_map(table)


def _one_value(s: pl.Series) -> pa.DictionaryArray | None:
    """``s`` as a dictionary of one value, if it holds one value (the job, mostly the
    file): built directly, where encoding it would hash every row for nothing."""
    if s.dtype != pl.String or s.len() == 0 or s.null_count() or not bool((s == s[0]).all()):
        return None
    zeros = pc.fill_null(pa.nulls(s.len(), pa.int32()), 0)
    return pa.DictionaryArray.from_arrays(zeros, pa.array([s[0]], pa.string()))


def _with_attr_map(table: pa.Table) -> pa.Table:
    """``table`` in the parts' schema: attrs as a map, the _DICT_COLUMNS as dictionaries."""
    i = table.schema.get_field_index("attrs")
    table = table.set_column(i, "attrs", _attrs_map(table.column(i)))
    for name in _DICT_COLUMNS:
        j = table.schema.get_field_index(name)
        if not pa.types.is_dictionary(table.schema.field(j).type):
            table = table.set_column(j, name, pc.dictionary_encode(table.column(j)))
    return table.cast(_PART_SCHEMA)


def _attrs_map(attrs: pa.ChunkedArray) -> pa.MapArray:
    """Polars' attrs (a list of key/value structs) as the Arrow map the files hold."""
    lists = attrs.cast(_ATTR_LIST).combine_chunks()
    return pa.MapArray.from_arrays(lists.offsets, lists.values.field("key"), lists.values.field("value"))


def _plain_strings(table: pa.Table) -> pa.Table:
    """``table`` with its dictionary columns as plain strings (for joins on them)."""
    return table.cast(pa.schema([
        pa.field(f.name, f.type.value_type) if pa.types.is_dictionary(f.type) else f for f in table.schema
    ]))


# The most of an unfinished event carried into a file's next batch.
_MAX_CARRY_LINES = 5_000
_MAX_CARRY_BYTES = 1 << 20


def _file_events(
    f: InputFile, job: str, tz: str, opts: IngestOptions, problems: ProblemLog
) -> Iterator[_PartBatch]:
    """The file's events, a batch at a time, in their part's order, with the sizes
    of the row groups they are written as (``_layout``)."""
    if f.format == "flight_recorder":  # a binary dump, read whole by its own path
        ev = fr_events(f, job, problems)
        if ev is not None and ev.height:
            yield _part_batch(*_layout(ev, file_end=True))
        return
    facts = facts_from_path(f.rel)
    state = _StreamState()
    batches = iter_line_batches(f, problems, batch_bytes=opts.batch_bytes, max_line_bytes=opts.max_line_bytes)
    carry: pl.Series | None = None  # raw lines of an event that may go on in the next batch
    carry_first = 0
    for n_batch, (batch, last) in enumerate(_with_last(batches)):
        # (dedented before a carried tail of the batch before, which already is)
        lines, first = _dedent(batch.lines, state), batch.first_line_no
        if carry is not None:
            lines, first, carry = pl.concat([carry, lines], rechunk=True), carry_first, None  # see read._concat
        if len(lines) == 0:
            continue
        try:
            ev = _lines_to_events(lines, first, f.rel, facts, job, tz, state)
        except Exception as exc:  # a parser bug must not lose the file: keep raw lines
            problems.add(
                Problem(f.rel, f"could not parse lines {first}-"
                        f"{first + len(lines) - 1}: {exc!r}", "kept as raw lines", first)
            )
            ev = _raw_events(lines, first, f.rel, job)
        if not last:
            cut = _unfinished_event(ev, first, len(lines))
            tail = lines.slice(cut - first) if cut is not None else None
            if tail is not None and tail.str.len_bytes().sum() <= max(opts.batch_bytes, _MAX_CARRY_BYTES):
                carry, carry_first = tail, cut
                ev = ev.filter(pl.col("line_no") < cut)
        ev, groups = _layout(ev, file_end=last)
        out = _part_batch(ev, groups)
        if last and n_batch == 0 and facts.node is None and "host_attr" in ev.columns:
            out.filled_node = _file_host(ev)  # the whole file is this batch
        yield out
    if state.bad_prefixes:  # once a file: a carried event's lines are parsed twice
        state.bad_prefixes = sorted(set(state.bad_prefixes))
        _report_bad_prefixes(state, [f.rel], problems)


# Rows DuckDB decodes together: a block without a wanted row is skipped.
_SCAN_BLOCK = 2048
# What the analysis reads of every event of these levels (deviation.sql)
_MOVED_LEVELS = LEVELS[LEVELS.index("WARNING"):]


def _layout(ev: pl.DataFrame, file_end: bool) -> tuple[pl.DataFrame, list[int]]:
    """``ev`` in the order its part stores it, and the sizes of its row groups.

    The file's last _TAIL_ROWS events (``file_end``) are a row group of their own.
    The fact-kind events before them (NCCL init lines above all) and the WARNING-or-
    worse ones are moved after the others, into that row group, when they are spread
    over the batch: the analysis reads the facts' attrs, and DuckDB decodes the attrs
    of every block of rows holding one of them (the 1 GB bench, a communicator per
    eval: 0.6 s, against 0.08 s from a row group of their own); deviation reads every
    column of the warnings, which, one every few hundred lines, were in every page
    (0.2 s; from the tail groups alone, the others skipped by their level's
    statistics and bloom filter, 0.07 s). Lines printed together (NCCL's start-up)
    are left where they are.
    Gathering the rows in Polars costs ~6 ms per 15 MB (Arrow has no gather for the
    string views the parts keep).
    """
    n = ev.height
    body = n - _TAIL_ROWS if file_end and n > 2 * _TAIL_ROWS else n
    groups = [body, n - body] if body < n else [n]
    if body <= 2 * _TAIL_ROWS:
        return ev, groups
    moved = (
        ev.head(body).select(pl.col("kind").is_in(list(FACT_KINDS)) | pl.col("level").is_in(_MOVED_LEVELS))
        .to_series().fill_null(False)
    )
    at = moved.arg_true()
    blocks = body // _SCAN_BLOCK + 1
    if at.len() in (0, body) or (at // _SCAN_BLOCK).n_unique() * 8 <= blocks:
        return ev, groups
    rows = pl.int_range(body, dtype=pl.UInt32, eager=True)
    order = pl.concat([rows.filter(~moved), at, pl.int_range(body, n, dtype=pl.UInt32, eager=True)])
    # with the tail in one row group (a row group more cost ~4 ms to write)
    return ev.gather(order), [body - at.len(), n - body + at.len()]


def _with_last(it: Iterator[LineBatch]) -> Iterator[tuple[LineBatch, bool]]:
    prev = next(it, None)
    for item in it:
        yield prev, False
        prev = item
    if prev is not None:
        yield prev, True


def _unfinished_event(ev: pl.DataFrame, first: int, n_lines: int) -> int | None:
    """First line of the batch's last event, if it may go on in the next batch.

    A traceback cut by a batch boundary must not become two events: the last
    event is parsed again with the next batch's lines. Only when no other event
    spans its first line (interleaved streams), and when it is not huge (the
    caller also caps the carried bytes).
    """
    if ev.height == 0:
        return None
    start = ev.get_column("line_no").gather(ev.get_column("line_end").arg_max()).item()
    if first + n_lines - start > _MAX_CARRY_LINES:
        return None
    earlier = ev.filter(pl.col("line_no") < start)
    if earlier.height and earlier.get_column("line_end").max() >= start:
        return None
    return start


def _raw_events(lines: pl.Series, first: int, rel: str, job: str) -> pl.DataFrame:
    n = len(lines)
    line_no = pl.int_range(first, first + n, dtype=pl.Int64, eager=True)
    return pl.DataFrame(
        {
            "job": [job] * n, "node": pl.Series([None] * n, dtype=pl.Utf8),
            "rank": pl.Series([None] * n, dtype=pl.Int32), "local_rank": pl.Series([None] * n, dtype=pl.Int32),
            "pid": pl.Series([None] * n, dtype=pl.Int32), "source": ["unknown"] * n, "file": [rel] * n,
            "line_no": line_no, "ts": pl.Series([None] * n, dtype=pl.Datetime("us", "UTC")),
            "ts_estimated": [False] * n, "level": pl.Series([None] * n, dtype=pl.Utf8),
            "template": lines, "message": lines, "attrs": pl.Series([[]] * n, dtype=ATTR_TYPE),
            "line_end": line_no, "kind": pl.Series([None] * n, dtype=pl.Utf8),
            "task": pl.Series([None] * n, dtype=pl.Int32),
            "node_alias": pl.Series([facts_from_path(rel).node] * n, dtype=pl.Utf8),
            "ts_year": pl.Series([None] * n, dtype=pl.Int32), "part": pl.Series([0] * n, dtype=pl.Int32),
            "host_attr": pl.Series([None] * n, dtype=pl.Utf8),
        }
    )


def _with_node(table: pa.Table, node: str) -> pa.Table:
    """Every row's ``node`` set to ``node`` (a one-value dictionary, as the rewrite writes it)."""
    column = pa.DictionaryArray.from_arrays(pa.array([0] * table.num_rows, pa.int32()), pa.array([node], pa.string()))
    return table.set_column(table.schema.get_field_index("node"), "node", column)


# The sources whose `host` attr names the machine that printed the line (attribute.sql's
# host_lines); `localhost` and the loopback name no machine (its own_host).
_HOST_SOURCES = ("nccl", "torchrun", "kernel")
_NO_HOST = ("localhost", "ip6-localhost")


def _file_host(ev: pl.DataFrame) -> str | None:
    """The node stage 2 will give every event of a file read as one batch, whose path
    and lines name no node: the one host its own lines name (attribute.sql's
    ``file_node``, which ``combo_final`` takes first for such a file). Written with the
    part, so that stage 2 finds it final instead of rewriting the part (rank files in
    one flat folder: 5.8 of 17.9 CPU-seconds of the 1 GB job went to those rewrites).
    None where stage 2 must decide (a node on any line, no host or several)."""
    if ev.height == 0 or ev.get_column("node").null_count() != ev.height:
        return None
    host = pl.col("host_attr")
    short = host.str.split(".").list.first()
    own = (
        pl.when(short.str.to_lowercase().is_in(_NO_HOST) | host.str.starts_with("127.") | (host == "::1"))
        .then(None).otherwise(pl.when(short != "").then(short))
    )
    hosts = (
        ev.lazy().filter(host.is_not_null() & pl.col("source").is_in(_HOST_SOURCES))
        .select(own.alias("h")).drop_nulls().unique().head(2).collect().get_column("h")
    )
    return hosts[0] if len(hosts) == 1 else None


def part_path(scratch: str | Path, index: int) -> Path:
    return Path(scratch) / f"part-{index:06d}.parquet"


class _PartWriter:
    """A part file (``part-<index>.parquet``) and its two side files (``facts-``,
    ``summary-``), written in a worker."""

    def __init__(self, scratch: str, index: int) -> None:
        self.dir, self.index = Path(scratch), index
        self.writer: pq.ParquetWriter | None = None
        self.facts: list[pa.Table] = []
        self.summaries: list[pa.Table] = []

    def write(self, batch: _PartBatch) -> None:
        if self.writer is None:
            self.writer = pq.ParquetWriter(part_path(self.dir, self.index), _PART_SCHEMA, **_PART_WRITE)
        table, summary = batch.table, _summary(batch.table)
        if batch.filled_node is not None:
            table = _with_node(table, batch.filled_node)
            summary = summary.set_column(summary.schema.get_field_index("filled_node"), "filled_node",
                                         pa.array([batch.filled_node] * summary.num_rows, pa.string()))
        secret = part_has_secret(table)  # (the table as written: its node filled)
        summary = summary.set_column(summary.schema.get_field_index("secret"), "secret",
                                     pa.array([secret] * summary.num_rows, pa.bool_()))
        start = 0
        for size in batch.groups or [table.num_rows]:
            self.writer.write_table(table.slice(start, size))
            start += size
        if batch.facts is not None:
            self.facts.append(batch.facts)
        self.summaries.append(summary)

    def discard(self) -> None:
        """Drop what was written (the files are then ingested another way)."""
        if self.writer is not None:
            self.writer.close()
            part_path(self.dir, self.index).unlink(missing_ok=True)
            self.writer = None

    def close(self) -> None:
        if self.writer is None:
            return
        self.writer.close()
        # its footer made ready for the timeline file here, not by the main process
        # once every worker is done (~2 ms a part)
        save_prepared(part_path(self.dir, self.index), PART_EXTRAS)
        # written with the part, even if empty: stage 2 reads one of each per part
        facts = pa.concat_tables(self.facts) if self.facts else _FACTS_SCHEMA.empty_table()
        pq.write_table(facts, self.dir / f"facts-{self.index:06d}.parquet", compression="lz4")
        summary = pa.concat_tables(self.summaries) if self.summaries else _SUMMARY_SCHEMA.empty_table()
        summary = summary.set_column(summary.schema.get_field_index("part_index"), "part_index",
                                     pa.array([self.index] * summary.num_rows, pa.int32()))
        pq.write_table(summary, self.dir / f"summary-{self.index:06d}.parquet", compression="lz4")


def _work_on(
    items: list[tuple[int, InputFile]], job: str, opts: IngestOptions, scratch: str
) -> list[tuple[int, list[Problem], int, int]]:
    """Stage 1 for one file, or for several small ones read as few batches, in a worker
    process: (index, problems, events, lines) per file."""
    if len(items) > 1:
        done = _work_on_small(items, job, opts, scratch)
        if done is not None:
            return done
    return [_work_on_file(i, f, job, opts, scratch) for i, f in items]


def _work_on_file(index: int, f: InputFile, job: str, opts: IngestOptions, scratch: str) -> tuple[int, list[Problem], int, int]:
    problems = ProblemLog(echo=False)
    events = lines = 0
    out = _PartWriter(scratch, index)
    try:  # what was parsed before a failure is kept
        for batch in _file_events(f, job, opts.tz, opts, problems):
            out.write(batch)
            events += batch.table.num_rows
            if batch.table.num_rows:
                lines = max(lines, int(pc.max(batch.table.column("line_end")).as_py() or 0))
    except Exception as exc:  # never let one file stop the job
        problems.add(Problem(f.rel, f"could not ingest: {exc!r}", "skipped the rest of the file"))
    finally:
        out.close()
    return index, problems.items, events, lines


def _work_on_small(
    items: list[tuple[int, InputFile]], job: str, opts: IngestOptions, scratch: str
) -> list[tuple[int, list[Problem], int, int]] | None:
    """Small files as few batches: a batch's fixed cost (hundreds of column
    operations) would otherwise dwarf a small file's lines. A batch is flushed when
    its decoded lines reach the batch size (a compressed file's size on disk says
    little); a file that needs several batches is ingested alone. None (the caller
    then takes the files one by one) if a batch fails to parse."""
    problems = ProblemLog(echo=False)
    alone: list[tuple[int, list[Problem], int, int]] = []
    out: _PartWriter | None = None  # named after the first file it holds
    counts: dict[str, tuple[int, int]] = {}
    pending: list[tuple[int, InputFile, LineBatch]] = []
    size = 0

    def flush() -> None:
        nonlocal out, pending, size
        if pending:
            # one frame for all the files (a frame per file costs more than a small file)
            per = pl.DataFrame({
                "fi": pl.int_range(len(pending), dtype=pl.UInt32, eager=True),
                "first": [b.first_line_no for _, _, b in pending],
                "n": [len(b.lines) for _, _, b in pending],
            }).select(
                pl.col("fi").repeat_by("n").explode(),
                pl.int_ranges("first", pl.col("first") + pl.col("n"), dtype=pl.Int64).explode().alias("line_no"),
            )
            df = per.with_columns(pl.concat([b.lines for _, _, b in pending]).alias("text"))
            files = _Files([f.rel for _, f, _ in pending], [facts_from_path(f.rel) for _, f, _ in pending])
            state = _StreamState()
            batch = _part_batch(_events(df, files, job, opts.tz, state))
            _report_bad_prefixes(state, files.rels, problems)
            table = batch.table
            if table.num_rows:
                out = out or _PartWriter(scratch, pending[0][0])
                out.write(batch)
                per = pl.from_arrow(table.select(["file", "line_end"])).group_by("file").agg(
                    pl.len().alias("events"), pl.col("line_end").max().alias("lines")
                )
                counts.update({r["file"]: (r["events"], r["lines"]) for r in per.iter_rows(named=True)})
        pending, size = [], 0

    try:
        for index, f in items:
            read = ProblemLog(echo=False)
            batches = list(iter_line_batches(f, read, batch_bytes=opts.batch_bytes,
                                             max_line_bytes=opts.max_line_bytes))
            if len(batches) > 1:  # bigger than it looked (a compressed file)
                alone.append(_work_on_file(index, f, job, opts, scratch))
                continue
            problems.extend(read.items)
            for b in batches:
                if len(b.lines) == 0:
                    continue
                if size + b.n_bytes > opts.batch_bytes:
                    flush()
                pending.append((index, f, replace(b, lines=_dedent(b.lines, _StreamState()))))
                size += b.n_bytes
        flush()
    except Exception:  # one by one, where each file's own fallbacks apply
        if out is not None:
            out.discard()
        for index, _, _, _ in alone:  # their parts are written again then
            for prefix in ("part", "facts", "summary"):
                (Path(scratch) / f"{prefix}-{index:06d}.parquet").unlink(missing_ok=True)
        return None
    if out is not None:
        out.close()
    by_rel: dict[str, list[Problem]] = {}
    for p in problems.items:
        by_rel.setdefault(p.file, []).append(p)
    done = {r[0] for r in alone}
    return alone + [(i, by_rel.get(f.rel, []), *counts.get(f.rel, (0, 0))) for i, f in items if i not in done]


# Files up to this size (of text) are read several to a batch, in runs of up to
# _SMALL_BATCH_BYTES. A batch pays a fixed cost whatever its size (each of ~110 line patterns
# is one round of Polars calls, ~2 ms, however few rows it is asked of): on a 50 MB real-mix job
# of 3 MB files, batches of 16 MB took 10-11 CPU-s where batches of 8 MB took 12.5-13.
_SMALL_FILE_BYTES = 4 << 20
_SMALL_BATCH_BYTES = 16 << 20


def ingest(
    target: str | Path,
    *,
    out_parquet: str | Path | None = None,
    out_db: str | Path | None = None,
    out_dir: str | Path | None = None,
    options: IngestOptions | None = None,
    engine: Engine | None = None,
) -> IngestResult:
    """Ingest ``target`` (directory, file, archive or ``-``) into Parquet and/or DuckDB.

    ``out_dir``: the timeline as a directory of Parquet parts (``write_parts_dir``).
    ``engine``: where the per-file tasks run (``correlator.engine``); default this
    machine's worker processes. Stage 2's job-wide decisions are made here, over the
    parts' small side files, whatever the engine."""
    opts = options or IngestOptions()
    started = time.perf_counter()
    problems = ProblemLog(echo=opts.echo_problems)
    job = opts.job or _job_name(target)
    with step("discovery", unit="files") as found:
        files = _apply_ignores(target, discover(target, problems), opts.exclude, problems)
        found.advance(len(files))
    if engine is not None and engine.name != "local" and any(f.rel == "<stdin>" for f in files):
        raise NothingToRead("standard input is spooled on this machine: ingest it with --engine local")
    scratch = tempfile.mkdtemp(prefix=".correlator-", suffix=".parts", dir=_scratch_dir(out_dir, out_parquet, out_db,
                                                                                          engine))
    try:
        with _engine_for(engine, files, opts) as on:
            per_file = _run_stage1(files, job, opts, scratch, problems, on)
            total_events = sum(e for e, _ in per_file.values())
            if total_events == 0:
                raise NothingToRead(_nothing_message(target, files, problems))
            with step("stage 2"):
                staged = _stage2(scratch, files, per_file, problems, on)
        result = IngestResult(
            job=job, files=len(files), events=staged.con.sql("SELECT sum(n) FROM part_summary").fetchall()[0][0],
            lines=sum(n for _, n in per_file.values()),
            bytes_read=sum(f.size for f in files), seconds=0.0, problems=problems,
        )
        if out_parquet is not None:
            write_parquet(staged, Path(out_parquet))
        if out_db is not None:
            write_duckdb(staged, Path(out_db))
        if out_dir is not None:  # last: it takes the parts away
            write_parts_dir(staged, Path(out_dir))
        staged.con.close()
        result.seconds = time.perf_counter() - started
        return result
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _scratch_dir(
    out_dir: str | Path | None, out_parquet: str | Path | None, out_db: str | Path | None, engine: Engine | None,
) -> str | None:
    """Where the parts are written while the job is ingested (None: the system's temp).

    Beside a directory output, so that its parts are moved into it, not copied; and
    beside any output for an engine off this machine, whose workers must see it (the
    output is on a filesystem they share: see correlator.engine.ray)."""
    near = out_dir if out_dir is not None else None
    if near is None and engine is not None and engine.name != "local":
        near = out_parquet if out_parquet is not None else out_db
    if near is None:
        return None
    parent = Path(near).resolve().parent
    parent.mkdir(parents=True, exist_ok=True)  # as the output's writer would
    return str(parent)


@contextmanager
def _engine_for(engine: Engine | None, files: list[InputFile], opts: IngestOptions) -> Iterator[Engine]:
    """The given engine, or this machine's: the workers started early if they fit
    (``correlator.ingest.workers``), or this process alone for a small job."""
    if engine is not None:
        discard_early()  # the command's guess that it would parse here was wrong
        yield engine
        return
    with worker_pool(_worker_count(files, opts)) as pool:
        yield LocalEngine.on_pool(pool)


IGNORE_FILE = ".correlatorignore"


def _ignore_patterns(target: str | Path, exclude: tuple[str, ...]) -> list[str]:
    """Glob patterns from ``--exclude`` and the target directory's ``.correlatorignore``.

    The ignore file holds one glob per line (``#`` comments); a pattern without
    a ``/`` matches a file name at any depth, like ``.gitignore``.
    """
    patterns = [IGNORE_FILE, *exclude]
    ignore = Path(target) / IGNORE_FILE if str(target) != "-" else None
    if ignore is not None and ignore.is_file():
        for line in ignore.read_text(errors="replace").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                patterns.append(line)
    return patterns


def ignore_rule(target: str | Path, exclude: tuple[str, ...]) -> Callable[[str], str | None]:
    """The pattern (``--exclude``, the target's ``.correlatorignore``) that leaves a
    relative path out, as ingest reads them (for files found while following a job)."""
    patterns = _ignore_patterns(target, exclude)
    return lambda rel: _ignored(rel, patterns)


def _ignored(rel: str, patterns: list[str]) -> str | None:
    name = rel.rsplit("/", 1)[-1]
    for pat in patterns:
        pat = pat.rstrip("/")
        if fnmatch.fnmatchcase(rel, pat) or ("/" not in pat and fnmatch.fnmatchcase(name, pat)):
            return pat
        if fnmatch.fnmatchcase(rel, pat + "/*"):  # a directory pattern
            return pat
    return None


def _nested_ignores(files: list[InputFile]) -> list[tuple[str, list[str]]]:
    """(directory, patterns) of every ``.correlatorignore`` below the target's top:
    in a subdirectory, or in an archive (a ``.tar.gz`` of a job directory carries
    its ignore file in its top directory). Patterns apply below their directory."""
    out = []
    for f in files:
        if f.rel.endswith("/" + IGNORE_FILE):
            with f.open() as fh:
                text = fh.read(1 << 16).decode("utf-8", errors="replace")
            pats = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
            out.append((f.rel[: -len(IGNORE_FILE)], pats))
    return out


def _apply_ignores(
    target: str | Path, files: list[InputFile], exclude: tuple[str, ...], problems: ProblemLog
) -> list[InputFile]:
    patterns = _ignore_patterns(target, exclude)
    nested = _nested_ignores(files)
    kept = []
    for f in files:
        pat = _ignored(f.rel, patterns)
        for prefix, pats in nested:
            if pat is None and f.rel.startswith(prefix):
                pat = _ignored(f.rel[len(prefix):], pats)
        if pat is None:
            kept.append(f)
        elif f.rel != IGNORE_FILE and not f.rel.endswith("/" + IGNORE_FILE):
            # not silent: the problems view lists it (no stderr warning: the user asked)
            problems.items.append(Problem(f.rel, f"excluded by pattern {pat!r}", "not read"))
    return kept


def job_name(target: str | Path) -> str:
    """The job's name when none is given: the target's (``stdin`` for ``-``)."""
    return _job_name(target)


def _job_name(target: str | Path) -> str:
    if str(target) == "-":
        return "stdin"
    p = Path(target).resolve()
    name = p.name
    for suffix in (".gz", ".tgz", ".zst", ".bz2", ".xz", ".tar"):
        name = name.removesuffix(suffix)
    return name or "job"


def _nothing_message(target: str | Path, files: list[InputFile], problems: ProblemLog) -> str:
    if not files:
        why = "no readable log files were found"
    else:
        why = f"{len(files)} file(s) found but none had a line of text"
    listed = "; ".join(str(p) for p in problems.items[:5])
    return f"nothing could be read from {target}: {why}" + (f" ({listed})" if listed else "")


# Text a compressed log holds per byte, for planning only (logs compress 5-20x); the
# batches themselves are cut by the decoded size.
_INFLATION = 10


def _inflated(f: InputFile) -> int:
    return f.size * _INFLATION if f.compression else f.size


def _tasks(files: list[InputFile], opts: IngestOptions) -> list[list[tuple[int, InputFile]]]:
    """What each worker call gets: a big file alone, biggest first so the last worker
    is not left with the giant one; small files in runs of about _SMALL_BATCH_BYTES, or
    fewer bytes where that would leave one of this machine's workers without a run (the plan
    depends on the files and the options only, not on the engine: Ray's parts are the local ones)."""
    limit = min(_SMALL_FILE_BYTES, opts.batch_bytes // 4)
    order = sorted(range(len(files)), key=lambda i: -files[i].size)
    # a compressed file is small when even at _INFLATION its text would be
    alone = [i for i in order if _inflated(files[i]) > limit or files[i].rel == "<stdin>"
             or files[i].format != "text"]  # a dump is no lines to batch with others
    small = sorted(set(order) - set(alone))  # path order: neighbours are often one job's ranks
    tasks = [[(i, files[i])] for i in alone]
    run_bytes = min(_SMALL_BATCH_BYTES, -(-sum(_inflated(files[i]) for i in small) // _worker_count(files, opts)))
    run: list[tuple[int, InputFile]] = []
    size = 0
    for i in small:
        if run and size + _inflated(files[i]) > run_bytes:
            tasks.append(run)
            run, size = [], 0
        run.append((i, files[i]))
        size += _inflated(files[i])
    if run:
        tasks.append(run)
    return tasks


def _worker_count(files: list[InputFile], opts: IngestOptions) -> int:
    workers = max(1, min(opts.workers or os.cpu_count() or 1, len(files)))
    if opts.workers is None and sum(f.size for f in files) < PARALLEL_MIN_BYTES:
        workers = 1
    if any(f.rel == "<stdin>" for f in files):
        workers = 1  # standard input was spooled by this process only
    return workers


def _run_stage1(
    files: list[InputFile], job: str, opts: IngestOptions, scratch: str, problems: ProblemLog, engine: Engine,
) -> dict[int, tuple[int, int]]:
    tasks = [Task(str(n), (_work_on, t, job, opts, scratch)) for n, t in enumerate(_tasks(files, opts))]
    outcomes = failures_raise(engine.run(on_polars_thread, tasks))
    if engine.slots > 1:
        import duckdb  # noqa: F401  (stage 2's, loaded while the workers parse: not after)
    done: dict[int, list] = {}
    with step("parse", total=sum(f.size for f in files), unit="B", scale=True) as parsed:
        for o in outcomes:  # as tasks finish (the bar follows them)
            done[int(o.key)] = o.value
            parsed.advance(sum(files[index].size for index, *_ in o.value))
    results: dict[int, tuple[int, int]] = {}
    for n in sorted(done):  # in task order, whatever order they finished in: the same problems table
        for index, file_problems, events, lines in done[n]:
            problems.extend(file_problems)
            results[index] = (events, lines)
    return results


# --------------------------------------------------------------------------- stage 2


@dataclass
class _Staged:
    """Stage 2's result: DuckDB with views ``events``, ``files``, ``problems``, and the
    finished parts, in timeline order."""

    con: duckdb.DuckDBPyConnection
    parts: list[str]


def _stage2(
    scratch: str, files: list[InputFile], per_file: dict[int, tuple[int, int]], problems: ProblemLog,
    engine: Engine,
) -> _Staged:
    import duckdb

    con = duckdb.connect()
    con.execute("SET memory_limit = '1GB'")  # stage 2 streams; the workers need the rest
    con.execute("SET enable_progress_bar = false")
    con.execute(f"SET temp_directory = '{scratch}/duck'")
    con.execute("SET parquet_metadata_cache = true")  # each side file is read by a dozen queries
    for view, prefix in (("fact_events", "facts"), ("part_summary", "summary")):
        paths = sorted(str(p) for p in Path(scratch).glob(f"{prefix}-*.parquet"))
        # The summaries (a few rows a part) are read once, not by each of the eight
        # queries that ask them (each opened every side file: ~0.05 s on the bench);
        # the facts stay a view, whose scans read only the columns asked (a table of
        # them, attrs included, cost more to build than it saved).
        kind = "TEMP TABLE" if view == "part_summary" else "VIEW"
        con.execute(f"CREATE {kind} {view} AS SELECT * FROM read_parquet({paths!r})")
    con.register("file_paths_arrow", _file_paths(files))
    con.execute("CREATE TEMP TABLE file_paths AS SELECT * FROM file_paths_arrow")
    con.unregister("file_paths_arrow")
    sql = resources.files("correlator.ingest").joinpath("attribute.sql").read_text()
    con.execute(sql)
    _report_bad_numbers(con, problems)
    _finish_parts(con, scratch, engine)
    parts = sorted(str(p) for p in Path(scratch).glob("part-*.parquet"))
    columns = ", ".join(EVENT_SCHEMA.names)
    con.execute(f"CREATE VIEW events AS SELECT {columns} FROM read_parquet({parts!r})")
    files_tbl = _files_table(con, files, per_file, problems)
    con.register("files_arrow", files_tbl)
    con.execute("CREATE TABLE files AS SELECT * FROM files_arrow")
    con.register("problems_arrow", problems.to_arrow())
    con.execute("CREATE TABLE problems AS SELECT * FROM problems_arrow")
    return _Staged(con, parts)


def _file_paths(files: list[InputFile]) -> pa.Table:
    """What each file's path says that stage 2 weighs against the logs: the node it
    names, whether it is a node-level file, and its family of numbered siblings."""
    facts = [facts_from_path(f.rel) for f in files]
    families = [sibling(f.rel) for f in files]
    return pa.table({
        "file": pa.array([f.rel for f in files], pa.string()),
        "path_node": pa.array([x.node for x in facts], pa.string()),
        "node_level": pa.array([x.node_level for x in facts], pa.bool_()),
        "family": pa.array([fam[0] if fam else None for fam in families], pa.string()),
        "member": pa.array([fam[1] if fam else None for fam in families], pa.int32()),
    })


def _report_bad_numbers(con: duckdb.DuckDBPyConnection, problems: ProblemLog) -> None:
    """A problem per file and attr whose numbers do not fit an INTEGER (attribute.sql's
    ``bad_numbers``: past 2^31-1, glued pids, Unicode digits): they were read as NULL."""
    rows = con.execute("SELECT file, key, line_no, n, example FROM bad_numbers ORDER BY file, key").fetchall()
    for file, key, line_no, n, example in rows:
        shown = example if len(example) <= 40 else example[:40] + "..."
        problems.add(Problem(
            file, f"{n:,} {key} value(s) that are not a number that fits 32 bits, e.g. {shown!r} on line {line_no}",
            "read as unknown (NULL)", line_no,
        ))


# The columns attribute.sql decides an event's rank and node from.
_COMBO_KEYS = ["file", "rank", "local_rank", "pid", "node", "host_attr"]


def _finish_parts(con: duckdb.DuckDBPyConnection, scratch: str, engine: Engine) -> None:
    """Rewrite the parts whose events stage 2 changes (``stale_parts``), a task each on
    ``engine``; the rest are final as stage 1 wrote them. Nearly every part of per-rank
    logs is."""
    stale = [r[0] for r in con.execute("SELECT part_index FROM stale_parts ORDER BY 1").fetchall()]
    if not stale:
        return
    # parts written with a node stage 1 knew (`_file_host`): their `node` column is not
    # the key stage 2 decided from (that was NULL: no node on any line or in the path)
    filled = {r[0] for r in con.execute(
        "SELECT DISTINCT part_index FROM part_summary WHERE filled_node IS NOT NULL").fetchall()}
    combos = con.sql(f"SELECT {', '.join(_COMBO_KEYS)}, final_rank, final_node FROM combo_final").to_arrow_table()
    child_ranks = con.sql("SELECT file, line_no, kind, rank AS child_rank FROM child_rank_lines").to_arrow_table()
    year = con.execute("SELECT y FROM job_year").fetchone()[0]
    tasks = [Task(str(i), (_attribute_part, str(part_path(scratch, i)), combos, child_ranks, year, i in filled))
             for i in stale]
    for _ in failures_raise(engine.run(on_polars_thread, tasks)):
        pass


def _attribute_part(path: str, combos: pa.Table, child_ranks: pa.Table, year: int, filled: bool = False) -> None:
    """Give a part's events the rank and node stage 2 decided (``combo_final``), the
    job's year to its year-less stamps, and attr ``child_rank`` to launcher lines
    about a child whose rank is known (``child_rank_lines``); rewritten in place."""
    src = Path(path)
    tmp = src.with_name(src.name + ".tmp")
    combos_pl = pl.from_arrow(combos)
    child_pl = pl.from_arrow(child_ranks)
    reader = pq.ParquetFile(src)
    with pq.ParquetWriter(tmp, _PART_SCHEMA, **_PART_WRITE) as writer:
        for i in range(reader.num_row_groups):
            writer.write_table(_attributed(reader.read_row_group(i), combos_pl, child_pl, year, filled))
    reader.close()
    tmp.replace(src)
    save_prepared(src, PART_EXTRAS)


def _attributed(
    table: pa.Table, combos: pl.DataFrame, child_ranks: pl.DataFrame, year: int, filled: bool = False,
) -> pa.Table:
    keys = pl.from_arrow(_plain_strings(table.select([*_COMBO_KEYS, "line_no", "kind", "ts", "ts_year"])))
    if filled:  # the key stage 2 decided from: no node (see _finish_parts)
        keys = keys.with_columns(pl.lit(None, dtype=pl.Utf8).alias("node"))
    # left joins that keep the part's row order; each key has at most one answer
    new = keys.join(combos, on=_COMBO_KEYS, how="left", nulls_equal=True, maintain_order="left").join(
        child_ranks, on=["file", "line_no", "kind"], how="left", nulls_equal=True, maintain_order="left"
    )
    moved = pl.col("ts_year").is_not_null() & (pl.col("ts_year") != year)
    ts = pl.when(moved).then(pl.col("ts").dt.offset_by(pl.format("{}y", year - pl.col("ts_year"))))
    new = new.select(
        pl.col("final_rank").cast(pl.Int32), pl.col("final_node"), ts.otherwise(pl.col("ts")).alias("ts"),
        pl.when(moved).then(pl.lit(year, dtype=pl.Int32)).otherwise(pl.col("ts_year")).alias("ts_year"),
        pl.col("child_rank"),
    )
    for name, column in (("rank", "final_rank"), ("node", "final_node"), ("ts", "ts"), ("ts_aligned", "ts"),
                         ("ts_year", "ts_year")):
        table = table.set_column(table.schema.get_field_index(name), name, new.get_column(column).to_arrow())
    if new.get_column("child_rank").is_not_null().any():
        attrs = pl.from_arrow(table.column("attrs").cast(_ATTR_LIST)).alias("attrs")
        child = pl.struct(key=pl.lit("child_rank"), value=pl.col("child_rank").cast(pl.Utf8))
        attrs = pl.DataFrame([attrs, new.get_column("child_rank")]).select(
            pl.when(pl.col("child_rank").is_null()).then(pl.col("attrs"))
            .otherwise(pl.concat_list(pl.col("attrs"), child))
        ).to_series()
        table = table.set_column(table.schema.get_field_index("attrs"), "attrs", attrs.to_arrow())
    return _with_attr_map(table)


def _files_table(
    con: duckdb.DuckDBPyConnection, files: list[InputFile], per_file: dict[int, tuple[int, int]],
    problems: ProblemLog,
) -> pa.Table:
    # from the per-file summaries and the attribution per combination: the same as
    # grouping the events view, without reading it
    agg = con.execute(
        """SELECT s.file, sum(s.n) AS events,
                  list(DISTINCT s.source ORDER BY s.source) AS sources,
                  list(DISTINCT c.final_rank ORDER BY c.final_rank) FILTER (WHERE c.final_rank IS NOT NULL) AS ranks,
                  list(DISTINCT c.final_node ORDER BY c.final_node) FILTER (WHERE c.final_node IS NOT NULL) AS nodes
           FROM part_summary s
           JOIN combo_final c
             ON c.file = s.file AND c.rank IS NOT DISTINCT FROM s.rank
            AND c.local_rank IS NOT DISTINCT FROM s.local_rank AND c.pid IS NOT DISTINCT FROM s.pid
            AND c.node IS NOT DISTINCT FROM s.node AND c.host_attr IS NOT DISTINCT FROM s.host_attr
           GROUP BY s.file"""
    ).fetchall()
    by_file = {row[0]: row[1:] for row in agg}
    hosts_of = dict(con.execute("SELECT file, hosts FROM file_hosts").fetchall())
    world_of = dict(con.execute("SELECT file, world_size FROM file_world_size").fetchall())
    problem_counts: dict[str, int] = {}
    for p in problems.items:
        problem_counts[p.file] = problem_counts.get(p.file, 0) + 1
    rows = []
    for i, f in enumerate(files):
        events, sources, ranks, nodes = by_file.get(f.rel, (0, [], [], []))
        rows.append(
            {
                "file": f.rel, "size": f.size, "compression": f.compression,
                "lines": per_file.get(i, (0, 0))[1], "events": events,
                "sources": sources or [], "ranks": ranks or [], "nodes": nodes or [],
                "problems": problem_counts.pop(f.rel, 0), "hosts": hosts_of.get(f.rel) or [],
                "world_size": world_of.get(f.rel),
            }
        )
    # problems about paths that never became input files (skipped binaries, bad links)
    for rel, count in problem_counts.items():
        rows.append(
            {"file": rel, "size": None, "compression": None, "lines": 0, "events": 0,
             "sources": [], "ranks": [], "nodes": [], "problems": count, "hosts": [], "world_size": None}
        )
    return pa.Table.from_pylist(rows, schema=FILE_SCHEMA)


def _metadata(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    files = con.sql("SELECT * FROM files").to_arrow_table()
    problems = con.sql("SELECT * FROM problems").to_arrow_table()
    return {
        "correlator.schema_version": str(SCHEMA_VERSION),
        "correlator.files": json.dumps(files.to_pylist(), default=str),
        "correlator.problems": json.dumps(problems.to_pylist(), default=str),
        SECRETS_KEY: secrets_note(_found_secret(con)),
    }


def _found_secret(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether any text column of the timeline holds a secret: as the workers found
    in their batches, or in a node name stage 2 gave (the parts it rewrote). The
    other change of a rewrite, attr ``child_rank=<digits>``, matches no pattern."""
    if con.execute("SELECT coalesce(bool_or(secret IS NOT FALSE), true) FROM part_summary").fetchall()[0][0]:
        return True
    nodes = con.execute("SELECT DISTINCT final_node FROM combo_final WHERE final_node IS NOT NULL").fetchall()
    return column_has_secret("node", pa.array([n for (n,) in nodes], pa.string()))


def write_parquet(staged: _Staged, out: Path) -> None:
    """Write the timeline: the parts' row groups as they are, one after the other
    (no value is encoded twice); ``files`` and ``problems`` travel in the metadata.
    Atomically (``correlator.output``): a unique temporary name, renamed when whole."""
    with atomic_path(out) as tmp:
        concat_parquet(staged.parts, tmp, drop_columns=PART_EXTRAS, key_value_metadata=_metadata(staged.con))


def write_parts_dir(staged: _Staged, out: Path) -> None:
    """Write the timeline as a directory of its parts (``correlator.timeline.parts_dir``):
    each part moved in and its footer written again without the part-only columns
    (``finish_in_place``: no data copied), then ``_correlator.json`` with what the
    single file keeps in its footer. The whole directory appears at once
    (``atomic_dir``); an existing ``out`` is replaced only if it is a timeline
    directory or empty. The parts leave the scratch directory: write the other
    outputs first."""
    meta = _metadata(staged.con)
    own = {"correlator.schema_version": meta["correlator.schema_version"]}
    with atomic_dir(out, replaceable=is_timeline_dir) as tmp:
        entries = []
        for src in map(Path, staged.parts):
            dest = tmp / src.name
            try:
                os.replace(src, dest)  # the same filesystem: scratch is beside out (_scratch_dir)
                if footer_path(src).exists():
                    os.replace(footer_path(src), footer_path(dest))
                rows = finish_in_place(dest, drop_columns=PART_EXTRAS, key_value_metadata=own)
            except OSError as exc:
                if exc.errno != errno.EXDEV:
                    raise
                rows = concat_parquet([src], dest, drop_columns=PART_EXTRAS, key_value_metadata=own)
            entries.append((dest.name, rows))
        write_meta(tmp, meta, entries)


def write_duckdb(staged: _Staged, out: Path) -> None:
    """Write a plain DuckDB database with tables ``events``, ``files``, ``problems``."""
    write_duckdb_from(staged.con, out)


def write_duckdb_from(con: duckdb.DuckDBPyConnection, out: str | Path) -> None:
    """A DuckDB database of ``con``'s ``events``, ``files`` and ``problems``, written
    atomically (DuckDB wants a name where no file is: ``atomic_path(fresh=True)``)."""
    with atomic_path(out, fresh=True) as tmp:
        con.execute(f"ATTACH {sql_literal(str(tmp))} AS outdb")
        try:
            for table in ("events", "files", "problems"):
                con.execute(f"CREATE TABLE outdb.{table} AS SELECT * FROM {table}")
            con.execute(
                "CREATE TABLE outdb.meta AS SELECT 'correlator.schema_version' AS key, "
                f"'{SCHEMA_VERSION}' AS value"
            )
        finally:
            con.execute("DETACH outdb")
