#!/usr/bin/env python3
"""Assemble the GPU-only sample jobs of sample_logs/ from verified real line shapes.

These failures (CUDA OOM, NCCL/InfiniBand errors, Xid 79 / Xid 48, Slurm time
limits, kubectl-collected pods, DeepSpeed ZeRO-3 offload killed by the host OOM
killer, ...) cannot be produced on the CPU-only capture machine, so they are
**assembled, not captured**: every log line is a real line copied from a public
source (a GitHub issue, a public log file, or the captures in ``sample_logs/``),
with only its variable fields changed consistently (host names, pids, tids,
ranks, PCI bus ids, addresses, timestamps, sequence numbers, sizes, loss values,
paths of the install). The provenance of every line shape is in the constant
that prints it (``# src:`` comments below) and in each scenario's README.md.

Deterministic: the same output for the same input (fixed seeds, fixed dates).

Usage::

    python sample_logs/_assemble/assemble.py OUTDIR                 # all scenarios
    python sample_logs/_assemble/assemble.py OUTDIR xid79-fallen-off-bus ...

writes ``OUTDIR/<scenario>/...`` (logs, README.md, truth.json, .correlatorignore),
replacing what was there.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import shutil
import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

IGNORE = "# scenario documentation, not logs\nREADME.md\ntruth.json\n"


# --------------------------------------------------------------------------- job model


class Job:
    """Files of one scenario. Log events are (time, seq, text); each file is
    written sorted by time, so lines of processes sharing a file interleave as
    they would in a real console."""

    def __init__(self, name: str, seed: int):
        self.name = name
        self.rng = random.Random(seed)
        self.events: dict[str, list[tuple[datetime, int, str]]] = {}
        self.static: dict[str, str] = {}
        self.seq = 0
        self.mono: dict[object, int] = {}

    def emit(self, path: str, dt: datetime, text: str, newline: bool = True) -> None:
        self.seq += 1
        self.events.setdefault(path, []).append((dt, self.seq, text + ("\n" if newline else "")))

    def lines(self, path: str, dt: datetime, lines: list[str], step_us: int = 0) -> datetime:
        for ln in lines:
            self.emit(path, dt, ln)
            dt += timedelta(microseconds=step_us)
        return dt

    def put(self, path: str, text: str) -> None:
        self.static[path] = text

    def write(self, out: Path) -> None:
        target = out / self.name
        if target.exists():
            shutil.rmtree(target)
        for path, evs in self.events.items():
            p = target / path
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text("".join(t for _, _, t in sorted(evs)), encoding="utf-8")
        for path, text in self.static.items():
            p = target / path
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8")
        (target / ".correlatorignore").write_text(IGNORE, encoding="utf-8")

    # helpers ---------------------------------------------------------------
    def ns(self) -> str:
        """c10 prints nanoseconds of CLOCK_MONOTONIC (02-pytorch-c10d.md §1): any 9 digits."""
        return f"{self.rng.randrange(10**9):09d}"

    def hexaddr(self, low: int, bits: int = 12) -> int:
        """An ASLR-like page base (0x7fXXXXXXX000) plus the low bits kept from the source."""
        return (0x7F << 40) | (self.rng.randrange(1 << 28) << bits) | (low & ((1 << bits) - 1))

    def uuid(self) -> str:
        h = "".join(self.rng.choice("0123456789abcdef") for _ in range(32))
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def truth(status, rank, node, all_ranks, category, contains, fd_rank, collateral, notes) -> str:
    return json.dumps({
        "schema_version": 1,
        "status": status,
        "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks},
        "root_cause": {"category": category, "rule_id": None},
        "first_deviating": {"contains": contains, "rank": fd_rank},
        "collateral": collateral,
        "notes": notes,
    }, indent=2) + "\n"


# --------------------------------------------------------------------------- stamps

def c10(j: Job, dt: datetime, level: str = "E", proc: object = None) -> str:
    """c10 logger stamp, torch >= ~2.4: ``E1206 18:44:12.715298746`` (unpadded
    month*100+day, then tv_nsec of CLOCK_MONOTONIC). src: 02-pytorch-c10d.md §1 format string.
    The nanoseconds advance with the process's own lines (as in hiyouga/LlamaFactory issue 6269)
    but are unrelated to the wall-clock second: a random per-process offset."""
    if proc not in j.mono:
        j.mono[proc] = j.rng.randrange(10**9)
    ns = (j.mono[proc] + int(dt.timestamp() * 1e6) * 1000 + j.rng.randrange(1000)) % 10**9
    return f"{level}{dt.month * 100 + dt.day} {dt:%H:%M:%S}.{ns:09d}"


def glog_py(dt: datetime, level: str, pid: int, path: str) -> str:
    """torch._logging glog imitation (torchrun agent, torch >= 2.4): fraction = ms*1000.
    src: 03-torchrun-elastic.md §1 format string."""
    return f"{level}{dt:%m%d %H:%M:%S}.{dt.microsecond // 1000 * 1000:06d} {pid} {path}]"


def hf_ts(dt: datetime) -> str:
    """The trainer's logging format (captured in sample_logs/_capture/train.py): %m/%d/%Y %H:%M:%S."""
    return f"{dt:%m/%d/%Y %H:%M:%S}"


def ds_ts(dt: datetime) -> str:
    """DeepSpeed logger asctime ``[YYYY-MM-DD HH:MM:SS,mmm]`` (04-deepspeed.md §1)."""
    return f"[{dt:%Y-%m-%d %H:%M:%S},{dt.microsecond // 1000:03d}]"


# --------------------------------------------------------------------------- the captured trainer
# src: sample_logs/_capture/train.py (our own trainer; its log lines were captured on this
# machine, e.g. sample_logs/gloo-data-error-per-rank/rank2.log). Only the backend (nccl),
# host names, pids, ranks and numbers differ here.

def tr_init(dt, rank, world, local, pid, host):
    return f"{hf_ts(dt)} - INFO - train - rank {rank}/{world} (local_rank {local}) pid {pid} host {host}: process group initialized, backend=nccl"


def tr_versions(dt, torch_v, py_v):
    return f"{hf_ts(dt)} - INFO - train - torch {torch_v}, python {py_v}"


def tr_header(dt, n, world, steps):
    return [
        f"{hf_ts(dt)} - INFO - train - ***** Running training *****",
        f"{hf_ts(dt)} - INFO - train -   Num examples = {n}",
        f"{hf_ts(dt)} - INFO - train -   Num examples per rank = {n // world}",
        f"{hf_ts(dt)} - INFO - train -   World size = {world}",
        f"{hf_ts(dt)} - INFO - train -   Total optimization steps = {steps}",
    ]


def tr_step(dt, step, rank, loss, avg, sps):
    return f"{hf_ts(dt)} - INFO - train - step {step} | rank {rank} | loss {loss:.4f} | avg loss {avg:.4f} | {sps:.2f} s/step"


def losses(j: Job, step: int, world: int) -> tuple[list[float], float]:
    """A decreasing loss curve with per-rank noise; avg = all-reduced mean (same on all ranks)."""
    base = 2.1 * (0.9995 ** step) + 0.35
    per = [max(0.05, base * (1 + j.rng.gauss(0, 0.06))) for _ in range(world)]
    return per, sum(per) / world


# trainer traceback frames (py3.11 carets), captured in gloo-data-error-per-rank/rank1.log and
# rank2.log; the trainer's own file/lines are kept, the torch frames are replaced by torch-2.5
# frames from real torch 2.5 logs (cited where used).
def tb_trainer_head(script: str) -> list[str]:
    return [
        "Traceback (most recent call last):",
        f'  File "{script}", line 231, in <module>',
        "    main()",
        f'  File "{script}", line 227, in main',
        "    train(args)",
    ]


# --------------------------------------------------------------------------- c10d / ProcessGroupNCCL

# torch 2.5 (src: modelscope/DiffSynth-Studio issue 458 [616, 1785, 1834, 630, 636, 1595, 618 +
# frames #0-#5]; mittagessen/party issue 7 [frame #6 "clone + 0x44", the terminate/what() block,
# "Exception raised from ncclCommWatchdog ... :1601" + its frames]; XPixelGroup/BasicSR issue 737
# [default_pg prefix]).
def pg25(rank: int) -> str:
    return f"[PG ID 0 PG GUID 0(default_pg) Rank {rank}]"


def work(seq, op, numel, timeout_ms=600000):
    return f"WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={numel}, NumelOut={numel}, Timeout(ms)={timeout_ms})"


class Libs:
    """Per-process load addresses (ASLR); offsets/low bits are the source builds'."""

    def __init__(self, j: Job, site: str, libc_dir: str = "/lib/x86_64-linux-gnu"):
        self.site = site
        self.libc_dir = libc_dir
        rb = lambda: (0x7F << 40) | (j.rng.randrange(1 << 16, 1 << 28) << 12)  # noqa: E731
        self.c10, self.cuda, self.torch, self.libc, self.cxx, self.c10cuda = (rb() for _ in range(6))

    def lib(self, name):
        return f"{self.site}/torch/lib/{name}"


def frames_checktimeout_25(L: Libs) -> list[str]:
    # src: DiffSynth-Studio 458 (#0-#5), mittagessen/party 7 (#6); addresses re-based per process,
    # "<unknown function> + X" frames are base + X as in the sources.
    return [
        f"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 ({L.c10 + 0x96446:#x} in {L.lib('libc10.so')})",
        f"frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x282 ({L.cuda + 0xe2a772:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0x233 ({L.cuda + 0xe31bb3:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #3: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d ({L.cuda + 0xe3361d:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #4: <unknown function> + 0x145c0 ({L.torch + 0x145c0:#x} in {L.lib('libtorch.so')})",
        f"frame #5: <unknown function> + 0x94ac3 ({L.libc + 0x94ac3:#x} in {L.libc_dir}/libc.so.6)",
        f"frame #6: clone + 0x44 ({L.libc + 0x125a04:#x} in {L.libc_dir}/libc.so.6)",
    ]


def frames_commwatchdog_25(L: Libs) -> list[str]:
    # src: mittagessen/party 7
    return [
        f"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 ({L.c10 + 0x96446:#x} in {L.lib('libc10.so')})",
        f"frame #1: <unknown function> + 0xe4271b ({L.cuda + 0xe4271b:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #2: <unknown function> + 0x145c0 ({L.torch + 0x145c0:#x} in {L.lib('libtorch.so')})",
        f"frame #3: <unknown function> + 0x94ac3 ({L.libc + 0x94ac3:#x} in {L.libc_dir}/libc.so.6)",
        f"frame #4: clone + 0x44 ({L.libc + 0x125a04:#x} in {L.libc_dir}/libc.so.6)",
    ]


def c10d25_timeout(j: Job, path: str, dt: datetime, rank: int, seq: int, op: str, numel: int,
                   enq: int, comp: int, L: Libs) -> datetime:
    """Everything a torch-2.5 rank prints when its watchdog times out, until SIGABRT."""
    ran = 600000 + j.rng.randrange(5, 95)
    w = work(seq, op, numel)
    caught = f"[Rank {rank}] Watchdog caught collective operation timeout: {w} ran for {ran} milliseconds before timing out."
    out = [
        f"[rank{rank}]:[{c10(j, dt, 'E', rank)} ProcessGroupNCCL.cpp:616] {caught}",
        f"[rank{rank}]:[{c10(j, dt + timedelta(microseconds=217), 'E', rank)} ProcessGroupNCCL.cpp:1785] {pg25(rank)} Exception (either an error or timeout) detected by watchdog at work: {seq}, last enqueued NCCL work: {enq}, last completed NCCL work: {comp}.",
        f"[rank{rank}]:[{c10(j, dt + timedelta(microseconds=418), 'E', rank)} ProcessGroupNCCL.cpp:1834] {pg25(rank)} Timeout at NCCL work: {seq}, last enqueued NCCL work: {enq}, last completed NCCL work: {comp}.",
        f"[rank{rank}]:[{c10(j, dt + timedelta(microseconds=603), 'E', rank)} ProcessGroupNCCL.cpp:630] [Rank {rank}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        f"[rank{rank}]:[{c10(j, dt + timedelta(microseconds=772), 'E', rank)} ProcessGroupNCCL.cpp:636] [Rank {rank}] To avoid data inconsistency, we are taking the entire process down.",
        f"[rank{rank}]:[{c10(j, dt + timedelta(microseconds=925), 'E', rank)} ProcessGroupNCCL.cpp:1595] {pg25(rank)} Process group watchdog thread terminated with exception: {caught}",
        "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:618 (most recent call first):",
        *frames_checktimeout_25(L),
        "",
        "terminate called after throwing an instance of 'c10::DistBackendError'",
        f"  what():  {pg25(rank)} Process group watchdog thread terminated with exception: {caught}",
        "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:618 (most recent call first):",
        *frames_checktimeout_25(L),
        "",
        "Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1601 (most recent call first):",
        *frames_commwatchdog_25(L),
        "",
    ]
    return j.lines(path, dt, out, step_us=40)


# torch 2.4 (src: sgl-project/sglang issue 1693 and hiyouga/LlamaFactory issue 6269 [607, 1664,
# 1709, 621, 627, 1515, 609]; jpata/particleflow issue 390 [frames of checkTimeout, the second
# "Exception raised from ncclCommWatchdog ... :1521" block]; milabench PR 269 [PG 0 (default_pg)
# prefix]; pytorch/pytorch issue 126544 [Ubuntu 22.04 libstdc++/libc frames]).
def pg24(rank: int) -> str:
    return f"[PG 0 (default_pg) Rank {rank}]"


def frames_checktimeout_24(L: Libs) -> list[str]:
    return [
        f"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 ({L.c10 + 0x9cf86:#x} in {L.lib('libc10.so')})",
        f"frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x1d2 ({L.cuda + 0xe358f2:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0x233 ({L.cuda + 0xe3c333:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #3: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x10c ({L.cuda + 0xe3e71c:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #4: <unknown function> + 0xdc253 ({L.cxx + 0xdc253:#x} in {L.libc_dir}/libstdc++.so.6)",
        f"frame #5: <unknown function> + 0x94ac3 ({L.libc + 0x94ac3:#x} in {L.libc_dir}/libc.so.6)",
        f"frame #6: <unknown function> + 0x126850 ({L.libc + 0x126850:#x} in {L.libc_dir}/libc.so.6)",
    ]


def frames_commwatchdog_24(L: Libs) -> list[str]:
    return [
        f"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 ({L.c10 + 0x9cf86:#x} in {L.lib('libc10.so')})",
        f"frame #1: <unknown function> + 0xe5aa84 ({L.cuda + 0xe5aa84:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #2: <unknown function> + 0xdc253 ({L.cxx + 0xdc253:#x} in {L.libc_dir}/libstdc++.so.6)",
        f"frame #3: <unknown function> + 0x94ac3 ({L.libc + 0x94ac3:#x} in {L.libc_dir}/libc.so.6)",
        f"frame #4: <unknown function> + 0x126850 ({L.libc + 0x126850:#x} in {L.libc_dir}/libc.so.6)",
    ]


def c10d24_timeout(j: Job, path: str, dt: datetime, rank: int, seq: int, op: str, numel: int,
                   enq: int, comp: int, L: Libs, prefix: str = "") -> datetime:
    ran = 600000 + j.rng.randrange(5, 95)
    w = work(seq, op, numel)
    caught = f"[Rank {rank}] Watchdog caught collective operation timeout: {w} ran for {ran} milliseconds before timing out."
    out = [
        f"[rank{rank}]:[{c10(j, dt, 'E', rank)} ProcessGroupNCCL.cpp:607] {caught}",
        f"[rank{rank}]:[{c10(j, dt + timedelta(microseconds=217), 'E', rank)} ProcessGroupNCCL.cpp:1664] {pg24(rank)} Exception (either an error or timeout) detected by watchdog at work: {seq}, last enqueued NCCL work: {enq}, last completed NCCL work: {comp}.",
        f"[rank{rank}]:[{c10(j, dt + timedelta(microseconds=418), 'E', rank)} ProcessGroupNCCL.cpp:1709] {pg24(rank)} Timeout at NCCL work: {seq}, last enqueued NCCL work: {enq}, last completed NCCL work: {comp}.",
        f"[rank{rank}]:[{c10(j, dt + timedelta(microseconds=603), 'E', rank)} ProcessGroupNCCL.cpp:621] [Rank {rank}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        f"[rank{rank}]:[{c10(j, dt + timedelta(microseconds=772), 'E', rank)} ProcessGroupNCCL.cpp:627] [Rank {rank}] To avoid data inconsistency, we are taking the entire process down.",
        f"[rank{rank}]:[{c10(j, dt + timedelta(microseconds=925), 'E', rank)} ProcessGroupNCCL.cpp:1515] {pg24(rank)} Process group watchdog thread terminated with exception: {caught}",
        "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:609 (most recent call first):",
        *frames_checktimeout_24(L),
        "",
        "terminate called after throwing an instance of 'c10::DistBackendError'",
        f"  what():  {pg24(rank)} Process group watchdog thread terminated with exception: {caught}",
        "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:609 (most recent call first):",
        *frames_checktimeout_24(L),
        "",
        "Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1521 (most recent call first):",
        *frames_commwatchdog_24(L),
        "",
    ]
    return j.lines(path, dt, [prefix + ln for ln in out], step_us=40)


# --------------------------------------------------------------------------- torchrun agent

# torch 2.5 agent lines and ChildFailedError table (src: chenqiu1024/Seg-R1
# docs/runtime_error_in_output-20250831.md @ 6628f84 — torch 2.5: api.py:869 "failed", api.py:897
# "Sending process", run.py:919/910, launcher/api.py:138/269, errors/__init__.py:355; table layout
# without the signal-name suffix of 2.13).
def agent25_sigterm(dt, agent_pid, pid):
    return f"{glog_py(dt, 'W', agent_pid, 'site-packages/torch/distributed/elastic/multiprocessing/api.py:897')} Sending process {pid} closing signal SIGTERM"


def agent25_failed(dt, agent_pid, code, local, pid, binary):
    return f"{glog_py(dt, 'E', agent_pid, 'site-packages/torch/distributed/elastic/multiprocessing/api.py:869')} failed (exitcode: {code}) local_rank: {local} (pid: {pid}) of binary: {binary}"


def torchrun25_traceback(site: str, bindir: str) -> list[str]:
    return [
        "Traceback (most recent call last):",
        f'  File "{bindir}/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        "             ^^^^^^",
        f'  File "{site}/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 355, in wrapper',
        "    return f(*args, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^",
        f'  File "{site}/torch/distributed/run.py", line 919, in main',
        "    run(args)",
        f'  File "{site}/torch/distributed/run.py", line 910, in run',
        "    elastic_launch(",
        f'  File "{site}/torch/distributed/launcher/api.py", line 138, in __call__',
        "    return launch_agent(self._config, self._entrypoint, list(args))",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        f'  File "{site}/torch/distributed/launcher/api.py", line 269, in launch_agent',
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
    ]


def failure_entry(idx, dt, host, rank, local, code, pid, tb) -> list[str]:
    """One ChildFailedError entry (03-torchrun-elastic.md §2 template, layout as in
    pytorch/pytorch issue 121209 and the Seg-R1 log); tb: 'signal' or 'record'."""
    if code < 0:
        sig = {6: "SIGABRT", 9: "SIGKILL", 15: "SIGTERM", 11: "SIGSEGV"}[-code]
        tbtext = f"Signal {-code} ({sig}) received by PID {pid}"
    else:
        tbtext = "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"
    return [
        f"[{idx}]:",
        f"  time      : {dt:%Y-%m-%d_%H:%M:%S}",
        f"  host      : {host}",
        f"  rank      : {rank} (local_rank: {local})",
        f"  exitcode  : {code} (pid: {pid})",
        "  error_file: <N/A>",
        f"  traceback : {tbtext}",
    ]


def failed_table(title: str, dt, host, root: tuple, others: list[tuple], width: int = 60) -> list[str]:
    """root/others: (rank, local, code, pid). Borders of 60 as in every cited sample."""
    out = ["=" * width, f"{title} FAILED", "-" * width, "Failures:"]
    if not others:
        out.append("  <NO_OTHER_FAILURES>")
    for i, (r, lr, c, p) in enumerate(others, 1):
        out += failure_entry(i, dt, host, r, lr, c, p, None)
    out += ["-" * width, "Root Cause (first observed failure):"]
    r, lr, c, p = root
    out += failure_entry(0, dt, host, r, lr, c, p, None)
    out.append("=" * width)
    return out


# --------------------------------------------------------------------------- tqdm

def tqdm_bar(n: int, total: int, elapsed: float, ncols: int = 104, desc: str = "") -> str:
    """A tqdm progress-bar state rendered by tqdm itself (the exact format real tqdm prints).
    Run this script with a Python that has tqdm (the capture venv /home/user/venv does)."""
    try:
        from tqdm import tqdm  # type: ignore
    except ImportError:  # pragma: no cover
        sys.exit("assemble.py needs tqdm (e.g. run it with /home/user/venv/bin/python)")
    return tqdm.format_meter(n, total, elapsed, ncols=ncols, prefix=desc)


# =========================================================================== scenario 1

SITE_CONDA = "/opt/conda/lib/python3.11/site-packages"

# src: chenqiu1024/Seg-R1 docs/runtime_error_in_output-20250831.md @ 6628f84 (torch 2.5, py3.11):
# the second CUDA OOM traceback, verbatim except the install prefix (/root/autodl-tmp/envs/seg-r1/
# lib/python3.11/site-packages -> /opt/conda/...) and the work dir (/root/autodl-tmp/works -> /workspace).
SEGR1_OOM_FRAMES = """Traceback (most recent call last):
  File "/workspace/Seg-R1/seg-r1/src/open_r1/grpo_prerl.py", line 393, in <module>
    main(script_args, training_args, model_args)
  File "/workspace/Seg-R1/seg-r1/src/open_r1/grpo_prerl.py", line 386, in main
    trainer.train()
  File "{S}/transformers/trainer.py", line 2241, in train
    return inner_training_loop(
           ^^^^^^^^^^^^^^^^^^^^
  File "{S}/transformers/trainer.py", line 2548, in _inner_training_loop
    tr_loss_step = self.training_step(model, inputs, num_items_in_batch)
                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "{S}/transformers/trainer.py", line 3740, in training_step
    self.accelerator.backward(loss, **kwargs)
  File "{S}/accelerate/accelerator.py", line 2734, in backward
    loss.backward(**kwargs)
  File "{S}/torch/_tensor.py", line 581, in backward
    torch.autograd.backward(
  File "{S}/torch/autograd/__init__.py", line 347, in backward
    _engine_run_backward(
  File "{S}/torch/autograd/graph.py", line 825, in _engine_run_backward
    return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "{S}/torch/autograd/function.py", line 307, in apply
    return user_fn(self, *args)
           ^^^^^^^^^^^^^^^^^^^^
  File "{S}/torch/utils/checkpoint.py", line 304, in backward
    outputs = ctx.run_function(*detached_inputs)
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "{S}/torch/nn/modules/module.py", line 1736, in _wrapped_call_impl
    return self._call_impl(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "{S}/torch/nn/modules/module.py", line 1747, in _call_impl
    return forward_call(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "{S}/transformers/models/qwen2_5_vl/modeling_qwen2_5_vl.py", line 351, in forward
    hidden_states = hidden_states + self.attn(
                                    ^^^^^^^^^^
  File "{S}/torch/nn/modules/module.py", line 1736, in _wrapped_call_impl
    return self._call_impl(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "{S}/torch/nn/modules/module.py", line 1747, in _call_impl
    return forward_call(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "{S}/transformers/models/qwen2_5_vl/modeling_qwen2_5_vl.py", line 320, in forward
    attn_output = F.scaled_dot_product_attention(q, k, v, attention_mask, dropout_p=0.0)
                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"""

# src: 08-wrappers.md §5 (pytorch/pytorch issue 16417 comment; OpenHelix-Team/cobra issue 24 for the
# "[rankN]: torch.OutOfMemoryError" form). Numbers adjusted to an 80 GB A100 (79.14 GiB usable).
OOM_MSG = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.03 GiB. GPU {gpu} has a total "
           "capacity of 79.14 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has "
           "78.10 GiB memory in use. Of the allocated memory 73.42 GiB is allocated by PyTorch, and 3.91 GiB "
           "is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
           "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for "
           "Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")

# src: Seg-R1 log above (torch 2.5): emitted by the OOM rank while exiting.
PG_NOT_DESTROYED = ("[rank{r}]:[{stamp} ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been "
                    "destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should "
                    "call destroy_process_group to ensure that any pending NCCL operations have finished in this "
                    "process. In rare cases this process can exit before this point and block the progress of "
                    "another member of the process group. This constraint has always been present,  but this "
                    "warning has only been added since PyTorch 2.4 (function operator())")

# src: Seg-R1 log (transformers lines printed by every process).
FA2_WARN = ("You are attempting to use Flash Attention 2.0 with a model not initialized on GPU. Make sure to "
            "move the model to GPU after initializing it on CPU with `model.to('cuda')`.")
USE_CACHE_WARN = "`use_cache=True` is incompatible with gradient checkpointing. Setting `use_cache=False`..."


def scenario_oom_cascade() -> Job:
    j = Job("oom-cascade-nccl-timeouts", 101)
    hosts = {0: "gpu-a100-017", 1: "gpu-a100-018"}
    agent = {0: 52270, 1: 18760}
    pids = {r: (52311 + r if r < 4 else 18803 + r - 4) for r in range(8)}
    world, steps, sps = 8, 375, 20.5
    t0 = datetime(2025, 3, 18, 9, 2, 11)
    bindir, binary = "/opt/conda/bin", "/opt/conda/bin/python3.11"
    oom_rank, oom_step = 5, 128
    f = lambda r: f"node-{r // 4}/console.log"  # noqa: E731

    # start-up chatter of every process
    for r in range(world):
        dt = t0 + timedelta(seconds=6 + 0.3 * r)
        j.emit(f(r), dt, FA2_WARN)
        el = 1.0 + j.rng.random() * 0.1
        for k in range(6):
            j.emit(f(r), dt + timedelta(seconds=k * el / 5), "\r" + tqdm_bar(k, 5, k * el / 5, desc="Loading checkpoint shards: "), newline=False)
        j.emit(f(r), dt + timedelta(seconds=el + 0.01), "")
    # first collective: NCCL prints its bare version line on rank 0 (NCCL_DEBUG unset; 01-nccl.md §2)
    j.emit(f(0), t0 + timedelta(seconds=31), "NCCL version 2.21.5+cuda12.4")
    start = t0 + timedelta(seconds=35)
    j.emit(f(0), start, "\r" + tqdm_bar(0, steps, 0), newline=False)
    for r in range(world):
        j.emit(f(r), start + timedelta(seconds=0.5 + 0.05 * r), USE_CACHE_WARN)
    for s in range(1, oom_step):
        dt = start + timedelta(seconds=s * sps + j.rng.uniform(-0.4, 0.4))
        if s % 10 == 0:  # Trainer's log dict via tqdm.write: clear bar, line, redraw (tqdm.write)
            _, avg = losses(j, s * 40, world)
            lr = 1e-06 * min(1.0, s / 19) * (1 - s / steps)
            d = {"loss": round(avg, 4), "grad_norm": j.rng.uniform(0.8, 2.4),
                 "learning_rate": lr, "epoch": round(s / steps, 2)}
            j.emit(f(0), dt, "\r" + " " * 104 + "\r" + str(d) + "\n", newline=False)
        j.emit(f(0), dt + timedelta(milliseconds=2), "\r" + tqdm_bar(s, steps, (dt - start).total_seconds()), newline=False)

    # ---- rank 5 (node-1, local rank 1): CUDA OOM in the backward of step 128
    t_oom = start + timedelta(seconds=oom_step * sps - 7.3)
    tb = [*SEGR1_OOM_FRAMES.replace("{S}", SITE_CONDA).split("\n"), OOM_MSG.format(gpu=oom_rank - 4)]
    j.lines(f(oom_rank), t_oom, [f"[rank{oom_rank}]: {ln}" for ln in tb], step_us=50)
    t = t_oom + timedelta(seconds=1.1)
    j.emit(f(oom_rank), t, PG_NOT_DESTROYED.format(r=oom_rank, stamp=c10(j, t, "W", oom_rank)))
    t += timedelta(seconds=1.6)
    for r in (4, 6, 7):
        j.emit(f(oom_rank), t, agent25_sigterm(t, agent[1], pids[r]))
        t += timedelta(milliseconds=1)
    t += timedelta(milliseconds=870)
    j.emit(f(oom_rank), t, agent25_failed(t, agent[1], 1, 1, pids[oom_rank], binary))
    tbl = torchrun25_traceback(SITE_CONDA, bindir) + failed_table(
        "seg-r1/src/open_r1/grpo_prerl.py", t, hosts[1], (oom_rank, 1, 1, pids[oom_rank]), [])
    j.lines(f(oom_rank), t + timedelta(milliseconds=1), tbl)

    # ---- node 0: ranks 0-3 wait in all_reduce SeqNum 4187 until the 10-minute watchdog fires
    seq, numel = 4187, 13107200
    libs = {r: Libs(j, SITE_CONDA) for r in range(4)}
    for r in range(4):
        dt = t_oom + timedelta(seconds=600 - 1.2 + 0.02 * r + j.rng.random() * 0.05)
        c10d25_timeout(j, f(r), dt, r, seq, "ALLREDUCE", numel, enq=seq + 3, comp=seq - 1, L=libs[r])
    ta = t_oom + timedelta(seconds=600.3)
    for r in (1, 3):
        j.emit(f(0), ta, agent25_sigterm(ta, agent[0], pids[r]))
    ta += timedelta(milliseconds=120)
    j.emit(f(0), ta, agent25_failed(ta, agent[0], -6, 0, pids[0], binary))
    tbl = torchrun25_traceback(SITE_CONDA, bindir) + failed_table(
        "seg-r1/src/open_r1/grpo_prerl.py", ta, hosts[0], (0, 0, -6, pids[0]), [(2, 2, -6, pids[2])])
    j.lines(f(0), ta + timedelta(milliseconds=1), tbl)

    j.put("truth.json", truth(
        "failed", oom_rank, "node-1", False, "oom", "torch.OutOfMemoryError: CUDA out of memory", oom_rank,
        [{"contains": "Watchdog caught collective operation timeout", "ranks": [0, 1, 2, 3]},
         {"contains": "closing signal SIGTERM", "ranks": [4, 6, 7]}],
        "assembled: rank 5 (node-1, local rank 1) hit a CUDA OOM in the backward of step 128; torchrun on node-1 "
        "SIGTERMed ranks 4, 6, 7 and blamed rank 5; ranks 0-3 on node-0 waited in all_reduce SeqNum 4187 and "
        "their NCCL watchdogs fired 600 s later (SIGABRT, exit -6); node-0's table blames rank 0."))
    j.put("README.md", README_OOM)
    return j



# =========================================================================== NCCL 2.21.5 INFO (socket transport)

# src: a public Kubeflow PyTorchJob log in the code index (read_file id 32352491303; the index did not
# return its repository): NCCL 2.21.5 `NCCL_DEBUG=INFO` init of a 2-node job over NET/Socket with
# SHM inside the node (lines from "Bootstrap : Using" to "Init COMPLETE"); huggingface/trl issue 2882
# for "NET/IB : No device found." (a host without IB devices instead of the pod's missing libibverbs).
# Ranks, cudaDev/busId, comm pointers, commId, tids, IPs and the ring/tree values are set for a
# 2 x 4 topology (ring 0..7, chain trees inside a node, the two node heads linked); the
# threadThresholds middle group scales with nranks (8*nranks: 32 for 4 ranks in the source,
# 128 for 16 ranks in NVIDIA/nccl issue 1609), 64 here.
def nccl21_init(j: Job, path: str, dt: datetime, host: str, pid: int, rank: int, local: int,
                nranks: int, per_node: int, bus: str, ip: str, comm: str, commid: str) -> datetime:
    p = f"{host}:{pid}:{pid} [{local}] NCCL INFO "
    main = [
        p + f"Bootstrap : Using eth0:{ip}<0>",
        p + "NET/Plugin: No plugin found (libnccl-net.so)",
        p + "NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so",
        p + "NET/Plugin: Using internal network plugin.",
        p + "cudaDriverVersion 12040",
    ]
    if rank == 0:
        main.append("NCCL version 2.21.5+cuda12.4")
    else:  # non-zero ranks print cudaDriverVersion first (as rank 1 in the source)
        main = [main[4], *main[:4]]
    dt = j.lines(path, dt, main, step_us=300)
    tid = pid + 283 + local
    q = f"{host}:{pid}:{tid} [{local}] NCCL INFO "
    nnodes = nranks // per_node
    head = rank - local
    mask = "55555555,55555555" if local < per_node // 2 else "aaaaaaaa,aaaaaaaa"
    # trees: chain inside the node, node heads linked (tree 0 rooted at rank 0, tree 1 at the last head)
    down = rank + 1 if local < per_node - 1 else -1
    up = rank - 1 if local > 0 else -1
    if local == 0 and nnodes == 2:
        other = (head + per_node) % nranks
        if head == 0:
            trees = f"Trees [0] {down}/{other}/-1->{rank}->-1 [1] {down}/-1/-1->{rank}->{other}"
        else:
            trees = f"Trees [0] {down}/-1/-1->{rank}->{other} [1] {down}/{other}/-1->{rank}->-1"
    else:
        trees = f"Trees [0] {down}/-1/-1->{rank}->{up} [1] {down}/-1/-1->{rank}->{up}"
    out = [
        q + "NET/IB : No device found.",
        q + f"NET/Socket : Using [0]eth0:{ip}<0>",
        q + "Using non-device net plugin version 0",
        q + "Using network Socket",
        q + f"ncclCommInitRank comm {comm} rank {rank} nranks {nranks} cudaDev {local} nvmlDev {local} busId {bus} commId {commid} - Init START",
        q + f"Setting affinity for GPU {local} to {mask}",
        q + f"comm {comm} rank {rank} nRanks {nranks} nNodes {nnodes} localRanks {per_node} localRank {local} MNNVL 0",
    ]
    if rank == 0:
        ring = "".join(f"{r:4d}" for r in range(nranks))
        out += [q + f"Channel 00/02 : {ring}", q + f"Channel 01/02 : {ring}"]
    out += [q + trees, q + "P2P Chunksize set to 131072"]
    nxt, prv = (rank + 1) % nranks, (rank - 1) % nranks
    nl, pl = nxt % per_node, prv % per_node
    if local == 0:  # receive from the previous node over the network
        out += [q + f"Channel {c:02d}/0 : {prv}[{pl}] -> {rank}[{local}] [receive] via NET/Socket/0" for c in (0, 1)]
    if local == per_node - 1:
        out += [q + f"Channel {c:02d}/0 : {rank}[{local}] -> {nxt}[{nl}] [send] via NET/Socket/0" for c in (0, 1)]
    else:
        out += [q + f"Channel {c:02d} : {rank}[{local}] -> {nxt}[{nl}] via SHM/direct/direct" for c in (0, 1)]
    out.append(q + "Connected all rings")
    if local == 0 and nnodes == 2:
        other = (head + per_node) % nranks
        out += [q + f"Channel {c:02d}/0 : {other}[0] -> {rank}[0] [receive] via NET/Socket/0" for c in (0, 1)]
        out += [q + f"Channel {c:02d}/0 : {rank}[0] -> {other}[0] [send] via NET/Socket/0" for c in (0, 1)]
    if local > 0:
        out += [q + f"Channel {c:02d} : {rank}[{local}] -> {rank - 1}[{local - 1}] via SHM/direct/direct" for c in (0, 1)]
    out += [
        q + "Connected all trees",
        q + f"threadThresholds 8/8/64 | {8 * nranks}/8/64 | 512 | 512",
        q + "2 coll channels, 2 collnet channels, 0 nvls channels, 2 p2p channels, 2 p2p channels per peer",
        q + "TUNER/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-tuner.so",
        q + "TUNER/Plugin: Using internal tuner plugin.",
        q + f"ncclCommInitRank comm {comm} rank {rank} nranks {nranks} cudaDev {local} nvmlDev {local} busId {bus} commId {commid} - Init COMPLETE",
    ]
    return j.lines(path, dt + timedelta(milliseconds=40), out, step_us=900)


def heap_ptr(j: Job) -> str:
    return f"0x{j.rng.choice(['55', '56'])}{j.rng.randrange(16**10) & ~0xf:010x}"


# =========================================================================== scenario 3: Xid 79

# src: rwth-i6/returnn issue 1486 (dmesg AER lines before the GPU was lost; there printed with
# relative `[  +0.000316]` stamps, here raw seconds since boot), chia-gigahorse issue 301
# ("NVRM: GPU at PCI:... GPU-<uuid>"), leptonai/gpud components/accelerator/nvidia/xid kmsg comment
# (the Xid 79 line with pid='<unknown>', name=<unknown>), rwth-i6/returnn issues 1484/1486 and
# stanford-cs336/assignment4-data issue 1 (what nvidia-smi prints once the GPU is gone).
AER = [
    "pcieport {rp}: AER: Corrected error received: {rp}",
    "pcieport {rp}: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)",
    "pcieport {rp}:   device [8086:6f08] error status/mask=00001000/00002000",
    "pcieport {rp}:    [12] Timeout               ",
]


def dmesg_raw(boot: datetime, dt: datetime) -> str:
    s = (dt - boot).total_seconds()
    return f"[{s:14.6f}]"


def scenario_xid79() -> Job:
    j = Job("xid79-fallen-off-bus", 303)
    hosts = ["gpu-l40-07", "gpu-l40-08"]
    ips = ["10.20.4.7", "10.20.4.8"]
    buses = ["17000", "31000", "61000", "81000"]
    agent = [30412, 29977]
    pids = {r: (30455 + r if r < 4 else 30021 + r - 4) for r in range(8)}
    world, per_node = 8, 4
    t0 = datetime(2025, 6, 3, 14, 0, 2)
    dead, dead_step = 6, 813           # rank 6 = gpu-l40-08 GPU 2 = PCI 0000:61:00
    rf = lambda r: f"{hosts[r // per_node]}/rank{r}.log"  # noqa: E731
    af = lambda n: f"{hosts[n]}/torchrun.log"  # noqa: E731
    comm = {r: heap_ptr(j) for r in range(world)}
    commid = f"0x{j.rng.randrange(16**16):016x}"
    binary = "/opt/conda/bin/python3.11"

    for r in range(world):
        local = r % per_node
        dt = t0 + timedelta(seconds=4.2 + 0.05 * r)
        j.emit(rf(r), dt, tr_init(dt, r, world, local, pids[r], hosts[r // per_node]))
        if r == 0:
            j.emit(rf(r), dt, tr_versions(dt, "2.5.1+cu124", "3.11.10"))
        nccl21_init(j, rf(r), dt + timedelta(seconds=0.6), hosts[r // per_node], pids[r], r, local, world,
                    per_node, buses[local], ips[r // per_node], comm[r], commid)
        if r == 0:
            j.lines(rf(r), dt + timedelta(seconds=2.1), tr_header(dt + timedelta(seconds=2.1), 1_280_000, world, 20_000))
    start = t0 + timedelta(seconds=7)
    sps = 0.62
    for s in range(10, dead_step, 10):
        per, avg = losses(j, s, world)
        for r in range(world):
            dt = start + timedelta(seconds=s * sps + 0.004 * r)
            j.emit(rf(r), dt, tr_step(dt, s, r, per[r], avg, sps + 0.003 * j.rng.random()))

    # the GPU of rank 6 falls off the bus during step 813: dmesg on gpu-l40-08
    boot = datetime(2025, 5, 20, 9, 12, 44, 311000)
    t_x = start + timedelta(seconds=(dead_step - 1) * sps + 0.41)
    rp = "0000:60:01.0"
    dm = f"{hosts[1]}/dmesg.log"
    for off in (-212.4, -95.8, -31.2, -2.7):
        tt = t_x + timedelta(seconds=off)
        j.lines(dm, tt, [f"{dmesg_raw(boot, tt + timedelta(microseconds=5 * i))} " + ln.format(rp=rp) for i, ln in enumerate(AER)])
    j.emit(dm, t_x, f"{dmesg_raw(boot, t_x)} NVRM: GPU at PCI:0000:61:00: GPU-{j.uuid()}")
    j.emit(dm, t_x + timedelta(microseconds=8), f"{dmesg_raw(boot, t_x + timedelta(microseconds=8))} NVRM: Xid (PCI:0000:61:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.")
    j.put(f"{hosts[1]}/nvidia-smi.txt", "Unable to determine the device handle for GPU0000:61:00.0: Unknown Error\n")

    # everybody else is in all_reduce SeqNum 1626 (bucket of step 813); rank 6 never finishes it
    seq, numel = 2 * (dead_step - 1) + 2, 577
    for r in range(world):
        if r == dead:
            continue
        dt = t_x + timedelta(seconds=600 - 0.3 + 0.015 * r + 0.04 * j.rng.random())
        c10d25_timeout(j, rf(r), dt, r, seq, "ALLREDUCE", numel, enq=seq + 1, comp=seq - 1, L=Libs(j, SITE_CONDA))
    # agents
    ta = t_x + timedelta(seconds=600.2)
    j.emit(af(0), ta, agent25_sigterm(ta, agent[0], pids[3]))
    ta2 = ta + timedelta(milliseconds=95)
    j.emit(af(0), ta2, agent25_failed(ta2, agent[0], -6, 0, pids[0], binary))
    j.lines(af(0), ta2, torchrun25_traceback(SITE_CONDA, "/opt/conda/bin") + failed_table(
        "train.py", ta2, hosts[0], (0, 0, -6, pids[0]), [(1, 1, -6, pids[1]), (2, 2, -6, pids[2])]))
    tb = ta + timedelta(milliseconds=160)
    j.emit(af(1), tb, agent25_sigterm(tb, agent[1], pids[dead]))
    tb2 = tb + timedelta(milliseconds=210)
    j.emit(af(1), tb2, agent25_failed(tb2, agent[1], -6, 0, pids[4], binary))
    j.lines(af(1), tb2, torchrun25_traceback(SITE_CONDA, "/opt/conda/bin") + failed_table(
        "train.py", tb2, hosts[1], (4, 0, -6, pids[4]), [(5, 1, -6, pids[5]), (7, 3, -6, pids[7])]))

    j.put("truth.json", truth(
        "failed", dead, hosts[1], False, "hardware_xid", "GPU has fallen off the bus", dead,
        [{"contains": "Watchdog caught collective operation timeout", "ranks": [0, 1, 2, 3, 4, 5, 7]}],
        "assembled: GPU 2 of gpu-l40-08 (PCI 0000:61:00, NCCL busId 61000 = rank 6) fell off the bus (Xid 79) "
        "during step 813; rank 6 hung silently, the other seven ranks' NCCL watchdogs fired 600 s later in "
        "all_reduce SeqNum 1626; neither torchrun table names rank 6 (gpu-l40-08's blames rank 4)."))
    j.put("README.md", README_XID79)
    return j



# =========================================================================== scenario 2: IB error

# torch 2.0 agent (src: formats/03-torchrun-elastic.md §1, hpcaitech/ColossalAI issue 3514 — Python
# BASIC_FORMAT, no time stamp) and torchrun traceback (src: public notes of a torch==2.0.1 run in the
# code index, read_file id 5754210137: errors/__init__.py 346, run.py 794/785, launcher/api.py
# 134/250; the console-script frame is pip's `line 8 ... sys.exit(main())` as captured here).
def agent20_sigterm(pid):
    return f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {pid} closing signal SIGTERM"


def agent20_failed(code, local, pid, binary):
    return f"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: {code}) local_rank: {local} (pid: {pid}) of binary: {binary}"


def torchrun20_traceback(site: str) -> list[str]:
    return [
        "Traceback (most recent call last):",
        '  File "/usr/local/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        f'  File "{site}/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 346, in wrapper',
        "    return f(*args, **kwargs)",
        f'  File "{site}/torch/distributed/run.py", line 794, in main',
        "    run(args)",
        f'  File "{site}/torch/distributed/run.py", line 785, in run',
        "    elastic_launch(",
        f'  File "{site}/torch/distributed/launcher/api.py", line 134, in __call__',
        "    return launch_agent(self._config, self._entrypoint, list(args))",
        f'  File "{site}/torch/distributed/launcher/api.py", line 250, in launch_agent',
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
    ]


# NCCL 2.14.3 with the HPC-X nccl-rdma-sharp plugin ("IBext"). src: deepspeedai/DeepSpeed issue 2931
# (plugin lines, "Plugin Path", "P2P plugin IBext", "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_2:1/IB [RO];
# OOB ens9f1:...", "Using network IBext", Channel lines with busIds, "Connected all rings",
# "comm ... busId ... - Init COMPLETE", the IB WARN + "->" chain and the rank's terminate block);
# deepspeedai/DeepSpeed issue 2638 ("cudaDriverVersion 11070", "NCCL version 2.14.3+cuda11.7" with the
# same plugin); NVIDIA/nccl issue 1066 (NCCL 2.12: "Setting affinity", "Channel 00/02 :", "Trees");
# deepspeedai/DeepSpeedExamples issue 310 ("2 coll channels, 2 p2p channels, 2 p2p channels per peer").
def nccl214_init(j: Job, path, dt, host, pid, rank, local, nranks, per_node, buses, ip, comm):
    p = f"{host}:{pid}:{pid} [{local}] NCCL INFO "
    main = [
        p + f"Bootstrap : Using ens9f1:{ip}<0>",
        p + "NET/Plugin: Failed to find ncclNetPlugin_v6 symbol.",
        p + "NET/Plugin: Loaded net plugin NCCL RDMA Plugin (v5)",
        p + "NET/Plugin: Failed to find ncclCollNetPlugin_v6 symbol.",
        p + "NET/Plugin: Loaded coll plugin SHARP (v5)",
        p + "cudaDriverVersion 11070",
    ]
    if rank == 0:
        main.append("NCCL version 2.14.3+cuda11.7")
    dt = j.lines(path, dt, main, step_us=250)
    tid = pid + 114 + 2 * local
    q = f"{host}:{pid}:{tid} [{local}] NCCL INFO "
    b = lambda r: buses[r % per_node]  # noqa: E731
    nxt, prv = (rank + 1) % nranks, (rank - 1) % nranks
    head = rank - local
    other = (head + per_node) % nranks
    down = rank + 1 if local < per_node - 1 else -1
    up = rank - 1 if local > 0 else -1
    if local == 0:
        trees = (f"Trees [0] {down}/{other}/-1->{rank}->-1 [1] {down}/-1/-1->{rank}->{other}" if head == 0
                 else f"Trees [0] {down}/-1/-1->{rank}->{other} [1] {down}/{other}/-1->{rank}->-1")
    else:
        trees = f"Trees [0] {down}/-1/-1->{rank}->{up} [1] {down}/-1/-1->{rank}->{up}"
    out = [
        q + "Plugin Path : /opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so",
        q + "P2P plugin IBext",
        q + f"NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_2:1/IB [RO]; OOB ens9f1:{ip}<0>",
        q + "Using network IBext",
        q + f"Setting affinity for GPU {local} to {'ffff,ffffffff' if local < 2 else 'ffffffff,ffff0000,00000000'}",
    ]
    if rank == 0:
        ring = "".join(f"{r:4d}" for r in range(nranks))
        out += [q + f"Channel 00/02 : {ring}", q + f"Channel 01/02 : {ring}"]
    out.append(q + trees)
    if local == 0:
        out += [q + f"Channel {c:02d}/0 : {prv}[{b(prv)}] -> {rank}[{b(rank)}] [receive] via NET/IBext/{c}/GDRDMA" for c in (0, 1)]
    if local == per_node - 1:
        out += [q + f"Channel {c:02d}/0 : {rank}[{b(rank)}] -> {nxt}[{b(nxt)}] [send] via NET/IBext/{c}" for c in (0, 1)]
    else:
        out += [q + f"Channel {c:02d}/0 : {rank}[{b(rank)}] -> {nxt}[{b(nxt)}] via P2P/IPC" for c in (0, 1)]
    out.append(q + "Connected all rings")
    if local == 0:
        out += [q + f"Channel {c:02d}/0 : {other}[{b(other)}] -> {rank}[{b(rank)}] [receive] via NET/IBext/{c}/GDRDMA" for c in (0, 1)]
        out += [q + f"Channel {c:02d}/0 : {rank}[{b(rank)}] -> {other}[{b(other)}] [send] via NET/IBext/{c}" for c in (0, 1)]
    if local > 0:
        out += [q + f"Channel {c:02d}/0 : {rank}[{b(rank)}] -> {rank - 1}[{b(rank - 1)}] via P2P/IPC" for c in (0, 1)]
    out += [
        q + "Connected all trees",
        q + "2 coll channels, 2 p2p channels, 2 p2p channels per peer",
        q + f"comm {comm} rank {rank} nranks {nranks} cudaDev {local} busId {b(rank)} - Init COMPLETE",
    ]
    return j.lines(path, dt + timedelta(milliseconds=60), out, step_us=700)


def scenario_nccl_ib() -> Job:
    j = Job("nccl-ib-error-one-node", 202)
    hosts, ips = ["gpn021", "gpn022"], ["10.226.98.21", "10.226.98.22"]
    buses = ["5000", "8000", "83000", "89000"]
    pids = {r: (40161 + r if r < 4 else 41205 + r - 4) for r in range(8)}
    world, per_node = 8, 4
    site, binary = "/usr/local/lib/python3.10/dist-packages", "/usr/bin/python"
    f = lambda r: f"node-{r // per_node}/console.log"  # noqa: E731
    t0 = datetime(2023, 5, 16, 2, 10, 4)
    comm = {r: heap_ptr(j) for r in range(world)}
    bad, bad_step = 7, 2317

    for r in range(world):
        local = r % per_node
        dt = t0 + timedelta(seconds=5.5 + 0.07 * r)
        j.emit(f(r), dt, tr_init(dt, r, world, local, pids[r], hosts[r // per_node]))
        if r == 0:
            j.emit(f(r), dt, tr_versions(dt, "2.0.1+cu117", "3.10.12"))
        nccl214_init(j, f(r), dt + timedelta(seconds=0.4), hosts[r // per_node], pids[r], r, local, world,
                     per_node, buses, ips[r // per_node], comm[r])
        if r == 0:
            j.lines(f(r), dt + timedelta(seconds=2.6), tr_header(dt + timedelta(seconds=2.6), 1_920_000, world, 30_000))
    start = t0 + timedelta(seconds=9)
    sps = 0.81
    for s in range(20, bad_step, 20):
        per, avg = losses(j, s, world)
        for r in range(world):
            dt = start + timedelta(seconds=s * sps + 0.003 * r)
            j.emit(f(r), dt, tr_step(dt, s, r, per[r], avg, sps + 0.004 * j.rng.random()))

    # rank 7 (gpn022, GPU 3): its proxy thread gets IB completion error 12 sending to rank 0 (gpn021)
    t_e = start + timedelta(seconds=bad_step * sps + 7.6)
    h, p, ptid = hosts[1], pids[bad], pids[bad] + 131
    peer = f"{ips[0]}<48598>"
    j.lines(f(bad), t_e, [
        "",
        f"{h}:{p}:{ptid} [3] ib_plugin.c:978 NCCL WARN NET/IB : Got completion from peer {peer} with error 12, opcode 0, len 0, vendor err 129",
        f"{h}:{p}:{ptid} [3] NCCL INFO include/net.h:35 -> 2",
        f"{h}:{p}:{ptid} [3] NCCL INFO transport/net.cc:1034 -> 2",
        f"{h}:{p}:{ptid} [3] NCCL INFO proxy.cc:520 -> 2",
        f"{h}:{p}:{ptid} [3] NCCL INFO proxy.cc:684 -> 2 [Proxy Thread]",
    ], step_us=30)
    t = t_e + timedelta(milliseconds=610)
    j.lines(f(bad), t, [
        "[E ProcessGroupNCCL.cpp:456] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        "[E ProcessGroupNCCL.cpp:461] To avoid data inconsistency, we are taking the entire process down.",
        "terminate called after throwing an instance of 'std::runtime_error'",
        "  what():  NCCL error: unhandled system error, NCCL version 2.14.3",
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ",
        "Last error:",
        f"NET/IB : Got completion from peer {peer} with error 12, opcode 0, len 0, vendor err 129",
    ], step_us=20)
    # node-1's agent: rank 7 died of SIGABRT, SIGTERM the others
    ta = t + timedelta(seconds=4.9)
    j.lines(f(bad), ta, [agent20_sigterm(pids[r]) for r in (4, 5, 6)], step_us=300)
    ta += timedelta(seconds=1.8)
    j.emit(f(bad), ta, agent20_failed(-6, 3, pids[bad], binary))
    j.lines(f(bad), ta, torchrun20_traceback(site) + failed_table(
        "train.py", ta, hosts[1], (bad, 3, -6, pids[bad]), []))

    # node-0: the peers of the aborted processes see their sockets closed -> ncclRemoteError
    # src: NVIDIA/nccl issue 795 (NCCL 2.14.3: "misc/socket.cc:538 NCCL WARN Net : Connection closed by
    # remote peer <host><port>"); tatsu-lab/stanford_alpaca issue 207 + formats/02 §4 (2.14.3 ncclRemoteError
    # block); the [E ProcessGroupNCCL.cpp:456/461] lines as in DeepSpeed 2931 (same torch build).
    for k, r in enumerate((0, 3, 1, 2)):
        tr = t + timedelta(seconds=5.0 + 0.15 * k + 0.05 * j.rng.random())
        cl = f"Net : Connection closed by remote peer {hosts[1]}.hpc.local<{47861 + 17 * k}>"
        j.lines(f(r), tr, [
            "",
            f"{hosts[0]}:{pids[r]}:{pids[r] + 131} [{r}] misc/socket.cc:538 NCCL WARN {cl}",
        ])
        j.lines(f(r), tr + timedelta(milliseconds=400), [
            "[E ProcessGroupNCCL.cpp:456] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
            "[E ProcessGroupNCCL.cpp:461] To avoid data inconsistency, we are taking the entire process down.",
            "terminate called after throwing an instance of 'std::runtime_error'",
            "  what():  NCCL error: remote process exited or there was a network error, NCCL version 2.14.3",
            "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
            "Last error:",
            cl,
        ], step_us=20)
    tb = t + timedelta(seconds=5.9)
    j.emit(f(0), tb, agent20_sigterm(pids[2]))
    tb += timedelta(seconds=1.2)
    j.emit(f(0), tb, agent20_failed(-6, 0, pids[0], binary))
    j.lines(f(0), tb, torchrun20_traceback(site) + failed_table(
        "train.py", tb, hosts[0], (0, 0, -6, pids[0]), [(1, 1, -6, pids[1]), (3, 3, -6, pids[3])]))

    j.put("truth.json", truth(
        "failed", bad, "node-1", False, "nccl_network", "NET/IB : Got completion from peer", bad,
        [{"contains": "ncclRemoteError", "ranks": [0, 1, 2, 3]},
         {"contains": "closing signal SIGTERM", "ranks": [4, 5, 6]}],
        "assembled: rank 7 (node-1 gpn022, GPU 3) got an InfiniBand completion error 12 (retry exceeded) "
        "sending to gpn021 and aborted with ncclSystemError; node-1's torchrun SIGTERMed ranks 4-6; the node-0 "
        "ranks saw their connections closed and aborted with ncclRemoteError (collateral)."))
    j.put("README.md", README_IB)
    return j


# =========================================================================== scenario 4: ECC / Xid 48

# torch 2.4 agent lines and torchrun traceback (src: public log in the code index, read_file id
# 24122101804 [instructlab training, 2025-01] and id 63136295466: api.py:858 "Sending process",
# api.py:833 "failed", thread id after the time, errors/__init__.py 348, run.py 901/892, launcher/api.py
# 133/264; the CUDA-error banner lines are printed the same way there).
def agent24(dt, level, tid, line, msg):
    return f"{level}{dt:%m%d %H:%M:%S}.{dt.microsecond // 1000 * 1000:06d} {tid} torch/distributed/elastic/multiprocessing/api.py:{line}] {msg}"


def torchrun24_traceback(site: str, bindir: str) -> list[str]:
    return [
        "Traceback (most recent call last):",
        f'  File "{bindir}/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        "             ^^^^^^",
        f'  File "{site}/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 348, in wrapper',
        "    return f(*args, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^",
        f'  File "{site}/torch/distributed/run.py", line 901, in main',
        "    run(args)",
        f'  File "{site}/torch/distributed/run.py", line 892, in run',
        "    elastic_launch(",
        f'  File "{site}/torch/distributed/launcher/api.py", line 133, in __call__',
        "    return launch_agent(self._config, self._entrypoint, list(args))",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        f'  File "{site}/torch/distributed/launcher/api.py", line 264, in launch_agent',
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
    ]


# The watchdog sees the sticky CUDA error (torch 2.4). src: pytorch/pytorch issue 113128 comment of
# 2024-08-17 (ligengen: "[default0]:[rank12]:[E817 ... ProcessGroupNCCL.cpp:1515] [PG 0 (default_pg) Rank 12]
# Process group watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered",
# --tee prefixes, CUDAException.cpp:43 frames #0-#3); aigc-apps/VideoX-Fun issue 182 (frames #0-#6, same
# build); NVIDIA/Fuser issue 2497 and the instructlab log above (the three CUDA-error banner lines);
# pytorch/pytorch issue 126544 (frames #7-#9, the terminate/what() and "ncclCommWatchdog" layout of this path).
CUDA_BANNER = [
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
]


def frames_cudacheck_24(L: Libs) -> list[str]:
    return [
        f"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 ({L.c10 + 0x9cf86:#x} in {L.lib('libc10.so')})",
        f"frame #1: c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string const&) + 0x64 ({L.c10 + 0x4bd10:#x} in {L.lib('libc10.so')})",
        f"frame #2: c10::cuda::c10_cuda_check_implementation(int, char const*, char const*, int, bool) + 0x118 ({L.c10cuda + 0x1cf08:#x} in {L.lib('libc10_cuda.so')})",
        f"frame #3: c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x56 ({L.cuda + 0xe2aa76:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #4: c10d::ProcessGroupNCCL::WorkNCCL::isCompleted() + 0xa0 ({L.cuda + 0xe2fc90:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #5: c10d::ProcessGroupNCCL::watchdogHandler() + 0x1da ({L.cuda + 0xe3694a:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #6: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x10c ({L.cuda + 0xe38d8c:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #7: <unknown function> + 0xdc253 ({L.cxx + 0xdc253:#x} in {L.libc_dir}/libstdc++.so.6)",
        f"frame #8: <unknown function> + 0x94ac3 ({L.libc + 0x94ac3:#x} in {L.libc_dir}/libc.so.6)",
        f"frame #9: <unknown function> + 0x126850 ({L.libc + 0x126850:#x} in {L.libc_dir}/libc.so.6)",
    ]


def c10d24_cuda_error(j: Job, path, dt, rank, err, L: Libs, prefix: str) -> datetime:
    msg = f"{pg24(rank)} Process group watchdog thread terminated with exception: CUDA error: {err}"
    out = [
        f"[rank{rank}]:[{c10(j, dt, 'E', rank)} ProcessGroupNCCL.cpp:1515] {msg}",
        *CUDA_BANNER, "",
        "Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43 (most recent call first):",
        *frames_cudacheck_24(L), "",
        "terminate called after throwing an instance of 'c10::DistBackendError'",
        f"  what():  {msg}",
        *CUDA_BANNER, "",
        "Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43 (most recent call first):",
        *frames_cudacheck_24(L), "",
        "Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1521 (most recent call first):",
        *frames_commwatchdog_24(L), "",
    ]
    return j.lines(path, dt, [prefix + ln for ln in out], step_us=30)


# nvidia-smi -q (src: stas00/ml-engineering compute/accelerator/nvidia/debug.md: header, "GPU
# 00000000:10:1C.0", "Product Name : NVIDIA A100-SXM4-80GB", the ECC Errors / Retired Pages / Remapped Rows
# blocks; Project-HAMi/HAMi issue 347 for the "==============NVSMI LOG==============" banner). The source
# elides the other sections; this excerpt keeps only these sections too.
def nvsmi_q_ecc(ts: str, buses: list[str], bad: int) -> str:
    out = ["", "==============NVSMI LOG==============", "",
           f"Timestamp                                 : {ts}",
           "Driver Version                            : 535.183.01",
           "CUDA Version                              : 12.2", "",
           f"Attached GPUs                             : {len(buses)}"]
    for i, bus in enumerate(buses):
        u = 1 if i == bad else 0
        out += [
            f"GPU 00000000:{bus}:00.0",
            "    Product Name                          : NVIDIA A100-SXM4-80GB",
            "    ECC Errors",
            "        Volatile",
            "            SRAM Correctable              : 0",
            "            SRAM Uncorrectable            : 0",
            f"            DRAM Correctable              : {3 if i == bad else 0}",
            f"            DRAM Uncorrectable            : {u}",
            "        Aggregate",
            "            SRAM Correctable              : 0",
            "            SRAM Uncorrectable            : 0",
            f"            DRAM Correctable              : {3 if i == bad else 0}",
            f"            DRAM Uncorrectable            : {u}",
            "    Retired Pages",
            "        Single Bit ECC                    : N/A",
            "        Double Bit ECC                    : N/A",
            "        Pending Page Blacklist            : N/A",
            "    Remapped Rows",
            "        Correctable Error                 : 0",
            f"        Uncorrectable Error               : {u}",
            f"        Pending                           : {'Yes' if u else 'No'}",
            "        Remapping Failure Occurred        : No",
            "        Bank Remap Availability Histogram",
            f"            Max                           : {639 if u else 640} bank(s)",
            f"            High                          : {1 if u else 0} bank(s)",
            "            Partial                       : 0 bank(s)",
            "            Low                           : 0 bank(s)",
            "            None                          : 0 bank(s)",
            "",
        ]
    return "\n".join(out)


def scenario_ecc_xid48() -> Job:
    j = Job("ecc-xid48-double-bit", 404)
    hosts = ["a100-sxm-031", "a100-sxm-032"]
    buses = ["07", "0F", "47", "4E"]
    tids = [140219437221696, 139887213836096]   # the agent's thread id (torch 2.4 prints it)
    pids = {r: (61021 + r if r < 4 else 58840 + r - 4) for r in range(8)}
    world, per_node = 8, 4
    site, bindir = "/usr/local/lib/python3.11/dist-packages", "/usr/local/bin"
    f = lambda r: f"node-{r // per_node}/console.log"  # noqa: E731
    pre = lambda r: f"[default{r % per_node}]:"  # noqa: E731  torchrun --tee 3 (local rank)
    t0 = datetime(2025, 3, 18, 10, 0, 3)
    bad, bad_step = 2, 2751
    for r in range(world):
        local = r % per_node
        dt = t0 + timedelta(seconds=5.1 + 0.06 * r)
        j.emit(f(r), dt, pre(r) + tr_init(dt, r, world, local, pids[r], hosts[r // per_node]))
        if r == 0:
            j.emit(f(r), dt, pre(r) + tr_versions(dt, "2.4.1+cu121", "3.11.9"))
            j.lines(f(r), dt + timedelta(seconds=2.2), [pre(r) + ln for ln in tr_header(dt + timedelta(seconds=2.2), 3_840_000, world, 60_000)])
    j.emit(f(0), t0 + timedelta(seconds=6.9), "[default0]:NCCL version 2.20.5+cuda12.4")
    start = t0 + timedelta(seconds=8)
    sps = 0.88
    for s in range(20, bad_step, 20):
        per, avg = losses(j, s, world)
        for r in range(world):
            dt = start + timedelta(seconds=s * sps + 0.005 * r)
            j.emit(f(r), dt, pre(r) + tr_step(dt, s, r, per[r], avg, sps + 0.004 * j.rng.random()))

    # the double-bit ECC error on rank 2's GPU (node-0 GPU 2, PCI 0000:47:00); dmesg -T on node-0
    # src: NVIDIA/gpu-operator issue 1146 (Xid 48 with pid='<unknown>', name=<unknown>, physAddr ...
    # partition, subpartition); stas00/ml-engineering debug.md (Xid 63 "Row Remapper: New row marked for
    # remapping, reset gpu to activate."); chia-gigahorse 301 ("NVRM: GPU at PCI:... GPU-<uuid>");
    # formats/06 §5 for the `dmesg -T` "[Tue Mar 18 10:41:22 2025] " prefix.
    t_x = start + timedelta(seconds=(bad_step - 1) * sps + 0.37)
    dm = "node-0/dmesg.log"
    T = lambda d: f"[{d:%a %b %e %H:%M:%S %Y}]".replace("  ", " ")  # noqa: E731
    j.lines(dm, t_x, [
        f"{T(t_x)} NVRM: GPU at PCI:0000:47:00: GPU-{j.uuid()}",
        f"{T(t_x)} NVRM: Xid (PCI:0000:47:00): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at physAddr 0x7fdd60000 partition 5, subpartition 1",
        f"{T(t_x)} NVRM: Xid (PCI:0000:47:00): 63, pid={pids[bad]}, Row Remapper: New row marked for remapping, reset gpu to activate.",
    ])
    j.put("node-0/nvidia-smi-q.txt", nvsmi_q_ecc("Tue Mar 18 10:58:02 2025", buses, bad))
    # rank 2's watchdog hits the sticky CUDA error and aborts the process
    tw = t_x + timedelta(milliseconds=740)
    c10d24_cuda_error(j, f(bad), tw, bad, "uncorrectable ECC error encountered",
                      Libs(j, site, "/lib/x86_64-linux-gnu"), pre(bad))
    ta = tw + timedelta(seconds=1.3)
    for r in (0, 1, 3):
        j.emit(f(0), ta, agent24(ta, "W", tids[0], 858, f"Sending process {pids[r]} closing signal SIGTERM"))
        ta += timedelta(milliseconds=1)
    ta += timedelta(seconds=2.1)
    j.emit(f(0), ta, agent24(ta, "E", tids[0], 833, f"failed (exitcode: -6) local_rank: 2 (pid: {pids[bad]}) of binary: /usr/bin/python"))
    j.lines(f(0), ta, torchrun24_traceback(site, bindir) + failed_table("train.py", ta, hosts[0], (bad, 2, -6, pids[bad]), []))

    # node-1 ranks 4-7 wait in all_reduce SeqNum 5502 until the 10-minute watchdog fires (torch 2.4 lines)
    seq, numel = 2 * (bad_step - 1) + 2, 577
    for r in range(4, 8):
        dt = t_x + timedelta(seconds=600 - 0.4 + 0.02 * r + 0.03 * j.rng.random())
        c10d24_timeout(j, f(r), dt, r, seq, "ALLREDUCE", numel, enq=seq + 1, comp=seq - 1, L=Libs(j, site), prefix=pre(r))
    tb = t_x + timedelta(seconds=600.15)
    j.emit(f(4), tb, agent24(tb, "W", tids[1], 858, f"Sending process {pids[7]} closing signal SIGTERM"))
    tb += timedelta(seconds=1.9)
    j.emit(f(4), tb, agent24(tb, "E", tids[1], 833, f"failed (exitcode: -6) local_rank: 0 (pid: {pids[4]}) of binary: /usr/bin/python"))
    j.lines(f(4), tb, torchrun24_traceback(site, bindir) + failed_table(
        "train.py", tb, hosts[1], (4, 0, -6, pids[4]), [(5, 1, -6, pids[5]), (6, 2, -6, pids[6])]))

    j.put("truth.json", truth(
        "failed", bad, "node-0", False, "hardware_xid",
        "An uncorrectable double bit error (DBE) has been detected", bad,
        [{"contains": "Watchdog caught collective operation timeout", "ranks": [4, 5, 6, 7]},
         {"contains": "closing signal SIGTERM", "ranks": [0, 1, 3]}],
        "assembled: a double-bit ECC error (Xid 48, then Xid 63 row remap pending) on node-0's GPU 2 "
        "(PCI 0000:47:00); rank 2's watchdog aborted with 'CUDA error: uncorrectable ECC error encountered' "
        "within a second; node-0's torchrun SIGTERMed ranks 0, 1, 3; node-1's ranks timed out 600 s later."))
    j.put("README.md", README_ECC)
    return j



# =========================================================================== scenario 5: version skew

# collect_env template and values. src: formats/07-collect-env.md §3 (PyTorch 2.4.0 output from
# vllm-project/vllm PR 9293: field order, "(64-bit runtime)", blank-line groups); the template in
# torch/utils/collect_env.py (installed here, torch 2.13) for the multi-line GPU list
# (maybe_start_on_next_line), the "[pip3] " / "[conda] " tags and "Could not collect"; the CPU block's
# labels are lscpu's (the 2.4.0 sample shows "Architecture:" / "CPU op-mode(s):" at this width).
def collect_env(torch_v, cuda_build, py, cuda_rt, driver, n_gpu, pip: list[str]) -> str:
    gpus = "\n".join(f"GPU {i}: NVIDIA A100-SXM4-80GB" for i in range(n_gpu))
    cpu = [
        "Architecture:                       x86_64",
        "CPU op-mode(s):                     32-bit, 64-bit",
        "Address sizes:                      48 bits physical, 48 bits virtual",
        "Byte Order:                         Little Endian",
        "CPU(s):                             256",
        "On-line CPU(s) list:                0-255",
        "Vendor ID:                          AuthenticAMD",
        "Model name:                         AMD EPYC 7763 64-Core Processor",
        "CPU family:                         25",
        "Model:                              1",
        "Thread(s) per core:                 2",
        "Core(s) per socket:                 64",
        "Socket(s):                          2",
        "NUMA node(s):                       8",
    ]
    return "\n".join([
        "Collecting environment information...",
        f"PyTorch version: {torch_v}",
        "Is debug build: False",
        f"CUDA used to build PyTorch: {cuda_build}",
        "ROCM used to build PyTorch: N/A",
        "",
        "OS: Ubuntu 22.04.4 LTS (x86_64)",
        "GCC version: (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0",
        "Clang version: Could not collect",
        "CMake version: version 3.30.2",
        "Libc version: glibc-2.35",
        "",
        f"Python version: {py} (64-bit runtime)",
        "Python platform: Linux-5.15.0-122-generic-x86_64-with-glibc2.35",
        "Is CUDA available: True",
        f"CUDA runtime version: {cuda_rt}",
        "CUDA_MODULE_LOADING set to: LAZY",
        "GPU models and configuration: ",
        gpus,
        "",
        f"Nvidia driver version: {driver}",
        "cuDNN version: Could not collect",
        "HIP runtime version: N/A",
        "MIOpen runtime version: N/A",
        "Is XNNPACK available: True",
        "",
        "CPU:",
        *cpu,
        "",
        "Versions of relevant libraries:",
        *[f"[pip3] {x}" for x in pip],
        "[conda] Could not collect",
        "",
    ])


def scenario_version_skew() -> Job:
    j = Job("version-skew-collect-env", 505)
    hosts = ["gpu-a100-051", "gpu-a100-052"]
    world, per_node = 8, 4
    pids = {r: (22417 + r if r < 4 else 31902 + r - 4) for r in range(8)}
    agent0_pid, agent1_tid = 22380, 139753902569280
    f = lambda r: f"node-{r // per_node}/console.log"  # noqa: E731
    t0 = datetime(2025, 2, 11, 16, 20, 1)
    for r in range(world):
        dt = t0 + timedelta(seconds=6.2 + 0.04 * r)
        j.emit(f(r), dt, tr_init(dt, r, world, r % per_node, pids[r], hosts[r // per_node]))
        if r == 0:
            j.emit(f(r), dt, tr_versions(dt, "2.5.1+cu124", "3.11.10"))
    j.emit(f(0), t0 + timedelta(seconds=7.9), "NCCL version 2.21.5+cuda12.4")
    # every rank hangs in the first collective (DDP's parameter broadcast, SeqNum 1) and times out
    t_hang = t0 + timedelta(seconds=8.0)
    for r in range(world):
        dt = t_hang + timedelta(seconds=600 + 0.03 * r + 0.05 * j.rng.random())
        if r < per_node:   # node-0: torch 2.5.1
            c10d25_timeout(j, f(r), dt, r, 1, "BROADCAST", 1, enq=1, comp=-1, L=Libs(j, SITE_CONDA))
        else:              # node-1: torch 2.4.1 prints the 2.4 format
            c10d24_timeout(j, f(r), dt, r, 1, "BROADCAST", 1, enq=1, comp=-1,
                           L=Libs(j, "/opt/conda/lib/python3.11/site-packages"))
    ta = t_hang + timedelta(seconds=600.4)
    j.emit(f(0), ta, agent25_sigterm(ta, agent0_pid, pids[3]))
    ta += timedelta(milliseconds=90)
    j.emit(f(0), ta, agent25_failed(ta, agent0_pid, -6, 0, pids[0], "/opt/conda/bin/python3.11"))
    j.lines(f(0), ta, torchrun25_traceback(SITE_CONDA, "/opt/conda/bin") + failed_table(
        "train.py", ta, hosts[0], (0, 0, -6, pids[0]), [(1, 1, -6, pids[1]), (2, 2, -6, pids[2])]))
    tb = t_hang + timedelta(seconds=600.6)
    j.emit(f(4), tb, agent24(tb, "E", agent1_tid, 833, f"failed (exitcode: -6) local_rank: 0 (pid: {pids[4]}) of binary: /opt/conda/bin/python3.11"))
    j.lines(f(4), tb, torchrun24_traceback("/opt/conda/lib/python3.11/site-packages", "/opt/conda/bin") + failed_table(
        "train.py", tb, hosts[1], (4, 0, -6, pids[4]), [(5, 1, -6, pids[5]), (6, 2, -6, pids[6]), (7, 3, -6, pids[7])]))

    j.put("node-0/collect_env.txt", collect_env(
        "2.5.1+cu124", "12.4", "3.11.10 (main, Oct  3 2024, 07:29:13) [GCC 11.2.0]", "12.4.131", "550.90.07", 4,
        ["numpy==1.26.4", "nvidia-cublas-cu12==12.4.5.8", "nvidia-cuda-runtime-cu12==12.4.127",
         "nvidia-cudnn-cu12==9.1.0.70", "nvidia-nccl-cu12==2.21.5", "torch==2.5.1", "triton==3.1.0"]))
    j.put("node-1/collect_env.txt", collect_env(
        "2.4.1+cu121", "12.1", "3.11.10 (main, Oct  3 2024, 07:29:13) [GCC 11.2.0]", "12.1.105", "550.90.07", 4,
        ["numpy==1.26.4", "nvidia-cublas-cu12==12.1.3.1", "nvidia-cuda-runtime-cu12==12.1.105",
         "nvidia-cudnn-cu12==9.1.0.70", "nvidia-nccl-cu12==2.20.5", "torch==2.4.1", "triton==3.0.0"]))
    j.put("truth.json", truth(
        "failed", None, "node-1", False, "version_mismatch", "PyTorch version: 2.4.1+cu121", None,
        [{"contains": "Watchdog caught collective operation timeout", "ranks": list(range(8))}],
        "assembled: node-1 ran torch 2.4.1+cu121 / NCCL 2.20.5 while node-0 ran torch 2.5.1+cu124 / NCCL 2.21.5; "
        "all eight ranks hung in the first collective (BROADCAST SeqNum 1, nothing completed) and timed out "
        "after 600 s; the two nodes print the watchdog lines in their own torch version's format."))
    j.put("README.md", README_SKEW)
    return j


# =========================================================================== scenario 6: Slurm time limit

# src: formats/08-wrappers.md §1 (slurmstepd format string "*** %s ON %s CANCELLED AT %s DUE TO TIME
# LIMIT ***" with JOB / STEP entities; ZettaAI/zetta_utils issue 671 for the order "srun: Job step
# aborted: Waiting up to N seconds ...", JOB, STEP; code-index sample for "srun: Job step aborted:
# Waiting up to 32 seconds for job step to finish."; nid008637 sample for "srun: error: <node>: tasks
# 0-2: Terminated"); stas00/ml-engineering's sbatch example for `echo "START TIME: $(date)"`.
def scenario_slurm_time_limit() -> Job:
    j = Job("slurm-time-limit", 606)
    jobid, nodes = 812734, ["gpu-a100-017", "gpu-a100-018"]
    world, per_node = 8, 4
    pids = {r: (70311 + r if r < 4 else 50122 + r - 4) for r in range(8)}
    out = f"slurm-{jobid}.out"
    t0 = datetime(2025, 4, 20, 9, 2, 9)
    L = lambda r: f"{r}: "  # noqa: E731  srun --label (padding for >= 10 tasks unverified)
    j.emit(out, t0, f"START TIME: {t0:%a %b %d %H:%M:%S} UTC {t0:%Y}")
    for r in range(world):
        dt = t0 + timedelta(seconds=9.5 + 0.05 * r)
        j.emit(out, dt, L(r) + tr_init(dt, r, world, r % per_node, pids[r], nodes[r // per_node]))
        if r == 0:
            j.emit(out, dt, L(r) + tr_versions(dt, "2.5.1+cu124", "3.11.10"))
    j.emit(out, t0 + timedelta(seconds=11.2), L(0) + "NCCL version 2.21.5+cuda12.4")
    j.lines(out, t0 + timedelta(seconds=12), [L(0) + x for x in tr_header(t0 + timedelta(seconds=12), 1_920_000, world, 30_000)])
    start = t0 + timedelta(seconds=13)
    limit = t0 + timedelta(hours=4, seconds=2)
    sps = 1.25
    s = 50
    while start + timedelta(seconds=s * sps) < limit:
        per, avg = losses(j, s, world)
        order = list(range(world))
        j.rng.shuffle(order)
        for k, r in enumerate(order):
            dt = start + timedelta(seconds=s * sps + 0.002 * k)
            j.emit(out, dt, L(r) + tr_step(dt, s, r, per[r], avg, sps + 0.003 * j.rng.random()))
        s += 50
    stamp = f"{limit:%Y-%m-%dT%H:%M:%S}"
    j.lines(out, limit, [
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        f"slurmstepd: error: *** JOB {jobid} ON {nodes[0]} CANCELLED AT {stamp} DUE TO TIME LIMIT ***",
        f"slurmstepd: error: *** STEP {jobid}.0 ON {nodes[0]} CANCELLED AT {stamp} DUE TO TIME LIMIT ***",
    ], step_us=400)
    j.lines(out, limit + timedelta(seconds=2.3), [
        f"srun: error: {nodes[1]}: tasks 4-7: Terminated",
        f"srun: error: {nodes[0]}: tasks 0-3: Terminated",
    ])
    j.put("truth.json", truth(
        "failed", None, None, True, "killed_by_scheduler", "DUE TO TIME LIMIT", None,
        [{"contains": "tasks 0-3: Terminated", "ranks": [0, 1, 2, 3]},
         {"contains": "tasks 4-7: Terminated", "ranks": [4, 5, 6, 7]}],
        "assembled: a healthy 8-task run (srun -l, one task per GPU) reached its 4-hour wall-clock limit; "
        "slurmstepd cancelled the job and srun reports all tasks Terminated. No rank failed."))
    j.put("README.md", README_SLURM)
    return j


# =========================================================================== scenario 7: kubectl, skewed clocks

# Victims' exception. src: NVIDIA/nccl issue 2076 (torch 2.5.1 build: "NCCL error in: .../
# NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.21.5",
# "ncclRemoteError: ...", "Last error:", "socketProgressOpt: Call to recv from ... failed : Connection
# reset by peer"); NVIDIA/nccl issue 1928 for the "[rankN]: " prefix on each of these lines; torch 2.5
# autograd frames (_tensor.py 581, autograd/__init__.py 347, graph.py 825) from the Seg-R1 log.
# Initiator's exception: our trainer's ValueError (captured, gloo-data-error-per-rank/rank2.log) with
# torch 2.5-era DataLoader frames (dataloader.py 701/757, fetch.py 52 + <listcomp>) from a public py3.11
# traceback in the code index (read_file id 70165838292).
def kube(dt: datetime) -> str:
    """kubectl logs --timestamps: RFC 3339 stamp + space before each line (fraction width unverified:
    9 digits here)."""
    return f"{dt:%Y-%m-%dT%H:%M:%S}.{dt.microsecond * 1000 + 417:09d}Z "


def scenario_kubectl_skew() -> Job:
    j = Job("kubectl-pods-skewed-clocks", 707)
    pods = ["master-0", "worker-0", "worker-1", "worker-2"]
    podhost = {p: f"llm-ft-{p}" for p in pods}
    skew = {"master-0": 0.0, "worker-0": 0.0, "worker-1": 45.0, "worker-2": 0.0}
    world, per_pod = 8, 2
    agent_pid = {p: 1 for p in pods}   # torchrun is PID 1 in the container
    pids = {r: 80 + r % per_pod for r in range(world)}
    pod = lambda r: pods[r // per_pod]  # noqa: E731
    script = "/workspace/train.py"
    events: list[tuple[str, datetime, str]] = []

    def emit(p, true_dt, text):
        events.append((p, true_dt, text))

    t0 = datetime(2025, 5, 12, 14, 2, 40)
    for r in range(world):
        dt = t0 + timedelta(seconds=7.1 + 0.05 * r)
        emit(pod(r), dt, ("local", tr_init, (r, world, r % per_pod, pids[r], podhost[pod(r)])))
        if r == 0:
            emit(pod(r), dt, ("local", tr_versions, ("2.5.1+cu124", "3.11.10")))
    emit(pods[0], t0 + timedelta(seconds=8.3), "NCCL version 2.21.5+cuda12.4")
    emit(pods[0], t0 + timedelta(seconds=8.9), ("localmulti", tr_header, (2_560_000, world, 40_000)))
    start, sps, bad, bad_step = t0 + timedelta(seconds=9.5), 0.97, 5, 1723
    for s in range(50, bad_step, 50):
        per, avg = losses(j, s, world)
        for r in range(world):
            dt = start + timedelta(seconds=s * sps + 0.004 * r)
            emit(pod(r), dt, ("local", tr_step, (s, r, per[r], avg, sps + 0.003 * j.rng.random())))
    site = SITE_CONDA
    t_e = start + timedelta(seconds=(bad_step - 1) * sps + 0.21)
    tb = [
        *tb_trainer_head(script),
        f'  File "{script}", line 173, in train',
        "    for x, y in loader:",
        f'  File "{site}/torch/utils/data/dataloader.py", line 701, in __next__',
        "    data = self._next_data()",
        "           ^^^^^^^^^^^^^^^^^",
        f'  File "{site}/torch/utils/data/dataloader.py", line 757, in _next_data',
        "    data = self._dataset_fetcher.fetch(index)  # may raise StopIteration",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        f'  File "{site}/torch/utils/data/_utils/fetch.py", line 52, in fetch',
        "    data = [self.dataset[idx] for idx in possibly_batched_index]",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        f'  File "{site}/torch/utils/data/_utils/fetch.py", line 52, in <listcomp>',
        "    data = [self.dataset[idx] for idx in possibly_batched_index]",
        "            ~~~~~~~~~~~~^^^^^",
        f'  File "{script}", line 63, in __getitem__',
        "    raise ValueError(",
        "ValueError: corrupt sample at index 110237: expected 16 features, got 0 (shard train-00005-of-00008.bin)",
    ]
    for k, ln in enumerate(tb):
        emit(pod(bad), t_e + timedelta(microseconds=40 * k), f"[rank{bad}]: {ln}")
    emit(pod(bad), t_e + timedelta(seconds=1.1), ("c10w", bad))
    ta = t_e + timedelta(seconds=2.6)
    emit(pod(bad), ta, ("a_sig", pids[4]))
    emit(pod(bad), ta + timedelta(seconds=0.9), ("a_fail", 1, 1, pids[bad], pod(bad), [(bad, 1, 1, pids[bad]), []]))

    # victims: the socket peers of ranks 4/5 get ncclRemoteError at their next collective
    ips = {"master-0": "10.244.1.12", "worker-0": "10.244.2.9", "worker-1": "10.244.3.17", "worker-2": "10.244.4.5"}
    delays = {6: 1.35, 7: 1.9, 3: 2.95, 2: 3.2, 0: 3.4, 1: 3.55}
    src_of = {6: 5, 7: 6, 3: 4, 2: 3, 0: 7, 1: 0}
    for r, d in delays.items():
        tv = t_e + timedelta(seconds=d)
        peer = src_of[r]
        lines = [
            *tb_trainer_head(script),
            f'  File "{script}", line 190, in train',
            "    loss.backward()",
            f'  File "{site}/torch/_tensor.py", line 581, in backward',
            "    torch.autograd.backward(",
            f'  File "{site}/torch/autograd/__init__.py", line 347, in backward',
            "    _engine_run_backward(",
            f'  File "{site}/torch/autograd/graph.py", line 825, in _engine_run_backward',
            "    return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass",
            "           " + "^" * 94,
            "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.21.5",
            "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
            "Last error:",
            f"socketProgressOpt: Call to recv from {ips[pod(peer)]}<{40000 + 113 * peer}> failed : Connection reset by peer",
        ]
        for k, ln in enumerate(lines):
            emit(pod(r), tv + timedelta(microseconds=40 * k), f"[rank{r}]: {ln}")
        emit(pod(r), tv + timedelta(seconds=1.0), ("c10w", r))
    # the other pods' agents
    for p, first, second in (("worker-2", 6, 7), ("worker-0", 3, 2), ("master-0", 0, 1)):
        tf = t_e + timedelta(seconds=delays[first] + 1.6)
        both_dead = delays[second] - delays[first] < 0.3
        if not both_dead:
            emit(p, tf, ("a_sig", pids[second]))
        others = [(second, second % per_pod, 1, pids[second])] if both_dead else []
        emit(p, tf + timedelta(seconds=0.4), ("a_fail", 1, first % per_pod, pids[first], p,
                                              [(first, first % per_pod, 1, pids[first]), others]))

    # render with each pod's clock (worker-1 runs 45 s ahead: its kubectl stamps and its own stamps)
    for _, (p, true_dt, item) in sorted(enumerate(events), key=lambda e: (e[1][1], e[0])):
        dt = true_dt + timedelta(seconds=skew[p])
        if isinstance(item, str):
            texts = [item]
        elif item[0] == "local":
            texts = [item[1](dt, *item[2])]
        elif item[0] == "localmulti":
            texts = item[1](dt, *item[2])
        elif item[0] == "c10w":
            texts = [PG_NOT_DESTROYED.format(r=item[1], stamp=c10(j, dt, "W", item[1]))]
        elif item[0] == "a_sig":
            texts = [agent25_sigterm(dt, agent_pid[p], item[1])]
        else:  # a_fail
            _, code, local, pid, pp, (root, others) = item
            texts = [agent25_failed(dt, agent_pid[p], code, local, pid, "/opt/conda/bin/python3.11")]
            texts += torchrun25_traceback(site, "/opt/conda/bin") + failed_table("/workspace/train.py", dt, podhost[pp], root, others)
        for k, t in enumerate(texts):
            d2 = dt + timedelta(microseconds=20 * k)
            j.emit(f"{p}.log", d2, kube(d2) + t)

    j.put("truth.json", truth(
        "failed", bad, "worker-1", False, "data_error", "ValueError: corrupt sample at index 110237", bad,
        [{"contains": "remote process exited or there was a network error", "ranks": [0, 1, 2, 3, 6, 7]},
         {"contains": "closing signal SIGTERM", "ranks": [4]}],
        "assembled: rank 5 (pod worker-1) hit a corrupt sample in its DataLoader at step 1723 and exited; the "
        "socket peers of ranks 4/5 failed with DistBackendError/ncclRemoteError within 1.4-3.6 s. worker-1's "
        "node clock is 45 s ahead, so by raw stamps every victim's error comes 40+ s before the root cause."))
    j.put("README.md", README_KUBE)
    return j


# =========================================================================== scenario 8: ZeRO-3 offload, host OOM

# DeepSpeed runner / launcher / engine lines (DeepSpeed 0.13-0.15 era). src:
#  deepspeedai/DeepSpeedExamples issue 845 ("[multinode_runner.py:80:get_cmd] Running on the following
#  workers: ...", "[runner.py:571:main] cmd = pdsh -S -f 1024 -w ..."); huggingface/accelerate issue 1114
#  (the pdsh cmd with "export VAR=...;" prefixes); the safe-rlhf ZeRO-3 "--offload all" log in the code index
#  (read_file id 5140062711: real_accelerator.py:191, launch.py:145/151/162/163/165/253, comm.py:637/668,
#  the cpu_adam JIT build and load lines, "Parameter Offload: Total persistent parameters: ..."); an
#  Aurora pdsh log in the code index (id 3625796328) for the multi-node WORLD INFO / global_rank_mapping
#  form; deepspeedai/DeepSpeed issue 4571 ("[logging.py:96:log_dist] [Rank 0] Creating torch.bfloat16 ZeRO
#  stage 3 optimizer", "[utils.py:791:see_memory_usage] Stage 3 initialize beginning"); DeepSpeed issue
#  852 (the MA / "CPU Virtual Memory:" lines of see_memory_usage, line numbers +1/+8 as in
#  hiyouga/LlamaFactory issue 9116); a DeepSpeed 0.14/0.15 log in the code index (id 6057510633:
#  config.py:984/988 "DeepSpeedEngine configuration:" dump, config.py:974 "json = {", "step=..., skipped=...",
#  timer.py:260 throughput line); OpenRLHF issue 841 ("DeepSpeed info: version=...", "DeepSpeed Basic
#  Optimizer = DeepSpeedCPUAdam"); DeepSpeed issue 5302 ("[launch.py:315:sigkill_handler] Killing subprocess",
#  "[launch.py:321:sigkill_handler] [...] exits with return code = -9"); a Determined/DeepSpeed log in the
#  code index (id 33252065466: "pdsh@<host>: <host>: ssh exited with exit code 247").
# Host OOM killer (kernel). src: equinor/ert issue 7797 (dmesg --time-format iso of a real OOM kill:
#  "... invoked oom-killer: gfp_mask=...", "oom-kill:constraint=CONSTRAINT_NONE,...", "Out of memory:
#  Killed process N (comm) total-vm:...kB, anon-rss:...kB, file-rss:...kB, shmem-rss:...kB, UID:N
#  pgtables:...kB oom_score_adj:0", "oom_reaper: reaped process ..."); pcyin/tranX issue 41 for the same
#  lines with raw "[seconds]" stamps and comm "(python3)".
# torch 2.2 watchdog (no time stamp, "[rankN]:" prefix). src: arrival-ltd/catalyst-rl-tutorial issue 15
#  (a DeepSpeed job: [E ProcessGroupNCCL.cpp:537]/[:543]/[:1182], checkTimeout at :525, frames, terminate,
#  "Exception raised from ncclCommWatchdog at ...:1186" + frames).
def c10d22_timeout(j: Job, dt, rank, seq, op, numel_in, numel_out, site, prefix) -> datetime:
    L = Libs(j, site)
    ran = 1800000 + j.rng.randrange(300, 990)
    caught = (f"[Rank {rank}] NCCL watchdog thread terminated with exception: [Rank {rank}] Watchdog caught "
              f"collective operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={numel_in}, "
              f"NumelOut={numel_out}, Timeout(ms)=1800000) ran for {ran} milliseconds before timing out.")
    fr = [
        f"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 ({L.c10 + 0x99d87:#x} in {L.lib('libc10.so')})",
        f"frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x1e6 ({L.cuda + 0xdf36e6:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #2: c10d::ProcessGroupNCCL::workCleanupLoop() + 0x19d ({L.cuda + 0xdf6c3d:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #3: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x119 ({L.cuda + 0xdf7839:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #4: <unknown function> + 0xe6793 ({L.cxx + 0xe6793:#x} in /lib/x86_64-linux-gnu/libstdc++.so.6)",
        f"frame #5: <unknown function> + 0x8609 ({L.libc + 0x8609:#x} in /lib/x86_64-linux-gnu/libpthread.so.0)",
        f"frame #6: clone + 0x43 ({L.torch + 0x11f353:#x} in /lib/x86_64-linux-gnu/libc.so.6)",
    ]
    fr2 = [
        fr[0],
        f"frame #1: <unknown function> + 0xdf6b11 ({L.cuda + 0xdf6b11:#x} in {L.lib('libtorch_cuda.so')})",
        f"frame #2: <unknown function> + 0xe6793 ({L.cxx + 0xe6793:#x} in /lib/x86_64-linux-gnu/libstdc++.so.6)",
        f"frame #3: <unknown function> + 0x8609 ({L.libc + 0x8609:#x} in /lib/x86_64-linux-gnu/libpthread.so.0)",
        f"frame #4: clone + 0x43 ({L.torch + 0x11f353:#x} in /lib/x86_64-linux-gnu/libc.so.6)",
    ]
    out = [
        f"[rank{rank}]:[E ProcessGroupNCCL.cpp:537] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        f"[rank{rank}]:[E ProcessGroupNCCL.cpp:543] To avoid data inconsistency, we are taking the entire process down.",
        f"[rank{rank}]:[E ProcessGroupNCCL.cpp:1182] {caught}",
        "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:525 (most recent call first):",
        *fr, "",
        "terminate called after throwing an instance of 'c10::DistBackendError'",
        f"  what():  {caught}",
        "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:525 (most recent call first):",
        *fr, "",
        "Exception raised from ncclCommWatchdog at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1186 (most recent call first):",
        *fr2, "",
    ]
    return j.lines("deepspeed.log", dt, [prefix + x for x in out], step_us=30)


DS_CONFIG = {
    "train_batch_size": 64,
    "train_micro_batch_size_per_gpu": 2,
    "gradient_accumulation_steps": 4,
    "gradient_clipping": 1.0,
    "steps_per_print": 10,
    "bf16": {"enabled": True},
    "zero_optimization": {
        "stage": 3,
        "offload_optimizer": {"device": "cpu", "pin_memory": True},
        "overlap_comm": True,
        "contiguous_gradients": True,
        "sub_group_size": 1e9,
        "stage3_max_live_parameters": 1e9,
        "stage3_max_reuse_distance": 1e9,
        "stage3_gather_16bit_weights_on_model_save": True,
    },
}


def ds_json_dump(cfg) -> list[str]:
    """DeepSpeed's `json = {` dump of the user config: key order as given, indent 4, numbers above
    1000 in scientific notation (2000 -> 2.000000e+03, 1000 stays 1000 in the cited dump)."""
    def fix(o):
        if isinstance(o, dict):
            return {k: fix(v) for k, v in o.items()}
        if isinstance(o, (int, float)) and not isinstance(o, bool) and o > 1e3:
            return f"@@{o:e}@@"
        return o
    text = json.dumps(fix(cfg), indent=4)
    return text.replace('"@@', "").replace('@@"', "").split("\n")



def cpu_adam_ninja(site: str) -> list[str]:
    """The four ninja steps of DeepSpeed's cpu_adam JIT build, from the safe-rlhf log (code index id
    5140062711); install paths (python3.10 dist-packages) and the GPU arch (sm_80, A100) adjusted."""
    ds_inc = f"{site}/deepspeed/ops/csrc/includes"
    tinc = (f"-isystem {site}/torch/include -isystem {site}/torch/include/torch/csrc/api/include "
            f"-isystem {site}/torch/include/TH -isystem {site}/torch/include/THC")
    common = ('-DTORCH_EXTENSION_NAME=cpu_adam -DTORCH_API_INCLUDE_EXTENSION_H -DPYBIND11_COMPILER_TYPE=\\"_gcc\\" '
              '-DPYBIND11_STDLIB=\\"_libstdcpp\\" -DPYBIND11_BUILD_ABI=\\"_cxxabi1011\\"')
    py = "-isystem /usr/include/python3.10"
    return [
        f"[1/4] /usr/local/cuda/bin/nvcc --generate-dependencies-with-compile --dependency-output custom_cuda_kernel.cuda.o.d {common} -I{ds_inc} -I/usr/local/cuda/include {tinc} -isystem /usr/local/cuda/include {py} -D_GLIBCXX_USE_CXX11_ABI=0 -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr -gencode=arch=compute_80,code=compute_80 -gencode=arch=compute_80,code=sm_80 --compiler-options '-fPIC' -O3 --use_fast_math -std=c++17 -U__CUDA_NO_HALF_OPERATORS__ -U__CUDA_NO_HALF_CONVERSIONS__ -U__CUDA_NO_HALF2_OPERATORS__ --threads=8 -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_80,code=compute_80 -DBF16_AVAILABLE -U__CUDA_NO_BFLOAT16_OPERATORS__ -U__CUDA_NO_BFLOAT162_OPERATORS__ -c {site}/deepspeed/ops/csrc/common/custom_cuda_kernel.cu -o custom_cuda_kernel.cuda.o",
        f"[2/4] c++ -MMD -MF cpu_adam_impl.o.d {common} -I{ds_inc} -I/usr/local/cuda/include {tinc} -isystem /usr/local/cuda/include {py} -D_GLIBCXX_USE_CXX11_ABI=0 -fPIC -std=c++17 -O3 -std=c++17 -g -Wno-reorder -L/usr/local/cuda/lib64 -lcudart -lcublas -g -march=native -fopenmp -D__AVX512__ -D__ENABLE_CUDA__ -DBF16_AVAILABLE -c {site}/deepspeed/ops/csrc/adam/cpu_adam_impl.cpp -o cpu_adam_impl.o",
        f"[3/4] c++ -MMD -MF cpu_adam.o.d {common} -I{ds_inc} -I/usr/local/cuda/include {tinc} -isystem /usr/local/cuda/include {py} -D_GLIBCXX_USE_CXX11_ABI=0 -fPIC -std=c++17 -O3 -std=c++17 -g -Wno-reorder -L/usr/local/cuda/lib64 -lcudart -lcublas -g -march=native -fopenmp -D__AVX512__ -D__ENABLE_CUDA__ -DBF16_AVAILABLE -c {site}/deepspeed/ops/csrc/adam/cpu_adam.cpp -o cpu_adam.o",
        f"[4/4] c++ cpu_adam.o cpu_adam_impl.o custom_cuda_kernel.cuda.o -shared -lcurand -L{site}/torch/lib -lc10 -lc10_cuda -ltorch_cpu -ltorch_cuda -ltorch -ltorch_python -L/usr/local/cuda/lib64 -lcudart -o cpu_adam.so",
    ]


def scenario_zero3_host_oom() -> Job:
    j = Job("zero3-offload-host-oom", 808)
    hosts, ips = ["gpu-node-01", "gpu-node-02"], ["10.1.0.11", "10.1.0.12"]
    world, per_node = 8, 4
    pids = {r: (51233 + r if r < 4 else 38860 + r - 4) for r in range(world)}
    site, py = "/usr/local/lib/python3.10/dist-packages", "/usr/bin/python"
    log = "deepspeed.log"
    H = lambda n: f"{hosts[n]}: "  # noqa: E731  pdsh prefix
    t0 = datetime(2024, 3, 20, 10, 0, 1, 118000)

    def ds(n, dt, level, where, msg):
        pre = H(n) if n is not None else ""
        j.emit(log, dt, f"{pre}{ds_ts(dt)} [{level}] [{where}] {msg}")

    ds(None, t0, "INFO", "real_accelerator.py:191:get_accelerator", "Setting ds_accelerator to cuda (auto detect)")
    world_info = {h: list(range(per_node)) for h in hosts}
    b64 = base64.urlsafe_b64encode(json.dumps(world_info).encode()).decode()
    t = t0 + timedelta(seconds=1.122)
    ds(None, t, "INFO", "multinode_runner.py:80:get_cmd", f"Running on the following workers: {','.join(hosts)}")
    ds(None, t + timedelta(milliseconds=1), "INFO", "runner.py:571:main",
       f"cmd = pdsh -S -f 1024 -w {','.join(hosts)} export PYTHONPATH=/workspace/llm-sft; export NCCL_IB_HCA=mlx5;  "
       f"cd /workspace/llm-sft; {py} -u -m deepspeed.launcher.launch --world_info={b64} --node_rank=%n "
       f"--master_addr={ips[0]} --master_port=29500 train.py --deepspeed ds_zero3_offload.json")
    mapping = {h: list(range(n * per_node, (n + 1) * per_node)) for n, h in enumerate(hosts)}
    for n in range(2):
        tn = t0 + timedelta(seconds=3.3 + 0.4 * n)
        ds(n, tn, "INFO", "real_accelerator.py:191:get_accelerator", "Setting ds_accelerator to cuda (auto detect)")
        tn += timedelta(milliseconds=520)
        ds(n, tn, "INFO", "launch.py:145:main", f"WORLD INFO DICT: {world_info}")
        ds(n, tn, "INFO", "launch.py:151:main", f"nnodes=2, num_local_procs=4, node_rank={n}")
        ds(n, tn, "INFO", "launch.py:162:main", f"global_rank_mapping=defaultdict(<class 'list'>, {mapping})")
        ds(n, tn, "INFO", "launch.py:163:main", "dist_world_size=8")
        ds(n, tn, "INFO", "launch.py:165:main", "Setting CUDA_VISIBLE_DEVICES=0,1,2,3")
        for lr in range(per_node):
            r = n * per_node + lr
            ds(n, tn + timedelta(milliseconds=1 + lr), "INFO", "launch.py:253:main",
               f"process {pids[r]} spawned with command: ['{py}', '-u', 'train.py', '--local_rank={lr}', '--deepspeed', 'ds_zero3_offload.json']")
    for r in range(world):
        n = r // per_node
        tr = t0 + timedelta(seconds=5.9 + 0.02 * r)
        ds(n, tr, "INFO", "real_accelerator.py:191:get_accelerator", "Setting ds_accelerator to cuda (auto detect)")
        ds(n, tr + timedelta(seconds=1.3), "INFO", "comm.py:637:init_distributed", "cdb=None")
    ds(0, t0 + timedelta(seconds=7.25), "INFO", "comm.py:668:init_distributed", "Initializing TorchBackend in DeepSpeed with backend nccl")
    # cpu_adam JIT build (first process of each node builds, the others load)
    ext = "/home/user/.cache/torch_extensions/py310_cu121"
    for n in range(2):
        tb_ = t0 + timedelta(seconds=41 + 0.3 * n)
        for lr in range(per_node):
            j.emit(log, tb_ + timedelta(milliseconds=10 * lr), H(n) + "Installed CUDA version 12.2 does not match the version torch was compiled with 12.1 but since the APIs are compatible, accepting this combination")
            j.emit(log, tb_ + timedelta(milliseconds=10 * lr + 1), H(n) + f"Using {ext} as PyTorch extensions root...")
        j.lines(log, tb_ + timedelta(milliseconds=50), [H(n) + x for x in [
            f"Creating extension directory {ext}/cpu_adam...",
            "Detected CUDA files, patching ldflags",
            f"Emitting ninja build file {ext}/cpu_adam/build.ninja...",
            "Building extension module cpu_adam...",
            "Allowing ninja to set a default number of workers... (overridable by setting the environment variable MAX_JOBS=N)",
        ]])
        j.lines(log, tb_ + timedelta(seconds=2), [H(n) + x for x in cpu_adam_ninja(site)], step_us=9_000_000)
        tl = tb_ + timedelta(seconds=31)
        for lr in range(per_node):
            j.emit(log, tl + timedelta(milliseconds=12 * lr), H(n) + "Loading extension module cpu_adam...")
            j.emit(log, tl + timedelta(milliseconds=12 * lr + 1), H(n) + f"Time to load cpu_adam op: {31.0 + j.rng.random() * 0.1!r} seconds")
    te = t0 + timedelta(seconds=74)
    ds(0, te, "INFO", "logging.py:96:log_dist", "[Rank 0] DeepSpeed info: version=0.14.0, git-hash=unknown, git-branch=unknown")
    ds(0, te + timedelta(milliseconds=900), "INFO", "logging.py:96:log_dist", "[Rank 0] DeepSpeed Basic Optimizer = DeepSpeedCPUAdam")
    ds(0, te + timedelta(milliseconds=901), "INFO", "logging.py:96:log_dist", "[Rank 0] Creating torch.bfloat16 ZeRO stage 3 optimizer")
    tm = te + timedelta(milliseconds=940)

    def mem(dt, title, ma, max_ma, ca, max_ca, cpu_used, pct):
        ds(0, dt, "INFO", "utils.py:791:see_memory_usage", title)
        ds(0, dt, "INFO", "utils.py:792:see_memory_usage",
           f"MA {ma} GB         Max_MA {max_ma} GB         CA {ca} GB         Max_CA {max_ca} GB ")
        ds(0, dt, "INFO", "utils.py:799:see_memory_usage", f"CPU Virtual Memory:  used = {cpu_used} GB, percent = {pct}%")

    # titles: DeepSpeed issue 4571 ("Stage 3 initialize beginning") and hiyouga/LlamaFactory issue 9116
    # ("DeepSpeedZeRoOffload initialize [begin]" / "[end]", "Before creating fp16 partitions",
    # "After creating fp16 partitions: 2", with "Parameter Offload: ..." in between as there)
    mem(tm, "Stage 3 initialize beginning", 1.62, 2.91, 3.05, 3, 214.72, 42.6)
    mem(tm + timedelta(milliseconds=300), "DeepSpeedZeRoOffload initialize [begin]", 1.62, 2.91, 3.05, 3, 214.73, 42.6)
    j.emit(log, tm + timedelta(seconds=3.1), H(0) + "Parameter Offload: Total persistent parameters: 266240 in 65 params")
    mem(tm + timedelta(seconds=3.4), "DeepSpeedZeRoOffload initialize [end]", 1.62, 2.91, 3.05, 3, 214.9, 42.7)
    mem(tm + timedelta(seconds=3.7), "Before creating fp16 partitions", 1.62, 2.91, 3.05, 3, 214.9, 42.7)
    tm2 = tm + timedelta(seconds=58)
    mem(tm2, "After creating fp16 partitions: 2", 3.31, 4.87, 6.02, 6, 431.08, 85.6)
    tc = tm2 + timedelta(milliseconds=310)
    ds(0, tc, "INFO", "logging.py:96:log_dist", "[Rank 0] step=0, skipped=0, lr=[0.0], mom=[(0.9, 0.95)]")
    ds(0, tc, "INFO", "config.py:984:print", "DeepSpeedEngine configuration:")
    fields = [
        ("bfloat16_enabled", "True"), ("fp16_enabled", "False"), ("global_rank", "0"),
        ("gradient_accumulation_steps", "4"), ("gradient_clipping", "1.0"), ("steps_per_print", "10"),
        ("train_batch_size", "64"), ("train_micro_batch_size_per_gpu", "2"), ("world_size", "8"),
        ("zero_allow_untested_optimizer", "False"), ("zero_enabled", "True"),
        ("zero_force_ds_cpu_optimizer", "True"), ("zero_optimization_stage", "3"),
    ]
    for k, v in fields:
        dots = "." * (29 - len(k))
        arg = f"  {k} {dots} {v}" if dots else f"  {k}  {v}"
        ds(0, tc, "INFO", "config.py:988:print", arg)
    dump = ds_json_dump(DS_CONFIG)
    j.emit(log, tc, H(0) + f"{ds_ts(tc)} [INFO] [config.py:974:print_user_config]   json = " + dump[0])
    for ln in dump[1:]:
        j.emit(log, tc, H(0) + ln)
    tstart = tc + timedelta(seconds=2)
    sps = 4.7
    bad, bad_step = 5, 667
    for s in range(10, bad_step, 10):
        ts_ = tstart + timedelta(seconds=s * sps)
        lr = 2e-05 * min(1.0, s / 100)
        ds(0, ts_, "INFO", "logging.py:96:log_dist", f"[Rank 0] step={s}, skipped=0, lr=[{lr}], mom=[(0.9, 0.95)]")
        ds(0, ts_, "INFO", "timer.py:260:stop",
           f"epoch=0/micro_step={4 * s}/global_step={s}, RunningAvgSamplesPerSec={13.6 + j.rng.random():.14f}, "
           f"CurrSamplesPerSec={13.0 + 2 * j.rng.random():.14f}, MemAllocated=3.31GB, MaxMemAllocated=21.87GB")

    # the host OOM killer on gpu-node-02 picks rank 5's process (local rank 1)
    t_k = tstart + timedelta(seconds=(bad_step - 1) * sps + 2.85)
    boot = datetime(2024, 1, 12, 7, 41, 3, 220000)
    dm = f"{hosts[1]}/dmesg.log"
    kpid = pids[bad]
    j.lines(dm, t_k, [
        f"{dmesg_raw(boot, t_k)} python invoked oom-killer: gfp_mask=0x6200ca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0",
        f"{dmesg_raw(boot, t_k + timedelta(microseconds=1061))} oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0-7,global_oom,task_memcg=/user.slice/user-0.slice/session-9.scope,task=python,pid={kpid},uid=0",
        f"{dmesg_raw(boot, t_k + timedelta(microseconds=1076))} Out of memory: Killed process {kpid} (python) total-vm:612382044kB, anon-rss:247012380kB, file-rss:71232kB, shmem-rss:12296kB, UID:0 pgtables:498312kB oom_score_adj:0",
    ])
    j.emit(dm, t_k + timedelta(seconds=5.2), f"{dmesg_raw(boot, t_k + timedelta(seconds=5.2))} oom_reaper: reaped process {kpid} (python), now anon-rss:0kB, file-rss:71204kB, shmem-rss:12296kB")
    tl = t_k + timedelta(seconds=1.4)
    for lr in range(per_node):
        ds(1, tl + timedelta(milliseconds=30 * lr), "INFO", "launch.py:315:sigkill_handler", f"Killing subprocess {pids[4 + lr]}")
    tl += timedelta(milliseconds=150)
    ds(1, tl, "ERROR", "launch.py:321:sigkill_handler",
       f"['{py}', '-u', 'train.py', '--local_rank=1', '--deepspeed', 'ds_zero3_offload.json'] exits with return code = -9")
    j.emit(log, tl + timedelta(milliseconds=400), f"pdsh@{hosts[0]}: {hosts[1]}: ssh exited with exit code 247")
    # node-01 waits in the ZeRO-3 parameter all-gather until the 30-minute watchdog fires
    seq = 48213
    for r in range(4):
        tw = t_k + timedelta(seconds=1800 - 1.1 + 0.03 * r)
        c10d22_timeout(j, tw, r, seq, "_ALLGATHER_BASE", 13107200, 104857600, site, H(0))
    tx = t_k + timedelta(seconds=1800.9)
    for lr in range(per_node):
        ds(0, tx + timedelta(milliseconds=30 * lr), "INFO", "launch.py:315:sigkill_handler", f"Killing subprocess {pids[lr]}")
    tx += timedelta(milliseconds=150)
    ds(0, tx, "ERROR", "launch.py:321:sigkill_handler",
       f"['{py}', '-u', 'train.py', '--local_rank=0', '--deepspeed', 'ds_zero3_offload.json'] exits with return code = -6")
    j.emit(log, tx + timedelta(milliseconds=400), f"pdsh@{hosts[0]}: {hosts[0]}: ssh exited with exit code 250")

    j.put("truth.json", truth(
        "failed", bad, hosts[1], False, "oom", f"Out of memory: Killed process {kpid} (python)", bad,
        [{"contains": "Watchdog caught collective operation timeout", "ranks": [0, 1, 2, 3]},
         {"contains": "Killing subprocess", "ranks": [4, 6, 7]}],
        "assembled: DeepSpeed ZeRO-3 with the optimizer offloaded to CPU filled gpu-node-02's host RAM; the "
        "kernel OOM killer killed rank 5's process (local rank 1, pid 38861); gpu-node-02's launcher killed its "
        "other workers and reported return code -9; gpu-node-01's ranks timed out in the ZeRO-3 all-gather 30 min "
        "later (-6). The only evidence of the cause is the kernel log and the -9."))
    j.put("README.md", README_ZERO3)
    return j


# =========================================================================== READMEs

COMMON_NOTE = """**Assembled, not captured.** This failure needs GPUs and a cluster that the capture machine
does not have, so the logs were assembled by `sample_logs/_assemble/assemble.py` (function
`{func}`) from real log lines: every line below is a verbatim line of the cited public source (or
of our own captured trainer), with only variable fields changed consistently (host names, pids,
thread ids, ranks, PCI bus ids, load addresses, time stamps, sequence numbers, sizes, loss values,
install paths). Nothing here was run on a GPU. Recreate with
`/home/user/venv/bin/python sample_logs/_assemble/assemble.py sample_logs {name}` (tqdm renders the
progress bars)."""

README_OOM = """# oom-cascade-nccl-timeouts

""" + COMMON_NOTE.format(func="scenario_oom_cascade", name="oom-cascade-nccl-timeouts") + """

## What happened
A 2-node x 4-GPU (A100 80 GB) fine-tune (the Seg-R1 `grpo_prerl.py` HF-Trainer script), torch
2.5.1 + NCCL 2.21.5, one `torchrun` per node (`OMP_NUM_THREADS` set, so no banner; `NCCL_DEBUG`
unset, so NCCL prints only its bare version line on rank 0), 2025-03-18.

1. 09:46:22 **rank 5** (node-1 = `gpu-a100-018`, local rank 1, `GPU 1`) raises
   `torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.03 GiB ...` in the backward of
   step 128 (gradient-checkpointing recompute of the attention), then prints the torch 2.4+
   "process group has NOT been destroyed" warning while exiting.
2. node-1's torchrun SIGTERMs ranks 4, 6, 7 (they print nothing) and prints its
   `ChildFailedError` table: root cause rank 5, exit code 1.
3. node-0's ranks 0-3 are inside `all_reduce` SeqNum 4187 (`last completed NCCL work: 4186`); the
   dead peers never send, so nothing fails for **600 s**. At 09:56:21 the ProcessGroupNCCL watchdogs
   fire (`Timeout(ms)=600000`), each rank prints the watchdog lines, the C++ stack, `terminate
   called after throwing an instance of 'c10::DistBackendError'` and aborts (SIGABRT).
4. node-0's torchrun sees ranks 0 and 2 dead (-6), SIGTERMs ranks 1 and 3, and prints a table whose
   "Root Cause" is **rank 0** - a collateral rank.

## Layout
`node-0/console.log`, `node-1/console.log`: each node's `torchrun ... 2>&1 | tee console.log`
(agent lines and the workers' own stdout/stderr, no `--tee` prefixes). Rank 0's tqdm bar is one
long `\\r`-separated line; the first watchdog line of node-0 is glued to its end.

## Line shapes and provenance
| line shape | source | changed |
| --- | --- | --- |
| OOM traceback frames (Trainer -> accelerate -> autograd -> checkpoint -> qwen2_5_vl -> SDPA), `[rank5]: ` prefix | chenqiu1024/Seg-R1 `docs/runtime_error_in_output-20250831.md` @ 6628f84 (torch 2.5, py3.11) | install prefix, work dir |
| `torch.OutOfMemoryError: CUDA out of memory. Tried to allocate ... Including non-PyTorch memory, this process has ...` | formats/08-wrappers.md §5 (pytorch/pytorch issue 16417 comment; OpenHelix-Team/cobra issue 24) | sizes, GPU index |
| `[rankN]:[W... ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed ...` | Seg-R1 log above | rank, stamp |
| `You are attempting to use Flash Attention 2.0 ...`, `Loading checkpoint shards: ...`, `` `use_cache=True` is incompatible ... `` | Seg-R1 log above | - |
| tqdm bars (`  0%| ... | 0/375 [00:00<?, ?it/s]`) | rendered by tqdm 4.70.1 `format_meter` (same layout as the Seg-R1 log) | counts, times |
| Trainer log dicts `{'loss': ..., 'grad_norm': ..., 'learning_rate': ..., 'epoch': ...}` written through `tqdm.write` | huggingface/transformers PR 35207 (dict shape) | values |
| `NCCL version 2.21.5+cuda12.4` (bare) | formats/01-nccl.md §2; NVIDIA/nccl issue 1504 | - |
| c10d watchdog block, torch 2.5: `ProcessGroupNCCL.cpp:616` / `:1785` / `:1834` / `:630` / `:636` / `:1595`, `Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:618`, frames #0-#6 | modelscope/DiffSynth-Studio issue 458; XPixelGroup/BasicSR issue 737 (`[PG ID 0 PG GUID 0(default_pg) Rank N]`); mittagessen/party issue 7 (`clone + 0x44`) | rank, seq nums, numel, `ran for`, load addresses (offsets kept) |
| `terminate called after throwing an instance of 'c10::DistBackendError'`, `  what():  ...`, `Exception raised from ncclCommWatchdog at ...:1601` + frames | mittagessen/party issue 7 | as above |
| torchrun 2.5 `W... api.py:897] Sending process N closing signal SIGTERM`, `E... api.py:869] failed (exitcode: N) local_rank: ...`, torchrun traceback (`run.py` 919/910, `launcher/api.py` 138/269, `errors/__init__.py` 355) and the `ChildFailedError` table | Seg-R1 log above (torch 2.5); table template formats/03-torchrun-elastic.md §2; `Signal 6 (SIGABRT) received by PID N` format string ibid. | pids, ranks, times, host |

Unverified / assumed: whether the two SIGTERMed node-0 ranks still print their whole watchdog
block before dying (here they do: the watchdog fires on all four within ~0.1 s); the torch 2.5 table
lists only the children that had already exited (exit codes of SIGTERMed children are not
collected before pytorch/pytorch PR 160908).

## What makes it hard
* The loudest, most numerous errors (four C++ stack dumps, two tables) are collateral; the root
  cause is one Python exception on node-1, **ten minutes earlier**.
* node-0's table blames rank 0; only node-1's table names rank 5.
* Watchdog lines carry no year and a monotonic-clock fraction; traceback lines carry no stamp.
* No NCCL INFO lines: the only NCCL line is the bare version line.
"""


README_XID79 = """# xid79-fallen-off-bus

""" + COMMON_NOTE.format(func="scenario_xid79", name="xid79-fallen-off-bus") + """

## What happened
Our own DDP trainer (`sample_logs/_capture/train.py`, the one the captured scenarios use), run
with `backend=nccl` on 2 nodes x 4 NVIDIA L40 (PCIe, no NVLink: NCCL uses SHM inside a node and
`NET/Socket` between nodes), torch 2.5.1 + NCCL 2.21.5, `NCCL_DEBUG=INFO`, one torchrun per node,
each worker's stdout+stderr redirected to `rank<N>.log` (like `_capture/per_rank.sh`), 2025-06-03.

1. 14:08:33 **GPU 2 of `gpu-l40-08`** (PCI `0000:61:00`) falls off the bus: after a few minutes of
   corrected PCIe AER errors on its root port, the kernel logs `NVRM: Xid (PCI:0000:61:00): 79, ...
   GPU has fallen off the bus.`
2. **rank 6** runs on that GPU (its NCCL init line says `cudaDev 2 ... busId 61000`). It prints
   nothing more: the process hangs inside the driver (the behaviour reported in rwth-i6/returnn
   issues 1484/1486). Its last line is the normal `step 810` line, like every other rank's.
3. The other seven ranks are in `all_reduce` SeqNum 1626 (the DDP bucket of step 813) and wait
   for rank 6. 600 s later (14:18:33) their watchdogs fire and they abort (SIGABRT).
4. `gpu-l40-07`'s torchrun blames rank 0; `gpu-l40-08`'s torchrun SIGTERMs rank 6 and blames
   **rank 4**. No table mentions rank 6.
5. Afterwards the user ran `nvidia-smi` on `gpu-l40-08`; it prints only
   `Unable to determine the device handle for GPU0000:61:00.0: Unknown Error`.

## Layout
```
gpu-l40-07/rank0.log ... rank3.log   # per-worker stdout+stderr
gpu-l40-07/torchrun.log              # the agent (torchrun's own stderr)
gpu-l40-08/rank4.log ... rank7.log
gpu-l40-08/torchrun.log
gpu-l40-08/dmesg.log                 # `dmesg | tail` saved by the user: raw [seconds since boot] stamps
gpu-l40-08/nvidia-smi.txt            # `nvidia-smi` after the failure
```

## Line shapes and provenance
| line shape | source | changed |
| --- | --- | --- |
| trainer lines `MM/DD/YYYY HH:MM:SS - INFO - train - ...` (`process group initialized, backend=nccl`, header, `step N \\| rank R \\| loss ...`) | our trainer, captured in `sample_logs/gloo-data-error-per-rank/` | backend, host, pids, numbers |
| NCCL 2.21.5 INFO init (`Bootstrap : Using eth0:...`, `NET/Plugin: ...`, `cudaDriverVersion 12040`, bare `NCCL version 2.21.5+cuda12.4`, `NET/Socket : Using ...`, `Using non-device net plugin version 0`, `Using network Socket`, `ncclCommInitRank comm ... busId ... - Init START/COMPLETE`, `Setting affinity ...`, `comm ... nRanks ... MNNVL 0`, `Channel NN/02 : ...`, `Trees ...`, `P2P Chunksize ...`, `Channel NN : a[x] -> b[y] via SHM/direct/direct`, `... [send]/[receive] via NET/Socket/0`, `Connected all rings/trees`, `threadThresholds ...`, `2 coll channels, ...`, `TUNER/Plugin: ...`) | public Kubeflow PyTorchJob log with NCCL 2.21.5 (code index, read_file id 32352491303; repository not returned) | host, pid, tid, rank, cudaDev, busId, comm, commId, IP; ring/tree values for 2x4; `64/8/64` (8 x nranks, see `nccl21_init`) |
| `NCCL INFO NET/IB : No device found.` | huggingface/trl issue 2882 | host, pid, tid |
| c10d watchdog block (torch 2.5) | as in `oom-cascade-nccl-timeouts` (DiffSynth-Studio 458, BasicSR 737, mittagessen/party 7) | rank, seq, numel 577 (the trainer's MLP), addresses |
| torchrun 2.5 agent lines, traceback, table | chenqiu1024/Seg-R1 `docs/runtime_error_in_output-20250831.md` | pids, hosts, ranks |
| `pcieport 0000:60:01.0: AER: Corrected error received: ...` + 3 continuation lines (trailing spaces kept) | rwth-i6/returnn issue 1486 (`dmesg` there used relative `[  +0.000316]` stamps) | root port address, stamps made absolute |
| `NVRM: GPU at PCI:0000:61:00: GPU-<uuid>` | madMAx43v3r/chia-gigahorse issue 301 (formats/06 §5) | PCI, uuid, stamp |
| `NVRM: Xid (PCI:0000:61:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.` | leptonai/gpud `components/accelerator/nvidia/xid` kmsg regex comment (driver example; formats/06 §5) | PCI, stamp |
| `Unable to determine the device handle for GPU0000:61:00.0: Unknown Error` | rwth-i6/returnn issues 1484/1486, stanford-cs336/assignment4-data issue 1 | bus id |

Unverified / assumed: that the process on the lost GPU hangs rather than raising a CUDA error
(both happen in practice; the hang is what returnn 1484/1486 report); the AER root-port id
`8086:6f08` is kept from the source; the single-line Xid 79 form (newer drivers may also print the
multi-line `NVRM: The NVIDIA GPU ... has fallen off the bus` block, formats/06 §5).

## What makes it hard
* The initiating rank prints **nothing** deviating: its log just stops at a normal step line,
  like everyone's (the trainer logs every 10 steps).
* The only evidence is node-level: `dmesg.log` and `nvidia-smi.txt` name a **PCI address**, not a
  rank. It maps to rank 6 only through the NCCL init line `cudaDev 2 nvmlDev 2 busId 61000` in
  `rank6.log` (`busId 61000` = `0000:61:00.0`).
* dmesg stamps are seconds since boot; the Xid happens 10 minutes before the first error in any
  rank log.
* Both torchrun tables blame collateral ranks (0 and 4).
"""


README_IB = """# nccl-ib-error-one-node

""" + COMMON_NOTE.format(func="scenario_nccl_ib", name="nccl-ib-error-one-node") + """

## What happened
Our DDP trainer (`_capture/train.py`, `backend=nccl`) on 2 nodes x 4 GPUs with InfiniBand through
the HPC-X `nccl-rdma-sharp` plugin ("IBext"), torch 2.0.1 + NCCL 2.14.3 (the era of the cited
logs), `NCCL_DEBUG=INFO`, one torchrun per node, 2023-05-16.

1. 02:41:37 the proxy thread of **rank 7** (node-1 = `gpn022`, GPU 3) gets an InfiniBand
   completion with **error 12** (`IBV_WC_RETRY_EXC_ERR`: transport retries exceeded) while sending
   to `gpn021`: `ib_plugin.c:978 NCCL WARN NET/IB : Got completion from peer 10.226.98.21<48598>
   with error 12, opcode 0, len 0, vendor err 129`, followed by the `->` propagation chain
   (`-> 2` = `ncclSystemError`).
2. Rank 7's ProcessGroupNCCL aborts: `terminate called after throwing an instance of
   'std::runtime_error'`, `what():  NCCL error: unhandled system error, NCCL version 2.14.3`,
   `ncclSystemError: ...`, `Last error:` + the WARN text.
3. node-1's torchrun SIGTERMs ranks 4-6 and prints its table (rank 7, exit -6).
4. node-0's ranks 0-3 see their connections to node-1 closed (`misc/socket.cc:538 NCCL WARN Net :
   Connection closed by remote peer gpn022.hpc.local<...>`) and abort with
   `NCCL error: remote process exited or there was a network error` / `ncclRemoteError: ...` /
   `Last error:` (collateral). node-0's table blames rank 0.

## Layout
`node-0/console.log`, `node-1/console.log`: each node's torchrun console (agent + workers, no
`--tee` prefixes). torch 2.0's agent lines carry no time stamp; neither do NCCL or c10d lines.

## Line shapes and provenance
| line shape | source | changed |
| --- | --- | --- |
| trainer lines | our trainer (captured, see `gloo-data-error-per-rank`) | backend, hosts, pids, numbers |
| NCCL 2.14.3 + IBext init: `Bootstrap : Using ens9f1:...`, `NET/Plugin: Failed to find ncclNetPlugin_v6 symbol.`, `... Loaded net plugin NCCL RDMA Plugin (v5)`, `... Loaded coll plugin SHARP (v5)`, `Plugin Path : /opt/hpcx/...`, `P2P plugin IBext`, `NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_2:1/IB [RO]; OOB ens9f1:...`, `Using network IBext`, `Channel NN/0 : a[bus] -> b[bus] via P2P/IPC` / `[send] via NET/IBext/N` / `[receive] via NET/IBext/N/GDRDMA`, `Connected all rings`, `comm 0x... rank R nranks 8 cudaDev D busId B - Init COMPLETE` | deepspeedai/DeepSpeed issue 2931 (2 nodes, NCCL 2.14.3, IBext) | host, pid, tid, rank, busId, IP, comm |
| `cudaDriverVersion 11070`, bare `NCCL version 2.14.3+cuda11.7` | deepspeedai/DeepSpeed issue 2638 (same plugin, 2.14.3) | - |
| `Setting affinity for GPU N to ...`, `Channel 00/02 :    0   1 ...`, `Trees [0] ... [1] ...` | NVIDIA/nccl issue 1066 (NCCL 2.12) | masks, ring/tree values for 2x4 |
| `2 coll channels, 2 p2p channels, 2 p2p channels per peer` | deepspeedai/DeepSpeedExamples issue 310 | - |
| `ib_plugin.c:978 NCCL WARN NET/IB : Got completion from peer ... with error 12, opcode 0, len 0, vendor err 129` + `include/net.h:35 -> 2` ... `proxy.cc:684 -> 2 [Proxy Thread]` (blank line before the WARN) | deepspeedai/DeepSpeed issue 2931 (formats/01 §4) | host, pid, tid, dev, peer IP |
| `[E ProcessGroupNCCL.cpp:456] Some NCCL operations ...`, `[E ProcessGroupNCCL.cpp:461] To avoid data inconsistency ...`, `terminate called after throwing an instance of 'std::runtime_error'`, `  what():  NCCL error: unhandled system error, NCCL version 2.14.3`, `ncclSystemError: ...` (trailing space), `Last error:` | deepspeedai/DeepSpeed issue 2931 (formats/02 §4) | - (the `Last error:` line is completed to the full WARN text: that excerpt was cut after `opcode 0`) |
| `misc/socket.cc:538 NCCL WARN Net : Connection closed by remote peer <host><port>` | NVIDIA/nccl issue 795 (NCCL 2.14.3) | host, port |
| `NCCL error: remote process exited or there was a network error, NCCL version 2.14.3`, `ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.`, `Last error:` | tatsu-lab/stanford_alpaca issue 207 (2.14.3); formats/02 §4 | - |
| torch 2.0 agent `WARNING:torch.distributed.elastic.multiprocessing.api:Sending process N closing signal SIGTERM`, `ERROR:...:failed (exitcode: -6) local_rank: L (pid: P) of binary: ...` | hpcaitech/ColossalAI issue 3514 (formats/03 §1) | pids |
| torchrun 2.0.1 traceback (`errors/__init__.py` 346, `run.py` 794/785, `launcher/api.py` 134/250) and table | public notes of a `torch==2.0.1` run (code index, read_file id 5754210137); table template formats/03 §2 | paths, pids, hosts |

Unverified / assumed: that the node-0 peers fail through the socket WARN (rather than their own IB
retry errors or a 30-min timeout) - NVIDIA/nccl issue 795 shows exactly this on a remote node after
a peer crashed; the IB completion error is on the rank whose send failed, which is what makes the
rank with the WARN the initiator by definition here - the broken link could be at either end.

## What makes it hard
* Eight ranks die within seconds; five of them print NCCL errors. Only one error is an
  InfiniBand completion error (`ncclSystemError`, `-> 2`); the four on node-0 are
  `ncclRemoteError` (`remote process exited or there was a network error`) - collateral.
* No time stamps on any NCCL, c10d or agent line (torch 2.0 / NCCL 2.14): order comes from the
  trainer's one-second stamps and from file position.
* `[3]` in the WARN is the CUDA device (local GPU 3), not the rank; the global rank is only in the
  `comm ... rank 7 nranks 8 cudaDev 3` init line of the same `host:pid`.
* node-0's table blames rank 0.
"""

README_ECC = """# ecc-xid48-double-bit

""" + COMMON_NOTE.format(func="scenario_ecc_xid48", name="ecc-xid48-double-bit") + """

## What happened
Our DDP trainer (`_capture/train.py`, `backend=nccl`) on 2 nodes x 4 A100-SXM4-80GB, torch 2.4.1
+ NCCL 2.20.5, one `torchrun --tee 3` per node (`NCCL_DEBUG` unset), 2025-03-18.

1. 10:40:31 node-0's GPU 2 (PCI `0000:47:00`) reports an uncorrectable **double-bit ECC error**
   (`Xid 48`) and a pending row remap (`Xid 63`) in the kernel log.
2. Less than a second later **rank 2** (node-0, local rank 2)'s ProcessGroupNCCL watchdog hits the
   sticky CUDA error: `Process group watchdog thread terminated with exception: CUDA error:
   uncorrectable ECC error encountered`, stack, `terminate called after throwing an instance of
   'c10::DistBackendError'`, SIGABRT.
3. node-0's torchrun SIGTERMs ranks 0, 1, 3 and blames rank 2 (exit -6).
4. node-1's ranks 4-7 wait in `all_reduce` SeqNum 5502 and time out **600 s later**; node-1's
   table blames rank 4.
5. Later the admin saved `nvidia-smi -q` on node-0: GPU `00000000:47:00.0` shows
   `DRAM Uncorrectable : 1` (volatile and aggregate) and a pending remapped row.

## Layout
```
node-0/console.log        # torchrun --tee 3: agent lines + [default<local_rank>]:<worker line>
node-0/dmesg.log          # `dmesg -T` excerpt (NVRM lines)
node-0/nvidia-smi-q.txt   # `nvidia-smi -q` excerpt: header, per GPU the ECC / Retired Pages / Remapped Rows sections
node-1/console.log
```

## Line shapes and provenance
| line shape | source | changed |
| --- | --- | --- |
| trainer lines behind `[defaultN]:` | our trainer (captured, `two-node-faketime-skew` for the `--tee` prefix) | backend, hosts, pids, numbers |
| `NVRM: Xid (PCI:0000:47:00): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at physAddr 0x7fdd60000 partition 5, subpartition 1` | NVIDIA/gpu-operator issue 1146 (syslog of a real node; the partition/subpartition tail as quoted from the same issue in a public fixture list) | PCI, stamp |
| `NVRM: Xid (PCI:...): 63, pid=N, Row Remapper: New row marked for remapping, reset gpu to activate.` | stas00/ml-engineering `compute/accelerator/nvidia/debug.md` | PCI, pid |
| `NVRM: GPU at PCI:...: GPU-<uuid>`; `dmesg -T` prefix `[Tue Mar 18 10:40:31 2025] ` | chia-gigahorse 301; formats/06 §5 | - |
| `[defaultN]:[rankN]:[E... ProcessGroupNCCL.cpp:1515] [PG 0 (default_pg) Rank N] Process group watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered` | pytorch/pytorch issue 113128, comment of 2024-08-17 (torch 2.4, `--tee`) | rank, stamp |
| the three CUDA-error banner lines (`CUDA kernel errors might be asynchronously reported ...`, `For debugging consider passing CUDA_LAUNCH_BLOCKING=1`, ``Compile with `TORCH_USE_CUDA_DSA` ...``) | NVIDIA/Fuser issue 2497; public torch-2.4-era log (code index, read_file id 24122101804) | - |
| `Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43`, frames #0-#6 (`torchCheckFail`, `c10_cuda_check_implementation`, `finishedGPUExecutionInternal`, `isCompleted`, `watchdogHandler() + 0x1da`, `ncclCommWatchdog() + 0x10c`) | aigc-apps/VideoX-Fun issue 182; pytorch/pytorch issue 113128 comment (same build) | addresses re-based |
| frames #7-#9, `terminate called ...` / `what():` / `Exception raised from ncclCommWatchdog ...` layout of the CUDA-error path | pytorch/pytorch issue 126544 | - |
| c10d timeout block, torch 2.4 (`:607`, `:1664`, `:1709`, `:621`, `:627`, `:1515`, `checkTimeout ... :609`, frames, `ncclCommWatchdog ... :1521`) | sgl-project/sglang issue 1693; hiyouga/LlamaFactory issue 6269; jpata/particleflow issue 390; milabench PR 269 | rank, seq, numel, addresses |
| torch 2.4 agent `W0318 ... <thread id> torch/distributed/elastic/multiprocessing/api.py:858] Sending process ...`, `E... api.py:833] failed (exitcode: -6) ...`, torchrun traceback (348, 901/892, 133/264) | public logs in the code index (read_file ids 24122101804, 63136295466) | tid, pids |
| bare `NCCL version 2.20.5+cuda12.4` | NCCL 2.20.5 logs (e.g. verl / llama-stack docs in the code index) | - |
| `nvidia-smi -q` header and the ECC Errors / Retired Pages / Remapped Rows sections for `NVIDIA A100-SXM4-80GB` | stas00/ml-engineering debug.md; `==============NVSMI LOG==============` from Project-HAMi/HAMi issue 347 | counts (DRAM Uncorrectable 1 on the bad GPU), bus ids, time, driver |

Unverified / assumed: the exact driver text of Xid 48 for this driver branch (the cited line is
from another node and driver; formats/06 §6 lists Xid 48 as `ROBUST_CHANNEL_GPU_ECC_DBE`, "Double
Bit ECC Error"); the attribution of the `api.py:858/833` agent lines (thread id after the time) to
torch 2.4 is inferred from dates and line numbers; `nvidia-smi-q.txt` is an excerpt (the cited
source itself elides the other sections), so it is not a full `nvidia-smi -q` dump.

## What makes it hard
* Two pieces of evidence about the same GPU live in node-level files (`dmesg.log`,
  `nvidia-smi-q.txt`) that name a PCI address and a GPU index, not a rank.
* The initiator's error looks like a generic "watchdog thread terminated" NCCL error; only the
  text `uncorrectable ECC error` distinguishes it from a software crash.
* node-1's ranks report collective timeouts 10 minutes later and node-1's table blames rank 4.
"""


README_SKEW = """# version-skew-collect-env

""" + COMMON_NOTE.format(func="scenario_version_skew", name="version-skew-collect-env") + """

## What happened
Our DDP trainer (`_capture/train.py`, `backend=nccl`) launched on 2 nodes x 4 A100 with one
torchrun per node, 2025-02-11. node-0 (`gpu-a100-051`) runs the intended image: torch
2.5.1+cu124 with NCCL 2.21.5. **node-1** (`gpu-a100-052`) still has an older environment:
torch 2.4.1+cu121, NCCL 2.20.5, CUDA runtime 12.1.

1. All eight ranks initialise the process group (TCPStore) fine and log their init line;
   rank 0 logs `torch 2.5.1+cu124` and NCCL's bare `NCCL version 2.21.5+cuda12.4`.
2. The first collective (DDP's parameter broadcast, `SeqNum=1, OpType=BROADCAST`) never
   completes: NCCL communicators of two different NCCL releases are not compatible.
3. 600 s later every rank's watchdog fires (`last completed NCCL work: -1`) and aborts.
   node-0's ranks print the torch-2.5 lines (`ProcessGroupNCCL.cpp:616`, `[PG ID 0 PG GUID
   0(default_pg) Rank N]`), node-1's the torch-2.4 lines (`:607`, `[PG 0 (default_pg) Rank N]`);
   the two agents also print different torchrun formats (pid vs thread id after the time).
4. Each node kept a `python -m torch.utils.collect_env` report in the job directory; they differ
   in `PyTorch version`, `CUDA used to build PyTorch`, `CUDA runtime version` and the
   `nvidia-nccl-cu12` / `torch` / `triton` pip lines.

## Layout
`node-0/console.log`, `node-0/collect_env.txt`, `node-1/console.log`, `node-1/collect_env.txt`.

## Line shapes and provenance
| line shape | source | changed |
| --- | --- | --- |
| trainer lines | our trainer (captured) | backend, hosts, pids |
| bare `NCCL version 2.21.5+cuda12.4` | formats/01 §2, NVIDIA/nccl issue 1504 | - |
| c10d timeout block, torch 2.5 (node-0) | DiffSynth-Studio 458, BasicSR 737, mittagessen/party 7 (its own hang was `SeqNum=1, OpType=BROADCAST, NumelIn=1`) | rank, stamps, addresses |
| c10d timeout block, torch 2.4 (node-1) | sglang 1693, LlamaFactory 6269, particleflow 390 | rank, stamps, addresses |
| `last completed NCCL work: -1` | formats/02 §3 (NVIDIA/nccl issue 1504) | - |
| torchrun 2.5 agent/table (node-0); torchrun 2.4 agent (thread id, `api.py:833`) and traceback (node-1) | Seg-R1 log; code-index logs read_file ids 24122101804, 63136295466 | pids, tids, hosts |
| `collect_env.txt` (`Collecting environment information...`, field order and groups, `GPU models and configuration: ` + one line per GPU, `[pip3] name==version`, `[conda] Could not collect`) | formats/07 §3 (PyTorch 2.4.0 output, vllm-project/vllm PR 9293) and the template/`pretty_str` of `torch/utils/collect_env.py` (installed here) | versions, OS/driver/GPU values, pip list |
| CPU block (`Architecture:` ... `NUMA node(s):`) | lscpu labels (first two lines as in the 2.4.0 sample; the others as printed by lscpu on this machine, at the sample's column) | values for a 2 x EPYC 7763 host |

Unverified / assumed: the failure mechanism (a hang at the first collective; a mixed-NCCL job may
also crash or error at communicator init); whether torch 2.5.1's collect_env already prints
`Is XPU available` (not printed here, as in the verified 2.4.0 output); the pip filter's exact
package set (formats/07 §4: not verified).

## What makes it hard
* Nothing in the crash itself names a version: every rank just times out in the first collective.
* The evidence is environmental (two `collect_env.txt` files) and stylistic (two c10d/torchrun
  log formats side by side).
* There is no initiating rank; the culprit is a node (`initiating.node = node-1`, `rank = null`).
"""

README_SLURM = """# slurm-time-limit

""" + COMMON_NOTE.format(func="scenario_slurm_time_limit", name="slurm-time-limit") + """

## What happened
Our DDP trainer (`_capture/train.py`, `backend=nccl`, torch 2.5.1) run as `srun -l python
train.py ...` (8 tasks, one per GPU, on `gpu-a100-017` and `gpu-a100-018`) from an sbatch script
with `#SBATCH --time=04:00:00` that first runs `echo "START TIME: $(date)"`, 2025-04-20.
Training is healthy; after 4 hours Slurm cancels the job: `srun` waits for the step,
`slurmstepd` prints `*** JOB 812734 ON gpu-a100-017 CANCELLED AT 2025-04-20T13:02:11 DUE TO
TIME LIMIT ***` (and the same for STEP 812734.0), and `srun` reports every task `Terminated`.
No rank prints an error; the tasks die silently on SIGTERM.

## Layout
`slurm-812734.out`: the batch output; every task line is prefixed `N: ` by `srun -l`; srun's and
slurmstepd's own lines are not.

## Line shapes and provenance
| line shape | source | changed |
| --- | --- | --- |
| `N: ` label before task lines | srun man page (formats/08 §1); our emulation in `_capture/srun_label.py` | - (the padding srun uses for >= 10 tasks is **unverified**; 8 tasks need none) |
| trainer lines, bare `NCCL version 2.21.5+cuda12.4` | our trainer (captured); formats/01 §2 | backend, hosts, pids, numbers |
| `START TIME: Sun Apr 20 09:02:09 UTC 2025` | stas00/ml-engineering sbatch example (`echo "START TIME: $(date)"`), `date`'s default format | time |
| `srun: Job step aborted: Waiting up to 32 seconds for job step to finish.` | formats/08 §1 (code-index sample; ZettaAI/zetta_utils issue 671 shows the same line with 47 s) | - |
| `slurmstepd: error: *** JOB 812734 ON gpu-a100-017 CANCELLED AT 2025-04-20T13:02:11 DUE TO TIME LIMIT ***`, same for `STEP 812734.0` | ZettaAI/zetta_utils issue 671; slurmstepd format string (formats/08 §1) | job id, node, time |
| `srun: error: gpu-a100-018: tasks 4-7: Terminated` | formats/08 §1 (`srun: error: nid008637: tasks 0-2: Terminated`) | node, task range |

## What makes it hard
* Not a crash: nothing failed, yet the job ended. The only deviating lines are Slurm's, and
  `Terminated` on all tasks looks like a collective failure.
* The verdict has no rank and no node (`all_ranks = true`).
"""

README_KUBE = """# kubectl-pods-skewed-clocks

""" + COMMON_NOTE.format(func="scenario_kubectl_skew", name="kubectl-pods-skewed-clocks") + """

## What happened
A Kubeflow PyTorchJob `llm-ft` with 4 pods x 2 GPUs (`master-0`, `worker-0`, `worker-1`,
`worker-2`), each running `torchrun --nnodes 4 --nproc-per-node 2 /workspace/train.py` (our DDP
trainer, `backend=nccl`, torch 2.5.1, NCCL 2.21.5 over sockets, `NCCL_DEBUG` unset), 2025-05-12.
The user collected `kubectl logs --timestamps <pod>` into one file per pod. **The node running
`worker-1` has its clock 45 s ahead**; the container's own stamps and kubectl's stamps for that pod
are both 45 s ahead.

1. True time 14:30:40: **rank 5** (pod `worker-1`, local rank 1) raises
   `ValueError: corrupt sample at index 110237: ... (shard train-00005-of-00008.bin)` in its
   DataLoader and exits; its torchrun SIGTERMs rank 4.
2. 1.4-3.6 s later, the ranks connected to them by NCCL sockets fail in `loss.backward()` with
   `torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/
   NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.21.5`,
   `ncclRemoteError: ...`, `Last error:`, `socketProgressOpt: Call to recv from ... failed :
   Connection reset by peer` - ranks 6, 7, 3, 2, 0, 1 - and their pods' torchrun agents fail too.
3. By raw stamps, every victim's error (14:30:41-14:30:43) comes **40 s before** the root cause
   (14:31:25 on `worker-1`'s clock).

## Layout
`master-0.log`, `worker-0.log`, `worker-1.log`, `worker-2.log`: `kubectl logs --timestamps`
of each pod's only container (torchrun's own lines and its workers' output, every line prefixed
by an RFC 3339 stamp and a space).

## Line shapes and provenance
| line shape | source | changed |
| --- | --- | --- |
| `2025-05-12T14:30:41.400560417Z ` before every line | kubectl docs (formats/08 §4: RFC 3339 before the line) | **fraction width unverified**: 9 digits are used here (Go's RFC3339Nano would drop trailing zeros) |
| trainer lines; the `ValueError: corrupt sample ...` traceback's trainer frames and `[rankN]: ` prefix | our trainer (captured in `gloo-data-error-per-rank`) | index, shard, paths |
| DataLoader frames (`dataloader.py` 701 `__next__`, 757 `_next_data`, `fetch.py` 52 `fetch` and `<listcomp>`, with py3.11 carets) | public py3.11 traceback in the code index (read_file id 70165838292) | install prefix |
| autograd frames (`_tensor.py` 581, `autograd/__init__.py` 347, `graph.py` 825 + carets) | Seg-R1 log (torch 2.5) | install prefix |
| `torch.distributed.DistBackendError: NCCL error in: .../NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.21.5`, `ncclRemoteError: ...`, `Last error:`, `socketProgressOpt: Call to recv from <ip><port> failed : Connection reset by peer` | NVIDIA/nccl issue 2076 (the torch 2.5.1 conda build's `NCCLUtils.hpp:317`); `[rankN]: ` on each line as in NVIDIA/nccl issue 1928 | source path prefix `../torch/csrc/...` (pip build, as in the checkTimeout lines of torch 2.5), IPs, ports |
| `[rankN]:[W... ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed ...` | Seg-R1 log | rank, stamp |
| torchrun 2.5 agent lines, traceback, table (`host      : llm-ft-worker-1`) | Seg-R1 log | pids (torchrun is PID 1 in the container), hosts |

Unverified / assumed: that every victim fails through the Python-side `DistBackendError` (a
watchdog abort is equally possible); the fraction width of kubectl's stamps.

## What makes it hard
* **Clock skew across pods**: the naive "earliest error" is a collateral `DistBackendError` on
  `worker-2`; the root cause is 45 s "later" in another file.
* Six tracebacks name NCCL and a "remote process"; only one is a plain Python `ValueError`.
* Two stamps on every application line (kubectl's and the trainer's), both skewed on `worker-1`.
"""

README_ZERO3 = """# zero3-offload-host-oom

""" + COMMON_NOTE.format(func="scenario_zero3_host_oom", name="zero3-offload-host-oom") + """

## What happened
A DeepSpeed 0.14 fine-tune with **ZeRO stage 3 and the optimizer offloaded to CPU**
(`"offload_optimizer": {"device": "cpu", "pin_memory": true}`, DeepSpeedCPUAdam JIT-built), torch
2.2, launched with the DeepSpeed runner over pdsh on `gpu-node-01` and `gpu-node-02` (4 GPUs
each), 2024-03-20. The runner's console was saved as `deepspeed.log`.

1. At start-up `see_memory_usage` already reports `CPU Virtual Memory:  used = 431.08 GB, percent =
   85.6%` on node-01 after the fp16 partitions are created.
2. 10:54:29, step ~667: gpu-node-02 runs out of host memory; the kernel OOM killer kills **rank 5**
   (local rank 1, pid 38861): `Out of memory: Killed process 38861 (python) total-vm:... anon-rss:
   247012380kB ...` (`gpu-node-02/dmesg.log`). The process prints nothing.
3. node-02's DeepSpeed launcher kills its other workers (`Killing subprocess ...`) and reports
   `[ERROR] [launch.py:321:sigkill_handler] [... '--local_rank=1' ...] exits with return code =
   -9`; pdsh reports `ssh exited with exit code 247`.
4. node-01's ranks 0-3 wait in the ZeRO-3 parameter all-gather (`_ALLGATHER_BASE`); DeepSpeed's
   30-minute process-group timeout fires at 11:24:28 and they abort (torch 2.2 watchdog lines);
   node-01's launcher reports return code -6.

## Layout
```
deepspeed.log            # the runner's console: its own lines, then every remote line as "<host>: <line>" (pdsh)
gpu-node-02/dmesg.log    # the kernel's OOM-killer lines (raw [seconds since boot])
```

## Line shapes and provenance
| line shape | source | changed |
| --- | --- | --- |
| `[real_accelerator.py:191:get_accelerator] Setting ds_accelerator to cuda (auto detect)`, `[launch.py:145/151/162/163/165:main]` world info, `[launch.py:253:main] process N spawned with command: [...]`, `[comm.py:637:init_distributed] cdb=None`, `[comm.py:668:init_distributed] Initializing TorchBackend ...`, cpu_adam JIT lines (`Using ... as PyTorch extensions root...` ... `Time to load cpu_adam op: ... seconds`), `Parameter Offload: Total persistent parameters: ...` | safe-rlhf ZeRO-3 `--offload all` log (code index, read_file id 5140062711, DeepSpeed 2024-02) | hosts, pids, paths, times |
| multi-node `WORLD INFO DICT` / `global_rank_mapping` with two hosts, pdsh `host: ` prefix | Aurora pdsh log (code index, id 3625796328); formats/04 §5, formats/08 §2 | hosts |
| `[multinode_runner.py:80:get_cmd] Running on the following workers: ...`, `[runner.py:571:main] cmd = pdsh -S -f 1024 -w ...` | deepspeedai/DeepSpeedExamples issue 845; the `export K=V;` part from huggingface/accelerate issue 1114 | hosts; the rest of the command line is reconstructed from DeepSpeed's PDSH runner (not verbatim) |
| `[logging.py:96:log_dist] [Rank 0] Creating torch.bfloat16 ZeRO stage 3 optimizer`, `[utils.py:791:see_memory_usage] Stage 3 initialize beginning` | deepspeedai/DeepSpeed issue 4571 | - |
| `MA ... Max_MA ... CA ... Max_CA ...`, `CPU Virtual Memory:  used = ... GB, percent = ...%` | deepspeedai/DeepSpeed issue 852 (text); line numbers 792/799 = 791 + 1 / + 8 as in hiyouga/LlamaFactory issue 9116 (781/782/789) | values |
| see_memory_usage titles `DeepSpeedZeRoOffload initialize [begin]` / `[end]`, `Before creating fp16 partitions`, `After creating fp16 partitions: 2` (with `Parameter Offload: ...` in between) | hiyouga/LlamaFactory issue 9116 | line number 791 |
| `Installed CUDA version 12.2 does not match the version torch was compiled with 12.1 but since the APIs are compatible, accepting this combination` (benign), the four ninja steps `[1/4] ... nvcc ...` to `[4/4] c++ ... -o cpu_adam.so` | safe-rlhf log (code index id 5140062711) | install paths, GPU arch sm_80 |
| `[Rank 0] DeepSpeed info: version=..., git-hash=unknown, git-branch=unknown`, `[Rank 0] DeepSpeed Basic Optimizer = DeepSpeedCPUAdam` | OpenRLHF/OpenRLHF issue 841 (there `logging.py:128`, DeepSpeed 0.16) | version, line number 96 |
| `[config.py:984:print] DeepSpeedEngine configuration:`, `[config.py:988:print]   <field> .... <value>` (a subset of the fields), `[config.py:974:print_user_config]   json = {` + the JSON dump, `[Rank 0] step=N, skipped=0, lr=[...], mom=[...]`, `[timer.py:260:stop] epoch=0/micro_step=.../global_step=..., RunningAvgSamplesPerSec=..., ...` | DeepSpeed 0.14/0.15 log in the code index (id 6057510633); formats/04 §2 | values; only a subset of the engine's config fields is kept |
| `[launch.py:315:sigkill_handler] Killing subprocess N`, `[launch.py:321:sigkill_handler] [...] exits with return code = -9` | deepspeedai/DeepSpeed issue 5302 (formats/04 §5), issue 3232 (`-9`) | pids, argv |
| `pdsh@<host>: <host>: ssh exited with exit code 247` | Determined DeepSpeed log in the code index (id 33252065466) | hosts, code (250 for -6) |
| `python invoked oom-killer: gfp_mask=0x6200ca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0`, `oom-kill:constraint=CONSTRAINT_NONE,...,task=python,pid=N,uid=0`, `Out of memory: Killed process N (python) total-vm:...kB, anon-rss:...kB, file-rss:...kB, shmem-rss:...kB, UID:0 pgtables:...kB oom_score_adj:0`, `oom_reaper: reaped process N (python), now anon-rss:0kB, ...` | equinor/ert issue 7797 (a real `dmesg --time-format iso` OOM kill), pcyin/tranX issue 41 (raw `[seconds]` stamps) | comm, pid, sizes, memcg path; stamps made raw |
| torch 2.2 watchdog block (`[rankN]:[E ProcessGroupNCCL.cpp:537]`, `:543`, `:1182 ... Watchdog caught collective operation timeout: WorkNCCL(...Timeout(ms)=1800000)...`, `checkTimeout at ...:525`, frames, `terminate called ...`, `ncclCommWatchdog at ...:1186`) | arrival-ltd/catalyst-rl-tutorial issue 15 (a DeepSpeed job) | rank, seq, op type, numel, addresses |

Unverified / assumed: the version mix (line numbers come from DeepSpeed 0.13-0.15 samples, not
one release); the engine config dump is a subset; the `zero_config` line is left out (its repr
with an `offload_optimizer` object was not found verbatim).

## What makes it hard
* The initiating process prints **nothing**: SIGKILL leaves no traceback. Its rank is only in the
  launcher's argv (`'--local_rank=1'` on `gpu-node-02` = global rank 5 via `global_rank_mapping`)
  and in the kernel log's pid.
* The loud errors (four C++ stack dumps) come 30 minutes later on the other node.
* Every remote line has a `gpu-node-0N: ` pdsh prefix; the torch 2.2 watchdog lines have no time
  stamp at all.
"""


# =========================================================================== main

SCENARIOS: dict[str, Callable[[], Job]] = {
    "oom-cascade-nccl-timeouts": scenario_oom_cascade,
    "nccl-ib-error-one-node": scenario_nccl_ib,
    "xid79-fallen-off-bus": scenario_xid79,
    "ecc-xid48-double-bit": scenario_ecc_xid48,
    "version-skew-collect-env": scenario_version_skew,
    "slurm-time-limit": scenario_slurm_time_limit,
    "kubectl-pods-skewed-clocks": scenario_kubectl_skew,
    "zero3-offload-host-oom": scenario_zero3_host_oom,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("names", nargs="*", help=f"scenarios (default: all): {', '.join(SCENARIOS)}")
    args = ap.parse_args(argv)
    names = args.names or list(SCENARIOS)
    for n in names:
        if n not in SCENARIOS:
            ap.error(f"unknown scenario {n!r}")
        SCENARIOS[n]().write(args.out)
        print(f"wrote {args.out / n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
