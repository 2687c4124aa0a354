"""Run a function on Polars' own worker thread, so the Polars calls it makes run inline.

A Polars call made from an ordinary thread (the main thread of a worker process, say)
hands its work to Polars' thread pool and sleeps until a pool thread has done it. On
this 2-core VM that hand-off costs 50-100 us of CPU a call (two thread wake-ups, and
the pool thread spinning before it sleeps again), whatever the data: an eager
``select`` of two expressions on ten rows took ~120 us from the main thread and ~17 us
from a pool thread, a ``filter`` ~120 us and ~29 us. A parsed batch makes ~470 Polars
calls, so the hand-offs were about a third of a small file's cost (62 -> 41 ms a
150 KB slice of a rank log; 15 MB: ~290 -> ~250 ms).

A call made *on* a pool thread runs where it is (rayon's ``install`` from inside its
own pool does not hand off). ``on_polars_thread`` gets the function there the only
public way Polars offers: as the Python function of a ``map_batches`` expression,
evaluated beside a second expression so that Polars evaluates the pair on its pool.
If a later Polars evaluated it elsewhere, the function would still run once and give
the same answer, only without the saving.

Only for work that does not wait on other Polars threads: with one pool thread
(workers run with ``POLARS_MAX_THREADS=1``) the function occupies it, and anything
that queued work for the pool from another thread and waited (Polars' streaming
engine, ``scan_*``/``sink_*``) would wait forever. Ingest's per-file work uses eager
Polars and pyarrow only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import polars as pl

T = TypeVar("T")

_ONE_ROW = pl.DataFrame({"x": [0]})


def on_polars_thread(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, called on a Polars pool thread; its result, or its
    exception re-raised here as it was (not wrapped in a Polars error)."""
    outcome: list[tuple[bool, Any]] = []

    # Polars passes ``return_dtype`` (and retries without it if refused: the retry
    # would run ``fn`` inside that TypeError's handler, chaining it to any error)
    def call(column: pl.Series, **_polars_kwargs: object) -> pl.Series:
        if not outcome:  # once, whatever Polars does with the expression
            try:
                outcome.append((True, fn(*args, **kwargs)))
            except BaseException as exc:  # handed back to the caller as it was
                outcome.append((False, exc))
        return column

    _ONE_ROW.select(
        pl.col("x").map_batches(call, return_dtype=pl.Int64).alias("call"),
        pl.col("x").alias("pair"),  # two expressions: Polars evaluates them on its pool
    )
    ok, value = outcome[0]
    if not ok:
        raise value
    return value
