"""Mask secrets before a report or export leaves the machine.

Training logs carry whatever the job's environment held: ``HF_TOKEN`` echoed by a
launcher script, an ``env`` dump, a W&B login, a ``git clone https://user:token@``
in a setup step. Reports are pasted into tickets and shared, so every renderer
masks these by default (``--no-redact`` turns it off).

One list of patterns (``correlator.timeline.secrets``, where ingest also finds
whether a timeline holds any) serves three engines: Python's ``re`` (strings, verdicts),
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
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from correlator.output import atomic_path
from correlator.timeline.secrets import (  # noqa: F401  (the patterns' names, also known from here)
    _PLACEHOLDER,
    _STAND_IN,
    ANY_SECRET,
    DIGIT_BLIND,
    MASK,
    PATTERNS_ID,
    SECRETS,
    SECRETS_KEY,
    Secret,
    column_has_secret,
    has_secret,
    recorded_clean,
    secrets_note,
)
from correlator.verdict import Verdict

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
    ``move`` (a private scratch file the caller gives up). Where ingest recorded
    that it found no secret (``SECRETS_KEY``, by the same patterns), that read is
    skipped, and so is the masking of a rewrite.
    """
    pf = pq.ParquetFile(src)
    schema = pf.schema_arrow
    if redact:
        schema = schema.with_metadata(_redacted_metadata(schema.metadata or {}))
    columns = [f.name for f in schema if _text_type(f.type) and f.name not in _VOCABULARY]
    # ingest looked at every text column already (``SECRETS_KEY``): no second read
    clean = redact and recorded_clean(pf.schema_arrow.metadata)
    if transform is None and (not redact or (schema.metadata == pf.schema_arrow.metadata
                                              and (clean or not _any_secret(src, columns)))):
        _place(Path(src), Path(dest), move)
        return
    with atomic_path(dest) as part, pq.ParquetWriter(part, schema, compression="zstd") as writer:
        for batch in pf.iter_batches(batch_size=batch_size):
            t = pa.Table.from_batches([batch], schema=pf.schema_arrow)
            if transform is not None:
                t = transform(t)
            if redact and not clean:
                t = redact_table(t, columns)
            writer.write_table(t.cast(schema))


def _redacted_metadata(meta: dict[bytes, bytes]) -> dict[bytes, bytes]:
    meta = dict(meta)
    for key, value in meta.items():
        if key.startswith(b"correlator.") and key not in (b"correlator.schema_version", SECRETS_KEY.encode()):
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
        if any(column_has_secret(name, col) for name in columns for col in t.column(name).chunks):
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
