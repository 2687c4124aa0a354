"""CPU seconds of ``correlator ingest``, two checkouts of the code alternating.

    python bench/ingest_cpu.py --old /tmp/base --new . TARGET [TARGET ...] [--rounds 3]

Each run is ``python -m correlator ingest TARGET --out X.parquet`` as a child process
with ``PYTHONPATH`` set to the checkout (run from inside it), its CPU seconds (user +
system of the child and its workers) and wall seconds taken from ``wait4``. The
checkouts alternate within each round and swap the lead every round, so that a busy
machine's drift falls on both alike; CPU rather than wall time, as the machine is
shared. Prints min / median / max per target and checkout, the load average at the
start and end, and (unless ``--no-compare``) whether the two timelines are the same
rows (DuckDB ``EXCEPT ALL`` both ways; order within the file is not compared).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_once(checkout: Path, target: Path, out: Path, workers: int | None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ingest of ``target`` by ``checkout``."""
    cmd = [sys.executable, "-m", "correlator", "ingest", str(target), "--out", str(out)]
    if workers is not None:
        cmd += ["--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=checkout, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"ingest failed: {' '.join(cmd)} (in {checkout})")
    return usage.ru_utime + usage.ru_stime, wall


def differing_rows(a: Path, b: Path) -> tuple[int, int]:
    """Rows of ``a`` not in ``b`` and of ``b`` not in ``a``, duplicates counted."""
    import duckdb

    con = duckdb.connect()
    one = con.execute(f"SELECT count(*) FROM (FROM '{a}' EXCEPT ALL FROM '{b}')").fetchone()[0]
    two = con.execute(f"SELECT count(*) FROM (FROM '{b}' EXCEPT ALL FROM '{a}')").fetchone()[0]
    return one, two


def spread(xs: list[float]) -> str:
    return f"{min(xs):6.2f} / {statistics.median(xs):6.2f} / {max(xs):6.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("targets", nargs="+", type=Path)
    ap.add_argument("--old", type=Path, required=True, help="checkout of the code before")
    ap.add_argument("--new", type=Path, default=Path("."), help="checkout of the code after (default: here)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=None, help="ingest's --workers (default: its own choice)")
    ap.add_argument("--no-compare", action="store_true", help="skip the row-for-row compare of the timelines")
    args = ap.parse_args()
    checkouts = {"old": args.old.resolve(), "new": args.new.resolve()}
    print(f"load average at start: {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="ingest_cpu-") as tmp:
        for target in args.targets:
            cpu: dict[str, list[float]] = {k: [] for k in checkouts}
            wall: dict[str, list[float]] = {k: [] for k in checkouts}
            outs = {k: Path(tmp) / f"{k}.parquet" for k in checkouts}
            for r in range(args.rounds):
                order = list(checkouts) if r % 2 == 0 else list(reversed(checkouts))
                for name in order:
                    c, w = run_once(checkouts[name], target.resolve(), outs[name], args.workers)
                    cpu[name].append(c)
                    wall[name].append(w)
            print(f"{target} ({args.rounds} rounds): CPU s min / median / max; wall s min / median / max")
            for name in checkouts:
                print(f"  {name}: CPU {spread(cpu[name])}   wall {spread(wall[name])}")
            if not args.no_compare:
                print(f"  rows only in old / only in new: {differing_rows(outs['old'], outs['new'])}")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
