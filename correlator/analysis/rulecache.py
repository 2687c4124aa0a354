"""The validated rulebook, cached on disk between runs.

Loading the rules from YAML costs a small job's analyze ~0.2 s, more than all of
its SQL: 220 files parsed, and every rule's regex and SQL condition checked by
DuckDB (``rulebook.Match``). The result depends on nothing but those files and
the code that validates them, so it is kept, pickled, under the user's cache
directory and read back in a few milliseconds.

Where: ``$CORRELATOR_CACHE_DIR`` if set (empty, ``0`` or ``off``: no cache at
all), else ``$XDG_CACHE_HOME/correlator``, else ``~/.cache/correlator``.

The key is a hash of everything the result depends on: the package version, the
Python and pydantic versions (a pickle of a pydantic model is theirs), the source
of the modules that define and validate what is cached, and each input file's
path and bytes. An edited rule file, a new one, or a changed schema is another
key, so a stale entry is never read; an entry that cannot be read (torn, from
another version, not ours) is ignored and rebuilt. Entries are written under a
unique temporary name and renamed into place, so a reader sees a whole file or
none; the last ``KEEP`` entries stay, older ones are deleted.

A pickle runs code when loaded: only a file owned by this user and writable by
no one else is read (the same trust as the user's own ``~/.cache``).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from correlator import __version__

ENV = "CORRELATOR_CACHE_DIR"
KEEP = 16  # entries: the built-in rules plus a few --rules combinations
_OFF = {"", "0", "off", "no", "none", "false"}

T = TypeVar("T")


def cache_dir() -> Path | None:
    """The cache directory, or None when caching is off."""
    value = os.environ.get(ENV)
    if value is not None:
        return None if value.strip().lower() in _OFF else Path(value)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "correlator"


def cached(kind: str, inputs: Iterable[Path], code: Iterable[str], build: Callable[[], T]) -> T:
    """``build()``, or its result from an earlier run with the same inputs.

    ``inputs``: the files ``build`` reads; ``code``: the modules (their ``__file__``)
    whose source decides what it makes of them. ``build`` raising is not cached.
    """
    where = cache_dir()
    if where is None:
        return build()
    try:
        key = _key(kind, inputs, code)
    except OSError:  # an input vanished or is unreadable: let build() say so
        return build()
    path = where / f"{kind}-{key}.pickle"
    found = _read(path, key)
    if found is not None:
        return found[0]
    value = build()
    _write(path, key, value)
    return value


def _key(kind: str, inputs: Iterable[Path], code: Iterable[str]) -> str:
    import pydantic

    h = hashlib.sha256()
    for part in (kind, __version__, sys.version, pydantic.VERSION):
        h.update(part.encode() + b"\0")
    for module_file in code:
        h.update(Path(module_file).read_bytes() + b"\0")
    for f in inputs:
        data = f.read_bytes()
        h.update(f"{f}\0{len(data)}\0".encode())  # the path too: results name their files
        h.update(data)
    return h.hexdigest()[:40]


def _read(path: Path, key: str) -> tuple | None:
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o022):
                return None  # not ours alone: never unpickled
            stored_key, value = pickle.load(fh)
    except Exception:  # absent, torn, or pickled by other code: rebuild
        return None
    return (value,) if stored_key == key else None


def _write(path: Path, key: str, value: object) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump((key, value), fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _prune(path.parent, path.name.partition("-")[0])
    except (OSError, pickle.PicklingError):
        pass  # a read-only or full cache only costs the next run the rebuild


def _prune(where: Path, kind: str) -> None:
    entries = sorted(where.glob(f"{kind}-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[KEEP:]:
        old.unlink(missing_ok=True)
