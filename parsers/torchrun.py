"""torchrun / torch.distributed.elastic agent: docs/formats/torchrun-elastic.md.

The agent prints on behalf of its children: ``local_rank`` and ``pid`` in these
lines describe the *failed child*, so they stay in attrs (``failed_local_rank``,
``child_pid``) and never fill the printing event's columns.
"""

from __future__ import annotations

import re

from parsers.base import Pattern

SOURCE = "torchrun"

_ENTRY_FIELD = re.compile(r"^\s*(time|host|rank|exitcode|error_file|traceback|msg)\s*:\s?(.*)$")
_RANK = re.compile(r"(\d+) \(local_rank: (\d+)\)")
_EXIT = re.compile(r"(-?\d+) \(pid: (\d+)\)")
_SIGNAL = re.compile(r"Signal (\d+) \((SIG\w+)\) received by PID (\d+)")


def parse_failure_entry(message: str) -> dict[str, str]:
    """One ``[N]:`` entry of a ChildFailedError table -> attrs."""
    attrs: dict[str, str] = {}
    lines = message.split("\n")
    head = re.match(r"^\[(\d+)\]:", lines[0])
    if head:
        attrs["entry"] = head.group(1)
    tb: list[str] = []
    in_tb = False
    for line in lines[1:]:
        m = _ENTRY_FIELD.match(line)
        if m and not in_tb:
            key, value = m.group(1), m.group(2).strip()
            if key == "rank" and (r := _RANK.match(value)):
                attrs["failed_rank"], attrs["failed_local_rank"] = r.group(1), r.group(2)
            elif key == "exitcode" and (e := _EXIT.match(value)):
                attrs["exitcode"], attrs["child_pid"] = e.group(1), e.group(2)
            elif key == "time":
                attrs["failure_time"] = value
            elif key in ("traceback", "msg"):
                in_tb = True
                tb.append(value)
            else:
                attrs[key] = value
        elif in_tb:
            tb.append(line.strip())
    if tb:
        text = "\n".join(t for t in tb if t)
        attrs["traceback"] = text
        if s := _SIGNAL.search(text):
            attrs["signal_num"], attrs["signal"] = s.group(1), s.group(2)
    return attrs


PATTERNS = (
    Pattern(
        "torchrun.agent_log",
        envelope=True,
        triggers=("torch.distributed.elastic", "torch/distributed/elastic", "torch/distributed/run.py"),
        regex=(
            r"^(?:(?P<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL):torch\.distributed\.elastic"
            r"|\[[\d\- :,]+\] torch\.distributed\.elastic[\w.]*: \[(?P<lvl2>\w+)\]"
            r"|(?P<lvl3>[VIWEC])\d{4} \d\d:\d\d:\d\d\.\d+ (?P<pid>\d+) \S*torch/distributed/)"
        ),
        source=SOURCE,
        # torch >= 2.4 prints the agent's pid here; 2.3 printed a thread id, which
        # does not fit an int32 and so never fills the column
        fills={"pid": "pid"},
        examples=(
            "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 812914 closing signal SIGTERM",
            "[2024-05-08 08:47:31,261] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 5938 closing signal SIGTERM",
            "W0801 13:23:17.366000 32974 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 33051 closing signal SIGTERM",
        ),
    ),
    # torch/distributed/elastic/agent/server/api.py (torch 2.13): every worker of the
    # agent's group exited 0.
    Pattern(
        "torchrun.worker_group_succeeded",
        triggers=("worker group successfully finished",),
        regex=r"\[(?P<role>[^\]]+)\] worker group successfully finished",
        source="torchrun",
        level="INFO",
        examples=(
            "INFO:torch.distributed.elastic.agent.server.api:[default] worker group successfully finished. "
            "Waiting 300 seconds for other agents to finish.",
        ),
    ),
    Pattern(
        "torchrun.worker_failed",
        triggers=("failed (exitcode:",),
        regex=(
            # (rich's log layout puts the record's source column after "of" and wraps "binary: ..."
            # onto the next line: the failed child is named before it)
            r"failed \(exitcode: (?P<exitcode>-?\d+)\) local_rank: (?P<failed_local_rank>\d+) "
            r"\(pid: (?P<child_pid>\d+)\)(?: of (?:binary|fn): (?P<binary>\S+))?"
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            "E0801 13:23:20.000000 32974 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 3 (pid: 33054) of binary: /home/ubuntu/pythonn3.11/bin/python3",
            " ERROR    failed (exitcode: -9) local_rank: 5 (pid: 22) of  api.py:673",
        ),
    ),
    Pattern(
        "torchrun.closing_signal",
        triggers=("closing signal",),
        regex=r"Sending process (?P<child_pid>\d+) closing signal (?P<signal>SIG\w+)",
        source=SOURCE,
        level="WARNING",
    ),
    Pattern(
        "torchrun.forced_kill",
        triggers=("forcefully exit",),
        regex=r"Unable to shutdown process (?P<child_pid>\d+) via (?P<signal_num>\d+), forcefully exit",
        source=SOURCE,
        level="WARNING",
    ),
    Pattern(
        "torchrun.worker_group_failed",
        triggers=("Local worker group finished (FAILED)", "FAILED with no error file"),
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "torchrun.child_failed_error",
        triggers=("ChildFailedError",),
        regex=r"(?P<exc_type>torch\.distributed\.elastic\.multiprocessing\.errors\.ChildFailedError)",
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "torchrun.failure_entry",
        # "time" opens every entry: one pasted short of its exitcode is still an entry
        triggers=("exitcode  :", "exitcode:", "  time      :"),
        regex=r"^\[(?P<entry>\d+)\]:\n",
        source=SOURCE,
        level="ERROR",
        post=parse_failure_entry,
        examples=(
            "[0]:\n  time      : 2023-06-03_22:45:01\n  host      : gpu187.cluster.local\n  rank      : 4 (local_rank: 0)\n  exitcode  : 1 (pid: 19401)\n  error_file: <N/A>\n  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
        ),
    ),
    # torch.distributed.elastic.events (torch 1.9-1.10 logged them to the console): one
    # JSON object per worker and per agent when a worker group ends; a WORKER record in
    # state FAILED names the failed worker's global rank and host
    Pattern(
        "torchrun.elastic_worker_failed",
        triggers=('"torchelastic.worker.status.FAILED", "source": "WORKER"',),
        regex=(
            r'"source": "WORKER".*?"global_rank": (?P<failed_rank>\d+).*?"worker_id": "?(?P<child_pid>\d+)'
            r'.*?"hostname": "(?P<host>[^"]+)"'
        ),
        source=SOURCE,
        level="ERROR",
        examples=(
            '{"name": "torchelastic.worker.status.FAILED", "source": "WORKER", "timestamp": 0, "metadata": {"run_id": "none", "global_rank": 3, "group_rank": 0, "worker_id": "11376", "role": "default", "hostname": "sajadi", "state": "FAILED", "total_run_time": 20, "rdzv_backend": "static", "raw_error": "{\\"message\\": \\"<NONE>\\"}", "agent_restarts": 3}}',
        ),
    ),
    Pattern(
        "torchrun.elastic_status",
        triggers=('"name": "torchelastic.worker.status.',),
        regex=r'"torchelastic\.worker\.status\.(?P<state>[A-Z]+)", "source": "(?P<reporter>WORKER|AGENT)"',
        source=SOURCE,
        examples=(
            '{"name": "torchelastic.worker.status.SUCCEEDED", "source": "WORKER", "timestamp": 0, "metadata": {"run_id": "none", "global_rank": 11, "group_rank": 0, "worker_id": "34615", "role": "default", "hostname": "marvel", "state": "SUCCEEDED", "total_run_time": 5, "rdzv_backend": "static", "raw_error": null, "agent_restarts": 0}}',
        ),
    ),
    Pattern(
        "torchrun.root_cause_header",
        triggers=("Root Cause (first observed failure):", "Root Cause:"),
        regex=r"^Root Cause(?: \(first observed failure\))?:\s*$",
        source=SOURCE,
    ),
    Pattern(
        "torchrun.error_file",
        triggers=('"extraInfo"', '"py_callstack"'),
        regex=r'"message": "(?P<error>(?:[^"\\]|\\.)*)".*?"timestamp": "?(?P<epoch_s>\d+)',
        source=SOURCE,
        level="ERROR",
    ),
    Pattern(
        "torchrun.rendezvous_error",
        triggers=("RendezvousTimeoutError", "RendezvousClosedError", "RendezvousConnectionError", "RendezvousError"),
        regex=r"(?P<exc_type>(?:torch\.distributed\.elastic\.rendezvous\.api\.)?Rendezvous\w*Error)(?:: (?P<error_text>.*))?",
        source=SOURCE,
        level="ERROR",
    ),
)
