"""PyTorch Flight Recorder dumps: one event per recorded collective.

With ``TORCH_FR_BUFFER_SIZE`` set, c10d keeps a ring buffer of the last
collectives each process group ran (NCCL, and gloo too since torch 2.x) and
writes it on a watchdog timeout, on request (``_dump_fr_trace()``), or to
``$TORCH_FR_DUMP_TEMP_FILE<rank>`` (default prefix ``nccl_trace_rank_``). Two
encodings: a pickled dict (``_dump_fr_trace``) and compact JSON
(``_dump_fr_trace_json``; keys sorted, no stack frames, numbers in ``pg_status``
as strings). Both hold top-level ``version``, ``pg_config``, ``pg_status`` and
``entries``; neither holds the rank, which torch's own analyser
(``torch.distributed.flight_recorder``) takes from the file name's trailing
digits, as we do.

This is not a line parser (``PATTERNS`` is empty): the dumps are binary and are
read whole by the ingest's own path for them, which calls :func:`load_dump`
and :func:`dump_rows`.

Security: unpickling runs code named in the pickle. A dump holds only dicts,
lists, tuples, strings, numbers, booleans and None, so the unpickler here
refuses every global (no class, no function, hence no ``__reduce__`` payload)
and persistent ids; the bytes read are bounded by the caller.
"""

from __future__ import annotations

import io
import json
import math
import pickle
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from parsers.base import Pattern

SOURCE = "flight_recorder"
PATTERNS: tuple[Pattern, ...] = ()

#: No dump of a ring buffer of (at most) tens of thousands of entries is this big.
MAX_DUMP_BYTES = 256 << 20
REQUIRED_KEYS = ("version", "entries", "pg_config")

# What a formatted value (sizes, frames) may grow to: a pickle can reference one
# list many times over (memo), so a small file may describe a huge structure.
_TEXT_BUDGET = 2000
_MAX_DEPTH = 8

# torch's analyser: `([\w\-\_]*?)(\d+)$` on the file name; a .json/.pkl suffix is allowed here
_RANK_IN_NAME = re.compile(r"(\d+)(?:\.(?:pkl|pickle|json))?$", re.IGNORECASE)
_TORCH_FRAME = re.compile(r"(^|/)(torch|site-packages|dist-packages)/|^<frozen ")


class NotAFlightRecorderDump(ValueError):
    """The bytes are not a Flight Recorder dump (or refuse to load safely)."""


class _NoGlobals(pickle.Unpickler):
    """An unpickler that builds plain containers and scalars only."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refused to load the global {module}.{name} (not a plain-data dump)")

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("refused a persistent id (not a plain-data dump)")


def is_pickle(head: bytes) -> bool:
    """Pickle protocol 2+ (what ``pickle.dumps`` and torch write)."""
    return len(head) >= 2 and head[0] == 0x80 and 2 <= head[1] <= 5


def looks_like_dump(head: bytes) -> bool:
    """Do the first bytes of a file look like a Flight Recorder dump (pickle or JSON)?

    A cheap sniff for discovery; :func:`load_dump` decides. The pickle's first
    key is ``version`` and ``pg_config`` or ``entries`` follow; the JSON's keys
    are sorted, so ``comm_lib_version``/``entries`` come first."""
    if is_pickle(head):
        return b"version" in head and (b"pg_config" in head or b"entries" in head)
    text = head.lstrip()
    return text.startswith(b"{") and b'"entries"' in text and (
        b'"pg_config"' in text or b'"collective_seq_id"' in text or b'"version"' in text
    )


def rank_from_name(rel: str) -> int | None:
    """The rank a dump's file name ends with (``rank_3``, ``nccl_trace_rank_3``), or None."""
    base = rel.rsplit("/", 1)[-1]
    m = _RANK_IN_NAME.search(base)
    return int(m.group(1)) if m else None


def load_dump(data: bytes) -> dict[str, Any]:
    """The dump in ``data`` (pickle or JSON), checked for the top-level keys.

    Raises :class:`NotAFlightRecorderDump` saying why, never runs code."""
    if is_pickle(data):
        try:
            obj = _NoGlobals(io.BytesIO(data)).load()
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, IndexError, KeyError,
                AttributeError, MemoryError, RecursionError, OverflowError, UnicodeDecodeError) as e:
            raise NotAFlightRecorderDump(f"pickle does not load as plain data: {e}") from None
        kind = "pickle"
    else:
        try:
            obj = json.loads(data)
        except (ValueError, RecursionError) as e:
            raise NotAFlightRecorderDump(f"neither a pickle nor JSON: {e}") from None
        kind = "JSON"
    if not isinstance(obj, dict):
        raise NotAFlightRecorderDump(f"{kind} of a {type(obj).__name__}, not a dump's dict")
    missing = [k for k in REQUIRED_KEYS if k not in obj]
    if missing:
        keys = ", ".join(sorted(map(str, obj))[:8])
        raise NotAFlightRecorderDump(f"{kind} without the dump keys {', '.join(missing)} (has: {keys})")
    if not isinstance(obj["entries"], list) or not isinstance(obj["pg_config"], dict):
        raise NotAFlightRecorderDump(f"{kind} whose entries/pg_config are not a list/dict")
    return obj


@dataclass(frozen=True)
class Row:
    """One event of a dump, before the ingest gives it the timeline's columns."""

    line_no: int
    kind: str
    ts: datetime | None
    ts_estimated: bool
    level: str
    message: str
    attrs: dict[str, str]


def dump_rows(dump: dict[str, Any]) -> list[Row]:
    """One ``fr.entry`` row per entry (line = entry index + 1), then one ``fr.dump``
    row (line = entries + 1) with the process groups' status.

    Every entry is INFO: an entry still pending at dump time (``retired`` false)
    is where the waiting ranks are, the victims as much as the culprit, so it
    proves nothing on its own; the analysis compares ranks instead."""
    pg_config = dump["pg_config"]
    out: list[Row] = []
    last: datetime | None = None
    for i, e in enumerate(dump["entries"]):
        if not isinstance(e, dict):
            continue
        row = _entry_row(i + 1, e, pg_config)
        out.append(row)
        if row.ts is not None and (last is None or row.ts > last):
            last = row.ts
    status = dump.get("pg_status") if isinstance(dump.get("pg_status"), dict) else {}
    parts = []
    for pg, st in sorted(status.items(), key=lambda kv: str(kv[0])):
        st = st if isinstance(st, dict) else {}
        parts.append(f"pg {pg}: enqueued {_num(st.get('last_enqueued_collective'))}, "
                     f"completed {_num(st.get('last_completed_collective'))}")
    attrs = {
        "version": _text(dump.get("version")),
        "entries": str(len(out)),
        "pg_status": _text(status),
        "pg_config": _text(pg_config),
    }
    if len(status) == 1:
        st = next(iter(status.values()))
        if isinstance(st, dict):
            attrs["last_enqueued"] = str(_num(st.get("last_enqueued_collective")))
            attrs["last_completed"] = str(_num(st.get("last_completed_collective")))
    message = (f"FR dump version {attrs['version']}: {len(out)} entries; "
               + ("; ".join(parts) if parts else "no process group status"))
    out.append(Row(len(dump["entries"]) + 1, "fr.dump", last, True, "INFO", message, attrs))
    return out


def _entry_row(line_no: int, e: dict[str, Any], pg_config: dict[str, Any]) -> Row:
    pg = e.get("process_group")
    pg_id = _text(pg[0]) if isinstance(pg, list | tuple) and pg else _text(e.get("pg_id"))
    pg_name = _text(pg[1]) if isinstance(pg, list | tuple) and len(pg) > 1 else ""
    # "seq_id" before version 2.0 of the dump (one counter for collectives and p2p)
    seq = _num(e["collective_seq_id"] if "collective_seq_id" in e else e.get("seq_id"))
    op = _text(e.get("profiling_name"))
    retired = bool(e.get("retired"))
    ts_ns = _num(e.get("time_created_ns"))
    ts = datetime.fromtimestamp(ts_ns / 1e9, UTC) if isinstance(ts_ns, int) and ts_ns > 0 else None
    attrs = {
        "pg_id": pg_id, "pg_name": pg_name, "seq": _text(seq), "p2p_seq": _text(_num(e.get("p2p_seq_id"))),
        "op": op, "input_sizes": _text(e.get("input_sizes")), "input_dtypes": _text(e.get("input_dtypes")),
        "output_sizes": _text(e.get("output_sizes")), "output_dtypes": _text(e.get("output_dtypes")),
        "numel": _text(_numel(e.get("input_sizes"))), "state": _text(e.get("state")),
        "retired": "true" if retired else "false", "timeout_ms": _text(_num(e.get("timeout_ms"))),
        "record_id": _text(_num(e.get("record_id"))), "is_p2p": "true" if e.get("is_p2p") else "false",
    }
    if (ranks := _pg_ranks(pg_config, pg_id, pg_name)) is not None:
        attrs["pg_ranks"] = ranks
    if (frame := _user_frame(e.get("frames"))) is not None:
        attrs["frame"] = frame
    if e.get("thread_name"):
        attrs["thread"] = _text(e.get("thread_name"))
    message = (
        f"FR pg {pg_id}{f' ({pg_name})' if pg_name else ''} seq {seq} {op} "
        f"in {attrs['input_sizes']} {_dtypes(e.get('input_dtypes'))} "
        f"out {attrs['output_sizes']} {_dtypes(e.get('output_dtypes'))} {attrs['state']} "
        f"retired={retired}" + (f" at {frame}" if frame else "")
    )
    return Row(line_no, "fr.entry", ts, False, "INFO", message, {k: v for k, v in attrs.items() if v != ""})


def _pg_ranks(pg_config: dict[str, Any], pg_id: str, pg_name: str) -> str | None:
    """The group's ranks as written (``[0, 1, 2]``). torch 2.13's gloo dumps key
    ``pg_config`` by ``''`` while entries say pg ``'0'``: a lone config is then
    taken as the entries' group (what torch's analyser fails on)."""
    cfg = pg_config.get(pg_id) or pg_config.get(pg_name)
    if cfg is None and len(pg_config) == 1:
        cfg = next(iter(pg_config.values()))
    if not isinstance(cfg, dict) or cfg.get("ranks") is None:
        return None
    ranks = cfg["ranks"]
    if isinstance(ranks, str):
        return ranks if re.fullmatch(r"\[[\d,\s]*\]", ranks) else None
    return _text(ranks)


def _user_frame(frames: Any) -> str | None:
    """The first stack frame outside torch: the user's line that called the collective."""
    if not isinstance(frames, list):
        return None
    for f in frames[:64]:
        if isinstance(f, dict) and isinstance(f.get("filename"), str) and not _TORCH_FRAME.search(f["filename"]):
            return f"{f['filename']}:{_num(f.get('line'))} in {_text(f.get('name'))}"
    return None


def _numel(sizes: Any) -> int | None:
    if not isinstance(sizes, list):
        return None
    total = 0
    for shape in sizes[:1024]:
        if not isinstance(shape, list) or not all(isinstance(d, int) for d in shape[:16]):
            return None
        total += math.prod(shape[:16])
    return total


def _dtypes(dtypes: Any) -> str:
    if isinstance(dtypes, list) and all(isinstance(d, str) for d in dtypes[:16]):
        return ",".join(d.lower() for d in dtypes[:16])
    return _text(dtypes)


def _num(v: Any) -> Any:
    """JSON dumps write pg_status counters as strings and unset times as 0."""
    if isinstance(v, str) and re.fullmatch(r"-?\d+", v):
        return int(v)
    return v


def _text(v: Any) -> str:
    """``v`` as compact JSON-like text, bounded (shared references stay cheap)."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v[:_TEXT_BUDGET]
    out: list[str] = []
    budget = [_TEXT_BUDGET]

    def put(s: str) -> bool:
        budget[0] -= len(s)
        out.append(s if budget[0] >= 0 else s[: len(s) + budget[0]])
        return budget[0] >= 0

    def walk(x: Any, depth: int) -> bool:
        if depth > _MAX_DEPTH:
            return put("...")
        if isinstance(x, dict):
            if not put("{"):
                return False
            for i, (k, val) in enumerate(x.items()):
                if (i and not put(", ")) or not put(f"{k!s}: ") or not walk(val, depth + 1):
                    return False
            return put("}")
        if isinstance(x, list | tuple):
            if not put("["):
                return False
            for i, val in enumerate(x):
                if (i and not put(", ")) or not walk(val, depth + 1):
                    return False
            return put("]")
        if isinstance(x, bytes):
            return put(repr(x[:64]))
        return put(str(x))

    if not walk(v, 0):
        out.append("...")
    return "".join(out)
