"""Paste damage: what happens to a log on its way into a ticket, as pure functions.

Real logs reach us pasted into issues and chats: hard-wrapped by a terminal,
with the traceback header scrolled off, cut short mid-frame, chained to another
exception, with the launcher prefixes stripped, added or of another launcher,
and with tqdm progress fragments glued in front of a line. Each function below
takes the text of one log file and returns it damaged one way; each is
deterministic (given ``seed`` where it takes one) and leaves ``\\n`` line ends.

Used by ``tests/test_paste_damage.py``; tested themselves there too.
"""

from __future__ import annotations

import random
import re

# Launcher prefixes a line may carry (outermost first), as ``correlator.ingest.demux``
# knows them; the group is the rank-like number.
PREFIX_RE = re.compile(
    r"^(?:"
    r"\[rank(?P<rank>\d+)\]: ?"
    r"|\[\d+,(?P<mpi>\d+)\]<(?:stdout|stderr)>:"
    r"|\[default(?P<default>\d+)\]:"
    r"|(?P<task>\d+): "
    r")"
)
PREFIX_KINDS = ("mpirun", "default", "rank", "srun")
TRACEBACK = "Traceback (most recent call last):"
CHAIN_MARKER = "During handling of the above exception, another exception occurred:"
# tqdm bars as they are left on a line when the next output comes without a newline
PROGRESS_FRAGMENTS = (
    " 45%|████▌     | 9/20 [00:03<00:04,  2.5it/s]",
    "100%|██████████| 20/20 [00:08<00:00,  2.41it/s]",
    "Epoch 1:  12%|█▏        | 3/25 [00:01<00:09,  2.30it/s, loss=0.693]",
    "  3%|▎         | 1/32 [00:04<02:04,  4.01s/it]",
)


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` (no empty last line for a final newline)."""
    return _lines(text)[0]


def _lines(text: str) -> tuple[list[str], bool]:
    """The lines of ``text`` and whether it ended with a newline."""
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), text.endswith("\n")


def _join(lines: list[str], newline_at_end: bool) -> str:
    return "\n".join(lines) + ("\n" if newline_at_end and lines else "")


# kubectl logs --timestamps: a stamp before everything, kept when prefixes change
KUBECTL_TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ")


def _split_stamp(line: str) -> tuple[str, str]:
    m = KUBECTL_TS.match(line)
    return (m.group(0), line[m.end():]) if m else ("", line)


def split_prefix(line: str) -> tuple[str, str]:
    """(launcher prefixes, rest) of one line; several stacked prefixes are all taken
    (a kubectl stamp before them is part of the prefix)."""
    stamp, line = _split_stamp(line)
    prefix = ""
    while m := PREFIX_RE.match(line[len(prefix):]):
        if not m.group(0):
            break
        prefix += m.group(0)
    return stamp + prefix, line[len(prefix):]




def _prefix_rank(prefix: str) -> int | None:
    m = PREFIX_RE.match(prefix)
    if not m:
        return None
    for g in ("rank", "mpi", "default", "task"):
        if m.group(g) is not None:
            return int(m.group(g))
    return None


def make_prefix(kind: str, rank: int) -> str:
    """The prefix launcher ``kind`` (one of ``PREFIX_KINDS``) puts before rank ``rank``'s lines."""
    if kind == "mpirun":
        return f"[1,{rank}]<stderr>:"
    if kind == "default":
        return f"[default{rank}]:"
    if kind == "rank":  # torch's excepthook: "[rank3]: Traceback ..."
        return f"[rank{rank}]: "
    if kind == "srun":
        return f"{rank}: "
    raise ValueError(f"unknown prefix kind {kind!r}")


def wrap(text: str, width: int) -> str:
    """Hard-wrap every line at ``width`` columns, as a terminal does when the text is
    copied from it: the cut falls anywhere, inside a word or after a space."""
    if width < 1:
        raise ValueError("width must be positive")
    lines, nl = _lines(text)
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        out.extend(line[i:i + width] for i in range(0, len(line), width))
    return _join(out, nl)


def cut_header(text: str, seed: int | None = None) -> str:
    """Drop ``Traceback (most recent call last):`` lines (the paste began below them):
    all of them, or with ``seed`` one picked at random."""
    lines, nl = _lines(text)
    at = [i for i, line in enumerate(lines) if split_prefix(line)[1].lstrip().startswith(TRACEBACK)]
    if seed is not None and at:
        at = [random.Random(seed).choice(at)]
    drop = set(at)
    return _join([line for i, line in enumerate(lines) if i not in drop], nl)


def cut_last(text: str, k: int) -> str:
    """Drop the last ``k`` lines (the paste stops mid-traceback)."""
    if k < 0:
        raise ValueError("k must be >= 0")
    lines, nl = _lines(text)
    return _join(lines[: max(len(lines) - k, 0)], nl if k == 0 else False)


def chain(text: str, seed: int = 0) -> str:
    """Make the first traceback the second of a chain: another exception is raised
    and printed before it, followed by ``During handling of the above exception,
    another exception occurred:``, each line with the traceback's own prefix."""
    lines, nl = _lines(text)
    at = next((i for i, line in enumerate(lines) if split_prefix(line)[1].lstrip().startswith(TRACEBACK)), None)
    if at is None:
        return text
    prefix, rest = split_prefix(lines[at])
    indent = rest[: len(rest) - len(rest.lstrip())]
    rng = random.Random(seed)
    first = rng.choice((
        ["  File \"/opt/app/cache.py\", line 41, in load", "    os.makedirs(path)",
         "FileExistsError: [Errno 17] File exists: '/x'"],
        ["  File \"/opt/app/data.py\", line 88, in __getitem__", "    return self.items[key]",
         "KeyError: 'sample_17'"],
    ))
    block = [TRACEBACK, *first, "", CHAIN_MARKER, ""]
    return _join(lines[:at] + [prefix + indent + b if b else prefix.rstrip() for b in block] + lines[at:], nl)


def strip_prefixes(text: str) -> str:
    """Remove the launcher prefixes (``[rankN]:``, ``[defaultN]:``, mpirun's
    ``[1,N]<stderr>:``, ``N: ``) from every line (a kubectl stamp stays)."""
    lines, nl = _lines(text)
    out = []
    for line in lines:
        prefix, rest = split_prefix(line)
        out.append(_split_stamp(prefix)[0] + rest)
    return _join(out, nl)


def insert_prefixes(text: str, kind: str, rank: int | None = 0) -> str:
    """Put launcher ``kind``'s prefix before every line: a line that has a
    prefix gets ``kind``'s instead, for the same rank; the others get ``rank``'s
    (with ``rank`` None they stay as they are: a launcher's own lines)."""
    lines, nl = _lines(text)
    out = []
    for line in lines:
        prefix, rest = split_prefix(line)
        stamp, launcher = _split_stamp(prefix)
        r = _prefix_rank(launcher)
        r = rank if r is None else r
        out.append(line if r is None else stamp + make_prefix(kind, r) + rest)
    return _join(out, nl)


# Lines that begin an output record: a traceback's header, a logging line (a stamp
# or a level word first). Only these get a bar glued in front: a bar left behind
# by tqdm is followed by whatever the process writes next, which is a new record.
RECORD_START = re.compile(
    r"^(?:Traceback \(most recent call last\):|\[?[IWEF]\d{4} \d\d:|\[?\d{4}-\d\d-\d\d[T ]|\d\d/\d\d/\d{4} "
    r"|\[?\d{4}/\d\d/\d\d |(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):)"
)


def glue_progress(text: str, seed: int = 0, share: float = 0.3) -> str:
    """Glue a tqdm fragment in front of lines that begin a record (``RECORD_START``):
    every ``Traceback`` header and a ``share`` of the others, after the line's prefix."""
    rng = random.Random(seed)
    lines, nl = _lines(text)
    out = []
    for line in lines:
        prefix, rest = split_prefix(line)
        header = rest.startswith(TRACEBACK)
        if header or (RECORD_START.match(rest) and rng.random() < share):
            out.append(prefix + rng.choice(PROGRESS_FRAGMENTS) + rest)
        else:
            out.append(line)
    return _join(out, nl)


DAMAGES = ("wrap80", "wrap120", "wrap160", "cut_header", "cut_last", "chain", "strip_prefixes",
           "insert_mpirun", "insert_default", "insert_rank", "insert_srun", "glue_progress")


def damage(name: str, text: str, seed: int = 0, rank: int | None = 0) -> str:
    """``text`` damaged by one of ``DAMAGES``."""
    if name.startswith("wrap"):
        return wrap(text, int(name[4:]))
    if name == "cut_header":
        return cut_header(text)
    if name == "cut_last":
        return cut_last(text, 1 + seed % 3)
    if name == "chain":
        return chain(text, seed)
    if name == "strip_prefixes":
        return strip_prefixes(text)
    if name.startswith("insert_"):
        return insert_prefixes(text, name.removeprefix("insert_"), rank)
    if name == "glue_progress":
        return glue_progress(text, seed)
    raise ValueError(f"unknown damage {name!r}")
