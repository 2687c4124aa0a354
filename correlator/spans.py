"""Rank lists for humans: [0, 1, 2, 5] -> "0-2,5"."""

from __future__ import annotations

from collections.abc import Iterable


def ranges(xs: Iterable[int]) -> str:
    """[0, 1, 2, 5] -> '0-2,5'."""
    out: list[str] = []
    start = prev = None
    for x in sorted(set(xs)):
        if start is None:
            start = prev = x
        elif x == prev + 1:
            prev = x
        else:
            out.append(str(start) if start == prev else f"{start}-{prev}")
            start = prev = x
    if start is not None:
        out.append(str(start) if start == prev else f"{start}-{prev}")
    return ",".join(out)
