"""Following a job's log files as they grow: only the bytes appended since the last poll.

A poll ``stat``s every followed file and reads what each gained; a directory walk
every ``rescan_s`` (default 2 s) finds new files. What wakes the next poll, a timer or
the filesystem's change notifications, is ``wake``'s business, not this module's:
reading is one code path whatever woke it (a notifier that saw files come or go
only asks for the walk sooner, ``rescan_soon``). Polling is the one mechanism that
works on the shared filesystems jobs log to (NFS, Lustre, GPFS, a FUSE mount of
object storage), where inotify/FSEvents do not see writes made on other machines.
A poll reads and parses only what was appended; choose a longer ``--poll`` on a
metadata-bound filesystem with thousands of rank files; a shorter one buys
nothing, as a silence is judged in tens of seconds.

What it copes with, per file (a file's state is keyed by its inode, so a rename
keeps it):

* a file that appears late (a new rank, torchrun's next ``attempt_N/``): read from
  its start at the next rescan;
* a partial last line: held until its newline comes (or the job ends);
* truncation in place (``copytruncate``): read again from the start;
* rotation by rename: the renamed file is read to its end under its new name, and
  the new file under the old name from its start;
* a file deleted while followed: its open descriptor is read to the end, then closed;
* standard input: spooled to a temporary file by ``StdinSpool`` and followed as
  ``<stdin>``.

Which files are followed is decided by discovery's own rules
(``correlator.ingest.discover.not_followed``, ``--exclude``, ``.correlatorignore``):
compressed and archived files are finished files, read whole by the final analysis.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from correlator.ingest.discover import SNIFF_BYTES, STDIN_NAME, not_followed
from correlator.ingest.pipeline import ignore_rule
from correlator.ingest.read import AppendedLines
from correlator.timeline.problems import ProblemLog

# The most read from one file in one poll: a big file found at start is caught up
# over several polls, so a poll (and the live status) never stalls on it.
READ_PER_POLL = 8 << 20


@dataclass
class _File:
    rel: str
    path: str
    key: tuple[int, int]  # (device, inode)
    fd: int
    lines: AppendedLines
    offset: int = 0
    partial: bytes = b""
    head_checked: bool = False
    grew_at: float = 0.0


@dataclass
class Poll:
    """What one poll found: each file's new complete lines (first line number, lines),
    files whose line numbers started again (truncated, replaced), and notes for the user."""

    lines: dict[str, tuple[int, pl.Series]] = field(default_factory=dict)
    restarted: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    bytes: int = 0


class Follower:
    """The files of ``target`` (a directory or a file), followed by polling."""

    def __init__(
        self, target: str, *, exclude: tuple[str, ...] = (), rel: str | None = None,
        max_line_bytes: int = 1 << 20, rescan_s: float = 2.0,
    ) -> None:
        self.target = target
        self.is_dir = os.path.isdir(target)
        self._single_rel = rel or os.path.basename(os.path.abspath(target))
        self._ignored: Callable[[str], str | None] = (
            ignore_rule(target, exclude) if self.is_dir else (lambda rel: None))
        self.max_line_bytes = max_line_bytes
        self.rescan_s = rescan_s
        self.problems = ProblemLog(echo=False)
        self._files: dict[tuple[int, int], _File] = {}
        self._skipped: set[str] = set()  # rel paths not followed (said once)
        self._scanned_at: float | None = None
        self._rescan_due = False
        self.last_growth: float | None = None

    # ------------------------------------------------------------------ listing

    def _paths(self) -> dict[str, str]:
        """rel -> path of every regular file now under the target."""
        if not self.is_dir:
            return {self._single_rel: self.target} if os.path.isfile(self.target) else {}
        out: dict[str, str] = {}
        root = self.target
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                if os.path.isfile(path):
                    out[rel] = path
        return out

    def _rescan(self, now: float, poll: Poll) -> None:
        listing: dict[tuple[int, int], tuple[str, str]] = {}
        for rel, path in self._paths().items():
            if rel in self._skipped:
                continue
            if self._ignored(rel) is not None:  # the user's choice: as ingest, said nowhere
                self._skipped.add(rel)
                continue
            why = not_followed(rel, b"")
            if why is not None:
                self._skipped.add(rel)
                poll.notes.append(f"{rel}: not followed ({why})")
                continue
            try:
                st = os.stat(path)
            except OSError:
                continue
            listing.setdefault((st.st_dev, st.st_ino), (rel, path))
        for key, (rel, path) in listing.items():  # renamed (rotated): it keeps its state
            f = self._files.get(key)
            if f is not None and f.rel != rel:
                poll.notes.append(f"{f.rel}: renamed to {rel}; read on under that name")
                poll.restarted.append(f.rel)
                f.rel, f.path = rel, path
        for f in list(self._files.values()):
            if f.key not in listing:  # deleted: what the descriptor still holds is read
                self._drain(f, poll, now)
                poll.notes.append(f"{f.rel}: deleted; read to its end")
                self._close(f)
        for key, (rel, path) in listing.items():
            if key in self._files:
                continue
            try:
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            except OSError as exc:
                self._skipped.add(rel)
                poll.notes.append(f"{rel}: cannot open ({exc.strerror})")
                continue
            self._files[key] = _File(rel, path, key, fd, AppendedLines(rel, self.problems, self.max_line_bytes),
                                     grew_at=now)
            if self._scanned_at is not None:
                poll.notes.append(f"{rel}: new file, followed")
                poll.restarted.append(rel)
        self._scanned_at = now
        self._rescan_due = False

    def rescan_soon(self) -> None:
        """Walk the tree at the next poll (a notifier saw files or folders come or go)."""
        self._rescan_due = True

    # ------------------------------------------------------------------ reading

    def poll(self, now: float) -> Poll:
        """Read what every followed file gained since the last poll."""
        poll = Poll()
        if self._scanned_at is None or self._rescan_due or now - self._scanned_at >= self.rescan_s:
            self._rescan(now, poll)
        sizes: dict[tuple[int, int], int] = {}
        moved = False
        for f in self._files.values():
            try:
                st = os.stat(f.path)
            except OSError:
                moved = True
                continue
            if (st.st_dev, st.st_ino) != f.key:
                moved = True
            else:
                sizes[f.key] = st.st_size
        if moved:  # deleted, rotated or replaced: a rescan says which
            self._rescan(now, poll)
        for f in list(self._files.values()):
            size = sizes.get(f.key)
            if size is None:
                continue
            if size < f.offset:  # truncated in place
                poll.notes.append(f"{f.rel}: truncated; read again from its start")
                poll.restarted.append(f.rel)
                f.offset, f.partial = 0, b""
                f.lines = AppendedLines(f.rel, self.problems, self.max_line_bytes)
            if size > f.offset:
                self._read(f, poll, now, size)
        return poll

    def _drain(self, f: _File, poll: Poll, now: float = 0.0) -> None:
        self._read(f, poll, now, None)

    def _read(self, f: _File, poll: Poll, now: float, size: int | None) -> None:
        want = READ_PER_POLL if size is None else min(READ_PER_POLL, size - f.offset)
        try:
            data = os.pread(f.fd, want, f.offset)
        except OSError as exc:
            poll.notes.append(f"{f.rel}: read error ({exc.strerror})")
            return
        if not data:
            return
        f.offset += len(data)
        f.grew_at = now
        self.last_growth = now
        poll.bytes += len(data)
        if not f.head_checked:
            head = data[:SNIFF_BYTES]
            if len(head) < SNIFF_BYTES and size is not None and b"\n" not in head:
                f.offset -= len(data)  # too little to judge yet: wait for more
                return
            f.head_checked = True
            why = not_followed(f.rel, head)
            if why is not None:
                poll.notes.append(f"{f.rel}: not followed ({why})")
                self._skipped.add(f.rel)
                self._close(f)
                return
        buf = f.partial + data if f.partial else data
        end = buf.rfind(b"\n") + 1
        if end == 0 and len(buf) > self.max_line_bytes:  # a line past the limit: cut, not held
            end = len(buf)
        f.partial = buf[end:]
        if end:
            self._emit(f, poll, buf[:end])

    def _emit(self, f: _File, poll: Poll, data: bytes) -> None:
        first, lines = f.lines.lines(data)
        if f.rel in poll.lines:
            first0, earlier = poll.lines[f.rel]
            poll.lines[f.rel] = (first0, pl.concat([earlier, lines], rechunk=True))
        else:
            poll.lines[f.rel] = (first, lines)

    def flush_partials(self) -> Poll:
        """The partial last lines, as lines (the job ended: no newline will come)."""
        poll = Poll()
        for f in self._files.values():
            if f.partial:
                data, f.partial = f.partial, b""
                self._emit(f, poll, data)
        return poll

    def quiet_since(self, rel: str) -> float | None:
        for f in self._files.values():
            if f.rel == rel:
                return f.grew_at
        return None

    @property
    def followed(self) -> list[str]:
        return sorted(f.rel for f in self._files.values())

    def _close(self, f: _File) -> None:
        self._files.pop(f.key, None)
        with contextlib.suppress(OSError):
            os.close(f.fd)

    def close(self) -> None:
        for f in list(self._files.values()):
            self._close(f)


class StdinSpool:
    """Standard input copied, as it comes, into a temporary file that is followed
    (and analysed at the end) like any log; ``ended`` once the input closed."""

    def __init__(self, src: object | None = None) -> None:
        self.dir = tempfile.mkdtemp(prefix="correlator-watch-")
        self.path = str(Path(self.dir) / "stdin.log")
        self._src = src if src is not None else getattr(sys.stdin, "buffer", sys.stdin)
        self._out = open(self.path, "wb", buffering=0)  # noqa: SIM115 (closed by the thread)
        self.ended = threading.Event()
        self._thread = threading.Thread(target=self._copy, name="stdin-spool", daemon=True)
        self._thread.start()

    def _copy(self) -> None:
        try:
            read = getattr(self._src, "read1", None) or self._src.read  # type: ignore[attr-defined]
            while chunk := read(1 << 16):
                self._out.write(chunk)
        except (OSError, ValueError):
            pass
        finally:
            self._out.close()
            self.ended.set()

    def follower(self, **kwargs: object) -> Follower:
        return Follower(self.path, rel=STDIN_NAME, **kwargs)  # type: ignore[arg-type]

    def remove(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
