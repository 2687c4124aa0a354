"""CPU cost of applying the parsers' patterns (``classify._match_rows``), two checkouts
alternating, on the very inputs an ingest of TARGET gives it.

    python bench/pattern_cost.py --old /tmp/base --new . TARGET [--rounds 3] [--reps 5]

First an ingest of TARGET (one process, ``--workers 1``, by the ``--new`` checkout)
records every ``_match_rows`` call's arguments (a batch's new digit shapes, its hex
shapes, the lines matched one by one); then, each round, a child process per
checkout (the lead swapping every round) times all of those calls ``--reps`` times on
Polars' own thread with ``POLARS_MAX_THREADS=1``, as an ingest worker runs them, and
checks that both checkouts' answers are equal. Prints min / median / max of the
children's CPU milliseconds for all the calls together.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def record(target: str, calls_path: str) -> None:
    """Ingest ``target`` here, keeping every ``_match_rows`` call's arguments."""
    from correlator.ingest import classify
    from correlator.ingest.pipeline import IngestOptions, ingest

    calls = []
    original = classify._match_rows

    def spy(msg: Any, shaped: bool, hexed: bool = False) -> Any:
        calls.append((msg.clone(), shaped, hexed))
        return original(msg, shaped, hexed)

    classify._match_rows = spy
    with tempfile.TemporaryDirectory() as tmp:
        ingest(target, out_parquet=Path(tmp) / "t.parquet", options=IngestOptions(workers=1, echo_problems=False))
    Path(calls_path).write_bytes(pickle.dumps(calls))


def time_calls(calls_path: str, reps: int, answers_path: str) -> None:
    """Print the CPU milliseconds of each of ``reps`` passes over the recorded calls."""
    from correlator.ingest import classify
    from correlator.ingest.polars_thread import on_polars_thread

    calls = pickle.loads(Path(calls_path).read_bytes())

    def one_pass() -> list:
        return [classify._match_rows(msg, shaped, hexed) for msg, shaped, hexed in calls]

    answers = on_polars_thread(one_pass)  # untimed: fills the caches a worker keeps
    Path(answers_path).write_bytes(pickle.dumps(answers))
    ms = []
    for _ in range(reps):
        started = time.process_time()
        on_polars_thread(one_pass)
        ms.append((time.process_time() - started) * 1000)
    print(json.dumps({"ms": ms, "calls": len(calls)}))


def child(checkout: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(checkout), "POLARS_MAX_THREADS": "1"}
    return subprocess.run([sys.executable, __file__, *args], cwd=checkout, env=env, check=True,
                          capture_output=True, text=True).stdout


def same_answers(a: str, b: str) -> bool:
    one, two = pickle.loads(Path(a).read_bytes()), pickle.loads(Path(b).read_bytes())
    return len(one) == len(two) and all(x.equals(y, null_equal=True) and x.schema == y.schema
                                        for x, y in zip(one, two, strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", nargs="?")
    ap.add_argument("--old", type=Path)
    ap.add_argument("--new", type=Path, default=Path("."))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        if args.child[0] == "record":
            record(*args.child[1:])
        else:
            time_calls(args.child[1], int(args.child[2]), args.child[3])
        return
    if args.target is None or args.old is None:
        ap.error("TARGET and --old are required")
    checkouts = {"old": args.old.resolve(), "new": args.new.resolve()}
    print(f"load average at start: {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="pattern_cost-") as tmp:
        calls = str(Path(tmp) / "calls.pkl")
        child(checkouts["new"], "--child", "record", str(Path(args.target).resolve()), calls)
        ms: dict[str, list[float]] = {k: [] for k in checkouts}
        answers = {k: str(Path(tmp) / f"{k}.pkl") for k in checkouts}
        n_calls = 0
        for r in range(args.rounds):
            for name in (list(checkouts) if r % 2 == 0 else list(reversed(checkouts))):
                got = json.loads(child(checkouts[name], "--child", "time", calls, str(args.reps), answers[name]))
                ms[name].extend(got["ms"])
                n_calls = got["calls"]
        print(f"{args.target}: {n_calls} _match_rows calls, CPU ms for all of them "
              f"({args.rounds} rounds x {args.reps}), min / median / max")
        for name in checkouts:
            print(f"  {name}: {min(ms[name]):8.1f} / {statistics.median(ms[name]):8.1f} / {max(ms[name]):8.1f}")
        print(f"  answers equal: {same_answers(answers['old'], answers['new'])}")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
