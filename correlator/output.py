"""Every file a command writes appears whole or not at all.

An output is written under a unique temporary name in its destination's directory
(``tempfile.mkstemp``: never a fixed ``<out>.tmp`` that two runs would share, and
never through a link planted under that name) and renamed over the destination
only once it is complete. A kill or a full disk leaves the previous file, or none,
and no temporary file behind.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(dest: str | os.PathLike[str]) -> Iterator[Path]:
    """A fresh temporary path beside ``dest``; renamed to ``dest`` when the block succeeds."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, dest)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(dest: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``dest`` atomically."""
    with atomic_path(dest) as tmp:
        tmp.write_text(text, encoding="utf-8")
