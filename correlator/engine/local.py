"""The local engine: processes of this machine (the default, ``--engine local``).

Workers are spawned, not forked (Polars' thread pool does not survive a fork).
Two ways to use it:

- ``LocalEngine(workers)`` owns its pools (``batch``): a task that kills its worker
  (segfault, the OOM killer) breaks only the pool; the unfinished tasks go to a
  fresh one, and a task unfinished at two breaks runs alone, so the one that kills
  its worker is named (``crashed``) and the rest go on. A task past ``timeout`` is
  stopped with its pool (a running task cannot be stopped alone) and is
  ``timed_out``; the tasks it stopped go to a fresh pool with no break counted.
  A task is handed over only when a worker is free, so its time is its own.
- ``LocalEngine.on_pool(pool)`` borrows ``ingest``'s pool (started early while the
  CLI loads, see ``correlator.ingest.workers``), or None to run every task in this
  process, in order (small jobs: starting processes costs more than it saves).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from correlator.engine import Outcome, Task


class LocalEngine:
    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None
        self._borrowed = False

    @classmethod
    def on_pool(cls, pool: ProcessPoolExecutor | None) -> LocalEngine:
        engine = cls(getattr(pool, "_max_workers", 1) if pool is not None else 1)
        engine._pool, engine._borrowed = pool, True
        return engine

    @property
    def slots(self) -> int:
        return self.workers

    def close(self) -> None:
        pass  # a borrowed pool is its owner's to shut down; owned ones are gone after each run

    def run(
        self, fn: Callable[..., Any], tasks: Sequence[Task], *, timeout: float | None = None,
        init: Callable[..., None] | None = None, initargs: tuple = (),
    ) -> Iterator[Outcome]:
        if self._borrowed:  # submitted now, not at the first next(): the caller works meanwhile
            return self._on_borrowed(fn, tasks)
        return self._owned(fn, tasks, timeout, init, initargs)

    def _owned(
        self, fn: Callable[..., Any], tasks: Sequence[Task], timeout: float | None,
        init: Callable[..., None] | None, initargs: tuple,
    ) -> Iterator[Outcome]:
        if not tasks:
            return
        workers = min(self.workers, len(tasks))
        breaks: Counter[str] = Counter()
        remaining = list(tasks)
        while remaining:
            alone = [t for t in remaining if breaks[t.key] >= 2]
            shared = [t for t in remaining if breaks[t.key] < 2]
            remaining = []
            if shared:
                unfinished, stopped = yield from _pool(fn, shared, workers, timeout, init, initargs)
                for t in unfinished:
                    breaks[t.key] += 1
                remaining += unfinished + stopped
            for t in alone:
                unfinished, _ = yield from _pool(fn, [t], 1, timeout, init, initargs)
                if unfinished:
                    yield Outcome(t.key, failure="crashed", detail="the worker process died")

    def _on_borrowed(self, fn: Callable[..., Any], tasks: Sequence[Task]) -> Iterator[Outcome]:
        pool = self._pool
        if pool is None:
            return (_call_here(fn, t) for t in tasks)
        running: dict[Future, Task] = {pool.submit(fn, *t.args): t for t in tasks}

        def finishing() -> Iterator[Outcome]:
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for f in finished:
                    yield _outcome(running.pop(f), f)

        return finishing()


def _call_here(fn: Callable[..., Any], t: Task) -> Outcome:
    try:
        return Outcome(t.key, fn(*t.args))
    except Exception as exc:
        return Outcome(t.key, failure="raised", detail=f"{type(exc).__name__}: {exc}", error=exc)


def _outcome(t: Task, f: Future) -> Outcome:
    try:
        return Outcome(t.key, f.result())
    except BrokenProcessPool:
        return Outcome(t.key, failure="crashed", detail="the worker process died")
    except Exception as exc:  # the function's own, or pickling its arguments
        return Outcome(t.key, failure="raised", detail=f"{type(exc).__name__}: {exc}", error=exc)


def _pool(
    fn: Callable[..., Any], tasks: list[Task], workers: int, timeout: float | None,
    init: Callable[..., None] | None, initargs: tuple,
):
    """Run ``tasks`` on one pool, yielding outcomes; returns (the tasks left unfinished
    when a worker died, the tasks stopped because another ran out of time)."""
    queue = list(tasks)
    running: dict[Future, tuple[Task, float]] = {}  # future -> (task, when it was handed over)
    # (no max_tasks_per_child: on Python 3.11 the pool can hang when it replaces a worker)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                               initializer=init, initargs=initargs)
    try:
        while queue or running:
            while queue and len(running) < workers:
                t = queue.pop(0)
                running[pool.submit(fn, *t.args)] = (t, time.monotonic())
            wait_s = None
            if timeout is not None:
                oldest = min(s for _, s in running.values())
                wait_s = max(0.0, oldest + timeout - time.monotonic())
            finished, _ = wait(running, timeout=wait_s, return_when=FIRST_COMPLETED)
            crashed = []
            for f in finished:
                t, _ = running.pop(f)
                out = _outcome(t, f)
                if out.failure == "crashed":
                    crashed.append(t)
                else:
                    yield out
            if crashed:  # the tasks still on the pool are lost with it; the queue never started
                return crashed + [t for t, _ in running.values()], queue
            if not finished and timeout is not None:
                now = time.monotonic()
                late = [t for t, s in running.values() if now - s >= timeout]
                if not late:  # woken a hair before the deadline: wait again
                    continue
                for t in late:
                    yield Outcome(t.key, failure="timed_out", detail=f"ran past {timeout:g} s")
                _stop_workers(pool)
                return [], [t for t, _ in running.values() if t not in late] + queue
        return [], []
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    # Python 3.14 has pool.kill_workers(); before it, the executor's own process table
    for proc in list(getattr(pool, "_processes", {}).values()):
        proc.kill()
