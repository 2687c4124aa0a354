"""The collective (process-group) timeout a job's logs state before it fires.

A silent rank should be named before its peers' collective timeout fires (the issue's
point: the watchdog's own lines come too late to be early). Where the job printed its
timeout at start-up, the silence rule falls before it (``progress.Rule``:
``timeout_fraction``). Formats real software prints:

* torch's ProcessGroupNCCL, at init (``TORCH_CPP_LOG_LEVEL=INFO``, or
  ``TORCH_DISTRIBUTED_DEBUG``): ``ProcessGroupNCCL initialization options: size: 8,
  global rank: 0, TIMEOUT(ms): 600000, ...``;
* a ``datetime.timedelta`` printed by its ``str``/``repr``: ``timeout=0:30:00`` (c10d's
  store-based barrier while waiting at init: ``... (world_size=8, worker_count=7,
  timeout=0:30:00)``), ``timeout=datetime.timedelta(seconds=1800)``;
* Hugging Face ``TrainingArguments`` as scripts log them: ``ddp_timeout=1800`` (seconds);
* a trainer's or launcher's own words: ``process group timeout: 300 s``, ``pg timeout=300``,
  ``NCCL timeout 20 min``.

Only lines that are not errors count (``Session`` passes the others by), and no line that
tells of a timeout that fired (``Watchdog caught collective operation timeout: WorkNCCL(
SeqNum=5502, ... Timeout(ms)=600000) ran for 600042 milliseconds``, glued to a progress bar
or not): it says when one fired, not what was set. Lines that name a distributed context are required for the bare timedelta
forms, and variables that are not the collective timeout are not read
(``NCCL_IB_TIMEOUT``: an InfiniBand retry exponent; ``TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC``,
``..._DUMP_MILSEC``: the watchdog's own health and dump settings).
"""

from __future__ import annotations

import re

_OPTIONS_MS = re.compile(r"TIMEOUT\(ms\):\s*(\d+)")  # ProcessGroupNCCL initialization options
_TIMEDELTA_STR = re.compile(r"(?i)\btimeout\s*[=:]\s*(?:(\d+) days?, )?(\d{1,3}):(\d{2}):(\d{2})\b")
_TIMEDELTA_REPR = re.compile(r"(?i)\btimeout\s*[=:]\s*(?:datetime\.)?timedelta\(([^)]*)\)")
_DDP_TIMEOUT = re.compile(r"\bddp_timeout\s*[=:]\s*(\d+)\b")
# the number right after the word (`timeout: 300 s`, `timeout=300`, `timeout 20 min`): not the
# first number further on (`collective operation timeout: WorkNCCL(SeqNum=5502, ...`)
_WORDS = re.compile(
    r"(?i)(?<![A-Za-z_])(?:process[ _]?group|collective|nccl|pg)(?![A-Za-z_])[\w ]{0,20}?"
    r"(?<![A-Za-z])timeout(?![A-Za-z_])\s*(?:[=:]|\bis\b|\bof\b)?\s*(\d+(?:\.\d+)?)\s*"
    r"(ms|s|sec|secs|seconds|min|mins|minutes)?\b")
# a timeout that fired, wherever its line was glued (a progress bar's, an unprefixed one)
_FIRED = re.compile(r"(?i)watchdog caught|timed out|ran for \d|timeout after|Timeout\(ms\)=|failed to pass")
_DISTRIBUTED = re.compile(r"(?i)process[ _]?group|\bpg\b|nccl|gloo|\bddp\b|collective|distributed|c10d|barrier")
_NOT_IT = re.compile(r"NCCL_IB_TIMEOUT|HEARTBEAT_TIMEOUT|TIMEOUT_DUMP|_TIMEOUT_SEC|RETRY")
_UNIT = {"ms": 0.001, "min": 60.0, "minutes": 60.0, "hours": 3600.0, "days": 86400.0}


def stated_timeout(message: str) -> float | None:
    """The collective timeout (seconds) a start-up line states, or None."""
    if "imeout" not in message and "IMEOUT" not in message:
        return None
    if _FIRED.search(message):
        return None
    if m := _OPTIONS_MS.search(message):
        return _sane(int(m.group(1)) / 1000)
    if m := _DDP_TIMEOUT.search(message):
        return _sane(float(m.group(1)))
    if _NOT_IT.search(message):
        return None
    if _DISTRIBUTED.search(message):
        if m := _TIMEDELTA_STR.search(message):
            days = int(m.group(1) or 0)
            return _sane(days * 86400 + int(m.group(2)) * 3600 + int(m.group(3)) * 60 + int(m.group(4)))
        if m := _TIMEDELTA_REPR.search(message):
            total = 0.0
            for key, value in re.findall(r"(days|seconds|microseconds|milliseconds|minutes|hours|weeks)\s*=\s*"
                                         r"(\d+(?:\.\d+)?)", m.group(1)):
                total += float(value) * {"days": 86400, "seconds": 1, "microseconds": 1e-6, "milliseconds": 1e-3,
                                         "minutes": 60, "hours": 3600, "weeks": 604800}[key]
            return _sane(total)
    if m := _WORDS.search(message):
        return _sane(float(m.group(1)) * _UNIT.get((m.group(2) or "s").lower(), 1.0))
    return None


def _sane(seconds: float) -> float | None:
    # under a second is no collective timeout anyone sets; a zero is "the default"
    return seconds if seconds >= 1.0 else None
