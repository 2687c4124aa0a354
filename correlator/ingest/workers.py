"""Ingest's worker processes, and starting them before the command needs them.

Workers are spawned, not forked (Polars' thread pool does not survive a fork), so
each one starts a fresh interpreter and imports the parser (~0.3 s) before it
reads a line. ``correlator ingest|analyze|sql|export DIR`` on a log directory big
enough to be parsed in parallel starts them first thing (``start_early``), while
the command itself is still importing the CLI, DuckDB and the rulebook; ingest
then takes that pool (``worker_pool``) instead of spawning its own.

This module imports only the standard library (and ``correlator.engine.env``, which
imports nothing else): ``correlator/__main__.py`` calls it
before anything heavy is loaded.
"""

from __future__ import annotations

import importlib
import multiprocessing as mp
import multiprocessing.util as mp_util
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

# The environment a worker starts with (one Polars thread, the allocators' settings):
# shared with the Ray engine's workers, so it lives with the engines.
from correlator.engine.env import (
    GLIBC_MALLOC,
    JEMALLOC_CONF,
    WORKER_DECAY,
    worker_environment,
    worker_jemalloc_conf,
)

__all__ = ["GLIBC_MALLOC", "JEMALLOC_CONF", "WORKER_DECAY", "worker_environment", "worker_jemalloc_conf"]

# Below this much input, starting worker processes costs more than it saves.
PARALLEL_MIN_BYTES = 16 << 20

def _import(name: str) -> None:
    importlib.import_module(name)


@contextmanager
def _worker_env() -> Iterator[None]:
    """This process's environment as a worker's must start (``worker_environment``); put
    back after."""
    saved = {k: os.environ.get(k) for k in ("POLARS_MAX_THREADS", JEMALLOC_CONF, *GLIBC_MALLOC)}
    os.environ.update(worker_environment(dict(os.environ)))
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _spawn(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, all started now, each importing the parser.

    A process reads its environment when it starts, so starting them all at once
    lets this process's environment be put back at once (a pool spawns a worker
    per task submitted while none is idle: one warm-up task each)."""
    with _worker_env():
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"))
        for _ in range(workers):
            pool.submit(_import, "correlator.ingest.pipeline")
    return pool


_early: tuple[ProcessPoolExecutor, int] | None = None


def start_early(workers: int) -> None:
    """Spawn ``workers`` workers now, each importing the parser, for the next
    ``worker_pool`` of that size to take. Workers nothing took are shut down when
    this process exits."""
    global _early
    if _early is None and workers >= 2:
        _early = (_spawn(workers), workers)
        # A process of a pool (a batch job's) exits through multiprocessing, which
        # runs its finalizers and then joins its children, but no atexit handler: idle
        # workers left running would keep it from exiting for ever.
        mp_util.Finalize(None, _shut_down_early, exitpriority=10)


def _shut_down_early() -> None:
    global _early
    if _early is not None:
        _early[0].shutdown(wait=True, cancel_futures=True)
        _early = None


def discard_early() -> None:
    """Shut down workers started early that nothing took."""
    global _early
    if _early is not None:
        _let_go(_early[0])
        _early = None


def _let_go(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down; in the main process without waiting for the workers to exit
    (0.15 s on the bench, for a jemalloc heap each to free: the output is written
    meanwhile). A process that is itself a pool's worker (a batch job's) waits: it may
    exit next, and multiprocessing closes its queues before the pool's sentinels reach
    the workers, which then wait for ever and keep it from exiting."""
    pool.shutdown(wait=mp.parent_process() is not None, cancel_futures=True)


@contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor | None]:
    """Worker processes for both stages of one ingest (None: work in this process).

    Takes the workers ``start_early`` started if there are as many; otherwise
    those are shut down and others spawned.
    """
    global _early
    early, _early = _early, None
    if early is not None and (workers == 1 or early[1] != workers):
        _let_go(early[0])
        early = None
    if workers == 1:
        yield None
        return
    pool = early[0] if early is not None else _spawn(workers)
    try:
        yield pool
    finally:
        _let_go(pool)


# Commands whose TARGET may be a log directory that ingest parses.
_INGESTING = ("ingest", "analyze", "sql", "export")
# Not logs (ingest skips them): a batch output directory holds timelines.
_NOT_LOGS = (".parquet", ".duckdb")
# Stop looking after this many files: a tree of tiny files is not worth the walk.
_MAX_FILES_SEEN = 5_000


def _holds_at_least(root: str, size: int) -> bool:
    """At least ``size`` bytes in two files or more (one file is read by one process)."""
    seen = logs = total = 0
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            seen += 1
            if seen > _MAX_FILES_SEEN:
                return False
            if name.endswith(_NOT_LOGS):
                continue
            try:
                total += os.stat(os.path.join(dirpath, name)).st_size
            except OSError:
                continue
            logs += 1
            if total >= size and logs >= 2:
                return True
    return False


def start_for_command(args: Sequence[str]) -> bool:
    """Start the workers early if ``args`` (the command line after the program) is a
    command that will ingest a log directory big enough for them; True if it did.

    Only a guess from the command line, so it stays cheap and on the safe side: no
    ``--workers`` (the user chose) nor ``--engine ray``, a directory argument, ``PARALLEL_MIN_BYTES`` of
    files found within the first few thousand. Workers nothing takes are shut down.
    """
    if not args or args[0] not in _INGESTING or any(a.startswith("--workers") for a in args):
        return False
    if any(a == "--engine=ray" or (a == "--engine" and nxt == "ray") for a, nxt in zip(args, [*args[1:], ""], strict=True)):
        return False  # the tasks run on Ray's workers, not this machine's
    cpus = os.cpu_count() or 1
    target = next((a for a in args[1:] if not a.startswith("-") and os.path.isdir(a)), None)
    if cpus < 2 or target is None or not _holds_at_least(target, PARALLEL_MIN_BYTES):
        return False
    start_early(cpus)
    return True
