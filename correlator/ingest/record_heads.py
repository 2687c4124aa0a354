"""Cleaning a line's text before its wrappers are read: colour codes and repeated record heads.

Two things stand between a line and what it says, whatever wrote it:

* **Colour codes.** A terminal's control sequences (Ray colours its ``(Worker pid=...)``
  prefixes, vLLM its ``(VllmWorker rank=0 pid=...)``, loguru and rich their level fields).
  In a paste copied from a web page or an issue the ESC byte is gone and the rest stays:
  ``[36m(RayTrainWorker pid=1234)[0m ...``. Both forms are removed; the ESC-less one only
  where it cannot be a line's own bracketed text: at the line's start or against a
  wrapper's parenthesis.
* **A record head on every line of a multi-line message.** Some loggers print their
  header before each line of one record: torch's (``E1206 02:03:15.770000 23349
  .../api.py:836] Traceback ...``, the header to the microsecond), vLLM's (``ERROR 09-06
  00:38:50 [multiproc_executor.py:944]   File ...``, to the second). A header that repeats the
  line above's, from the same process, is that record going on, not a record of its own:
  it is stripped, so the traceback below reads as one (its exception line at the start
  of its line, where every reader of exceptions looks). A header only to the second
  repeats between two records too (a loop's log line), so there only a traceback's own
  lines (a frame, its code, a caret line, the exception) are taken as the record going on.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from correlator.ingest.demux import SHAPE_CODE

_TERMINAL_CONTROL = r"\x1b\[[0-?]*[ -/]*[@-~]"
_SGR_WITHOUT_ESC = r"\[(?:\d{1,3};)*\d{1,3}m"
_SGR_AT_EDGES = rf"^(?:{_SGR_WITHOUT_ESC})+|(?:{_SGR_WITHOUT_ESC})+(?:\(|$)|\)(?:{_SGR_WITHOUT_ESC})+"


def without_terminal_control(df: pl.DataFrame) -> pl.DataFrame:
    """``text`` without colour and cursor codes (the lines that carry their ESC byte)."""
    text = df.get_column("text")
    if not text.str.contains("\x1b", literal=True).any():
        return df
    return df.with_columns(text.str.replace_all(_TERMINAL_CONTROL, ""))


# rsyslog (and journald's forwarders) write a control character as '#' and its three octal
# digits: ESC is "#033" (rsyslog's $EscapeControlCharactersOnReceive, on by default)
_ESCAPED_TERMINAL_CONTROL = r"#033\[[0-?]*[ -/]*[@-~]"


def without_escaped_terminal_control(df: pl.DataFrame) -> pl.DataFrame:
    """``text`` without the colour codes a syslog daemon wrote out as ``#033[...m``. Taken off
    after hard wraps are joined: whatever cut those lines (a ticket, a viewer) counted the
    escapes as text, where a terminal cuts real ESC codes' lines by what it shows."""
    text = df.get_column("text")
    if not text.str.contains("#033[", literal=True).any():
        return df
    return df.with_columns(text.str.replace_all(_ESCAPED_TERMINAL_CONTROL, ""))


def without_pasted_colour_codes(
    df: pl.DataFrame, rows_where: Callable[[pl.DataFrame, Callable[[pl.Series], pl.Series]], pl.Series],
) -> pl.DataFrame:
    """``text`` without colour codes whose ESC byte a paste lost, where they stand at the
    line's start or against a wrapper's parenthesis: "[36m(W pid=1)[0m x" -> "(W pid=1) x".

    ``rows_where(df, test)``: as for ``unrepeat_record_heads``.
    """
    hit = rows_where(df, lambda t: t.str.contains(_SGR_AT_EDGES))
    if not hit.any():
        return df
    text = df.get_column("text")
    cleaned = (
        text.str.replace(rf"^(?:{_SGR_WITHOUT_ESC})+", "")
        .str.replace_all(rf"\)(?:{_SGR_WITHOUT_ESC})+", ")")
        .str.replace_all(rf"(?:{_SGR_WITHOUT_ESC})+\(", "(")
        .str.replace(rf"(?:{_SGR_WITHOUT_ESC})+$", "")
    )
    out = df.with_columns(pl.when(hit).then(cleaned).otherwise(text).alias("text"))
    if SHAPE_CODE in df.columns:
        out = out.with_columns(pl.when(hit).then(None).otherwise(pl.col(SHAPE_CODE)).alias(SHAPE_CODE))
    return out


# (name, the head as group 1, a cheap digit-invariant test of the rows that may carry it,
#  whether any line after a repeated head goes on the record, or only a traceback's lines)
_HEADS: tuple[tuple[str, str, str, bool], ...] = (
    ("torch", r"^([IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [^\s\]]+:\d+\] )", r"^[IWEF]\d{4} \d\d:", True),
    ("vllm", r"^((?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[?[^\s\]]+:\d+\] )",
     r"^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:", False),
)
# a traceback's own lines: a frame or its code (indented), a caret line, its header, the exception
_TRACEBACK_LINE = (r"^(?:\s|\^|Traceback \(most recent call last\)|During handling of the above"
                   r"|The above exception was the direct cause"
                   r"|[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Warning)(?::|$))")


def unrepeat_record_heads(
    df: pl.DataFrame, rows_where: Callable[[pl.DataFrame, Callable[[pl.Series], pl.Series]], pl.Series],
) -> pl.DataFrame:
    """Strip a record head that repeats the line above's from the same process (see the module doc).

    ``rows_where(df, test)``: ``test`` over the rows' texts (from their digit shapes where
    known: each test above is digit-invariant).
    """
    text = df.get_column("text")
    same_process: pl.Series | None = None  # asked only of a batch where some head repeats
    stripped = pl.repeat(None, df.height, dtype=pl.Utf8, eager=True)  # the head to strip, per row
    for _name, head_re, may_re, any_line in _HEADS:
        may = rows_where(df, lambda t, may_re=may_re: t.str.contains(may_re))
        if may.sum() < 2:
            continue
        heads = df.select(pl.when(may).then(pl.col("text").str.extract(head_re, 1)).alias("h")).to_series()
        repeat = (heads.is_not_null() & (heads == heads.shift(1))).fill_null(False)
        if not repeat.any():
            continue
        if same_process is None:
            same_process = _same_process_as_above(df)
        repeat = repeat & same_process
        if not any_line and repeat.any():
            at = repeat.arg_true()
            rest = text.gather(at).str.slice(heads.gather(at).str.len_chars())
            repeat = repeat.scatter(at, rest.str.contains(_TRACEBACK_LINE).fill_null(False))
        stripped = pl.select(pl.when(repeat).then(heads).otherwise(stripped)).to_series()
    repeat_any = stripped.is_not_null()
    if not repeat_any.any():
        return df
    rest = text.str.slice(stripped.str.len_chars().fill_null(0))
    changed = df.with_columns(pl.when(repeat_any).then(rest).otherwise(pl.col("text")).alias("text"))
    if SHAPE_CODE in df.columns:
        changed = changed.with_columns(
            pl.when(repeat_any).then(None).otherwise(pl.col(SHAPE_CODE)).alias(SHAPE_CODE))
    return changed


def _same_process_as_above(df: pl.DataFrame) -> pl.Series:
    """Per row: the line above came from the same process (pid, rank and host alike, nulls equal)."""
    same = pl.repeat(True, df.height, eager=True)
    for col in ("pid", "rank", "host"):
        if col in df.columns:
            c = df.get_column(col)
            same = same & c.eq_missing(c.shift(1)).fill_null(False)
    return same
