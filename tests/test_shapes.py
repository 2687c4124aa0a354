"""Digit shapes and the work done once per shape (classify, templates, fold flags)."""

from __future__ import annotations

import random

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from correlator.ingest import classify, fold
from correlator.ingest import templates as templates_module
from correlator.ingest.classify import _finish, _match_rows, _shape_safe, match_messages
from correlator.ingest.templates import _key, _same_mask, mask, templates
from correlator.timeline.shapes import (
    ShapeMemo,
    digit_invariant,
    digit_shapes,
    shape_of,
    with_new_texts,
)
from parsers import PATTERNS


def test_shapes_map_every_row_back():
    texts = pl.Series(["step 12 loss 3.5", "step 99 loss 0.1", "", "naïve 7 ✓", "no digits", "step 40 loss 2.0"])
    shapes, codes = digit_shapes(texts)
    assert shapes.gather(codes).to_list() == [shape_of(t) for t in texts.to_list()]
    assert shapes.len() == 4  # the three step lines are one shape
    assert shape_of("rank 17 of 64") == "rank 00 of 00"


def test_shapes_of_a_sliced_chunked_series():
    texts = pl.concat([pl.Series(["a1", "b2"]), pl.Series(["a3", "c"])], rechunk=False).slice(1, 3)
    shapes, codes = digit_shapes(texts)
    assert shapes.gather(codes).to_list() == ["b0", "a0", "c"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="a1 9", max_size=4), min_size=1, max_size=12),
    st.lists(st.tuples(st.booleans(), st.integers(0, 11), st.text(alphabet="b2\n7", max_size=4)), max_size=15),
)
def test_shapes_of_texts_mostly_known_lines(lines, picks):
    """with_new_texts equals digit_shapes, reusing the lines' codes, shaping the rest."""
    line_shapes, line_codes = digit_shapes(pl.Series(lines, dtype=pl.String))
    texts, codes = [], []
    for known, j, other in picks:
        if known:
            texts.append(lines[j % len(lines)])
            codes.append(line_codes[j % len(lines)])
        else:
            texts.append(other)
            codes.append(None)
    given_codes = pl.Series(codes, dtype=pl.UInt32)
    shapes, got = with_new_texts(pl.Series(texts, dtype=pl.String), line_shapes, given_codes)
    assert shapes.gather(got).to_list() == [shape_of(t) for t in texts]
    assert shapes.n_unique() == shapes.len()  # a dictionary, as digit_shapes gives
    assert sorted(got.unique().to_list()) == list(range(shapes.len()))  # and only what is used
    assert given_codes.to_list() == codes  # the caller's codes are left alone
    # keeping the unused shapes: the known codes stay as they were
    kept, kept_codes = with_new_texts(pl.Series(texts, dtype=pl.String), line_shapes, given_codes, keep_unused=True)
    assert kept.gather(kept_codes).to_list() == [shape_of(t) for t in texts]
    assert kept.head(line_shapes.len()).to_list() == line_shapes.to_list()
    assert [c for c, k in zip(kept_codes.to_list(), codes, strict=True) if k is not None] == [k for k in codes if k is not None]


@pytest.mark.parametrize(
    ("regex", "invariant"),
    [
        (r"step (?P<step>\d+)", True),
        (r"[0-9a-fA-F]{8}", True),
        (r"x{10,}\s+\w", True),
        (r"Xid 79", False),  # a digit literal
        (r"[1-9]\d*", False),  # a range covering some digits
        (r"(a)\1", False),  # a back-reference
        (r"\p{L}", False),  # not Python syntax: not trusted
    ],
)
def test_digit_invariance(regex, invariant):
    assert digit_invariant(regex) is invariant


def _with_other_digits(line: str, rng: random.Random) -> str:
    return "".join(str(rng.randrange(10)) if ch.isdigit() else ch for ch in line)


def test_matching_by_shape_equals_matching_each_line():
    """Every parser example, repeated with other digits, classified both ways."""
    rng = random.Random(7)
    lines = [ex for p in PATTERNS for ex in p.examples]
    lines += [_with_other_digits(ex, rng) for ex in lines for _ in range(3)]
    msg = pl.Series("message", lines)
    shapes, _ = digit_shapes(msg)
    assert shapes.len() <= 0.5 * msg.len(), "the shape path must be the one under test"
    direct = _finish(_match_rows(msg, shaped=False)).drop("row")
    by_shape = match_messages(msg)
    assert by_shape.columns == direct.columns
    for col in direct.columns:
        assert by_shape[col].to_list() == direct[col].to_list(), col


@pytest.mark.parametrize("own_group_rows", [2, 4, 1 << 30])
def test_shapes_cut_as_groups_of_their_own_equal_matching_each_line(monkeypatch, own_group_rows):
    """A shape with many rows is cut at literal positions (``_OWN_GROUP_ROWS``; a
    training log's step line): the threshold lowered so that the examples' shapes
    take that path, alone or beside their buckets, the answer is each line's."""
    monkeypatch.setattr(classify, "_OWN_GROUP_ROWS", own_group_rows)
    monkeypatch.setattr(classify, "_MEMO", ShapeMemo())
    rng = random.Random(13)
    lines = [ex for p in PATTERNS for ex in p.examples]
    lines += [_with_other_digits(ex, rng) for ex in lines for _ in range(4)]
    msg = pl.Series("message", lines)
    direct = _finish(_match_rows(msg, shaped=False)).drop("row")
    for _ in range(2):  # the second time, the cut's expressions come from its memo
        by_shape = match_messages(msg)
        for col in direct.columns:
            assert by_shape[col].to_list() == direct[col].to_list(), col


@pytest.mark.parametrize("plans_limit", [20_000, 5])
def test_shapes_remembered_from_earlier_batches_give_the_same_answer(monkeypatch, plans_limit):
    """The second batch meets shapes the first one matched (from the memo) and new
    ones; their plans come from a memo too, which may fill up and start again."""
    monkeypatch.setattr(classify, "_MEMO", ShapeMemo())
    monkeypatch.setattr(classify, "_PLANS", classify._PlanMemo(limit=plans_limit))
    rng = random.Random(11)
    examples = [ex for p in PATTERNS for ex in p.examples]
    first = [ex for i, ex in enumerate(examples) if i % 2 == 0]
    second = [_with_other_digits(ex, rng) for ex in examples for _ in range(3)]
    match_messages(pl.Series("message", first * 3))
    assert classify._MEMO.table is not None and classify._MEMO.table.height > 0
    msg = pl.Series("message", second)
    direct = _finish(_match_rows(msg, shaped=False)).drop("row")
    by_shape = match_messages(msg)
    for col in direct.columns:
        assert by_shape[col].to_list() == direct[col].to_list(), col
    # nothing unsure (matched line by line) is remembered
    assert not classify._MEMO.table.get_column("unsure").any()


def test_digit_values_are_cut_from_each_line():
    msg = pl.Series("message", [f"2024-05-01 12:00:0{i},123 - INFO - __main__ - step {i * 7} loss {i}.5" for i in range(10)])
    got = match_messages(msg)
    steps = [dict((a["key"], a["value"]) for a in attrs)["step"] for attrs in got["attrs"].to_list()]
    assert steps == [str(i * 7) for i in range(10)]
    assert set(got["kind"].to_list()) == {"app.step_metrics"}


def test_patterns_that_see_digits_are_not_run_on_shapes():
    unsafe = {p.name for i, p in enumerate(PATTERNS) if not _shape_safe(i)}
    assert "nccl.comm_init" in unsafe  # "0x" is a digit literal
    assert all(not _shape_safe(i) for i, p in enumerate(PATTERNS) if p.post is not None)


def test_watchdog_crash_exception_is_matched_by_shape():
    # Every rank of a watchdog crash prints this C++ exception (with its own
    # addresses): it must not need matching line by line, and its shape's answer
    # must be the line's (exc_type cut from each line).
    crash = (
        "terminate called after throwing an instance of 'c10::DistBackendError'\n"
        "  what():  [PG ID 0 PG GUID 0(default_pg) Rank {r}] Process group watchdog thread terminated with "
        "exception: [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=537376, "
        "OpType=ALLREDUCE, NumelIn=28741078, NumelOut=28741078, Timeout(ms)=600000) ran for 600029 "
        "milliseconds before timing out.\n"
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f92e62535e8 in libc10.so)"
    )
    msg = pl.Series("message", [crash.format(r=r) for r in range(4)])
    shaped = _match_rows(digit_shapes(msg)[0], shaped=True)
    assert not shaped.get_column("unsure").any()
    got = match_messages(msg)
    assert got.equals(_finish(_match_rows(msg, shaped=False)).drop("row"))
    assert {dict((a["key"], a["value"]) for a in attrs)["exc_type"] for attrs in got["attrs"].to_list()} == {
        "c10::DistBackendError"}
    assert [dict((a["key"], a["value"]) for a in attrs)["pg_rank"] for attrs in got["attrs"].to_list()] == [
        "0", "1", "2", "3"]


def test_templates_ignore_numbers_hosts_and_addresses():
    got = templates(pl.Series([
        "gpu-node-01:4242:4300 [3] NCCL INFO comm 0x55d26ea5f0c0 rank 3 nranks 64 - Init COMPLETE",
        "gpu-node-07:99:101 [0] NCCL INFO comm 0x7f93441fe5b0 rank 60 nranks 64 - Init COMPLETE",
        "saving to /ckpt/run-7/step_100.pt took 3.5s",
        "Traceback (most recent call last):\n  File \"a.py\", line 3, in f\nValueError: bad batch 12",
    ])).to_list()
    assert got[0] == got[1] == "<host>:<pid>:<tid> [<*>] NCCL INFO comm <*> rank <*> nranks <*> - Init COMPLETE"
    assert got[2] == "saving to <*> took <*>s"
    assert got[3] == "Traceback (most recent call last): … ValueError: bad batch <*>"


# pieces that meet the hex token's edges in every way the mask could care about
_TOKEN_EDGES = ["0x", "0X", "dead", "F", "e", "0", "5", ".", ",", " ", "\t", "\r", "\n", "/", ":", "-", "_",
                "g", "x", "+", "[", "]", "<*>", "…", "E", "0000-0000", "h:0:0 ", "0.0.0.0"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_TOKEN_EDGES), max_size=12).map("".join), min_size=1, max_size=40))
def test_collapsing_hex_tokens_keeps_the_mask(keys):
    got = pl.Series(keys, dtype=pl.String)
    assert mask(_same_mask(got)).to_list() == mask(got).to_list()


def test_templates_of_parser_examples_equal_the_mask_of_their_shape(monkeypatch):
    monkeypatch.setattr(templates_module, "_MEMO", ShapeMemo())
    lines = pl.Series([ex for p in PATTERNS for ex in p.examples] * 2)
    shapes, codes = digit_shapes(lines)
    expected = mask(_key(shapes)).gather(codes).to_list()
    assert templates(lines).to_list() == expected
    assert templates(lines).to_list() == expected  # the second time from the memo


def test_templates_leave_their_arguments_alone():
    # (Polars' scatter writes in place: a key built by one once overwrote the shapes)
    messages = pl.Series(["step 1 loss 2", "Traceback (most recent call last):\n  x\nValueError: 3", "a 0x7f"])
    shapes, codes = digit_shapes(messages)
    before = (messages.to_list(), shapes.to_list(), codes.to_list())
    got = templates(messages, shapes, codes)
    assert (messages.to_list(), shapes.to_list(), codes.to_list()) == before
    assert got.cast(pl.String).to_list() == ["step <*> loss <*>", "Traceback (most recent call last): … ValueError: <*>",
                                             "a <*>"]


def test_fold_flags_regexes_are_digit_invariant():
    for regex in (fold._CONTINUATION_SHAPES, fold._INDENTED_BUT_OWN, fold._EXCEPTION_LINE, fold._BLOCK_OPENERS):
        assert digit_invariant(regex), regex


# NCCL's header gives attr host (docs/formats/nccl.md); the logging line, logger
_WITH_HOST = "node-01:986207:986207 NCCL CALL ncclGroupStart()"
_LOGGING = "2024-05-01 12:00:00,123 - INFO - train - step 3 loss 2.5"


@pytest.mark.parametrize("repeat", [1, 50])  # few rows: matched line by line; many: per shape
def test_extras_are_appended_after_the_parsers_own_attrs_and_lose_to_them(repeat):
    messages = [_WITH_HOST, "no attrs here", _LOGGING, "plain text"] * repeat
    host = ["node-1", None, "node-2", "node-3"] * repeat
    glued = [False, True, False, None] * repeat
    n = len(messages)
    ev = pl.DataFrame({
        "message": messages, "ts": pl.Series([None] * n, dtype=pl.Datetime("us", "UTC")),
        "ts_format": pl.Series([None] * n, dtype=pl.Utf8), "stream": [""] * n,
        **{c: pl.Series([None] * n, dtype=pl.Int32) for c in ("rank", "local_rank", "pid")},
        "host": host, "glued": pl.Series(glued, dtype=pl.Boolean),
    })
    own = classify.classify(ev)["attrs"].to_list()
    got = classify.classify(ev, extra_attrs={"host": "host", "glued": "glued_after_progress_bar"})["attrs"].to_list()
    assert any(a["key"] == "host" for a in own[0]) and own[1] == [] and own[2] and own[3] == []
    for i in range(0, n, 4):
        assert got[i] == own[i]  # the parser's host wins over the extra
        assert got[i + 1] == [{"key": "glued_after_progress_bar", "value": "true"}]
        assert got[i + 2] == [*own[i + 2], {"key": "host", "value": "node-2"}]
        assert got[i + 3] == [{"key": "host", "value": "node-3"}]
    nothing = ev.with_columns(host=None, glued=False)
    assert classify.classify(nothing, extra_attrs={"host": "host", "glued": "g"})["attrs"].to_list() == own


def test_shape_memo_computes_only_new_shapes_and_starts_again_past_its_limit():
    seen: list[list[str]] = []

    def lengths(shapes: pl.Series) -> pl.DataFrame:
        seen.append(shapes.to_list())
        return pl.DataFrame({"n": shapes.str.len_bytes(), "odd": shapes.str.len_bytes() % 2 == 1})

    memo = ShapeMemo(limit=3)
    assert memo.answer(pl.Series(["a", "bb"]), lengths)["n"].to_list() == [1, 2]
    assert memo.answer(pl.Series(["bb", "ccc", "a"]), lengths)["n"].to_list() == [2, 3, 1]
    assert seen[-1] == ["ccc"]  # the others were known
    # past the limit the memo holds only the latest answers, and still answers right
    assert memo.answer(pl.Series(["dddd", "a"]), lengths)["n"].to_list() == [4, 1]
    assert memo.table is not None and memo.table.height == 1
    # answers that are not to be remembered are computed every time
    memo = ShapeMemo()
    for _ in range(2):
        assert memo.answer(pl.Series(["a", "bb"]), lengths, remember=pl.col("odd"))["n"].to_list() == [1, 2]
    assert seen[-1] == ["bb"]
