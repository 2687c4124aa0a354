"""Every file a command writes appears whole or not at all, and never over an input.

An output is written under a unique temporary name in its destination's directory
(``tempfile.mkstemp``: never a fixed ``<out>.tmp`` that two runs would share, and
never through a link planted under that name) and renamed over the destination
only once it is complete. An exception, Ctrl-C or a ``kill`` (SIGTERM, see
``exit_on_sigterm``) leaves the previous file, or none, and no temporary file
behind; only SIGKILL can leave one, named ``.<name>.*.part``. Two writers at
once: the last rename wins, whole.

``refuse_overwriting_inputs`` is the other half of the promise: a command checks
its output paths against what it reads before it starts.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path


class OutputRefused(Exception):
    """An output path that would overwrite an input, or that cannot be written."""


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def atomic_path(dest: str | os.PathLike[str], *, fresh: bool = False) -> Iterator[Path]:
    """A temporary path beside ``dest``; renamed to ``dest`` when the block succeeds.

    The path is a new empty file (``mkstemp``), or with ``fresh`` a name where
    nothing exists yet, inside a new private directory (for writers that refuse an
    existing file, like DuckDB; their side files, a ``.wal``, go with the directory).
    The result gets the usual permissions (0666 less the umask), not mkstemp's 0600.
    """
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    holder = None
    if fresh:
        holder = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent))
        tmp = holder / dest.name
    else:
        fd, name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
        os.close(fd)
        tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, _umask_mode())
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)  # gone already when renamed
        if holder is not None:
            shutil.rmtree(holder, ignore_errors=True)


@contextmanager
def atomic_dir(dest: str | os.PathLike[str], *, replaceable: Callable[[Path], bool]) -> Iterator[Path]:
    """A new private directory beside ``dest``; put in ``dest``'s place when the block
    succeeds. An existing ``dest`` is replaced only when ``replaceable(dest)`` (an
    earlier output of the same kind, or empty): else ``OutputRefused``, before the block.

    The swap is two renames (the old directory aside, the new one in), so a reader in
    between finds no ``dest`` for an instant, never a half-written one."""
    dest = Path(dest)
    if dest.exists() and not (dest.is_dir() and (not any(dest.iterdir()) or replaceable(dest))):
        raise OutputRefused(f"refusing to replace {dest}: it exists and is not an earlier output of this kind")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent))
    old: Path | None = None
    try:
        yield tmp
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o777 & ~mask)  # not mkdtemp's 0700
        if dest.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".old", dir=dest.parent))
            os.replace(dest, old / "gone")
        os.replace(tmp, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)  # gone already when renamed
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def atomic_write_text(dest: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``dest`` atomically."""
    with atomic_path(dest) as tmp:
        tmp.write_text(text, encoding="utf-8")


def atomic_write_bytes(dest: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``dest`` atomically."""
    with atomic_path(dest) as tmp:
        tmp.write_bytes(data)


def exit_on_sigterm() -> None:
    """Turn SIGTERM (``kill``, a scheduler's cancel) into ``SystemExit``, so the
    temporary file of a write in progress is removed as on Ctrl-C."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))


# --------------------------------------------------------------------------- inputs are never written


def _real(p: str | os.PathLike[str]) -> Path:
    return Path(os.path.realpath(os.path.expanduser(p)))


def refuse_overwriting_inputs(outputs: Iterable[str | os.PathLike[str] | None],
                              inputs: Iterable[str | os.PathLike[str] | None]) -> None:
    """Raise ``OutputRefused`` when an output would be written over an input.

    ``inputs`` are what the command reads: log files, directories of logs,
    archives, timelines, rule files (``-`` and ``None`` are skipped). An output is
    refused when it is one of them (links followed), or when it lies inside an
    input directory over a file that is already there: that file is one of the
    job's logs, or could be. A new name inside the analysed directory is allowed,
    since the user named it.
    """
    ins = [_real(i) for i in inputs if i is not None and str(i) != "-"]
    for out in outputs:
        if out is None or str(out) == "-":
            continue
        o = _real(out)
        for i in ins:
            if o == i:
                raise OutputRefused(f"refusing to write {out}: it is an input ({i}); write the output elsewhere")
            if i.is_dir() and o.is_relative_to(i) and (o.exists() or o.is_symlink()):
                raise OutputRefused(
                    f"refusing to write {out}: it would overwrite a file inside the analysed directory {i}; "
                    "write the output elsewhere")


def check_writable_dir(out: str | os.PathLike[str], *, is_dir: bool = False) -> None:
    """Raise ``OutputRefused`` unless ``out`` can be created: its directory exists
    and is writable (for an output directory, ``is_dir``: its parent, when it is
    not there yet). Checked before the work, not after an hour of it."""
    p = Path(out)
    if is_dir and p.is_dir():
        where = p
    else:
        if p.is_dir():
            raise OutputRefused(f"cannot write {out}: it is a directory")
        where = p.parent if str(p.parent) else Path(".")
    if not where.is_dir():
        raise OutputRefused(f"cannot write {out}: directory {where} does not exist")
    if not os.access(where, os.W_OK | os.X_OK):
        raise OutputRefused(f"cannot write {out}: directory {where} is not writable")
