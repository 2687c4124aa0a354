"""Mask secrets before a report or export leaves the machine.

Training logs carry whatever the job's environment held: ``HF_TOKEN`` echoed by a
launcher script, an ``env`` dump, a W&B login, a ``git clone https://user:token@``
in a setup step. Reports are pasted into tickets and shared, so every renderer
masks these by default (``--no-redact`` turns it off).

One list of patterns serves three engines: Python's ``re`` (strings, verdicts),
RE2 through pyarrow (report event tables, timelines a batch shares; every pattern
also joined into one alternation, ``ANY_SECRET``, that finds the rare rows with a
secret in one pass). So patterns use only the common subset: no look-around,
no back-references inside the pattern, ``\\1`` in replacements. Each pattern keeps
what names the secret (``HF_TOKEN=``, ``Bearer ``, ``hf_``) and masks the value,
so a reader still sees that a token was there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from correlator.output import atomic_path
from correlator.verdict import Verdict

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

_COMPILED = tuple((s, re.compile(s.regex), s.replacement.replace("\\1", r"\g<1>")) for s in SECRETS)

# Special tokens of tokenizers are not secrets, though the assignment pattern
# would mask them ("pad_token: <pad>").
_KEEP = re.compile(r"(?i)(?:pad|eos|bos|unk|sep|cls|mask)_token['\"]?\s*[=:]")


def _keep_assignment(m: re.Match[str]) -> str:
    value = m.group(2)
    if value.endswith(MASK) or _KEEP.search(m.string, max(0, m.start() - 12), m.end()):
        return m.group(0)  # already masked by a more specific pattern, or not a secret
    return m.group(1) + MASK


def _keep_pem_line(m: re.Match[str]) -> str:
    body = m.group(2).rstrip("=")
    # base64 of key material mixes cases and digits; a hex digest, a word or a path does not
    if (re.search(r"[a-z]", body) and re.search(r"[A-Z]", body) and re.search(r"[0-9+/]", body)
            and not re.fullmatch(r"[0-9a-fA-F]+", body)):
        return m.group(1) + MASK
    return m.group(0)


# Patterns whose matches are checked in Python: RE2 cannot say "except these".
_CHECKED = {"assignment": _keep_assignment, "pem-body-line": _keep_pem_line}


def redact(text: str) -> str:
    """``text`` with every known kind of secret masked."""
    if not text:
        return text
    for secret, rx, repl in _COMPILED:
        text = rx.sub(_CHECKED.get(secret.name, repl), text)
    return text


def redact_obj(obj: Any) -> Any:
    """Every string inside a JSON-like value (dicts, lists), masked."""
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, dict):
        return {k: redact_obj(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [redact_obj(v) for v in obj]
    return obj


def redact_verdict(verdict: Verdict) -> Verdict:
    """A copy of the verdict with every text field masked (evidence, fix, paths)."""
    return Verdict.model_validate(redact_obj(verdict.model_dump(mode="json")))


def _flagged(regex: str) -> str:
    """``regex`` as a group that keeps its own flags inside an alternation."""
    m = re.match(r"^\(\?([a-z]+)\)", regex)
    return f"(?{m.group(1)}:{regex[m.end():]})" if m else f"(?:{regex})"


# Every pattern in one alternation: RE2 runs it as one automaton, one pass over a
# column (about a hundredth of the 23 replace passes on text with no secret, which
# is nearly all of a log). Only the rows it matches go through the patterns one by one.
ANY_SECRET = "|".join(_flagged(s.regex) for s in SECRETS)


def has_secret(arr: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Per row: whether some pattern matches (null rows: false). One RE2 pass."""
    return pc.fill_null(pc.match_substring_regex(arr, ANY_SECRET), False)


def redact_array(arr: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """A string column masked: one RE2 pass finds the rows with a secret
    (``ANY_SECRET``), and only those are masked, pattern by pattern."""
    if isinstance(arr, pa.ChunkedArray):
        return pa.chunked_array([redact_array(c) for c in arr.chunks], type=arr.type)
    if len(arr) == 0:
        return arr
    hit = has_secret(arr)
    n = pc.sum(hit).as_py() or 0
    if n == 0:
        return arr
    masked = _redact_each(arr.filter(hit))
    return pc.replace_with_mask(arr, hit, masked.cast(arr.type))


def _redact_each(arr: pa.Array) -> pa.Array:
    """Every pattern's own pass (RE2); a checked pattern's matches through Python."""
    for secret in SECRETS:
        if secret.name in _CHECKED:
            hit = pc.fill_null(pc.match_substring_regex(arr, secret.regex), False)
            if pc.any(hit).as_py():
                values = arr.to_pylist()
                arr = pa.array(
                    [redact(v) if f else v for v, f in zip(values, hit.to_pylist(), strict=True)],
                    type=arr.type,
                )
            continue
        arr = pc.replace_substring_regex(arr, pattern=secret.regex, replacement=secret.replacement)
    return arr


def redact_table(table: pa.Table, columns: Iterable[str] | None = None) -> pa.Table:
    """``table`` with its string columns (and maps of strings, like ``attrs``) masked."""
    names = list(columns) if columns is not None else [f.name for f in table.schema if _text_type(f.type)]
    for name in names:
        i = table.schema.get_field_index(name)
        if i < 0:
            continue
        col = table.column(name)
        if pa.types.is_map(col.type):
            col = pa.chunked_array([_redact_map(c) for c in col.chunks], type=col.type)
        elif name == "template":
            col = redact_template(col)
        else:
            col = redact_array(col)
        table = table.set_column(i, name, col)
    return table


# Templates write each number, path or hex word as "<*>", which breaks a token's
# run of letters and digits ("xoxb-<*>-QwErTy...") so that no pattern sees it
# whole. While masking, each "<*>" stands as a run of letters and digits no log
# prints, which every token pattern takes in; the ones left are put back.
_PLACEHOLDER = "<*>"
_STAND_IN = "0qZ9xW7kV0"


def redact_template(arr: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """A ``template`` column masked like a message, its ``<*>`` kept."""
    arr = pc.replace_substring(arr, _PLACEHOLDER, _STAND_IN)
    return pc.replace_substring(redact_array(arr), _STAND_IN, _PLACEHOLDER)


def _text_type(t: pa.DataType) -> bool:
    return (pa.types.is_string(t) or pa.types.is_large_string(t)
            or (pa.types.is_map(t) and pa.types.is_string(t.item_type)))


def _redact_map(arr: pa.MapArray) -> pa.MapArray:
    # The key often names the secret (attrs['HF_TOKEN']), so values are masked as
    # "key=value"; rows that change (few) get the key stripped back off in Python.
    if len(arr.keys) == 0:
        return arr
    joined = pc.binary_join_element_wise(arr.keys, arr.items, "=")
    masked = redact_array(joined)
    changed = pc.fill_null(pc.not_equal(masked, joined), False)
    if not pc.any(changed).as_py():
        return arr
    keys = arr.keys.to_pylist()
    items = arr.items.to_pylist()
    for j, (m, c) in enumerate(zip(masked.to_pylist(), changed.to_pylist(), strict=True)):
        if c:
            items[j] = m[len(keys[j]) + 1:]
    return pa.MapArray.from_arrays(arr.offsets, arr.keys, pa.array(items, type=arr.type.item_type),
                                   mask=arr.is_null() if arr.null_count else None)


# Columns of a timeline that hold the parsers' own words, not the logs' text.
_VOCABULARY = {"level", "source", "kind"}


def redact_parquet(
    src: str | os.PathLike[str], dest: str | os.PathLike[str], *,
    transform: Callable[[pa.Table], pa.Table] | None = None, redact: bool = True, batch_size: int = 65536,
    move: bool = False,
) -> None:
    """A timeline file rewritten (atomically) with secrets masked in every text
    column (message, template, shape, file, node, attrs...) and in its key-value
    metadata (``correlator.files`` / ``correlator.problems``: file names, problem
    messages); ``transform`` is applied to each batch first.

    Rewriting decodes and encodes every column, which costs more than the analysis
    of the timeline. So without a ``transform``, the text columns are first read
    once (``has_secret``: one RE2 pass each); where nothing matches and the metadata
    has nothing to mask, ``src`` is copied as it is, or renamed into place when
    ``move`` (a private scratch file the caller gives up).
    """
    pf = pq.ParquetFile(src)
    schema = pf.schema_arrow
    if redact:
        schema = schema.with_metadata(_redacted_metadata(schema.metadata or {}))
    columns = [f.name for f in schema if _text_type(f.type) and f.name not in _VOCABULARY]
    if transform is None and (not redact or (schema.metadata == pf.schema_arrow.metadata
                                              and not _any_secret(src, columns))):
        _place(Path(src), Path(dest), move)
        return
    with atomic_path(dest) as part, pq.ParquetWriter(part, schema, compression="zstd") as writer:
        for batch in pf.iter_batches(batch_size=batch_size):
            t = pa.Table.from_batches([batch], schema=pf.schema_arrow)
            if transform is not None:
                t = transform(t)
            if redact:
                t = redact_table(t, columns)
            writer.write_table(t.cast(schema))


def _redacted_metadata(meta: dict[bytes, bytes]) -> dict[bytes, bytes]:
    meta = dict(meta)
    for key, value in meta.items():
        if key.startswith(b"correlator.") and key != b"correlator.schema_version":
            try:
                meta[key] = json.dumps(redact_obj(json.loads(value))).encode()
            except ValueError:
                meta[key] = _redact_str(value.decode("utf-8", "replace")).encode()
    return meta


# Text columns with few distinct values (file names, templates, shapes, nodes): read
# as dictionaries, only each row group's distinct values are tested.
_FEW_VALUES = ("job", "node", "node_alias", "file", "template", "shape", "source_file")


def _any_secret(src: str | os.PathLike[str], columns: list[str]) -> bool:
    """Whether a secret pattern matches anywhere in ``columns`` (only they are read)."""
    few = [c for c in columns if c in _FEW_VALUES]
    pf = pq.ParquetFile(src, read_dictionary=few)
    for i in range(pf.num_row_groups):
        t = pf.read_row_group(i, columns=columns)
        for name in columns:
            for col in t.column(name).chunks:
                if pa.types.is_dictionary(col.type):
                    col = col.dictionary
                if pa.types.is_map(col.type):
                    if len(col.keys) and pc.any(has_secret(
                            pc.binary_join_element_wise(col.keys, col.items, "="))).as_py():
                        return True
                elif name == "template":
                    if pc.any(has_secret(pc.replace_substring(col, _PLACEHOLDER, _STAND_IN))).as_py():
                        return True
                elif pc.any(has_secret(col)).as_py():
                    return True
    return False


def _place(src: Path, dest: Path, move: bool) -> None:
    """``src`` at ``dest`` whole: renamed when it may be given up, else copied (atomically both)."""
    if move:
        try:
            os.replace(src, dest)
            return
        except OSError:  # another file system: copy
            pass
    with atomic_path(dest) as part:
        shutil.copyfile(src, part)


def _redact_str(text: str) -> str:
    return redact(text)
