"""Reading: one discovered file -> batches of decoded lines, streamed.

This is the hot path of ingest, so it works on whole chunks, never line by line:

1. Read a chunk of (decompressed) bytes: ``min(batch_bytes, 8 MiB)``; a batch is
   one or more chunks' lines, about ``batch_bytes`` in all. The chunk is cut after
   its last ``\\n``; the unfinished line is carried into the next chunk. Chunks
   are cut only at ``\\n`` bytes, which never occur inside a UTF-8 sequence, so
   decoding a chunk on its own is exact.
2. Turn the chunk into text: zero-copy as an Arrow string when Arrow's (memory
   speed) UTF-8 validation passes, else one ``str(..., "utf-8", "replace")``
   call, where invalid bytes become U+FFFD, never an error (one Problem per file
   counts them). Split it into lines with one Arrow ``split_pattern`` and hand
   them to Polars as a String column.
3. ``\\r`` rules, only when the raw chunk contains a ``\\r`` at all, and then only
   on the rows that contain one: a trailing ``\\r`` (CRLF) is dropped; a row with
   more ``\\r`` (tqdm rewriting its bar) keeps its last non-blank ``\\r``-segment,
   the line's final state. "Blank" means only spaces and tabs, because tqdm
   clears a bar (``leave=False``) by writing spaces over it.
   NUL bytes (a crashed rank's log is often NUL-padded where blocks were allocated
   but never written) are removed from the chunk's bytes before all this, when a
   ``memchr`` finds one, and counted (one Problem per file).
4. Rows longer than ``max_line_bytes`` are truncated (a handful of rows, so a
   Python loop over *them* is fine) with a Problem each.

Memory stays bounded whatever the file: a chunk is at most 8 MiB plus one
carried partial line, a batch about ``batch_bytes``, and a partial line is never
carried beyond
``max_line_bytes``. Past that (a 50 MB line, or a multi-GB file without a single
newline) the line is followed by :class:`_LongLine`, a small state machine that
keeps only the first ``max_line_bytes`` of the segment that will survive the
``\\r`` rules and counts the rest.

Nothing raises out of :func:`iter_line_batches`: a file that cannot be opened, a
damaged compressed stream, an I/O error mid-file each become one Problem, and
every line read before the damage is still yielded (the last one possibly cut
short). The line after the last newline is kept, as is a line cut by damage.
"""

from __future__ import annotations

import contextlib
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from correlator.ingest.discover import DamagedStream, InputFile
from correlator.timeline.problems import Problem, ProblemLog

__all__ = ["AppendedLines", "LineBatch", "final_state", "iter_line_batches"]

_BOM = b"\xef\xbb\xbf"
# The last \r-segment with something other than spaces/tabs in it, followed only
# by \r and blanks. Leftmost-first matching makes it the *last* such segment.
_LAST_SEGMENT = r"([^\r]*[^\r \t][^\r]*)(?:\r[ \t]*)*$"
_NON_BLANK = re.compile(rb"[^ \t]")
# Bytes read and split at a time; a batch is several such pieces. Measured: past
# ~16 MiB every buffer is a fresh mmap (page faults on each use) and throughput
# halves, so a big batch_bytes is served in pieces, not in one read.
_STEP = 8 << 20


@dataclass
class LineBatch:
    """Consecutive lines of one file.

    ``lines`` is a String Series, one element per physical line, without its
    newline, after the ``\\r`` rules and the length limit. ``byte_offset`` and
    ``n_bytes`` locate the batch in the decompressed stream (newlines included),
    e.g. for progress reporting.
    """

    file: str
    first_line_no: int
    lines: pl.Series
    byte_offset: int = 0
    n_bytes: int = 0

    @property
    def last_line_no(self) -> int:
        return self.first_line_no + len(self.lines) - 1


_GLUED_TAIL = r"(?:it/s|s/it)[^\]]*\](\S.*)$"
_GLUED_TAIL_RE = re.compile(_GLUED_TAIL)
# _GLUED_TAIL's bracket followed by text, in a whole line of \r-separated states
_GLUED_ANYWHERE = r"(?:it/s|s/it)[^\]\r]*\]\S"


# A progress-bar state (tqdm, rich, keras, a bare percentage): what a \r is meant to
# overwrite. Overwritten text that is none of these was output, not a bar.
_BAR_STATE = r"\d%\||\d+/\d+ \[|it/s|s/it|[█▉▊▋▌▍▎▏━]|\[[=>.# -]{3,}\]|^\s*\d{1,3}(?:\.\d+)?%"
_BAR_STATE_RE = re.compile(_BAR_STATE)
# An overwritten line worth its own event: an error or a warning.
_SEVERE = r"(?i)\b(?:error|warn(?:ing)?|exception|traceback|fatal|critical|failed|failure|abort(?:ed)?|killed|panic)\b"
_SEVERE_RE = re.compile(_SEVERE)


def final_state(line: str) -> str:
    """The ``\\r`` rules for one line, in plain Python (reference for tests and docs).

    A trailing ``\\r`` is dropped; if the line still contains ``\\r``, the last
    segment that is not blank (only spaces/tabs) is kept, or "" when none is.
    An earlier (overwritten) segment survives in two cases, before the final state
    and separated from it by ``\\r`` (demux splits each off as its own event): a log
    line printed glued after a tqdm bar (``...it/s]11/30/2026 04:24:51 - INFO ...``)
    is real output, not a bar state, so the text after the bar is kept; and an error
    or warning line that a bar overwrote (``ERROR: x\\r 45%|███``) is kept whole.
    Other overwritten text that is not a bar state is dropped and counted
    (:func:`overwritten_state`): the reader reports it.
    """
    return overwritten_state(line)[0]


def overwritten_state(line: str) -> tuple[str, int]:
    """:func:`final_state`, and how many overwritten segments of text (not a bar
    state, not blank, not kept) it dropped."""
    if line.endswith("\r"):
        line = line[:-1]
    if "\r" not in line:
        return line, 0
    segs = line.split("\r")
    last = next((i for i in range(len(segs) - 1, -1, -1) if segs[i].strip(" \t")), None)
    if last is None:
        return "", 0
    kept: list[str] = []
    dropped = 0
    for seg in segs[:last]:
        if m := _GLUED_TAIL_RE.search(seg):
            kept.append(m.group(1))
        elif not seg.strip(" \t") or _BAR_STATE_RE.search(seg):
            continue
        elif _SEVERE_RE.search(seg):
            kept.append(seg)
        else:
            dropped += 1
    return "\r".join([*kept, segs[last]]), dropped


def _states(rows: list[str]) -> tuple[list[str], int, int | None]:
    """:func:`overwritten_state` of each row: the rows, the segments dropped, and
    the index of the first row that dropped one."""
    out, dropped, first = [], 0, None
    for i, r in enumerate(rows):
        kept, n = overwritten_state(r)
        out.append(kept)
        if n:
            dropped += n
            first = i if first is None else first
    return out, dropped, first


def _apply_cr_rules(lines: pl.Series, buf: bytes, stop: int) -> tuple[pl.Series, int, int | None]:
    """Vectorised :func:`final_state` for the lines of ``buf[:stop]``.

    A chunk without ``\\r`` costs one ``memchr`` (``bytes.find``; ``bytes.count``
    is several times slower). Only the rows with a ``\\r`` are looked at again: a
    CRLF ending is stripped, the last segment taken (progress bars), and :func:`final_state`
    only on the few of those with text glued after a bar. A chunk of at most
    ``_SMALL_CHUNK`` bytes (a small file) runs :func:`final_state` itself on all
    of those rows: the tests check that both ways agree. Also returns how many
    overwritten segments of text were dropped, and the row of the first.
    """
    if buf.find(b"\r", 0, stop) < 0:
        return lines, 0, None
    if stop <= _SMALL_CHUNK:
        # a small file's few progress bars: the reference itself costs less than the
        # column operations below, which are a fixed cost per chunk
        idx = lines.str.contains("\r", literal=True).arg_true()
        if not idx.len():
            return lines, 0, None
        fixed, dropped, at = _states(lines.gather(idx).to_list())
        return lines.scatter(idx, fixed), dropped, None if at is None else int(idx[at])
    idx = lines.str.contains("\r", literal=True).arg_true()
    if idx.len() == 0:
        return lines, 0, None
    rows = lines.gather(idx)
    # a line ending with \r (CRLF text) is one of these: asked of them alone
    crlf = rows.str.ends_with("\r")
    if crlf.any():
        rows = rows.str.strip_suffix("\r")
        inner = rows.str.contains("\r", literal=True)
        lines = lines.scatter(idx, rows)
        if not inner.all():
            idx, rows = idx.filter(inner), rows.filter(inner)
        if idx.len() == 0:
            return lines, 0, None
    # the last segment, nearly always the bar's final state: a split finds it in a
    # fifth of the time of _LAST_SEGMENT, which only the rows ending blank then need
    fixed = rows.str.split("\r").list.last()
    blank = fixed.str.contains(r"^[ \t]*$").arg_true()
    if blank.len():
        fixed = fixed.scatter(blank, rows.gather(blank).str.extract(_LAST_SEGMENT, 1).fill_null(""))
    # only bars with text right after an earlier state's closing bracket (a plain
    # redraw is followed by \r or nothing) keep more than their last state
    # rows needing more than their last state: text glued after an earlier state's
    # closing bracket (a plain redraw is followed by \r or nothing), or an overwritten
    # segment that is text, not a bar state (its segments asked as one flat column)
    special = (rows.str.contains(_GLUED_ANYWHERE) | _text_overwritten(rows)).arg_true()
    dropped, first = 0, None
    if special.len():
        # kept by the reference itself, ~6 us a row, where a column expression over
        # each row's segments (list.eval) cost ~115 us a row (16 ms for the bench's
        # 139 a file)
        kept, dropped, at = _states(rows.gather(special).to_list())
        fixed = fixed.scatter(special, kept)
        first = None if at is None else int(idx[int(special[at])])
    return lines.scatter(idx, fixed), dropped, first


def _text_overwritten(rows: pl.Series) -> pl.Series:
    """Does any segment of each row but its last hold text that is not a bar state?

    Rows with as many percentage bars (``%|``), or as many rates, as segments (nearly
    every tqdm redraw: one of each a state) are answered by literal counts, without
    splitting them (20k redraws of 21 states: 135 ms split and asked, 20 counted)."""
    n = rows.str.count_matches("\r", literal=True) + 1
    maybe = (rows.str.count_matches("%|", literal=True) != n).arg_true()
    if maybe.len():  # bars without a total: rates
        few = rows.gather(maybe)
        rates = few.str.count_matches("it/s", literal=True) + few.str.count_matches("s/it", literal=True)
        maybe = maybe.filter(rates != n.gather(maybe))
    hit = pl.repeat(False, rows.len(), dtype=pl.Boolean, eager=True)
    if maybe.len() == 0:
        return hit
    seg = pl.col("s").str.split("\r")
    earlier = (
        pl.DataFrame({"s": rows.gather(maybe), "row": maybe})
        .select("row", seg.list.head(seg.list.len() - 1).alias("seg"))  # all but the last
        .explode("seg")
        .filter(pl.col("seg").str.contains(r"[^ \t]") & ~pl.col("seg").str.contains(_BAR_STATE))
    )
    return hit.scatter(earlier.get_column("row").unique(), True) if earlier.height else hit


_LARGE_STRING = pa.large_string()
# Chunks up to this size apply the \r rules line by line (see _apply_cr_rules).
_SMALL_CHUNK = 64 << 10
# Past this many invalid lines in a chunk (a Latin-1 log, say), decoding the
# whole chunk at once is cheaper than finding and fixing lines one by one.
_MAX_BAD_LINES = 256


def _small_chunk_lines(buf: bytes, stop: int) -> tuple[pl.Series, int, int | None] | None:
    """A small chunk's lines, ``\\r`` rules applied, in Python: a small file's column
    operations (each a fixed cost) took ten times its split in Python (a job of
    2,500 20 kB rank logs: 0.35 ms a file). None if the chunk is not valid UTF-8
    (the column path finds and counts the bad lines)."""
    try:
        text = buf[:stop].decode("utf-8")
    except UnicodeDecodeError:
        return None
    rows = text.split("\n")
    dropped, first = 0, None
    if "\r" in text:
        idx = [i for i, r in enumerate(rows) if "\r" in r]
        fixed, dropped, at = _states([rows[i] for i in idx])
        for i, r in zip(idx, fixed, strict=True):
            rows[i] = r
        first = None if at is None else idx[at]
    return pl.Series("line", rows, dtype=pl.String), dropped, first


def _to_lines(buf: bytes, stop: int) -> tuple[pl.Series, int]:
    """The lines of ``buf[:stop]`` as a String Series, and how many bytes were invalid.

    Valid UTF-8 (nearly all logs) is split zero-copy: Arrow validates the chunk at
    memory speed and splits it without Python ever decoding it. Otherwise the
    chunk is split as binary, the invalid lines are found by bisection with the
    same validation, and only they go through ``decode("utf-8", "replace")``.
    """
    offsets = pa.py_buffer(struct.pack("<qq", 0, stop))
    text = pa.LargeStringArray.from_buffers(1, offsets, pa.py_buffer(buf))
    try:
        text.validate(full=True)
    except pa.ArrowInvalid:
        pass
    else:
        return pl.Series("line", pc.split_pattern(text, "\n").flatten()), 0
    raw = pc.split_pattern(text.view(pa.large_binary()), b"\n").flatten()
    bad: list[int] = []
    if _find_invalid(raw, 0, bad):
        olds = [raw[i].as_py() for i in bad]
        fixed = [b.decode("utf-8", "replace") for b in olds]
        lines = pl.Series("line", raw).scatter(bad, pl.Series([f.encode() for f in fixed]))
        replaced = sum(_replacements(f, b) for f, b in zip(fixed, olds, strict=True))
        return lines.cast(pl.String), replaced
    decoded = str(memoryview(buf)[:stop], "utf-8", "replace")
    arr = pa.array([decoded], _LARGE_STRING)
    return pl.Series("line", pc.split_pattern(arr, "\n").flatten()), _replacements(
        decoded, buf[:stop]
    )


def _find_invalid(arr: pa.Array, base: int, out: list[int]) -> bool:
    """Append the indices of ``arr``'s invalid UTF-8 rows to ``out`` (False: too many)."""
    try:
        arr.view(_LARGE_STRING).validate(full=True)
        return True
    except pa.ArrowInvalid:
        pass
    if len(arr) == 1:
        out.append(base)
        return len(out) <= _MAX_BAD_LINES
    mid = len(arr) // 2
    return _find_invalid(arr.slice(0, mid), base, out) and _find_invalid(
        arr.slice(mid), base + mid, out
    )


def _replacements(text: str, raw: bytes) -> int:
    """U+FFFD the decoder inserted (those already in the input don't count)."""
    return text.count("\ufffd") - raw.count("\ufffd".encode())


def _cut_utf8(data: bytes, limit: int) -> bytes:
    """``data[:limit]``, backed off so no UTF-8 character is cut in half."""
    if len(data) <= limit:
        return data
    cut = limit
    # data[cut] is the first byte dropped: if it continues a character, drop the
    # whole character rather than leave a U+FFFD at the end of the kept text.
    while cut > 0 and limit - cut < 3 and (data[cut] & 0xC0) == 0x80:
        cut -= 1
    if (data[cut] & 0xC0) == 0x80:  # not valid UTF-8 anyway: cut where asked
        cut = limit
    return data[:cut]


class _LongLine:
    """One line longer than the limit, followed chunk by chunk in bounded memory.

    Tracks the line as ``\\r``-segments so the result equals :func:`final_state`
    of the whole line, cut to ``limit`` bytes: the current segment's prefix, the
    last closed segment (for a lone trailing ``\\r``) and the last closed
    non-blank one. Only the first ``limit`` bytes of each are kept.
    """

    def __init__(self, line_no: int, limit: int) -> None:
        self.line_no = line_no
        self.limit = limit
        self.total = 0  # raw bytes of the line so far
        self.n_cr = 0
        self.cur = bytearray()
        self.cur_len = 0
        self.cur_nonblank = False
        self.prev = b""
        self.prev_len = 0
        self.best: bytes | None = None
        self.best_len = 0

    def _append(self, part: bytes) -> None:
        # 4 bytes past the limit so the final cut can see where the character ends.
        room = self.limit + 4 - len(self.cur)
        if room > 0:
            self.cur += part[:room]
        self.cur_len += len(part)
        if not self.cur_nonblank and _NON_BLANK.search(part):
            self.cur_nonblank = True

    def _close_segment(self) -> None:
        self.prev, self.prev_len = bytes(self.cur), self.cur_len
        if self.cur_nonblank:
            self.best, self.best_len = self.prev, self.cur_len
        self.cur = bytearray()
        self.cur_len = 0
        self.cur_nonblank = False

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        if b"\r" not in data:
            self._append(data)
            return
        parts = data.split(b"\r")  # rare path: a progress bar longer than the limit
        self._append(parts[0])
        self._close_segment()
        middle = parts[1:-1]
        if middle:
            self.prev, self.prev_len = middle[-1][: self.limit + 4], len(middle[-1])
            for seg in reversed(middle):
                if _NON_BLANK.search(seg):
                    self.best, self.best_len = seg[: self.limit + 4], len(seg)
                    break
        self.n_cr += len(parts) - 1
        self._append(parts[-1])

    def finish(self) -> tuple[bytes, int]:
        """The kept bytes (at most ``limit``) and the real length of what they start."""
        if self.n_cr == 0:
            return bytes(self.cur), self.cur_len
        if self.n_cr == 1 and self.cur_len == 0:  # just a CRLF ending
            return self.prev, self.prev_len
        if self.cur_nonblank:
            return bytes(self.cur), self.cur_len
        if self.best is not None:
            return self.best, self.best_len
        return b"", 0


class _Reader:
    """The state of one file's read; see the module docstring for the method."""

    def __init__(
        self, f: InputFile, problems: ProblemLog, batch_bytes: int, max_line_bytes: int
    ) -> None:
        self.rel = f.rel
        self.problems = problems
        self.batch_bytes = batch_bytes
        self.limit = max_line_bytes
        self.offset = 0  # decompressed offset of the start of the unfinished line
        self.line_no = 1  # number of the unfinished line
        self.replaced = 0  # invalid UTF-8 sequences replaced by U+FFFD
        self.replaced_first: int | None = None
        self.bytes_read = 0  # decompressed bytes the stream delivered
        self.nuls = 0  # NUL bytes removed
        self.overwritten = 0  # overwritten \r-segments of text dropped (not bar states)
        self.overwritten_first: int | None = None
        self.nuls_first: int | None = None

    def problem(self, what: str, action: str, line: int | None = None) -> None:
        self.problems.add(Problem(file=self.rel, what=what, action=action, line=line))

    def fill(self, stream: Any, want: int) -> tuple[bytes, bool, BaseException | None]:
        """Up to ``want`` bytes; whether the stream ended; the error that stopped it."""
        parts: list[bytes] = []
        got = 0
        try:
            while got < want:
                b = stream.read(want - got)
                if not b:
                    return b"".join(parts), True, None
                parts.append(b)
                got += len(b)
                self.bytes_read += len(b)
        except Exception as e:  # keep what arrived before the damage
            return b"".join(parts), True, e
        return (parts[0] if len(parts) == 1 else b"".join(parts)), False, None

    def drop_nuls(self, data: bytes) -> bytes:
        """``data`` without its NUL bytes, counted (one Problem per file, at the end).

        A crashed rank's log is often NUL-padded where blocks were allocated but never
        written; the text around the NULs is evidence and is kept. (One C scan per
        chunk finds them; only a chunk holding one is copied.)
        """
        if self.nuls_first is None:
            self.nuls_first = self.line_no + data.count(b"\n", 0, data.find(b"\x00"))
        kept = data.replace(b"\x00", b"")
        self.nuls += len(data) - len(kept)
        return kept

    def split(self, buf: bytes, stop: int) -> pl.Series:
        """Lines of ``buf[:stop]`` (newline-free at its end) as a String Series."""
        done = _small_chunk_lines(buf, stop) if stop <= _SMALL_CHUNK else None
        if done is None:
            lines, replaced = _to_lines(buf, stop)
            if replaced:
                self.note_replaced(replaced, lines)
            lines, dropped, first = _apply_cr_rules(lines, buf, stop)
        else:
            lines, dropped, first = done
        if dropped:
            if self.overwritten_first is None and first is not None:
                self.overwritten_first = self.line_no + first
            self.overwritten += dropped
        # U+FFFD takes 3 bytes for 1 invalid byte, hence the 3x before we bother.
        if 3 * stop > self.limit:
            lens = lines.str.len_bytes()
            over = (lens > self.limit).arg_true()
            if over.len():
                lines = self.truncate(lines, over)
        return lines

    def note_replaced(self, count: int, lines: pl.Series) -> None:
        """Count invalid UTF-8 (one Problem per file, at the end, not one per line)."""
        if self.replaced_first is None:
            first = lines.str.contains("\ufffd", literal=True).arg_true()
            self.replaced_first = self.line_no + (int(first[0]) if first.len() else 0)
        self.replaced += count

    def truncate(self, lines: pl.Series, over: pl.Series) -> pl.Series:
        kept = []
        for i in over.to_list():
            raw = lines[i].encode("utf-8")
            cut = _cut_utf8(raw, self.limit)
            n = self.line_no + i
            self.problem(
                f"line {n} is {len(raw):,} bytes; kept the first {len(cut):,}", "truncated", n
            )
            kept.append(cut.decode("utf-8", "replace"))
        return lines.scatter(over, pl.Series(kept, dtype=pl.String))

    def finish_long(self, long: _LongLine) -> pl.Series:
        kept, real = long.finish()
        cut = _cut_utf8(kept, self.limit)
        if real > len(cut):
            if long.n_cr:
                what = (
                    f"line {long.line_no} is {long.total:,} bytes; its last \\r-segment is "
                    f"{real:,} bytes, kept the first {len(cut):,}"
                )
            else:
                what = f"line {long.line_no} is {long.total:,} bytes; kept the first {len(cut):,}"
            self.problem(what, "truncated", long.line_no)
        text = cut.decode("utf-8", "replace")
        if replaced := _replacements(text, cut):
            self.note_replaced(replaced, pl.Series([text]))
        # Invalid bytes expand to 3-byte U+FFFD: keep the byte limit a limit.
        if len(text.encode("utf-8")) > self.limit:
            text = _cut_utf8(text.encode("utf-8"), self.limit).decode("utf-8", "replace")
        return pl.Series("line", [text], dtype=pl.String)

    def run(self, stream: Any) -> Iterator[LineBatch]:
        """Group the pieces into batches of about ``batch_bytes``."""
        step = min(self.batch_bytes, _STEP)
        parts: list[pl.Series] = []
        first_no = offset = size = 0
        for no, off, lines, n in self.pieces(stream, step):
            if not parts:
                first_no, offset, size = no, off, 0
            parts.append(lines)
            size += n
            # A chunk ends at its last newline, so it is a little short of `step`;
            # half a step of slack keeps batches at ~batch_bytes, not double.
            if size >= self.batch_bytes - step // 2:
                yield LineBatch(self.rel, first_no, _concat(parts), offset, size)
                parts = []
        if parts:
            yield LineBatch(self.rel, first_no, _concat(parts), offset, size)

    def pieces(self, stream: Any, step: int) -> Iterator[tuple[int, int, pl.Series, int]]:
        """(first line no, byte offset, lines, bytes consumed) per ``step`` bytes read."""
        carry = b""  # start of the unfinished line, never longer than the limit
        long: _LongLine | None = None
        first = True
        error: BaseException | None = None
        while True:
            # The first read asks for >= 4 bytes so a BOM is never split.
            data, ended, error = self.fill(stream, max(step, 4) if first else step)
            if first:
                first = False
                if data.startswith(_BOM):
                    data = data[len(_BOM) :]
                    self.offset = len(_BOM)
            if data.find(b"\x00") >= 0:
                data = self.drop_nuls(data)
            parts: list[pl.Series] = []
            batch_no, batch_offset, consumed = self.line_no, self.offset, 0
            if long is not None:
                nl = data.find(b"\n")
                if nl < 0 and not ended:
                    long.feed(data)
                    continue
                stop = nl if nl >= 0 else len(data)
                long.feed(data[:stop])
                parts.append(self.finish_long(long))
                consumed = long.total + (1 if nl >= 0 else 0)
                self.line_no += 1
                long = None
                data = data[stop + 1 :] if nl >= 0 else b""
            buf = carry + data if carry else data
            del data  # a chunk is big: hold one copy, not two
            carry = b""
            if ended:
                stop = len(buf) - 1 if buf.endswith(b"\n") else len(buf)
                rest = len(buf)
                complete = len(buf) > 0
            else:
                stop = buf.rfind(b"\n")
                complete = stop >= 0
                rest = stop + 1
            if complete:
                lines = self.split(buf, stop)
                parts.append(lines)
                self.line_no += len(lines)
                consumed += rest
            if parts:
                yield batch_no, batch_offset, _concat(parts), consumed
            self.offset = batch_offset + consumed
            if ended:
                break
            tail = buf[rest:]
            if len(tail) > self.limit:
                long = _LongLine(self.line_no, self.limit)
                long.feed(tail)
            else:
                carry = tail
        if self.replaced:
            self.problem(
                f"{self.replaced:,} invalid UTF-8 byte sequence(s) replaced with U+FFFD, "
                f"the first on line {self.replaced_first}",
                "replaced",
                self.replaced_first,
            )
        if self.overwritten:
            self.problem(
                f"{self.overwritten:,} piece(s) of text overwritten with \\r (by a progress bar?) "
                f"dropped; only each line's final state is kept, the first on line {self.overwritten_first}",
                "dropped",
                self.overwritten_first,
            )
        if self.nuls:
            self.problem(
                f"{self.nuls:,} NUL byte(s) removed (crash padding?), the first on line {self.nuls_first}",
                "removed",
                self.nuls_first,
            )
        if error is not None:
            if isinstance(error, DamagedStream):
                self.problem(str(error), "kept the lines before the damage")
            else:
                self.problem(
                    f"read error after {self.bytes_read:,} bytes: {_describe(error)}",
                    "kept the lines before the error",
                )


class AppendedLines:
    """Complete lines appended to a followed file (``correlator watch``), as lines.

    The same rules as :func:`iter_line_batches` (NUL bytes dropped, invalid UTF-8
    replaced, ``\\r`` rules, long lines cut), applied to bytes that arrive a piece
    at a time; line numbers go on from one call to the next. The caller hands over
    whole lines only (up to a newline): a partial last line waits for its newline.
    """

    def __init__(self, rel: str, problems: ProblemLog, max_line_bytes: int = 1 << 20) -> None:
        self._reader = _Reader(InputFile(rel, 0, None, open=_no_stream), problems, 1 << 20, max_line_bytes)
        self._started = False

    @property
    def next_line_no(self) -> int:
        return self._reader.line_no

    def lines(self, data: bytes) -> tuple[int, pl.Series]:
        """(number of the first line, the lines) of ``data``: whole lines, the last
        newline included (one without a newline is taken as a whole line too)."""
        reader = self._reader
        if not self._started:
            self._started = True
            data = data.removeprefix(_BOM)
        if data.find(b"\x00") >= 0:
            data = reader.drop_nuls(data)
        first = reader.line_no
        stop = len(data) - 1 if data.endswith(b"\n") else len(data)
        if not data:
            return first, pl.Series("line", [], dtype=pl.String)
        lines = reader.split(data, stop)
        reader.line_no += len(lines)
        return first, lines


def _no_stream() -> Any:
    raise OSError("a followed file is read by its follower")


def _concat(parts: list[pl.Series]) -> pl.Series:
    # One chunk: Polars' strings are views, so this copies 16 bytes a line and no text
    # (0.2 ms for 15 MB), and a gather from one chunk costs a tenth of one across two
    # (a 15 MB batch read in two pieces: its stage 1 1-3% faster in measurements).
    return parts[0] if len(parts) == 1 else pl.concat(parts, rechunk=True)


def _describe(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return f"{e.strerror} (errno {e.errno})"
    return str(e) or type(e).__name__


def iter_line_batches(
    f: InputFile,
    problems: ProblemLog,
    *,
    batch_bytes: int = 64 << 20,
    max_line_bytes: int = 1 << 20,
) -> Iterator[LineBatch]:
    """Stream ``f`` as batches of about ``batch_bytes`` of lines, numbered from 1.

    Never raises for bad input (see the module docstring); only a non-positive
    ``batch_bytes`` or ``max_line_bytes`` is a ``ValueError``.
    """
    if batch_bytes < 1 or max_line_bytes < 1:
        raise ValueError("batch_bytes and max_line_bytes must be positive")
    try:
        stream = f.open()
    except Exception as e:
        problems.add(Problem(file=f.rel, what=f"cannot open: {_describe(e)}", action="skipped"))
        return
    reader = _Reader(f, problems, batch_bytes, max_line_bytes)
    try:
        yield from reader.run(stream)
    except Exception as e:  # a bug must not take the other files down with it
        problems.add(
            Problem(
                file=f.rel,
                what=f"internal error after line {reader.line_no - 1:,}: {type(e).__name__}: {e}",
                action="stopped reading this file",
            )
        )
    finally:
        with contextlib.suppress(Exception):
            stream.close()
