"""Fuzz: ``correlator analyze`` on hostile logs exits with the job's state, never a
traceback, and stays under a memory cap (issue 22, "Trust").

The logs are built from the parsers' own example lines with their numbers replaced
(huge, glued, Unicode digits, signs), under random launcher prefixes and stamps,
mixed with random bytes, NULs, \\r progress bars and cut tracebacks, some files
compressed (some cut short). Bounded: a few examples in a child process whose
address space is capped (``tests/test_trust.py``), more in this process.
"""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import zstandard
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from test_trust import analyze_cli, assert_clean_exit

import parsers

EXAMPLES = sorted({e for p in parsers.PATTERNS for e in p.examples})

NUMBERS = st.one_of(
    st.integers(0, 64).map(str),
    st.integers(2**31 - 2, 2**64).map(str),  # past INT32
    st.sampled_from(["٣", "３", "१२", "٣٣٣٣٣٣٣٣٣٣٣", "1234512346", "-1", "0" * 30, "4294967296", "2147483647"]),
)
PREFIXES = st.sampled_from(
    ["", "[rank{n}]: ", "[default{n}]:", "{n}: ", "gpu-node-{n}:{n}: ", "(RayTrainWorker pid={n}) ",
     "[1,{n}]<stdout>:", "[rank{n}]:[E318 07:39:53.792772442 ProcessGroupNCCL.cpp:1785] "]
)
STAMPS = st.sampled_from(
    ["", "2024-05-01 12:00:{s},000 - INFO - __main__ - ", "[2024-05-08 08:47:{s},261] ", "E0801 13:23:{s}.000000 32974 ",
     "2024-05-01T12:00:{s}.123456Z ", "[  {s}.123456] ", "May  1 12:00:{s} host kernel: "]
)
TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "/opt/train.py", line 42, in <module>',
    "    main()",
    "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error",
]


@st.composite
def log_line(draw: st.DrawFn) -> bytes:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.binary(max_size=120))
    if kind == 1:  # a traceback, cut anywhere
        return "\n".join(TRACEBACK[: draw(st.integers(1, len(TRACEBACK)))]).encode()
    if kind == 2:  # an overwritten line and progress-bar states
        text = draw(st.sampled_from(["ERROR: x", "loading", "", "WARNING: disk"]))
        return f"{text}\r 45%|███      | 45/100 [00:01<00:02, 9.9it/s]\r".encode() * draw(st.integers(1, 3))
    if kind == 3:  # NUL padding
        return bytes(draw(st.integers(1, 5000)))
    line = draw(st.sampled_from(EXAMPLES))
    line = re.sub(r"\d+", lambda _: draw(NUMBERS), line)
    prefix = draw(PREFIXES).format(n=draw(NUMBERS))
    stamp = draw(STAMPS).format(s=draw(st.sampled_from(["00", "59", "99", "٣٣"])))
    return (prefix + stamp + line).encode("utf-8", "surrogateescape")


@st.composite
def job(draw: st.DrawFn) -> dict[str, bytes]:
    files = {}
    for i in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from([f"rank{i}.log", f"node-0{i}/worker.log", f"attempt_0/{i}/stdout.log", f"x{i}.txt"]))
        data = b"\n".join(draw(st.lists(log_line(), min_size=1, max_size=25)))
        how = draw(st.sampled_from(["plain", "plain", "gz", "zst", "cut-gz"]))
        if how == "gz":
            name, data = name + ".gz", gzip.compress(data)
        elif how == "zst":
            name, data = name + ".zst", zstandard.ZstdCompressor().compress(data)
        elif how == "cut-gz":
            name, data = name + ".gz", gzip.compress(data)[: draw(st.integers(0, 40))]
        files[name] = data
    return files


def _write(root: Path, files: dict[str, bytes]) -> Path:
    shutil.rmtree(root, ignore_errors=True)
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    root.mkdir(parents=True, exist_ok=True)
    return root


# a few in a capped child process (~3 s each: the interpreter, DuckDB, the rulebook)
@settings(max_examples=4, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
@given(files=job())
def test_fuzz_analyze_in_a_capped_child(tmp_path: Path, files: dict[str, bytes]) -> None:
    r = analyze_cli(_write(tmp_path / "job", files))
    assert_clean_exit(r)


# more in this process (~0.3 s each)
@settings(max_examples=15, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
@given(files=job())
def test_fuzz_analyze_in_process(tmp_path: Path, files: dict[str, bytes]) -> None:
    from correlator.cli import main

    root = _write(tmp_path / "job", files)
    result = CliRunner().invoke(main, ["analyze", "--workers", "1", str(root)])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        "".join(__import__("traceback").format_exception(result.exception))
    )
    assert result.exit_code in (0, 1, 3) or (result.exit_code == 2 and "error:" in result.output), result.output
