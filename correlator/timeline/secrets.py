"""The secrets a timeline's text may hold, and whether it holds any.

The one list of patterns (``SECRETS``) that ``correlator.report.redact`` masks by, and
what ingest and the masking share to decide cheaply whether anything needs masking:
``ANY_SECRET`` (every pattern in one RE2 alternation), ``column_has_secret`` (a
column of a timeline, read as masking reads it) and the timeline metadata key
``SECRETS_KEY``, where ingest records whether it found any. Patterns use only what
Python's ``re``, RE2 (pyarrow) and DuckDB share: no look-around, no back-references
inside the pattern, ``\\1`` in replacements.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

MASK = "***"


@dataclass(frozen=True)
class Secret:
    name: str
    regex: str
    replacement: str  # may use \1 for the kept prefix


# Order matters: specific token shapes first, then the generic "NAME=value" forms,
# so a value is masked by the most telling rule and never half-masked twice.
#
# A hand-kept list, not a dependency: detect-secrets (the maintained Python set)
# flags lines of files for pre-commit hooks, its patterns use look-arounds that
# RE2 (pyarrow, DuckDB) cannot run, and it has no Google API key, Anthropic key
# or PEM body line. The shapes below follow its plugins and gitleaks' rules.
_B64 = r"[A-Za-z0-9+/]"
SECRETS: tuple[Secret, ...] = (
    Secret("private-key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
           "-----BEGIN PRIVATE KEY-----" + MASK + "-----END PRIVATE KEY-----"),
    # A key printed line by line (one event a line, cat'ed by a setup script): each
    # body line alone is a run of base64, of 40 characters or more or padded with "=".
    # Checked in Python: a hex digest (sha256) or a word is not one.
    Secret("pem-body-line", r"(?m)(^|[\s:>|\]\[\x22'])(" + _B64 + r"{40,}={0,2}|" + _B64 + r"{4,39}={1,2})[ \t]*$",
           r"\1" + MASK),
    Secret("slack-webhook", r"(https://hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9/_-]+",
           r"\1" + MASK),
    # https://user:pass@host, also a bare token as the user (https://ghp_x@github.com)
    # and a password alone (redis://:pw@host)
    Secret("url-credentials",
           r"\b([a-zA-Z][a-zA-Z0-9+.-]{1,15}://)(?:[^/\s:@'\"<>]+(?::[^/\s@'\"<>]*)?|:[^/\s@'\"<>]+)@",
           r"\1" + MASK + "@"),
    Secret("authorization", r"(?i)\b(authorization\s*[:=]\s*(?:bearer|basic|token|digest)?\s*)[^\s'\",;]+",
           r"\1" + MASK),
    Secret("bearer", r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}", r"\1" + MASK),
    # a JSON Web Token anywhere: header and payload are base64url JSON ("eyJ")
    Secret("jwt", r"\b(eyJ)[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*", r"\1" + MASK),
    Secret("huggingface", r"\b(hf_)[A-Za-z0-9]{20,}", r"\1" + MASK),
    Secret("github", r"\b(gh[pousr]_)[A-Za-z0-9]{20,}", r"\1" + MASK),
    Secret("github-pat", r"\b(github_pat_)[A-Za-z0-9_]{20,}", r"\1" + MASK),
    Secret("gitlab", r"\b(glpat-)[A-Za-z0-9_-]{20,}", r"\1" + MASK),
    Secret("pypi", r"\b(pypi-)AgE[A-Za-z0-9_-]{50,}", r"\1" + MASK),
    Secret("npm", r"\b(npm_)[A-Za-z0-9]{36}\b", r"\1" + MASK),
    Secret("stripe", r"\b((?:sk|rk)_(?:live|test)_)[A-Za-z0-9]{16,}", r"\1" + MASK),
    Secret("aws-access-key-id", r"\b((?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA))[A-Z0-9]{16}\b", r"\1" + MASK),
    Secret("google-api-key", r"\b(AIza)[A-Za-z0-9_-]{30,}", r"\1" + MASK),
    Secret("anthropic", r"\b(sk-ant-)[A-Za-z0-9_-]{20,}", r"\1" + MASK),
    Secret("openai", r"\b(sk-(?:proj-|svcacct-|admin-)?)[A-Za-z0-9_-]{20,}", r"\1" + MASK),
    Secret("slack", r"\b(xox[a-z]-|xapp-)[A-Za-z0-9-]{10,}", r"\1" + MASK),
    # W&B keys are 40 hex digits (self-hosted: local-<40 hex>): masked near "wandb"
    # only, since a bare 40-hex string is far more often a git commit.
    Secret("wandb", r"(?i)(wandb[^\n]{0,60}?)\b(?:local-)?[0-9a-f]{40}\b", r"\1" + MASK),
    # ~/.netrc: "machine api.wandb.ai login user password KEY"
    Secret("netrc", r"(?i)\b(machine\s+\S+\s+login\s+\S+\s+password\s+)\S+", r"\1" + MASK),
    # NAME=value / NAME: value / "NAME": "value" where NAME says it is a secret:
    # HF_TOKEN, WANDB_API_KEY, PGPASSWORD, "SecretAccessKey", "SessionToken",
    # AccountKey= (Azure), db_passwd. NAME must end in the keyword, so tokenizer=,
    # max_tokens= or eos_token_id= stay; a value without a letter (num_token=4096) stays too.
    Secret(
        "assignment",
        r"(?i)((?:\b|[_-])[A-Za-z0-9]{0,24}(?:password|passwd|secret|secret[_-]?key|api[_-]?key|apikey"
        r"|access[_-]?key|account[_-]?key|private[_-]?key|auth[_-]?token|access[_-]?token|token|credentials?)"
        r"['\"]?\s*[=:]\s*['\"]?|(?:\b|[_-])pwd['\"]?\s*[=:]\s*['\"]?|[?&]sig=)"
        r"([^\s'\",;&}{)(\]\[]*[A-Za-z_/+-][^\s'\",;&}{)(\]\[]*)",
        r"\1" + MASK,
    ),
    # command-line flags: --hub-token VALUE, --password VALUE, --wandb-api-key VALUE
    Secret(
        "cli-flag",
        r"(?i)(--[a-z0-9-]*(?:password|passwd|secret|api-key|apikey|access-key|token)\s+['\"]?)"
        r"([^\s'\"-][^\s'\"]*)",
        r"\1" + MASK,
    ),
)



# Templates write each number, path or hex word as "<*>", which breaks a token's
# run of letters and digits ("xoxb-<*>-QwErTy...") so that no pattern sees it
# whole. While masking, each "<*>" stands as a run of letters and digits no log
# prints, which every token pattern takes in; the ones left are put back.
_PLACEHOLDER = "<*>"
_STAND_IN = "0qZ9xW7kV0"


def _flagged(regex: str) -> str:
    """``regex`` as a group that keeps its own flags inside an alternation."""
    m = re.match(r"^\(\?([a-z]+)\)", regex)
    return f"(?{m.group(1)}:{regex[m.end():]})" if m else f"(?:{regex})"


# Every pattern in one alternation: RE2 runs it as one automaton, one pass over a
# column (about a hundredth of the 23 replace passes on text with no secret, which
# is nearly all of a log). Only the rows it matches go through the patterns one by one.
ANY_SECRET = "|".join(_flagged(s.regex) for s in SECRETS)
# ... run as a few alternations of at most this many patterns each: RE2 runs a regex as a
# lazily built DFA within a memory budget, and the whole alternation's automaton outgrows it
# on real logs and falls back to the NFA (45 MB of real-mix messages: 1.2 s for the 23 in
# one pass, 0.27 s in three passes of 8, 0.19 s in two of 12; 8 leaves room for more patterns)
_PATTERNS_PER_PASS = 8
ANY_SECRET_PASSES = tuple(
    "|".join(_flagged(s.regex) for s in SECRETS[i:i + _PATTERNS_PER_PASS])
    for i in range(0, len(SECRETS), _PATTERNS_PER_PASS)
)


def has_secret(arr: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Per row: whether some pattern matches (null rows: false). One RE2 pass per
    ``ANY_SECRET_PASSES`` entry."""
    hit = None
    for regex in ANY_SECRET_PASSES:
        found = pc.fill_null(pc.match_substring_regex(arr, regex), False)
        hit = found if hit is None else pc.or_(hit, found)
    return hit


def _digit_blind(regex: str) -> bool:
    """Does ``regex`` treat the ten ASCII digits alike everywhere (no digit literal,
    every class holding all ten or none)? Then it matches a text exactly where it
    matches the text's digit shape (``correlator.timeline.shapes``), so the distinct
    shapes of a column answer for its every row."""
    try:
        from re import _parser as sre  # type: ignore[attr-defined]  # (Python's own parse of the pattern)
        from re._constants import (  # type: ignore[import-not-found]
            CATEGORY,
            IN,
            LITERAL,
            NEGATE,
            NOT_LITERAL,
            RANGE,
        )
    except ImportError:  # another Python's layout: assume the worst
        return False
    digits = range(ord("0"), ord("9") + 1)

    def matches(items: list, c: int) -> bool:
        hit, negate = False, False
        for op, av in items:
            if op is NEGATE:
                negate = True
            elif op is LITERAL:
                hit |= av == c
            elif op is RANGE:
                hit |= av[0] <= c <= av[1]
            elif op is CATEGORY:
                hit |= re.fullmatch(_CATEGORY_CLASS.get(str(av), "(?!)"), chr(c)) is not None
        return hit != negate

    def walk(tokens: Iterable) -> bool:
        for op, av in tokens:
            if op in (LITERAL, NOT_LITERAL) and av in digits:
                return False
            if op is IN and len({matches(av, c) for c in digits}) > 1:
                return False
            if op is CATEGORY and str(av) not in _CATEGORY_CLASS:
                return False
            for sub in av if isinstance(av, tuple | list) else ():
                if isinstance(sub, sre.SubPattern) and not walk(sub):
                    return False
                if isinstance(sub, list | tuple) and any(isinstance(x, sre.SubPattern) and not walk(x) for x in sub):
                    return False
        return True

    return walk(sre.parse(regex))


# The character classes of a regex, as one class each (all hold all ten digits or none).
_CATEGORY_CLASS = {
    "CATEGORY_DIGIT": "[0-9]", "CATEGORY_NOT_DIGIT": "[^0-9]", "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W",
}
DIGIT_BLIND = _digit_blind(ANY_SECRET)

# What ingest records in the timeline's metadata: whether any text column that
# ``redact_parquet`` masks held a secret, and under which patterns (a later list of
# patterns must look again). A timeline without it (older ones) is scanned.
SECRETS_KEY = "correlator.secrets"
PATTERNS_ID = hashlib.sha256(ANY_SECRET.encode()).hexdigest()[:16]


def secrets_note(found: bool) -> str:
    """The value of ``SECRETS_KEY`` for a timeline where a secret was (or was not) found."""
    return json.dumps({"found": found, "patterns": PATTERNS_ID})


def recorded_clean(metadata: dict[bytes, bytes] | None) -> bool:
    """Whether ``metadata`` says that no secret was found, by today's patterns."""
    raw = (metadata or {}).get(SECRETS_KEY.encode())
    try:
        note = json.loads(raw) if raw is not None else None
    except ValueError:
        return False
    return isinstance(note, dict) and note.get("found") is False and note.get("patterns") == PATTERNS_ID


def column_has_secret(name: str, col: pa.Array) -> bool:
    """Whether a secret pattern matches in one column of a timeline, as
    ``redact_table`` would mask it (``column_texts``)."""
    texts = column_texts(name, col)
    return len(texts) > 0 and bool(pc.any(has_secret(texts)).as_py())


def column_texts(name: str, col: pa.Array) -> pa.Array:
    """The strings the patterns are run over for one column of a timeline: a
    dictionary's values, a map's "key=value" pairs, ``template`` with its ``<*>``
    standing as a token's run; plain strings (RE2 takes no string views)."""
    if pa.types.is_dictionary(col.type):
        col = col.dictionary
    if pa.types.is_map(col.type):
        return pc.binary_join_element_wise(_plain(col.keys), _plain(col.items), "=")
    col = _plain(col)
    return pc.replace_substring(col, _PLACEHOLDER, _STAND_IN) if name == "template" else col


def _plain(arr: pa.Array) -> pa.Array:
    """A string view array (ingest's parts hold them) as strings, which RE2 takes."""
    return arr.cast(pa.string()) if pa.types.is_string_view(arr.type) else arr
