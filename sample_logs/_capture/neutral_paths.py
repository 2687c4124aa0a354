#!/usr/bin/env python3
"""Rewrite the capture machine's absolute paths in the sample corpus to a neutral prefix.

The scenarios were run on one machine whose checkout, venv and scratch directory
leaked into tracebacks, launcher messages and Flight Recorder frames. This script
replaces those prefixes, the same way in every file, so the corpus names no machine.
The prefixes are this machine's, found when the script runs (so none is written here):

    <this checkout>/       -> /home/user/job/      (the repository: train.py ...)
    $PYENV (the venv       -> /home/user/venv      (site-packages/torch/...; capture.sh's
     capture.sh ran)                                variable; skipped when unset)
    /tmp/correlator-jobs   -> /home/user/jobs      (the capture scripts' old scratch default)
    /root/.pyenv/          -> /home/user/.pyenv/   (the interpreter the venv was built on)
    /root/.cache/          -> /home/user/.cache/   (torch extension build cache)

The ``/root/`` rules are not applied under ``sample_logs/public/``, ``heldout3/`` to
``heldout17/``, ``heldout19/``, ``heldout21/``, ``heldout22/``, ``heldout25/``, ``heldout27/`` to ``heldout32/``, ``heldout34/`` (``PASTED_FOLDERS``): those files are
verbatim pastes from public issue threads, and their ``/root/...`` paths are the
reporters' machines, not ours (their READMEs give the thread each line came from).

What is rewritten, everywhere under ``sample_logs/`` (this file excepted):

* text files (no NUL byte, not a pickle): a plain byte-string replacement; line structure is kept
  (no prefix contains a newline), only byte lengths change;
* ``*.gz``: decompressed, rewritten as text, recompressed (mtime 0, no file name,
  like ``gzip -n``);
* pickles (Flight Recorder dumps ``fr_dump/rank_N``): loaded with an unpickler that
  accepts only builtin containers and scalars, every ``str`` (keys included)
  rewritten, dumped again with the protocol found in the file, and reloaded to check.

Idempotent: no replacement contains a prefix it replaces. Run from anywhere:

    python sample_logs/_capture/neutral_paths.py [--check]

``--check`` changes nothing and exits 1 if any file still needs rewriting.
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import pickle
import sys
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]  # sample_logs/
SELF = Path(__file__).resolve()

CHECKOUT = str(ROOT.parent)  # where the captures ran: the repository's own checkout


def capture_map(checkout: str = CHECKOUT, venv: str | None = None) -> list[tuple[str, str]]:
    """This machine's prefixes and their neutral forms; the slash forms before the bare ones."""
    venv = os.environ.get("PYENV") if venv is None else venv
    pairs = [(checkout.rstrip("/") + "/", "/home/user/job/")]
    if venv and venv.rstrip("/") != "/home/user/venv":
        pairs += [(venv.rstrip("/") + "/", "/home/user/venv/"), (venv.rstrip("/"), "/home/user/venv")]
    return pairs + [("/tmp/correlator-jobs/", "/home/user/jobs/"), ("/tmp/correlator-jobs", "/home/user/jobs")]


CAPTURE_MAP = capture_map()
# Folders of verbatim pastes from public threads: their /root/ paths are the reporters' machines.
PASTED_FOLDERS = ("public", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9",
                  "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16",
                  "heldout17", "heldout19", "heldout21",
                  "heldout22", "heldout25", "heldout27", "heldout28",
                  "heldout29", "heldout30", "heldout31",
                  "heldout32", "heldout34")
HOME_MAP: list[tuple[str, str]] = [
    ("/root/.pyenv/", "/home/user/.pyenv/"),
    ("/root/.cache/", "/home/user/.cache/"),
]


def mapping_for(path: Path) -> list[tuple[str, str]]:
    for pasted in PASTED_FOLDERS:
        folder = ROOT / pasted
        if folder == path or folder in path.parents:
            return CAPTURE_MAP
    return CAPTURE_MAP + HOME_MAP


def rewrite_str(s: str, mapping: list[tuple[str, str]]) -> str:
    for old, new in mapping:
        s = s.replace(old, new)
    return s


def rewrite_bytes(b: bytes, mapping: list[tuple[str, str]]) -> bytes:
    for old, new in mapping:
        b = b.replace(old.encode(), new.encode())
    return b


class _PlainUnpickler(pickle.Unpickler):
    """Refuses every global: a Flight Recorder dump is dicts, lists, str, numbers."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing global {module}.{name}")


def _walk(obj: Any, mapping: list[tuple[str, str]], memo: dict[int, Any] | None = None) -> Any:
    """``obj`` with every str rewritten; an object shared in the input (same id) stays
    shared in the output, so the re-dumped pickle keeps the original's memo references."""
    memo = {} if memo is None else memo
    if id(obj) in memo:
        return memo[id(obj)]
    if isinstance(obj, str):
        out: Any = rewrite_str(obj, mapping)
    elif isinstance(obj, dict):
        out = {_walk(k, mapping, memo): _walk(v, mapping, memo) for k, v in obj.items()}
    elif isinstance(obj, list):
        out = [_walk(v, mapping, memo) for v in obj]
    elif isinstance(obj, tuple):
        out = tuple(_walk(v, mapping, memo) for v in obj)
    else:
        return obj
    memo[id(obj)] = out
    return out


def _as_pickle(data: bytes) -> tuple[Any, int] | None:
    if len(data) < 2 or data[0] != 0x80 or not data.rstrip().endswith(b"."):
        return None
    try:
        return _PlainUnpickler(io.BytesIO(data)).load(), data[1]
    except Exception:
        return None


def _gzip(data: bytes) -> bytes:
    # like `gzip -n`: no name, mtime 0; zlib writes the gzip wrapper (wbits 31)
    c = zlib.compressobj(6, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()


def new_content(path: Path) -> bytes | None:
    """The rewritten bytes of ``path``, or None when nothing changes."""
    mapping = mapping_for(path)
    data = path.read_bytes()
    if path.suffix == ".gz":
        text = gzip.decompress(data)
        out = rewrite_bytes(text, mapping)
        return None if out == text else _gzip(out)
    loaded = _as_pickle(data)  # before the text test: a pickle's strings are length-prefixed
    if loaded is None:
        if b"\0" in data:
            return None  # some other binary: nothing we know how to rewrite
        out = rewrite_bytes(data, mapping)
        return None if out == data else out
    obj, protocol = loaded
    new = _walk(obj, mapping)
    if new == obj:
        return None
    out = pickle.dumps(new, protocol=protocol)
    if _PlainUnpickler(io.BytesIO(out)).load() != new:
        raise RuntimeError(f"{path}: rewritten pickle does not load back equal")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="report files still needing a rewrite; change nothing")
    ap.add_argument("root", nargs="?", type=Path, default=ROOT)
    args = ap.parse_args(argv)
    changed = 0
    for path in sorted(p for p in args.root.resolve().rglob("*") if p.is_file()):
        if path == SELF or "__pycache__" in path.parts or ".git" in path.parts:
            continue
        out = new_content(path)
        if out is None:
            continue
        changed += 1
        print(("needs rewrite: " if args.check else "rewrote: ") + str(path.relative_to(ROOT.parent)))
        if not args.check:
            path.write_bytes(out)
    print(f"{changed} file(s) {'to rewrite' if args.check else 'rewritten'}", file=sys.stderr)
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
