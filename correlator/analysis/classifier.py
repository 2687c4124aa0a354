"""The general classifier: a category for the failures no rule names.

Most failures a user meets have no rule. What the software says about them is
enough to place most in the category vocabulary: the exception's type, its
``errno``, which package and function raised it (the stack), and whether it
happened before the first training step. The entries live as data in
``rules/general/classifier.yaml`` (a file whose top-level key is
``classifier:``; users may add their own in their rule directories, tried
before the built-in ones), each with the basis it rests on and example events.

Only a failure's few evidence events reach this module, so it reads text in
Python; nothing here runs per line of a log.
"""

from __future__ import annotations

import errno as errno_mod
import os
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from correlator.verdict import Category

Basis = Literal["exception_type", "errno", "stack", "phase", "message"]
Phase = Literal["before_training", "during_training"]

# "ValueError: ...", "torch.OutOfMemoryError: ...", "[rank3]: KeyError: 'x'", a bare
# "KeyboardInterrupt"; launcher and logging prefixes before it are skipped.
_EXC_LINE = re.compile(
    r"^(?:\s*\[[^\]]*\]:?)*\s*(?:\S+ - [A-Z]+ - \S+ - )?"
    r"(?P<type>(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Interrupt|Exit|Failure|Timeout)\w*|MemoryError|"
    r"Exception|KeyboardInterrupt|StopIteration|SystemExit|SignalException|ChildFailedError))"
    r"(?::\s?(?P<msg>.*))?$",
    re.M,
)
_FRAME = re.compile(r'^\s*(?:\[[^\]]*\]:?)*\s*File "(?P<path>[^"]+)", line \d+, in (?P<func>\S+)', re.M)
_ERRNO_NUM = re.compile(r"\[Errno (\d+)\]|errno[ =:]+(\d+)", re.I)
_ERRNO_NAME = re.compile(r"\b(E[A-Z]{2,12})\b")


@cache
def _strerrors() -> dict[str, str]:
    """strerror text -> errno name ("No space left on device" -> "ENOSPC")."""
    out = {}
    for num, name in errno_mod.errorcode.items():
        text = os.strerror(num)
        if text and not text.startswith("Unknown error"):
            out.setdefault(text, name)
    return out


@dataclass
class FailureFacts:
    """What an error event says about itself."""

    exceptions: list[tuple[str, str]] = field(default_factory=list)  # (type, message), outermost last
    errnos: set[str] = field(default_factory=set)
    frames: list[str] = field(default_factory=list)  # "path:function", innermost last
    text: str = ""

    @property
    def exception_type(self) -> str | None:
        return self.exceptions[-1][0] if self.exceptions else None


# where an exception's message ends: a blank line, a new traceback or frame, the chaining
# separators, or the next exception line
_MESSAGE_END = re.compile(
    r"^(?:\s*\[[^\]]*\]:?)*\s*(?:$|Traceback \(most recent call last\)|File \"|During handling of|"
    r"The above exception was)"
)
_MAX_CONTINUATION = 8


def _continuation(text: str, end: int) -> str:
    """The lines of a multi-line exception message after its first (Python prints
    ``str(exc)`` verbatim: ``AssertionError:`` alone, then "The NVIDIA driver on your
    system is too old" on the next line), joined with spaces."""
    out: list[str] = []
    for line in text[end:].split("\n")[1:_MAX_CONTINUATION + 1]:
        if not line.strip() and out and out[-1].endswith(":"):
            continue  # a line that ends in ":" announces the rest below its blank line
        if _MESSAGE_END.match(line) or _EXC_LINE.match(line):
            break
        out.append(line.strip())
    return " ".join(out)


def facts_of(text: str) -> FailureFacts:
    """Exception types and messages, errno and stack frames read from an event's text."""
    facts = FailureFacts(text=text)
    for m in _EXC_LINE.finditer(text):
        msg = (m.group("msg") or "").strip()
        more = _continuation(text, m.end())
        facts.exceptions.append((m.group("type"), f"{msg} {more}".strip() if more else msg))
    facts.frames = [f"{m.group('path')}:{m.group('func')}" for m in _FRAME.finditer(text)]
    for m in _ERRNO_NUM.finditer(text):
        num = int(m.group(1) or m.group(2))
        if num in errno_mod.errorcode:
            facts.errnos.add(errno_mod.errorcode[num])
    for text_, name in _strerrors().items():
        if text_ in text:
            facts.errnos.add(name)
    facts.errnos |= {n for n in _ERRNO_NAME.findall(text) if n in errno_mod.__dict__}
    return facts


class ClassEntry(BaseModel):
    """One entry of the classifier: conditions that must all hold, and the category."""

    model_config = ConfigDict(extra="forbid")

    id: str
    category: Category
    basis: list[Basis] = Field(min_length=1)
    why: str
    exception: list[str] = Field(default_factory=list)
    errno: list[str] = Field(default_factory=list)
    message: str | None = None
    frame: str | None = None
    raised_in: str | None = None
    phase: Phase | None = None
    external: bool = False  # the process was stopped from outside (a signal), not by its own fault
    echo: bool = False  # a wait that ran out or a peer that vanished: the culprit is elsewhere
    examples: list[str] = Field(default_factory=list)
    near_misses: list[str] = Field(default_factory=list)

    @field_validator("errno")
    @classmethod
    def _known_errno(cls, names: list[str]) -> list[str]:
        unknown = [n for n in names if n not in errno_mod.__dict__]
        if unknown:
            raise ValueError(f"unknown errno names: {unknown}")
        return names

    @field_validator("message", "frame", "raised_in")
    @classmethod
    def _compiles(cls, rx: str | None) -> str | None:
        if rx is not None:
            re.compile(rx)
        return rx

    def matches(self, facts: FailureFacts, phase: Phase | None) -> bool:
        if self.exception and "*" not in self.exception:
            names = {t.rsplit(".", 1)[-1] for t, _ in facts.exceptions}
            if not names & set(self.exception):
                return False
        elif self.exception and not facts.exceptions:
            return False
        if self.errno and not facts.errnos & set(self.errno):
            return False
        if self.message is not None:
            said = "\n".join(f"{t}: {m}" for t, m in facts.exceptions) or facts.text
            if not re.search(self.message, said):
                return False
        if self.frame is not None and not any(re.search(self.frame, f) for f in facts.frames):
            return False
        if self.raised_in is not None and not (facts.frames and re.search(self.raised_in, facts.frames[-1])):
            return False
        return self.phase is None or self.phase == phase


@dataclass
class Classification:
    entry: ClassEntry
    facts: FailureFacts
    phase: Phase | None

    @property
    def category(self) -> str:
        return self.entry.category

    @property
    def by_meaning(self) -> bool:
        """Placed by what the error says (its message or errno), and not as a wait or a lost
        peer: as sure a reading as a rule's signature."""
        return not self.entry.echo and bool({"message", "errno"} & set(self.entry.basis))

    def basis_text(self) -> str:
        """What the decision rested on, in words."""
        said = []
        for b in self.entry.basis:
            if b == "exception_type" and self.facts.exception_type:
                said.append(f"exception type {self.facts.exception_type}")
            elif b == "errno" and self.facts.errnos:
                said.append("errno " + ", ".join(sorted(self.facts.errnos & set(self.entry.errno or self.facts.errnos))))
            elif b == "stack" and self.facts.frames:
                rx = self.entry.raised_in or self.entry.frame
                hit = next((f for f in reversed(self.facts.frames) if rx and re.search(rx, f)), self.facts.frames[-1])
                said.append(f"raised in {hit}")
            elif b == "phase" and self.phase:
                said.append(self.phase.replace("_", " "))
            elif b == "message":
                said.append("the error message")
        return "; ".join(said) or self.entry.basis[0]


class ClassifierFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    classifier: list[ClassEntry]


def builtin_classifier_path() -> Path:
    return Path(str(resources.files("rules"))) / "general" / "classifier.yaml"


def is_classifier_doc(data: object) -> bool:
    return isinstance(data, dict) and "classifier" in data


def load_classifier(dirs: tuple[Path, ...] = (), *, builtin: bool = True) -> list[ClassEntry]:
    """The users' entries (from any ``classifier:`` file in their rule dirs) first, then the built-in ones."""
    entries: list[ClassEntry] = []
    for d in dirs:
        files = [d] if d.is_file() else sorted([*d.rglob("*.yaml"), *d.rglob("*.yml")])
        for f in files:
            data = yaml.safe_load(f.read_text())
            if is_classifier_doc(data):
                entries.extend(ClassifierFile.model_validate(data).classifier)
    if builtin:
        entries.extend(_builtin())
    return entries


@cache
def _builtin() -> tuple[ClassEntry, ...]:
    from correlator.analysis import rulecache
    from correlator.verdict import __file__ as verdict_file

    def build() -> tuple[ClassEntry, ...]:
        data = yaml.safe_load(builtin_classifier_path().read_text())
        return tuple(ClassifierFile.model_validate(data).classifier)

    # cached on disk like the rulebook: parsing the YAML was a tenth of a small job's analyze
    return rulecache.cached("classifier", [builtin_classifier_path()], (__file__, verdict_file), build)


def classify_failure(text: str, phase: Phase | None, entries: list[ClassEntry] | None = None) -> Classification | None:
    """The first entry that places this failure, or None (no exception, no errno, nothing known)."""
    facts = facts_of(text)
    for entry in entries if entries is not None else _builtin():
        if entry.matches(facts, phase):
            return Classification(entry, facts, phase)
    return None


def check_classifier(dirs: tuple[Path, ...] = (), *, builtin: bool = True) -> list:
    """Each entry's examples are placed by it (in the order entries are tried), and
    none of its near misses is; as ``rulebook.ExampleResult`` rows."""
    from correlator.analysis.rulebook import ExampleResult

    entries = load_classifier(dirs, builtin=builtin)
    where = Path("general/classifier.yaml")
    out = []
    for e in entries:
        for expected, texts in ((True, e.examples), (False, e.near_misses)):
            for text in texts:
                c = classify_failure(text, e.phase or "during_training", entries)
                out.append(ExampleResult(f"classifier/{e.id}", where, text, expected, c is not None and c.entry.id == e.id))
    return out
