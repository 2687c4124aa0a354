"""A benchmark job whose lines are the real captures' lines, in their proportions.

    python bench/realmix.py OUT [--size 1GB] [--ranks 64] [--nodes 8] [--layout mixed] [--seed 0]

The synthetic job (``correlator.synth``) is a line mix the project tuned ingest on;
this one is resampled from ``sample_logs/``: the jobs captured from real runs and the
pasted public threads (``public/``, ``heldout*/``), not the scenarios the corpus README
marks *assembled*, nor READMEs, truths or capture scripts.

How a job is made (deterministic by seed):

- Every source file is read as text and its launcher prefixes (``[defaultN]:``,
  ``N: ``, ``[rankN]:``) are taken off, so a line can be given to any rank; a line that
  had a ``[rankN]:`` prefix gets one again, naming the rank it now belongs to.
- Each rank's stream is a concatenation of **runs** of consecutive lines (20-400) cut
  from the source files, each run starting at a line drawn uniformly over the whole
  corpus (a run may start before a file's head and is cut there, so heads are as
  likely as the middles): tracebacks,
  NCCL start-up chatter, progress bars and the stamped / unstamped lines around them
  stay together as they were printed, and the job's byte shares of each kind of line
  converge on the corpus's (``manifest.json`` records both).
- Time stamps in the common layouts (ISO / Python logging ``asctime``, HF's
  ``MM/DD/YYYY HH:MM:SS``, glog ``I1130 04:33:01.716000``) are written again on one
  job clock, so a rank's stamps go forward; other stamps are left as printed.
- NCCL's ``host:pid:tid [dev]`` heads are renamed to the rank's node host name, pid
  and local rank, so the job is one coherent 64-rank job the way ingest must learn it.

Layouts (``--layout``): ``flat`` (``rank{R}.log`` in one folder), ``per-node``
(``node-{N}/rank{R}.log``), ``logdir`` (torchrun ``--log-dir`` trees
``node-{N}/logs/none_x/attempt_0/{L}/stdout.log`` and ``stderr.log``), ``console``
(``node-{N}/console.log`` with ``[default{L}]:`` prefixes, ranks interleaved by
runs), ``srun`` (one ``slurm-4242.out`` with ``{R}: `` prefixes), and ``mixed`` (the
bench's default: the nodes split between flat, per-node, logdir, console and srun,
as the corpus's jobs are).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
SAMPLES = REPO / "sample_logs"

# Scenarios the corpus README marks as assembled (not captured, not a public paste).
ASSEMBLED = {
    "gzip-data-error-per-rank",
    "oom-cascade-nccl-timeouts",
    "nccl-ib-error-one-node",
    "xid79-fallen-off-bus",
    "ecc-xid48-double-bit",
    "version-skew-collect-env",
    "slurm-time-limit",
    "kubectl-pods-skewed-clocks",
    "zero3-offload-host-oom",
}
_SKIP_NAMES = re.compile(r"^(README.*\.md|truth\.json|\.correlatorignore|FIRST_SIGHT.*|.*\.(json|gz|py|sh|npy|pt|bin))$")
_SKIP_DIRS = ("_capture", "_assemble")

_PREFIX = re.compile(r"^(?:\[default\d+\]:|\d{1,4}: |\[rank(\d+)\]:)+")
_RANK_PREFIX = re.compile(r"^(?:\[default\d+\]:|\d{1,4}: )*\[rank\d+\]:")
# the stamps written again; each keeps its own separators and fraction width
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})([ T])(\d{2}):(\d{2}):(\d{2})(?:([,.])(\d{1,9}))?")
_HF = re.compile(r"(\d{2})/(\d{2})/(\d{4}) (\d{2}):(\d{2}):(\d{2})")
_GLOG = re.compile(r"^([IWEF])(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6})")
_NCCL_HEAD = re.compile(r"^([\w.-]+):(\d+):(\d+) \[(\d+)\]( NCCL )")
_TRACEBACK = re.compile(r"^(Traceback \(most recent call last\)|  File \"|    \S)")
_PROGRESS = re.compile(r"\r|\d+it/s\]|s/it\]|\|\s*\d+/\d+ \[")

KINDS = ("stamped", "unstamped", "traceback", "nccl", "progress")


def kind_of(line: str) -> str:
    """The line kinds whose proportions the job keeps (first match wins)."""
    if "NCCL" in line:
        return "nccl"
    if _PROGRESS.search(line):
        return "progress"
    if _TRACEBACK.match(line):
        return "traceback"
    head = line[:48]
    if _ISO.search(head) or _HF.search(head) or _GLOG.match(line):
        return "stamped"
    return "unstamped"


@dataclass
class Source:
    path: str
    lines: list[tuple[str, bool]]  # (text without launcher prefixes, had a [rankN]: prefix)
    size: int


def is_source(path: Path) -> bool:
    rel = path.relative_to(SAMPLES)
    if rel.parts[0] in ASSEMBLED or any(p.startswith(_SKIP_DIRS) for p in rel.parts):
        return False
    if len(rel.parts) == 1 or _SKIP_NAMES.match(path.name):
        return False
    return path.is_file()


def load_sources(root: Path = SAMPLES) -> list[Source]:
    sources = []
    for path in sorted(root.rglob("*")):
        if not is_source(path):
            continue
        raw = path.read_bytes()
        if b"\0" in raw[:4096]:
            continue
        text = raw.decode("utf-8", errors="replace")
        lines = []
        for line in text.split("\n"):
            had_rank = bool(_RANK_PREFIX.match(line))
            lines.append((_PREFIX.sub("", line), had_rank))
        if lines and lines[-1][0] == "":
            lines.pop()
        if lines:
            sources.append(Source(str(path.relative_to(root)), lines, len(raw)))
    return sources


def kind_shares(lines: Iterator[str]) -> dict[str, float]:
    sizes = dict.fromkeys(KINDS, 0)
    for line in lines:
        sizes[kind_of(line)] += len(line) + 1
    total = sum(sizes.values()) or 1
    return {k: round(v / total, 4) for k, v in sizes.items()}


# --------------------------------------------------------------------------- one rank


@dataclass(frozen=True)
class RankId:
    rank: int
    node: int
    local: int
    host: str
    pid: int


class Clock:
    """One rank's printed time: forward a few ms a line from the job's start."""

    def __init__(self, start: datetime, rng: random.Random) -> None:
        self.now = start
        self.rng = rng

    def tick(self) -> datetime:
        self.now += timedelta(microseconds=self.rng.randrange(200, 30_000))
        return self.now


def restamp(line: str, t: datetime) -> str:
    m = _GLOG.match(line)
    if m:
        return f"{m.group(1)}{t:%m%d %H:%M:%S}.{t.microsecond:06d}" + line[m.end():]
    m = _ISO.search(line, 0, 48)
    if m:
        frac = ""
        if m.group(8):
            width = len(m.group(9))
            frac = m.group(8) + f"{t.microsecond:06d}{'000'}"[:width]
        stamp = f"{t:%Y-%m-%d}{m.group(4)}{t:%H:%M:%S}{frac}"
        return line[: m.start()] + stamp + line[m.end():]
    m = _HF.search(line, 0, 48)
    if m:
        return line[: m.start()] + f"{t:%m/%d/%Y %H:%M:%S}" + line[m.end():]
    return line


_MIN_RUN, _MAX_RUN = 20, 400


def rank_lines(who: RankId, budget: int, sources: list[Source], weights: list[int],
               rng: random.Random, start: datetime) -> list[tuple[str, str]]:
    """(kind, line) of one rank's stream, about `budget` bytes of real runs of lines."""
    clock = Clock(start, rng)
    out: list[tuple[str, str]] = []
    size = 0
    while size < budget:
        src = rng.choices(sources, weights)[0]
        length = rng.randint(_MIN_RUN, _MAX_RUN)
        start = rng.randrange(-_MAX_RUN + 1, len(src.lines))
        for text, had_rank in src.lines[max(0, start):max(0, start + length)]:
            t = clock.tick()
            line = restamp(text, t)
            m = _NCCL_HEAD.match(line)
            if m:
                line = f"{who.host}:{who.pid}:{who.pid + 17} [{who.local}]{m.group(5)}" + line[m.end():]
            if had_rank:
                line = f"[rank{who.rank}]:" + line
            out.append((kind_of(text), line))
            size += len(line) + 1
            if size >= budget:
                break
    return out


# --------------------------------------------------------------------------- layouts

LAYOUTS = ("flat", "per-node", "logdir", "console", "srun", "mixed")
_MIXED = ("flat", "per-node", "logdir", "console", "srun")


def node_layout(layout: str, node: int) -> str:
    return _MIXED[node % len(_MIXED)] if layout == "mixed" else layout


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(lines))
        fh.write("\n")


def _interleave(streams: list[list[str]], rng: random.Random) -> list[str]:
    """Ranks' lines in one console: each rank's order kept, ranks taking turns by runs."""
    pos = [0] * len(streams)
    out: list[str] = []
    live = [i for i, s in enumerate(streams) if s]
    while live:
        i = rng.choice(live)
        take = rng.randint(1, 40)
        out.extend(streams[i][pos[i]:pos[i] + take])
        pos[i] += take
        if pos[i] >= len(streams[i]):
            live.remove(i)
    return out


def write_node(root: Path, layout: str, node: int, ranks: list[tuple[RankId, list[tuple[str, str]]]],
               rng: random.Random, srun: list[tuple[RankId, list[str]]]) -> None:
    if layout == "flat":
        for who, lines in ranks:
            _write(root / f"rank{who.rank}.log", [ln for _, ln in lines])
    elif layout == "per-node":
        for who, lines in ranks:
            _write(root / f"node-{node}" / f"rank{who.rank}.log", [ln for _, ln in lines])
    elif layout == "logdir":
        for who, lines in ranks:
            d = root / f"node-{node}" / "logs" / f"none_{node:02d}x{rng.randrange(16**5):05x}" / "attempt_0" / str(who.local)
            # a worker's stderr gets its tracebacks and warnings, as Python's logging and
            # the interpreter send them there; its stdout the rest
            err = [ln for k, ln in lines if k == "traceback" or "WARN" in ln[:64] or "Error" in ln[:64]]
            out = [ln for k, ln in lines if not (k == "traceback" or "WARN" in ln[:64] or "Error" in ln[:64])]
            _write(d / "stdout.log", out)
            _write(d / "stderr.log", err)
    elif layout == "console":
        streams = [[f"[default{who.local}]:{ln}" for _, ln in lines] for who, lines in ranks]
        _write(root / f"node-{node}" / "console.log", _interleave(streams, rng))
    elif layout == "srun":
        srun.extend((who, [f"{who.rank}: {ln}" for _, ln in lines]) for who, lines in ranks)
    else:
        raise ValueError(f"unknown layout {layout!r}")


def generate(out: Path, *, size: int, ranks: int = 64, nodes: int = 8, layout: str = "mixed",
             seed: int = 0, sources: list[Source] | None = None) -> dict[str, object]:
    """Write the job into `out` (which must not exist); returns the manifest written beside it."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}")
    sources = sources if sources is not None else load_sources()
    if not sources:
        raise SystemExit(f"no source logs under {SAMPLES}")
    rng = random.Random(seed)
    # a run may start up to a run's length before a file's first line (cut there), so
    # every line of the corpus is equally likely to be drawn, heads and tails included
    weights = [len(s.lines) + _MAX_RUN - 1 for s in sources]
    per_node = max(1, ranks // nodes)
    budget = size // ranks
    start = datetime(2026, 12, 1, 8, 0, 0)
    out.mkdir(parents=True)
    job_sizes = dict.fromkeys(KINDS, 0)
    srun: list[tuple[RankId, list[str]]] = []
    for node in range(nodes):
        group = []
        for local in range(per_node):
            r = node * per_node + local
            if r >= ranks:
                break
            who = RankId(r, node, local, f"gpu-node-{node:02d}", 20_000 + 37 * r)
            skew = timedelta(milliseconds=rng.randrange(0, 2_000))
            lines = rank_lines(who, budget, sources, weights, random.Random(rng.random()), start + skew)
            for k, ln in lines:
                job_sizes[k] += len(ln) + 1
            group.append((who, lines))
        write_node(out, node_layout(layout, node), node, group, rng, srun)
    if srun:
        _write(out / "slurm-4242.out", _interleave([lines for _, lines in srun], rng))
    total = sum(job_sizes.values()) or 1
    manifest = {
        "size": size, "ranks": ranks, "nodes": nodes, "layout": layout, "seed": seed,
        "sources": len(sources),
        "corpus_kind_shares": kind_shares(ln for s in sources for ln, _ in s.lines),
        "job_kind_shares": {k: round(v / total, 4) for k, v in job_sizes.items()},
    }
    return manifest


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(REPO))
    from correlator.synth import parse_size

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path)
    p.add_argument("--size", default="1GB", type=parse_size)
    p.add_argument("--ranks", type=int, default=64)
    p.add_argument("--nodes", type=int, default=8)
    p.add_argument("--layout", default="mixed", choices=LAYOUTS)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    manifest = generate(a.out, size=a.size, ranks=a.ranks, nodes=a.nodes, layout=a.layout, seed=a.seed)
    # beside the job, not in it: ingest reads every file in the job
    Path(str(a.out) + ".manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(json.dumps(manifest))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
