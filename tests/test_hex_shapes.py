"""Hex shapes: NCCL's comm lines matched by shape despite their pointers."""

from __future__ import annotations

import random
import re

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from correlator.ingest import classify
from correlator.ingest.classify import _finish, _hex_safe, _match_rows, match_messages
from correlator.ingest.hex_shapes import _hex_shape, hex_shape_safe, hex_shapes, token_safe_literal
from correlator.timeline.shapes import ShapeMemo, digit_shapes, shape_of
from parsers import PATTERNS

# verbatim shape of NCCL's init line (docs/formats/nccl.md): host:pid:tid [dev] NCCL INFO comm ...
_COMM = ("gpu-node-00:44249:44336 [3] NCCL INFO comm 0x55d26ea5f0c0 rank 3 nranks 64 cudaDev 3 nvmlDev 3 "
         "busId 5d000 commId 0xdf5a60eccdeb112f - Init START")


@pytest.mark.parametrize(
    ("regex", "safe"),
    [
        (r"comm (?P<comm>0x[0-9a-fA-F.]+) rank (?P<rank>\d+)", True),  # 0x after a space: a token's own
        (r"rank (?P<r>\d+)", True),  # \d after a space never reaches into a token
        (r"(?P<n>\d+) rank", False),  # \d+ may start inside a token and stop at its first letter
        (r"[a-f]+", False),  # tells hex digits apart, anywhere
        (r"x(?P<h>[0-9a-f]+)", False),  # right after an x: a token's digits, lower case only
        (r"x(?P<h>[0-9a-fA-F]+)", True),
        (r"comm", True),  # its c is followed by o: never inside a token
        (r" ab ", True),  # a token digit comes after an x or another hex digit, not a space
        (r"ab", False),
        (r"\w+", True),
        (r"0", False),  # a digit literal, not a token's 0x
        (r"0x", True),
        (r"(?i)comm", False),  # case folding is not reasoned about
        (r"(a)\1", False),  # nor back-references
    ],
)
def test_hex_shape_safety(regex, safe):
    assert hex_shape_safe(regex) is safe


def test_triggers_cannot_fall_on_a_token_digit():
    # the hex path searches hex shapes for the parsers' triggers: sound only if this holds
    assert all(token_safe_literal(t) for p in PATTERNS for t in p.triggers)
    assert classify._hex_path()
    assert not token_safe_literal("dead")  # could be 0xdead's digits
    assert not token_safe_literal("x12 ")
    assert token_safe_literal("- Init COMPLETE")


def test_the_nccl_comm_patterns_run_on_hex_shapes():
    comm = [i for i, p in enumerate(PATTERNS) if p.regex and "(?P<comm>0x" in p.regex]
    assert comm and all(_hex_safe(i) for i in comm)


def _random_tokens(line: str, rng: random.Random) -> str:
    """Each 0x token's digits redrawn, sometimes one longer or shorter."""
    def redraw(m: re.Match) -> str:
        n = max(1, len(m.group(1)) + rng.choice((-1, 0, 0, 0, 1)))
        return "0x" + "".join(rng.choice("0123456789abcdefABCDEF") for _ in range(n))
    return re.sub(r"(?<![0-9A-Za-z_])0x([0-9a-fA-F]+)(?![0-9A-Za-z_])", redraw, line)


_LINE_CHARS = st.sampled_from([*"0x0x 19afAF:-[]()gxz_.,", "comm ", " rank ", "0x", " - Init COMPLETE", "é"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE_CHARS, max_size=30).map("".join), st.randoms(use_true_random=False))
def test_safe_patterns_match_a_line_and_its_hex_shape_alike(noise, rng):
    """The claim under the hex path: for every pattern judged safe, Python's re finds
    the same match, every group at the same place, on a line and on its hex shape
    (lines holding a digit other than 0 before an x are not given hex shapes)."""
    examples = [ex for p in PATTERNS for ex in p.examples]
    line = _random_tokens(rng.choice(examples), rng)
    at = rng.randrange(len(line) + 1)
    for text in (line, line[:at] + noise + line[at:], noise):
        if re.search(r"[1-9]x", text):
            continue
        hexed = _hex_shape(shape_of(text))
        assert len(hexed) == len(text)
        for i, p in enumerate(PATTERNS):
            if not p.regex or not _hex_safe(i):
                continue
            a, b = re.search(p.regex, text), re.search(p.regex, hexed)
            assert (a is None) == (b is None), (p.regex, text, hexed)
            if a is not None:
                assert a.regs == b.regs, (p.regex, text, hexed)


_ADVERSARIAL = [
    r"(?P<n>\d+) rank", r"[a-f]+", r"x(?P<h>[0-9a-f]+)", r"x(?P<h>[0-9a-fA-F]+)", r"ab", r" ab ", r"\w+ rank",
    r"(?P<a>[0-9a-fA-F]+)(?P<b>[a-f]*)", r"(?:0x)?(?P<v>\d+)", r"comm (?P<c>0x[0-9a-fA-F]+)", r"(?P<t>\S+)$",
    r"^(?P<h>[^:]+):(?P<p>\d+)", r"[^a]+", r"(?P<d>\d)(?P<e>[0-9a-fA-F])", r"\bx\d",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINE_CHARS, max_size=24).map("".join))
def test_regexes_judged_safe_match_a_line_and_its_hex_shape_alike(text):
    """The same claim for regexes written to fall into tokens: the ones judged safe
    must agree on any line (the others would not, on lines like these)."""
    if re.search(r"[1-9]x", text):
        return
    hexed = _hex_shape(shape_of(text))
    for regex in _ADVERSARIAL:
        if hex_shape_safe(regex):
            a, b = re.search(regex, text), re.search(regex, hexed)
            assert (a is None) == (b is None) and (a is None or a.regs == b.regs), (regex, text, hexed)


def test_hex_shapes_group_rows_by_their_hex_shape():
    rng = random.Random(3)
    lines = [_random_tokens(_COMM, rng) for _ in range(40)] + [_COMM.replace("comm 0x", "comm 5x")]
    texts = pl.Series("m", lines)
    shapes, codes = digit_shapes(texts)
    rows, hexed, hcodes = hex_shapes(texts, shapes.gather(codes))
    assert rows.to_list() == list(range(40))  # the 5x line is left out
    want = [_hex_shape(shape_of(t)) for t in lines[:40]]
    assert hexed.gather(hcodes).to_list() == want
    assert hexed.n_unique() == hexed.len() < 10  # token lengths vary a little: a few shapes


@pytest.mark.parametrize("min_rows", [1, 1 << 30])
def test_matching_by_hex_shape_equals_matching_each_line(monkeypatch, min_rows):
    """Every parser example, with other digits and other hex tokens, classified by
    shape (the unsure ones by hex shape) and line by line."""
    monkeypatch.setattr(classify, "_HEX_MIN_ROWS", min_rows)
    monkeypatch.setattr(classify, "_MEMO", ShapeMemo())
    monkeypatch.setattr(classify, "_HEX_MEMO", ShapeMemo())
    rng = random.Random(17)
    examples = [ex for p in PATTERNS for ex in p.examples]
    lines = examples + [_random_tokens(ex, rng) for ex in examples for _ in range(4)]
    lines += [_random_tokens(_COMM, rng) for _ in range(50)] + [_COMM.replace("0x55", "7x55")]
    msg = pl.Series("message", lines)
    direct = _finish(_match_rows(msg, shaped=False)).drop("row")
    for _ in range(2):  # the second time, hex shapes' answers come from their memo
        by_shape = match_messages(msg)
        for col in direct.columns:
            assert by_shape[col].to_list() == direct[col].to_list(), col
    if min_rows == 1:
        assert classify._HEX_MEMO.table is not None and classify._HEX_MEMO.table.height > 0
