"""Progress bars on the terminal for the long steps, and nothing anywhere else.

The steps (discovery, parse, stage 2, analysis, report, batch) open a ``step``
and advance it; whether anything is drawn is decided once, by the command line
(``configure``): a bar appears only when stderr is a terminal and ``--quiet`` was
not given, never on stdout, and nothing at all is written when stderr is piped
or redirected. A library caller that never calls ``configure`` gets no bars.

``CORRELATOR_PROGRESS`` overrides the terminal test: ``always`` draws even when
stderr is not a terminal and from the first moment (for tests, and for a CI log
that wants them), ``never`` draws nothing; ``auto`` (or unset) is the default.

A step draws nothing during its first ``DELAY_S`` seconds: a small job's analyze
(0.3-0.5 s) finishes before any bar, so it prints exactly what it did before and
does not even import the bar library. A step that outlives the delay gets its
bar from a timer thread, which also redraws it while the step makes no countable
progress (stage 2, the analysis: one DuckDB call each), so its clock keeps moving.

Why tqdm and not rich: a bar is all that is wanted, and tqdm is one small
package with no dependencies of its own, importing in ~25 ms, where
``rich.progress`` brings pygments and markdown-it-py along and imports in
30-45 ms on the development VM; and the latency this module must not add back is
what the lazy imports just removed. tqdm also degrades on a dumb terminal by
itself. It is imported only when a bar is actually drawn; if it is missing
(an old install), the steps run without bars.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TextIO

ENV = "CORRELATOR_PROGRESS"
DELAY_S = 0.5  # before a step's bar appears (auto mode)
REFRESH_S = 0.5  # redraw of a bar that has not advanced


@dataclass
class _Config:
    stream: TextIO | None = None  # None: draw nothing
    delay: float = DELAY_S
    quiet: bool = False


_config = _Config()


def configure(*, quiet: bool = False, stream: TextIO | None = None) -> bool:
    """Decide once per command whether bars are drawn (on ``stream``, default the
    real stderr); returns whether they are."""
    stream = stream if stream is not None else sys.__stderr__
    mode = os.environ.get(ENV, "auto").strip().lower()
    _config.quiet = quiet
    _config.delay = DELAY_S
    if quiet or mode == "never" or stream is None:
        _config.stream = None
    elif mode == "always":
        _config.stream, _config.delay = stream, 0.0
    else:
        _config.stream = stream if _isatty(stream) else None
    return _config.stream is not None


def bars_off() -> None:
    """No bars from here on, whatever ``configure`` decided (a command that draws its
    own live status line: ``watch``); ``quiet`` stays as it was."""
    _config.stream = None


def reset() -> None:
    """Back to the library default: no bars (tests)."""
    _config.stream, _config.delay, _config.quiet = None, DELAY_S, False


def enabled() -> bool:
    """Whether steps draw bars now."""
    return _config.stream is not None


def quiet() -> bool:
    """Whether the user asked for nothing but the result (``--quiet``)."""
    return _config.quiet


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed, or not a real stream
        return False


class AboveBars:
    """A text stream (stderr) whose writes appear above the bars: a warning printed
    mid-step clears the bar's line first, and the bar is drawn again below it."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, s: str) -> int:
        shown = [b.shown for b in list(_open_bars) if b.shown is not None]
        if not shown:
            return self._stream.write(s)
        from tqdm import tqdm

        with tqdm.external_write_mode(file=_config.stream):
            self._stream.write(s)
            self._stream.flush()
        return len(s)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


_open_bars: set[_Bar] = set()


class Step:
    """One step's count; ``advance`` is cheap and safe from any thread."""

    def advance(self, n: int = 1) -> None:
        """``n`` more units done."""

    def add_total(self, n: int) -> None:
        """``n`` more units to do (a total learned as the step goes)."""


_OFF = Step()  # what a step is when nothing is drawn


@contextmanager
def step(name: str, *, total: int | None = None, unit: str = "", scale: bool = False) -> Iterator[Step]:
    """A step of the command: ``with step("parse", total=n_bytes, unit="B", scale=True) as s: s.advance(k)``.

    ``unit`` names what is counted (``files``, ``jobs``; ``B`` with ``scale`` for
    bytes shown as kB / MB); without ``total`` the bar shows a count and a clock.
    """
    stream = _config.stream
    if stream is None:
        yield _OFF
        return
    bar = _Bar(name, total, unit, scale, stream, _config.delay)
    _open_bars.add(bar)
    try:
        yield bar
    finally:
        _open_bars.discard(bar)
        bar.close()


class _Bar(Step):
    def __init__(self, name: str, total: int | None, unit: str, scale: bool, stream: TextIO, delay: float) -> None:
        self.name, self.total, self.unit, self.scale, self.stream = name, total, unit, scale, stream
        self.n = 0
        self.started = time.time()
        self.shown: Any = None  # the tqdm bar, once drawn
        self.closed = False
        self.lock = threading.Lock()
        self.timer: threading.Timer | None = None
        if delay <= 0:
            self._tick()
        else:
            self._schedule(delay)

    def _schedule(self, after: float) -> None:
        self.timer = threading.Timer(after, self._tick)
        self.timer.daemon = True  # never holds the command open
        self.timer.start()

    def _tick(self) -> None:
        with self.lock:
            if self.closed:
                return
            if self.shown is None:
                self.shown = _draw(self)
                if self.shown is None:  # no tqdm: stay silent
                    return
            else:
                self.shown.refresh()
        self._schedule(REFRESH_S)

    def advance(self, n: int = 1) -> None:
        with self.lock:
            self.n += n
            if self.shown is not None:
                self.shown.update(n)

    def add_total(self, n: int) -> None:
        with self.lock:
            self.total = (self.total or 0) + n
            if self.shown is not None:
                self.shown.total = self.total
                self.shown.refresh()

    def close(self) -> None:
        with self.lock:
            self.closed = True
            if self.timer is not None:
                self.timer.cancel()
            if self.shown is not None:
                self.shown.refresh()  # the final count, before the line is cleared
                self.shown.close()


def _draw(bar: _Bar) -> Any:
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    # a step with no total is a count (files found) or only a clock (stage 2)
    fmt = None if bar.total else ("{desc}: {n_fmt} {unit} [{elapsed}]" if bar.unit else "{desc} [{elapsed}]")
    shown = tqdm(total=bar.total, initial=bar.n, desc=bar.name, unit=bar.unit or "it", unit_scale=bar.scale,
                 file=bar.stream, leave=False, dynamic_ncols=True, mininterval=0.1, bar_format=fmt)
    shown.start_t = bar.started  # the clock counts from the step's start, not the bar's
    shown.refresh()
    return shown
