"""Reading: bytes -> numbered lines, whatever the input throws at us."""

from __future__ import annotations

import bz2
import errno
import gzip
import io
import lzma
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from correlator.ingest import read as read_mod
from correlator.ingest.discover import DecompressReader, InputFile, discover
from correlator.ingest.read import LineBatch, final_state, iter_line_batches
from correlator.timeline.problems import ProblemLog

BOM = b"\xef\xbb\xbf"
COMPRESS = {
    "gzip": gzip.compress,
    "bz2": lambda b: bz2.compress(b, 1),  # 100 kB blocks: a cut file still has whole blocks
    "xz": lzma.compress,
    "zstd": lambda b: zstandard.ZstdCompressor(write_checksum=True).compress(b),
}


def _mem_file(data: bytes, compression: str | None = None, rel: str = "x.log") -> InputFile:
    def opener() -> Any:
        raw = io.BytesIO(data)
        return DecompressReader(raw, compression) if compression else raw

    return InputFile(rel=rel, size=len(data), compression=compression, open=opener)


def _read(data: bytes | InputFile, **kw: int) -> tuple[list[str], list[LineBatch], ProblemLog]:
    """Read ``data``; for bytes, the column path of the \r rules must agree with the
    line-by-line one small chunks take (read._SMALL_CHUNK)."""
    f = data if isinstance(data, InputFile) else _mem_file(data)
    log = ProblemLog(echo=False)
    batches = list(iter_line_batches(f, log, **kw))
    got = [line for b in batches for line in b.lines.to_list()]
    if not isinstance(data, InputFile):
        saved, read_mod._SMALL_CHUNK = read_mod._SMALL_CHUNK, 0
        try:
            columns = [line for b in iter_line_batches(_mem_file(data), ProblemLog(echo=False), **kw)
                       for line in b.lines.to_list()]
        finally:
            read_mod._SMALL_CHUNK = saved
        assert columns == got
    return got, batches, log


def _oracle(data: bytes) -> list[str]:
    """What the reader must return for untruncated input (no line limit)."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    data = data.replace(b"\x00", b"")  # NULs are removed (crash padding), with a problem
    if not data:
        return []
    text = data.decode("utf-8", "replace")
    parts = text.split("\n")
    if text.endswith("\n"):
        parts.pop()
    return [final_state(p) for p in parts]


# --------------------------------------------------------------------------- lines


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"", []),
        (b"\n", [""]),
        (b"a", ["a"]),
        (b"a\n", ["a"]),
        (b"a\n\nb", ["a", "", "b"]),
        (b"a\nb\n\n", ["a", "b", ""]),
    ],
)
def test_line_splitting(data: bytes, lines: list[str]) -> None:
    got, batches, log = _read(data)
    assert got == lines
    assert log.items == []
    if lines:
        assert batches[0].first_line_no == 1
        assert batches[0].lines.dtype.is_(batches[0].lines.dtype)  # a real Series
        assert str(batches[0].lines.dtype) == "String"


def test_final_line_without_newline_is_kept() -> None:
    got, batches, _ = _read(b"one\ntwo\nthree (cut by the crash")
    assert got == ["one", "two", "three (cut by the crash"]
    assert batches[-1].last_line_no == 3


def test_crlf() -> None:
    got, _, _ = _read(b"windows\r\nline\r\n\r\nlast\r")
    assert got == ["windows", "line", "", "last"]


def test_tqdm_progress_bar_keeps_final_state() -> None:
    bar = "  5%|▌         | 1/20\r 10%|█         | 2/20\r100%|██████████| 20/20 [00:01]"
    cleared = "\r 50%|█████     | 10/20\r" + " " * 40 + "\r[rank0]: INFO step 10 loss 2.31"
    data = f"epoch 1\n{bar}\n{bar}\r\n{cleared}\n   \r   \ntrailing\r\rB\r\r\n".encode()
    got, _, _ = _read(data)
    assert got == [
        "epoch 1",
        "100%|██████████| 20/20 [00:01]",
        "100%|██████████| 20/20 [00:01]",
        "[rank0]: INFO step 10 loss 2.31",
        "",  # only blank segments
        "B",
    ]


@pytest.mark.parametrize(
    ("line", "final"),
    [
        ("plain", "plain"),
        ("crlf\r", "crlf"),
        ("a\rb", "b"),
        ("a\rb\r", "b"),
        ("a\r  \t", "a"),
        ("   \r", "   "),  # a lone trailing \r only: the line as it is
        ("\r\r", ""),
        (" x \r", " x "),
        ("a\r\rb\r \r", "b"),
    ],
)
def test_final_state_reference(line: str, final: str) -> None:
    assert final_state(line) == final
    got, _, _ = _read(line.encode() + b"\n")
    assert got == [final]  # the vectorised rules agree with the reference


def test_invalid_utf8_is_replaced_and_counted() -> None:
    data = b"ok\n\xff\xfe bad\ncut \xe2\x82\nreal \xef\xbf\xbd is not counted\n"
    got, _, log = _read(data)
    assert got == ["ok", "\ufffd\ufffd bad", "cut \ufffd", "real \ufffd is not counted"]
    [p] = log.items
    assert (p.action, p.line) == ("replaced", 2)
    assert p.what.startswith("3 invalid UTF-8 byte sequence(s) replaced with U+FFFD")


def test_latin1_log_is_decoded_whole_chunk_at_a_time() -> None:
    """Many invalid lines: one decode of the chunk instead of fixing them one by one."""
    data = "".join(f"temp {i} °C café\n" for i in range(1000)).encode("latin-1")
    got, _, log = _read(data)
    assert got[5] == "temp 5 \ufffdC caf\ufffd"
    assert len(got) == 1000
    [p] = log.items
    assert p.what.startswith("2,000 invalid UTF-8 byte sequence(s)")
    assert p.line == 1


def test_bom_dropped_only_at_file_start() -> None:
    data = BOM + b"first\n" + BOM + b"second\n"
    for batch_bytes in (1, 2, 5, 1 << 20):
        got, batches, _ = _read(data, batch_bytes=batch_bytes)
        assert got == ["first", "\ufeffsecond"]
        assert batches[0].byte_offset == 3


# --------------------------------------------------------------------------- batches


def test_numbering_and_offsets_across_tiny_batches() -> None:
    data = b"".join(b"line %d%s\n" % (i, b"x" * (i % 13)) for i in range(300))
    whole, _, _ = _read(data)
    assert whole == _oracle(data)
    for batch_bytes in (1, 2, 3, 7, 64, 1000):
        got, batches, log = _read(data, batch_bytes=batch_bytes)
        assert got == whole
        assert log.items == []
        assert len(batches) > 1
        no, offset = 1, 0
        for b in batches:
            assert b.first_line_no == no
            assert b.byte_offset == offset
            no += len(b.lines)
            offset += b.n_bytes
        assert offset == len(data)


def test_batches_are_about_batch_bytes() -> None:
    data = b"".join(b"%07d some log text here\n" % i for i in range(40000))  # ~1 MB
    _, batches, _ = _read(data, batch_bytes=64 << 10)
    assert 14 <= len(batches) <= 17
    # Within one line of the target (a batch ends at a line end).
    assert all(abs(b.n_bytes - (64 << 10)) < 40 for b in batches[:-1])


def test_reads_through_discover(tmp_path: Path) -> None:
    (tmp_path / "a.log.gz").write_bytes(gzip.compress(b"x\r\ny\n"))
    [f] = discover(tmp_path, ProblemLog(echo=False))
    got, batches, _ = _read(f)
    assert got == ["x", "y"]
    assert batches[0].file == "a.log.gz"


# --------------------------------------------------------------------------- long lines


def test_50mb_line_is_truncated_with_a_problem() -> None:
    big = 50 << 20
    data = b"first\nsecond\n" + b"x" * big + b"\nafter\n"
    for batch_bytes in (64 << 20, 1 << 20):  # whole line in one chunk / streamed past
        got, _, log = _read(data, batch_bytes=batch_bytes)
        assert got == ["first", "second", "x" * (1 << 20), "after"]
        [p] = log.items
        assert p.what == "line 3 is 52,428,800 bytes; kept the first 1,048,576"
        assert (p.action, p.line, p.file) == ("truncated", 3, "x.log")


def test_long_line_memory_is_bounded() -> None:
    data = b"a\n" + b"y" * (50 << 20) + b"\nz\n"
    f = _mem_file(data)
    log = ProblemLog(echo=False)
    tracemalloc.start()
    try:
        n = sum(len(b.lines) for b in iter_line_batches(f, log, batch_bytes=1 << 20))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert n == 3
    assert peak < 12 << 20, f"peak {peak:,} bytes for a 50 MB line"


class _Endless(io.RawIOBase):
    """``size`` bytes of one repeated byte, produced on demand (never held)."""

    def __init__(self, size: int, byte: bytes = b"q") -> None:
        self.left = size
        self.byte = byte

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        n = min(n if n >= 0 else self.left, self.left)
        self.left -= n
        return self.byte * n


def test_file_without_any_newline_streams_in_bounded_memory() -> None:
    size = 300 << 20
    f = InputFile(rel="nl-less", size=size, compression=None, open=lambda: _Endless(size))
    log = ProblemLog(echo=False)
    tracemalloc.start()
    try:
        batches = list(iter_line_batches(f, log, max_line_bytes=1000))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [b.lines.to_list() for b in batches] == [["q" * 1000]]
    assert log.items[0].what == "line 1 is 314,572,800 bytes; kept the first 1,000"
    assert peak < 40 << 20


def test_truncation_never_splits_a_character() -> None:
    data = ("é" * 1000 + "\n").encode()  # 2000 bytes
    for batch_bytes in (1 << 20, 100):
        got, _, log = _read(data, max_line_bytes=999, batch_bytes=batch_bytes)
        assert got == ["é" * 499]  # 998 bytes: the 500th 'é' would be cut in half
        assert log.items[0].what == "line 1 is 2,000 bytes; kept the first 998"


def test_long_progress_bar_keeps_final_state_without_a_problem() -> None:
    bar = "\r".join(f"{i:3d}%|{'#' * (i // 10)}|" for i in range(101))  # ~2 kB
    data = f"before\n{bar}\nafter\n".encode()
    for batch_bytes in (1 << 20, 64):
        got, _, log = _read(data, max_line_bytes=200, batch_bytes=batch_bytes)
        assert got == ["before", "100%|##########|", "after"]
        assert log.items == []


# --------------------------------------------------------------------------- damage


BIG_TEXT = b"".join(
    b"[rank%d]: step %d loss %.4f\n" % (i % 8, i, 1 / (i + 1)) for i in range(60000)
)


@pytest.mark.parametrize("kind", sorted(COMPRESS))
def test_truncated_stream_keeps_lines_before_the_damage(kind: str) -> None:
    data = COMPRESS[kind](BIG_TEXT)
    cut = data[: len(data) // 2]
    got, _, log = _read(_mem_file(cut, kind))
    original = BIG_TEXT.decode().split("\n")
    assert len(got) > 1000
    assert got[:-1] == original[: len(got) - 1]
    assert original[len(got) - 1].startswith(got[-1].rstrip("\ufffd"))
    [p] = log.items
    assert p.what.startswith("compressed stream ends early after ")
    assert p.action == "kept the lines before the damage"
    # "after N bytes" counts what was delivered.
    n = int(p.what.split("after ")[1].split(" bytes")[0].replace(",", ""))
    assert n >= sum(len(line) + 1 for line in got[:-1])


def test_truncated_gzip_file_on_disk(tmp_path: Path) -> None:
    data = gzip.compress(BIG_TEXT)
    (tmp_path / "rank0.log.gz").write_bytes(data[: len(data) // 2])
    log = ProblemLog(echo=False)
    [f] = discover(tmp_path, log)
    got, _, read_log = _read(f)
    assert got[0] == "[rank0]: step 0 loss 1.0000"
    assert read_log.items[0].what.startswith("compressed stream ends early after ")


@pytest.mark.parametrize("kind", sorted(COMPRESS))
def test_corrupt_stream_never_raises(kind: str) -> None:
    data = bytearray(COMPRESS[kind](BIG_TEXT))
    for i in range(len(data) // 2, len(data) // 2 + 64):
        data[i] ^= 0xA5
    got, _, log = _read(_mem_file(bytes(data), kind))
    assert any(p.action == "kept the lines before the damage" for p in log.items) or any(
        p.action in ("truncated", "replaced") for p in log.items
    )
    assert got[:100] == BIG_TEXT.decode().split("\n")[:100]


def test_concatenated_streams_and_trailing_garbage() -> None:
    one = gzip.compress(b"a\nb\n")
    got, _, log = _read(_mem_file(one + one + bytes(16), "gzip"))
    assert (got, log.items) == (["a", "b", "a", "b"], [])
    got, _, log = _read(_mem_file(one + b"junk", "gzip"))
    assert got == ["a", "b"]
    assert "unexpected data after the end of the gzip stream" in log.items[0].what


class _FailingStream(io.RawIOBase):
    """Gives ``good`` in small reads, then fails like a dying disk."""

    def __init__(self, good: bytes) -> None:
        self.data = io.BytesIO(good)

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        chunk = self.data.read(min(n, 1000))
        if not chunk:
            raise OSError(errno.EIO, "Input/output error")
        return chunk


def test_io_error_mid_file_keeps_lines_before() -> None:
    good = b"".join(b"line %d\n" % i for i in range(500)) + b"partial"
    f = InputFile(rel="r.log", size=0, compression=None, open=lambda: _FailingStream(good))
    got, _, log = _read(f, batch_bytes=4096)
    assert got == [f"line {i}" for i in range(500)] + ["partial"]
    [p] = log.items
    assert p.what == f"read error after {len(good):,} bytes: Input/output error (errno 5)"
    assert p.action == "kept the lines before the error"


def test_open_failure_is_a_problem() -> None:
    def boom() -> Any:
        raise PermissionError(errno.EACCES, "Permission denied")

    got, batches, log = _read(InputFile(rel="p.log", size=1, compression=None, open=boom))
    assert (got, batches) == ([], [])
    assert [(p.file, p.what, p.action) for p in log.items] == [
        ("p.log", "cannot open: Permission denied (errno 13)", "skipped")
    ]


def test_stops_cleanly_when_consumer_stops() -> None:
    closed = []

    class Tracking(io.BytesIO):
        def close(self) -> None:
            closed.append(True)
            super().close()

    f = InputFile(rel="t", size=0, compression=None, open=lambda: Tracking(b"a\n" * 1000))
    it = iter_line_batches(f, ProblemLog(echo=False), batch_bytes=10)
    next(it)
    it.close()  # generator cleanup closes the stream
    assert closed == [True]


# --------------------------------------------------------------------------- properties

_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(
    data=st.binary(max_size=3000),
    batch_bytes=st.integers(1, 80),
    max_bad=st.sampled_from([0, 2, 256]),  # fix bad lines one by one, or the whole chunk
)
def test_random_bytes(data: bytes, batch_bytes: int, max_bad: int) -> None:
    saved = read_mod._MAX_BAD_LINES
    read_mod._MAX_BAD_LINES = max_bad
    try:
        got, batches, log = _read(data, batch_bytes=batch_bytes)
    finally:
        read_mod._MAX_BAD_LINES = saved
    assert all("\n" not in line for line in got)
    assert got == _oracle(data)
    assert {p.action for p in log.items} <= {"replaced", "removed", "dropped"}
    nuls = data.count(b"\x00")
    assert sum(b.n_bytes for b in batches) + (3 if data.startswith(BOM) else 0) + nuls == len(data)


_LINE_CHARS = st.sampled_from(list("ab \t\r\x00é€𝄞\ufffd"))


@_SETTINGS
@given(
    lines=st.lists(st.text(_LINE_CHARS, max_size=120), max_size=40),
    crlf=st.booleans(),
    final_newline=st.booleans(),
    batch_bytes=st.integers(1, 300),
    max_line_bytes=st.integers(1, 150),
)
def test_random_lines_with_limit(
    lines: list[str], crlf: bool, final_newline: bool, batch_bytes: int, max_line_bytes: int
) -> None:
    eol = "\r\n" if crlf else "\n"
    text = eol.join(lines) + (eol if final_newline and lines else "")
    data = text.encode()
    got, _, log = _read(data, batch_bytes=batch_bytes, max_line_bytes=max_line_bytes)
    expected = _oracle(data)
    assert len(got) == len(expected)
    too_long = set()
    for i, (g, e) in enumerate(zip(got, expected, strict=True), start=1):
        assert "\n" not in g
        raw = e.encode()
        if len(raw) > max_line_bytes:
            too_long.add(i)
            assert len(g.encode()) <= max_line_bytes
            # A prefix (so no half character became U+FFFD), short only by a
            # character that did not fit.
            assert e.startswith(g)
            assert len(g.encode()) > max_line_bytes - 4
        else:
            assert g == e
    assert {p.line for p in log.items if p.action == "truncated"} == too_long


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(st.text(st.sampled_from(list("abc é€")), max_size=60), min_size=1, max_size=300),
    kind=st.sampled_from(sorted(COMPRESS)),
    cut=st.floats(0, 1),
    batch_bytes=st.sampled_from([7, 100, 1 << 20]),
)
def test_random_compression_and_truncation(
    lines: list[str], kind: str, cut: float, batch_bytes: int
) -> None:
    raw = ("\n".join(lines) + "\n").encode()
    full = COMPRESS[kind](raw)
    n = int(len(full) * cut)
    got, _, log = _read(_mem_file(full[:n], kind), batch_bytes=batch_bytes)
    assert all("\n" not in line for line in got)
    if n == len(full):
        assert got == lines
        assert log.items == []
        return
    actions = [p.action for p in log.items]
    assert actions.count("kept the lines before the damage") == 1
    assert set(actions) <= {"kept the lines before the damage", "replaced"}  # a cut character
    if got:
        assert got[:-1] == lines[: len(got) - 1]
        assert lines[len(got) - 1].startswith(got[-1].rstrip("\ufffd"))


def test_log_line_glued_after_an_overwritten_bar_state_is_kept() -> None:
    # captured: sample_logs/gloo-data-error-per-rank/rank0.log (tqdm redraws with \r,
    # a logging line printed right after a bar state, then the next redraw)
    line = (
        "Training:  17%|██  | 5/30 [00:00<00:01, 15.40it/s, loss=4.6304]"
        "11/30/2026 04:24:51 - INFO - train - step 5 | rank 0 | loss 3.3812\r"
        "Training:  33%|███ | 10/30 [00:00<00:01, 15.40it/s, loss=4.6]"
    )
    want = "11/30/2026 04:24:51 - INFO - train - step 5 | rank 0 | loss 3.3812\rTraining:  33%|███ | 10/30 [00:00<00:01, 15.40it/s, loss=4.6]"
    assert final_state(line) == want
    got, _, _ = _read(line.encode() + b"\n")
    assert got == [want]  # the vectorised rules agree with the reference


_BAR_PIECES = st.sampled_from(
    ["5/30 [00:01<00:02, 15.40it/s]", "[00:03, 2.1s/it, loss=4.6]", "it/s]", "s/it, x=1]", "]", "INFO step 5",
     " ", "\t", "é", "it/s", "[", "]x"]
)


@_SETTINGS
@given(states=st.lists(st.lists(_BAR_PIECES, max_size=4).map("".join), min_size=1, max_size=6))
def test_random_progress_bar_redraws_agree_with_the_reference(states: list[str]) -> None:
    # \r-separated bar states, some with text right after a closing bracket
    line = "\r".join(states)
    got, _, _ = _read(line.encode() + b"\n")
    assert got == [final_state(line)]
