"""Tests for correlator.ingest.timestamps.parse_timestamps.

Inputs are verbatim lines from docs/formats (file and section cited per
case) with their wrapper prefix removed, as the demux step hands them over
(``[rank0]:``, ``trainer/0 [0]:``, ``stderr: ``, ``(RayWorkerWrapper pid=1019) ``
...). Lines marked "shape per ..." are built from a format string or a
description in those files because no verbatim sample exists there.
"""

from __future__ import annotations

import datetime as dt
import random
import zoneinfo
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from correlator.ingest import timestamps
from correlator.ingest.timestamps import FORMATS, YEARLESS_FORMATS, parse_timestamps
from correlator.timeline.shapes import digit_shapes

UTC = dt.UTC


def utc(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)


def parse(lines: list[str | None], **kwargs: Any) -> pl.DataFrame:
    return parse_timestamps(pl.Series("line", lines, dtype=pl.String), **kwargs)


def one(line: str, **kwargs: Any) -> dict[str, Any]:
    out = parse([line], **kwargs)
    assert out.height == 1
    return out.row(0, named=True)


# (line, expected UTC instant with tz="UTC" and default_year=2024, format)
STAMPED: list[tuple[str, dt.datetime, str]] = [
    # 04-deepspeed.md §1 (deepspeedai/DeepSpeed issue 2920)
    (
        "[2023-03-03 02:22:03,491] [INFO] [logging.py:68:log_dist] [Rank 0] Creating fp16 ZeRO stage 3 optimizer",
        utc(2023, 3, 3, 2, 22, 3, 491000),
        "deepspeed",
    ),
    # 04-deepspeed.md §2 (huggingface/trl issue 2784)
    (
        "[2025-02-07 01:13:41,065] [INFO] [config.py:1003:print]   train_batch_size ............. 1",
        utc(2025, 2, 7, 1, 13, 41, 65000),
        "deepspeed",
    ),
    # 03-torchrun-elastic.md §1, torch 2.1-2.2 agent (xiuqhou/Salience-DETR issue 4)
    (
        "[2024-05-08 08:47:31,261] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 5938 closing signal SIGTERM",
        utc(2024, 5, 8, 8, 47, 31, 261000),
        "deepspeed",
    ),
    # 01-nccl.md §3, NCCL user guide logging.rst (default NCCL_DEBUG_TIMESTAMP_FORMAT)
    (
        "[2026-05-05 06:16:47] node-01:189884:189884 [3] plugin/net.cc:334 NCCL WARN Failed to initialize any NET plugin",
        utc(2026, 5, 5, 6, 16, 47),
        "nccl",
    ),
    # 01-nccl.md §1: shape per the "[%F %T.%9f] " example; nanoseconds truncated
    (
        "[2026-05-05 06:16:47.123456789] node-01:189884:189884 [3] plugin/net.cc:334 NCCL WARN Failed to initialize any NET plugin",
        utc(2026, 5, 5, 6, 16, 47, 123456),
        "nccl",
    ),
    # 05-accelerate-hf.md §4 (huggingface/transformers issue 11796)
    (
        "[INFO|trainer.py:1145] 2021-05-20 20:16:39,037 >> ***** Running training *****",
        utc(2021, 5, 20, 20, 16, 39, 37000),
        "trainer",
    ),
    (
        "[INFO|trainer.py:1149] 2021-05-20 20:16:39,037 >>   Total train batch size (w. parallel, distributed & accumulation) = 256",
        utc(2021, 5, 20, 20, 16, 39, 37000),
        "trainer",
    ),
    # 05-accelerate-hf.md §2 (example-script format, code index)
    (
        "03/13/2023 10:48:18 - INFO - __main__ - Distributed environment: MULTI_GPU  Backend: nccl",
        utc(2023, 3, 13, 10, 48, 18),
        "hf_us",
    ),
    (
        "10/04/2023 23:34:59 - INFO - __main__ - Distributed environment: DistributedType.NO",
        utc(2023, 10, 4, 23, 34, 59),
        "hf_us",
    ),
    # 05-accelerate-hf.md §2, SageMaker line after its "[1,mpirank:0,algo-1]<stderr>:" tag
    (
        "09/21/2022 13:37:39 - INFO - __main__ - Distributed environment: MULTI_GPU  Backend: smddp",
        utc(2022, 9, 21, 13, 37, 39),
        "hf_us",
    ),
    # 02-pytorch-c10d.md §3 ~2.4 (hiyouga/LlamaFactory issue 6269), "[rank0]:" removed
    (
        "[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7753, OpType=_REDUCE_SCATTER_BASE, NumelIn=544997376, NumelOut=68124672, Timeout(ms)=600000) ran for 600061 milliseconds before timing out.",
        utc(2024, 12, 6, 18, 44, 12, 715298),
        "c10_glog",
    ),
    # 02-pytorch-c10d.md §3 2.5+ (modelscope/DiffSynth-Studio issue 458): 3-digit month-day
    (
        "[E318 07:39:53.792630246 ProcessGroupNCCL.cpp:616] [Rank 4] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=610, OpType=COALESCED, NumelIn=56320, NumelOut=450560, Timeout(ms)=600000) ran for 600086 milliseconds before timing out.",
        utc(2024, 3, 18, 7, 39, 53, 792630),
        "c10_glog",
    ),
    # 02-pytorch-c10d.md §5 (lzhxmu/CPPO issue 6): logged before the rank is known
    (
        "[E521 15:43:02.707733876 socket.cpp:1023] [c10d] The client socket has timed out after 600000ms while trying to connect to (172.18.21.4, 37907).",
        utc(2024, 5, 21, 15, 43, 2, 707733),
        "c10_glog",
    ),
    # 02-pytorch-c10d.md §5 (NVIDIA/nccl issue 1657): INFO level
    (
        "[I323 21:57:08.462050602 TCPStoreLibUvBackend.cpp:120] [c10d - debug] Read callback failed. code:-4095 name:EOF desc:end of file",
        utc(2024, 3, 23, 21, 57, 8, 462050),
        "c10_glog",
    ),
    # 02-pytorch-c10d.md §5 (xorbitsai/inference issue 4421), "[rank6]:" removed
    (
        "[W729 10:15:17.529361055 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=76, addr=[localhost]:60950, remote=[localhost]:29500): Connection reset by peer",
        utc(2024, 7, 29, 10, 15, 17, 529361),
        "c10_glog",
    ),
    # 03-torchrun-elastic.md §1, torch >= 2.4 (OEvortex/unsloth issue 10)
    (
        "W0801 13:23:17.366000 32974 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 33051 closing signal SIGTERM",
        utc(2024, 8, 1, 13, 23, 17, 366000),
        "torch_logging",
    ),
    # 03-torchrun-elastic.md §1, torch 2.3, thread id (pytorch/pytorch issue 126544)
    (
        "E0517 08:24:03.805000 140617718325696 torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: -6) local_rank: 0 (pid: 970611) of binary: /tmp/venv/bin/python3",
        utc(2024, 5, 17, 8, 24, 3, 805000),
        "torch_logging",
    ),
    # 03-torchrun-elastic.md §1 (lmzpai/roboMamba issue 10): site-packages-relative path
    (
        "E0325 20:57:27.620000 2606 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) local_rank: 5 (pid: 2630) of binary: /root/miniconda3/bin/python",
        utc(2024, 3, 25, 20, 57, 27, 620000),
        "torch_logging",
    ),
    # 02-pytorch-c10d.md §1 (pytorch/pytorch pull request 137523), "trainer/0 [0]:" removed
    (
        "E0927 12:07:22.643702 1012209 ProcessGroupNCCL.cpp:1356] [PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL preparing to dump debug info.",
        utc(2024, 9, 27, 12, 7, 22, 643702),
        "glog",
    ),
    # 02-pytorch-c10d.md §1 (pytorch/pytorch pull request 45780)
    (
        "I1002 15:18:48.539551 1822062 ProcessGroupNCCL.cpp:528] [Rank 2] NCCL watchdog thread started!",
        utc(2024, 10, 2, 15, 18, 48, 539551),
        "glog",
    ),
    # 06-nvidia-smi-xid.md §5 (doitsujin/dxvk issue 1799)
    (
        "Nov 29 11:28:11 zeus kernel: NVRM: Xid (PCI:0000:c1:00): 31, pid=12890, Ch 0000003b, intr 00000000. MMU Fault: ENGINE HOST0 HUBCLIENT_HOST_CPU faulted @ 0x1_0c3c0000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_WRITE",
        utc(2024, 11, 29, 11, 28, 11),
        "syslog",
    ),
    # 02-pytorch-c10d.md §4 (pytorch/pytorch pull request 30157): CI prefix, syslog shape
    (
        "Nov 20 16:03:25 RuntimeError: NCCL error in: /var/lib/jenkins/workspace/torch/lib/c10d/ProcessGroupNCCL.cpp:404, unhandled system error, NCCL version 2.5.6",
        utc(2024, 11, 20, 16, 3, 25),
        "syslog",
    ),
    # shape per 06-nvidia-smi-xid.md §5 / the brief: space-padded single-digit day
    ("May  1 12:00:00 zeus kernel: NVRM: Xid (PCI:0000:c1:00): 79", utc(2024, 5, 1, 12), "syslog"),
    # 08-wrappers.md §4 (modal-labs/modal-examples issue 1558): platform stamp on its own line
    ("May 10  17:16:33.739", utc(2024, 5, 10, 17, 16, 33, 739000), "syslog"),
    # 08-wrappers.md §3 (spellml/examples pull request 17)
    (
        "May 18, 2020, 11:47:13: running: [1,1]<stdout>:Train Epoch: 10 [7680/30000 (26%)]\tLoss: 0.161335",
        utc(2020, 5, 18, 11, 47, 13),
        "mdy_comma",
    ),
    # 08-wrappers.md §4 (NVIDIA/nccl issue 1591), "(RayWorkerWrapper pid=1019) " removed
    (
        "INFO 01-29 07:44:20 selector.py:120] Using Flash Attention backend. [repeated 12x across cluster]",
        utc(2024, 1, 29, 7, 44, 20),
        "vllm",
    ),
    # 08-wrappers.md §5 (kaito-project/kaito issue 976)
    (
        "ERROR 04-01 23:46:56 [engine.py:160] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 546.00 MiB.",
        utc(2024, 4, 1, 23, 46, 56),
        "vllm",
    ),
    # 06-nvidia-smi-xid.md §5 (leptonai/gpud pull request 46)
    (
        "[Fri Aug 30 11:43:09 2024] NVRM: Xid (PCI:0000:cb:00): 13, pid='<unknown>', name=<unknown>, Graphics SM Warp Exception on (GPC 7, TPC 7, SM 0): Illegal Instruction Parameter",
        utc(2024, 8, 30, 11, 43, 9),
        "dmesg_T",
    ),
    # 06-nvidia-smi-xid.md §5 (leptonai/gpud dmesg-with-xid-119.log)
    (
        "[Sun Feb 23 16:24:18 2025] NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, name=nvidia-smi, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected function 103 (GSP_RM_ALLOC) (0x2081 0x4).",
        utc(2025, 2, 23, 16, 24, 18),
        "dmesg_T",
    ),
    # 06-nvidia-smi-xid.md §5 (leptonai/gpud dmesg.decode.iso.log)
    (
        "kern  :warn  : 2025-01-21T04:41:44,283302+00:00 NVRM: Xid (PCI:0000:38:00): 13, pid='<unknown>', name=<unknown>, Graphics SM Global Exception on (GPC 8, TPC 5, SM 1): Multiple Warp Errors",
        utc(2025, 1, 21, 4, 41, 44, 283302),
        "dmesg_iso",
    ),
    # 06-nvidia-smi-xid.md §1 (rossumai/nvgpu pull request 15): table header line
    ("Wed Jul 29 21:51:11 2020", utc(2020, 7, 29, 21, 51, 11), "ctime"),
    # 06-nvidia-smi-xid.md §2 (Project-HAMi/HAMi issue 347): space-padded day
    (
        "Timestamp                                 : Thu Jun  6 08:39:56 2024",
        utc(2024, 6, 6, 8, 39, 56),
        "nvsmi",
    ),
    # 06-nvidia-smi-xid.md §3: CSV row with the (unverified) timestamp fixture as first field
    ("2026/05/28 10:00:00.000, 0, 56, 26 %, 4 %", utc(2026, 5, 28, 10), "nvsmi_csv"),
    # 08-wrappers.md §1 (banyan-team/banyan-julia issue 6)
    (
        "slurmstepd: error: *** JOB 3737 ON compute-dy-t3large-2 CANCELLED AT 2021-08-03T16:28:28 ***",
        utc(2021, 8, 3, 16, 28, 28),
        "slurm",
    ),
    # 08-wrappers.md §1 (ZettaAI/zetta_utils issue 671), "..." is the reporter's redaction
    (
        "slurmstepd: error: *** STEP 494583.0 ON ... CANCELLED AT 2024-04-20T09:09:37 DUE TO TIME LIMIT ***",
        utc(2024, 4, 20, 9, 9, 37),
        "slurm",
    ),
    # 08-wrappers.md §1 (lyulyul/shine-cluster issue 4): "slurmstepd-<host>:"
    (
        "slurmstepd-localhost: error: *** STEP 204.0 ON localhost CANCELLED AT 2021-02-13T16:38:01 ***",
        utc(2021, 2, 13, 16, 38, 1),
        "slurm",
    ),
    # 08-wrappers.md §1 (code index): old slurmd "KILLED AT"
    (
        "slurmd[borg01x153]: *** STEP 2332583.4 KILLED AT 2014-08-29T07:16:20 WITH",
        utc(2014, 8, 29, 7, 16, 20),
        "slurm",
    ),
    # 03-torchrun-elastic.md §2 (pytorch/pytorch issue 121209)
    ("  time      : 2024-03-05_07:01:51", utc(2024, 3, 5, 7, 1, 51), "torchrun_table"),
    # 03-torchrun-elastic.md §2 pre-1.10 layout (pytorch/pytorch pull request 65041)
    ("  time: 2021-09-14_22:01:06", utc(2021, 9, 14, 22, 1, 6), "torchrun_table"),
    # torchtitan's logger (pytorch/torchtitan issue 950): the app's own tag, then asctime
    (
        "[titan] 2025-03-12 11:10:21,603 - root - WARNING - Dataset c4_test is being re-looped",
        utc(2025, 3, 12, 11, 10, 21, 603000),
        "tagged",
    ),
    # PaddlePaddle's launcher, its newer and older record (PaddleSpeech and PaddlePaddle issues)
    ("LAUNCH ERROR 2022-11-09 10:11:32,058 Container failed !!!", utc(2022, 11, 9, 10, 11, 32, 58000), "tagged"),
    (
        "ERROR 2021-05-24 17:17:14,611 launch_utils.py:545] ABORT!!! Out of all 4 trainers, the trainer process "
        "with rank=[3] was aborted. Please check its log.",
        utc(2021, 5, 24, 17, 17, 14, 611000),
        "tagged",
    ),
    # a bracketed stamp holding the record's level (a PaddleSpeech trainer's logger)
    (
        "[2022-11-09 09:52:48.575314 INFO   ] trainer:__train_epoch:280 - Train epoch: [1/100]",
        utc(2022, 11, 9, 9, 52, 48, 575314),
        "nccl",
    ),
    # AWS Neuron's runtime: the month by name between year and day (aws-neuron/neuronx-nemo-megatron)
    (
        "2024-Jan-11 19:01:15.502423 18506:21252 ERROR   ENC:ncclNetRegMr                            failed",
        utc(2024, 1, 11, 19, 1, 15, 502423),
        "ymond",
    ),
    # runit's svlogd -tt (captured here, sample_logs/captures25): UTC, "_" between date and time
    (
        "2026-12-07_01:39:26.97049 taskset: failed to set pid 11127's affinity: Invalid argument",
        utc(2026, 12, 7, 1, 39, 26, 970490),
        "svlogd",
    ),
    # shape per 04-deepspeed.md §1 ("Python default asctime") at line start
    (
        "2023-03-03 02:22:03,491 - INFO - __main__ - Creating fp16 ZeRO stage 3 optimizer",
        utc(2023, 3, 3, 2, 22, 3, 491000),
        "python_logging",
    ),
    (
        "2024-05-01 12:00:00,123 INFO root: hello",
        utc(2024, 5, 1, 12, 0, 0, 123000),
        "python_logging",
    ),
    # shape per 08-wrappers.md §4: kubectl RFC 3339 "YYYY-MM-DDTHH:MM:SS(.frac)?(Z|±hh:mm) "
    (
        "2024-05-01T12:00:00.123456789Z [rank0]: hello",
        utc(2024, 5, 1, 12, 0, 0, 123456),
        "iso8601",
    ),
    ("2024-05-01T12:00:00Z hello", utc(2024, 5, 1, 12), "iso8601"),
    # the bare stamp, as demux hands over a kubectl wrapper stamp; Go's
    # RFC3339Nano trims trailing zeros of the fraction
    ("2024-05-01T12:00:00.12345Z", utc(2024, 5, 1, 12, 0, 0, 123450), "iso8601"),
    ("2024-05-01T12:00:00+02:00 hello", utc(2024, 5, 1, 10), "iso8601"),
    ("2024-05-01T12:00:00.5-0700 hello", utc(2024, 5, 1, 19, 0, 0, 500000), "iso8601"),
    ("2024-05-01 12:00:00.123456 hello", utc(2024, 5, 1, 12, 0, 0, 123456), "iso8601"),
    ("2024-05-01 12:00:00 hello", utc(2024, 5, 1, 12), "iso8601"),
]

# Lines that carry no wall-clock stamp (and no boot time).
UNSTAMPED: list[str] = [
    # 01-nccl.md §2 (NVIDIA/nccl issue 983): INFO lines and the bare version line
    "4c217144f0b1:113168:113168 [0] NCCL INFO Bootstrap : Using eth0:10.0.1.9<0>",
    "NCCL version 2.13.4+cuda11.7",
    # 01-nccl.md §3 (NVIDIA/nccl-tests issue 252)
    "kolyoz2:25146:25827 [0] NCCL INFO ncclCommInitRank comm 0x559d5aa8ca00 rank 4 nranks 8 cudaDev 0 nvmlDev 0 busId 42000 commId 0x996ee6f117cb8e1e - Init START",
    # 01-nccl.md §4 (NVIDIA/nccl issue 1684): host name made of digits and dashes
    "172-27-101-52:959:959 [0] transport/p2p.cc:944 NCCL WARN rank 0 failed to IPC register userbuff 0x7f3f56000000 buffSize 37748736 nPeers 2 isLegacyIpc 0x7ffe49900be0",
    # 01-nccl.md §5 (NVIDIA/nccl issue 1672): a fragment of a split line
    "CCL INFO Channel 08/0 : 0[0] -> 1[1] via P2P/IPC",
    # 02-pytorch-c10d.md §3 1.x (OFA-Sys/OFA issue 271): old c10 prefix without a stamp
    "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802212 milliseconds before timing out.",
    # 02-pytorch-c10d.md §5 (ofsoundof/GRL-Image-Restoration issue 27), "trainer/0 [1]:" removed
    "[W socket.cpp:558] [c10d] The client socket has failed to connect to [::ffff:0.0.0.5]:40323 (errno: 110 - Connection timed out).",
    # 02-pytorch-c10d.md §3 (pytorch/pytorch issue 118369): progress bar with "6:28:43"
    "Epoch 0:   6%|██                               | 32040/500150 [6:28:43<94:39:17,  1.37it/s, loss=2.6, v_num=95nc, reduced_train_loss=2.590, global_step=3.2e+4, consumed_samples=2.56e+7][E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=96120, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25624887 milliseconds before timing out.",
    # 02-pytorch-c10d.md §3: libstdc++ lines have no prefix at all
    "terminate called after throwing an instance of 'c10::DistBackendError'",
    # 03-torchrun-elastic.md §1 <= 2.0 agent format, no time
    "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 812914 closing signal SIGTERM",
    # 03-torchrun-elastic.md §2 table lines next to "time"
    "  host      : vmnuvocinpoc.internal.cloudapp.net",
    "  exitcode  : 1 (pid: 69814)",
    # 03-torchrun-elastic.md §3 (rwth-i6/i6_core pull request 658), "[default0]:" removed
    "ep 55 train, step 1347, ce 0.324, ctc_4 1.006, ctc_10 0.776, ctc_16 0.677, grad_norm:p2 3.388, num_seqs 27, max_size:time 291200, max_size:aug_spatial 128, mem_usage:cuda:0 67.8GB, 0.855 sec/step, elapsed 0:16:59, exp. remaining 0:03:45, complete 81.92%",
    # 04-deepspeed.md §1 (deepspeedai/DeepSpeed issue 5479): op-builder warning
    " [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.",
    # 04-deepspeed.md §1 (deepspeedai/DeepSpeed issue 852)
    "Checking ZeRO support for optimizer=DeepSpeedCPUAdam type=<class 'deepspeed.ops.adam.cpu_adam.DeepSpeedCPUAdam'>",
    # 04-deepspeed.md §5 (deepspeedai/DeepSpeed pull request 854)
    "Killing subprocess 3232868",
    # 05-accelerate-hf.md §2 (hiyouga/LlamaFactory issue 163), "stderr: " removed
    '  File "/home/panww/miniconda3/tools/lib/python3.9/site-packages/accelerate/commands/launch.py", line 646, in multi_gpu_launcher',
    # 05-accelerate-hf.md §2 AcceleratorState continuation line
    "Num processes: 2",
    # 05-accelerate-hf.md §4 default-handler line
    "INFO:__main__:*** Evaluate ***",
    # 06-nvidia-smi-xid.md §1 table body
    "| 23%   39C    P8     9W / 250W |      7MiB / 12196MiB |      0%      Default |",
    # 06-nvidia-smi-xid.md §3 CSV rows without a timestamp field
    "0, 56, 26 %, 4 %, 34 %, P3, 83.92 W, 1320 MHz, 5001 MHz, 1320 MHz",
    "GeForce GTX 1080 Ti, 29 %, 11175 MiB, 2856 MiB, 36 %, 60, 106.56 W, 1936 MHz, 5508 MHz",
    # 06-nvidia-smi-xid.md §4 dmon row
    "    0   111    83    25     7     0     0  4513  1683     0     0 11651     2     -     -     0    41     8",
    # 06-nvidia-smi-xid.md §5: continuation of a multi-line NVRM message
    "               NVRM: (PCI ID: 10de:26b5) installed in this system has",
    # 08-wrappers.md §1
    "srun: error: ault44: task 3: Exited with exit code 1",
    "srun: Job step aborted: Waiting up to 47 seconds for job step to finish.",
    # 08-wrappers.md §2 (huggingface/accelerate issue 1317): rich traceback behind pdsh
    "│ /home/setup/.local/lib/python3.8/site-packages/accelerate/utils/other.py:81  │",
    # the brief's look-alikes: numbers in messages, IPs, versions, progress bars
    "45%|████ | 9/20 [00:01<00:02, 5.0it/s]",
    "step 12:00",
    "loss 0.5 at 12:00:01",
    "12:00:01 loss 0.5",
    "10.0.1.9 12:00:01",
    "1.2.3",
    "2024-05-01 is the date",
    "2024-05-01",
    "05/01/2024",
    "Traceback (most recent call last):",
    "May I ask why 12:00 failed?",
    "Wed is the day",
    "  time to first token: 12:00:01",
    "",
]

# Raw dmesg: (line, seconds since boot).
BOOT: list[tuple[str, float]] = [
    # 06-nvidia-smi-xid.md §5 (madMAx43v3r/chia-gigahorse issue 301)
    (
        "[14328.198496] NVRM: GPU at PCI:0000:0a:00: GPU-760d0170-b7c5-6817-9414-6cc7112645de",
        14328.198496,
    ),
    # 06-nvidia-smi-xid.md §5 (NVIDIA/NVSentinel issue 155): space-padded
    ("[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0", 1843.308145),
    # 06-nvidia-smi-xid.md §5 (leptonai/gpud test inputs)
    (
        "[171167.620236] NVRM: Xid (PCI:0009:01:00): 149, NETIR_LINK_EVT  Fatal   XC0 i0 Link 01 (0x021425c6 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000)",
        171167.620236,
    ),
]


# ---------------------------------------------------------------------------
# per format


@pytest.mark.parametrize(("line", "expected", "fmt"), STAMPED, ids=[c[2] for c in STAMPED])
def test_stamped_line(line: str, expected: dt.datetime, fmt: str) -> None:
    row = one(line, default_year=2024)
    assert row["ts"] == expected
    assert row["ts_format"] == fmt
    assert row["boot_s"] is None
    assert row["ts_needs_year"] is (fmt in YEARLESS_FORMATS)


@pytest.mark.parametrize("line", UNSTAMPED)
def test_unstamped_line_gives_nulls(line: str) -> None:
    row = one(line, default_year=2024)
    assert row == {"ts": None, "ts_format": None, "boot_s": None, "ts_needs_year": False}


@pytest.mark.parametrize(("line", "seconds"), BOOT)
def test_raw_dmesg_gives_boot_seconds_not_wall_clock(line: str, seconds: float) -> None:
    row = one(line)
    assert row["ts"] is None
    assert row["boot_s"] == pytest.approx(seconds, abs=1e-9)
    assert row["ts_format"] == "dmesg_raw"
    assert row["ts_needs_year"] is False


def test_dmesg_decode_prefix_before_raw_and_ctime_stamps() -> None:
    # shape per 06-nvidia-smi-xid.md §5: the "kern  :warn  : " prefix of the
    # dmesg_iso sample in front of the raw and -T stamps of the same section.
    out = parse(
        [
            "kern  :warn  : [14328.198504] NVRM: Xid (PCI:0000:0a:00): 31, pid=13332",
            "kern  :err   : [Fri Aug 30 11:43:14 2024] NVRM: Xid (PCI:0000:cb:00): 109",
        ]
    )
    assert out["boot_s"].to_list() == [pytest.approx(14328.198504), None]
    assert out["ts"].to_list() == [None, utc(2024, 8, 30, 11, 43, 14)]
    assert out["ts_format"].to_list() == ["dmesg_raw", "dmesg_T"]


def test_every_format_name_is_exercised_and_documented() -> None:
    seen = {fmt for _, _, fmt in STAMPED} | {"dmesg_raw"}
    assert seen == set(FORMATS)
    assert set(FORMATS) >= YEARLESS_FORMATS


def test_c10_nanoseconds_are_truncated_not_rounded() -> None:
    # 02-pytorch-c10d.md §3 (huggingface/diffusers issue 12422), with the
    # nanoseconds changed from 662691402 to 662691999 so that rounding would show
    row = one(
        "[E1002 18:16:40.662691999 ProcessGroupNCCL.cpp:756] [Rank 1] Work WorkNCCL(SeqNum=2521) timed out in blocking wait.",
        default_year=2024,
    )
    assert row["ts"] == utc(2024, 10, 2, 18, 16, 40, 662691)


def test_torch_logging_critical_level_letter() -> None:
    # torch._logging maps CRITICAL to "C" (03-torchrun-elastic.md §1 format
    # string; the mapping itself is in torch/_logging/_internal.py).
    row = one(
        "C0801 13:23:17.366000 32974 torch/distributed/elastic/multiprocessing/api.py:900] boom",
        default_year=2024,
    )
    assert row["ts_format"] == "torch_logging"
    assert row["ts"] == utc(2024, 8, 1, 13, 23, 17, 366000)


def test_glog_thread_id_padded_to_five() -> None:
    # glog pads the thread id with setw(5): shape per 02-pytorch-c10d.md §1.
    row = one("I1002 15:18:48.539551   182 ProcessGroupNCCL.cpp:528] started", default_year=2024)
    assert (row["ts_format"], row["ts"]) == ("glog", utc(2024, 10, 2, 15, 18, 48, 539551))


@pytest.mark.parametrize(
    "line",
    [
        # one digit too many for a fixed-width format (ISO forms take any
        # fraction length, see test_iso_fraction_of_any_length)
        "E0927 12:07:22.6437021 1012209 ProcessGroupNCCL.cpp:1356] x",
        "[INFO|trainer.py:1145] 2021-05-20 20:16:39,0371 >> x",
        "03/13/2023 10:48:189 - INFO - x",
        # impossible dates and times
        "[2023-02-30 02:22:03,491] [INFO] x",
        "[2023-13-03 02:22:03,491] [INFO] x",
        "[E1306 18:44:12.715298746 ProcessGroupNCCL.cpp:607] x",
        "13/13/2023 10:48:18 - INFO - x",
        "2024-05-01 25:00:00,000 - INFO - x",
        # a level letter glog never prints
        "X0927 12:07:22.643702 1012209 ProcessGroupNCCL.cpp:1356] x",
        # trainer leader without the level
        "[trainer.py:1145] 2021-05-20 20:16:39,037 >> x",
    ],
)
def test_near_misses_are_rejected(line: str) -> None:
    row = one(line, default_year=2023)
    assert row["ts"] is None
    assert row["ts_format"] is None


@pytest.mark.parametrize(
    ("line", "fmt", "micros"),
    [
        # The fixed-width fast paths reject these; the general ISO parser reads them.
        ("2024-05-01 12:00:00,123456 - INFO - x", "iso8601", 123456),
        ("2024-05-01 12:00:00,1234 - INFO - x", "iso8601", 123400),
        ("2024-05-01T12:00:00,5 x", "iso8601", 500000),
        ("[2023-03-03 02:22:03,4910] [INFO] x", "nccl", 491000),
        ("[2023-03-03 02:22:03.491] x", "nccl", 491000),
    ],
)
def test_iso_fraction_of_any_length(line: str, fmt: str, micros: int) -> None:
    row = one(line)
    assert row["ts_format"] == fmt
    assert row["ts"].microsecond == micros


# ---------------------------------------------------------------------------
# time zones


def test_naive_stamps_use_tz_across_dst() -> None:
    # 04-deepspeed.md §5: 8 Jan (EST, UTC-5) and 20 Mar 2024 (EDT, UTC-4;
    # DST began 10 Mar) in one call.
    out = parse(
        [
            "[2024-01-08 16:13:56,462] [INFO] [multinode_runner.py:80:get_cmd] Running on the following workers: 192.168.3.100,192.168.3.101",
            "[2024-03-20 20:31:29,210] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 3353707",
        ],
        tz="America/New_York",
    )
    assert out["ts"].to_list() == [
        utc(2024, 1, 8, 21, 13, 56, 462000),
        utc(2024, 3, 21, 0, 31, 29, 210000),
    ]


@pytest.mark.parametrize(
    ("line", "tz", "expected"),
    [
        # 05-accelerate-hf.md §2 in Berlin (CET, UTC+1)
        (
            "03/13/2023 10:48:18 - INFO - __main__ - Distributed environment: MULTI_GPU  Backend: nccl",
            "Europe/Berlin",
            utc(2023, 3, 13, 9, 48, 18),
        ),
        # 03-torchrun-elastic.md §2 in Los Angeles (PDT, UTC-7)
        ("  time      : 2025-03-11_18:33:20", "America/Los_Angeles", utc(2025, 3, 12, 1, 33, 20)),
        # 08-wrappers.md §1 slurmstepd's zone-less time, Berlin summer (CEST, UTC+2)
        (
            "slurmstepd: error: *** JOB 3737 ON compute-dy-t3large-2 CANCELLED AT 2021-08-03T16:28:28 ***",
            "Europe/Berlin",
            utc(2021, 8, 3, 14, 28, 28),
        ),
        # 06-nvidia-smi-xid.md §1 ctime header in New York (EDT)
        ("Wed Jul 29 21:51:11 2020", "America/New_York", utc(2020, 7, 30, 1, 51, 11)),
    ],
)
def test_naive_formats_convert_from_tz(line: str, tz: str, expected: dt.datetime) -> None:
    assert one(line, tz=tz)["ts"] == expected


def test_explicit_zone_ignores_tz() -> None:
    lines = [
        # 06-nvidia-smi-xid.md §5 dmesg --decode iso, "+00:00"
        "kern  :warn  : 2025-01-21T04:41:44,287197+00:00 NVRM: Xid (PCI:0000:38:00): 43, pid=2924364, name=pt_main_thread, Ch 00000008",
        # shape per 08-wrappers.md §4 (RFC 3339)
        "2024-05-01T12:00:00Z hello",
        "2024-05-01T12:00:00+02:00 hello",
        "2024-05-01T12:00:00+0200 hello",
    ]
    expected = [
        utc(2025, 1, 21, 4, 41, 44, 287197),
        utc(2024, 5, 1, 12),
        utc(2024, 5, 1, 10),
        utc(2024, 5, 1, 10),
    ]
    for tz in ("UTC", "America/New_York", "Asia/Kolkata"):
        assert parse(lines, tz=tz)["ts"].to_list() == expected


def test_dst_gap_uses_offset_before_the_change() -> None:
    # 02:30 does not exist in New York on 2024-03-10; read as EST like
    # Python's fold=0 (shape per 04-deepspeed.md §1).
    row = one("[2024-03-10 02:30:00,000] [INFO] [x.py:1:f] y", tz="America/New_York")
    assert row["ts"] == utc(2024, 3, 10, 7, 30)
    fold0 = dt.datetime(2024, 3, 10, 2, 30, tzinfo=zoneinfo.ZoneInfo("America/New_York"))
    assert row["ts"] == fold0.astimezone(UTC)


def test_dst_repeated_hour_takes_the_earlier_instant() -> None:
    # 01:30 happens twice in New York on 2024-11-03: first in EDT (UTC-4).
    row = one("[2024-11-03 01:30:00,000] [INFO] [x.py:1:f] y", tz="America/New_York")
    assert row["ts"] == utc(2024, 11, 3, 5, 30)


def test_unknown_tz_is_rejected() -> None:
    with pytest.raises(ValueError, match="time zone"):
        parse(["2024-05-01 12:00:00,123 - INFO - x"], tz="Mars/Olympus_Mons")


# ---------------------------------------------------------------------------
# year-less formats


YEARLESS_SAMPLES = [
    # 02-pytorch-c10d.md §3 (hiyouga/LlamaFactory issue 6269)
    (
        "[E1206 18:44:16.994932383 ProcessGroupNCCL.cpp:1709] [PG 1 Rank 0] Timeout at NCCL work: 7753",
        (12, 6, 18, 44, 16, 994932),
    ),
    # 02-pytorch-c10d.md §1 (pytorch/pytorch pull request 137523)
    (
        "E0927 12:07:22.643702 1012209 ProcessGroupNCCL.cpp:1356] [PG ID 0 PG GUID 0(default_pg) Rank 0] x",
        (9, 27, 12, 7, 22, 643702),
    ),
    # 03-torchrun-elastic.md §1 (OEvortex/unsloth issue 10)
    (
        "E0801 13:23:20.000000 32974 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 3 (pid: 33054) of binary: /home/ubuntu/pythonn3.11/bin/python3",
        (8, 1, 13, 23, 20, 0),
    ),
    # 06-nvidia-smi-xid.md §5 (doitsujin/dxvk issue 1799)
    (
        "Nov 29 11:28:11 zeus kernel: NVRM: Xid (PCI:0000:c1:00): 31, pid=12890",
        (11, 29, 11, 28, 11, 0),
    ),
    # 08-wrappers.md §4 (NVIDIA/nccl issue 1591)
    ("INFO 01-29 07:44:20 selector.py:120] Using Flash Attention backend.", (1, 29, 7, 44, 20, 0)),
]


@pytest.mark.parametrize("year", [2019, 2031])
def test_yearless_formats_take_default_year(year: int) -> None:
    out = parse([line for line, _ in YEARLESS_SAMPLES], default_year=year)
    assert out["ts"].to_list() == [utc(year, *parts) for _, parts in YEARLESS_SAMPLES]
    assert out["ts_needs_year"].to_list() == [True] * len(YEARLESS_SAMPLES)


def test_yearless_default_is_the_current_year() -> None:
    before = dt.datetime.now(UTC).year
    row = one("Nov 29 11:28:11 zeus kernel: NVRM: Xid (PCI:0000:c1:00): 31")
    after = dt.datetime.now(UTC).year
    assert row["ts"].year in {before, after}
    assert row["ts_needs_year"] is True


def test_yearless_stamp_converted_from_tz() -> None:
    # c10 prints local time: 18:44 PST on 6 Dec is 02:44 UTC on 7 Dec.
    row = one(
        "[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout",
        tz="America/Los_Angeles",
        default_year=2024,
    )
    assert row["ts"] == utc(2024, 12, 7, 2, 44, 12, 715298)


def test_leap_day_needs_a_leap_default_year() -> None:
    line = "E0229 12:00:00.000000 1 ProcessGroupNCCL.cpp:1] x"  # shape per 02 §1
    assert one(line, default_year=2024)["ts"] == utc(2024, 2, 29, 12)
    assert one(line, default_year=2023)["ts"] is None


def test_dated_formats_ignore_default_year() -> None:
    row = one("[2023-03-03 02:22:03,491] [INFO] [logging.py:68:log_dist] x", default_year=1999)
    assert row["ts"] == utc(2023, 3, 3, 2, 22, 3, 491000)
    assert row["ts_needs_year"] is False


def test_default_year_out_of_range_is_rejected() -> None:
    with pytest.raises(ValueError, match="default_year"):
        parse(["x"], default_year=0)


# ---------------------------------------------------------------------------
# whole columns


def test_mixed_column_in_one_call_keeps_row_order() -> None:
    rows: list[tuple[str, dt.datetime | None, str | None, float | None]] = [
        (line, ts, fmt, None) for line, ts, fmt in STAMPED
    ]
    rows += [(line, None, None, None) for line in UNSTAMPED]
    rows += [(line, None, "dmesg_raw", secs) for line, secs in BOOT]
    rows = rows * 3
    random.Random(1234).shuffle(rows)
    out = parse([r[0] for r in rows], default_year=2024)
    assert out.height == len(rows)
    assert out["ts"].to_list() == [r[1] for r in rows]
    assert out["ts_format"].cast(pl.String).to_list() == [r[2] for r in rows]
    assert out["boot_s"].to_list() == [r[3] for r in rows]
    assert out["ts_needs_year"].to_list() == [r[2] in YEARLESS_FORMATS for r in rows]


def test_output_schema() -> None:
    out = parse(["[2023-03-03 02:22:03,491] [INFO] x", "plain"])
    assert out.schema == pl.Schema(
        {
            "ts": pl.Datetime("us", "UTC"),
            "ts_format": pl.Categorical(),
            "boot_s": pl.Float64(),
            "ts_needs_year": pl.Boolean(),
        }
    )


@pytest.mark.parametrize(
    "lines",
    [
        pl.Series("line", [], dtype=pl.String),
        pl.Series("line", [None, None], dtype=pl.String),
        pl.Series("line", [None, None]),  # dtype Null
        pl.Series("line", ["no stamp here", "nor here"]),
    ],
    ids=["empty", "nulls", "null-dtype", "no-stamps"],
)
def test_columns_without_stamps(lines: pl.Series) -> None:
    out = parse_timestamps(lines)
    assert out.height == len(lines)
    assert out.columns == ["ts", "ts_format", "boot_s", "ts_needs_year"]
    assert out["ts"].dtype == pl.Datetime("us", "UTC")
    assert out["ts_format"].dtype == pl.Categorical
    assert out["ts"].null_count() == len(lines)
    assert out["ts_needs_year"].to_list() == [False] * len(lines)


def test_categorical_input_is_accepted() -> None:
    lines = pl.Series(["Wed Jul 29 21:51:11 2020", "x"], dtype=pl.Categorical)
    assert parse_timestamps(lines)["ts"].to_list() == [utc(2020, 7, 29, 21, 51, 11), None]


# ---------------------------------------------------------------------------
# properties

_STAMP_ALPHABET = st.sampled_from(
    [*"0123456789:-/.,[]| TZ+_EIWFVCabc*", "Nov", "Wed", "INFO", "  time"]
)
_lines = st.one_of(
    st.text(max_size=60),
    st.lists(_STAMP_ALPHABET, max_size=30).map("".join),
    st.sampled_from([line for line, _, _ in STAMPED] + UNSTAMPED + [line for line, _ in BOOT]),
    # a real stamp with random damage after its first bytes
    st.tuples(
        st.sampled_from([line for line, _, _ in STAMPED]), st.integers(0, 40), st.text(max_size=8)
    ).map(lambda t: t[0][: t[1]] + t[2]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.one_of(st.none(), _lines), max_size=25), year=st.integers(1, 9999))
def test_random_text_never_raises_and_keeps_length(lines: list[str | None], year: int) -> None:
    out = parse(lines, default_year=year, tz="Europe/Berlin")
    assert out.height == len(lines)
    fmt = out["ts_format"].cast(pl.String)
    # a format is named exactly where something was read
    assert (fmt.is_not_null() == (out["ts"].is_not_null() | out["boot_s"].is_not_null())).all()
    # boot time only for raw dmesg, and never together with a wall clock
    assert (out["boot_s"].is_null() | (fmt == "dmesg_raw")).all()
    assert (out["boot_s"].is_null() | out["ts"].is_null()).all()
    assert fmt.drop_nulls().is_in(list(FORMATS)).all()
    assert (out["ts_needs_year"] == fmt.is_in(list(YEARLESS_FORMATS)).fill_null(False)).all()


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(_lines, min_size=1, max_size=8))
def test_batch_equals_line_by_line(lines: list[str]) -> None:
    batch = parse(lines, default_year=2024).rows()
    single = [parse([line], default_year=2024).row(0) for line in lines]
    assert batch == single


# Python asctime and its near misses: real and impossible dates, then what may
# follow the milliseconds (another digit, a zone, a separator)
_asctime_like = st.tuples(
    st.one_of(
        st.datetimes(min_value=dt.datetime(1000, 1, 1)).map(lambda t: t.strftime("%Y-%m-%d %H:%M:%S,")
                                                            + f"{t.microsecond // 1000:03d}"),
        st.lists(st.sampled_from("0123456789"), min_size=17, max_size=17).map(
            lambda d: "{}{}{}{}-{}{}-{}{} {}{}:{}{}:{}{},{}{}{}".format(*d)),
    ),
    st.text(alphabet="0123456789+-Zz ,.x", max_size=4),
).map("".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.one_of(st.none(), _lines, _asctime_like), max_size=25),
       tz=st.sampled_from(["UTC", "Europe/Berlin", "America/New_York"]))
def test_shapes_only_skip_lines_that_have_no_stamp(lines: list[str | None], tz: str) -> None:
    # Given the lines' digit shapes, only the lines of shapes that may carry a stamp
    # are read, and asctime's by a path of their own: the answer must be the same as
    # reading every line the usual way, in every column.
    series = pl.Series("line", lines, dtype=pl.String)
    timestamps._HEAD_MEMO.clear()
    for _ in range(2):  # a fresh memo of shape heads, then the one just filled
        shaped = parse_timestamps(series, default_year=2024, tz=tz, shapes=digit_shapes(series))
        assert shaped.equals(parse(lines, default_year=2024, tz=tz))


def test_shapes_skip_the_lines_of_stampless_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = pl.Series("line", [
        "gpu-node-00:44247:44329 [1] NCCL INFO Connected all rings",  # no stamp: never parsed
        "2024-06-03 06:48:40,938 - INFO - __main__ - step 3",  # asctime: read by shape
        "Traceback (most recent call last):",
        "[2024-06-03 06:48:41,007] [INFO] [engine.py:1:f] step 4",  # DeepSpeed: its family's parser
        "2024-02-30 06:48:41,007 - INFO - __main__ - no such day",  # asctime layout, not a date
        "2024-06-03 06:48:41,007123 - INFO - x",  # a longer fraction: not asctime's layout
    ])
    seen: list[str] = []

    def spy(family: Any) -> Any:
        def parse_family(d: pl.DataFrame, ctx: Any) -> list[pl.DataFrame]:
            seen.extend(d.get_column("line").to_list())
            return family(d, ctx)
        return parse_family

    for name in ("_bracket", "_digit", "_upper", "_lower", "_space"):
        monkeypatch.setattr(timestamps, name, spy(getattr(timestamps, name)))
    out = parse_timestamps(lines, default_year=2024, shapes=digit_shapes(lines))
    assert sorted(seen) == sorted([lines[3], lines[4], lines[5]])
    assert out["ts"].to_list() == [
        None, utc(2024, 6, 3, 6, 48, 40, 938000), None, utc(2024, 6, 3, 6, 48, 41, 7000), None,
        utc(2024, 6, 3, 6, 48, 41, 7123),
    ]
    assert out["ts_format"].cast(pl.String).to_list() == [
        None, "python_logging", None, "deepspeed", None, "iso8601"]
    assert out.equals(parse(lines.to_list(), default_year=2024))


_MON = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_DAY = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _ctime(t: dt.datetime) -> str:
    return f"{_DAY[t.weekday()]} {_MON[t.month - 1]} {t.day:2d} {t:%H:%M:%S %Y}"


def _ms(t: dt.datetime) -> dt.datetime:
    return t.replace(microsecond=t.microsecond // 1000 * 1000)


def _s(t: dt.datetime) -> dt.datetime:
    return t.replace(microsecond=0)


def _naive(t: dt.datetime) -> dt.datetime:
    return t


def _10us(t: dt.datetime) -> dt.datetime:
    return t.replace(microsecond=t.microsecond // 10 * 10)


def _go_nano(t: dt.datetime, ns: int) -> str:
    frac = f"{t.microsecond:06d}{ns:03d}".rstrip("0")
    return t.strftime("%Y-%m-%dT%H:%M:%S") + (f".{frac}" if frac else "") + "Z"


# name -> (render a naive local instant t with extra random digits x, what the
# parser keeps of t, whether the stamp carries its own zone). Shapes as in the
# per-format cases above.
ROUND_TRIP = {
    "python_logging": (
        lambda t, x: f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} - INFO - m",
        _ms,
        False,
    ),
    "deepspeed": (
        lambda t, x: f"[{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d}] [INFO] [a.py:1:f] m",
        _ms,
        False,
    ),
    "nccl": (lambda t, x: f"[{t:%Y-%m-%d %H:%M:%S}] h:1:2 [0] a.cc:3 NCCL WARN m", _s, False),
    "nccl_ns": (
        lambda t, x: f"[{t:%Y-%m-%d %H:%M:%S}.{t.microsecond:06d}{x:03d}] h:1:2 [0] NCCL WARN m",
        _naive,
        False,
    ),
    "trainer": (
        lambda t, x: (
            f"[WARNING|trainer.py:{x}] {t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} >> m"
        ),
        _ms,
        False,
    ),
    "hf_us": (lambda t, x: f"{t:%m/%d/%Y %H:%M:%S} - INFO - __main__ - m", _s, False),
    "c10_glog": (
        lambda t, x: (
            f"[W{t.month * 100 + t.day} {t:%H:%M:%S}.{t.microsecond:06d}{x:03d} TCPStore.cpp:125] m"
        ),
        _naive,
        False,
    ),
    "glog": (
        lambda t, x: f"E{t:%m%d %H:%M:%S}.{t.microsecond:06d} {x:5d} ProcessGroupNCCL.cpp:1] m",
        _naive,
        False,
    ),
    "torch_logging": (
        lambda t, x: f"I{t:%m%d %H:%M:%S}.{t.microsecond // 1000:03d}000 {x} torch/a/api.py:9] m",
        _ms,
        False,
    ),
    "syslog": (
        lambda t, x: f"{_MON[t.month - 1]} {t.day:2d} {t:%H:%M:%S} zeus kernel: m",
        _s,
        False,
    ),
    "vllm": (lambda t, x: f"WARNING {t:%m-%d %H:%M:%S} a.py:1] m", _s, False),
    "ctime": (lambda t, x: _ctime(t), _s, False),
    "dmesg_T": (lambda t, x: f"[{_ctime(t)}] NVRM: m", _s, False),
    "nvsmi": (lambda t, x: f"Timestamp                                 : {_ctime(t)}", _s, False),
    "nvsmi_csv": (
        lambda t, x: f"{t:%Y/%m/%d %H:%M:%S}.{t.microsecond // 1000:03d}, 0, 56",
        _ms,
        False,
    ),
    "slurm": (
        lambda t, x: (
            f"slurmstepd: error: *** STEP {x}.0 ON n1 CANCELLED AT {t:%Y-%m-%dT%H:%M:%S} ***"
        ),
        _s,
        False,
    ),
    "torchrun_table": (lambda t, x: f"  time      : {t:%Y-%m-%d_%H:%M:%S}", _s, False),
    "tagged": (lambda t, x: f"[app{x % 100}] {t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} - root - INFO - m",
               _ms, False),
    "ymond": (lambda t, x: f"{t:%Y}-{_MON[t.month - 1]}-{t:%d %H:%M:%S}.{t.microsecond:06d} {x}:{x} ERROR m",
              _naive, False),
    "mdy_comma": (
        lambda t, x: f"{_MON[t.month - 1]} {t.day}, {t.year}, {t:%H:%M:%S}: m",
        _s,
        False,
    ),
    "iso8601": (lambda t, x: _go_nano(t, x), _naive, True),
    "svlogd": (lambda t, x: f"{t:%Y-%m-%d_%H:%M:%S}.{t.microsecond // 10:05d} m", _10us, True),
    "dmesg_iso": (
        lambda t, x: f"kern  :warn  : {t:%Y-%m-%dT%H:%M:%S},{t.microsecond:06d}+00:00 NVRM: m",
        _naive,
        True,
    ),
}


@settings(max_examples=400, deadline=None)
@given(
    name=st.sampled_from(sorted(ROUND_TRIP)),
    t=st.datetimes(min_value=dt.datetime(1971, 1, 1), max_value=dt.datetime(2037, 12, 31)),
    x=st.integers(0, 999),
    tz=st.sampled_from(["UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe"]),
)
def test_round_trip_against_python(name: str, t: dt.datetime, x: int, tz: str) -> None:
    """Any instant printed in a format reads back as Python would interpret it:
    naive stamps in ``tz`` with fold=0 (DST gaps and repeats included)."""
    render, kept, zoned = ROUND_TRIP[name]
    line = render(t, x)
    row = one(line, tz=tz, default_year=t.year)
    # a printed stamp carries no fold: hypothesis's datetimes may (fold=1 in a DST gap
    # would read 02:00 with the later offset)
    expected = kept(t).replace(tzinfo=UTC if zoned else zoneinfo.ZoneInfo(tz), fold=0).astimezone(UTC)
    assert row["ts"] == expected, line
    assert row["ts_format"] == name.removesuffix("_ns")
