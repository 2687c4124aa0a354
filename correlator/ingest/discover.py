"""Discovery: turn the user's target into the list of log files to read.

The target is a directory (walked recursively), a single file, a tar archive of a
log directory (plain, gzip, bzip2, xz or zstd compressed), or ``-`` for standard
input. The result is a deterministic list of :class:`InputFile`; everything that
is *not* read (binaries, checkpoints, our own Parquet/DuckDB outputs, links that
leave the directory, unreadable or empty files...) becomes a :class:`Problem`, so
nothing is dropped silently and nothing stops the analysis.

Design notes

* **Evidence is read-only.** Files are opened ``O_RDONLY`` with ``O_NOATIME``
  where the kernel allows it, archives are read in place (never extracted), and
  nothing is ever written next to the inputs. Standard input is spooled once (in
  memory up to 64 MiB, beyond that into an anonymous temporary file in
  ``$TMPDIR``) because it can be read only once.
* **Content decides, names only help.** Compression is sniffed from magic bytes
  (a ``.gz`` that is really plain text is read as text, a gzip without an
  extension is decompressed); so are tar archives and the binary formats we skip.
  A few extensions (checkpoints, bytecode) are skipped by name alone, because
  their content can look like anything. Flight Recorder dumps (a pickle or JSON
  with the dump's keys) are recognised by content whatever their name, and read
  by their own path (``InputFile.format``); other pickles are skipped.
* **``InputFile.open`` is a picklable callable** (small classes, not closures), so
  a parallel ingest can ship InputFiles to worker processes; only the
  standard-input spool cannot be pickled (forking is fine: it is read with
  positional reads, so processes never share a file offset).
* **Names.** ``rel`` is relative to the analysed directory; a single-file target
  is named by its file name; tar members are ``<archive rel>/<member path>``
  (the archive named by its file name when it is the target, ``<stdin>`` when it
  came on standard input). Tar archives found inside a directory are expanded
  too; an archive inside an archive is reported, not expanded.
* **Decompression is our own small streaming layer** (:class:`DecompressReader`)
  rather than ``gzip.open`` & co: every format then behaves the same when the
  data is damaged (all bytes before the damage are delivered, then one
  :class:`DamagedStream` error saying how far we got), output per step is bounded
  (a small file that inflates to gigabytes never sits in memory), and
  concatenated streams (``cat a.gz b.gz``, logrotate) are read whole.
* **Compressed tar archives have no random access.** Their members are
  decompressed once, while the archive is listed, into a private spool directory
  (:class:`_MemberSpool`: ``mkdtemp``, names of our own, removed with the
  InputFiles); every worker then reads its members as plain files. Only if the
  spool cannot be written do members fall back to a forward-only cursor per
  archive (an earlier member, or one opened while another is, costs a fresh pass).
  Plain ``.tar`` members are read by offset with no such cost.
* **Bounded whatever the input.** A file is read up to its size at discovery (a
  log that grows while it is read ends there); decompression stops, with a
  :class:`DamagedStream`, once a stream inflated more than ``_BOMB_RATIO`` times
  past ``_BOMB_FLOOR`` (a bomb); standard input is spooled up to ``_SPOOL_LIMIT``.
"""

from __future__ import annotations

import bz2
import codecs
import contextlib
import errno
import io
import lzma
import os
import posixpath
import re
import shutil
import stat
import sys
import tarfile
import tempfile
import threading
import weakref
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol, cast

import zstandard

from correlator.timeline.problems import Problem, ProblemLog
from parsers import flight_recorder

__all__ = ["SNIFF_BYTES", "DamagedStream", "DecompressReader", "InputFile", "discover", "not_followed"]

#: How much of each (decompressed) file is looked at to decide what it is.
SNIFF_BYTES = 8192

_IN_CHUNK = 256 << 10  # compressed bytes read from disk at a time
_FEED = 8 << 10  # compressed bytes fed to a decoder per step (bounds loss on corruption)
# Most decompressed bytes produced per step: bounds memory. zstandard's
# decompressobj has no output limit; for it, small input pieces are the bound: a
# 4-byte RLE block inflates to 128 KiB, so _ZSTD_PIECE bytes give at most ~32 MiB
# (8 KiB at once: 268 MB from a 32 KB bomb, and a 75 KB one reached 2.7 GB).
_OUT_CHUNK = 1 << 20
_ZSTD_PIECE = 1 << 10
# A stream that inflates more than _BOMB_RATIO times, past _BOMB_FLOOR bytes, is
# stopped there (a decompression bomb: logs compress 5-50x, a NUL-padded or
# endlessly repeated one some thousands of times, but then its first GiB says it all).
_BOMB_RATIO = 1000
_BOMB_FLOOR = 1 << 30
_SPOOL_IN_MEMORY = 64 << 20  # standard input beyond this spills to a temp file
# Standard input read beyond this is not spooled (the disk of $TMPDIR is not ours to fill).
_SPOOL_LIMIT = 32 << 30

STDIN_NAME = "<stdin>"

_COMPRESSION_MAGIC: dict[str, bytes] = {
    "gzip": b"\x1f\x8b",
    "bz2": b"BZh",
    "xz": b"\xfd7zXZ\x00",
    "zstd": b"\x28\xb5\x2f\xfd",
}
_COMPRESSION_SUFFIXES = (".gz", ".bz2", ".xz", ".zst", ".zstd", ".tgz", ".tbz2", ".txz", ".tzst")
_TAR_SUFFIXES = (".tar", ".tgz", ".tbz2", ".txz", ".tzst")

# Directories that never hold a job's logs and can be huge.
_SKIP_DIRS = {
    ".git": "version-control directory",
    ".hg": "version-control directory",
    ".svn": "version-control directory",
    "__pycache__": "Python bytecode cache",
}

# Skipped by name alone: their content is arbitrary (a checkpoint can start with
# anything), and reading GBs of weights as text would only produce noise.
_SKIP_SUFFIXES = {
    ".pyc": "Python bytecode",
    ".pyo": "Python bytecode",
    ".pt": "PyTorch checkpoint",
    ".pth": "PyTorch checkpoint",
    ".ckpt": "checkpoint",
    ".safetensors": "safetensors checkpoint",
    ".bin": "binary file (checkpoint)",
    ".npy": "NumPy array",
    ".npz": "NumPy archive",
    ".parquet": "Parquet file (an output of this tool?)",
    ".duckdb": "DuckDB database (an output of this tool?)",
    ".sqlite": "SQLite database",
    ".sqlite3": "SQLite database",
    ".png": "image",
    ".jpg": "image",
    ".jpeg": "image",
    ".gif": "image",
    ".zip": "zip archive",
    ".whl": "Python wheel",
    ".so": "shared library",
    ".nsys-rep": "Nsight Systems report",
    ".qdrep": "Nsight Systems report",
}

# (offset, magic, what) for formats recognised by content.
_BINARY_MAGIC: list[tuple[int, bytes, str]] = [
    (0, b"PAR1", "Parquet file (an output of this tool?)"),
    (8, b"DUCK", "DuckDB database (an output of this tool?)"),
    (0, b"SQLite format 3\x00", "SQLite database"),
    (0, b"\x89PNG\r\n\x1a\n", "PNG image"),
    (0, b"\xff\xd8\xff", "JPEG image"),
    (0, b"GIF87a", "GIF image"),
    (0, b"GIF89a", "GIF image"),
    (0, b"\x7fELF", "ELF executable"),
    (0, b"PK\x03\x04", "zip archive (or a zip-format checkpoint)"),
    (0, b"PK\x05\x06", "zip archive"),
    (0, b"%PDF-", "PDF document"),
    (0, b"\x93NUMPY", "NumPy array"),
    (0, b"\xff\xfe", "UTF-16 text (not supported; convert it with iconv)"),
    (0, b"\xfe\xff", "UTF-16 text (not supported; convert it with iconv)"),
]

# Long NUL runs are what a crashed node leaves in a log whose blocks were
# allocated but never written; that file is prime evidence, not a binary.
_NUL_PADDING = re.compile(rb"\x00{64,}")
# Bytes no text log contains: C0 controls except \b \t \n \v \f \r and ESC (ANSI
# colours), DEL, and U+FFFD (what undecodable bytes became).
_NON_TEXT = re.compile("[\x00-\x07\x0e-\x1a\x1c-\x1f\x7f\ufffd]")
# The same bytes, for counting in ASCII text without decoding it.
_NON_TEXT_BYTES = bytes([*range(0x00, 0x08), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])
_NON_TEXT_LIMIT = 0.30


class DamagedStream(OSError):
    """A compressed stream or archive ended early or is corrupt.

    Raised by the streams that :attr:`InputFile.open` returns, only after every
    byte that could be recovered before the damage was delivered. The message says
    how far the stream got, e.g. ``compressed stream ends early after 1,234 bytes:
    gzip data ends before its end-of-stream marker``; ``detail`` is the part after
    the colon.
    """

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail or message

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class InputFile:
    """One log to read.

    ``open()`` returns a fresh, independent stream of the *decompressed* bytes
    each time it is called (the caller closes it). ``read(n)`` on it may return
    fewer than ``n`` bytes; a damaged compressed stream raises
    :class:`DamagedStream` after its good bytes.
    """

    rel: str  # relative to the analysed root, POSIX separators; "<archive rel>/<member>"; "<stdin>"
    size: int  # bytes as stored (compressed size)
    compression: str | None  # None, "gzip", "bz2", "xz", "zstd"
    open: Callable[[], BinaryIO] = field(repr=False, compare=False)
    # "text" (a log, read line by line) or "flight_recorder" (a dump, read whole)
    format: str = "text"


# --------------------------------------------------------------------------- streams


class _Decoder(Protocol):
    """The bz2/lzma decompressor interface; zlib and zstd are adapted to it."""

    @property
    def eof(self) -> bool: ...
    @property
    def needs_input(self) -> bool: ...
    @property
    def unused_data(self) -> bytes: ...
    def decompress(self, data: bytes, max_length: int = -1) -> bytes: ...


class _Inflater:
    """zlib (gzip wrapper) behind the bz2-style ``needs_input`` interface."""

    def __init__(self) -> None:
        self._d = zlib.decompressobj(zlib.MAX_WBITS | 16)
        self._tail = b""

    @property
    def eof(self) -> bool:
        return self._d.eof

    @property
    def needs_input(self) -> bool:
        return not self._tail

    @property
    def unused_data(self) -> bytes:
        return self._d.unused_data

    def decompress(self, data: bytes, max_length: int = -1) -> bytes:
        buf = self._tail + data if self._tail else data
        out = self._d.decompress(buf, max(max_length, 0))
        self._tail = self._d.unconsumed_tail
        return out


class _Unzstd:
    """zstandard's decompressobj behind the bz2-style interface (one frame each).

    It has no output limit, so input goes in ``_ZSTD_PIECE``-byte pieces, as many as
    fit ``max_length`` of output, the rest held back (``needs_input`` is False while
    some is): one call's output is at most ``max_length`` plus one piece's worth.
    """

    def __init__(self) -> None:
        # --long=31 archives need a 2 GiB window; the default refuses them.
        self._d = zstandard.ZstdDecompressor(max_window_size=1 << 31).decompressobj()
        self._tail = b""

    @property
    def eof(self) -> bool:
        return bool(self._d.eof)

    @property
    def needs_input(self) -> bool:
        return not self._tail

    @property
    def unused_data(self) -> bytes:
        return bytes(self._d.unused_data) + self._tail

    def decompress(self, data: bytes, max_length: int = -1) -> bytes:
        buf = self._tail + data if self._tail else data
        limit = max_length if max_length > 0 else _OUT_CHUNK
        parts: list[bytes] = []
        got = pos = 0
        while pos < len(buf) and got < limit and not self._d.eof:
            out = self._d.decompress(buf[pos : pos + _ZSTD_PIECE])
            pos += _ZSTD_PIECE
            if out:
                parts.append(out)
                got += len(out)
        self._tail = b"" if self._d.eof else buf[pos:]
        return parts[0] if len(parts) == 1 else b"".join(parts)


def _new_decoder(kind: str) -> _Decoder:
    if kind == "gzip":
        return _Inflater()
    if kind == "bz2":
        return bz2.BZ2Decompressor()
    if kind == "xz":
        return lzma.LZMADecompressor()
    if kind == "zstd":
        return _Unzstd()
    raise ValueError(f"unknown compression {kind!r}")


_DECODE_ERRORS = (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError, zstandard.ZstdError)


class DecompressReader(io.RawIOBase):
    """Streaming decompression of gzip / bz2 / xz / zstd with uniform damage handling.

    ``read(n)`` returns at most ``n`` bytes; an error is raised on the call
    *after* the last good bytes were returned. A truncated stream loses nothing.
    On corruption the decoders raise without returning the output of that call,
    so compressed input is fed in ``_FEED``-byte steps: at most that much input
    (~100 KB of text) before the bad spot is lost. Concatenated streams are
    decompressed one after the other; NUL padding after the last one is ignored;
    anything else after it is reported as damage.
    """

    def __init__(self, raw: Any, kind: str) -> None:
        super().__init__()
        self._raw = raw
        self._kind = kind
        self._dec = _new_decoder(kind)
        self._pending = b""
        self._pos = 0
        self._held = memoryview(b"")  # raw bytes read but not yet fed to a decoder
        self._produced = 0
        self._consumed = 0  # compressed bytes fed to the decoders
        self._done = False
        self._stalls = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        if size == 0:
            return b""
        while self._pos >= len(self._pending):
            if self._done:
                return b""
            self._step()
        if self._pos == 0 and size >= len(self._pending):
            chunk = self._pending  # common case: hand the whole piece over, no copy
        else:
            chunk = self._pending[self._pos : self._pos + size]
        self._pos += len(chunk)
        self._produced += len(chunk)
        return chunk

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def readall(self) -> bytes:
        parts = []
        while chunk := self.read(_OUT_CHUNK):
            parts.append(chunk)
        return b"".join(parts)

    def close(self) -> None:
        if not self.closed:
            try:
                self._raw.close()
            finally:
                super().close()

    # -- internals
    def _damage(self, what: str) -> DamagedStream:
        return DamagedStream(f"compressed stream {what}", what.split(": ", 1)[-1])

    def _step(self) -> None:
        """Produce the next piece of output into ``_pending``, or finish."""
        dec = self._dec
        if dec.eof:
            self._next_stream()
            return
        data = b""
        if dec.needs_input:
            data = self._next_input()
            if not data:
                out = self._decompress(b"")  # drain what the decoder still holds
                if out:
                    self._set_pending(out)
                    return
                if dec.eof:
                    return
                raise self._damage(
                    f"ends early after {self._produced:,} bytes: "
                    f"{self._kind} data ends before its end-of-stream marker"
                )
        out = self._decompress(data)
        if out or dec.eof:
            self._stalls = 0
        else:
            self._stalls += 1
            if (
                self._stalls > 1000 and not dec.needs_input
            ):  # a decoder that stopped making progress
                raise self._damage(
                    f"is corrupt after {self._produced:,} bytes: {self._kind} decoder stalled"
                )
        self._set_pending(out)

    def _next_input(self) -> bytes:
        if not self._held:
            self._held = memoryview(self._raw.read(_IN_CHUNK))
        data, self._held = bytes(self._held[:_FEED]), self._held[_FEED:]
        self._consumed += len(data)
        return data

    def _set_pending(self, out: bytes) -> None:
        if self._produced > _BOMB_FLOOR and self._produced > _BOMB_RATIO * max(self._consumed, 1):
            self._done = True
            raise DamagedStream(
                f"compressed stream stopped after {self._produced:,} bytes: {self._consumed:,} "
                f"{self._kind} bytes inflated more than {_BOMB_RATIO:,} times (a decompression bomb?)",
                "inflates more than a log can",
            )
        self._pending, self._pos = out, 0

    def _decompress(self, data: bytes) -> bytes:
        try:
            return self._dec.decompress(data, _OUT_CHUNK)
        except _DECODE_ERRORS as e:
            raise self._damage(
                f"is corrupt after {self._produced:,} bytes: {self._kind}: {e}"
            ) from e

    def _next_stream(self) -> None:
        """After one stream ended: start the next concatenated one, or finish."""
        magic = _COMPRESSION_MAGIC[self._kind]
        rest = self._dec.unused_data + bytes(self._held)
        self._held = memoryview(b"")
        while len(rest) < len(magic):
            more = self._raw.read(_IN_CHUNK)
            if not more:
                break
            rest += more
        if not rest:
            self._done = True
            return
        if rest.startswith(magic):
            self._dec = _new_decoder(self._kind)
            self._held = memoryview(rest)
            return
        while rest and not rest.strip(b"\x00"):  # padding (xz requires it to be allowed)
            rest = self._raw.read(_IN_CHUNK)
        if not rest:
            self._done = True
            return
        raise self._damage(
            f"is corrupt after {self._produced:,} bytes: "
            f"unexpected data after the end of the {self._kind} stream"
        )


class _Prefixed(io.RawIOBase):
    """``head`` (already read while sniffing) followed by the rest of ``raw``."""

    def __init__(self, head: bytes, raw: Any) -> None:
        super().__init__()
        self._head = head
        self._raw = raw

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        if self._head:
            out, self._head = self._head[:size], self._head[size:]
            return out
        return cast(bytes, self._raw.read(size))

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _Forward:
    """``seek``/``tell`` over a forward-only stream (a decompressed tar archive).

    Seeking ahead reads and discards; seeking back is refused. ``read(n)`` returns
    exactly ``n`` bytes unless the stream ends, because tarfile expects full blocks.
    An error after some bytes of a read is held back until the next call, so the
    good bytes are never lost with it; ``error`` keeps it for the archive scan.
    """

    def __init__(self, raw: Any) -> None:
        self._raw = raw
        self._pos = 0
        self.ended_at: int | None = None  # position where the stream ran out, if it did
        self.error: BaseException | None = None

    def tell(self) -> int:
        return self._pos

    def seekable(self) -> bool:
        return False

    def seek(self, offset: int, whence: int = 0) -> int:
        target = offset if whence == 0 else self._pos + offset
        if whence not in (0, 1) or target < self._pos:
            raise io.UnsupportedOperation("a compressed archive can only be read forwards")
        while self._pos < target:
            if not self.read(min(target - self._pos, _OUT_CHUNK)):
                break
        return self._pos

    def read(self, size: int = -1) -> bytes:
        if self.error is not None:
            raise self.error
        parts = []
        want = size if size >= 0 else sys.maxsize
        while want > 0:
            try:
                got = self._raw.read(min(want, _OUT_CHUNK))
            except Exception as e:
                self.error = e
                if not parts:
                    raise
                break
            if not got:
                self.ended_at = self._pos
                break
            parts.append(got)
            self._pos += len(got)
            want -= len(got)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def close(self) -> None:
        self._raw.close()


class _Slice(io.RawIOBase):
    """Bytes ``[offset, offset+size)`` of a shared archive stream: one tar member."""

    def __init__(self, src: Any, offset: int, size: int, on_close: Callable[[], None]) -> None:
        super().__init__()
        self._src = src
        self._offset = offset
        self._size = size
        self._pos = 0
        self._on_close = on_close

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        left = self._size - self._pos
        if left <= 0 or size == 0:
            return b""
        want = self._offset + self._pos
        try:
            if self._src.tell() != want:
                self._src.seek(want)
            data = cast(bytes, self._src.read(min(size, left)))
        except DamagedStream as e:
            raise DamagedStream(
                f"archive is damaged after {self._pos:,} bytes of this member: {e.detail}", e.detail
            ) from e
        if not data:
            raise DamagedStream(
                f"archive ends early after {self._pos:,} of this member's {self._size:,} bytes",
                "archive ends early",
            )
        self._pos += len(data)
        return data

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            try:
                self._on_close()
            finally:
                super().close()


class _Spool:
    """Standard input, read once: in memory while small, else an anonymous temp file.

    Reads are positional (``os.pread``), so views never share a file offset, not
    even across the processes of a forked parallel ingest.
    """

    def __init__(self, src: Any) -> None:
        head, self._file = bytearray(), None
        got = 0
        self.cut = False  # more than _SPOOL_LIMIT came: the rest was not read
        while chunk := src.read(1 << 20):
            if got + len(chunk) > _SPOOL_LIMIT:
                chunk = chunk[: _SPOOL_LIMIT - got]
                self.cut = True
            got += len(chunk)
            if self._file is None and len(head) + len(chunk) <= _SPOOL_IN_MEMORY:
                head += chunk
                continue
            if self._file is None:
                # Not a context manager: the spool lives as long as the InputFiles
                # reading it; the file has no name and vanishes when closed.
                self._file = tempfile.TemporaryFile()  # noqa: SIM115
                self._file.write(head)
                head = bytearray()
            self._file.write(chunk)
            if self.cut:
                break
        self._mem = bytes(head)
        self.size = self._file.tell() if self._file is not None else len(self._mem)
        self._lock = threading.Lock()

    def read_at(self, pos: int, n: int) -> bytes:
        n = max(0, min(n, self.size - pos))
        if self._file is None:
            return self._mem[pos : pos + n]
        if hasattr(os, "pread"):
            return os.pread(self._file.fileno(), n, pos)
        with self._lock:  # no pread (Windows): one thread at a time on the offset
            self._file.seek(pos)
            return cast(bytes, self._file.read(n))


class _SpoolView(io.RawIOBase):
    """An independent, seekable read position over the stdin spool."""

    def __init__(self, spool: _Spool) -> None:
        super().__init__()
        self._spool = spool
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self._pos, 2: self._spool.size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            size = self._spool.size
        data = self._spool.read_at(self._pos, size)
        self._pos += len(data)
        return data

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


# --------------------------------------------------------------------------- sources
# A source is a picklable callable returning a fresh raw (still compressed) stream.


def _open_path(path: str) -> io.FileIO:
    """Open read-only without touching atime where the kernel lets us (owner or root)."""
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    noatime = getattr(os, "O_NOATIME", 0)
    try:
        fd = os.open(path, flags | noatime)
    except PermissionError as e:
        if not noatime or e.errno != errno.EPERM:
            raise
        fd = os.open(path, flags)  # EPERM: not our file, so O_NOATIME is not allowed
    return io.FileIO(fd, "rb", closefd=True)


@dataclass(frozen=True)
class _PathSource:
    """A file on disk, read up to ``size`` (its size at discovery; None: all of it)."""

    path: str
    size: int | None = None

    def __call__(self) -> io.RawIOBase:
        f = _open_path(self.path)
        return f if self.size is None else _Sized(f, self.size)


class _Sized(io.RawIOBase):
    """The first ``size`` bytes of a file: a log that grows while it is read (the job
    is still running, or a writer is stuck in a loop) ends where it ended when it was
    discovered, so its size, the work and the timeline are those of one moment."""

    def __init__(self, f: io.FileIO, size: int) -> None:
        super().__init__()
        self._f = f
        self._size = size

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._f.tell()

    def seek(self, offset: int, whence: int = 0) -> int:
        if whence == io.SEEK_END:
            return self._f.seek(self._size + offset)
        return self._f.seek(offset, whence)

    def read(self, size: int | None = -1) -> bytes:
        left = self._size - self._f.tell()
        if left <= 0:
            return b""
        if size is None or size < 0 or size > left:
            size = left
        return cast(bytes, self._f.read(size))

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def readall(self) -> bytes:
        return self.read(-1)

    def close(self) -> None:
        if not self.closed:
            try:
                self._f.close()
            finally:
                super().close()


class _MemberSpool:
    """A private directory (``mkdtemp``: mode 0700, a fresh name) holding the members
    of one compressed archive, decompressed once while the archive is listed.

    A compressed archive has no random access: every worker process opening its
    members decompressed it from the start again (120 members of 5 MB: 147 s as a
    .tar.gz against 32 s as a directory). Members are written under names of our
    own (``m000001``), never under their paths in the archive, so nothing in an
    untrusted archive decides where anything is written. The directory is removed
    when the last InputFile reading it is gone, or at exit, and only by the process
    that made it (workers get plain paths, see ``_SpooledMember.__reduce__``).
    """

    def __init__(self) -> None:
        self.path = tempfile.mkdtemp(prefix="correlator-members-")
        weakref.finalize(self, _remove_spool, self.path, os.getpid())

    def create(self, name: str) -> io.FileIO:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
        return io.FileIO(os.open(os.path.join(self.path, name), flags, 0o600), "wb", closefd=True)


def _remove_spool(path: str, owner: int) -> None:
    if os.getpid() == owner:
        shutil.rmtree(path, ignore_errors=True)


class _SpooledMember:
    """A member of a compressed archive, spooled (``_MemberSpool``); ``damage`` is why
    its bytes end early, raised as :class:`DamagedStream` after them."""

    def __init__(self, spool: _MemberSpool, name: str, size: int, damage: str | None = None) -> None:
        self.spool = spool  # keeps the directory alive as long as this source is
        self.path = os.path.join(spool.path, name)
        self.size = size
        self.damage = damage

    def __reduce__(self) -> tuple[Any, ...]:
        # another process reads the file but never owns (removes) the directory
        return (_SpooledPath, (self.path, self.size, self.damage))

    def __call__(self) -> io.RawIOBase:
        return _open_spooled(self.path, self.size, self.damage)


@dataclass(frozen=True)
class _SpooledPath:
    path: str
    size: int
    damage: str | None = None

    def __call__(self) -> io.RawIOBase:
        return _open_spooled(self.path, self.size, self.damage)


def _open_spooled(path: str, size: int, damage: str | None) -> io.RawIOBase:
    f = _Sized(_open_path(path), size)
    return f if damage is None else _EndsDamaged(f, damage)


class _EndsDamaged(io.RawIOBase):
    """``raw``'s bytes, then :class:`DamagedStream` (``detail``) where they end."""

    def __init__(self, raw: Any, message: str) -> None:
        super().__init__()
        self._raw = raw
        self._message = message

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        data = cast(bytes, self._raw.read(size))
        if not data and size != 0:
            raise DamagedStream(self._message, self._message.split(": ", 1)[-1])
        return data

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            try:
                self._raw.close()
            finally:
                super().close()


@dataclass(frozen=True)
class _SpoolSource:
    """Standard input; every call returns an independent view of the spool."""

    spool: _Spool

    def __call__(self) -> io.RawIOBase:
        return _SpoolView(self.spool)


class _Archive:
    """A tar archive whose members are opened by offset (see module notes on the cursor)."""

    def __init__(self, base: Callable[[], Any], compression: str | None) -> None:
        self.base = base
        self.compression = compression
        self._lock = threading.Lock()
        self._cursor: _Forward | None = None
        self._busy = False

    def __reduce__(self) -> tuple[Any, ...]:
        # The cursor and lock are per process: a copy starts with none.
        return (_Archive, (self.base, self.compression))

    def open_stream(self) -> Any:
        """A fresh pass over the uncompressed archive bytes."""
        raw = self.base()
        return _Forward(DecompressReader(raw, self.compression)) if self.compression else raw

    def open_member(self, offset: int, size: int) -> _Slice:
        if self.compression is None:
            src = self.open_stream()
            return _Slice(src, offset, size, src.close)
        with self._lock:
            if self._busy:  # another member is being read from the cursor: go it alone
                src = self.open_stream()
                return _Slice(src, offset, size, src.close)
            if self._cursor is None or self._cursor.tell() > offset:
                if self._cursor is not None:
                    self._cursor.close()
                self._cursor = self.open_stream()
            self._busy = True
            return _Slice(self._cursor, offset, size, self._release)

    def _release(self) -> None:
        with self._lock:
            self._busy = False


@dataclass(frozen=True)
class _MemberSource:
    archive: _Archive
    offset: int
    size: int

    def __call__(self) -> io.RawIOBase:
        return self.archive.open_member(self.offset, self.size)


@dataclass(frozen=True)
class _Opener:
    """``InputFile.open``: a fresh raw stream from ``source``, decompressed if needed."""

    source: Callable[[], Any]
    compression: str | None

    def __call__(self) -> BinaryIO:
        raw = self.source()
        if self.compression is None:
            return cast(BinaryIO, raw)
        return cast(BinaryIO, DecompressReader(raw, self.compression))


# --------------------------------------------------------------------------- sniffing


def _read_upto(stream: Any, n: int) -> tuple[bytes, BaseException | None]:
    """Up to ``n`` bytes (fewer only at the end), and the error that stopped us, if any."""
    parts: list[bytes] = []
    got = 0
    try:
        while got < n:
            b = stream.read(n - got)
            if not b:
                break
            parts.append(b)
            got += len(b)
    except Exception as e:
        return b"".join(parts), e
    return b"".join(parts), None


def _sniff_compression(head: bytes) -> str | None:
    if head.startswith(b"\x1f\x8b\x08"):
        return "gzip"
    # "BZh" + block size digit + the block (pi) or end-of-stream (sqrt pi) magic: a
    # log line starting with "BZh" must not be mistaken for bzip2.
    if re.match(rb"BZh[1-9](\x31\x41\x59\x26\x53\x59|\x17\x72\x45\x38\x50\x90)", head):
        return "bz2"
    if head.startswith(_COMPRESSION_MAGIC["xz"]):
        return "xz"
    if head.startswith(_COMPRESSION_MAGIC["zstd"]):
        return "zstd"
    return None


def _strip_compression_suffix(name: str) -> str:
    lower = name.lower()
    for suf in (".gz", ".bz2", ".xz", ".zst", ".zstd"):
        if lower.endswith(suf):
            return lower[: -len(suf)]
    return lower


def _name_skip_reason(name: str) -> str | None:
    base = _strip_compression_suffix(name)
    for suf, what in _SKIP_SUFFIXES.items():
        if base.endswith(suf):
            return what
    return None


def not_followed(rel: str, head: bytes) -> str | None:
    """Why a growing file is not followed line by line (``correlator watch``), or None.

    The rules discovery reads a file by: a name that is never a log, a compressed
    file or an archive (a finished, rotated file: the final analysis reads it), a
    Flight Recorder dump, a binary. ``head``: the file's first bytes (up to
    ``SNIFF_BYTES``); empty while the file is.
    """
    name = posixpath.basename(rel)
    if (skip := next((d for d in rel.split("/")[:-1] if d in _SKIP_DIRS), None)) is not None:
        return _SKIP_DIRS[skip]
    if (what := _name_skip_reason(name)) is not None:
        return f"{what}, not a log"
    if name.lower().endswith(_COMPRESSION_SUFFIXES + _TAR_SUFFIXES) or _sniff_compression(head):
        return "compressed or archived: read whole at the end"
    if not head:
        return None
    if _looks_like_tar(head, name):
        return "tar archive: read whole at the end"
    if flight_recorder.looks_like_dump(head):
        return "Flight Recorder dump: read whole at the end"
    if (kind := _magic_kind(head)) is not None:
        return f"{kind}, not a log"
    return _binary_reason(head)


def _looks_like_tar(head: bytes, name: str) -> bool:
    if len(head) >= 262 and head[257:262] == b"ustar":
        return True
    # Old (v7) archives have no magic: trust a tar-ish name if the header checksum holds.
    lower = name.lower()
    if len(head) >= 512 and (
        _strip_compression_suffix(lower).endswith(".tar") or lower.endswith(_TAR_SUFFIXES)
    ):
        try:
            stored = tarfile.nti(head[148:156])
        except tarfile.HeaderError:
            return False
        return stored in tarfile.calc_chksums(head[:512])
    return False


def _magic_kind(head: bytes) -> str | None:
    for offset, magic, what in _BINARY_MAGIC:
        if head[offset : offset + len(magic)] == magic:
            return what
    # Compressed data inside a compressed file (its magic is sniffed before, so only a
    # stream compressed twice gets here): read as text it would be noise.
    kind = _sniff_compression(head)
    if kind is not None:
        return f"{kind} data inside a compressed file (compressed twice; not expanded)"
    # Pickle protocol 2+ that is no flight-recorder dump (legacy .pt files, caches).
    if flight_recorder.is_pickle(head):
        return "pickle (not a flight-recorder dump)"
    return None


def _binary_reason(head: bytes) -> str | None:
    """Why ``head`` (the first bytes of the decompressed stream) is not text, or None.

    Decided on evidence, not on one byte: the known binary formats were recognised by
    their magic numbers before (``_magic_kind``); here it is the share of bytes no
    text log holds. Runs of NULs are what a crashed node leaves (blocks allocated,
    never written) and are left out of the count; a stray NUL is a control byte like
    any other, so one NUL in a log no longer drops it (the reader removes them, with a
    problem). Scattered NULs past 1% are not a log, though (UTF-16 without a BOM, a
    struct dump): text has none of them.
    """
    # (the checks a plain ASCII log passes are C scans: the regexes cost 0.1 ms a
    # file, which a job of thousands of rank logs paid before any work began)
    rest = _NUL_PADDING.sub(b"", head) if b"\x00" in head else head
    if not rest:
        return f"binary content (only NUL bytes in the first {len(head):,} bytes)"
    nuls = rest.count(b"\x00")
    if nuls > max(1, len(rest) // 100):
        return f"binary content ({nuls:,} scattered NUL bytes in the first {len(head):,} bytes)"
    if rest.isascii():
        text_len, bad = len(rest), len(rest) - len(rest.translate(None, _NON_TEXT_BYTES))
    else:
        # A multi-byte character cut at the sniff boundary is not evidence of binary.
        text = rest.decode("utf-8", "replace") if len(head) < SNIFF_BYTES else _decode_head(rest)
        text_len, bad = len(text), len(_NON_TEXT.findall(text))
    if not text_len:
        return None
    if bad / text_len > _NON_TEXT_LIMIT:
        return f"binary content ({bad / text_len:.0%} non-text bytes in the first {len(head):,} bytes)"
    return None


def _decode_head(data: bytes) -> str:
    return codecs.getincrementaldecoder("utf-8")("replace").decode(data, final=False)


def _clean_rel(name: str) -> str:
    """A printable POSIX relative name (undecodable bytes become U+FFFD)."""
    name = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    name = posixpath.normpath(name.replace("\\", "/")).lstrip("/")
    return "" if name == "." else name


# --------------------------------------------------------------------------- discovery


@dataclass
class _Discovery:
    problems: ProblemLog
    groups: list[tuple[tuple[str, ...], list[InputFile]]] = field(default_factory=list)

    def problem(self, rel: str, what: str, action: str = "skipped") -> None:
        self.problems.add(Problem(file=rel, what=what, action=action))

    def result(self) -> list[InputFile]:
        # Sorted by path components (directory-tree order); an archive's members
        # stay in archive order, which keeps its forward-only cursor cheap.
        self.groups.sort(key=lambda g: g[0])
        return [f for _, files in self.groups for f in files]

    # -- one file (or stream), whatever its container
    def examine(
        self,
        rel: str,
        size: int,
        raw: Any,
        source: Callable[[], Any],
        *,
        in_archive: bool,
    ) -> list[InputFile]:
        """Decide what ``raw`` (just opened, positioned at 0) is; return what to read."""
        head, err = _read_upto(raw, SNIFF_BYTES)
        if err is not None and not head:
            self.problem(rel, f"cannot read: {_describe(err)}")
            return []
        compression = _sniff_compression(head)
        if compression is not None:
            dec = DecompressReader(_Prefixed(head, raw), compression)
            head, err = _read_upto(dec, SNIFF_BYTES)
            if err is not None and not head:
                self.problem(rel, f"{_describe(err)}; nothing could be decompressed")
                return []
        if not head:
            what = (
                "empty file" if compression is None else f"empty file (empty {compression} stream)"
            )
            self.problem(rel, what, "nothing to read")
            return []
        if _looks_like_tar(head, posixpath.basename(rel)):
            if in_archive:
                self.problem(rel, "tar archive inside an archive (not expanded)")
                return []
            return self.scan_tar(rel, _Archive(source, compression))
        if flight_recorder.looks_like_dump(head):
            return [InputFile(rel=rel, size=size, compression=compression,
                              open=_Opener(source, compression), format="flight_recorder")]
        kind = _magic_kind(head)
        if kind is not None:
            self.problem(rel, f"{kind}, not a log")
            return []
        reason = _binary_reason(head)
        if reason is not None:
            self.problem(rel, reason)
            return []
        # A damaged stream still goes to the reader, which keeps the lines before the damage.
        return [
            InputFile(
                rel=rel, size=size, compression=compression, open=_Opener(source, compression)
            )
        ]

    def examine_path(self, rel: str, path: str, size: int) -> list[InputFile]:
        what = _name_skip_reason(posixpath.basename(rel))
        if what is not None:
            self.problem(rel, f"{what}, not a log")
            return []
        if size == 0:
            self.problem(rel, "empty file", "nothing to read")
            return []
        source = _PathSource(path, size)
        try:
            raw = source()
        except PermissionError:
            self.problem(rel, "permission denied")
            return []
        except OSError as e:
            self.problem(rel, f"cannot open: {_describe(e)}")
            return []
        try:
            return self.examine(rel, size, raw, source, in_archive=False)
        finally:
            raw.close()

    def examine_spooled(self, rel: str, source: _SpooledMember) -> list[InputFile]:
        raw = source()
        try:
            found = self.examine(rel, source.size, raw, source, in_archive=True)
        finally:
            raw.close()
        if not found:
            with contextlib.suppress(OSError):
                os.unlink(source.path)
        return found

    # -- tar archives
    def scan_tar(self, rel: str, archive: _Archive) -> list[InputFile]:
        """List the members of a tar archive, sniffing each, in one pass over it."""
        out: list[InputFile] = []
        skipped_dirs: set[str] = set()
        spool: _MemberSpool | None = None
        stream = archive.open_stream()
        count = 0
        data_end = 0  # where the last member's data ends: beyond the archive's end = truncated
        try:
            tf = tarfile.TarFile(fileobj=stream, mode="r")
            for ti in tf:
                count += 1
                name = _clean_rel(ti.name)
                if not name:
                    continue
                mrel = f"{rel}/{name}"
                parts = name.split("/")
                skip_at = next((i for i, p in enumerate(parts) if p in _SKIP_DIRS), None)
                if skip_at is not None:
                    d = "/".join(parts[: skip_at + 1])
                    if d not in skipped_dirs:
                        skipped_dirs.add(d)
                        self.problem(f"{rel}/{d}", _SKIP_DIRS[parts[skip_at]])
                    continue
                if ti.isdir():
                    continue
                if ti.issym():
                    self.problem(
                        mrel, f"symlink inside the archive (to '{ti.linkname}'); not followed"
                    )
                    continue
                if ti.islnk():
                    target = _clean_rel(ti.linkname)
                    self.problem(
                        mrel, f"hard link to '{rel}/{target}' inside the archive", "not read twice"
                    )
                    continue
                if not ti.isfile():
                    self.problem(mrel, "not a regular file (device, fifo...)")
                    continue
                if ti.sparse is not None:
                    self.problem(mrel, "sparse file inside the archive (not supported)")
                    continue
                what = _name_skip_reason(parts[-1])
                if what is not None:
                    self.problem(mrel, f"{what}, not a log")
                    continue
                if ti.size == 0:
                    self.problem(mrel, "empty file", "nothing to read")
                    continue
                data_end = max(data_end, ti.offset_data + ti.size)
                if archive.compression is not None:
                    # decompressed once, here, into a private spool: not once per task
                    spool = spool or _MemberSpool()
                    spooled, error = _spool_member(spool, f"m{count:06d}", stream, ti)
                    if spooled is not None:
                        out.extend(self.examine_spooled(mrel, spooled))
                        if error is not None:
                            raise error
                        stream.seek(tf.offset)
                        continue
                    # the spool could not be written (disk full?): members by offset
                sniff = _Slice(stream, ti.offset_data, ti.size, lambda: None)
                source = _MemberSource(archive, ti.offset_data, ti.size)
                out.extend(self.examine(mrel, ti.size, sniff, source, in_archive=True))
                # Move to the next header ourselves so tarfile never seeks backwards.
                stream.seek(tf.offset)
        except Exception as e:
            if count == 0:
                self.problem(rel, f"looks like a tar archive but cannot be read: {_describe(e)}")
            else:
                self.problem(
                    rel,
                    f"archive is damaged after {count:,} members: {_describe(e)}",
                    "kept the members before the damage",
                )
            return out
        else:
            if isinstance(stream, _Forward):
                if stream.error is not None:  # tarfile took the short block as the end
                    self.problem(
                        rel,
                        f"archive is damaged after {count:,} members: {_describe(stream.error)}",
                        "kept the members before the damage",
                    )
                    return out
                length = stream.ended_at
            else:
                length = stream.seek(0, io.SEEK_END)
        finally:
            stream.close()
        if length is not None and length < data_end:
            self.problem(
                rel,
                f"archive ends early: {length:,} bytes, its last member needs {data_end:,}",
                "kept the members before the damage",
            )
        if count == 0:
            self.problem(rel, "empty tar archive", "nothing to read")
        return out


def _spool_member(
    spool: _MemberSpool, name: str, stream: Any, ti: tarfile.TarInfo
) -> tuple[_SpooledMember | None, BaseException | None]:
    """Copy a member's bytes from the archive's stream into the spool, in bounded
    pieces: the member as a source, and the error that cut it short (re-raised by the
    caller after the member, so the archive's scan stops as it would have). (None,
    None) if the spool cannot be written: the caller reads the member by offset."""
    pos, damage, error = 0, None, None
    try:
        dst = spool.create(name)
    except OSError:
        return None, None
    try:
        with dst:
            while pos < ti.size:
                try:
                    if stream.tell() != ti.offset_data + pos:
                        stream.seek(ti.offset_data + pos)
                    chunk = stream.read(min(_OUT_CHUNK, ti.size - pos))
                except DamagedStream as e:
                    damage = f"archive is damaged after {pos:,} bytes of this member: {e.detail}"
                    error = e
                    break
                if not chunk:
                    damage = f"archive ends early after {pos:,} of this member's {ti.size:,} bytes"
                    break
                dst.write(chunk)
                pos += len(chunk)
    except OSError:
        if error is None and pos == 0:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(spool.path, name))
            return None, None
        raise
    return _SpooledMember(spool, name, pos, damage), error


def _describe(e: BaseException) -> str:
    if isinstance(e, OSError) and not isinstance(e, DamagedStream) and e.strerror:
        return e.strerror
    return str(e) or type(e).__name__


@dataclass
class _Walker:
    """Directory walk; symlinks are resolved after the real tree (see :func:`discover`)."""

    root: str  # real path of the analysed directory
    d: _Discovery
    files: dict[tuple[int, int], str] = field(default_factory=dict)  # inode -> rel read
    dirs: dict[tuple[int, int], str] = field(default_factory=dict)
    links: list[tuple[str, str, frozenset[tuple[int, int]]]] = field(default_factory=list)

    def run(self) -> None:
        st = os.stat(self.root)
        key = (st.st_dev, st.st_ino)
        self.dirs[key] = "."
        self.walk(self.root, "", frozenset([key]))
        # Links last, so that a file reached both directly and through a link is
        # read under its real name. Walking a linked directory may add links.
        while self.links:
            self.follow(*self.links.pop(0))

    def walk(self, path: str, rel: str, ancestors: frozenset[tuple[int, int]]) -> None:
        shown = rel or "."
        try:
            entries = _list_dir(path)
        except PermissionError:
            self.d.problem(shown, "permission denied (directory)")
            return
        except OSError as e:
            self.d.problem(shown, f"cannot list directory: {_describe(e)}")
            return
        if not entries:
            self.d.problem(shown, "empty directory", "nothing to read")
            return
        for name, st in entries:
            erel = _clean_rel(posixpath.join(rel, name))
            epath = os.path.join(path, name)
            if st is None:
                self.d.problem(erel, "cannot stat")
            elif stat.S_ISLNK(st.st_mode):
                self.links.append((erel, epath, ancestors))
            else:
                self.entry(erel, epath, st, ancestors, name)

    def entry(
        self,
        rel: str,
        path: str,
        st: os.stat_result,
        ancestors: frozenset[tuple[int, int]],
        name: str,
    ) -> None:
        key = (st.st_dev, st.st_ino)
        if stat.S_ISDIR(st.st_mode):
            if name in _SKIP_DIRS:
                self.d.problem(rel, _SKIP_DIRS[name])
                return
            if key in self.dirs:  # a bind mount seen twice; nothing new there
                return
            self.dirs[key] = rel
            self.walk(path, rel, ancestors | {key})
        elif stat.S_ISREG(st.st_mode):
            if st.st_ino and key in self.files:
                self.d.problem(
                    rel,
                    f"hard link to a file already read as '{self.files[key]}'",
                    "not read twice",
                )
                return
            self.files[key] = rel
            try:
                found = self.d.examine_path(rel, path, st.st_size)
            except Exception as e:  # never let one odd file stop the walk
                self.d.problem(rel, f"cannot read: {_describe(e)}")
                return
            self.d.groups.append((tuple(rel.split("/")), found))
        else:
            # Never open these: reading a FIFO blocks forever, a device may be endless.
            self.d.problem(rel, f"not a regular file ({_file_kind(st.st_mode)})")

    def follow(self, rel: str, path: str, ancestors: frozenset[tuple[int, int]]) -> None:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            self.d.problem(rel, "broken symlink (its target does not exist)")
            return
        except OSError as e:
            if e.errno == errno.ELOOP:
                self.d.problem(rel, "symlink loop (the link resolves to itself)")
            else:
                self.d.problem(rel, f"cannot follow symlink: {_describe(e)}")
            return
        real = os.path.realpath(path)
        if os.path.commonpath([self.root, real]) != self.root:
            self.d.problem(rel, "symlink to outside the analysed directory")
            return
        key = (st.st_dev, st.st_ino)
        if stat.S_ISDIR(st.st_mode):
            if key in ancestors:
                self.d.problem(
                    rel,
                    f"symlink loop: points back to its ancestor directory '{self.dirs.get(key, '.')}'",
                )
                return
            if key in self.dirs:
                self.d.problem(
                    rel,
                    f"symlink to a directory already read as '{self.dirs[key]}'",
                    "not read twice",
                )
                return
            self.dirs[key] = rel
            self.walk(path, rel, ancestors | {key})
        elif stat.S_ISREG(st.st_mode) and st.st_ino and key in self.files:
            self.d.problem(
                rel, f"symlink to a file already read as '{self.files[key]}'", "not read twice"
            )
        else:
            self.entry(rel, path, st, ancestors, posixpath.basename(rel))


def _list_dir(path: str) -> list[tuple[str, os.stat_result | None]]:
    """Sorted (name, lstat) of a directory, listed without updating its atime."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    noatime = getattr(os, "O_NOATIME", 0)
    if not noatime or os.scandir not in os.supports_fd:
        with os.scandir(path) as it:
            return sorted((e.name, _lstat(e)) for e in it)
    try:
        fd = os.open(path, flags | noatime)
    except PermissionError as e:
        if e.errno != errno.EPERM:
            raise
        fd = os.open(path, flags)  # not our directory: O_NOATIME is refused
    try:
        with os.scandir(fd) as it:
            return sorted((e.name, _lstat(e)) for e in it)
    finally:
        os.close(fd)


def _lstat(e: os.DirEntry[str]) -> os.stat_result | None:
    try:
        return e.stat(follow_symlinks=False)
    except OSError:
        return None


def _file_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "named pipe"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "special file"


def _discover_stdin(d: _Discovery) -> None:
    spool = _Spool(getattr(sys.stdin, "buffer", sys.stdin))
    if spool.size == 0:
        d.problem(STDIN_NAME, "empty file", "nothing to read")
        return
    if spool.cut:
        d.problem(
            STDIN_NAME,
            f"standard input is larger than {_SPOOL_LIMIT:,} bytes: only those were read "
            "(pass a file or a directory to read it all)",
            "truncated",
        )
    source = _SpoolSource(spool)
    raw = source()
    try:
        d.groups.append(
            ((STDIN_NAME,), d.examine(STDIN_NAME, spool.size, raw, source, in_archive=False))
        )
    finally:
        raw.close()


def discover(target: str | Path, problems: ProblemLog) -> list[InputFile]:
    """List the log files of ``target``; everything not read becomes a Problem.

    ``target``: a directory (walked recursively; entries in sorted order), a
    single file (its ``rel`` is its name), a tar archive (members are named
    ``<archive name>/<member path>`` and read in place), or ``"-"`` for standard
    input (``<stdin>``; may be compressed, or a tar stream).

    Symlinks are followed only when they resolve inside the analysed directory,
    and only after the real tree was walked, so a file reached both directly and
    through links is read once, under its real name. A directory link that points
    back to one of its ancestors is a loop: reported, never followed.

    Raises ``FileNotFoundError`` when ``target`` does not exist: that is a typo in
    the command line, not a damaged input, and must not look like an empty job.
    """
    d = _Discovery(problems)
    if str(target) == "-":
        _discover_stdin(d)
        return d.result()
    path = os.fspath(target)
    st = os.stat(path)  # raises FileNotFoundError for a missing target
    if stat.S_ISDIR(st.st_mode):
        _Walker(os.path.realpath(path), d).run()
    elif stat.S_ISREG(st.st_mode):
        rel = _clean_rel(os.path.basename(os.path.abspath(path)))
        d.groups.append(((rel,), d.examine_path(rel, path, st.st_size)))
    else:
        d.problem(
            _clean_rel(os.path.basename(path)), f"not a regular file ({_file_kind(st.st_mode)})"
        )
    return d.result()
