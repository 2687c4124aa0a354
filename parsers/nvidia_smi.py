"""nvidia-smi snapshots: default table, ``-q``, ``--query-gpu`` CSV, ``dmon``.

Formats: docs/formats/nvidia-smi-xid.md §1-4. Tables and ``-q`` dumps
are folded into one event each; the block parsers below turn them into attrs.
"""

from __future__ import annotations

import re

from parsers.base import Pattern

SOURCE = "nvidia_smi"

_TABLE_GPU_ROW = re.compile(
    r"^\|\s+(?P<idx>\d+)\s+(?P<name>.+?)\s+(?:On|Off)\s+\|\s+(?P<bus>[0-9A-Fa-f]{8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d)\s+\S+\s+\|\s+(?P<ecc>\S+)\s+\|"
)


def parse_table(message: str) -> dict[str, str]:
    """Per-GPU bus ids and volatile uncorrected ECC counts from the default table."""
    attrs: dict[str, str] = {}
    gpus = []
    for line in message.split("\n"):
        m = _TABLE_GPU_ROW.match(line)
        if m:
            gpus.append(m)
            attrs[f"gpu{m['idx']}.bus_id"] = m["bus"].lower()
            attrs[f"gpu{m['idx']}.name"] = m["name"]
            attrs[f"gpu{m['idx']}.ecc_uncorrected"] = m["ecc"]
    attrs["gpus"] = str(len(gpus))
    return attrs


def parse_query(message: str) -> dict[str, str]:
    """``nvidia-smi -q``: every ``Key : value`` line, keyed by its section path."""
    attrs: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    gpu = ""
    for line in message.split("\n"):
        if not line.strip():
            continue
        if line.startswith("GPU ") and ":" in line[4:]:
            gpu = line[4:].strip().lower()
            stack = []
            continue
        indent = len(line) - len(line.lstrip(" "))
        key, sep, value = line.strip().partition(" : ") if " : " in line else (line.strip(), "", "")
        key = key.strip()
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if sep:
            path = ".".join([s for _, s in stack] + [key])
            attrs[f"{gpu}.{path}" if gpu else path] = value.strip()
        else:
            stack.append((indent, key))
    return attrs


PATTERNS = (
    Pattern(
        "nvidia_smi.table",
        triggers=("NVIDIA-SMI ",),
        regex=r"NVIDIA-SMI (?P<smi_version>[\d.]+)\s+Driver Version: (?P<driver_version>[\d.]+)\s+CUDA Version: (?P<cuda_version>[\d.]+)",
        source=SOURCE,
        post=parse_table,
        examples=("| NVIDIA-SMI 535.86.10              Driver Version: 535.86.10    CUDA Version: 12.2     |",),
    ),
    Pattern(
        "nvidia_smi.query",
        triggers=("==============NVSMI LOG==============",),
        source=SOURCE,
        post=parse_query,
    ),
    Pattern(
        "nvidia_smi.csv_header",
        triggers=("memory.used [MiB]", "utilization.gpu [%]", "temperature.gpu", "pci.bus_id"),
        regex=r"^(?:timestamp|index|name|pci\.bus_id|temperature\.gpu|utilization\.gpu)\b[^\n]*,",
        source=SOURCE,
    ),
    Pattern(
        "nvidia_smi.dmon",
        triggers=("# gpu ",),
        regex=r"^# gpu\s",
        source=SOURCE,
    ),
)
