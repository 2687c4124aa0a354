"""Replay a captured job: its lines written back into files at their original relative times.

A stamped line is written at its stamp, an unstamped one right after its
predecessor in the same file; times are relative to the job's first stamp, sped up
by ``--speed``. The stamps are the ones ``analyze`` reads, after its clock
alignment (``ts_aligned``: a node whose clock ran 40 s ahead replays its lines when
they were really written, not 40 s late), taken from the analysis's own timeline.

Two ways to run it:

* ``python bench/replay.py FOLDER OUT --speed 20``: in real time, for watching by
  hand (``correlator watch OUT`` in another terminal);
* ``Replay.write_until(t)``: driven by a virtual clock, as ``bench/watch_replay.py``
  and ``tests/test_watch_replay.py`` do: no sleeping, ``correlator watch``'s
  session polled at the replay's job time.

Files that are not plain text (compressed, archives, binaries) are copied when the
replay ends: they are finished files, which ``watch`` leaves to the final analysis.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from correlator.analysis.analyze import analysis_open
from correlator.ingest import IngestOptions, NothingToRead
from correlator.ingest.discover import not_followed
from correlator.ingest.pipeline import ignore_rule

# A file whose stamps sit this far from the job's median is on another clock (a
# year-less stamp, a dmesg boot clock): its lines replay as unstamped ones.
_SAME_JOB_S = 2 * 86400


@dataclass
class _Line:
    t: float  # seconds after the job's first stamp
    rel: str
    line_no: int
    raw: bytes  # with its newline


@dataclass
class Replay:
    """The schedule of one folder's lines."""

    src: Path
    lines: list[_Line]
    finished: list[str]  # files copied at the end
    stamped: bool
    origin: datetime | None
    at: dict[tuple[str, int], float] = field(default_factory=dict)  # (file, line) -> t
    _next: int = 0
    out: Path | None = None

    @classmethod
    def load(cls, src: Path) -> Replay:
        stamps, ignored = _aligned_stamps(src)
        per_file: dict[str, list[tuple[bytes, datetime | None]]] = {}
        finished: list[str] = []
        for path in sorted(p for p in src.rglob("*") if p.is_file()):
            rel = path.relative_to(src).as_posix()
            if ignored(rel) is not None:
                continue
            raw = path.read_bytes()
            if not_followed(rel, raw[:8192]) is not None:
                finished.append(rel)
                continue
            rows = raw.split(b"\n")
            if rows and rows[-1] == b"":
                rows.pop()
            per_file[rel] = [(row + b"\n", stamps.get((rel, n))) for n, row in enumerate(rows, start=1)]
        known = sorted(ts for rows in per_file.values() for _, ts in rows if ts is not None)
        if not known:
            return cls(src, [], finished, False, None)
        median = known[len(known) // 2]
        near = [ts for ts in known if abs((ts - median).total_seconds()) <= _SAME_JOB_S]
        origin = near[0]
        lines: list[_Line] = []
        for rel, rows in per_file.items():
            t = 0.0
            for n, (raw, ts) in enumerate(rows, start=1):
                if ts is not None and abs((ts - median).total_seconds()) <= _SAME_JOB_S:
                    t = max(t, (ts - origin).total_seconds())
                lines.append(_Line(t, rel, n, raw))
        lines.sort(key=lambda x: x.t)  # stable: a file's lines keep their order
        replay = cls(src, lines, finished, True, origin)
        replay.at = {(x.rel, x.line_no): x.t for x in lines}
        return replay

    @property
    def duration(self) -> float:
        return self.lines[-1].t if self.lines else 0.0

    def next_time(self) -> float | None:
        return self.lines[self._next].t if self._next < len(self.lines) else None

    def start(self, out: Path) -> None:
        self.out = out
        out.mkdir(parents=True, exist_ok=True)

    def write_until(self, t: float) -> int:
        """Write every line due by job time ``t``; how many."""
        assert self.out is not None, "start() first"
        handles: dict[str, object] = {}
        n = 0
        try:
            while self._next < len(self.lines) and self.lines[self._next].t <= t:
                line = self.lines[self._next]
                f = handles.get(line.rel)
                if f is None:
                    path = self.out / line.rel
                    path.parent.mkdir(parents=True, exist_ok=True)
                    f = handles[line.rel] = open(path, "ab")  # noqa: SIM115 (closed below)
                f.write(line.raw)  # type: ignore[attr-defined]
                self._next += 1
                n += 1
        finally:
            for f in handles.values():
                f.close()  # type: ignore[attr-defined]
        return n

    @property
    def done(self) -> bool:
        return self._next >= len(self.lines)

    def finish(self) -> None:
        """The finished (non-text) files, copied as they are."""
        assert self.out is not None
        for rel in self.finished:
            dest = self.out / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(self.src / rel, dest)

    def run_realtime(self, out: Path, speed: float) -> None:
        """Write the lines at their times divided by ``speed``, in real time."""
        self.start(out)
        began = time.monotonic()
        while not self.done:
            due = self.next_time() or 0.0
            wait = due / speed - (time.monotonic() - began)
            if wait > 0:
                time.sleep(min(wait, 1.0))
                continue
            self.write_until((time.monotonic() - began) * speed)
        self.finish()


def _aligned_stamps(src: Path) -> tuple[dict[tuple[str, int], datetime], Callable[[str], str | None]]:
    """(file, line) -> the stamp ``analyze`` reads for that line, clock-aligned (lines
    whose stamp is its own only), and the rule that leaves files out (.correlatorignore)."""
    opts = IngestOptions(workers=1, echo_problems=False)
    ignored = ignore_rule(src, ())
    try:
        with analysis_open(str(src), options=opts) as (_, con):
            rows = con.execute(
                "SELECT file, line_no, ts_aligned FROM events WHERE ts_aligned IS NOT NULL AND NOT ts_estimated"
            ).fetchall()
    except NothingToRead:
        return {}, ignored
    return {(f, n): ts for f, n, ts in rows}, ignored


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("out", type=Path, help="where the replayed files go (created; must not exist)")
    ap.add_argument("--speed", type=float, default=10.0, help="how many times faster than the job ran")
    args = ap.parse_args(argv)
    if args.out.exists():
        print(f"{args.out} exists: give a new folder", file=sys.stderr)
        return 2
    replay = Replay.load(args.folder)
    if not replay.stamped:
        print(f"{args.folder}: no stamps to replay by", file=sys.stderr)
        return 2
    print(f"replaying {len(replay.lines):,} lines over {replay.duration:.0f}s of job time "
          f"at {args.speed:g}x into {args.out}", file=sys.stderr)
    replay.run_realtime(args.out, args.speed)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("POLARS_MAX_THREADS", "1")
    sys.exit(main())
