"""on_polars_thread: a function run on Polars' pool thread, with its answer or its
exception handed back as if called directly."""

from __future__ import annotations

import threading

import polars as pl
import pytest

from correlator.ingest.polars_thread import on_polars_thread


def test_gives_the_result_of_the_call_with_its_arguments():
    assert on_polars_thread(lambda a, b, *, c: (a, b, c), 1, "two", c=[3]) == (1, "two", [3])


def test_calls_once():
    calls: list[int] = []
    on_polars_thread(calls.append, 7)
    assert calls == [7]


def test_runs_off_the_calling_thread():
    # the point of it: Polars' own thread, where its calls do not hand off
    assert on_polars_thread(threading.get_ident) != threading.get_ident()


def test_polars_calls_inside_give_the_same_answers():
    df = pl.DataFrame({"m": ["[rank3]: a", "b", "[rank1]: c"], "n": [3, 2, 1]})

    def work() -> tuple[pl.DataFrame, ...]:
        # a select of several expressions, a filter and a group_by: each would hand
        # work to the pool from an ordinary thread
        picked = df.select(pl.col("m").str.starts_with("[rank").alias("ranked"), pl.col("n") * 2)
        kept = df.filter(pl.col("m").str.starts_with("[rank"))
        counts = kept.group_by(pl.col("m").str.slice(0, 6)).agg(pl.col("n").sum()).sort("m")
        return picked, kept, counts

    assert [x.to_dicts() for x in on_polars_thread(work)] == [x.to_dicts() for x in work()]


def test_an_exception_comes_back_unwrapped():
    class Boom(Exception):
        pass

    err = Boom("file x.log, line 3")

    def fail() -> None:
        raise err

    with pytest.raises(Boom) as caught:
        on_polars_thread(fail)
    assert caught.value is err  # not a Polars ComputeError around it
    assert err.__context__ is None  # nor chained to an error Polars handled on the way


def test_nested_calls_work():
    assert on_polars_thread(on_polars_thread, lambda: pl.Series([1, 2]).sum()) == 3
