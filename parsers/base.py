"""What a parser is: declarations, not code.

A parser module declares ``SOURCE`` and a tuple of ``Pattern``s. The engine
(``correlator.ingest.classify``) applies every pattern to whole columns at once:

1. one Aho-Corasick pass finds, for every event, which ``triggers`` (plain
   substrings) occur in it;
2. each pattern's regex then runs only on the events that contain one of its
   triggers, and its named groups become ``attrs``;
3. the first matching pattern (in registry order) names the event's ``kind``,
   and may set its ``source`` and ``level``.

So a pattern costs nothing on lines that cannot match it, and adding a log
format means adding a declaration, like lnav's format files.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

# Column names the engine uses while merging attrs; a group may not be called so.
RESERVED_GROUPS = frozenset({"row", "key", "value", "pat", "envelope", "kind", "source", "level", "__whole_match"})


@dataclass(frozen=True)
class Pattern:
    name: str  # "<source>.<what>", becomes the event's ``kind``
    triggers: tuple[str, ...]  # literal substrings; the regex only runs where one occurs
    regex: str | None = None  # Rust-regex syntax; named groups -> attrs
    source: str | None = None  # sets the event's source when this pattern matches
    level: str | None = None  # sets the event's level when this pattern matches
    # attrs copied into event columns when the column is still null
    # (e.g. {"pid": "pid"}); never used for numbers that only look like a rank
    fills: dict[str, str] = field(default_factory=dict)
    # An envelope recognises a line's *shape* (a NCCL header, a logging prefix, a
    # traceback) rather than what it says; any other matching pattern names the
    # event's kind before an envelope does (the OOM line beats its traceback).
    envelope: bool = False
    # Block parsers (tables, -q dumps, collect_env): a function from the event's
    # message to attrs, run only on the few events this pattern matched.
    post: Callable[[str], dict[str, str]] | None = None
    examples: tuple[str, ...] = ()  # real lines that must match (tested)
    near_misses: tuple[str, ...] = ()  # lines that must not match (tested)

    def __post_init__(self) -> None:
        if not self.triggers:
            raise ValueError(f"pattern {self.name}: at least one trigger is required")
        if self.regex is None and self.fills:
            raise ValueError(f"pattern {self.name}: fills need a regex")
        if self.regex is not None:
            clash = set(re.findall(r"\(\?P?<([A-Za-z_]\w*)>", self.regex)) & RESERVED_GROUPS
            if clash:
                raise ValueError(f"pattern {self.name}: group names {sorted(clash)} are reserved")
            if self.regex.startswith("(?i)"):
                # the regex ignores case, so its triggers must too: "Training Completed" in a
                # banner is the same news as the "Training completed" the trigger was written from
                object.__setattr__(self, "triggers", case_variants(self.triggers))


def case_variants(triggers: tuple[str, ...]) -> tuple[str, ...]:
    """Each trigger as written, in lower case, in upper case, capitalised, and with every word
    capitalised: the spellings a case-blind regex meets in logs (the literal scan has no
    case-blind mode that costs nothing)."""
    out: dict[str, None] = {}
    for t in triggers:
        for v in (t, t.lower(), t.upper(), t[:1].upper() + t[1:], _WORD_START.sub(lambda m: m.group().upper(), t)):
            out[v] = None
    return tuple(out)


_WORD_START = re.compile(r"\b[a-z]")


# Level words as the sources print them -> the timeline's vocabulary.
LEVEL_WORDS = {
    "DEBUG": "DEBUG", "V": "DEBUG", "TRACE": "DEBUG", "D": "DEBUG",
    "INFO": "INFO", "I": "INFO", "CALL": "DEBUG",
    "WARNING": "WARNING", "WARN": "WARNING", "W": "WARNING",
    "ERROR": "ERROR", "E": "ERROR", "ERR": "ERROR",
    "CRITICAL": "CRITICAL", "FATAL": "CRITICAL", "F": "CRITICAL", "C": "CRITICAL",
    "emerg": "CRITICAL", "alert": "CRITICAL", "crit": "CRITICAL", "err": "ERROR",
    "warn": "WARNING", "notice": "INFO", "info": "INFO", "debug": "DEBUG",
}
