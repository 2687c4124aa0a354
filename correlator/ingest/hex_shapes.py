"""Hex shapes: digit shapes that also write the digits of ``0x`` tokens as ``0``.

NCCL prints a communicator's address on each of its init and destroy lines
(``comm 0x55d26ea5f0c0 ... commId 0xdf5a60eccdeb112f``), so every such line is a
digit shape of its own and was matched line by line (~3,400 lines, 7-10% of a
rank log's parse time). Written with its token digits as ``0`` too, a rank's
lines are a handful of shapes. Like a digit shape, a hex shape keeps every
character where it was, so values are still cut out of each line by position.

A **token** is ``0x`` and the longest run of hex digits after it, with no ASCII
word character (``[0-9A-Za-z_]``) right before the ``0`` or right after the run.
A regex gives the same match, groups at the same positions, on a line and on its
hex shape when (``hex_shape_safe``):

- it treats all ten digits alike (as for digit shapes), except a literal ``0``
  that only a literal ``x`` may follow, which matches the same ``0x`` in both as
  long as the line holds no other digit before an ``x`` (``hex_shapes`` leaves
  such lines out);
- every part of it that might read a token's digit accepts all 22 hex digits.
  A token digit comes after an ``x`` or another hex digit and before a hex digit,
  a non-word character or the end; so a part may read one only if the part
  before it (or none: the match may start anywhere) may read a hex digit or an
  ``x``, and the part after it (or none) may read a hex digit or a non-word
  character. ``comm `` cannot reach into a token: its ``c`` is followed by ``o``.

Parser triggers are looked for on shapes too; ``token_safe_literal`` checks that
no character of one can fall on a token's digit (every trigger is; a test says so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import polars as pl
import pyarrow.compute as pc

from correlator.timeline.shapes import map_ascii

__all__ = ["hex_shape_safe", "hex_shapes", "token_safe_literal"]

_HEX = frozenset(map(ord, "0123456789abcdefABCDEF"))
_DIGIT = frozenset(range(ord("0"), ord("9") + 1))
_WORD = frozenset(map(ord, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"))
_ASCII = frozenset(range(128))
_X, _ZERO = ord("x"), ord("0")

# A token in a shape (its digits already 0-9): its run of hex digits, with the
# characters around it (consumed, so that Polars' regex needs no look-around).
_TOKEN = r"(^|[^0-9A-Za-z_])0x([0-9a-fA-F]+)($|[^0-9A-Za-z_])"
_TOKEN_PY = re.compile(r"(?<![0-9A-Za-z_])0x([0-9a-fA-F]+)(?![0-9A-Za-z_])")
_B = pl.col("b")
_LETTERS_AS_ZERO = (
    pl.when(_B.is_between(ord("a"), ord("f")) | _B.is_between(ord("A"), ord("F")))
    .then(pl.lit(ord("0"), pl.UInt8)).otherwise(_B)
)


def token_safe_literal(text: str) -> bool:
    """Can no character of ``text``, found anywhere in a line, be a token's digit?"""
    codes = [ord(ch) for ch in text]
    for j, ch in enumerate(codes):
        if ch not in _HEX:
            continue
        k = j - 1  # left: hex digits back to an x (or the start) could be a token
        while k >= 0 and codes[k] in _HEX:
            k -= 1
        left = k < 0 or codes[k] == _X
        k = j + 1  # right: hex digits up to a non-word character (or the end)
        while k < len(codes) and codes[k] in _HEX:
            k += 1
        right = k == len(codes) or codes[k] not in _WORD
        if left and right:
            return False
    return True


@dataclass
class _Atom:
    """One character-reading part of a regex: the ASCII characters it accepts, and
    whether it accepts any other."""

    accepts: frozenset[int]
    other: bool
    literal: int | None = None
    follow: set[int] = field(default_factory=set)


class _Unsupported(Exception):
    pass


def _class_accepts(items: list) -> tuple[frozenset[int], bool]:
    import re._constants as c

    negate = bool(items) and items[0][0] is c.NEGATE
    got: set[int] = set()
    other = False
    for op, av in items[1:] if negate else items:
        if op is c.LITERAL:
            if av < 128:
                got.add(av)
            else:
                other = True
        elif op is c.RANGE:
            lo, hi = av
            got.update(range(lo, min(hi, 127) + 1))
            other = other or hi >= 128
        elif op is c.CATEGORY:
            name = str(av).lower()
            if "not_" in name:  # \D \W \S: everything but a few, non-ASCII included
                base = _DIGIT if "digit" in name else _WORD if "word" in name else frozenset(b" \t\n\r\f\v")
                got.update(_ASCII - base)
                other = True
            elif "digit" in name:
                got.update(_DIGIT)
                other = True  # Unicode digits
            elif "word" in name:
                got.update(_WORD)
                other = True
            elif "space" in name:
                got.update(b" \t\n\r\f\v")
                other = True
            else:
                raise _Unsupported(name)
        else:
            raise _Unsupported(op)
    if negate:
        return frozenset(_ASCII - got), True
    return frozenset(got), other


def _glushkov(items, atoms: list[_Atom]) -> tuple[bool, set[int], set[int]]:
    """(nullable, first atoms, last atoms) of a parsed sequence; atoms and their
    follow sets are added to ``atoms``."""
    import re._constants as c

    nullable, first, last = True, set(), set()
    for op, av in items:
        if op in (c.LITERAL, c.NOT_LITERAL, c.ANY, c.IN):
            if op is c.LITERAL:
                acc, other, lit = frozenset({av}) if av < 128 else frozenset(), av >= 128, av
            elif op is c.NOT_LITERAL:
                acc, other, lit = frozenset(_ASCII - {av}), True, None
            elif op is c.ANY:
                acc, other, lit = _ASCII, True, None
            else:
                (acc, other), lit = _class_accepts(av), None
            atoms.append(_Atom(acc, other, lit))
            n, f, la = False, {len(atoms) - 1}, {len(atoms) - 1}
        elif op is c.AT:
            continue  # anchors and word boundaries read nothing (0 and a-f are all word characters)
        elif op is c.SUBPATTERN:
            if av[1] & re.IGNORECASE:
                raise _Unsupported("ignorecase")
            n, f, la = _glushkov(av[3], atoms)
        elif op is c.BRANCH:
            n, f, la = False, set(), set()
            for b in av[1]:
                bn, bf, bl = _glushkov(b, atoms)
                n, f, la = n or bn, f | bf, la | bl
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            lo, hi, sub = av
            n, f, la = _glushkov(sub, atoms)
            n = n or lo == 0
            if hi > 1:
                for i in la:
                    atoms[i].follow |= f
        else:  # look-around, back-references, atomic groups: not reasoned about
            raise _Unsupported(op)
        for i in last:
            atoms[i].follow |= f
        first = first | f if nullable else first
        last = la | last if n else la
        nullable = nullable and n
    return nullable, first, last


def hex_shape_safe(regex: str) -> bool:
    """Does ``regex`` match a line and its hex shape alike (see the module)?"""
    import re._parser as parser

    try:
        tree = parser.parse(regex)
        if tree.state.flags & re.IGNORECASE:
            return False
        atoms: list[_Atom] = []
        _, first, last = _glushkov(tree, atoms)
    except Exception:
        return False
    before: list[list[int]] = [[] for _ in atoms]
    for i, a in enumerate(atoms):
        for j in a.follow:
            before[j].append(i)
    for i, a in enumerate(atoms):
        digits = a.accepts & _DIGIT
        # some digits but not all: only a literal 0 that only an x follows (a token's
        # 0x), not at the end
        zero_x = a.literal == _ZERO and i not in last and bool(a.follow) and all(
            atoms[j].literal == _X for j in a.follow
        )
        if digits and digits != _DIGIT and not zero_x:
            return False
    # which parts may read a token's digit: one that may read a hex digit, where the
    # match may start or right after a part that may read the token's x or one of its
    # digits (the least fixpoint: by induction along the token), and that a part
    # reading a hex digit or a non-word character, or the match's end, may follow
    ends = [
        i in last or any(atoms[j].other or atoms[j].accepts & (_HEX | (_ASCII - _WORD)) for j in a.follow)
        for i, a in enumerate(atoms)
    ]
    reads = [False] * len(atoms)
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(atoms):
            if reads[i] or not (a.accepts & _HEX and ends[i]):
                continue
            if i in first or any(reads[j] or _X in atoms[j].accepts for j in before[i]):
                reads[i] = changed = True
    # such a part must not tell hex digits apart
    return all(a.accepts >= _HEX for i, a in enumerate(atoms) if reads[i])


def _hex_shape(shape: str) -> str:
    return _TOKEN_PY.sub(lambda m: "0x" + "0" * len(m.group(1)), shape)


def hex_shapes(texts: pl.Series, shapes: pl.Series) -> tuple[pl.Series, pl.Series, pl.Series]:
    """(rows that may be matched by hex shape, their distinct hex shapes, each such
    row's code into them) for ``texts`` and their digit ``shapes`` (one per row).

    A line holding a digit other than 0 before an ``x`` is left out: its shape's
    ``0x`` is not the line's. Rows are grouped by their shape with its tokens'
    digits replaced by a mark (what is not a token) and with every hex letter
    written 0 (where the tokens end): one group, one hex shape, computed for its
    first row.
    """
    ok = ~texts.str.contains(r"[1-9]x").fill_null(True) & shapes.is_not_null()
    rows = ok.arg_true()
    sub = shapes.gather(rows)
    key = pl.DataFrame({"s": sub, "z": map_ascii(sub, _LETTERS_AS_ZERO)}).select(
        pl.concat_str(pl.col("s").str.replace_all(_TOKEN, "${1}0x#${3}"), pl.col("z"), separator="\x00")
    ).to_series()
    # codes in order of first appearance, so each group's first row is found by one unique
    codes = pl.Series("code", pc.dictionary_encode(key.to_arrow()).indices).cast(pl.UInt32)
    firsts = pl.DataFrame({"c": codes}).with_row_index("i").unique("c", keep="first", maintain_order=True)
    hexed = pl.Series(texts.name, [_hex_shape(s) for s in sub.gather(firsts.get_column("i")).to_list()],
                      dtype=pl.String)
    return rows, hexed, codes
