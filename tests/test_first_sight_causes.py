"""The general causes of first-sight misses (issue 28), each tested on text the rules
were not written from: the same failure with other names and numbers, under a launcher
prefix, without its traceback header, or in a layout the corpus does not have.

1. a source's own error line is failure evidence (NCCL's WARN, a pod's OOMKilled);
2. healthy needs evidence, and warnings the run trained on after are evidence;
3. the category comes from what the message means, not the exception's type;
4. whose failure it is: mp.spawn's child report, Lightning's and Ray's prefixes.
"""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest
from conftest import write_job

from correlator.analysis.analyze import analyze
from correlator.analysis.classifier import classify_failure
from correlator.ingest import IngestOptions, ingest

QUIET = IngestOptions(echo_problems=False)


def verdict(tmp_path, files: dict[str, str]):
    return analyze(write_job(tmp_path / "job", files), options=QUIET)


# torch 2.13 mp.spawn, 3 processes, gloo, rank 1 given a label of 10 for 10 classes
# (captured here; the parent's console as it printed it).
SPAWN_CONSOLE = """\
W1205 08:51:17.876000 4694 torch/multiprocessing/spawn.py:165] Terminating process 4697 via signal SIGTERM
W1205 08:51:17.877000 4694 torch/multiprocessing/spawn.py:165] Terminating process 4699 via signal SIGTERM
Traceback (most recent call last):
  File "/tmp/cap/spawn_probe.py", line 10, in <module>
    mp.spawn(main, args=(3,), nprocs=3, join=True)
  File "/home/user/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 340, in spawn
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/user/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 296, in start_processes
    while not context.join():
              ^^^^^^^^^^^^^^
  File "/home/user/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 211, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException:

-- Process 1 terminated with the following error:
Traceback (most recent call last):
  File "/home/user/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "/tmp/cap/spawn_probe.py", line 7, in main
    loss = F.cross_entropy(out, y)
           ^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/user/venv/lib/python3.11/site-packages/torch/nn/functional.py", line 3555, in cross_entropy
    return torch._C._nn.cross_entropy_loss(
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
IndexError: Target 10 is out of bounds.
""".replace("ProcessRaisedException:\n", "ProcessRaisedException: \n")  # torch prints a trailing space there


# ---- 4. whose failure: mp.spawn's report names the child -----------------------------

@pytest.mark.parametrize("index", [0, 1, 5])
def test_spawn_child_report_names_its_rank_and_the_label_category(tmp_path, index):
    text = SPAWN_CONSOLE.replace("-- Process 1 terminated", f"-- Process {index} terminated")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed"
    assert v.initiating.kind == "rank" and v.initiating.rank == index
    assert v.root_cause.category == "data_error"  # a label out of range, whatever its type says
    assert "Target 10 is out of bounds" in v.first_deviating.text


def test_spawn_report_without_the_header_names_no_rank(tmp_path):
    # the negative: the same traceback with the child header gone names no process
    text = SPAWN_CONSOLE.replace("-- Process 1 terminated with the following error:\n", "")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed"
    assert v.initiating.rank is None


def test_spawn_child_killed_by_signal_blames_that_process(tmp_path):
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/run/train_mp.py", line 88, in <module>\n'
        "    torch.multiprocessing.spawn(worker, nprocs=4)\n"
        "torch.multiprocessing.spawn.ProcessExitedException: process 2 terminated with signal SIGKILL\n"
    )
    v = verdict(tmp_path, {"out.txt": text})
    assert v.status == "failed"
    assert v.root_cause.category == "oom"
    assert v.initiating.rank == 2


# ---- 4. launcher prefixes --------------------------------------------------------------

def test_lightning_rank_prefix_is_the_rank(tmp_path):
    lines = (
        "[rank: 0] Seed set to 7\n"
        "[rank: 1] Seed set to 7\n"
        "[rank: 1] Traceback (most recent call last):\n"
        '[rank: 1]   File "/opt/app/fit.py", line 12, in on_train_batch_end\n'
        "[rank: 1]     self.names[batch_idx]\n"
        "[rank: 1] KeyError: 'lbl_0042'\n"
    )
    v = verdict(tmp_path, {"fit.log": lines})
    assert v.initiating.rank == 1


def test_lightning_global_rank_line_names_a_files_rank(tmp_path):
    worker = (
        "Initializing distributed: GLOBAL_RANK: 3, MEMBER: 4/4\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/app/fit.py", line 40, in training_step\n'
        "    x = self.proj(batch)\n"
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x30 and 32x2)\n"
    )
    v = verdict(tmp_path, {"w.log": worker})
    assert v.initiating.rank == 3


# ---- 1. a source's own error line --------------------------------------------------------

NCCL_IBV = (
    "{host}:81234:81290 [1] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.1.0.3<0>\n"
    "{host}:81234:81311 [1] misc/ibvwrap.cc:191 NCCL WARN Call to ibv_modify_qp failed with error {err}\n"
    "{host}:81234:81311 [1] NCCL INFO transport/net_ib.cc:433 -> 2\n"
)


@pytest.mark.parametrize(("host", "err"), [("gpu-node-3", "Invalid argument"), ("dgx17", "No such device")])
def test_nccl_warn_alone_is_a_network_failure_of_its_host(tmp_path, host, err):
    v = verdict(tmp_path, {"log.txt": NCCL_IBV.format(host=host, err=err)})
    assert v.status == "failed"
    assert v.root_cause.category == "nccl_network"
    assert v.initiating.node == host
    assert "ibv_modify_qp" in v.first_deviating.text


def test_nccl_warn_that_training_went_on_after_is_not_a_failure(tmp_path):
    text = NCCL_IBV.format(host="n1", err="Invalid argument") + "".join(
        f"step {i} loss {2.0 - i / 100:.3f}\n" for i in range(1, 6)
    )
    v = verdict(tmp_path, {"log.txt": text})
    assert v.status == "healthy"


# NCCL 2.18-style lines (init.cc / net.cc): a WARN NCCL recovered from, then more set-up
NCCL_WARN_THEN_ON = (
    "{host}:5521:5521 [0] NCCL INFO Bootstrap : Using eth0:10.2.0.7<0>\n"
    "{host}:5521:5521 [0] {src} NCCL WARN {warn}\n"
    "{host}:5521:5521 [0] NCCL INFO NET/Socket : Using [0]eth0:10.2.0.7<0>\n"
    "{host}:5521:5521 [0] NCCL INFO Using network Socket\n"
    "{host}:5521:5529 [0] NCCL INFO comm 0x55d0c8a0 rank 0 nranks 2 cudaDev 0 busId 1b000 - Init COMPLETE\n"
)


@pytest.mark.parametrize(("src", "warn"), [
    ("misc/ibvwrap.cc:63", "Failed to open libibverbs.so[.1]"),
    ("graph/xml.cc:332", "Could not find real path of /sys/class/pci_bus/0000:3a/../../0000:3a:00.0"),
])
def test_an_nccl_warn_its_process_carried_on_after_is_no_failure(tmp_path, src, warn):
    v = verdict(tmp_path, {"out.txt": NCCL_WARN_THEN_ON.format(host="worker-3", src=src, warn=warn)})
    assert v.status != "failed"
    # the same WARN followed only by its return-code trace is the failure
    fatal = "".join(NCCL_WARN_THEN_ON.format(host="worker-3", src=src, warn=warn).splitlines(True)[:2])
    fatal += "worker-3:5521:5521 [0] NCCL INFO init.cc:1411 -> 2\n"
    assert verdict(tmp_path / "fatal", {"out.txt": fatal}).status == "failed"


def test_an_error_line_outranks_an_nccl_warn_before_it(tmp_path):
    text = NCCL_IBV.format(host="n1", err="Invalid argument") + (
        "Traceback (most recent call last):\n"
        '  File "/w/train.py", line 9, in <module>\n'
        "    model = build()\n"
        "ValueError: unknown activation 'gelu_fast'\n"
    )
    v = verdict(tmp_path, {"log.txt": text})
    assert v.status == "failed"
    assert "unknown activation" in v.root_cause.evidence.text


@pytest.mark.parametrize("prefix", ["", "      impt           pod/"])
def test_kubectl_pod_oomkilled_names_the_pod(tmp_path, prefix):
    table = (
        "NAME                              READY   STATUS      RESTARTS   AGE\n"
        f"{prefix}llm-sft-master-0                  0/1     Completed   0          47m\n"
        f"{prefix}llm-sft-worker-2                  0/1     OOMKilled   3          47m\n"
        f"{prefix}llm-sft-worker-3                  1/1     Running     0          47m\n"
    )
    v = verdict(tmp_path, {"pods.txt": table})
    assert v.status == "failed"
    assert v.root_cause.category == "oom"
    assert v.initiating.node == "llm-sft-worker-2"


# ---- 2. healthy needs evidence, and warnings are evidence ------------------------------

DDP_WARNING = (
    "/opt/conda/lib/python3.10/site-packages/torch/autograd/graph.py:744: UserWarning: Grad strides do not match "
    "bucket view strides. This may indicate grad was not created according to the gradient layout contract, or "
    "that the param's strides changed since DDP was constructed.  This is not an error, but may impair performance.\n"
    "  return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass\n"
)


def test_a_pasted_warning_alone_is_healthy(tmp_path):
    v = verdict(tmp_path, {"paste.txt": DDP_WARNING})
    assert v.status == "healthy"


def test_warning_then_training_is_healthy_but_training_that_stops_at_it_is_not(tmp_path):
    steps = "".join(f"epoch 0 step {i} loss {1.5 - i / 50:.3f}\n" for i in range(1, 4))
    assert verdict(tmp_path / "a", {"r0.log": DDP_WARNING + steps}).status == "healthy"
    # progress, then the warning, then nothing: it may have hung there
    assert verdict(tmp_path / "b", {"r0.log": steps + DDP_WARNING}).status == "inconclusive"


def test_a_log_of_progress_that_just_stops_stays_inconclusive(tmp_path):
    # issue 20: a log cut mid-run with neither success nor failure is inconclusive
    steps = "".join(f"step {i} loss {1.5 - i / 50:.3f}\n" for i in range(1, 20))
    assert verdict(tmp_path, {"r0.log": steps}).status == "inconclusive"


# ---- 3. the category from what the message means ------------------------------------------

def _tb(exc_line: str, *frames: tuple[str, str], prefix: str = "", header: bool = True) -> str:
    lines = ["Traceback (most recent call last):"] if header else []
    for path, func in frames:
        lines += [f'  File "{path}", line 12, in {func}', "    do_it()"]
    lines.append(exc_line)
    return "\n".join(prefix + ln for ln in lines) + "\n"


MEANINGS = [
    ("IndexError: Target 37 is out of bounds.", [("/srv/x/loop.py", "compute_loss")], "data_error"),
    ("PIL.UnidentifiedImageError: cannot identify image file '/mnt/ds/img_77.png'",
     [("/srv/x/ds.py", "load_item")], "data_error"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/mnt/corpus/train-0001.parquet'",
     [("/srv/x/main.py", "build_datasets")], "config_error"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/mnt/ds/img_77.png'",
     [("/srv/x/ds.py", "__getitem__")], "data_error"),
    ("_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two "
     "options, do those steps only if you trust the source of the checkpoint.",
     [("/srv/x/resume.py", "restore")], "version_mismatch"),
    ("RuntimeError: received 0 items of ancdata", [("/usr/lib/python3/multiprocessing/reduction.py", "recvfds")],
     "config_error"),
    ("ImportError: /venv/lib/python3.10/site-packages/flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDevice",
     [("/srv/x/model.py", "<module>")], "version_mismatch"),
    # a model loader in a folder called data is not the input pipeline
    ("ValueError: Unrecognized configuration class <class 'Foo'> for this kind of AutoModel",
     [("/srv/x/data/loader.py", "load_model_and_tokenizer")], None),
    # a raise text that states the constraint the settings break, or names the setting to change
    ("AssertionError: hidden size 1024 is not divisible by the number of attention heads 12",
     [("/opt/venv/site-packages/megalib/layers.py", "split_heads")], "config_error"),
    ("ValueError: The hidden size (770) is not a multiple of the number of attention heads (12)",
     [("/srv/x/build.py", "make_model")], "config_error"),
    ("RuntimeError: This GPU does not support flash attention with head dim 256, please use sdpa instead",
     [("/srv/x/model.py", "forward")], "config_error"),
    ("ValueError: Invalid value for argument 'lr_scheduler': 'cosinex'", [("/srv/x/opt.py", "build")], "config_error"),
    # a raise text that names a version or a build
    ("AttributeError: module 'numpy' has no attribute 'int'", [("/srv/x/metrics.py", "iou")], "version_mismatch"),
    ("ImportError: peft requires transformers>=4.40.0, but found 4.31.0", [("/srv/x/main.py", "<module>")],
     "version_mismatch"),
    # a data file that does not parse as its format, against the run's own configuration file
    ("json.decoder.JSONDecodeError: Expecting value: line 88123 column 5 (char 4411230)",
     [("/srv/x/datasets/coco.py", "load_annotations"), ("/usr/lib/python3.9/json/decoder.py", "raw_decode")],
     "data_error"),
    ("json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 7 column 3 (char 90)",
     [("/srv/x/train.py", "read_config"), ("/usr/lib/python3.9/json/decoder.py", "raw_decode")], "config_error"),
    # the watchdog's abort after a timeout is an echo of the hang
    ("RuntimeError: NCCL communicator was aborted on rank 11.", [("/srv/x/loop.py", "step")], "nccl_timeout_hang"),
    # a bug's own words stay a code exception: a shape that must match, an object without a field
    ("RuntimeError: The size of tensor a (64) must match the size of tensor b (32) at non-singleton dimension 1",
     [("/srv/x/model.py", "forward")], "code_exception"),
    ("AttributeError: 'DistributedDataParallel' object has no attribute 'generate'",
     [("/srv/x/eval.py", "sample")], "code_exception"),
]


@pytest.mark.parametrize(("exc", "frames", "category"), MEANINGS)
@pytest.mark.parametrize("variant", ["plain", "prefixed", "headless"])
def test_category_from_meaning_survives_launcher_prefix_and_cut_header(exc, frames, category, variant):
    text = _tb(exc, *frames, prefix="[rank5]: " if variant == "prefixed" else "", header=variant != "headless")
    c = classify_failure(text, "during_training")
    if category is None:
        assert c is None or c.category != "data_error"
    else:
        assert c is not None and c.category == category, (c.entry.id if c else None)


@pytest.mark.parametrize("prefix", ["", "[rank3]: "])
@pytest.mark.parametrize(("lines", "category"), [
    # the message Python prints on the lines after a bare `AssertionError:`
    (["AssertionError: ", "The installed CUDA driver (found version 11020) is older than this build needs.",
      "Please update the driver from the vendor's site."], "version_mismatch"),
    # an import failure whose cause is printed below it
    (["RuntimeError: Failed to import mylib.kernels because of the following error:",
      "/opt/env/lib/python3.11/site-packages/fused_ops.so: undefined symbol: _ZN2at4_ops5empty"], "version_mismatch"),
    # the continuation ends at a blank line: what follows is not the message
    (["KeyError: 'input_ids'", "", "Please update the driver from the vendor's site."], "code_exception"),
])
def test_a_multi_line_exception_message_is_read_whole(prefix, lines, category):
    text = "Traceback (most recent call last):\n" + "".join(
        f"{prefix}{ln}\n" for ln in ['  File "/srv/app/run.py", line 7, in main', "    go()", *lines])
    c = classify_failure(text, "during_training")
    assert c is not None and c.category == category, (c.entry.id if c else None)


@pytest.mark.parametrize("end", [
    "`Trainer.fit` stopped: `max_epochs=4` reached.",
    "***** train metrics *****",
    "=================== 31 passed, 2 skipped, 7 warnings in 88.03s (0:01:28) ===================",
])
def test_a_run_that_says_it_ended_is_healthy_even_after_a_warning_and_a_retried_error(tmp_path, end):
    text = (
        DDP_WARNING
        + "Traceback (most recent call last):\n"
        + '  File "/w/cb.py", line 3, in on_save\n'
        + "    push()\n"
        + "ConnectionError: upload timed out, retrying\n"
        + "".join(f"step {i} loss {1.5 - i / 50:.3f}\n" for i in range(1, 4))
        + end + "\n"
    )
    v = verdict(tmp_path, {"run.log": text})
    assert v.status == "healthy"


def test_a_test_summary_with_failures_is_no_healthy_end(tmp_path):
    text = "=================== 1 failed, 30 passed, 7 warnings in 88.03s ===================\n"
    assert verdict(tmp_path, {"ci.log": text}).status != "healthy"


# ---- echoes after the run said it completed ------------------------------------------------

GLOO_CLOSED = (
    "Traceback (most recent call last):\n"
    '  File "/w/train.py", line 80, in <module>\n'
    "    dist.barrier()\n"
    "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
    "[127.0.0.1]:34123\n"
)
WATCHDOG = (
    "[rank0]:[E1205 10:22:13.715298746 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum=912, OpType=_ALLGATHER_BASE, NumelIn=1024, NumelOut=4096, Timeout(ms)=1800000) "
    "ran for 1800081 milliseconds before timing out.\n"
)
DONE = "{'train_runtime': 811.2, 'train_samples_per_second': 9.9, 'train_steps_per_second': 0.3, 'train_loss': 1.2, 'epoch': 3.0}\n"


def test_a_lost_peer_after_the_run_completed_is_teardown(tmp_path):
    assert verdict(tmp_path, {"rank0.log": DONE + GLOO_CLOSED}).status == "healthy"


def test_a_timeout_after_the_run_completed_is_a_hang(tmp_path):
    # the save after training waits on a collective that never completes
    v = verdict(tmp_path, {"rank0.log": DONE + WATCHDOG})
    assert v.status == "failed"
    assert v.root_cause.category == "nccl_timeout_hang"


def test_one_ranks_completion_does_not_silence_another_ranks_echo(tmp_path):
    console = "[default0]:" + DONE + "".join("[default1]:" + ln + "\n" for ln in GLOO_CLOSED.splitlines())
    assert verdict(tmp_path, {"console.log": console}).status != "healthy"


# ---- a node-level report takes the name another report of the same fault gives -------------

@pytest.mark.parametrize(("host", "task"), [("gpu20-15", 0), ("cn0412", 3)])
def test_cgroup_oom_takes_the_node_srun_names(tmp_path, host, task):
    text = (
        f"slurmstepd-{host}: error: Detected 1 oom-kill event(s) in StepId=771.0. Some of your processes may have "
        "been killed by the cgroup out-of-memory handler.\n"
        f"srun: error: {host}: task {task}: Out Of Memory\n"
    )
    v = verdict(tmp_path, {"slurm-771.out": text})
    assert v.root_cause.category == "oom"
    assert v.initiating.node == host and v.initiating.kind == "rank"


def test_verbs_completion_error_is_the_network(tmp_path):
    text = (
        "(RayWorker pid=90738, ip=10.2.3.4) mlx5: host_unknown: got completion with error:\n"
        "(RayWorker pid=90738, ip=10.2.3.4) 00000000 00000000 00000000 00000000\n"
    )
    v = verdict(tmp_path, {"ray.log": text})
    assert v.status == "failed"
    assert v.root_cause.category == "nccl_network"
    assert v.initiating.node == "10.2.3.4"


def test_nccl_setting_without_algorithm_is_configuration():
    line = ("gpu7:1:1 [3] enqueue.cc:401 NCCL WARN Error : no algorithm/protocol available for function "
            "ReduceScatter with datatype ncclBfloat16. NCCL_PROTO was set to LL128.")
    c = classify_failure(line, "during_training")
    assert c is not None and c.category == "config_error"
    # without the setting, NCCL calls it an internal error: not configuration
    c = classify_failure(line.split(" NCCL_PROTO")[0], "during_training")
    assert c is None or c.category != "config_error"


# ---- the eval matches a truth's quoted line against the cited line as the file has it --------

def test_eval_matches_the_quoted_line_with_its_launcher_prefix(tmp_path):
    from correlator.analysis.evaluate import score

    job = write_job(tmp_path / "job", {"console.log": (
        "[rank0]: step 10 loss 1.2\n"
        "[rank5]: Traceback (most recent call last):\n"
        '[rank5]:   File "/w/t.py", line 3, in <module>\n'
        "[rank5]:     x = big()\n"
        "[rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB\n"
    )})
    v = analyze(job, options=QUIET)
    truth = {"status": "failed", "initiating": {}, "root_cause": {},
             "first_deviating": {"contains": "[rank5]: torch.OutOfMemoryError: CUDA out of memory", "rank": 5}}
    assert "[rank5]" not in v.first_deviating.text  # the verdict quotes the line without its prefix
    assert score(truth, v, job)["first_deviating"].ok
    assert not score(truth, v)["first_deviating"].ok  # without the job's files only the quote counts
    wrong = {**truth, "first_deviating": {"contains": "[rank0]: step 10 loss 1.2", "rank": None}}
    assert not score(wrong, v, job)["first_deviating"].ok


# ---- a run that ended diverged, and one that recovered ---------------------------------------

def _records(*norms: str, loss: str = "1.2") -> str:
    return "".join(
        f"{{'loss': {loss if n != 'zero' else '0.0'}, 'grad_norm': {'nan' if n == 'zero' else n}, "
        f"'learning_rate': 3e-05, 'epoch': {i / 10:.2f}}}\n"
        for i, n in enumerate(norms, 1)
    )


def test_grad_norm_nan_to_the_end_is_divergence(tmp_path):
    v = verdict(tmp_path, {"train.log": _records("3.1", "2.8", "nan", "zero", "zero")})
    assert v.status == "failed"
    assert v.root_cause.category == "nan_divergence"


def test_one_nan_grad_norm_the_run_recovered_from_is_not_a_failure(tmp_path):
    v = verdict(tmp_path, {"train.log": _records("nan", "4.2", "3.9", "3.1")})
    assert v.status != "failed"


def test_trainer_records_are_progress_a_caught_error_was_survived_by(tmp_path):
    text = ("Error at loading 4411: list index out of range\n" + _records("2.0", "1.9"))
    assert verdict(tmp_path, {"train.log": text}).status != "failed"


def test_openmmlab_records_nan_first_interval_then_finite_is_not_a_failure(tmp_path):
    lines = "".join(
        f"2024-01-0{1 + i // 10} 10:{i:02d}:00,000 - mmocr - INFO - Epoch [1][{50 * (i + 1)}/4000]\tlr: 1.0e-03, "
        f"time: 0.9, loss: {2.5 - i * 0.1:.4f}, grad_norm: {'nan' if i == 0 else f'{5 - i * 0.2:.4f}'}\n"
        for i in range(6)
    )
    assert verdict(tmp_path / "a", {"train.log": lines}).status != "failed"
    diverged = lines.replace("loss: 2.0000", "loss: nan")
    v = verdict(tmp_path / "b", {"train.log": diverged})
    assert v.status == "failed" and v.root_cause.category == "nan_divergence"


@pytest.mark.parametrize("host", ["worker-0", "gpu-b12"])
def test_a_failed_connection_to_a_peer_names_no_culprit(tmp_path, host):
    text = (
        f"{host}:39964:40075 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> "
        "failed : Software caused connection abort\n"
        f"{host}:39964:40075 [0] NCCL INFO misc/socket.cc:564 -> 2\n"
    )
    v = verdict(tmp_path, {"nccl.log": text})
    assert v.status == "failed" and v.root_cause.category == "nccl_network"
    assert v.initiating.kind == "unknown" and v.initiating.node is None
    # the same node's own verbs call failing is that node's
    local = text.replace("socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused connection abort",
                         "Call to ibv_modify_qp failed with error No such device")
    assert verdict(tmp_path / "b", {"nccl.log": local}).initiating.node == host


def test_a_caught_traceback_followed_by_training_is_healthy(tmp_path):
    text = (
        "".join(f"step {i} loss {2.0 - i / 50:.3f}\n" for i in range(1, 4))
        + "Traceback (most recent call last):\n"
        + '  File "/w/ds.py", line 40, in __getitem__\n'
        + "    img = decode(path)\n"
        + "OSError: broken data stream when reading image file\n"
        + "".join(f"step {i} loss {2.0 - i / 50:.3f}\n" for i in range(4, 8))
    )
    v = verdict(tmp_path, {"r0.log": text})
    assert v.status == "healthy"
    # the same error as the log's last word is no run that went on
    cut = text.split("step 4 ")[0]
    assert verdict(tmp_path / "b", {"r0.log": cut}).status == "failed"


def test_a_warning_pasted_without_its_file_prefix_is_a_warning(tmp_path):
    text = "FutureWarning: `torch.distributed._reduce_scatter_base` is deprecated. Please use `reduce_scatter_tensor`.\n"
    assert verdict(tmp_path, {"w.txt": text}).status == "healthy"


@pytest.mark.parametrize("rank", [3, 12])
def test_a_platform_stamp_before_the_rank_prefix(tmp_path, rank):
    text = (
        f"2025-03-02 09:14:55 [rank{rank}]: Traceback (most recent call last):\n"
        f'2025-03-02 09:14:55 [rank{rank}]:   File "/w/train.py", line 50, in <module>\n'
        f"2025-03-02 09:14:55 [rank{rank}]:     out = model(x)\n"
        f"2025-03-02 09:14:55 [rank{rank}]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    )
    v = verdict(tmp_path, {"console.log": text})
    assert v.initiating.rank == rank and v.root_cause.category == "oom"


@pytest.mark.parametrize("rank", [1, 6])
def test_mpirun_names_the_rank_killed_by_sigkill(tmp_path, rank):
    text = "".join(f"[1,{r}]<stdout>:step 3 loss 1.{r}\n" for r in range(8)) + (
        "--------------------------------------------------------------------------\n"
        f"mpirun noticed that process rank {rank} with PID 0 on node gpu-a3 exited on signal 9 (Killed).\n"
        "--------------------------------------------------------------------------\n"
    )
    v = verdict(tmp_path, {"console.log": text})
    assert v.root_cause.category == "oom" and v.initiating.rank == rank
    aborted = text.replace("signal 9 (Killed)", "signal 6 (Aborted)")
    other = verdict(tmp_path / "b", {"console.log": aborted})
    assert other.root_cause is None or other.root_cause.category != "oom"


def test_one_rank_that_stopped_at_its_warning_is_no_healthy_run(tmp_path):
    steps = lambda r, a, b: "".join(f"[rank{r}]: step {i} loss {1.5 - i / 50:.3f}\n" for i in range(a, b))  # noqa: E731
    warn = "[rank{r}]: " + DDP_WARNING.splitlines()[0] + "\n"
    ok = steps(0, 1, 3) + warn.format(r=0) + steps(0, 3, 6)
    assert verdict(tmp_path / "a", {"r0.log": ok}).status == "healthy"
    stopped = ok + steps(1, 1, 3) + warn.format(r=1)  # rank 1 printed the warning and nothing after
    assert verdict(tmp_path / "b", {"all.log": stopped}).status == "inconclusive"


# ---- session 18: causes read off the result batch's misses, tested on text of their own ----

def _tee_traceback(local: int, call: str, error: str) -> str:
    """A worker's traceback as `torchrun --tee 3` prints it (each line `[defaultN]:`)."""
    lines = [
        "Traceback (most recent call last):",
        '  File "/srv/job/train.py", line 41, in <module>',
        f"    {call}",
        '  File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 1482, in load',
        "    with _open_zipfile_reader(opened_file) as opened_zipfile:",
        error,
    ]
    return "".join(f"[default{local}]:{line}\n" for line in lines)


NEWER_FILE = ("RuntimeError: [enforce fail at inline_container.cc:230] . Attempted to read a PyTorch file with "
              "version 12, but the maximum supported version for reading is 9. Your PyTorch installation may be "
              "too old.")


NONE_ATTR = "AttributeError: 'NoneType' object has no attribute 'size'"


def test_the_same_unknown_error_on_every_rank_is_all_ranks_alike(tmp_path):
    """No rule knows the error; every rank raised it at once: one failure of all ranks."""
    console = "".join(_tee_traceback(r, "n = feats.size(0)", NONE_ATTR) for r in range(3))
    v = verdict(tmp_path, {"console.log": console})
    assert v.status == "failed"
    assert v.initiating.kind == "all_ranks" and v.initiating.rank is None


def test_an_unknown_error_on_some_ranks_only_is_not_all_ranks(tmp_path):
    wait = "[default{r}]:[W1205 09:14:40.118812000 socket.cpp:469] [c10d] waitForInput: poll returned 0\n"
    console = (_tee_traceback(0, "n = feats.size(0)", NONE_ATTR) + _tee_traceback(2, "n = feats.size(0)", NONE_ATTR)
               + wait.format(r=1))
    v = verdict(tmp_path, {"console.log": console})
    assert v.status == "failed"
    assert v.initiating.kind != "all_ranks"


def test_a_file_from_a_newer_version_is_a_version_mismatch():
    c = classify_failure(NEWER_FILE, "before_training")
    assert c is not None and c.category == "version_mismatch"
    near = classify_failure("RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central "
                            "directory", "before_training")
    assert near is None or near.category != "version_mismatch"


def test_an_error_on_one_machine_only_names_that_machine(tmp_path):
    """Two agents, two machines: only node-1's ranks fail the same check before training; node-0's
    ranks wait at the store for them. The cause is node-1's (its older torch), not every rank's."""
    wait = ("[default{r}]:Traceback (most recent call last):\n"
            '[default{r}]:  File "/srv/job/train.py", line 22, in <module>\n'
            '[default{r}]:    dist.init_process_group("gloo")\n'
            "[default{r}]:torch.distributed.DistStoreError: wait timeout after 60000ms, keys: /default_pg/0//cpu//0/3\n")
    v = verdict(tmp_path, {
        "node-0/console.log": wait.format(r=0) + wait.format(r=1),
        "node-1/console.log": "".join(_tee_traceback(r, "feats = torch.load(args.features)", NEWER_FILE)
                                     for r in range(2)),
    })
    assert v.status == "failed"
    assert v.root_cause.category == "version_mismatch"
    assert v.initiating.kind == "rank" and v.initiating.node == "node-1" and v.initiating.rank is None


def test_a_kernel_assertion_on_the_labels_is_the_data(tmp_path):
    """The CUDA kernel's assertion lines say which check failed; the Python error after them
    only that one did."""
    log = (
        "epoch 3 train Loss: 0.8123 Acc: 0.7001\n"
        "/opt/pytorch/aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
        "thread: [17,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
        "Traceback (most recent call last):\n"
        '  File "fit.py", line 88, in <module>\n'
        "    total += loss.item()\n"
        "RuntimeError: CUDA error: device-side assert triggered\n"
    )
    v = verdict(tmp_path, {"fit.log": log})
    assert v.status == "failed"
    assert v.root_cause.category == "data_error"
    assert "Assertion" in v.first_deviating.text


def test_a_loss_record_that_turns_nan_to_the_end_is_divergence(tmp_path):
    """Plain "name: value" records (no step counter, no known trainer layout)."""
    log = "".join(f"box_loss: {b}  loss: {x}  cls_loss: {c}\n"
                  for b, x, c in [("1.91", "3.20", "1.29"), ("1.52", "2.61", "1.09"), ("nan", "nan", "nan"),
                                  ("nan", "nan", "nan")])
    v = verdict(tmp_path, {"train.log": log})
    assert v.status == "failed" and v.root_cause.category == "nan_divergence"
    healthy = verdict(tmp_path / "h", {"train.log": log.replace("nan", "0.9")
                                       + "Training completed. Do not forget to share your model\n"})
    assert healthy.status == "healthy"


def test_an_exception_whose_message_starts_on_the_next_line_is_one_failure(tmp_path):
    v = verdict(tmp_path, {"run.log": "KeyError:\nThe config has no entry 'optimizer.betas' (did you mean 'optim'?)\n"})
    assert v.status == "failed"
    assert "optimizer.betas" in v.root_cause.evidence.text


def test_the_story_of_a_lone_paste_does_not_claim_only_echoes(tmp_path):
    from correlator.report.text import render

    lone = verdict(tmp_path / "a", {"train.log": "Traceback (most recent call last):\n"
                                                 '  File "fit.py", line 9, in <module>\n    run()\n'
                                                 "ZeroDivisionError: division by zero\n"})
    assert lone.initiating.kind == "unknown" and lone.root_cause is not None
    story = render(lone)
    assert "only echoes" not in story and "Initiating: unknown (the logs do not say" in story


# ---- a log record printed with its exception (logger.exception, exc_info=True) -------------

def _record_with_traceback(stamp: str, level: str, note: str, exc_line: str) -> str:
    return (f"{stamp} {level} [worker] {note}\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/fit/loop.py", line 212, in run_epoch\n'
            "    writer.flush_to(path)\n"
            f"{exc_line}\n")


@pytest.mark.parametrize(("level", "exc_line", "category"), [
    ("CRITICAL", "OSError: [Errno 30] Read-only file system: '/ckpt/step_40.pt'", "storage_io"),
    ("ERROR", "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 12: invalid start byte",
     "data_error"),
])
def test_a_record_with_its_traceback_is_the_exception_it_carries(tmp_path, level, exc_line, category):
    steps = "".join(f"2026-03-02 11:00:0{i},100 INFO [worker] step {i} loss 0.{9 - i}\n" for i in range(1, 4))
    log = steps + _record_with_traceback("2026-03-02 11:00:04,250", level, "fatal error, shutting down", exc_line)
    v = verdict(tmp_path, {"worker3.log": log})
    assert v.status == "failed"
    assert v.root_cause.category == category
    # one event: the record's line and stamp, the exception's text
    ev = v.root_cause.evidence
    assert ev.line_no == 4 and exc_line.split(":")[0] in ev.text and not ev.ts_estimated


def test_a_traceback_logged_at_warning_is_a_caught_error_not_a_failure(tmp_path):
    log = (_record_with_traceback("2026-03-02 11:00:04,250", "WARNING", "upload failed, retry 1 of 5",
                                  "ConnectionResetError: [Errno 104] Connection reset by peer")
           + "".join(f"2026-03-02 11:00:0{i},100 INFO [worker] step {i} loss 0.{9 - i}\n" for i in range(5, 8)))
    v = verdict(tmp_path, {"worker0.log": log})
    assert v.status == "healthy"


# ---- what the job did after: a completion that every rank reached --------------------------

def test_an_echo_its_own_stream_completed_after_names_no_culprit(tmp_path):
    """A caught ConnectionResetError on rank 1, then every rank says it is done."""
    lines = []
    for i in range(1, 4):
        lines += [f"[r0] 2026-03-02 11:00:0{i},000 | rank 0 | step {i}/3 loss 1.{i}",
                  f"[r1] 2026-03-02 11:00:0{i},100 | rank 1 | eval {i} ok"]
    rec = _record_with_traceback("2026-03-02 11:00:02,500", "WARNING", "retrying shard fetch",
                                 "ConnectionResetError: [Errno 104] Connection reset by peer")
    lines[3:3] = ["[r1] " + ln for ln in rec.splitlines()]
    lines += ["[r1] 2026-03-02 11:00:04,000 | rank 1 | Training finished",
              "[r0] 2026-03-02 11:00:04,100 | rank 0 | Training finished"]
    v = verdict(tmp_path, {"console.log": "\n".join(lines) + "\n"})
    assert v.status == "healthy"


def test_a_failed_attempt_is_recovered_when_every_rank_completes_the_next(tmp_path):
    def rank_file(rank: int, t0: int, body: str) -> str:
        return "".join(f"2026-03-02 11:0{t0}:0{i},000 INFO rank {rank} step {i} loss 0.5\n" for i in range(1, 3)) + body

    crash = ("Traceback (most recent call last):\n"
             '  File "/srv/fit/data.py", line 40, in shard\n'
             "    return open(p).read()\n"
             "FileNotFoundError: [Errno 2] No such file or directory: 'shards/r1/b7.bin'\n")
    done = "2026-03-02 11:05:09,000 INFO rank {r} training complete\n"
    files = {
        "logs/job/attempt_0/0/stderr.log": rank_file(0, 1, ""),
        "logs/job/attempt_0/1/stderr.log": rank_file(1, 1, crash),
        "logs/job/attempt_1/0/stderr.log": rank_file(0, 5, done.format(r=0)),
        "logs/job/attempt_1/1/stderr.log": rank_file(1, 5, done.format(r=1)),
    }
    assert verdict(tmp_path / "a", files).status == "healthy"
    # the same crash, and only one rank of the next attempt completes: not recovered
    files["logs/job/attempt_1/1/stderr.log"] = rank_file(1, 5, "")
    assert verdict(tmp_path / "b", files).status == "failed"


# ---- a run that stopped short of its own stated end ------------------------------------------

def _rank_steps(rank: int, last: int, total: int, start_s: int = 0) -> str:
    return "".join(f"2026-03-02 11:{(start_s + 2 * i) // 60:02d}:{(start_s + 2 * i) % 60:02d} [rank{rank}] "
                   f"WARNING slow step\n" * (i == 2)
                   + f"2026-03-02 11:{(start_s + 2 * i) // 60:02d}:{(start_s + 2 * i) % 60:02d} [rank{rank}] "
                   f"iter {i}/{total} loss 2.{i % 10}\n" for i in range(1, last + 1))


def test_every_rank_stopping_at_once_short_of_the_total_is_an_external_kill_where_a_signal_left_a_trace(tmp_path):
    # (session 35) with no trace of a signal, a job killed without a word and a snapshot of a
    # running one read the same: inconclusive, asking for the scheduler's record
    quiet = verdict(tmp_path / "quiet", {"rank0.log": _rank_steps(0, 20, 500), "rank1.log": _rank_steps(1, 20, 500)})
    assert quiet.status == "inconclusive" and quiet.root_cause is None
    assert "20 of 500" in quiet.status_reason and "no trace of a signal" in quiet.status_reason
    assert any("scheduler's record" in m for m in quiet.missing)
    # a wrapper's word that it sent the job a signal: stopped from outside, that line the evidence
    wrapper = "2026-03-02 11:00:41 jobwrap: wall time reached, sending SIGTERM to process group 4410\n"
    v = verdict(tmp_path / "signal", {"rank0.log": _rank_steps(0, 20, 500), "rank1.log": _rank_steps(1, 20, 500),
                                      "wrapper.log": wrapper})
    assert v.status == "failed"
    assert v.initiating.kind == "external" and v.root_cause.category == "killed_by_scheduler"
    assert "20 of 500" in v.status_reason
    assert v.root_cause.evidence.file == "wrapper.log"


def test_stopping_short_at_different_times_or_alone_is_not_called_a_kill(tmp_path):
    apart = verdict(tmp_path / "a", {"rank0.log": _rank_steps(0, 20, 500),
                                     "rank1.log": _rank_steps(1, 6, 500)})
    assert apart.status == "inconclusive"
    alone = verdict(tmp_path / "b", {"rank0.log": _rank_steps(0, 20, 500)})
    assert alone.status == "inconclusive"
    # reaching the total is no stop (and a warning it trained on after stays harmless)
    full = verdict(tmp_path / "c", {"rank0.log": _rank_steps(0, 20, 20), "rank1.log": _rank_steps(1, 20, 20)})
    assert full.status == "healthy"


# ---- heldout6's causes, on text of their own --------------------------------------------------

def test_a_loss_under_its_parts_name_that_turns_nan_is_divergence_but_the_loss_scale_is_no_loss(tmp_path):
    rec = "10:0{m}:00: it {i} loss_total: {x} loss_scale: 4096.0 grad: 2.1\n"
    log = "".join(rec.format(m=i, i=i * 50, x=x) for i, x in enumerate(["1.31", "0.97", "nan", "nan"]))
    v = verdict(tmp_path, {"fit.log": log})
    assert v.status == "failed" and v.root_cause.category == "nan_divergence"
    assert "loss_total: nan" in v.root_cause.evidence.text
    scale_only = "".join(f"10:0{i}:00: it {i} loss_scale: nan lr: 0.1\n" for i in range(4))
    assert verdict(tmp_path / "s", {"fit.log": scale_only}).root_cause is None


def test_a_native_allocator_giving_up_is_out_of_memory(tmp_path):
    log = ("[2025-01-09 08:00:01,000] [INFO] [launch.py:250:main] dist_world_size=4\n"
           "memory allocation of 8388608 bytes failed\n"
           "[2025-01-09 08:03:11,512] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 9001\n")
    v = verdict(tmp_path, {"launcher.log": log})
    assert v.status == "failed" and v.root_cause.category == "oom"
    assert "memory allocation of" in v.first_deviating.text


def test_a_frameworks_configuration_exception_is_configuration():
    text = ("Traceback (most recent call last):\n  File \"/w/run.py\", line 4, in <module>\n    main(cfg)\n"
            "omegaconf.errors.ConfigKeyError: Key 'warmup_ratio' is not in struct")
    assert classify_failure(text, "during_training").category == "config_error"


def test_an_nccl_warn_under_an_mpirun_rank_prefix_names_its_host(tmp_path):
    """NCCL 2.4's init line (no busId) and a rank that failed before its own init line."""
    lines = []
    for rank, host, pid in [(0, "gpuA-01", 411), (1, "gpuA-01", 412), (2, "gpuB-07", 988)]:
        lines.append(f"[1,{rank}]<stdout>:{host}:{pid}:{pid + 9} [{rank % 2}] NCCL INFO comm 0x7f00{rank}0 "
                     f"rank {rank} nranks 4 cudaDev {rank % 2} nvmlDev {rank % 2} - Init COMPLETE")
    lines.append("[1,3]<stdout>:gpuB-07:989:999 [1] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'")
    v = verdict(tmp_path, {"mpirun.log": "\n".join(lines) + "\n"})
    assert v.initiating.rank == 3 and v.initiating.node == "gpuB-07"


# ---- heldout7's causes, on text of their own --------------------------------------------------

def test_a_line_after_an_nccl_warn_that_ends_in_a_word_is_no_piece_of_it(tmp_path):
    """A file of two lines, the first the longest and ending in a word, the second starting
    lowercase: no hard wrap when the second starts with NCCL's own header."""
    log = ("[2025-02-11 04:10:09] gpu-b12:7701:7790 [2] transport/net_socket.cc:561 NCCL WARN NET/Socket : peer "
           "10.1.7.20<40012> message truncated : receiving 64 bytes instead of 32. If you believe your socket "
           "network is in a healthy state, there may be a mismatch in collective sizes between ranks\n"
           "gpu-b12:7701:7790 [2] NCCL INFO transport/net.cc:1393 -> 5\n")
    v = verdict(tmp_path, {"nccl.log": log})
    assert v.status == "failed" and v.root_cause.category == "collective_mismatch"
    assert v.root_cause.evidence.line_no == 1 and "-> 5" not in v.root_cause.evidence.text


# torch.distributed.elastic.events records as torch 1.9's agent logged them (the record's
# shape from public pastes; the values here are new)
def _elastic_event(state: str, source: str, rank: str, pid: str) -> str:
    return (
        f'{{"name": "torchelastic.worker.status.{state}", "source": "{source}", "timestamp": 0, "metadata": '
        f'{{"run_id": "none", "global_rank": {rank}, "group_rank": 0, "worker_id": {pid}, "role": "default", '
        f'"hostname": "trn-07", "state": "{state}", "total_run_time": 88, "rdzv_backend": "static", '
        f'"raw_error": null, "agent_restarts": 0}}}}\n'
    )


def test_an_elastic_worker_failed_record_is_failure_evidence_and_succeeded_is_not(tmp_path):
    failed = _elastic_event("FAILED", "WORKER", "5", '"7301"') + _elastic_event("SUCCEEDED", "AGENT", "null", "null")
    v = verdict(tmp_path / "f", {"agent.log": failed})
    assert v.status == "failed"
    assert "torchelastic.worker.status.FAILED" in v.root_cause.evidence.text
    ok = "".join(_elastic_event("SUCCEEDED", "WORKER", str(r), f'"{7300 + r}"') for r in range(4))
    assert verdict(tmp_path / "s", {"agent.log": ok}).status != "failed"


def test_the_same_failure_on_the_ranks_that_say_so_is_one_conclusion_not_rivals(tmp_path):
    # four ranks report the same NCCL refusal; a fifth shows only its return codes (its WARN
    # line cut from the paste): "all ranks alike", and a failure, not four quarter-rivals
    lines = []
    for r in (2, 0, 3, 1):
        lines += [f"[1,{r}]<stdout>:dgx-b:{4100 + r}:{4170 + r} [0] init.cc:497 NCCL WARN Duplicate GPU detected : "
                  f"rank {r} and rank {(r + 1) % 4} both on CUDA device 3b000",
                  f"[1,{r}]<stdout>:dgx-b:{4100 + r}:{4170 + r} [0] NCCL INFO init.cc:867 -> 5"]
    lines += ["[1,4]<stdout>:dgx-b:4104:4174 [0] NCCL INFO init.cc:903 -> 5"]
    v = verdict(tmp_path, {"mpirun.out": "\n".join(lines) + "\n"})
    assert v.status == "failed"
    assert v.initiating.all_ranks and v.initiating.confidence >= 0.9


def _agent_console(failed_local: int, others: list[int], code: int = -9) -> str:
    """torchrun's agent lines (torch 2.x format) for a worker that died; values new."""
    lines = [f"W0302 11:04:19.{i:06d} 7711 torch/distributed/elastic/multiprocessing/api.py:897] "
             f"Sending process {5500 + p} closing signal SIGTERM" for i, p in enumerate(others)]
    lines.append(f"E0302 11:04:20.000100 7711 torch/distributed/elastic/multiprocessing/api.py:869] failed "
                 f"(exitcode: {code}) local_rank: {failed_local} (pid: {5500 + failed_local}) of binary: /opt/py/bin/python")
    return "\n".join(lines) + "\n"


def test_a_local_rank_is_the_rank_only_where_the_logs_show_one_machine(tmp_path):
    console = _agent_console(3, [0, 1, 2])
    v = verdict(tmp_path / "one", {"console.log": console})
    assert v.initiating.kind == "rank" and v.initiating.rank == 3
    # an NCCL communicator larger than the agent's four workers: several machines, rank unknown
    nccl = "".join(f"gpu-a:{5500 + r}:{5600 + r} [{r}] NCCL INFO comm 0x5a{r}0 rank {r + 8} nranks 16 cudaDev {r} "
                   f"busId {r}b000 commId 0x77 - Init COMPLETE\n" for r in range(4))
    v = verdict(tmp_path / "two", {"console.log": nccl + console})
    assert v.initiating.rank != 3


def test_the_launchers_first_report_of_a_death_is_the_first_deviating_line(tmp_path):
    # torch 2.x agent: its exit line, then the ChildFailedError table naming the same pid
    # (global rank 6 = node 1's local rank 2); values new
    console = (
        "W0302 11:04:19.000100 7711 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 9102 "
        "closing signal SIGTERM\n"
        "E0302 11:04:19.400100 7711 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -11) "
        "local_rank: 2 (pid: 9104) of binary: /opt/py/bin/python\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
        "============================================================\n"
        "train.py FAILED\n"
        "------------------------------------------------------------\n"
        "Failures:\n"
        "[1]:\n  time      : 2026-03-02_11:04:19\n  host      : box-b\n  rank      : 4 (local_rank: 0)\n"
        "  exitcode  : -15 (pid: 9102)\n  error_file: <N/A>\n  traceback : Signal 15 (SIGTERM) received by PID 9102\n"
        "------------------------------------------------------------\n"
        "Root Cause (first observed failure):\n"
        "[0]:\n  time      : 2026-03-02_11:04:19\n  host      : box-b\n  rank      : 6 (local_rank: 2)\n"
        "  exitcode  : -11 (pid: 9104)\n  error_file: <N/A>\n  traceback : Signal 11 (SIGSEGV) received by PID 9104\n"
        "============================================================\n"
    )
    v = verdict(tmp_path, {"node-1/console.log": console})
    assert v.initiating.rank == 6
    assert "failed (exitcode: -11) local_rank: 2" in v.first_deviating.text


def test_an_unprefixed_abort_takes_the_rank_spawn_names_and_stays_the_first_line(tmp_path):
    # a child's C++ abort on the shared stderr, then mp.spawn's parent naming the child
    # (torch 2.13 formats; values new)
    console = (
        "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
        "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:456] "
        "op.preamble.length <= op.nbytes. 96 vs 64. Received data size doesn't match expected size. Is there a "
        "distributed collective mismatch in your code?\n"
        "W0302 10:00:03.020000 812 torch/multiprocessing/spawn.py:165] Terminating process 815 via signal SIGTERM\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/job/main.py", line 88, in <module>\n'
        "    mp.spawn(worker, args=(4,), nprocs=4)\n"
        '  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 192, in join\n'
        "    raise ProcessExitedException(\n"
        "torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal SIGABRT\n"
    )
    v = verdict(tmp_path, {"console.log": console})
    assert v.initiating.kind == "rank" and v.initiating.rank == 3
    assert "Received data size" in v.first_deviating.text


def test_a_kill_the_rank_trained_on_after_in_the_next_attempt_is_not_the_end(tmp_path):
    # torchrun --max-restarts 1 --log-dir: attempt 0's local rank 1 is SIGKILLed, the group
    # restarts, every rank trains on in attempt_1, then rank 0's loss goes non-finite
    agent = (
        "E0302 09:00:10.500000 400 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) "
        "local_rank: 1 (pid: 501) of binary: /opt/py/bin/python\n"
        "E0302 09:00:30.700000 400 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) "
        "local_rank: 0 (pid: 610) of binary: /opt/py/bin/python\n"
    )

    def steps(rank: int, first: int, last: int, t0: int) -> str:
        return "".join(f"2026-03-02 09:00:{t0 + i:02d},100 INFO [rank{rank}] fit: step {s} loss 0.{80 - s}\n"
                       for i, s in enumerate(range(first, last + 1)))

    files = {"launcher.log": agent}
    for r in (0, 1):
        files[f"logs/run_x/attempt_0/{r}/stderr.log"] = steps(r, 1, 5, 2)
        files[f"logs/run_x/attempt_1/{r}/stderr.log"] = steps(r, 5, 12, 16)
    files["logs/run_x/attempt_1/0/stderr.log"] += (
        "[rank0]: Traceback (most recent call last):\n"
        '[rank0]:   File "/srv/fit.py", line 61, in <module>\n'
        "[rank0]:     check(loss)\n"
        "[rank0]: FloatingPointError: loss became nan at step 13\n"
    )
    v = verdict(tmp_path, files)
    assert v.root_cause.category == "nan_divergence"
    assert v.initiating.rank == 0


_WATCHDOG = ("[E ProcessGroupNCCL.cpp:737] [Rank {r}] Watchdog caught collective operation timeout: "
             "WorkNCCL(SeqNum=4410, OpType=ALLREDUCE, Timeout(ms)=900000) ran for 900412 milliseconds before "
             "timing out.\n")
_CUT_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/srv/fit/run.py", line 51, in <module>\n'
    "    loop.fit(cfg)\n"
    '  File "/srv/fit/loop.py", line 203, in fit\n'
    "    out = self.step(batch)\n"
)


def test_an_unplaced_traceback_below_its_streams_timeouts_is_their_end_not_a_cause(tmp_path):
    v = verdict(tmp_path / "after", {"train.log": "".join(_WATCHDOG.format(r=r) for r in (2, 1)) + _CUT_TRACEBACK})
    assert v.root_cause.category == "nccl_timeout_hang"
    # the same traceback above the timeouts came first: it is the failure they waited on
    before = _CUT_TRACEBACK + "ValueError: bad bucket layout\n" + "".join(_WATCHDOG.format(r=r) for r in (2, 1))
    v = verdict(tmp_path / "before", {"train.log": before})
    assert v.root_cause.category != "nccl_timeout_hang"


def test_a_runtime_warn_outranks_a_traceback_cut_before_its_exception_line(tmp_path):
    # a WARN no rule places (a CUDA call inside NCCL refused), then the traceback it raised
    warn = "node-a:3301:3377 [1] misc/strongstream.cc:395 NCCL WARN Cuda failure 'operation not permitted when stream is capturing'\n"
    v = verdict(tmp_path / "cut", {"train.log": warn + _CUT_TRACEBACK})
    assert "NCCL WARN" in v.root_cause.evidence.text
    # a traceback that says what failed stays the error that outranks the WARN above it
    whole = warn + _CUT_TRACEBACK + "RuntimeError: unknown optimizer 'adamw_8bitx'\n"
    v = verdict(tmp_path / "whole", {"train.log": whole})
    assert "unknown optimizer" in v.root_cause.evidence.text


def _closed_by_peer(rank: int, port: int) -> str:
    # gloo's report as torch 2.13 raises it (values new)
    return (f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/srv/fit/loop.py", line 77, in step\n'
            f"[rank{rank}]:     dist.all_reduce(grad)\n"
            f"[rank{rank}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
            f"Connection closed by peer [10.1.2.3]:{port}\n")


@pytest.mark.parametrize("quiet_has_lines", [True, False])
def test_the_one_rank_its_peers_lost_without_a_word_of_its_own_died_of_a_kill(tmp_path, quiet_has_lines):
    steps = "".join(f"step {s} loss 0.{90 - s}\n" for s in range(1, 6))
    files = {f"rank{r}.log": steps + _closed_by_peer(r, 40100 + r) for r in (0, 2, 3)}
    files["world.txt"] = "world_size=4\n"  # the job's own statement of its size: rank 1 may have no file
    if quiet_has_lines:
        files["rank1.log"] = steps
    v = verdict(tmp_path, files)
    assert v.initiating.rank == 1
    assert v.root_cause.category == "oom"


@pytest.mark.parametrize("head", [
    # the job's own logging format (no launcher prefix)
    "[2025-06-01 04:10:{s:02d},{ms:03d}][rank {r}/3][INFO] ",
    # a syslog / journald header before the record's own rank field
    "Jun 01 04:10:{s:02d} gpu-a3 trainer[{pid}]: <rank{r}> INFO ",
])
def test_ranks_named_by_their_records_rank_field_that_all_stop_short_were_stopped_from_outside(tmp_path, head):
    lines = []
    for step in range(1, 31):
        for r in (2, 0, 1):
            lines.append(head.format(s=step + 10, ms=100 + r, r=r, pid=4410 + r) + f"step {step}/300 "
                         f"loss 1.{50 - step:02d}")
    lines.append(head.format(s=41, ms=400, r=0, pid=4410) + "caught SIGTERM, exiting")
    v = verdict(tmp_path, {"console.log": "\n".join(lines) + "\n"})
    assert v.status == "failed" and v.initiating.kind == "external"


def test_every_rank_alike_cites_the_first_error_line_of_that_failure(tmp_path):
    # the job's records name both ranks; DataLoader workers die of EMFILE first (unprefixed
    # tracebacks), then the main process raises the descriptor error the verdict places
    head = "".join(f"2025-04-01 11:00:0{r},100 [rank {r}] INFO fit: ulimit -n 64, sharing file_descriptor\n"
                   for r in (1, 0))
    worker = ("Traceback (most recent call last):\n"
              '  File "/opt/py/lib/python3.11/multiprocessing/resource_sharer.py", line 142, in _serve\n'
              "    conn, = self._listener.accept()\n"
              "OSError: [Errno 24] Too many open files\n")
    main = ("[rank0]: Traceback (most recent call last):\n"
            '[rank0]:   File "/opt/py/lib/python3.11/multiprocessing/reduction.py", line 164, in recvfds\n'
            "[rank0]:     raise RuntimeError('received %d items of ancdata' %\n"
            "[rank0]: RuntimeError: received 0 items of ancdata\n")
    v = verdict(tmp_path, {"console.log": head + worker * 3 + main})
    assert v.root_cause.category == "config_error" and v.initiating.all_ranks
    assert "Too many open files" in v.first_deviating.text


def _wd(rank: int, seq: int, op: str, numel: int, prefix: bool) -> str:
    # torch 2.x's watchdog report (values new)
    head = f"[rank{rank}]:" if prefix else ""
    return (f"{head}[E0401 07:15:{10 + rank:02d}.120433 ProcessGroupNCCL.cpp:616] [Rank {rank}] Watchdog caught "
            f"collective operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={numel}, NumelOut={numel}, "
            f"Timeout(ms)=600000) ran for 600{rank}31 milliseconds before timing out.\n")


@pytest.mark.parametrize("prefix", [True, False])
def test_watchdog_reports_of_different_collectives_are_a_mismatch(tmp_path, prefix):
    text = "".join(_wd(r, 2207, "ALLREDUCE", 8_388_608 if r != 2 else 8_126_464, prefix) for r in (0, 1, 2, 3))
    v = verdict(tmp_path, {"console.log": text})
    assert v.root_cause.category == "collective_mismatch"
    # with launcher prefixes the odd rank is named; a paste of group ranks names none
    assert v.initiating.rank == (2 if prefix else None)
    # the same collective everywhere is a plain timeout
    same = "".join(_wd(r, 2207, "ALLREDUCE", 8_388_608, prefix) for r in (0, 1, 3))
    assert verdict(tmp_path / "same", {"console.log": same}).root_cause.category == "nccl_timeout_hang"


# ---- the ranks a paste without launcher prefixes names in its watchdog reports ------------

@pytest.mark.parametrize("fmt", [
    "[E ProcessGroupNCCL.cpp:{src}] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, "
    "OpType=ALLGATHER, Timeout(ms)=600000) ran for {ran} milliseconds before timing out.",
    "[E{md} 03:12:{ss}.{us} ProcessGroupNCCL.cpp:{src}] [PG ID 0 PG GUID 0(default_pg) Rank {r}] Watchdog caught "
    "collective operation timeout: WorkNCCL(SeqNum={seq}, OpType=ALLGATHER, NumelIn=96, NumelOut=384, "
    "Timeout(ms)=600000) ran for {ran} milliseconds before timing out.",
])
def test_unprefixed_watchdog_reports_list_the_ranks_they_name_as_collateral(tmp_path, fmt):
    ranks = (6, 2, 5)
    text = "".join(fmt.format(src=1133, r=r, seq=4411, ran=600120 + 7 * r, md="0407", ss=10 + r, us=100200 + r) + "\n"
                   for r in ranks)
    v = verdict(tmp_path, {"paste.txt": text})
    assert v.status == "failed" and v.root_cause.category == "nccl_timeout_hang"
    named = {r for c in v.collateral for r in c.ranks}
    assert set(ranks) - ({v.initiating.rank} if v.initiating.rank is not None else set()) <= named
    assert named <= set(ranks)


def test_reports_of_two_ranks_that_are_the_same_rank_of_their_group_are_not_compared(tmp_path):
    # global ranks 9 and 11 each rank 1 of its group: two groups, whose sequence numbers
    # say nothing of each other (NVIDIA/nccl#1610's shape, values new)
    def report(rank: int, seq: int, op: str) -> str:
        return (f"[rank{rank}]:[E0711 02:41:{rank:02d}.5501 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective "
                f"operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn=64, NumelOut=64, "
                "Timeout(ms)=300000) ran for 300088 milliseconds before timing out.\n")
    v = verdict(tmp_path / "two", {"console.log": report(9, 1408, "ALLTOALL_BASE") + report(11, 93, "ALLREDUCE")})
    assert v.root_cause.category == "nccl_timeout_hang" and v.initiating.rank is None
    # the same two ranks as ranks 0 and 1 of one group do disagree
    one = (report(9, 1408, "ALLTOALL_BASE").replace("[Rank 1]", "[Rank 0]")
           + report(11, 93, "ALLREDUCE"))
    assert verdict(tmp_path / "one", {"console.log": one}).root_cause.category == "collective_mismatch"


# ---- Ray Train's driver reports each worker's error under a rank header ------------------

def _ray_driver(header: str, exc: str) -> str:
    # the shape of Ray Train 2.x's WorkerGroupError on the driver's console (values new); Ray
    # colours its actor prefixes when the console was a terminal
    return (
        "2026-11-30 09:12:41,118\tINFO worker.py:1927 -- Started a local Ray instance.\n"
        "\x1b[36m(RayTrainWorker pid=48211)\x1b[0m Setting up process group for: env:// [rank=0, world_size=4]\n"
        "\x1b[36m(RayTrainWorker pid=48213)\x1b[0m epoch 0 step 10 loss 2.113\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/jobs/finetune/launch.py", line 88, in <module>\n'
        "    result = trainer.fit()\n"
        '  File "/opt/venv/lib/python3.11/site-packages/ray/train/v2/api/data_parallel_trainer.py", line 195, in fit\n'
        "    raise result.error\n"
        "ray.train.WorkerGroupError: Training failed due to worker errors:\n"
        f"{header}\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/jobs/finetune/train_loop.py", line 131, in train_func\n'
        "    batch = next(it)\n"
        '  File "/srv/jobs/finetune/data.py", line 57, in __getitem__\n'
        "    raise ValueError(msg)\n"
        f"{exc}\n"
    )


def test_a_ray_worker_error_header_names_the_rank_of_the_error_below_it(tmp_path):
    exc = "ValueError: shard 00017.parquet: column 'input_ids' has 3 rows, expected 4096"
    v = verdict(tmp_path / "one", {"driver.log": _ray_driver("[Rank 3 Error Snippet]:", exc)})
    assert v.status == "failed" and v.initiating.rank == 3
    assert "shard 00017" in v.root_cause.evidence.text or "Rank 3" in v.root_cause.evidence.text
    # the driver's own lines are not rank 3's: its console is the launcher's
    out = tmp_path / "t.parquet"
    ingest(tmp_path / "one" / "job", out_parquet=out, options=QUIET)
    ranks = {r["line_no"]: r["rank"] for r in pq.read_table(out, columns=["line_no", "rank"]).to_pylist()}
    assert ranks[1] is None and ranks[3] != 3
    # two ranks alike share one header: no one rank is named from it
    both = verdict(tmp_path / "both", {"driver.log": _ray_driver("[Rank 0,3 Error Snippet]:", exc)})
    assert both.initiating.rank != 3


def test_terminal_colours_do_not_hide_a_prefix(tmp_path):
    text = ("\x1b[36m(RayTrainWorker pid=48213)\x1b[0m Traceback (most recent call last):\n"
            '\x1b[36m(RayTrainWorker pid=48213)\x1b[0m   File "/srv/jobs/t.py", line 9, in f\n'
            "\x1b[36m(RayTrainWorker pid=48213)\x1b[0m     open(p)\n"
            "\x1b[36m(RayTrainWorker pid=48213)\x1b[0m FileNotFoundError: [Errno 2] No such file or directory: "
            "'/data/shard-7.bin'\n")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed"
    assert "\x1b" not in v.root_cause.evidence.text and "(RayTrainWorker" not in v.root_cause.evidence.text


def test_the_launcher_names_the_rank_of_an_unranked_error_no_rule_places(tmp_path):
    # accelerate's notebook_launcher (elastic_launch, fork): the child's traceback reaches the
    # console without a rank; the agent's table names the one rank that failed (values new)
    console = (
        "[W1206 04:10:02.000000000 socket.cpp:207] [c10d] The hostname of the client socket cannot be retrieved. err=-3\n"
        "W1206 04:10:05.101000 5120 torch/multiprocessing/spawn.py:165] Terminating process 5131 via signal SIGTERM\n"
        "E1206 04:10:05.130000 5120 torch/distributed/elastic/multiprocessing/api.py:836] failed (exitcode: 1) "
        "local_rank: 2 (pid: 5133) of fn: main (start_method: fork)\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/nb/run.py", line 40, in <module>\n'
        "    notebook_launcher(main, num_processes=3)\n"
        '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 383, in launch_agent\n'
        "    raise ChildFailedError(\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
        "============================================================\n"
        "main FAILED\n"
        "------------------------------------------------------------\n"
        "Failures:\n"
        "  <NO_OTHER_FAILURES>\n"
        "------------------------------------------------------------\n"
        "Root Cause (first observed failure):\n"
        "[0]:\n"
        "  time      : 2026-12-06_04:10:05\n"
        "  host      : localhost\n"
        "  rank      : 2 (local_rank: 2)\n"
        "  exitcode  : 1 (pid: 5133)\n"
        "  error_file: /tmp/torchelastic_x/none_y/attempt_0/2/error.json\n"
        "  traceback : Traceback (most recent call last):\n"
        '    File "/srv/nb/run.py", line 22, in main\n'
        "      table = read_label_table(path)\n"
        '    File "/srv/nb/run.py", line 11, in read_label_table\n'
        "      ids.append(int(cols[0]))\n"
        "  ValueError: invalid literal for int() with base 10: 'label'\n"
        "  \n"
        "============================================================\n"
    )
    v = verdict(tmp_path, {"console.log": console})
    assert v.status == "failed"
    assert v.initiating.rank == 2 and not v.initiating.all_ranks
    assert v.root_cause.category == "data_error"


def test_a_torch_log_record_with_its_header_on_every_line_is_one_record(tmp_path):
    # the elastic agent (fork start method) logs a child's traceback through torch's logger,
    # which repeats its header on every line of the message (torch 2.13's format; values new)
    head = "E0302 07:41:09.512000 8812 torch/distributed/elastic/multiprocessing/api.py:836] "
    body = [
        "failed (exitcode: 1) local_rank: 0 (pid: 8820) of fn: worker (start_method: fork)",
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 211, in join',
        "    raise ProcessRaisedException(msg, error_index, failed_process.pid)",
        "torch.multiprocessing.spawn.ProcessRaisedException: ",
        "",
        "-- Process 3 terminated with the following error:",
        "Traceback (most recent call last):",
        '  File "/srv/exp/fit.py", line 77, in worker',
        "    loss = F.nll_loss(logp, target)",
        "IndexError: Target 12 is out of bounds.",
        "",
    ]
    v = verdict(tmp_path, {"console.log": "".join(head + b + "\n" for b in body)})
    assert v.status == "failed"
    assert v.initiating.rank == 3
    assert "Target 12" in v.root_cause.evidence.text and head not in v.root_cause.evidence.text


def test_among_echoes_a_traceback_cut_before_its_exception_names_no_culprit(tmp_path):
    # a peer's lost-connection report, then another rank's traceback the paste cut short
    # (values and paths new; the shape of NVIDIA/nccl#1928 and OpenNMT-tf#985)
    echo = ("[rank5]: torch.distributed.DistBackendError: NCCL error in: /opt/torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:3690, remote process exited or there was a network error, NCCL version 2.27.3\n"
            "[rank5]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting "
            "prematurely.\n")
    cut = ("[rank1]: Traceback (most recent call last):\n"
           '[rank1]:   File "/srv/bench/sweep.py", line 140, in <module>\n'
           "[rank1]:     run_all(cfg)\n"
           '[rank1]:   File "/srv/bench/sweep.py", line 118, in run_all\n'
           "[rank1]:     out = step(model, batch)\n")
    v = verdict(tmp_path / "cut", {"train.log": echo + cut})
    assert v.status == "failed" and v.initiating.rank is None and v.initiating.kind == "unknown"
    # the same traceback with its exception line does name its rank
    whole = cut + "[rank1]: IndexError: index 77 is out of bounds for dimension 0 with size 64\n"
    assert verdict(tmp_path / "whole", {"train.log": echo + whole}).initiating.rank == 1


# ---- the one rank missing from its peers' timeout reports is the one they waited for ------

_WATCHDOG_FORMATS = [
    # an old release's group-less report
    "[E ProcessGroupNCCL.cpp:{src}] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, "
    "OpType=BROADCAST, NumelIn=12, NumelOut=12, Timeout(ms)=900000) ran for {ran} milliseconds before timing out.",
    # torch 2.4+'s, default group, under a launcher prefix
    "[rank{r}]:[E{md} 11:02:{ss}.{us} ProcessGroupNCCL.cpp:{src}] [PG ID 0 PG GUID 0(default_pg) Rank {r}] Watchdog "
    "caught collective operation timeout: WorkNCCL(SeqNum={seq}, OpType=BROADCAST, NumelIn=12, NumelOut=12, "
    "Timeout(ms)=900000) ran for {ran} milliseconds before timing out.",
]


def _reports(fmt: str, ranks, seq: int = 88) -> str:
    return "".join(fmt.format(src=1480, r=r, seq=seq, ran=900210 + 3 * r, md="0930", ss=20 + r, us=400100 + r) + "\n"
                   for r in ranks)


@pytest.mark.parametrize("fmt", _WATCHDOG_FORMATS)
@pytest.mark.parametrize(("reporting", "missing"), [((3, 1, 2), 0), ((0, 1, 2, 4, 5), 3), ((2, 0), 1)])
def test_the_rank_missing_from_the_timeout_reports_is_the_one_they_waited_for(tmp_path, fmt, reporting, missing):
    v = verdict(tmp_path, {"console.log": "Loading shards: 100%|##########| 4/4\n" + _reports(fmt, reporting)})
    assert v.status == "failed" and v.root_cause.category == "nccl_timeout_hang"
    # a suspect from absence alone: named, at a suspect's confidence, and said so
    assert v.initiating.kind == "rank" and v.initiating.rank == missing and v.initiating.confidence <= 0.5
    assert v.root_cause.title.startswith("Suspect") and f"rank {missing} reports none" in v.root_cause.explanation
    assert {r for c in v.collateral for r in c.ranks} == set(reporting)


@pytest.mark.parametrize("case", ["top_gap", "two_missing", "sub_group", "one_report"])
def test_a_missing_reporter_is_not_guessed_where_the_reports_do_not_pin_it(tmp_path, case):
    fmt = _WATCHDOG_FORMATS[0]
    text = {
        "top_gap": _reports(fmt, (0, 1, 2)),  # a world of 3, or rank 3 missing: not said
        "two_missing": _reports(fmt, (0, 3, 4)),
        "sub_group": _reports(fmt, (1, 2, 3)).replace("[Rank", "[PG ID 4 PG GUID 17 Rank"),
        "one_report": _reports(fmt, (1,)),
    }[case]
    v = verdict(tmp_path, {"console.log": text})
    assert v.root_cause.category == "nccl_timeout_hang"
    assert not v.root_cause.title.startswith("Suspect")


def test_a_stated_world_size_makes_a_gap_at_the_top_a_missing_rank(tmp_path):
    head = "2026-09-30 11:01:58,402 INFO launcher: starting: world_size=4\n"
    v = verdict(tmp_path, {"console.log": head + _reports(_WATCHDOG_FORMATS[0], (0, 1, 2))})
    assert "rank 3 reports none" in v.root_cause.explanation
    # a fifth rank the job shows (here its own line) makes two missing: no suspect
    five = head.replace("=4", "=5") + _reports(_WATCHDOG_FORMATS[0], (0, 1, 2))
    assert not verdict(tmp_path / "five", {"console.log": five}).root_cause.title.startswith("Suspect")


# ---- a node the cluster lost is that node's failure, whoever printed the news -------------

def _actor_died(ip: str, cause: str, fields_before_ip: tuple[str, ...] = ("pid: 5120",)) -> str:
    # Ray's ActorDiedError (python/ray/exceptions.py), values new
    fields = "".join(f"\t{f}\n" for f in ("class_name: RayTrainWorker", "actor_id: 5be1c0ffee0123456789abcd01000000",
                                             *fields_before_ip))
    return ("Traceback (most recent call last):\n"
            '  File "/opt/venv/lib/python3.11/site-packages/ray/train/_internal/utils.py", line 57, in check_for_failure\n'
            "    ray.get(object_ref)\n"
            "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
            f"{fields}\tip: {ip}\n{cause}\n")


@pytest.mark.parametrize("ip", ["10.2.0.77", "172.16.9.4"])
@pytest.mark.parametrize("before", [("pid: 5120",), ("pid: 88", "name: trainer", "namespace: 4c1a-77")])
def test_a_ray_actor_whose_node_died_blames_that_node(tmp_path, ip, before):
    text = ("2026-03-02 10:14:07,118\tINFO trainer.py:112 -- step 140 loss 2.31\n"
            + _actor_died(ip, "The actor is dead because its node has died. Node Id: 8e0c1d", before))
    v = verdict(tmp_path, {"driver.log": text})
    assert v.status == "failed" and v.initiating.node == ip and v.initiating.rank is None
    assert "its node has died" in v.first_deviating.text


def test_a_ray_actor_whose_own_process_died_blames_no_node(tmp_path):
    text = _actor_died("10.2.0.77", "The actor is dead because its worker process has died. Worker exit type: "
                                    "SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2.")
    v = verdict(tmp_path, {"driver.log": text})
    assert v.initiating is None or v.initiating.node != "10.2.0.77"


@pytest.mark.parametrize("addr", ["and ip: 10.9.1.5", "and address: 10.9.1.5 and node name: 10.9.1.5"])
def test_a_node_the_gcs_marked_dead_is_named(tmp_path, addr):
    line = (f"2026-03-02 10:20:41,902\tWARNING worker.py:2037 -- The node with node id: 31ab9c0e7d {addr} has been "
            "marked dead because the detector has missed too many heartbeats from it. This can happen when a "
            "raylet crashes unexpectedly or has lagging heartbeats.\n")
    v = verdict(tmp_path, {"driver.log": "2026-03-02 10:19:58,004\tINFO trainer.py:112 -- step 12 loss 3.02\n" + line})
    assert v.status == "failed" and v.initiating.node == "10.9.1.5"


def test_the_fields_of_a_ray_exception_and_its_cause_are_one_event(tmp_path):
    job = write_job(tmp_path / "job", {"driver.log": _actor_died("10.2.0.77", "The actor is dead because its node has died.")
                                       + "2026-03-02 10:21:00,000\tINFO other.py:1 -- after\n"})
    ingest(job, out_parquet=tmp_path / "t.parquet", options=QUIET)
    t = pq.read_table(tmp_path / "t.parquet").to_pylist()
    died = [e for e in t if e["kind"] == "ray.actor_died"]
    assert len(died) == 1 and died[0]["message"].rstrip().endswith("its node has died.")
    assert any(e["message"].endswith("-- after") for e in t)


# ---- NCCL's error chain alone (no WARN) is the failure's evidence -------------------------

def _chain(host: str, pid: int, dev: int, prefix: str = "") -> str:
    frames = ("misc/socket.cc:512 -> 2 (Connection refused)", "misc/socket.cc:577 -> 2", "bootstrap.cc:281 -> 2",
              "init.cc:1502 -> 2", "group.cc:66 -> 2 [Async thread]")
    return "".join(f"{prefix}{host}:{pid}:{pid + 61} [{dev}] NCCL INFO {f}\n" for f in frames)


@pytest.mark.parametrize("prefix", ["", "[1,3]<stdout>:"])
def test_an_nccl_error_chain_without_a_warn_is_a_network_failure(tmp_path, prefix):
    head = f"{prefix}gpu-c07:7102:7102 [0] NCCL INFO Bootstrap : Using eth0:10.40.2.7<0>\n"
    v = verdict(tmp_path, {"train.log": head + _chain("gpu-c07", 7102, 0, prefix) + _chain("gpu-c07", 7105, 3, prefix)})
    assert v.status == "failed" and v.root_cause.category == "nccl_network"
    assert "socket.cc:512 -> 2" in v.first_deviating.text


@pytest.mark.parametrize("warn", [
    "gpu-c07:7102:7163 [0] NCCL WARN Bootstrap : no socket interface found",
    # a WARN another source's pattern names (a reset connection reads as c10d's too)
    "gpu-c07:7102:7163 [0] include/socket.h:421 NCCL WARN Call to recv failed : Connection reset by peer",
])
def test_a_warn_above_the_chain_says_more_than_the_chain(tmp_path, warn):
    v = verdict(tmp_path, {"train.log": warn + "\n" + _chain("gpu-c07", 7102, 0)})
    assert v.root_cause.rule_id != "nccl-transport-error-chain"
    assert "NCCL WARN" in v.first_deviating.text


# ---- a line every peer prints alike, and one rank with other values: where it deviated -----

def _rank_file(rank: int, odd: int, setup: str, odd_setup: str, world: int) -> str:
    lines = [f"2026-04-11 09:12:0{rank},5{rank}1 [worker] rank={rank} joined world of {world} (pid {3100 + rank})",
             f"2026-04-11 09:12:05,00{rank} [worker] rank={rank} num_workers=0 prefetch=2",
             f"2026-04-11 09:12:06,10{rank} [worker] rank={rank} step 1 loss 2.{40 + rank}",
             f"2026-04-11 09:12:07,20{rank} [worker] rank={rank} " + (odd_setup if rank == odd else setup)]
    return "\n".join(lines) + "\n"


_GLOO_ABORT = ("terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
               "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:456] "
               "op.preamble.length <= op.nbytes. 24 vs 20. Received data size doesn't match expected size. "
               "Is there a distributed collective mismatch in your code?\n")


@pytest.mark.parametrize(("world", "odd"), [(3, 2), (4, 1), (5, 0)])
@pytest.mark.parametrize(("setup", "odd_setup"), [
    ("bucketing labels into 6 bins", "bucketing labels into 7 bins"),
    ("restored shard_{r}.bin (8841 bytes)", "restored shard_{r}.bin (0 bytes)"),
])
def test_the_rank_whose_values_differ_from_every_peer_is_the_mismatched_one(tmp_path, world, odd, setup, odd_setup):
    files = {f"logs/rank{r}.log": _rank_file(r, odd, setup.format(r=r), odd_setup.format(r=r), world)
             for r in range(world)}
    files["console.log"] = _GLOO_ABORT
    v = verdict(tmp_path, files)
    assert v.root_cause.category == "collective_mismatch"
    assert v.initiating.rank == odd
    assert odd_setup.format(r=odd) in v.first_deviating.text


def test_values_that_differ_on_every_rank_name_no_odd_one(tmp_path):
    files = {f"logs/rank{r}.log": _rank_file(r, -1, f"loaded {700 + 13 * r} samples", "", 4) for r in range(4)}
    files["console.log"] = _GLOO_ABORT
    v = verdict(tmp_path, files)
    assert v.root_cause.category == "collective_mismatch"
    assert "samples" not in (v.first_deviating.text if v.first_deviating else "")


# ---- 1 again: launchers', schedulers' and transports' own error lines --------------------

@pytest.mark.parametrize(("text", "node"), [
    # Open MPI's help message, the node on its own line (unindented, as kubectl exec prints it)
    ("command terminated with exit code 137\n" + "-" * 74 + "\nORTE has lost communication with a remote daemon.\n\n"
     "HNP daemon : [[5120,0],0] on node trainer-launcher-0\nRemote daemon: [[5120,0],2] on node trainer-worker-1\n\n"
     "This is usually due to either a failure of the TCP network\n" + "-" * 74 + "\n", "trainer-worker-1"),
    # ... its other wording, the node indented under it
    (" " + "-" * 74 + "\n ORTE has lost communication with its daemon located on node:\n\n   hostname:  gpu-b07\n\n"
     " This is usually due to either a failure of the TCP network\n", "gpu-b07"),
    # a peer process gone, under mpirun's tags
    ("An MPI communication peer process has unexpectedly disconnected.  This\nusually indicates a failure in the "
     "peer process (e.g., a crash or\n\n  Local host: cn-0412\n  Local PID:  55102\n  Peer host:  cn-0415\n"
     + "-" * 74 + "\n", "cn-0415"),
])
def test_open_mpi_losing_a_node_blames_that_node(tmp_path, text, node):
    v = verdict(tmp_path, {"mpirun.log": text})
    assert v.status == "failed" and v.initiating.node == node and not v.initiating.all_ranks


@pytest.mark.parametrize("prefix", ["", "[1,2]<stderr>:", "3: "])
@pytest.mark.parametrize("error", ["unrecognized arguments: --local-rank=2",
                                   "the following arguments are required: --train-file"])
def test_an_argparse_usage_error_is_the_jobs_configuration(tmp_path, prefix, error):
    text = (f"{prefix}usage: finetune_lm.py [-h] [--train-file TRAIN_FILE] [--epochs EPOCHS]\n"
            f"{prefix}finetune_lm.py: error: {error}\n")
    v = verdict(tmp_path, {"launcher.log": text * 2})
    assert v.status == "failed" and v.root_cause.category == "config_error" and v.initiating.all_ranks
    assert "error:" in v.first_deviating.text


def test_a_ucx_infiniband_completion_error_is_a_network_failure(tmp_path):
    line = ("[gpu-n21:40211:0:40211] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_3:1/IB "
            "(synd 0x15 vend 0x81 hw_synd 0/0)\n")
    v = verdict(tmp_path, {"job.out": "MPI startup(): Imported environment\n" + line})
    assert v.status == "failed" and v.root_cause.category == "nccl_network"


@pytest.mark.parametrize("line", [
    "enroot-switchroot: failed to execute: /usr/bin/env: No such file or directory",
    "slurmstepd: error: pyxis: container start failed with error code: 1",
])
def test_a_container_that_cannot_start_is_the_jobs_configuration(tmp_path, line):
    v = verdict(tmp_path, {"slurm-881.out": f"pyxis: importing docker image: nvcr.io#nvidia/pytorch:24.05-py3\n{line}\n"})
    assert v.status == "failed" and v.root_cause.category == "config_error"


def test_submitit_running_out_of_its_time_limit_stopped_the_job_from_outside(tmp_path):
    log = ("2026-02-11 10:00:03,001 INFO [rank 1] train: step 40 loss 0.91\n"
           "submitit INFO (2026-02-11 10:05:00,112) - Job has timed out. Ran 5 minutes out of requested 5 minutes.\n"
           "submitit WARNING (2026-02-11 10:05:00,113) - Caught signal SIGUSR2 on gpu-3: this job is timed-out.\n")
    v = verdict(tmp_path, {"12345_0_log.err": log})
    assert v.status == "failed" and v.root_cause.category == "killed_by_scheduler" and v.initiating.kind == "external"


@pytest.mark.parametrize("summary", ["# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 41.2077 \n#\n"])
def test_nccl_tests_ending_with_no_wrong_value_is_a_healthy_end(tmp_path, summary):
    rows = "".join(f"   {1 << k:>10}   {1 << (k - 2):>10}     float     sum      -1   {k * 10.5:.1f}   1.00   1.00      0"
                   f"   {k * 10.4:.1f}   1.00   1.00      0\n" for k in range(10, 14))
    v = verdict(tmp_path, {"all_reduce_perf.log": "#  Rank  0 Group  0 Pid  4401 on node-a device  0 [0x1b] NVIDIA H100\n"
                                                  + rows + summary})
    assert v.status == "healthy"
    assert verdict(tmp_path / "bad", {"all_reduce_perf.log": rows + summary.replace("0 OK", "7 FAILED")}).status != "healthy"


@pytest.mark.parametrize("exc", ["RuntimeError", "torch.AcceleratorError"])
def test_an_invalid_device_ordinal_is_the_launch_configuration(tmp_path, exc):
    text = ("Traceback (most recent call last):\n  File \"/opt/job/main.py\", line 12, in <module>\n"
            "    torch.cuda.set_device(rank)\n"
            f"{exc}: CUDA error: invalid device ordinal\n")
    v = verdict(tmp_path, {"err.log": text})
    # the processes past the node's GPU count fail, not every rank
    assert v.root_cause.category == "config_error" and not v.initiating.all_ranks


@pytest.mark.parametrize("mod", ["numpy.core._exceptions", "numpy._core._exceptions"])
def test_numpys_own_memory_error_is_memory(tmp_path, mod):
    text = ("Traceback (most recent call last):\n  File \"/srv/job/sim.py\", line 40, in build\n"
            "    m = np.zeros((n, n), dtype=np.float32)\n"
            f"{mod}._ArrayMemoryError: Unable to allocate 745. GiB for an array with shape (447000, 447000) "
            "and data type float32\n")
    assert verdict(tmp_path, {"rank1.log": text}).root_cause.category == "oom"


# ---- session 23: causes of rounds D-F's remaining misses, on text they were not written from

def _ranked_console(rank_lines: dict[int, list[str]], tail: list[str]) -> str:
    """A console the ranks share (``tee -a``): their lines interleaved step by step, then ``tail``."""
    out = []
    depth = max(len(v) for v in rank_lines.values())
    for i in range(depth):
        for r, lines in sorted(rank_lines.items()):
            if i < len(lines):
                out.append(f"2027-03-02T11:04:{10 + i:02d}.{r}00 rank{r}/4 INFO job: {lines[i]}")
    return "\n".join(out + tail) + "\n"


@pytest.mark.parametrize("abort", ["double free or corruption (!prev)", "munmap_chunk(): invalid pointer",
                                   "malloc(): corrupted top size", "*** stack smashing detected ***: terminated"])
def test_the_c_librarys_abort_line_is_the_failure_of_the_rank_whose_output_stops_there(tmp_path, abort):
    steps = [f"iter {i} loss {1.5 - i / 10:.3f}" for i in range(4)]
    lines = {r: list(steps) for r in range(4)}
    lines[2] = [*steps[:2], "decoding batch with native resampler"]
    tail = [abort] + [
        f"[rank{r}]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
        f"[10.1.0.7]:{31000 + r}" for r in (0, 1, 3)]
    v = verdict(tmp_path, {"train.log": _ranked_console(lines, tail)})
    assert v.status == "failed" and v.root_cause.category == "other"
    assert v.root_cause.rule_id == "native-heap-corruption"
    assert v.initiating.kind == "rank" and v.initiating.rank == 2


def test_an_abort_line_below_the_peers_reports_names_nobody(tmp_path):
    """Printed after the peers had already reported losing rank 2: not known to be rank 2's."""
    steps = [f"iter {i} loss 0.5" for i in range(4)]
    lines = {r: list(steps) for r in range(4)}
    lines[2] = steps[:2]
    tail = [f"[rank{r}]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by "
            f"peer [10.1.0.7]:{31000 + r}" for r in (0, 1, 3)] + ["free(): invalid pointer"]
    v = verdict(tmp_path, {"train.log": _ranked_console(lines, tail)})
    assert v.root_cause.rule_id == "native-heap-corruption" and v.initiating.rank != 2


@pytest.mark.parametrize("indent", ["", "  ", "        "])
def test_lines_behind_an_exception_groups_bar_are_read_as_their_own(tmp_path, indent):
    text = "".join(f"{indent}| {line}\n" for line in [
        "[rank3]: Traceback (most recent call last):",
        '[rank3]:   File "/opt/svc/pipeline/reader.py", line 88, in __getitem__',
        "[rank3]:     blob = open(self.items[i], 'rb').read()",
        "[rank3]: FileNotFoundError: [Errno 2] No such file or directory: '/mnt/shards/part-00417.bin'",
    ])
    v = verdict(tmp_path, {"summary.txt": text})
    assert v.initiating.rank == 3 and v.root_cause.category in ("data_error", "config_error")
    assert v.first_deviating is not None and "FileNotFoundError" in v.first_deviating.text


@pytest.mark.parametrize("message", [
    "Error locating target 'recipes.vision.build_webdataset_loader', set env var HYDRA_FULL_ERROR=1 to see chained "
    "exception.",
    "Could not override 'optim.lrr'.",
    "Missing mandatory value: data.train_manifest",
])
def test_hydras_compact_error_report_is_the_failure(tmp_path, message):
    text = (f"Error executing job with overrides: ['trainer.devices=8']\n{message}\nfull_key: data.train\n\n"
            "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n")
    v = verdict(tmp_path, {"launcher.log": text})
    assert v.status == "failed" and v.root_cause.category == "config_error"
    assert v.first_deviating is not None and v.first_deviating.text.startswith(message[:20])


@pytest.mark.parametrize("message", [
    "AssertionError: Rank 6: found NaN in local grad norm in backward pass. Device: 6, node: dgx-14",
    "RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be "
    "clipped.",
    "ValueError: training loss became inf at step 1200",
    "RuntimeError: loss_scale is too small (6.1e-05), exiting",
])
def test_an_exception_that_says_a_value_is_not_finite_is_divergence(message):
    c = classify_failure(f"Traceback (most recent call last):\n  File \"/w/train.py\", line 3, in step\n    x()\n{message}",
                         "during_training")
    assert c is not None and c.category == "nan_divergence"


@pytest.mark.parametrize("message", ["KeyError: 'inference'", "ValueError: found 4 unexpected keys in checkpoint",
                                     "RuntimeError: info is not available"])
def test_words_near_nan_or_inf_are_not_divergence(message):
    c = classify_failure(message, "during_training")
    assert c is None or c.category != "nan_divergence"


@pytest.mark.parametrize("warning", [
    "WARNING [trainer.py:880] (1/8) Grad scale is small: 3.05e-05",
    "WARNING [loop.py:212] found NaN in gradients of 3 parameters, skipping",
])
def test_a_traceback_cut_before_its_exception_takes_its_category_from_the_warning_above(tmp_path, warning):
    text = (f"2027-01-09 04:12:55,101 INFO [trainer.py:870] (1/8) epoch 3, batch 4400, loss 0.213\n"
            f"2027-01-09 04:13:01,554 {warning}\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/asr/train.py", line 1402, in <module>\n    main()\n'
            '  File "/srv/asr/train.py", line 1390, in main\n    mp.spawn(run, nprocs=8, join=True)\n')
    v = verdict(tmp_path, {"log-train.txt": text})
    assert v.status == "failed" and v.root_cause.category == "nan_divergence"
    assert v.first_deviating is not None and warning.split("] ", 1)[1][:20] in v.first_deviating.text


def test_a_cut_traceback_with_no_warning_above_stays_unplaced(tmp_path):
    text = ("2027-01-09 04:12:55,101 INFO [trainer.py:870] (1/8) epoch 3, batch 4400, loss 0.213\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/asr/train.py", line 1402, in <module>\n    main()\n')
    v = verdict(tmp_path, {"log-train.txt": text})
    assert v.root_cause.category != "nan_divergence"


@pytest.mark.parametrize("stamp", ["Mar  2 11:04:12", "Nov 30 23:59:59.125", "2027-03-02T11:04:12.5"])
def test_a_stamp_in_front_of_torchs_rank_prefix_keeps_the_rank(tmp_path, stamp):
    tb = ["Traceback (most recent call last):", '  File "/w/run.py", line 9, in <module>', "    load()",
          "AttributeError: Can't get attribute 'SamplerState' on <module 'data.state' from '/w/b/data/state.py'>"]
    text = "".join(f"{stamp} [rank3]: {line}\n" for line in tb)
    peer = (f"{stamp} [rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed "
            "by peer [10.0.0.3]:4410\n")
    v = verdict(tmp_path, {"rank3.out": text, "rank0.out": peer})
    # rank 0 only lost its peer: it ran what rank 3 failed at and passed, so the failure is rank 3's own
    assert v.initiating.kind == "rank" and v.initiating.rank == 3
    assert v.root_cause.category == "version_mismatch"


def test_a_signal_handlers_own_crash_is_the_run_being_stopped_from_outside():
    text = ("Traceback (most recent call last):\n"
            '  File "/opt/launch/agent.py", line 210, in wait_all\n    proc.wait()\n'
            '  File "/opt/launch/agent.py", line 77, in _sigterm_handler\n    os.killpg(pgid, sig)\n'
            "ProcessLookupError: [Errno 3] No such process\n")
    c = classify_failure(text, "during_training")
    assert c is not None and c.category == "killed_by_scheduler" and c.entry.external


def test_an_error_the_stream_completed_after_ends_nothing(tmp_path):
    log = "".join([
        "2027-02-01 09:00:00.100 [INFO] [worker-rank0] app - ready\n",
        "2027-02-01 09:00:00.200 [ERROR] [worker-rank0] app - cache disabled ([Errno 28] No space left on device: "
        "'/tmp/kcache/lock')\n",
        *[f"2027-02-01 09:00:0{1 + i}.000 [INFO] [worker-rank0] app - step {i + 1}/5 loss 0.{9 - i}\n" for i in range(5)],
        "2027-02-01 09:00:07.000 [INFO] [worker-rank0] app - training finished: 5 steps\n",
    ])
    v = verdict(tmp_path, {"console.log": log})
    assert v.status == "healthy"
    # the same error with no completion after it is the failure
    cut = log.split("2027-02-01 09:00:01")[0]
    assert verdict(tmp_path / "cut", {"console.log": cut}).status == "failed"


@pytest.mark.parametrize("text", [
    "subprocess.CalledProcessError: Command '['/venv/bin/python', '-u', 'pretrain.py', '--local_rank=5']' died with "
    "<Signals.SIGSEGV: 11>.",
    "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGFPE",
])
def test_a_child_that_died_of_its_own_fatal_signal_is_a_native_crash(text):
    c = classify_failure("Traceback (most recent call last):\n  File \"/x/launch.py\", line 9, in main\n    run()\n"
                         + text, "during_training")
    assert c is not None and c.category == "other"


@pytest.mark.parametrize("field", ["[ds-rank2]", "[worker_rank2]", "[rank2]"])
def test_a_named_rank_field_in_a_records_head_is_its_rank(tmp_path, field):
    log = "".join(f"2027-02-01 09:00:0{i}.100 [INFO] {field} app - step {i}/4 loss 0.{9 - i}\n" for i in range(1, 4))
    v = verdict(tmp_path, {"console.log": log + f"2027-02-01 09:00:05.000 [ERROR] {field} app - "
                                                   "ValueError: shard index 7 outside 0..6\n"})
    assert v.initiating.rank == 2


# ---- session 23, after round G's first sight: causes its misses showed, on other text

def _ddp_check(rank: int, own: int, peer: int, peer_count: int) -> str:
    return (f"[rank{rank}]: RuntimeError: DDP expects same model across all ranks, but Rank {rank} has {own} params, "
            f"while rank {peer} has inconsistent {peer_count} params.\n")


@pytest.mark.parametrize(("world", "odd"), [(3, 1), (4, 2), (5, 0)])
def test_the_rank_every_peers_ddp_check_names_is_the_odd_model(tmp_path, world, odd):
    files = {}
    for r in range(world):
        if r == odd:
            peer = 1 if odd == 0 else 0
            files[f"rank{r}.log"] = _ddp_check(r, 171, peer, 170)
        else:
            files[f"rank{r}.log"] = _ddp_check(r, 170, odd, 171)
    v = verdict(tmp_path, files)
    assert v.root_cause.category == "config_error" and v.initiating.kind == "rank" and v.initiating.rank == odd


def test_two_ranks_whose_ddp_checks_name_each_other_name_no_culprit(tmp_path):
    v = verdict(tmp_path, {"rank0.log": _ddp_check(0, 12, 1, 14), "rank1.log": _ddp_check(1, 14, 0, 12)})
    assert v.status == "failed" and v.root_cause.category == "config_error"
    assert v.initiating.kind == "unknown" and not v.initiating.all_ranks


@pytest.mark.parametrize("prefix", ["[{r}] ", "[{r}]<stderr>:", "[rank={r}] "])
def test_horovod_and_determined_rank_tags_name_the_rank(tmp_path, prefix):
    tb = ["Traceback (most recent call last):", '  File "/srv/fit.py", line 77, in <module>', "    fit()",
          "KeyError: 'label_smoothing'"]
    lines = [prefix.format(r=0) + "epoch 1 step 10 loss 0.51"] + [prefix.format(r=3) + t for t in tb]
    v = verdict(tmp_path, {"horovod.log": "\n".join(lines) + "\n"})
    assert v.initiating.rank == 3 or (v.initiating.all_ranks is False and v.root_cause.evidence.rank == 3)


def test_gnu_parallels_tag_is_peeled_off_and_the_records_rank_read(tmp_path):
    rows = []
    for step in range(3):
        for r in range(3):
            rows.append(f"{r} conf/run-{r}.yaml\t2027-01-05 10:00:0{step},{r}00 INFO [rank {r}] fit: step {step} loss 0.4")
    rows.append("2 conf/run-2.yaml\t2027-01-05 10:00:05,000 ERROR [rank 2] fit: failed")
    rows.append("2 conf/run-2.yaml\tTraceback (most recent call last):")
    rows.append('2 conf/run-2.yaml\t  File "/w/fit.py", line 9, in <module>')
    rows.append("2 conf/run-2.yaml\tValueError: shard 2 is empty")
    v = verdict(tmp_path, {"parallel.log": "\n".join(rows) + "\n"})
    assert v.initiating.rank == 2 and "shard 2 is empty" in v.root_cause.evidence.text


def test_a_tab_after_a_records_stamp_is_no_tag(tmp_path):
    line = "2023-01-17 17:21:35,509\tERROR trial_runner.py:980 -- Trial TorchTrainer_b13e7_00000: Error processing event.\n"
    ev = verdict(tmp_path, {"ray.log": line}).root_cause
    assert ev is not None and ev.evidence is not None and ev.evidence.ts is not None


@pytest.mark.parametrize("text", [
    "RuntimeError: Index 7 of input takes value 64001 which is not in the valid range [0, 64000)",
])
def test_an_embedding_bag_index_past_the_table_is_data(text):
    tb = ("Traceback (most recent call last):\n  File \"/env/torch/nn/functional.py\", line 2822, in embedding_bag\n"
          "    ret = torch.embedding_bag(\n" + text)
    c = classify_failure(tb, "during_training")
    assert c is not None and c.category == "data_error"


def test_an_error_raised_inside_torchruns_rendezvous_is_a_rendezvous_failure():
    tb = ("Traceback (most recent call last):\n"
          '  File "/py/site-packages/torch/distributed/elastic/rendezvous/dynamic_rendezvous.py", line 1122, in '
          "next_rendezvous\n    self._op_executor.run(join_op, deadline)\n"
          "socket.gaierror: [Errno -2] Name or service not known\n")
    c = classify_failure(tb, "before_training")
    assert c is not None and c.category == "rendezvous"


def test_ucx_s_own_error_line_is_a_network_failure(tmp_path):
    line = ("[1714000000.101] [gpu-07:4410:0]        sock.c:325  UCX  ERROR   connect(fd=41, dest_addr=10.9.0.3:40211) "
            "failed: No route to host\n")
    v = verdict(tmp_path, {"job.err": "starting workers\n" + line})
    assert v.status == "failed" and v.root_cause.category == "nccl_network"


def test_the_first_of_two_causes_a_rank_printed_together_wins():
    """A thread limit hit, then (in the same second, further down) the report of the worker that
    died of it: both say what failed; the one printed first is the cause."""
    from correlator.analysis.hypotheses import Hyp, score
    from correlator.verdict import Evidence

    def hyp(text: str, line_no: int) -> Hyp:
        c = classify_failure(text, "during_training")
        assert c is not None
        ev = Evidence(file="console.log", line_no=line_no, line_end=line_no, rank=2, node=None, ts=None,
                      ts_estimated=False, text=text)
        return Hyp(rule=None, category=c.category, rank=2, node=None, ts=1000.0, evidence=ev, base=1.0,
                   classification=c)

    first = hyp("RuntimeError: can't start new thread", 12)
    second = hyp("RuntimeError: unable to allocate shared memory(shm) for file </torch_9_1_0>: Resource temporarily "
                 "unavailable (11)", 30)
    hyps = [second, first]
    score(hyps, {}, [], 4)
    assert first.category != second.category and first.score > second.score
    # printed the other way round, the other one wins
    first.evidence.line_no, second.evidence.line_no = 30, 12
    score(hyps, {}, [], 4)
    assert second.score > first.score


def test_a_traceback_cut_on_one_rank_yields_to_one_that_says_what_failed(tmp_path):
    """An srun console: rank 1's part of its traceback begins at a caret line, rank 5's is
    cut before its exception line."""
    lines = [
        ' 5: [rank5]:   File "/opt/lib/trainer.py", line 46, in run',
        " 5: [rank5]:     return launch(fn)",
        " 1: [rank1]:                 ^^^^^^^^^^^^^",
        ' 1: [rank1]:   File "/opt/lib/blocks.py", line 110, in layers_per_stage',
        " 1: [rank1]:     assert n_layers % n_stages == 0",
        " 1: [rank1]: AssertionError: n_layers must be divisible by pipeline stages",
        " 5: [rank5]:            ^^^^^^^^^^",
    ]
    v = verdict(tmp_path, {"slurm-77.out": "\n".join(lines) + "\n"})
    assert v.root_cause.category == "config_error"
    assert "divisible" in v.root_cause.evidence.text


def test_torchruns_sigkill_report_takes_the_rank_ncll_printed_for_that_pid(tmp_path):
    nccl = "".join(f"box7:{5100 + r}:{5200 + r} [{r}] NCCL INFO comm 0x7f{r}0 rank {r} nranks 4 cudaDev {r} "
                   f"nvmlDev {r} busId {r + 1}000 commId 0x11 - Init COMPLETE\n" for r in range(4))
    agent = ("E0301 10:00:00.000000 140000 torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: -9) "
             "local_rank: 1 (pid: 5101) of binary: /usr/bin/python3\n")
    v = verdict(tmp_path, {"console.log": nccl + agent})
    assert v.initiating.rank == 1 and v.root_cause.category == "oom"


def test_torchs_lazy_device_check_is_an_invalid_device_too(tmp_path):
    text = ("[rank5]: torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with error: "
            "device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at \"../aten/src/ATen/cuda/CUDAContext.cpp\":50\n")
    assert verdict(tmp_path, {"err.log": text}).root_cause.category == "config_error"


@pytest.mark.parametrize("prefix", ["", "[rank3]: ", "5: "])
def test_a_dist_backend_errors_nccl_detail_lines_are_its_message(tmp_path, prefix):
    """ProcessGroupNCCL's message goes on over unindented lines: NCCL's result name and advice,
    "Last error:", NCCL's own text. One event, the exception's, whose first line is where it began."""
    text = "".join(prefix + line + "\n" for line in [
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3101, "
        "invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5",
        "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.",
        "Last error:",
        "Duplicate GPU detected : rank 3 and rank 1 both on CUDA device 41000",
    ])
    v = verdict(tmp_path, {"err.log": text})
    assert v.root_cause.rule_id == "nccl-duplicate-gpu" and v.root_cause.category == "config_error"
    # two processes on one GPU: the launch's configuration, every rank's
    assert v.initiating.all_ranks
    assert v.first_deviating is not None and v.first_deviating.line_no == 1


# ---- round I's causes (session 24) -----------------------------------------------------

def test_nccl_last_error_text_is_read_across_the_blank_lines_of_a_double_spaced_paste(tmp_path):
    """A paste that doubled every line break: the DistBackendError's "Last error:" and NCCL's
    text below it are still one message, and that text (not the result class) names the cause."""
    text = "\n\n".join([
        "[rank2]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.cpp:75, "
        "internal error - please report this issue to the NCCL developers, NCCL version 2.20.5",
        "[rank2]: ncclInternalError: Internal check failed.",
        "[rank2]: Last error:",
        "[rank2]: Bootstrap : no socket interface found",
    ]) + "\n"
    v = verdict(tmp_path, {"train.log": text})
    assert v.root_cause.rule_id == "nccl-bootstrap-no-interface" and v.root_cause.category == "config_error"
    assert v.first_deviating is not None and v.first_deviating.line_no == 1


def test_a_result_class_rule_takes_the_category_of_what_its_last_error_says(tmp_path):
    """NCCL's "unhandled system error" is a class of results; a shared-memory segment it could
    not create (its Last error) is the container's setting, not the network."""
    text = "".join(f"[rank{r}]: " + line + "\n" for r in (0, 1) for line in [
        "torch.distributed.DistBackendError: NCCL error in: /opt/torch/csrc/distributed/c10d/NCCLUtils.hpp:317, "
        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3",
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ",
        "Last error:",
        "Error while creating shared memory segment /dev/shm/nccl-Qx81aB (size 4194304), error: No space left on device (28)",
    ])
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and v.root_cause.category == "config_error"
    # set up alike by every rank, before training: every rank's failure
    assert v.initiating.all_ranks


def test_the_class_of_result_yields_only_to_a_reading_by_meaning(tmp_path):
    """Without a detail that places it, the rule's own category stands."""
    text = ("[rank1]: torch.distributed.DistBackendError: NCCL error in: /opt/torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n"
            "[rank1]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. \n")
    v = verdict(tmp_path, {"console.log": text})
    assert v.root_cause.rule_id == "nccl-unhandled-system-error" and v.root_cause.category == "nccl_network"


def test_a_role_less_tee_prefix_is_the_local_rank_and_a_failure_table_entry_is_not_one(tmp_path):
    lines = [
        "[0]:2026-03-01 10:00:01,100 INFO step 3 loss 1.22",
        "[1]:2026-03-01 10:00:01,101 INFO step 3 loss 1.19",
        "[1]:Traceback (most recent call last):",
        '[1]:  File "/srv/app/fit.py", line 30, in <module>',
        "[1]:    batch = next(it)",
        "[1]:ValueError: could not convert string to float: 'n/a'",
        "Root Cause (first observed failure):",
        "[1]:",
        "  time      : 2026-03-01_10:00:02",
    ]
    v = verdict(tmp_path, {"combined.log": "\n".join(lines) + "\n"})
    assert v.initiating.kind == "rank" and v.initiating.rank == 1
    out = tmp_path / "t.parquet"
    ingest(tmp_path / "job", out_parquet=out, options=QUIET)
    rows = pq.read_table(out, columns=["line_no", "message", "local_rank"]).to_pylist()
    heading = next(r for r in rows if r["line_no"] == 8)
    assert heading["message"].startswith("[1]:") and heading["local_rank"] is None
    # a log service that flattened the table's entry onto one line: still the table's, not rank 1's output
    flat = "  | 2026-03-01T10:00:02.000Z | [1]: time : 2026-03-01_10:00:02 host : algo-1 rank : 1 (local_rank: 1) exitcode : -6\n"
    write_job(tmp_path / "flat", {"console.log": flat})
    ingest(tmp_path / "flat", out_parquet=tmp_path / "f.parquet", options=QUIET)
    (row,) = pq.read_table(tmp_path / "f.parquet", columns=["message", "local_rank"]).to_pylist()
    assert "[1]: time" in row["message"] and row["local_rank"] is None


def test_a_shared_librarys_loader_error_is_failure_evidence_but_not_a_pdsh_host(tmp_path):
    lines = [
        "[0]:libcudnn_ops.so.9: cannot open shared object file: No such file or directory",
        "[1]:libcudnn_ops.so.9: cannot open shared object file: No such file or directory",
        "[0]:Traceback (most recent call last):",
        '[0]:  File "/srv/app/fit.py", line 3, in <module>',
        "[0]:    import fused_ops",
        "[0]:AttributeError: module 'fused_ops' has no attribute 'layer_norm'",
    ]
    v = verdict(tmp_path, {"console.log": "\n".join(lines) + "\n"})
    assert v.root_cause.rule_id == "shared-library-not-found" and v.root_cause.category == "version_mismatch"
    assert v.initiating.all_ranks
    # NCCL's optional plugin lookup says the same words inside an INFO line of a healthy start
    info = ("gpu-3:5120:5120 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared "
            "object file: No such file or directory : when loading libnccl-net.so\n")
    healthy = verdict(tmp_path / "h", {"rank0.log": info + "step 10 loss 0.5\ntraining complete\n"})
    assert healthy.root_cause is None


def test_the_processs_own_crash_line_comes_before_its_launchers_report(tmp_path):
    """faulthandler's "Fatal Python error" (no rank: the workers share a console) above torchrun's
    report of the same death naming the child's local rank."""
    lines = [
        *(f"box:{7001 + r}:{7001 + r} [{r}] NCCL INFO comm 0x5a{r} rank {r} nranks 2 cudaDev {r} busId {r + 1}000 "
          "commId 0x9 - Init COMPLETE" for r in (0, 1)),
        "[2026-03-01 10:00:00,100][rank0][INFO] - rank 0/2 pid 7001 on box",
        "[2026-03-01 10:00:00,101][rank1][INFO] - rank 1/2 pid 7002 on box",
        "[2026-03-01 10:00:00,300][rank0][INFO] - tokenizing 400 records",
        "Fatal Python error: Segmentation fault",
        "",
        "Current thread 0x00007f00aa000740 (most recent call first):",
        '  File "/srv/app/fit.py", line 26 in tokenize',
        "",
        "E0301 10:00:00.500000 7000 torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: -11) "
        "local_rank: 0 (pid: 7001) of binary: /usr/bin/python3",
    ]
    v = verdict(tmp_path, {"console.log": "\n".join(lines) + "\n"})
    assert v.initiating.rank == 0
    assert v.first_deviating is not None and v.first_deviating.line_no == 6


def test_a_node_that_cannot_reach_a_store_that_was_up_is_the_culprit_not_a_witness(tmp_path):
    a = ("[W301 10:00:00.000000000 socket.cpp:200] [c10d] waiting\n"
         "torch.distributed.DistStoreError: Timed out after 61 seconds waiting for clients. 1/2 clients joined.\n")
    b = ("[E301 10:00:40.000000000 socket.cpp:1028] [c10d] The client socket has timed out after 60000ms while "
         "trying to connect to (10.1.0.5, 29400).\n")
    v = verdict(tmp_path, {"host-a1/agent.log": a, "host-b1/agent.log": b})
    assert v.root_cause.category == "rendezvous"
    assert v.initiating.kind == "rank" and v.initiating.node == "host-b1"


def test_an_nccl_error_without_the_colon_after_in_is_read_as_one(tmp_path):
    """Some builds print "NCCL error in <file>:<line>, <result>" (no colon): the same error, its
    result class read, its last error too."""
    text = ("[rank4]: torch.distributed.DistBackendError: NCCL error in /build/torch/csrc/distributed/c10d/"
            "NCCLUtils.cpp:81, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.25.1\n"
            "[rank4]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. \n"
            "[rank4]: Last error:\n"
            "[rank4]: socketPollConnect poll() returned 1, no POLLOUT events\n")
    v = verdict(tmp_path, {"node-3.log": text})
    assert v.root_cause.rule_id == "nccl-unhandled-system-error" and v.root_cause.category == "nccl_network"


def test_the_culprits_own_earlier_line_of_the_same_failure_is_where_it_began(tmp_path):
    """The job's own ERROR record saying the loss went non-finite, right above the exception that
    stopped the rank: the record is the first deviating line, not the exception."""
    ok = "".join(f"2026-03-01 10:00:0{s},100 INFO    rank{r} fit.py:80] step {s} loss {1.5 - s / 10:.2f}\n"
                 for s in range(1, 6) for r in (0,))
    bad = ok.replace("rank0", "rank1") + (
        "2026-03-01 10:00:06,100 ERROR   rank1 fit.py:94] loss became inf at step 6 (batch of 32)\n"
        "2026-03-01 10:00:06,101 ERROR   rank1 fit.py:120] giving up on rank 1\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/fit.py", line 118, in main\n'
        "    check(loss)\n"
        '  File "/srv/app/fit.py", line 60, in check\n'
        '    raise FloatingPointError(f"loss is {v} at step {step}")\n'
        "FloatingPointError: loss is inf at step 6\n")
    peer = ok + ("2026-03-01 10:00:06,400 ERROR   rank0 fit.py:120] giving up on rank 0\n"
                 "Traceback (most recent call last):\n"
                 '  File "/srv/app/fit.py", line 118, in main\n'
                 "    loss.backward()\n"
                 "RuntimeError: [/opt/torch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by "
                 "peer [127.0.0.1]:4410\n")
    v = verdict(tmp_path, {"rank0.log": peer, "rank1.log": bad})
    assert v.initiating.rank == 1 and v.root_cause.category == "nan_divergence"
    assert v.first_deviating is not None and "loss became inf" in v.first_deviating.text


def test_the_earlier_line_is_taken_only_from_the_culprits_same_burst():
    """The choice itself: an agreeing hypothesis placed by meaning, of the culprit's rank, above the
    cited line and within seconds of it; not one of another rank, nor one long before."""
    from correlator.analysis.decide import _culprits_earlier_line_of_the_same_failure
    from correlator.analysis.hypotheses import Hyp
    from correlator.verdict import Evidence, FirstDeviating

    def hyp(text: str, line_no: int, rank: int | None, ts: float) -> Hyp:
        c = classify_failure(text, "during_training")
        assert c is not None and c.by_meaning
        ev = Evidence(file="r.log", line_no=line_no, line_end=line_no, rank=rank, node=None, ts=None,
                      ts_estimated=False, text=text)
        return Hyp(rule=None, category=c.category, rank=rank, node=None, ts=ts, evidence=ev, base=1.0,
                   classification=c)

    top = hyp("FloatingPointError: loss is nan at step 8", 40, 1, 1000.0)
    fd = FirstDeviating(file="r.log", line_no=40, line_end=45, rank=1, text="FloatingPointError: ...", why="cited")
    earlier = hyp("ERROR non-finite loss nan at epoch 0 step 8", 39, 1, 999.9)
    found = _culprits_earlier_line_of_the_same_failure(top, [top, earlier], 1, fd)
    assert found is not None and found["line_no"] == 39
    other_rank = hyp("ERROR non-finite loss nan at epoch 0 step 8", 39, 2, 999.9)
    assert _culprits_earlier_line_of_the_same_failure(top, [top, other_rank], 1, fd) is None
    long_before = hyp("ERROR non-finite loss nan at epoch 0 step 2", 12, 1, 900.0)
    assert _culprits_earlier_line_of_the_same_failure(top, [top, long_before], 1, fd) is None
    below = hyp("ERROR non-finite loss nan at epoch 0 step 8", 47, 1, 1000.1)
    assert _culprits_earlier_line_of_the_same_failure(top, [top, below], 1, fd) is None


def test_a_non_finite_loss_began_on_the_rank_whose_step_saw_it_first_not_on_the_raiser(tmp_path):
    """Rank 1's loss goes NaN at step 5, rank 0's at step 6 (the all-reduce spread it); rank 0's
    guard raises. Rank 1's clock runs 20 s ahead, so by the stamps its lines come last."""
    def line(t: float, r: int, step: int, loss: str) -> str:
        return f"2026-03-01 10:00:{t:06.3f} INFO [rank{r}] fit:88 - epoch 0 step {step} loss {loss}\n"

    r0 = "".join(line(1 + s * 0.5, 0, s, f"{2 - s / 10:.3f}") for s in range(1, 6))
    r0 += line(4.0, 0, 6, "nan") + line(4.5, 0, 7, "nan")
    r0 += ("2026-03-01 10:00:05.000 ERROR [rank0] fit:120 - stopping\n"
           "Traceback (most recent call last):\n"
           '  File "/srv/fit.py", line 118, in main\n'
           "    guard(loss)\n"
           "FloatingPointError: loss is nan at step 7\n")
    r1 = "".join(line(21 + s * 0.5, 1, s, f"{2 - s / 9:.3f}") for s in range(1, 5))
    r1 += line(23.5, 1, 5, "nan") + line(24.0, 1, 6, "nan") + line(24.5, 1, 7, "nan")
    v = verdict(tmp_path, {"rank0.log": r0, "rank1.log": r1})
    assert v.root_cause.category == "nan_divergence"
    assert v.initiating.rank == 1 and v.status == "failed"
    assert v.hypotheses[0].rank == 1  # listed in the order it decided
    assert v.first_deviating is not None and "step 5 loss nan" in v.first_deviating.text


def test_azure_mls_streamed_prefix_is_a_wrapper_that_names_the_node(tmp_path):
    lines = [
        "2024-05-01 08:00:01 [trainjob-7-worker-0, 10.0.3.4] trainjob-7-worker-0:31:31 [0] NCCL INFO Bootstrap : Using eth0:10.0.3.4<0>",
        "2024-05-01 08:00:02 [trainjob-7-worker-0, 10.0.3.4] trainjob-7-worker-0:31:31 [0] init.cc:1410 NCCL WARN "
        "Invalid rank requested : 4/4",
    ]
    v = verdict(tmp_path, {"azureml-logs/70_driver_log.txt": "\n".join(lines) + "\n"})
    assert v.status == "failed" and v.root_cause.rule_id == "nccl-invalid-rank-requested"
    assert v.first_deviating is not None and v.first_deviating.node == "trainjob-7-worker-0"


def test_a_shells_command_not_found_is_the_launch_environments_failure(tmp_path):
    text = ("(head, rank=0, pid=2001) starting\n(head, rank=0, pid=2001) /bin/sh: 1: deepspeed: not found\n"
            "(worker2, rank=1, pid=1777, ip=10.2.0.9) /bin/sh: 1: deepspeed: not found\n")
    v = verdict(tmp_path, {"run.log": text})
    assert v.status == "failed" and v.root_cause.category == "config_error" and v.initiating.all_ranks


# ---- 4. whose failure: a process named by its pid, and what its own lines say of its rank --

def _journal(stamp: str, host: str, tag: str, pid: int, text: str) -> str:
    return f"{stamp} {host} {tag}[{pid}]: {text}\n"


@pytest.mark.parametrize("stamp", ["Mar  4 09:15:02", "2026-03-04T09:15:02+0000", "Mar 04 09:15:02.412771"])
@pytest.mark.parametrize("name", ["syslog", "journal-trainer.txt", "train.log"])
def test_a_syslog_header_is_a_wrapper_and_the_tags_pid_names_the_rank(tmp_path, stamp, name):
    """Two ranks' output sent through journald / `logger`: the header's host is the node, its pid
    the process; a rank whose `[rankN]:` lines name it owns its unprefixed traceback too, even in a
    file named like a machine's log."""
    j = lambda pid, text: _journal(stamp, "gpu-a17", "trainer", pid, text)  # noqa: E731
    text = (
        j(8812, "[rank0]: step 40 loss 0.913") + j(8813, "[rank1]: step 40 loss 0.907")
        + j(8813, "Traceback (most recent call last):")
        + j(8813, '  File "/opt/job/fit.py", line 77, in <module>')
        + j(8813, "    batch = torch.empty(n, d)")
        + j(8813, "RuntimeError: [enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: "
                  "not enough memory: you tried to allocate 68719476736 bytes.")
        + j(8812, "[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] "
                  "Connection closed by peer [10.1.0.17]:4112")
    )
    v = verdict(tmp_path, {name: text})
    assert v.status == "failed" and v.root_cause.category == "oom"
    assert v.initiating.rank == 1
    assert v.root_cause.evidence is not None and v.root_cause.evidence.node == "gpu-a17"


def test_a_kernel_line_in_syslog_keeps_its_whole_header(tmp_path):
    """`kernel:` has no pid: the line is the kernel parser's, as before."""
    text = ("Mar  4 09:15:02 gpu-a17 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=8813, name=python, "
            "GPU has fallen off the bus.\n")
    v = verdict(tmp_path, {"syslog": text})
    assert v.status == "failed" and v.root_cause.category == "hardware_xid"


@pytest.mark.parametrize("field,said", [
    ("[{pid}]", "worker up: rank {r}/{w}"),
    ("[pid {pid}]", "joined the group as rank {r} of {w}"),
    ("[pid={pid}]", "rank={r}/{w} device=cpu"),
])
def test_a_records_pid_field_and_its_stated_rank_name_the_rank_of_its_error(tmp_path, field, said):
    """Records that name only their process (logging's `%(process)d`); each process says its rank
    once at start. The error record that follows names no rank: its pid does."""
    def rec(t: int, pid: int, level: str, text: str) -> str:
        return f"2026-03-04 09:15:{t:02d},120 {field.format(pid=pid)} {level} fit: {text}\n"

    pids = {0: 40411, 1: 40412, 2: 40415}
    text = "".join(rec(1 + r, pids[r], "INFO", said.format(r=r, w=3)) for r in (2, 0, 1))
    text += "".join(rec(5, pids[r], "INFO", f"step 9 loss {0.5 + r / 10:.2f}") for r in range(3))
    text += rec(7, pids[2], "ERROR", "run failed")
    text += ("Traceback (most recent call last):\n"
             '  File "/opt/job/fit.py", line 120, in loop\n'
             "    x = next(it)\n"
             "OSError: [Errno 5] Input/output error: '/mnt/shards/shard-00042.tar'\n")
    text += rec(9, pids[0], "ERROR", "run failed: Connection closed by peer [127.0.0.1]:51514")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed"
    assert v.initiating.rank == 2
    assert v.root_cause.category == "storage_io"


def test_a_pid_that_states_two_ranks_names_none(tmp_path):
    """A coordinator's record that speaks of other ranks (`rank 1/3 joined`, `rank 2/3 joined`)
    does not make its process either rank."""
    def rec(t: int, text: str) -> str:
        return f"2026-03-04 09:15:{t:02d},120 [5150] INFO coord: {text}\n"

    text = rec(1, "rank 1/3 joined") + rec(2, "rank 2/3 joined") + rec(3, "all joined")
    job = write_job(tmp_path / "job", {"coord.log": text})
    out = tmp_path / "t.parquet"
    ingest(job, out_parquet=out, options=QUIET)
    ranks = pq.read_table(out, columns=["rank", "message"]).to_pylist()
    assert [r["rank"] for r in ranks if "all joined" in r["message"]] == [None]


def test_the_raylets_dead_worker_pid_names_the_rank_that_died(tmp_path):
    """Ray's raylet reports a worker that died without raising by its pid; the rank is the one
    whose own lines carry that pid (each said `rank R/W` under Ray's `(RayTrainWorker pid=...)`)."""
    w = lambda pid, text: f"(RayTrainWorker pid={pid}, ip=10.8.0.{pid % 7}) {text}\n"  # noqa: E731
    text = (
        w(7301, "trainer up: rank 0/3, reading part-0.arrow") + w(7355, "trainer up: rank 1/3, reading part-1.arrow")
        + w(7342, "trainer up: rank 2/3, reading part-2.arrow")
        + "".join(w(p, f"iter {i} loss {1.5 - i / 10:.2f}") for i in (1, 2) for p in (7301, 7355, 7342))
        + "(raylet, ip=10.8.0.2) A worker died or was killed while executing a task by an unexpected system error. "
          "To troubleshoot the problem, check the logs for the dead worker. Worker IP address: 10.8.0.2 Worker port: "
          "40211 Worker PID: 7355 Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with "
          "a connection error code 2. End of file. Some common causes include: (1) the process was killed by the "
          "OOM killer due to high memory usage, (2) ray stop --force was called\n"
        + w(7301, "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
                  "[10.8.0.2]:40211")
    )
    v = verdict(tmp_path, {"driver.log": text})
    assert v.status == "failed" and v.initiating.rank == 1
    assert v.root_cause.rule_id == "ray-worker-died-unexpectedly" and v.root_cause.category == "oom"


# ---- 4. whose failure: all ranks alike, by count and by the machine ---------------------

@pytest.mark.parametrize("n", [2, 3])
def test_the_same_unranked_error_printed_by_each_worker_is_every_ranks(tmp_path, n):
    """A launcher's console that its workers share: each raised the same error and no prefix
    says who (the same traceback n times)."""
    tb = ("Traceback (most recent call last):\n"
          '  File "/srv/run/entry.py", line 12, in <module>\n'
          "    cfg = load(args.config)\n"
          "KeyError: 'optimizer_kwargs'\n")
    text = f"[launcher] starting {n} workers\n" + tb * n
    v = verdict(tmp_path, {"launcher.out": text})
    assert v.status == "failed" and v.initiating.all_ranks and v.initiating.rank is None


def test_one_unranked_error_stays_unknown(tmp_path):
    tb = ("Traceback (most recent call last):\n"
          '  File "/srv/run/entry.py", line 12, in <module>\n'
          "    cfg = load(args.config)\n"
          "KeyError: 'optimizer_kwargs'\n")
    v = verdict(tmp_path, {"launcher.out": "[launcher] starting 2 workers\n" + tb})
    assert v.status == "failed" and not v.initiating.all_ranks and v.initiating.kind == "unknown"


def _nccl_shm_warn(host: str, pid: int, dev: int) -> str:
    return (f"{host}:{pid}:{pid + 400} [{dev}] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : "
            "No space left on device\n")


def test_a_node_level_cause_on_the_jobs_only_machine_is_every_ranks(tmp_path):
    text = (f"{'trn-x9'}:5510:5510 [0] NCCL INFO Bootstrap : Using eth0:10.3.0.9<0>\n"
            + _nccl_shm_warn("trn-x9", 5511, 1))
    v = verdict(tmp_path, {"mpirun.log": text})
    assert v.status == "failed" and v.root_cause.category == "storage_io"
    assert v.initiating.all_ranks


def test_a_node_level_cause_in_a_job_of_two_machines_is_that_node(tmp_path):
    files = {
        "node-a1/mpirun.log": "trn-a1:5510:5510 [0] NCCL INFO Bootstrap : Using eth0:10.3.0.9<0>\n"
                              + _nccl_shm_warn("trn-a1", 5511, 1),
        "node-b2/mpirun.log": "trn-b2:7710:7710 [0] NCCL INFO Bootstrap : Using eth0:10.3.0.10<0>\n",
    }
    v = verdict(tmp_path, files)
    assert v.status == "failed" and not v.initiating.all_ranks and v.initiating.node == "trn-a1"


def test_a_programs_name_before_a_glibc_assert_is_no_host(tmp_path):
    text = ("run_bench2: src/loader.c:88: shard_open: Assertion `n_tok > 0' failed.\n"
            "[gpu-17:4411] *** Process received signal ***\n")
    job = write_job(tmp_path / "job", {"out.log": text})
    out = tmp_path / "t.parquet"
    ingest(job, out_parquet=out, options=QUIET)
    rows = pq.read_table(out, columns=["node", "message"]).to_pylist()
    first = next(r for r in rows if "Assertion" in r["message"])
    assert first["node"] != "run_bench2" and first["message"].startswith("run_bench2: ")


def test_slurms_step_daemon_that_cannot_exec_the_program_is_the_environments_failure(tmp_path):
    text = ("slurmstepd: error: execve(): accelerate: No such file or directory\n"
            "srun: error: gpu-n04: task 1: Exited with exit code 2\n")
    v = verdict(tmp_path, {"slurm-88211.out": text})
    assert v.status == "failed" and v.root_cause.category == "config_error" and v.initiating.all_ranks


def test_a_version_error_raised_after_a_bar_of_steps_is_that_ranks_not_every_ranks(tmp_path):
    """torch without an attribute the code uses only on one rank's rare path (its OOM fallback),
    raised mid-epoch under the rank-0 bar: that rank's failure, not a check every rank ran."""
    text = ("      7/40      3.1G     0.912  56%|█████▌    | 45/80 [00:21<00:16,  2.1it/s]\n"
            "[rank3]: Traceback (most recent call last):\n"
            '[rank3]:   File "/opt/det/assign.py", line 51, in forward\n'
            "[rank3]:     except torch.OutOfMemoryError:\n"
            "[rank3]: AttributeError: module 'torch' has no attribute 'OutOfMemoryError'\n")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and v.initiating.rank == 3 and not v.initiating.all_ranks


# ---- 1/2. a source's own failure line and a job system's own word for a good end ----------

def test_lightnings_received_sigterm_alone_is_a_stop_from_outside(tmp_path):
    text = "".join(f"[rank {r}] epoch 1 batch {b} loss 0.{b}\n" for b in (10, 20) for r in (0, 1))
    text += "[rank: 1] Received SIGTERM: 15\n[rank: 0] Received SIGTERM: 15\n"
    v = verdict(tmp_path, {"fit.log": text})
    assert v.status == "failed" and v.initiating.kind == "external"
    assert v.root_cause.category == "killed_by_scheduler"


def test_a_ranks_own_error_before_lightnings_sigterm_is_the_cause(tmp_path):
    text = ("[rank 1] epoch 1 batch 10 loss 0.4\n"
            "[rank1]: Traceback (most recent call last):\n"
            '[rank1]:   File "/opt/fit.py", line 40, in step\n'
            "[rank1]:     x = batch['pixels']\n"
            "[rank1]: KeyError: 'pixels'\n"
            "[rank: 0] Received SIGTERM: 15\n")
    v = verdict(tmp_path, {"fit.log": text})
    assert v.status == "failed" and v.initiating.rank == 1


@pytest.mark.parametrize("prefix", ["", "[1,1]<stderr>:"])
def test_tensorflows_c_plus_plus_error_records_are_errors(tmp_path, prefix):
    text = (f"{prefix}2021-05-03 07:12:44.118201: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1418] Created device\n"
            f"{prefix}2021-05-03 07:12:49.903311: E tensorflow/stream_executor/cuda/cuda_driver.cc:828] failed to "
            "allocate 7.12G (7645041664 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n")
    v = verdict(tmp_path, {"worker.log": text})
    assert v.status == "failed" and v.root_cause.category == "oom"


def test_xlas_async_nccl_error_is_a_lost_peer_reported_by_a_witness(tmp_path):
    text = ("2025-02-10 01:02:03.456789: E external/xla/xla/service/gpu/nccl_utils.cc:297] Aborting communicator: "
            "0x55aa00 due to async NCCL error: remote process exited or there was a network error\n")
    v = verdict(tmp_path, {"host-b.log": text})
    assert v.status == "failed" and v.root_cause.category == "nccl_network" and v.initiating.kind == "unknown"


def test_nccl_tests_own_failure_line_is_the_nccl_result_it_names(tmp_path):
    text = ("# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20\n"
            "gpu-b3: Test NCCL failure common.cu:958 'unhandled system error (run with NCCL_DEBUG=INFO for details)'\n"
            " .. gpu-b3 pid 40121: Test failure common.cu:842\n")
    v = verdict(tmp_path, {"all_reduce.log": text})
    assert v.status == "failed" and v.root_cause.rule_id == "nccl-unhandled-system-error"


@pytest.mark.parametrize("end", ["status: SUCCEEDED", "State: COMPLETED (exit code 0)",
                                 "Job 'raysubmit_Zx81kQpL0mw2NnA' succeeded",
                                 "2026-03-01 10:00:41 INFO [rank0] run finished successfully"])
def test_a_job_systems_final_good_state_is_a_healthy_end(tmp_path, end):
    text = "".join(f"(TrainWorker pid={4100 + r}) rank {r}: step {s} loss 0.{9 - s}\n" for s in (1, 2, 3) for r in (0, 1))
    v = verdict(tmp_path, {"job.log": text + end + "\n"})
    assert v.status == "healthy"


def test_a_version_error_after_a_loading_bar_is_still_every_ranks(tmp_path):
    """A bar that loads weights is set-up, not training: the removed argument fails alike on each rank."""
    tb = ("[rank{r}]: Traceback (most recent call last):\n"
          '[rank{r}]:   File "/opt/ft/train.py", line 61, in <module>\n'
          "[rank{r}]:     args = TrainingArguments(out, evaluation_strategy='steps')\n"
          "[rank{r}]: TypeError: TrainingArguments.__init__() got an unexpected keyword argument "
          "'evaluation_strategy'\n")
    text = ("Loading checkpoint shards: 100%|██████████| 4/4 [00:03<00:00,  1.20it/s]\n"
            + tb.format(r=0) + tb.format(r=1))
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and v.initiating.all_ranks


def test_a_set_up_error_printed_once_while_the_others_waited_is_not_every_ranks(tmp_path):
    """Three workers share the launcher's stderr: one lacks MASTER_PORT and fails at init, the two
    others wait at the store and time out. They passed the step it failed: not every rank's."""
    env = ("Traceback (most recent call last):\n"
           '  File "/srv/w/run.py", line 19, in <module>\n'
           '    dist.init_process_group("gloo")\n'
           "ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable "
           "MASTER_PORT expected, but not set\n")
    wait = ("Traceback (most recent call last):\n"
            '  File "/srv/w/run.py", line 19, in <module>\n'
            '    dist.init_process_group("gloo")\n'
            "torch.distributed.DistStoreError: wait timeout after 30000ms, keys: /default_pg/0//cpu//0/2\n")
    files = {"stderr.log": env + wait + wait,
             "logs/rank0.out": "rank 0 starting\n", "logs/rank1.out": "rank 1 starting\n",
             "logs/rank2.out": "rank 2 starting\n"}
    v = verdict(tmp_path, files)
    assert v.status == "failed" and v.root_cause.category == "config_error"
    assert not v.initiating.all_ranks


# ---- round M's general causes: wrappers and record heads no earlier log had ------------------
def _timeline(tmp_path, files: dict[str, str], columns: list[str]) -> list[dict]:
    job = write_job(tmp_path / "job", files)
    out = tmp_path / "t.parquet"
    ingest(job, out_parquet=out, options=QUIET)
    return pq.read_table(out, columns=columns).to_pylist()


def _vllm_worker_traceback(pid: int, stamp: str, exc: str, bracket: bool) -> str:
    """vLLM's logger writes its head before every line of a logged traceback."""
    src = "[multiproc_executor.py:520]" if bracket else "multiproc_executor.py:520]"
    body = ["Traceback (most recent call last):",
            '  File "/usr/lib/python3.12/site-packages/vllm/model_executor/models/llama.py", line 88, in __init__',
            "    self.heads = divide(n_heads, tp_size)",
            "                 ^^^^^^^^^^^^^^^^^^^^^^^^",
            exc]
    return "".join(f"(VllmWorker rank=1 pid={pid}) ERROR {stamp} {src} {b}\n" for b in body)


@pytest.mark.parametrize("bracket", [False, True])
def test_a_loggers_head_on_every_line_of_a_traceback_leaves_the_exception_at_its_lines_start(tmp_path, bracket):
    text = ("(VllmWorker rank=0 pid=7001) INFO 03-02 11:20:01 [loader.py:40] Loading weights\n"
            + _vllm_worker_traceback(7002, "03-02 11:20:05", "ValueError: 40 heads cannot be split across 3 GPUs",
                                     bracket))
    v = verdict(tmp_path / "a", {"serve.log": text})
    assert v.status == "failed" and v.root_cause.category == "config_error"
    assert v.first_deviating is not None
    assert v.first_deviating.text.splitlines()[-1] == "ValueError: 40 heads cannot be split across 3 GPUs"
    rows = _timeline(tmp_path / "b", {"serve.log": text}, ["rank", "pid", "kind", "message"])
    (tb,) = [r for r in rows if r["kind"] == "python.traceback"]  # one event: the record and its traceback
    assert (tb["rank"], tb["pid"]) == (1, 7002) and tb["message"].count("ERROR 03-02") == 1


def test_a_repeated_second_precise_head_joins_only_a_tracebacks_lines(tmp_path):
    """Two records of one loop in the same second keep their heads: they are two events."""
    text = "".join(f"INFO 03-02 11:20:01 [worker.py:77] request {i} done\n" for i in range(3))
    rows = _timeline(tmp_path, {"serve.log": text}, ["line_no", "message"])
    assert [r["line_no"] for r in rows] == [1, 2, 3]
    assert all(r["message"].startswith("INFO 03-02") for r in rows)


def test_docker_composes_service_column_is_a_wrapper_that_names_the_container(tmp_path):
    text = ("trainer-1  | step 10 loss 2.31\n"
            "trainer-2  | step 10 loss 2.29\n"
            "trainer-2  | Traceback (most recent call last):\n"
            'trainer-2  |   File "/app/train.py", line 31, in <module>\n'
            "trainer-2  |     batch = next(it)\n"
            "trainer-2  | FileNotFoundError: [Errno 2] No such file or directory: '/data/shard-0007.tar'\n"
            "trainer-1  | step 20 loss 2.02\n")
    rows = _timeline(tmp_path, {"compose.log": text}, ["node", "message"])
    assert {r["node"] for r in rows} == {"trainer-1", "trainer-2"}
    assert any(r["message"].startswith("Traceback") and r["node"] == "trainer-2" for r in rows)


def test_a_tables_first_cell_is_no_container(tmp_path):
    text = "epoch | loss | acc\n0     | 2.31 | 0.10\n1     | 1.20 | 0.55\n"
    rows = _timeline(tmp_path, {"metrics.log": text}, ["node", "message"])
    assert {r["node"] for r in rows} == {None}
    assert rows[0]["message"].startswith("epoch |")


def test_a_procfile_runners_prefix_separates_its_processes_and_their_exit(tmp_path):
    text = ("09:00:01 system     | ps.1 started (pid=400)\n"
            "09:00:01 system     | worker.1 started (pid=401)\n"
            "09:00:03 worker.1   | Traceback (most recent call last):\n"
            "09:00:03 ps.1       | serving on :29500\n"
            '09:00:03 worker.1   |   File "/srv/w.py", line 9, in <module>\n'
            "09:00:03 worker.1   |     import numpyy\n"
            "09:00:03 worker.1   | ModuleNotFoundError: No module named 'numpyy'\n"
            "09:00:04 system     | worker.1 stopped (rc=1)\n"
            "09:00:04 system     | sending SIGTERM to ps.1 (pid 400)\n")
    rows = _timeline(tmp_path, {"honcho.log": text}, ["node", "kind", "message"])
    tb = [r for r in rows if r["kind"] == "python.traceback"]
    assert len(tb) == 1 and tb[0]["node"] == "worker.1" and "No module named" in tb[0]["message"]
    assert [r["kind"] for r in rows if "stopped (rc=1)" in r["message"]] == ["process.nonzero_exit"]


def test_colour_codes_that_lost_their_esc_byte_do_not_hide_a_prefix(tmp_path):
    text = ("[36m(RayTrainWorker pid=5120)[0m step 3 loss 0.7\n"
            "[36m(RayTrainWorker pid=5121)[0m step 3 loss 0.8\n")
    rows = _timeline(tmp_path, {"driver.log": text}, ["pid", "message"])
    assert [(r["pid"], r["message"]) for r in rows] == [(5120, "step 3 loss 0.7"), (5121, "step 3 loss 0.8")]


def test_a_bracketed_stamp_that_holds_the_level_and_a_tagged_launcher_record_are_read(tmp_path):
    text = ("[2022-11-09 10:09:18.908887 INFO   ] trainer:train:280 - Train epoch: [1/100], batch: [84700/85957]\n"
            "LAUNCH ERROR 2022-11-09 10:11:32,058 Container failed !!!\n")
    rows = _timeline(tmp_path, {"console.log": text}, ["ts", "level"])
    assert [r["ts"].isoformat() for r in rows] == ["2022-11-09T10:09:18.908887+00:00", "2022-11-09T10:11:32.058000+00:00"]
    assert rows[1]["level"] == "ERROR"


def test_grep_output_keeps_the_matched_lines_and_their_sources_host(tmp_path):
    text = ("node-b7.log:[2025-03-01 04:10:02] node-b7:311:405 [0] transport/net_ib.cc:199 NCCL WARN NET/IB : "
            "mlx5_2:1 Got async error event: port error\n")
    rows = _timeline(tmp_path, {"grep.txt": text}, ["node", "source", "message"])
    assert rows == [{"node": "node-b7", "source": "nccl", "message": rows[0]["message"]}]
    assert rows[0]["message"].startswith("[2025-03-01 04:10:02] node-b7")


def test_a_line_with_a_tab_in_its_text_is_no_parallel_tag(tmp_path):
    rows = _timeline(tmp_path, {"run.log": "epoch 1 done\ntraining seconds: 37.3\t\t# 18.4 before\n"},
                     ["message"])
    assert rows[1]["message"].startswith("training seconds:")


@pytest.mark.parametrize("end", ["Training time 0:41:07", "training seconds: 37.32", "Total training time: 2:03:11"])
def test_the_whole_runs_time_printed_at_its_end_is_a_healthy_end(tmp_path, end):
    text = "".join(f"[rank {r}] epoch {e} loss 0.{9 - e}\n" for e in (1, 2) for r in (0, 1))
    assert verdict(tmp_path, {"train.log": text + end + "\n"}).status == "healthy"


def test_lightnings_word_on_a_keyboard_interrupt_is_a_stop_from_outside(tmp_path):
    text = "".join(f"[rank {r}] epoch 1 batch {b} loss 0.{b}\n" for b in (10, 20) for r in (0, 1))
    text += "Detected KeyboardInterrupt, attempting graceful shutdown ...\n"
    v = verdict(tmp_path, {"fit.log": text})
    assert v.status == "failed" and v.initiating.kind == "external"


def test_a_test_harnesss_started_child_pid_names_the_rank_of_its_error(tmp_path):
    """torch's MultiProcessTestCase: the parent names each child's pid; the child logs its
    exception through torch's logger, the record announcing the traceback under it."""
    parent = "I0301 10:00:01.100000 500 torch/testing/_internal/common_distributed.py:982] "
    text = "".join(f"{parent}Started process {r} with pid {600 + r}\n" for r in range(3))
    child = "E0301 10:00:09.200000 602 torch/testing/_internal/common_distributed.py:1068] "
    text += "".join(child + b + "\n" for b in (
        "Caught exception: ", "Traceback (most recent call last):",
        '  File "/srv/t/test_sharding.py", line 30, in test_rows', "    self.assertEqual(got, want)",
        "AssertionError: Scalars are not equal!"))
    text += "Process 2 terminated with exit code 10, terminating remaining processes.\n"
    rows = _timeline(tmp_path / "t", {"pytest.log": text}, ["rank", "pid", "kind", "message"])
    (tb,) = [r for r in rows if r["kind"] == "python.traceback"]
    assert (tb["pid"], tb["rank"]) == (602, 2) and tb["message"].startswith("E0301")
    v = verdict(tmp_path / "v", {"pytest.log": text})
    assert v.status == "failed" and v.initiating.rank == 2


def test_a_traceback_pasted_without_its_indentation_is_one_event(tmp_path):
    text = ("(TrainerActor pid=9120) File \"/opt/venv/lib/python3.11/site-packages/rl/engine.py\", line 58, in sync\n"
            "(TrainerActor pid=9120) return self.llm.collective_rpc(\n"
            "(TrainerActor pid=9120) ^^^^^^^^^^^^^^^^^^^^^^^^\n"
            "(TrainerActor pid=9120) File \"/opt/venv/lib/python3.11/site-packages/serve/llm.py\", line 495, in collective_rpc\n"
            "(TrainerActor pid=9120) executor = self.engine.model_executor\n"
            "(TrainerActor pid=9120) AttributeError: 'AsyncEngine' object has no attribute 'model_executor'\n")
    rows = _timeline(tmp_path / "t", {"driver.log": text}, ["line_no", "line_end", "kind"])
    assert [(r["line_no"], r["line_end"], r["kind"]) for r in rows] == [(1, 6, "python.traceback")]
    v = verdict(tmp_path / "v", {"driver.log": text})
    assert v.root_cause.category == "version_mismatch"


def test_ddps_unused_parameter_error_names_its_own_rank(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/srv/det/train.py", line 91, in <module>\n'
            "    loss = model(batch)\n"
            "RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. "
            "This error indicates that your module has parameters that were not used in producing loss.\n"
            "Parameter indices which did not receive grad for rank 5: 120 121 122\n")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and v.initiating.rank == 5 and v.root_cause.rule_id == "ddp-unused-parameters"


# ---- round N's general causes ------------------------------------------------------------------
@pytest.mark.parametrize("line", [
    "ERROR 2023-02-01 09:00:05,120 launch_utils.py:560] ABORT!!! Out of all 8 trainers, the trainer process with "
    "rank=[6] was aborted. Please check its log.",
    "Container rank 6 status failed cmd ['/opt/py/bin/python', '-u', 'tools/train.py'] code -11 log log/workerlog.6",
])
def test_a_launcher_that_names_the_one_failed_trainer_names_the_rank(tmp_path, line):
    text = ("INFO 2023-02-01 08:59:01,000 launch_utils.py:300] start 8 trainers\n"
            "LAUNCH INFO 2023-02-01 09:00:05,100 Pod failed\n" + line + "\n")
    v = verdict(tmp_path, {"launch.log": text})
    assert v.status == "failed" and v.initiating.rank == 6


def test_an_nccl_warning_whose_paste_lost_its_head_is_still_ncclss(tmp_path):
    v = verdict(tmp_path, {"paste.log": "graph/topo.h:230 NCCL WARN Could not find NET with id 3\n"})
    assert v.status == "failed" and v.root_cause.category == "nccl_network"


def test_a_runtimes_error_records_with_a_month_name_stamp_are_errors(tmp_path):
    text = ("2024-Feb-02 08:10:01.100200 7001:7002 INFO    ENC:init                                     started\n"
            "2024-Feb-02 08:10:05.502423 7001:7010 ERROR   ENC:alg_ring_init                            failed to "
            "configure network connector for RING\n")
    v = verdict(tmp_path, {"neuron.log": text})
    assert v.status == "failed"


# ---- round O's general causes ------------------------------------------------------------------
def test_an_ib_completion_error_of_an_nccl_that_named_no_peer_is_the_network(tmp_path):
    # NCCL up to 2.12: "Got completion with error N" (no "from peer"); a CUDA error lines later
    # on the same host is what the broken transport left behind
    text = ("trn-07:40112:40170 [3] transport/net_ib.cc:851 NCCL WARN NET/IB : Got completion with error 5, "
            "opcode 0, len 32732, vendor err 249\n"
            "trn-07:40112:40170 [3] NCCL INFO transport/net.cc:870 -> 2\n"
            "trn-07:40112:40112 [3] init.cc:201 NCCL WARN Cuda failure 'unspecified launch failure'\n"
            "trn-07: Test NCCL failure common.cu:401 'unhandled cuda error'\n")
    v = verdict(tmp_path, {"nccl.log": text})
    assert v.root_cause.rule_id == "nccl-ib-completion-error" and v.root_cause.category == "nccl_network"
    assert v.first_deviating.line_no == 1


def test_the_efa_plugins_own_logger_is_nccls_warn(tmp_path):
    # aws-ofi-nccl's tests and tools print NCCL's levels through their own logger
    # ("WARN: Function: %s Line: %d: " + "NET/OFI " + the message)
    text = ("INFO: Function: ofi_init Line: 512: NET/OFI Selected Provider is efa\n"
            "WARN: Function: int main(int, char**) Line: 140: NET/OFI OFI call failed with RC -61, No data available\n")
    rows = _timeline(tmp_path / "t", {"test.out": text}, ["source", "level"])
    assert [(r["source"], r["level"]) for r in rows] == [("nccl", "INFO"), ("nccl", "WARNING")]
    v = verdict(tmp_path / "v", {"test.out": text})
    assert v.status == "failed" and v.root_cause.category == "nccl_network"


def test_a_tag_glued_to_its_bar_is_a_wrapper(tmp_path):
    # `sed "s/^/w$i| /"` on each rank's output, the tags interleaved in one file: the tag is
    # stripped and the record beneath it read (its rank, its traceback)
    lines = []
    for r in range(3):
        lines.append(f"w{r}| 2025-03-01 10:00:0{r},100 INFO [rank {r}] trainer: started")
    lines += ["w2| [rank2]: Traceback (most recent call last):",
              'w2| [rank2]:   File "/srv/run/train.py", line 40, in <module>',
              "w2| [rank2]:     torch.save(state, path)",
              "w2| [rank2]: OSError: [Errno 28] No space left on device",
              "w0| [rank0]: RuntimeError: [/opt/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
              "[10.0.0.3]:4412"]
    v = verdict(tmp_path, {"job.log": "\n".join(lines) + "\n"})
    assert v.status == "failed" and v.initiating.rank == 2 and v.root_cause.category == "storage_io"


@pytest.mark.parametrize(("head", "rank"), [
    ("2025-03-01 10:00:05,100 rank3(5512) ERROR   train - ", 3),  # logging's processName(pid)
    ("    rank3 stderr| ", 3),  # a launcher relaying its child's stderr, indented
])
def test_a_records_rank_head_in_a_process_name_or_a_relayed_line(tmp_path, head, rank):
    rows = _timeline(tmp_path, {"all.log": head + "loading shard failed\n"}, ["rank"])
    assert rows[0]["rank"] == rank


# ---- round P's general causes ------------------------------------------------------------------
def _docker(line: str, stream: str, t: str) -> str:
    import json as _json
    return _json.dumps({"log": line + "\n", "stream": stream, "time": t}, separators=(",", ":"))


def test_docker_json_file_records_are_read_by_their_fields(tmp_path):
    # Docker's json-file driver: one object per line, the line in "log" (escaped, with its newline)
    lines = [_docker("2024-03-01 12:00:01,000 INFO step 10 loss 2.31", "stdout", "2024-03-01T12:00:01.000100200Z"),
             _docker("[rank3]: Traceback (most recent call last):", "stderr", "2024-03-01T12:00:05.000000000Z"),
             _docker('[rank3]:   File "/workspace/train.py", line 88, in <module>', "stderr",
                     "2024-03-01T12:00:05.000100000Z"),
             _docker('[rank3]: FileNotFoundError: [Errno 2] No such file or directory: "/data/shard-07.bin"',
                     "stderr", "2024-03-01T12:00:05.000200000Z")]
    rows = _timeline(tmp_path / "t", {"trainer-3-json.log": "\n".join(lines) + "\n"},
                     ["rank", "ts", "kind", "message"])
    tb = [r for r in rows if r["kind"] == "python.traceback"]
    assert len(tb) == 1 and tb[0]["rank"] == 3 and tb[0]["ts"] is not None
    assert tb[0]["message"].startswith("Traceback") and '"/data/shard-07.bin"' in tb[0]["message"]
    v = verdict(tmp_path / "v", {"trainer-3-json.log": "\n".join(lines) + "\n"})
    assert v.status == "failed" and v.initiating.rank == 3


def test_a_structured_loggers_level_rank_and_epoch_time_are_the_records(tmp_path):
    # python-json-logger style, epoch seconds, the record's level (its text has none), a
    # record with exc_info (a traceback inside the message); a metrics dict is no record
    import json as _json
    recs = [{"created": 1709294400.25, "levelname": "INFO", "rank": 1, "message": "epoch 0 step 5"},
            {"loss": 0.5, "step": 5},
            {"created": 1709294401.5, "levelname": "ERROR", "rank": 1,
             "message": "batch failed\nTraceback (most recent call last):\n  File \"/srv/loop.py\", line 9, "
                        "in step\nKeyError: 'labels'"}]
    text = "\n".join(_json.dumps(r) for r in recs) + "\n"
    rows = _timeline(tmp_path, {"rank1.jsonl": text}, ["line_no", "rank", "level", "ts", "message"])
    by_line = {r["line_no"]: r for r in rows}
    assert by_line[1]["level"] == "INFO" and by_line[1]["message"] == "epoch 0 step 5"
    assert str(by_line[1]["ts"]).startswith("2024-03-01 12:00:00.25")
    assert by_line[2]["message"] == '{"loss": 0.5, "step": 5}' and by_line[2]["level"] is None
    assert by_line[3]["level"] == "ERROR" and "KeyError: 'labels'" in by_line[3]["message"]


def test_journald_json_export_gives_host_pid_time_and_priority(tmp_path):
    import json as _json
    rec = {"__REALTIME_TIMESTAMP": "1709294400123456", "PRIORITY": "3", "_HOSTNAME": "gpu-node-3", "_PID": "4242",
           "MESSAGE": "NCCL WARN Net : Call to recv from 10.1.0.4<44321> failed : Connection reset by peer"}
    rows = _timeline(tmp_path, {"journal.json": _json.dumps(rec) + "\n"}, ["pid", "level", "ts", "message"])
    assert rows[0]["pid"] == 4242 and rows[0]["level"] == "ERROR" and rows[0]["message"].startswith("NCCL WARN")
    assert str(rows[0]["ts"]).startswith("2024-03-01 12:00:00.123456")


def test_a_launcher_relaying_its_childrens_streams_as_records_names_each_child(tmp_path):
    import json as _json
    recs = [{"ts": 1709294399.5, "src": "rank0", "stream": "stdout", "line": "step 40 loss 1.92"},
            {"ts": 1709294400.087, "src": "rank2", "stream": "stderr",
             "line": "RuntimeError: DataLoader worker (pid 811) is killed by signal: Killed."},
            {"ts": 1709294400.1, "src": "launcher", "stream": "event", "line": "child 811 reaped"}]
    rows = _timeline(tmp_path, {"job.jsonl": "\n".join(_json.dumps(r) for r in recs) + "\n"}, ["line_no", "rank"])
    assert [(r["line_no"], r["rank"]) for r in rows] == [(1, 0), (2, 2), (3, None)]


def _three_node_job(addr_on_c: str) -> dict[str, str]:
    # a Slurm script echoing its launch settings on each node before torchrun; node c's
    # MASTER_ADDR is `addr_on_c`; the master's store gives up on the third client
    files = {}
    for name, addr in (("gpu-a01", "gpu-a01"), ("gpu-a02", "gpu-a01"), ("gpu-a03", addr_on_c)):
        files[f"{name}.log"] = (
            f"+ echo MASTER_ADDR={addr} MASTER_PORT=29400 WORLD_SIZE=24\n"
            f"MASTER_ADDR={addr} MASTER_PORT=29400 WORLD_SIZE=24\n")
    files["gpu-a01.log"] += ("torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. "
                             "16/24 clients joined.\n")
    return files


def test_the_one_node_whose_launch_settings_differ_is_the_culprit(tmp_path):
    v = verdict(tmp_path, _three_node_job("gpu-a03"))
    assert v.status == "failed" and v.root_cause.category == "config_error"
    assert v.initiating.node == "gpu-a03" and "MASTER_ADDR=gpu-a03" in v.first_deviating.text


def test_agreeing_launch_settings_accuse_nobody(tmp_path):
    v = verdict(tmp_path, _three_node_job("gpu-a01"))
    assert v.root_cause.category == "rendezvous"


def test_the_first_warn_of_ncclss_shared_memory_chain_is_the_cause(tmp_path):
    # NCCL up to 2.11: the failed call, then the segment's summary (its name without /dev/shm/),
    # then the return chain and torch's wrapper; the call's errno says what failed
    text = ("trn-2:9001:9040 [2] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied\n"
            "trn-2:9001:9040 [2] NCCL INFO include/shm.h:41 -> 2\n"
            "trn-2:9001:9040 [2] include/shm.h:48 NCCL WARN Error while creating shared memory segment "
            "nccl-shm-send-0f9a-1-2-0 (size 4460544)\n"
            "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, "
            "NCCL version 2.7.8\n")
    v = verdict(tmp_path, {"train.log": text})
    assert v.root_cause.rule_id == "nccl-shm-call-failed" and v.root_cause.category == "storage_io"
    v = verdict(tmp_path / "summary-only", {"train.log": "\n".join(text.splitlines()[2:]) + "\n"})
    assert v.root_cause.rule_id == "nccl-shm-segment-create-failed" and v.root_cause.category == "config_error"


def test_an_nccl_warn_whose_chain_reached_the_communicators_set_up_is_a_failure(tmp_path):
    # the WARN block pasted above the set-up lines of the same process: its return chain up
    # to init.cc says ncclCommInitRank returned the error, whatever the paste's order
    text = ("gpu-b7:5120:5301 [1] misc/ibvwrap.cc:106 NCCL WARN Call to ibv_reg_mr failed\n"
            "gpu-b7:5120:5301 [1] NCCL INFO transport/net_ib.cc:283 -> 2\n"
            "gpu-b7:5120:5301 [1] NCCL INFO init.cc:1203 -> 2\n"
            "gpu-b7:5120:5301 [1] NCCL INFO comm 0x55d0 rank 1 nranks 2 cudaDev 1 busId 3b000 - Init START\n"
            "gpu-b7:5120:5301 [1] NCCL INFO Channel 00/02 :    0   1\n")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and v.root_cause.category == "nccl_network"
    carried = text.replace("gpu-b7:5120:5301 [1] NCCL INFO init.cc:1203 -> 2\n", "")
    v = verdict(tmp_path / "fell-back", {"console.log": carried})  # a chain that stopped short: it went on
    assert v.status != "failed"


# ---- round R (2026-12-07): supervisors' stamps, a rank's own tag, the store's host waiting

def test_svlogd_stamps_are_a_wrapper_and_the_traceback_under_them_is_one_event(tmp_path):
    # runit's svlogd -tt writes every line of the service's output behind a UTC stamp with
    # "_" between date and time; the line's own stamp and a traceback's frames follow it
    text = ("2025-03-01_10:00:00.12345 2025-03-01 10:00:00,120 INFO worker rank=1 world=2 ready\n"
            "2025-03-01_10:00:05.50001 Traceback (most recent call last):\n"
            "2025-03-01_10:00:05.50003   File \"/srv/job/train.py\", line 12, in <module>\n"
            "2025-03-01_10:00:05.50004     load_shard(args.shard)\n"
            "2025-03-01_10:00:05.50010 FileNotFoundError: [Errno 2] No such file or directory: '/data/shard-7.bin'\n")
    ingest(write_job(tmp_path / "job", {"service/worker1/log/main/current": text}),
           out_parquet=tmp_path / "t.parquet", options=QUIET)
    rows = pq.read_table(tmp_path / "t.parquet").to_pylist()
    err = [r for r in rows if "FileNotFoundError" in r["message"]]
    assert len(err) == 1 and err[0]["line_no"] == 2 and err[0]["line_end"] == 5
    assert not any(r["message"].startswith("2025-03-01_") for r in rows)
    assert str(err[0]["ts"]).startswith("2025-03-01 10:00:05.500010")


def test_pm2_time_prefix_is_a_wrapper_and_the_line_keeps_its_rank(tmp_path):
    text = ("2025-03-01T09:59:58: [W301 09:59:58.120000000 socket.cpp:207] [c10d] The hostname of the client "
            "socket cannot be retrieved. err=-3\n"
            "2025-03-01T10:00:07: [rank3]: RuntimeError: CUDA error: an illegal memory access was encountered\n")
    ingest(write_job(tmp_path / "job", {"logs/app-err.log": text}), out_parquet=tmp_path / "t.parquet", options=QUIET)
    rows = pq.read_table(tmp_path / "t.parquet").to_pylist()
    last = rows[-1]
    assert last["rank"] == 3 and last["message"].startswith("RuntimeError: CUDA error")
    assert str(last["ts"]).startswith("2025-03-01 10:00:07")


def test_a_processs_own_rank_tag_is_no_pdsh_host(tmp_path):
    text = "rank2: pinned to cores 4-7\nRank3: pinned to cores 8-11\nnode-7: pinned to cores 0-3\n"
    ingest(write_job(tmp_path / "job", {"launch.log": text}), out_parquet=tmp_path / "t.parquet", options=QUIET)
    rows = pq.read_table(tmp_path / "t.parquet").to_pylist()
    assert [(r["rank"], r["node"]) for r in rows] == [(2, None), (3, None), (None, "node-7")]


def test_the_store_host_that_waited_for_clients_is_not_the_missing_rank(tmp_path):
    # rank 0 hosts the TCPStore and gives up on its third client; rank 1 waited for rank 0's key,
    # which rank 0 never wrote because it was still waiting: the client that never came is rank 2
    # (no stamps: which rank stopped first is not in the times)
    head = "INFO trainer rank={} world=3 starting\n"
    files = {
        "rank0.log": head.format(0)
        + "torch.distributed.DistStoreError: Timed out after 41 seconds waiting for clients. 2/3 clients joined.\n",
        "rank1.log": head.format(1)
        + "torch.distributed.DistStoreError: wait timeout after 40000ms, keys: /default_pg/0//cpu//0/0\n",
        "rank2.log": head.format(2) + "numactl: set_mempolicy: Invalid argument\n",
    }
    v = verdict(tmp_path, files)
    assert v.initiating.rank == 2


def test_a_cpp_check_failure_is_failure_evidence(tmp_path):
    # glog / absl CHECK: the site, "Check failed:", then the process aborts; the job's only words
    text = ("external/xla/xla/pjrt/distributed/client.cc:88 : Check failed: status.ok() "
            "DEADLINE_EXCEEDED: Barrier timed out\n")
    v = verdict(tmp_path, {"worker.log": text})
    assert v.status == "failed" and "Check failed" in v.root_cause.evidence.text
    v = verdict(tmp_path / "app", {"worker.log": "[Updater] Check failed: offline, retrying in 30 s\n"})
    assert v.status != "failed"


def test_the_host_ssh_could_not_reach_is_the_node_named(tmp_path):
    # mpirun's ORTE daemons started over ssh; one host does not resolve (its name, not the launcher's)
    text = ("ssh: connect to host gpu-b07 port 22: No route to host\n"
            "--------------------------------------------------------------------------\n"
            "ORTE was unable to reliably start one or more daemons.\n")
    v = verdict(tmp_path, {"launcher.log": text})
    assert v.status == "failed" and v.root_cause.rule_id == "ssh-cannot-reach-node"
    assert v.initiating.node == "gpu-b07" and not v.initiating.all_ranks


def test_horovods_timestamped_rank_tag_is_split_like_openmpis(tmp_path):
    # horovodrun --prefix-output-with-timestamp: ctime, then "[rank]<stream>:", fused to the text
    # as OpenMPI's --timestamp-output fuses "[jobid,rank]<stream>:"
    text = ("Wed Mar  4 09:15:02 2026[3]<stderr>:RuntimeError: CUDA error: out of memory\n"
            "Wed Mar  4 09:15:02 2026[0,1]<stdout>:step 10 loss 2.5\n")
    ingest(write_job(tmp_path / "job", {"horovodrun.log": text}), out_parquet=tmp_path / "t.parquet", options=QUIET)
    rows = [(r["rank"], r["message"]) for r in pq.read_table(tmp_path / "t.parquet").to_pylist()
            if not r["message"].startswith("Wed Mar")]
    assert rows == [(3, "RuntimeError: CUDA error: out of memory"), (1, "step 10 loss 2.5")]


def test_determined_trial_log_prefix_and_horovods_gloo_store_wait(tmp_path):
    # Determined's trial log wraps each line in the master's stamp, the container and the state;
    # Horovod's gloo rendezvous is an HTTP store whose wait ran out: the processes never met
    text = ("[2021-02-01T08:00:05Z] 1a2b3c4d [RUNNING] ||  Mon Feb  1 08:00:05 2021[2]<stderr>:terminate called after "
            "throwing an instance of 'gloo::IoException'\n"
            "[2021-02-01T08:00:05Z] 1a2b3c4d [RUNNING] ||  Mon Feb  1 08:00:05 2021[2]<stderr>:  what():  "
            "[horovod/common/gloo/http_store.cc:57] Wait timeout after 60 seconds for key(s): 3\n")
    v = verdict(tmp_path, {"trial_logs.txt": text})
    assert v.status == "failed" and v.root_cause.category == "rendezvous"
    assert v.root_cause.evidence.text.startswith("terminate called")


def test_a_rank_whose_stream_reports_a_segfault_crashed_it_did_not_vanish(tmp_path):
    # the peer lost its connection (an echo), the odd rank's last line is its shell's segfault report:
    # a crash in native code, not the silent SIGKILL of an OOM kill
    text = ("[0]<stdout>:step 30 loss 1.02\n[1]<stdout>:step 30 loss 1.04\n"
            "[1]<stderr>:Segmentation fault (core dumped)\n"
            "[0]<stderr>:RuntimeError: [/tmp/gloo/transport/tcp/pair.cc:589] Connection closed by peer [10.1.0.5]:4101\n")
    v = verdict(tmp_path, {"horovodrun.log": text})
    assert v.initiating.rank == 1 and v.root_cause.category == "other"


def test_an_indented_exception_line_alone_is_failure_evidence(tmp_path):
    # a platform's log view relays a rank's line indented; the exception is the whole excerpt
    v = verdict(tmp_path, {"excerpt.log": "[1,3]<stderr>:    ModuleNotFoundError: No module named 'apex'\n"})
    assert v.status == "failed" and v.root_cause.evidence.rank == 3
    v = verdict(tmp_path / "note", {"excerpt.log": "[1,3]<stdout>:    Note: retrying; last Error: none\n"})
    assert v.status != "failed"


# ---- round T (2026-12-07): a relayed NCCL detail, a dump's wait, srun's teardown, records of ends
def test_ncclss_relayed_last_error_naming_its_transport_is_the_network(tmp_path):
    # the carrier is a system error here (round T's was an internal error); the detail is the IB
    # transport's, under a launcher's rank prefix
    text = ("[default3]:torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:2204, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
            "[default3]:ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
            "[default3]:Last error:\n"
            "[default3]:NET/IB : No device found.\n")
    v = verdict(tmp_path, {"node7.log": text})
    assert v.status == "failed" and v.root_cause.category == "nccl_network"
    other = text.replace("NET/IB : No device found.",
                         "Cuda failure 'out of memory'")
    assert verdict(tmp_path / "cuda", {"node7.log": other}).root_cause.category != "nccl_network"


def test_a_rank_whose_watchdog_waited_for_the_dump_was_itself_waiting(tmp_path):
    # two ranks' watchdogs fire; one says it gave up waiting for the flight recorder's dump: it is
    # no silent rank, and the logs name nobody
    text = ("{'loss': 1.2, 'grad_norm': 0.8, 'learning_rate': 1e-05, 'epoch': 0.1}\n"
            "[rank6]:[W1107 03:10:44.120000001 ProcessGroupNCCL.cpp:2130] [PG ID 0 PG GUID 0(default_pg) Rank 6] "
            "timed out after waiting for 30000ms flight recorder dumps to finish.\n"
            "[rank2]:[E1107 03:10:44.220000001 ProcessGroupNCCL.cpp:702] [Rank 2] Some NCCL operations have failed or "
            "timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
            "corrupted/incomplete data.\n")
    v = verdict(tmp_path, {"train.log": text})
    assert v.status == "failed" and v.initiating.rank is None and v.initiating.kind == "unknown"


def test_mpiruns_report_with_a_masked_pid_still_names_the_rank(tmp_path):
    text = ("Primary job  terminated normally, but 1 process returned\n"
            "a non-zero exit code. Per user-direction, the job has been aborted.\n"
            "prterun noticed that process rank 6 with PID <pid> on node <host> exited on signal 9 (Killed).\n")
    v = verdict(tmp_path, {"mpirun.out": text})
    assert v.status == "failed" and v.initiating.rank == 6


def test_a_death_signal_after_srun_reported_a_task_failed_is_its_teardown(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/home/u/train.py", line 12, in <module>\n'
            "    cfg = load(args.config)\n"
            "KeyError: 'optimizer'\n"
            "srun: error: gpu-a11: task 3: Exited with exit code 1\n"
            "srun: Terminating StepId=88812.0\n"
            "WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, shutting down workers\n")
    v = verdict(tmp_path, {"slurm-88812.out": text})
    assert v.status == "failed" and v.root_cause.category != "killed_by_scheduler"
    assert v.initiating.kind != "external" and "KeyError" in v.root_cause.evidence.text
    # the scheduler's stated reason keeps the stop outside the job
    limit = ("slurmstepd: error: *** STEP 88812.0 ON gpu-a11 CANCELLED AT 2026-03-02T10:00:00 DUE TO TIME LIMIT ***\n"
             "srun: error: gpu-a11: task 3: Exited with exit code 1\n"
             "WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, shutting down workers\n")
    assert verdict(tmp_path / "limit", {"slurm-88812.out": limit}).initiating.kind == "external"


_MEGATRON = (" iteration {step:>8}/ 100000 | consumed samples: {s:>10} | elapsed time per iteration (ms): 812.4 | "
             "learning rate: 1.500E-04 | global batch size:    16 | {loss}loss scale: 4096.0 | grad norm: {gn} | "
             "number of skipped iterations:   0 | number of nan iterations:   0 |\n")


def test_megatron_iteration_records_are_progress_and_a_norm_that_stays_nan_diverged(tmp_path):
    lines = "".join(_MEGATRON.format(step=10 * i, s=160 * i, loss="lm loss: 6.4E+00 | ", gn=gn)
                    for i, gn in enumerate(("0.912", "1.044", "nan", "nan"), start=1))
    v = verdict(tmp_path, {"megatron.log": lines})
    assert v.status == "failed" and v.root_cause.category == "nan_divergence"
    # a nan the loss scaler skipped, finite again after: the run went on
    skipped = "".join(_MEGATRON.format(step=10 * i, s=160 * i, loss="", gn=gn)
                      for i, gn in enumerate(("0.912", "nan", "1.044", "0.987"), start=1))
    assert verdict(tmp_path / "skip", {"megatron.log": skipped}).status != "failed"


def test_torchelastic_worker_events_that_succeeded_are_a_healthy_end(tmp_path):
    ev = ('{{"name": "torchelastic.worker.status.{state}", "source": "WORKER", "timestamp": 0, "metadata": '
          '{{"run_id": "j7", "global_rank": {r}, "group_rank": 0, "worker_id": "{pid}", "role": "trainer", '
          '"hostname": "n3", "state": "{state}", "total_run_time": 41, "rdzv_backend": "c10d", "raw_error": null, '
          '"metadata": "{{}}", "agent_restarts": 0}}}}\n')
    ok = "".join(ev.format(state="SUCCEEDED", r=r, pid=700 + r) for r in range(3))
    assert verdict(tmp_path, {"events.jsonl": ok}).status == "healthy"


@pytest.mark.parametrize("end, healthy", [
    ("Process finished with exit code 0", True),
    ("05/03/2026 11:00:02|execd|n4|I|job 5120.1 finished: exit_status 0, wallclock 63s", True),
    ("trainer-0 exited with code 0", True),
    ("Process finished with exit code 137", False),
    ("torchrun exited with 0x1", False),
])
def test_a_process_exit_status_of_zero_is_a_healthy_end(tmp_path, end, healthy):
    text = "".join(f"step {i} loss {2.0 - i / 10:.2f}\n" for i in range(1, 6)) + end + "\n"
    assert (verdict(tmp_path, {"run.log": text}).status == "healthy") == healthy


def test_xlas_rendezvous_that_waited_for_threads_is_a_wait(tmp_path):
    text = ("2025-02-11 09:00:31.000101: E external/xla/xla/service/rendezvous.cc:31] This thread has been waiting "
            "for `acquire clique for rank 3; clique=devices=[0,1,2,3]; stream=0` for 20 seconds and may be stuck. "
            "Expected 4 threads to join the rendezvous, but not all of them arrived on time.\n")
    v = verdict(tmp_path, {"host1.log": text})
    assert v.status == "failed" and v.root_cause.category == "nccl_timeout_hang"
    assert v.initiating.kind == "unknown"


def test_rays_memory_monitor_kill_names_the_node(tmp_path):
    line = ("(raylet) [2026-01-03 12:01:02,345 E 8812 8812] (raylet) node_manager.cc:3104: {n} Workers (tasks / "
            "actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: "
            "aa11bb22cc33, IP: 10.4.7.19) over the last time period.\n")
    v = verdict(tmp_path, {"driver.log": line.format(n=3)})
    assert v.status == "failed" and v.root_cause.category == "oom" and v.initiating.node == "10.4.7.19"
    assert verdict(tmp_path / "none", {"driver.log": line.format(n=0)}).status != "failed"


@pytest.mark.parametrize("errno, category", [("13 - Permission denied", "config_error"),
                                              ("98 - Address already in use", "rendezvous")])
def test_a_store_port_refused_for_privilege_is_the_launch_setting(tmp_path, errno, category):
    text = (f"[W1012 10:00:01.000000000 socket.cpp:464] [c10d] The server socket has failed to bind to 0.0.0.0:443 "
            f"(errno: {errno}).\n"
            "[E1012 10:00:01.000000000 socket.cpp:502] [c10d] The server socket has failed to listen on any local "
            "network address.\n")
    v = verdict(tmp_path, {"launch.log": text})
    assert v.status == "failed" and v.root_cause.category == category


def test_jax_that_could_not_start_cuda_failed_on_its_installation(tmp_path):
    text = ("WARNING:jax._src.xla_bridge:CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was "
            "built against version 8904, which is newer. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n"
            "Process 1: Local devices: [CpuDevice(id=1)]\n")
    v = verdict(tmp_path, {"proc1.log": text})
    assert v.status == "failed" and v.root_cause.category == "version_mismatch"


def test_no_space_for_a_semaphore_is_shared_memory_not_the_disk(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.11/multiprocessing/synchronize.py", line 57, in __init__\n'
            "    sl = self._semlock = _multiprocessing.SemLock(\n"
            "OSError: [Errno 28] No space left on device\n")
    v = verdict(tmp_path, {"rank0.log": text})
    assert v.status == "failed" and v.root_cause.category != "storage_io"


def test_a_sample_fetch_takes_the_category_of_the_workers_own_error(tmp_path):
    # the fetch rule names where it was raised; the worker's error says what failed (/dev/shm full)
    text = ("Traceback (most recent call last):\n"
            '  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/worker.py", line 349, in _worker_loop\n'
            "    data = fetcher.fetch(index)\n"
            '  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", line 55, in fetch\n'
            "    return self.collate_fn(data)\n"
            "RuntimeError: unable to allocate shared memory(shm) for file </torch_812_1990236523_4>: "
            "Resource temporarily unavailable (11)\n")
    v = verdict(tmp_path, {"rank3.log": text})
    assert v.root_cause.rule_id == "dataset-getitem-exception" and v.root_cause.category == "oom"
    bad = text.replace("RuntimeError: unable to allocate shared memory(shm) for file </torch_812_1990236523_4>: "
                       "Resource temporarily unavailable (11)", "ValueError: sample 91 has 0 tokens")
    assert verdict(tmp_path / "bad", {"rank3.log": bad}).root_cause.category == "data_error"


# ---- round U (2026-12-07): the launcher's record of its failed child, in rich's log layout
def test_torchruns_failed_child_in_richs_layout_names_the_local_rank(tmp_path):
    # rich puts the record's source column after "of" and wraps "binary: ..." onto the next line
    lines = ["Loading checkpoint shards: 100%|██████████| 12/12 [01:05<00:00,  5.41s/it]"]
    lines += [f" WARNING  Sending process {pid} closing signal SIGTERM         api.py:704"
              for pid in (301, 302, 303, 305, 306, 308, 309)]
    lines += [" ERROR    failed (exitcode: -9) local_rank: 3 (pid: 304) of  api.py:688", " binary: /usr/bin/python3 "]
    v = verdict(tmp_path, {"launch.log": "\n".join(lines) + "\n"})
    assert v.status == "failed" and v.initiating.rank == 3


def test_one_process_exiting_zero_is_no_recovery_from_anothers_failure(tmp_path):
    # the clean exit of one worker, printed after another rank's traceback, ends nothing of the failure
    text = ("[rank1]: Traceback (most recent call last):\n"
            '[rank1]:   File "/srv/train.py", line 40, in <module>\n'
            "[rank1]:     main()\n"
            "[rank1]: KeyError: 'input_ids'\n"
            "worker-0 exited with code 0\n")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and v.initiating.rank == 1


# ---- session 30: ranks that time out waiting in different calls entered different collectives ----

_GLOO_TIMEOUT = ("RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out "
                 "waiting 30000ms for recv operation to complete")
_IN_BACKWARD = (
    "Traceback (most recent call last):\n"
    '  File "/srv/exp/fit.py", line 211, in <module>\n'
    "    loss.backward()\n"
    '  File "/opt/venv/lib/python3.12/site-packages/torch/_tensor.py", line 648, in backward\n'
    "    torch.autograd.backward(\n"
    '  File "/opt/venv/lib/python3.12/site-packages/torch/autograd/__init__.py", line 353, in backward\n'
    "    _engine_run_backward(\n"
    '  File "/opt/venv/lib/python3.12/site-packages/torch/autograd/graph.py", line 824, in _engine_run_backward\n'
    "    return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass\n"
)
_IN_BROADCAST = (
    "Traceback (most recent call last):\n"
    '  File "/srv/exp/fit.py", line 230, in <module>\n'
    "    dist.broadcast(best, src=0)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/torch/distributed/c10d_logger.py", line 81, in wrapper\n'
    "    return func(*args, **kwargs)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py", line 2772, in broadcast\n'
    "    work.wait()\n"
)


def _ranked(rank: int, text: str, prefix: str) -> str:
    return "".join(prefix.format(r=rank) + line + "\n" for line in text.splitlines())


@pytest.mark.parametrize("prefix", ["[rank{r}]: ", "Mar 02 04:11:52 gpu-{r} train[77]: "])
def test_the_rank_waiting_in_another_call_than_its_peers_ran_another_collective(tmp_path, prefix):
    files = {f"rank{r}.log": _ranked(r, (_IN_BROADCAST if r == 2 else _IN_BACKWARD) + _GLOO_TIMEOUT, prefix)
             for r in range(4)}
    v = verdict(tmp_path, files)
    assert v.root_cause.category == "collective_mismatch", v.root_cause.explanation
    assert v.initiating.rank == 2


def test_ranks_waiting_in_one_call_ran_no_other_collective(tmp_path):
    files = {f"rank{r}.log": _ranked(r, _IN_BACKWARD + _GLOO_TIMEOUT, "[rank{r}]: ") for r in range(4)}
    v = verdict(tmp_path, files)
    assert v.root_cause.category == "nccl_timeout_hang"
    assert v.initiating.rank is None


# ---- round V: launchers' own reports, lagging ranks named by their peers, messages' meaning ----

_DASHES = "-" * 74 + "\n"


def test_mpiruns_notice_that_it_aborted_the_job_is_a_failure(tmp_path):
    text = ("epoch 0 done\n" + _DASHES + "Primary job  terminated normally, but 1 process returned\n"
            "a non-zero exit code. Per user-direction, the job has been aborted.\n" + _DASHES)
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed"


def test_mpiruns_first_failed_process_names_the_rank_of_an_unranked_error(tmp_path):
    text = ("python3: can't open file '/srv/exp/pretrain.py': [Errno 2] No such file or directory\n"
            + _DASHES + "Primary job  terminated normally, but 1 process returned\n"
            "a non-zero exit code. Per user-direction, the job has been aborted.\n" + _DASHES + _DASHES
            + "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
            "the job to be terminated. The first process to do so was:\n\n"
            "  Process name: [[40712,1],3]\n  Exit code:    2\n" + _DASHES)
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and v.root_cause.category == "config_error"
    assert v.initiating.rank == 3


def test_mpirun_that_launched_nothing_is_every_ranks_setting(tmp_path):
    text = (_DASHES + "mpirun was unable to find the specified executable file, and therefore\n"
            "did not launch the job.  This error was first reported for process\n"
            "rank 0; it may have occurred for other processes as well.\n\n"
            "NOTE: A common cause for this error is misspelling a mpirun command\n"
            "      line parameter option (remember that mpirun interprets the first\n"
            "      unrecognized command line token as the executable).\n\n"
            "Node:       gpu-17\nExecutable: finetune.py\n" + _DASHES)
    v = verdict(tmp_path, {"console.log": text})
    assert v.root_cause.category == "config_error" and v.initiating.all_ranks


def test_mpirun_that_could_not_execute_on_one_node_blames_that_node(tmp_path):
    text = (_DASHES + "mpirun was unable to launch the specified application as it could not access\n"
            "or execute an executable:\n\nExecutable: /scratch/bin/solver\nNode: cn-0412\n\n"
            "while attempting to start process rank 16.\n" + _DASHES)
    v = verdict(tmp_path, {"console.log": text})
    assert v.root_cause.category == "config_error" and v.initiating.node == "cn-0412"


def test_horovodruns_worker_exit_and_one_ranks_clean_end_in_a_shared_console(tmp_path):
    # rank 1 raised; rank 0 later printed its own clean end: no recovery from rank 1's failure
    text = ("[0]<stdout>:starting\n[1]<stdout>:starting\n"
            "[1]<stderr>:Traceback (most recent call last):\n"
            '[1]<stderr>:  File "/srv/job/worker.py", line 31, in <module>\n'
            "[1]<stderr>:    shard = load_shard(args.shard_dir, hvd.rank())\n"
            "[1]<stderr>:FileNotFoundError: [Errno 2] No such file or directory: '/data/shards/part-0001.arrow'\n"
            "Process 1 exit with status code 1.\n"
            "[0]<stdout>:training finished\n")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and v.initiating.rank == 1


def test_submitits_preemption_is_a_stop_from_outside(tmp_path):
    text = ("submitit INFO (2024-03-02 10:00:01,100) - Starting with JobEnvironment(job_id=771, hostname=gpu-3, "
            "local_rank=0(4), node=0(1), global_rank=0(4))\n"
            "submitit INFO (2024-03-02 10:41:17,020) - Job has not timed out. Ran 41 minutes out of requested 600 minutes.\n"
            "submitit WARNING (2024-03-02 10:41:17,021) - Caught signal SIGUSR2 on gpu-3: this job is preempted.\n"
            "submitit INFO (2024-03-02 10:41:17,050) - Requeued job 771 (2 remaining timeouts)\n")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and v.root_cause.category == "killed_by_scheduler"
    assert v.initiating.kind == "external"


@pytest.mark.parametrize(("world", "workers", "ours"), [(4, 6, True), (4, 3, False)])
def test_more_processes_at_the_store_barrier_than_the_world_is_the_launchs_setting(tmp_path, world, workers, ours):
    line = ("2023-01-09 11:00:{s:02d} | INFO | torch.distributed.distributed_c10d | Waiting in store based barrier to "
            "initialize process group for rank: {r}, key: store_based_barrier_key:1 (world_size={w}, "
            "worker_count={c}, timeout=0:30:00)\n")
    text = "".join(line.format(s=10 * i + r, r=r, w=world, c=workers) for i in range(2) for r in range(2))
    v = verdict(tmp_path, {"train.log": text})
    named = v.root_cause is not None and v.root_cause.rule_id == "store-barrier-more-workers-than-world"
    assert named == ours
    if ours:
        assert v.root_cause.category == "config_error" and v.initiating.all_ranks


def test_the_desync_report_names_the_rank_that_never_joined_the_next_collective(tmp_path):
    text = ("[rank2]:[E1002 07:10:01.000000001 ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=88, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, Timeout(ms)=600000) ran for 600042 "
            "milliseconds before timing out.\n"
            "[rank2]:[E1002 07:10:01.000100001 ProcessGroupNCCL.cpp:1937] Rank 2\n"
            "         - [2] Timeout at collective: ALLREDUCE, #88\n"
            "         - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:\n"
            "             [5] finished collective #61, but didn't join collective #62 (count from 1)\n"
            "         - Snapshot of ranks' latest states:\n"
            "           #61 finished ranks:\n"
            "             [5] finished BROADCAST\n")
    v = verdict(tmp_path, {"rank2.log": text})
    assert v.initiating.rank == 5 and v.root_cause.category == "nccl_timeout_hang"


@pytest.mark.parametrize(("group", "named"), [("[Rank 6]", 6), ("[PG ID 0 PG GUID 0(default_pg) Rank 6]", 6),
                                              ("[PG ID 3 PG GUID 7(tp) Rank 6]", None)])
def test_a_default_groups_rank_names_an_otherwise_unranked_culprit(tmp_path, group, named):
    text = (f"(EngineWorker pid=9917) [E ProcessGroupNCCL.cpp:916] {group} NCCL watchdog thread terminated with "
            "exception: CUDA error: an illegal memory access was encountered\n")
    v = verdict(tmp_path, {"worker.log": text})
    assert v.initiating.rank == named


def test_a_tensor_parallel_workers_name_is_its_rank(tmp_path):
    text = ("(Worker_TP0 pid=2101) INFO 03-01 10:00:01 [gpu_worker.py:88] warmup done\n"
            "(Worker_TP2 pid=2103) INFO 03-01 10:00:01 [gpu_worker.py:88] warmup done\n"
            "(Worker_TP2 pid=2103) ERROR 03-01 10:02:11 [multiproc_executor.py:611] WorkerProc hit an exception.\n"
            "(Worker_TP2 pid=2103) ERROR 03-01 10:02:11 [multiproc_executor.py:611] Traceback (most recent call last):\n"
            '(Worker_TP2 pid=2103) ERROR 03-01 10:02:11 [multiproc_executor.py:611]   File "/opt/vllm/worker.py", line 40, in run\n'
            "(Worker_TP2 pid=2103) ERROR 03-01 10:02:11 [multiproc_executor.py:611]     out = self.model(batch)\n"
            "(Worker_TP2 pid=2103) ERROR 03-01 10:02:11 [multiproc_executor.py:611] RuntimeError: CUDA error: an illegal "
            "memory access was encountered\n")
    v = verdict(tmp_path, {"serve.log": text})
    assert v.initiating.rank == 2


@pytest.mark.parametrize(("text", "category"), [
    ("ValueError: the number of columns changed from 12 to 5 at row 20417; use `usecols` to select a subset and "
     "avoid this error", "data_error"),
    ("OSError: /scratch/local/ext/libfused_norm.so: failed to map segment from shared object", "storage_io"),
    ("Traceback (most recent call last):\n  File \"/srv/exp/fit.py\", line 88, in build\n    opt = "
     "torch.optim.SGD(params, lr=cfg.lr, momentum=cfg.mom)\n  File \"/opt/venv/lib/python3.12/site-packages/torch/"
     "optim/sgd.py\", line 31, in __init__\n    if lr < 0.0:\nTypeError: '<' not supported between instances of "
     "'str' and 'float'", "config_error"),
])
def test_what_the_message_means_places_it(text, category):
    from correlator.analysis.classifier import classify_failure
    assert classify_failure(text, None).category == category


def test_the_watchdogs_note_of_a_process_group_shut_down_is_a_clean_end(tmp_path):
    text = ("I0301 09:12:01.100200 77120 ProcessGroupNCCL.cpp:484] [Rank 1] found async exception when checking for "
            "NCCL errors: NCCL communicator encountered error set by ProcessGroupNCCL: Process Group shutdown on rank 1\n"
            "Exception raised from checkForNCCLErrorsInternal at /opt/pytorch/torch/csrc/distributed/c10d/"
            "ProcessGroupNCCL.cpp:1729 (most recent call first):\n")
    assert verdict(tmp_path, {"rank1.log": text}).status == "healthy"


# ---- round W ----

def test_horovods_stall_inspector_says_a_collective_stalled(tmp_path):
    text = ("[1,0]<stdout>:step 1200 loss 2.71\n[1,1]<stdout>:step 1200 loss 2.69\n"
            "[1,0]<stderr>:[2021-06-01 10:11:12.000001: W /tmp/pip-req-build/horovod/common/stall_inspector.cc:107] "
            "One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are "
            "waiting for remainder of ranks for more than 60 seconds. This may indicate that different ranks are "
            "trying to submit different tensors or that only subset of ranks is submitting tensors, which will "
            "cause deadlock.\n")
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and v.root_cause.category == "nccl_timeout_hang"


def test_xla_dists_prefix_names_each_line_s_host(tmp_path):
    text = ("2022-02-01 09:00:01 10.0.0.12 [1] Traceback (most recent call last):\n"
            '2022-02-01 09:00:01 10.0.0.12 [1]   File "/home/u/run.py", line 9, in <module>\n'
            "2022-02-01 09:00:01 10.0.0.12 [1]     shard = open(path)\n"
            "2022-02-01 09:00:01 10.0.0.12 [1] FileNotFoundError: [Errno 2] No such file or directory: '/mnt/d/s-1'\n"
            "2022-02-01 09:00:03 10.0.0.11 [0] epoch 1 step 10 loss 3.2\n")
    v = verdict(tmp_path, {"xla_dist.log": text})
    assert v.status == "failed" and v.initiating.node == "10.0.0.12"


def test_an_exit_status_0_logged_at_error_level_is_no_failure(tmp_path):
    text = ("2026-01-01 10:00:01,000 INFO [rank 0] step 10 loss 1.2\n"
            "2026-01-01 10:00:02,000 INFO [rank 0] training complete\n"
            '{"level":"error","message":"Forever detected script exited with code: 0"}\n')
    v = verdict(tmp_path, {"rank0.forever.log": text})
    assert v.status != "failed", v.status_reason


def test_mpiruns_abort_notice_is_no_rival_of_the_processes_own_errors(tmp_path):
    text = ("[1,1]<stderr>:[cn07:81234] *** Process received signal ***\n"
            "[1,1]<stderr>:[cn07:81234] Signal: Segmentation fault (11)\n"
            "[1,1]<stderr>:[cn07:81234] Signal code: Address not mapped (1)\n"
            "[1,1]<stderr>:[cn07:81234] *** End of error message ***\n"
            + _DASHES + "Primary job  terminated normally, but 1 process returned\n"
            "a non-zero exit code. Per user-direction, the job has been aborted.\n" + _DASHES)
    v = verdict(tmp_path, {"console.log": text})
    assert v.status == "failed" and "Segmentation fault" in v.root_cause.evidence.text
    assert v.initiating.rank == 1


def test_a_stall_warning_the_job_trained_on_after_did_not_end_it(tmp_path):
    stall = ("[1,0]<stderr>:[2021-06-01 10:11:12.000001: W horovod/common/stall_inspector.cc:107] One or more tensors "
             "were submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for remainder "
             "of ranks for more than 60 seconds.\n")
    steps = "".join(f"[1,{r}]<stderr>:INFO:tensorflow:loss = 2.{r}1, step = {s}\n" for s in (0, 100) for r in (0, 1))
    v = verdict(tmp_path, {"console.log": stall + steps})
    assert v.status != "failed", v.status_reason
    assert verdict(tmp_path / "stuck", {"console.log": steps + stall}).status == "failed"


# ---- round X ----

def test_a_launchers_report_of_a_ranks_signal_names_that_rank_where_nothing_else_does(tmp_path):
    pals = ("nid004312.hsn.cluster.example.org: rank 17 died from signal 11\n"
            "nid004301.hsn.cluster.example.org: rank 0 died from signal 15\n")
    v = verdict(tmp_path / "pals", {"mpiexec.log": pals})
    assert v.status == "failed" and v.initiating.rank == 17
    ompi = (_DASHES + "Primary job  terminated normally, but 1 process returned\n"
            "a non-zero exit code. Per user-direction, the job has been aborted.\n" + _DASHES + _DASHES
            + "mpirun noticed that process rank 3 with PID 40417 on node gpu-b7 exited on signal 11 "
              "(Segmentation fault).\n" + _DASHES)
    v = verdict(tmp_path / "ompi", {"console.log": ompi})
    assert v.status == "failed" and v.initiating.rank == 3


@pytest.mark.parametrize(("tail", "healthy"), [
    ("-" * 64 + "\ntotal images/sec: 311.02\n" + "-" * 64 + "\n", True),
    ("Number of trials: 4/4 (4 TERMINATED)\n", True),
    ("Number of trials: 4/4 (1 ERROR, 3 TERMINATED)\n", False),
])
def test_a_benchmarks_or_tuners_closing_summary_is_a_healthy_end(tmp_path, tail, healthy):
    steps = "".join(f"{s}\timages/sec: 311.{s % 7} +/- 0.1 (jitter = 0.4)\t7.1{s % 10}\n" for s in (10, 20, 30))
    v = verdict(tmp_path, {"console.log": steps + tail})
    assert (v.status == "healthy") == healthy, v.status_reason


# ---- session 31 ---------------------------------------------------------------------
# A wait's own traceback says which collective the rank waited in; a traceback that
# ended earlier (a caught, retried read error, training on after it) is not that wait's.
_GLOO_WAIT = ("RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] "
              "Timed out waiting 1800000ms for recv operation to complete")


def _waiting_rank(rank: int) -> str:
    return "".join(f"step {s} loss {2.0 - s / 10:.2f}\n" for s in range(1, 6)) + f"""\
Traceback (most recent call last):
  File "/srv/job/train.py", line 88, in <module>
    main()
  File "/srv/job/train.py", line 71, in main
    dist.all_reduce(grads)
  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2501, in all_reduce
    work.wait()
{_GLOO_WAIT}
"""


@pytest.mark.parametrize("prefix", ["", "Dec 06 22:07:40 r{r} [rank{r}]: "])
def test_a_caught_traceback_before_a_wait_is_not_the_collective_it_waited_in(tmp_path, prefix):
    survived = """\
step 1 loss 1.90
step 2 loss 1.80
Traceback (most recent call last):
  File "/srv/job/shards.py", line 31, in read_shard
    return fh.read()
OSError: [Errno 5] Input/output error
retrying shard 7 after a read error
step 3 loss 1.70
step 4 loss 1.60
step 5 loss 1.50
""" + _GLOO_WAIT + "\n"
    files = {f"rank{r}.log": text for r, text in enumerate([_waiting_rank(0), survived, _waiting_rank(2)])}
    # (a prefix the fold does not see through: each line its own event, the traceback read back to its header)
    files = {n: "".join(prefix.format(r=n[4]) + ln + "\n" for ln in text.splitlines()) for n, text in files.items()}
    v = verdict(tmp_path, files)
    # rank 1 did not run a different collective (read_shard is the read it survived)
    assert all(h.category != "collective_mismatch" for h in v.hypotheses), v.hypotheses


# Horovod's stall inspector names the ranks its coordinator waits for, one line each under
# "Missing ranks:" (or "Stalled ranks:"), or lists the ranks that were ready: those numbers
# are the suspects, not srun labels of the coordinator's lines.
_HVD_WARN = ("[2023-03-02 10:11:12.345678: W horovod/common/stall_inspector.cc:105] One or more tensors were "
             "submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for remainder "
             "of ranks for more than 60 seconds. This may indicate that different ranks are trying to submit "
             "different tensors or that only subset of ranks is submitting tensors, which will cause deadlock. ")


@pytest.mark.parametrize("header", ["Missing ranks:", "Stalled ranks:"])
@pytest.mark.parametrize("wrap", ["{}", "[1,0]<stderr>:{}", "0: {}"])
@pytest.mark.parametrize("stalled", [3, 5])
def test_horovods_stall_list_names_the_rank_waited_for(tmp_path, header, wrap, stalled):
    lines = [_HVD_WARN, header, f"{stalled}: [DistributedAdam_Allreduce/HorovodAllreduce_grads_{stalled}_0, "
                                f"DistributedAdam_Allreduce/HorovodAllreduce_grads_{stalled + 1}_0]"]
    v = verdict(tmp_path, {"console.log": "".join(wrap.format(x) + "\n" for x in lines)})
    assert v.status == "failed"
    assert v.root_cause is not None and v.root_cause.category == "nccl_timeout_hang"
    assert v.initiating is not None and v.initiating.rank == stalled
    # the first deviating line is the coordinator's warning with its list, a line of rank 0's
    assert v.first_deviating is not None and "stall_inspector.cc" in v.first_deviating.text
    if wrap.startswith("[1,0]"):
        assert v.first_deviating.rank == 0


def test_horovods_ready_list_names_the_rank_not_ready(tmp_path):
    console = "".join(
        f"Stalled ops: HorovodBroadcast_resnet_block{i}_weights_0 [ready ranks: 3, 0, 4, 2],\n" for i in range(3)
    ) + "[1,3]<stderr>:INFO:tensorflow:Running local_init_op.\n"
    v = verdict(tmp_path, {"console.log": console})
    assert v.initiating is not None and v.initiating.rank == 1


def test_an_srun_labelled_list_that_is_no_stall_list_keeps_its_labels(tmp_path):
    # "3: [..." lines of an srun -l console with no stall header: srun labels as ever
    console = "0: [INFO] step 10 loss 1.2\n3: [INFO] step 10 loss 1.3\n3: [a, b]\n"
    ingest(write_job(tmp_path / "job", {"console.log": console}), out_parquet=tmp_path / "t.parquet", options=QUIET)
    rows = pq.read_table(tmp_path / "t.parquet").select(["task", "message"]).to_pylist()
    assert {(r["task"], r["message"]) for r in rows} >= {(0, "[INFO] step 10 loss 1.2"), (3, "[a, b]")}


# A training loop whose records reached the last epoch's end (and whose later records,
# an evaluation bar, reached theirs) finished, with no completion line printed or pasted.
def _epoch_records(epochs: int, last_epoch: int, steps: int, last_step: int, style: str) -> str:
    out = []
    for e in range(1, last_epoch + 1):
        stop = last_step if e == last_epoch else steps
        for s in range(max(1, stop - 2), stop + 1):
            if style == "bar":
                pct = 100 * s // steps
                out.append(f"Training Epoch: {e}/{epochs}, step {s}/{steps} completed (loss: {1.5 / e:.4f}): "
                           f"{pct}%|#####     | {s}/{steps} [01:0{e}<00:00,  1.9it/s]")
            else:
                out.append(f"Epoch [{e}/{epochs}], Step [{s}/{steps}], Loss: {1.5 / e:.4f}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("style", ["bar", "plain"])
def test_a_loop_that_finished_its_last_epoch_is_a_healthy_end(tmp_path, style):
    files = {f"rank{r}.log": _epoch_records(4, 4, 300, 300, style) for r in range(2)}
    files["rank0.log"] += "evaluating Epoch: 100%|##########| 25/25 [00:04<00:00,  5.2it/s]\n"
    v = verdict(tmp_path, files)
    assert v.status == "healthy", v.status_reason


@pytest.mark.parametrize("last_epoch, last_step", [(3, 300), (4, 120)])
def test_a_loop_short_of_its_last_epochs_end_is_no_healthy_end(tmp_path, last_epoch, last_step):
    files = {f"rank{r}.log": _epoch_records(4, last_epoch, 300, last_step, "plain") for r in range(2)}
    assert verdict(tmp_path, files).status != "healthy"


def test_an_evaluation_cut_short_after_the_last_epoch_is_no_healthy_end(tmp_path):
    files = {"rank0.log": _epoch_records(2, 2, 50, 50, "bar")
             + "evaluating Epoch:  36%|###6      | 9/25 [00:01<00:03,  5.2it/s]\n"}
    assert verdict(tmp_path, files).status != "healthy"


# Gloo's full mesh failing where a machine's ranks bound loopback is that machine's set-up
_LOOPBACK = ("[rank{r}]:[W1203 09:14:02.118203311 ProcessGroupGloo.cpp:715] Warning: Unable to resolve hostname to a "
             "(local) address. Using the loopback address as fallback. Manually set the network interface to bind "
             "to with GLOO_SOCKET_IFNAME. (function operator())")
_MESH = ("[rank{r}]:[E1203 09:14:32.520114017 ProcessGroupGloo.cpp:143] Gloo connectFullMesh failed with "
         "[../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error")


@pytest.mark.parametrize("warned", [True, False])
def test_gloos_mesh_failure_after_a_loopback_fallback_is_configuration(tmp_path, warned):
    files = {
        "node-a/rank0.log": "INFO 12-03 09:14:01 world_size=2 rank=0 backend=nccl\n",
        "node-b/rank1.log": (_LOOPBACK.format(r=1) + "\n" if warned else "") + _MESH.format(r=1) + "\n",
    }
    v = verdict(tmp_path, files)
    assert v.status == "failed" and v.root_cause is not None
    assert v.root_cause.category == ("config_error" if warned else "nccl_network")


# Two machines told apart by a letter (node-a/, node-b/); both ranks of one fail alike
# on what the machine gives them (its disk), the other's ranks only lose their peers
_SAVE_FULL = """\
Traceback (most recent call last):
  File "/srv/job/train.py", line 140, in <module>
    main()
  File "/srv/job/train.py", line 122, in main
    torch.save(state, f"/scratch/ckpt/shard-{rank}.pt")
  File "/opt/venv/lib/python3.11/site-packages/torch/serialization.py", line 965, in save
    with _open_zipfile_writer(f) as opened_zipfile:
RuntimeError: [enforce fail at inline_container.cc:664] . unexpected pos 1536 vs 1430
"""


@pytest.mark.parametrize("a, b", [("node-a", "node-b"), ("hostA", "hostB")])
def test_one_machines_ranks_failing_alike_on_its_disk_is_that_machine(tmp_path, a, b):
    steps = "".join(f"[rank{{r}}] step {s} loss {1.0 / s:.3f}\n" for s in range(1, 4))
    lost = ("[rank{r}]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] "
            "Connection closed by peer [10.0.0.12]:29511\n")
    files = {f"{a}/console.log": "".join((steps + lost).format(r=r) for r in (0, 1)),
             f"{b}/console.log": "".join(steps.format(r=r) + "".join(f"[rank{r}]: {ln}\n" for ln in _SAVE_FULL.splitlines())
                                         for r in (2, 3))}
    v = verdict(tmp_path, files)
    assert v.root_cause is not None and v.root_cause.category == "storage_io"
    assert v.initiating is not None and v.initiating.rank is None and v.initiating.node == b


def test_a_plural_folder_is_no_machine():
    from correlator.ingest.attribute import facts_from_path
    assert facts_from_path("workers/w1.log").node is None
    assert facts_from_path("nodes/a.log").node is None
    assert facts_from_path("node-b/console.log").node == "node-b"


# A command line every rank gets, refused by the first rank to parse it; the launcher
# terminated the other before it printed anything: that rank did not pass the check
def test_a_refused_command_line_with_the_other_rank_terminated_is_every_ranks(tmp_path):
    usage = ("usage: fit.py [-h] [--optimizer {sgd,adamw}] [--warmup WARMUP]\n"
             "fit.py: error: argument --optimizer: invalid choice: 'lamb' (choose from 'sgd', 'adamw')\n")
    table = """\
W1207 11:02:13.545000 812 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 871 closing signal SIGTERM
E1207 11:02:13.561000 812 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 2) local_rank: 0 (pid: 870) of binary: /opt/venv/bin/python3
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
fit.py FAILED
------------------------------------------------------------
Failures:
[1]:
  time      : 2026-12-07_11:02:13
  host      : trainer-0
  rank      : 1 (local_rank: 1)
  exitcode  : -15 (pid: 871)  (SIGTERM)
  error_file: <N/A>
  traceback : Signal 15 (SIGTERM) received by PID 871
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-12-07_11:02:13
  host      : trainer-0
  rank      : 0 (local_rank: 0)
  exitcode  : 2 (pid: 870)
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
""".replace("ChildFailedError:\n", "ChildFailedError: \n")  # torch prints a trailing space there
    v = verdict(tmp_path, {"run/attempt_0/0/stderr.log": usage, "run/attempt_0/1/stdout.log": "starting rank 1\n",
                           "console.log": table})
    assert v.root_cause is not None and v.root_cause.category == "config_error"
    assert v.initiating is not None and v.initiating.all_ranks


# A broadcasting error raised in the optimizer's own step is a restored state of another
# shape (configuration); the same error in the model's forward is the code's
@pytest.mark.parametrize("where, category", [
    ('  File "/opt/venv/lib/python3.11/site-packages/torch/optim/sgd.py", line 341, in _single_tensor_sgd\n'
     "    buf.mul_(momentum).add_(grad, alpha=1 - dampening)\n", "config_error"),
    ('  File "/srv/job/net.py", line 52, in forward\n    return h + self.skip(x)\n', "code_exception"),
])
def test_a_shape_error_in_the_optimizers_step_is_a_restored_state(tmp_path, where, category):
    tb = ("Traceback (most recent call last):\n"
          '  File "/srv/job/fit.py", line 77, in <module>\n    run()\n' + where
          + "RuntimeError: The size of tensor a (96) must match the size of tensor b (64) at non-singleton dimension 0\n")
    console = "".join(f"[rank1]: {ln}\n" for ln in tb.splitlines())
    v = verdict(tmp_path, {"console.log": "[rank0]: step 1 loss 0.9\n[rank1]: step 1 loss 0.8\n" + console})
    assert v.root_cause is not None and v.root_cause.category == category


# A loop that logs each epoch's end, whose last record is of an epoch it has not closed,
# stopped inside that epoch: a snapshot, whatever warnings it trained on after
@pytest.mark.parametrize("closed_last", [True, False])
def test_a_stream_stopped_inside_an_epoch_it_did_not_close_is_no_healthy_end(tmp_path, closed_last):
    lines = ["2026-12-07 09:00:00,000 WARNING [rank0] hostname of the client socket cannot be retrieved"]
    for e in range(1, 5):
        lines += [f"2026-12-07 09:0{e}:{s:02d},000 INFO [rank0] fit: epoch {e} step {e * 100 + s} loss 0.{9 - e}1"
                  for s in range(10, 40, 10)]
        if e < 4 or closed_last:
            lines.append(f"2026-12-07 09:0{e}:50,000 INFO [rank0] fit: epoch {e} finished, mean loss 0.{9 - e}0")
    v = verdict(tmp_path, {"rank0.log": "\n".join(lines) + "\n"})
    assert (v.status == "healthy") == closed_last, v.status_reason


# Ascend's CANN error codes head their lines ("EI0006: ..."): no pdsh host; HCCL's socket
# timeout is a wait (an echo), the HCCP process refused is the device's own failure
def test_hccls_timeout_is_an_echo_and_a_cann_code_is_no_host(tmp_path):
    console = """\
[rank2]: RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:281 OPS function error: HcclAllreduce, error code is 6
[rank2]: [ERROR] 2025-06-02-10:11:12 (PID:48213, Device:2, RankID:2) ERR01100 OPS call acl api failed.
[rank2]: EI0006: [PID: 48213] 2025-06-02-10:11:12.123.456 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck
"""
    v = verdict(tmp_path, {"console.log": console})
    assert v.status == "failed" and v.root_cause is not None and v.root_cause.category == "nccl_timeout_hang"
    assert v.initiating is not None and v.initiating.rank != 2 and v.initiating.node is None


def test_an_npu_held_by_an_old_process_is_the_hccp_failure(tmp_path):
    console = """\
Traceback (most recent call last):
  File "/opt/job/sft.py", line 30, in <module>
    dist.barrier()
RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64
[ERROR] 2024-11-03-08:01:02 (PID:7713, Device:5, RankID:5) ERR02200 DIST call hccl api failed.
EJ0001: 2024-11-03-08:01:02.555.101 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.
        Solution: Wait for 10s after killing the last training process and try again.
"""
    v = verdict(tmp_path, {"console.log": console})
    assert v.root_cause is not None and v.root_cause.rule_id == "hccp-init-failed"
    assert v.initiating is not None and v.initiating.node is None


@pytest.mark.parametrize("line, category", [
    ("RuntimeError: half_guard: loss 9.7e+04 out of the float16 range at step 311", "nan_divergence"),
    ("[rank3]: OverflowError: comm hook: gradients overflowed fp16 in bucket 2", "nan_divergence"),
    ("OverflowError: cannot fit 'int' into an index-sized integer", None),
])
def test_a_gradient_out_of_its_precisions_range_is_divergence(line, category):
    c = classify_failure(line, "during_training")
    got = c.category if c is not None and c.by_meaning else None
    assert got == category


# An elastic restart that recovered: attempt_0's unstamped stderr holds the failure, every
# rank's attempt_1 says training finished: the failure was recovered from
def test_a_failure_in_an_attempt_the_next_one_recovered_from_is_no_failure(tmp_path):
    tb = ("[rank1]: Traceback (most recent call last):\n"
          '[rank1]:   File "/srv/job/fit.py", line 40, in <module>\n[rank1]:     load_shard()\n'
          "[rank1]: zipfile.BadZipFile: File is not a zip file\n")
    files = {"logs/run_x1/attempt_0/1/stderr.log": tb, "logs/run_x1/attempt_0/0/stderr.log": ""}
    for r in (0, 1):
        files[f"logs/run_x1/attempt_0/{r}/stdout.log"] = f"2026-12-07 09:00:0{r},000 INFO [rank {r}] fit: start\n"
        files[f"logs/run_x1/attempt_1/{r}/stdout.log"] = (
            f"2026-12-07 09:01:0{r},000 INFO [rank {r}] fit: start\n"
            f"2026-12-07 09:02:0{r},000 INFO [rank {r}] fit: epoch 1 loss 0.5\n"
            f"2026-12-07 09:03:0{r},000 INFO [rank {r}] fit: training finished\n")
    files = {k: v for k, v in files.items() if v}
    assert verdict(tmp_path, files).status == "healthy"


def test_numpy_1_reading_a_numpy_2_pickle_is_a_version_skew(tmp_path):
    tb = ("Traceback (most recent call last):\n"
          '  File "/srv/job/prep.py", line 12, in <module>\n    stats = pickle.load(fh)\n'
          "ModuleNotFoundError: No module named 'numpy._core'\n")
    v = verdict(tmp_path, {"console.log": "".join(f"[rank3]: {ln}\n" for ln in tb.splitlines())})
    assert v.root_cause is not None and v.root_cause.category == "version_mismatch"


# torchrun's own ChildFailedError, its table cut from the paste: the launcher saw a worker fail
# (a failure of the job), and its words say nothing of why (no category read from them)
def test_torchruns_child_failed_error_alone_is_a_failure_of_no_known_cause(tmp_path):
    console = """\
Traceback (most recent call last):
  File "/opt/conda/bin/torchrun", line 33, in <module>
    sys.exit(load_entry_point('torch', 'console_scripts', 'torchrun')())
  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/launcher/api.py", line 264, in launch_agent
    raise ChildFailedError(
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
""".replace("ChildFailedError:\n", "ChildFailedError: \n")  # torch prints a trailing space there
    v = verdict(tmp_path, {"console.log": "[2025-03-01 10:00:00,000] INFO fit: epoch 1 loss 0.4\n" + console})
    assert v.status == "failed"
    assert v.root_cause is not None and v.root_cause.category == "other"


# ---- session 32 ---------------------------------------------------------------------

# The stall inspector's per-rank lists say who is late and who is elsewhere: ranks that lack
# the same tensors are late; ranks that lack disjoint ones submitted different collectives.
def _stall_report(lists: dict[int, str], wrap: str = "{}") -> str:
    lines = [_HVD_WARN, "Stalled ranks:", *(f"{r}: [{t}]" for r, t in lists.items())]
    return "".join(wrap.format(x) + "\n" for x in lines)


@pytest.mark.parametrize("wrap", ["{}", "[1,0]<stderr>:{}", "Tue Mar  7 09:12:44 2023[1,0]<stderr>:{}"])
def test_one_rank_lacking_another_tensor_than_the_rest_is_the_one_out_of_step(tmp_path, wrap):
    lists = {0: "allreduce.grad.7", 1: "allreduce.grad.9", 2: "allreduce.grad.9", 3: "allreduce.grad.9"}
    v = verdict(tmp_path, {"console.log": _stall_report(lists, wrap)})
    assert v.root_cause is not None and v.root_cause.category == "collective_mismatch", v.root_cause
    assert v.initiating is not None and v.initiating.rank == 0


def test_two_ranks_lacking_disjoint_tensors_are_a_mismatch_with_no_culprit(tmp_path):
    lists = {0: "HorovodBroadcast_w_0, HorovodBroadcast_b_0 ...", 1: "HorovodAllreduce_grad_w_0, HorovodAllreduce_grad_b_0"}
    v = verdict(tmp_path, {"console.log": _stall_report(lists, "[1,0]<stderr>:{}")})
    assert v.root_cause is not None and v.root_cause.category == "collective_mismatch"
    assert v.initiating is None or v.initiating.rank is None


def test_ranks_lacking_overlapping_tensors_are_late_not_mismatched(tmp_path):
    # rank 5 is further behind than rank 3: both lack grad_2; no different collective
    lists = {3: "HorovodAllreduce_grad_2", 5: "HorovodAllreduce_grad_1, HorovodAllreduce_grad_2"}
    v = verdict(tmp_path, {"console.log": _stall_report(lists)})
    assert v.root_cause is not None and v.root_cause.category == "nccl_timeout_hang"
    assert v.initiating is not None and v.initiating.rank == 3


# rsyslog writes ESC as "#033": a Ray worker's coloured prefix forwarded through syslog
def test_colour_codes_a_syslog_daemon_escaped_are_no_text(tmp_path):
    console = (
        "#033[36m(RayTrainWorker pid=4242, ip=10.0.0.5)#033[0m epoch 1 step 10 loss 0.71\n"
        "#033[36m(RayTrainWorker pid=4242, ip=10.0.0.5)#033[0m epoch 1 step 20 loss 0.69\n"
    )
    ingest(write_job(tmp_path / "job", {"console.log": console}), out_parquet=tmp_path / "t.parquet", options=QUIET)
    rows = pq.read_table(tmp_path / "t.parquet").select(["pid", "message"]).to_pylist()
    assert [r["message"] for r in rows] == ["epoch 1 step 10 loss 0.71", "epoch 1 step 20 loss 0.69"]
    assert {r["pid"] for r in rows} == {4242}


def test_rays_memory_monitor_summary_wrapped_inside_its_words_is_read(tmp_path):
    console = (
        "(raylet) [2025-03-04 05:06:07,890 E 5151 5151] node_manager.cc:3007: 3 Workers (tasks /\n"
        " actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 9f3c\n"
        "0a7e61, IP: 10.1.2.3) over the last time period.\n"
    )
    v = verdict(tmp_path, {"driver.log": console})
    assert v.status == "failed"
    assert v.root_cause is not None and v.root_cause.category == "oom"
    assert v.initiating is not None and v.initiating.node == "10.1.2.3"


# Workers of one launcher writing their tracebacks into one console at the same moment: the
# frames interleave, one traceback holds several exception lines
_TB_HEAD = 'Traceback (most recent call last):\n  File "train.py", line 88, in <module>\n'
_TB_TAIL = ('    out = model(batch)\n  File "/opt/venv/lib/python3.10/site-packages/model.py", line 41, in forward\n'
            "    return self.proj(x) * self.scale\n"
            "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:{} and cpu!\n")
_DS_HEAD = ("[2024-02-01 10:00:00,100] [INFO] [launch.py:151:main] nnodes=1, num_local_procs=4, node_rank=0\n"
            "[2024-02-01 10:00:00,100] [INFO] [launch.py:163:main] dist_world_size=4\n")


def test_interleaved_tracebacks_of_one_exception_are_every_processs(tmp_path):
    console = (_DS_HEAD + _TB_HEAD + _TB_HEAD + "    main()\n    main()\n" + _TB_TAIL.format(2)
               + "    return self.proj(x) * self.scale\n" + _TB_TAIL.format(0).split("\n", 3)[3]
               + "[2024-02-01 10:00:09,500] [INFO] [launch.py:314:sigkill_handler] Killing subprocess 4711\n"
               "[2024-02-01 10:00:09,900] [ERROR] [launch.py:320:sigkill_handler] ['python', '-u', 'train.py', "
               "'--local_rank=3'] exits with return code = 1\n")
    v = verdict(tmp_path, {"console.log": console})
    assert v.status == "failed"
    assert v.initiating is not None and v.initiating.all_ranks, v.initiating


def test_one_process_logging_its_traceback_and_raising_it_again_is_not_every_processs(tmp_path):
    tb = _TB_HEAD + _TB_TAIL.format(1)
    console = (_DS_HEAD + "[2024-02-01 10:00:05,000] [ERROR] [train.py:90:main] step failed\n" + tb + tb
               + "[2024-02-01 10:00:09,900] [ERROR] [launch.py:320:sigkill_handler] ['python', '-u', 'train.py', "
               "'--local_rank=1'] exits with return code = 1\n")
    v = verdict(tmp_path, {"console.log": console})
    assert v.status == "failed"
    assert v.initiating is None or not v.initiating.all_ranks, v.initiating


def _ds_run(exits: list[str]) -> str:
    return (_DS_HEAD + "".join(f"[2024-02-01 10:00:0{i},000] [INFO] [train.py:50:main] epoch 0 step {10 * i} loss 0.{9 - i}\n"
                               for i in range(1, 5))
            + "".join(f"[2024-02-01 10:05:00,{i:03d}] {x}\n" for i, x in enumerate(exits)))


def test_deepspeeds_launcher_seeing_every_worker_exit_0_is_a_healthy_end(tmp_path):
    ok = [f"[INFO] [launch.py:460:main] Process {4700 + r} exits successfully." for r in range(4)]
    v = verdict(tmp_path, {"console.log": _ds_run(ok)})
    assert v.status == "healthy"


def test_a_worker_exiting_1_beside_others_exiting_0_is_a_failure(tmp_path):
    exits = [f"[INFO] [launch.py:460:main] Process {4700 + r} exits successfully." for r in range(3)]
    exits.append("[ERROR] [launch.py:434:sigkill_handler] ['python', '-u', 'train.py', '--local_rank=3'] "
                 "exits with return code = 1")
    v = verdict(tmp_path, {"console.log": _ds_run(exits)})
    assert v.status == "failed"


# Two machines' torchrun --log-dir trees collected side by side under directories named after
# the machines (names no node pattern knows); the workers' stderr.log hold bare tracebacks.
def _two_node_trees(consoles: bool) -> dict[str, str]:
    files = {}
    for node, run, base in (("alpha", "job_7_q1w2", 0), ("beta", "job_7_z9x8", 2)):
        for local in (0, 1):
            rank = base + local
            d = f"{node}/logs/{run}/attempt_0/{local}"
            files[f"{d}/stdout.log"] = f"2025-06-01 10:00:0{local},100 INFO [rank {rank}] setup: world size 4\n"
            files[f"{d}/stderr.log"] = (
                'Traceback (most recent call last):\n  File "/srv/train.py", line 40, in <module>\n    main()\n'
                "RuntimeError: 1 visible device(s) in CUDA_VISIBLE_DEVICES='0' but LOCAL_WORLD_SIZE=2\n"
                if node == "beta" else
                "torch.distributed.DistStoreError: wait timeout after 30000ms, keys: /default_pg/0//cpu//0/2\n")
        if consoles:
            files[f"{node}/console.log"] = (
                f"E0601 10:00:31.180000 811 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) "
                f"local_rank: 0 (pid: 812) of binary: /usr/bin/python3\n"
                "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
                "============================================================\n/srv/train.py FAILED\n"
                "------------------------------------------------------------\nFailures:\n  <NO_OTHER_FAILURES>\n"
                "------------------------------------------------------------\nRoot Cause (first observed failure):\n[0]:\n"
                f"  time      : 2025-06-01_10:00:31\n  host      : {node}\n  rank      : {base} (local_rank: 0)\n"
                "  exitcode  : 1 (pid: 812)\n  error_file: <N/A>\n"
                "============================================================\n")
    return files


@pytest.mark.parametrize("consoles", [True, False])
def test_a_workers_bare_traceback_in_a_machine_named_tree_is_its_ranks_on_its_machine(tmp_path, consoles):
    ingest(write_job(tmp_path / "job", _two_node_trees(consoles)), out_parquet=tmp_path / "t.parquet", options=QUIET)
    rows = pq.read_table(tmp_path / "t.parquet").select(["file", "rank", "node"]).to_pylist()
    got = {(r["file"], r["rank"], r["node"]) for r in rows if r["file"].endswith("stderr.log")}
    assert got == {("alpha/logs/job_7_q1w2/attempt_0/0/stderr.log", 0, "alpha"),
                   ("alpha/logs/job_7_q1w2/attempt_0/1/stderr.log", 1, "alpha"),
                   ("beta/logs/job_7_z9x8/attempt_0/0/stderr.log", 2, "beta"),
                   ("beta/logs/job_7_z9x8/attempt_0/1/stderr.log", 3, "beta")}


def test_two_runs_under_one_log_dir_are_no_two_machines(tmp_path):
    # two torchrun runs on one machine write side by side under one --log-dir: their run ids
    # differ, no directory above them does
    files = {f"logs/{run}/attempt_0/{local}/stdout.log": f"2025-06-01 1{i}:00:00,000 INFO [rank {local}] step 1\n"
             for i, run in enumerate(("job_1_aaaa", "job_2_bbbb")) for local in (0, 1)}
    ingest(write_job(tmp_path / "job", files), out_parquet=tmp_path / "t.parquet", options=QUIET)
    nodes = {r["node"] for r in pq.read_table(tmp_path / "t.parquet").select(["node"]).to_pylist()}
    assert nodes <= {None}


def test_an_unstamped_check_of_the_environment_in_a_job_that_never_started_training_is_configuration(tmp_path):
    v = verdict(tmp_path, _two_node_trees(consoles=True))
    assert v.root_cause is not None and v.root_cause.category == "config_error"
    assert v.initiating is not None and v.initiating.node == "beta"


def test_a_rule_matched_in_interleaved_tracebacks_is_every_processs(tmp_path):
    oom = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB (GPU {}; 15.78 GiB total "
           "capacity; 12.26 GiB already allocated; 1.10 GiB free; 12.40 GiB reserved in total by PyTorch)\n")
    frames = '  File "pretrain_gpt.py", line 149, in <module>\n    pretrain(train_valid_test_datasets_provider)\n'
    console = ("WARNING:root:Cannot import JIT optimized kernels. CUDA extension will be disabled.\n"
               "/bin/sh: line 0: type: git: not found\n"
               + _TB_HEAD.replace("train.py", "pretrain_gpt.py") + _TB_HEAD.replace("train.py", "pretrain_gpt.py")
               + frames + frames + oom.format(0) + "    self._init_state()\n" + oom.format(3))
    v = verdict(tmp_path, {"console.log": console})
    assert v.root_cause is not None and v.root_cause.category == "oom"
    assert v.initiating is not None and v.initiating.all_ranks


def test_megatrons_end_of_training_line_makes_the_store_hosts_exit_a_teardown(tmp_path):
    lines = [f"node-1: [rank{r}]: iteration {i}/ 4 | lm loss: {9 - i}.1E+00" for i in (1, 2, 3, 4) for r in (0, 1)]
    lines += ["node-1: [after training is done] datetime: 2025-08-02 09:14:05 "]
    lines += [f'node-1: [rank{r}]:[W802 09:14:15.090523746 ProcessGroupNCCL.cpp:1771] [PG ID 0 PG GUID 0(default_pg) '
              f'Rank {r}] Failed to check the "should dump" flag on TCPStore, (maybe TCPStore server has shut down '
              "too early), with error: Broken pipe" for r in (1, 2, 3)]
    v = verdict(tmp_path, {"console.log": "\n".join(lines) + "\n"})
    assert v.status == "healthy"


def test_mlperfs_run_stop_with_success_is_a_healthy_end_and_aborted_is_not(tmp_path):
    head = "".join(f':::MLLOG {{"namespace": "", "time_ms": 16212360{i}0000, "event_type": "POINT_IN_TIME", '
                   f'"key": "eval_accuracy", "value": 0.7{i}, "metadata": {{"epoch_num": {i}}}}}\n' for i in range(1, 4))
    stop = (':::MLLOG {{"namespace": "", "time_ms": 1621236046008, "event_type": "INTERVAL_END", "key": "run_stop", '
            '"value": null, "metadata": {{"file": "fit.py", "lineno": 1006, "status": "{}"}}}}\n')
    assert verdict(tmp_path / "ok", {"rank0.log": head + stop.format("success")}).status == "healthy"
    assert verdict(tmp_path / "no", {"rank0.log": head + stop.format("aborted")}).status != "healthy"


def test_a_traceback_quoting_a_step_and_its_loss_is_no_progress(tmp_path):
    # the raising rank's own error, then mp.spawn's report of it: neither is training going on
    err = "FloatingPointError: non-finite gradient on rank 2 at epoch 0 step 3 (loss 81.25, 12 of 400 elements inf)"
    console = (
        "".join(f"2025-03-01 08:00:0{r},000 INFO [rank {r}] trainer: shard_{r:02d}: 96 rows, 3 batches\n" for r in range(4))
        + "2025-03-01 08:00:09,100 ERROR [rank 2] trainer: training failed\n" + _TB_HEAD + "    run(rank)\n" + err + "\n"
        + "".join(f"2025-03-01 08:00:09,40{r} ERROR [rank {r}] trainer: training failed\n" + _TB_HEAD
                  + "    dist.all_reduce(flat)\nRuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
                    f"pair.cc:553] Connection closed by peer [127.0.0.1]:1476{r}\n" for r in (1, 3))
        + "W0301 08:00:10.094000 3085 torch/multiprocessing/spawn.py:165] Terminating process 3088 via signal SIGTERM\n"
        + "Traceback (most recent call last):\n  File \"train.py\", line 176, in <module>\n    mp.spawn(main, nprocs=4)\n"
        + "torch.multiprocessing.spawn.ProcessRaisedException: \n\n-- Process 2 terminated with the following error:\n"
        + _TB_HEAD + "    run(rank)\n" + err + "\n")
    v = verdict(tmp_path, {"console.log": console})
    assert v.root_cause is not None and v.root_cause.category == "nan_divergence", v.root_cause
    assert v.initiating is not None and v.initiating.rank == 2


def test_pdsh_hosts_named_by_letters_alone_are_hosts(tmp_path):
    console = "".join(f"{h}: [rank{r}] step {s} loss 0.{s}\n" for s in (1, 2, 3) for h, r in (("trn-a", 0), ("trn-b", 2)))
    console += "error: something went wrong\nusage: train.py [-h]\n"
    ingest(write_job(tmp_path / "job", {"console.log": console}), out_parquet=tmp_path / "t.parquet", options=QUIET)
    rows = pq.read_table(tmp_path / "t.parquet").select(["rank", "node", "message"]).to_pylist()
    assert {(r["rank"], r["node"]) for r in rows if "step" in r["message"]} == {(0, "trn-a"), (2, "trn-b")}
    assert {r["message"] for r in rows if r["node"] is None} >= {"error: something went wrong", "usage: train.py [-h]"}


def test_a_word_with_a_hyphen_heading_a_few_lines_is_no_host(tmp_path):
    console = "nvidia-smi: command not found\nstep 1 loss 0.5\nstep 2 loss 0.4\n"
    ingest(write_job(tmp_path / "job", {"console.log": console}), out_parquet=tmp_path / "t.parquet", options=QUIET)
    rows = pq.read_table(tmp_path / "t.parquet").select(["node", "message"]).to_pylist()
    assert {"nvidia-smi: command not found"} <= {r["message"] for r in rows}
    assert {r["node"] for r in rows} == {None}


def test_the_ranks_of_one_machine_failing_ddps_shape_check_are_that_machines(tmp_path):
    lines = [f"{h}: [rank{r}] model config: hidden={96 if h == 'gpu-a' else 128}" for h, r in
             (("gpu-a", 0), ("gpu-a", 1), ("gpu-b", 2), ("gpu-b", 3))]
    lines += [f"gpu-b: [rank{r}]: RuntimeError: [{r}]: params[0] in this process with sizes [128, 16] appears not to "
              "match sizes of the same param in process 0." for r in (2, 3)]
    lines += [f"gpu-a: [rank{r}]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed "
              f"by peer [10.0.0.2]:3100{r}" for r in (0, 1)]
    v = verdict(tmp_path, {"console.log": "\n".join(lines) + "\n"})
    assert v.root_cause is not None and v.root_cause.category == "config_error"
    assert v.initiating is not None and v.initiating.node == "gpu-b" and v.initiating.rank is None


_MPI_INIT_FAILED = (
    "--------------------------------------------------------------------------\n"
    "It looks like opal_init failed for some reason; your parallel process is\n"
    "likely to abort.  There are many reasons that a parallel process can\n"
    "fail during opal_init; some of which are due to configuration or\n"
    "environment problems.  This failure appears to be an internal failure;\n"
    "here's some additional information (which may only be relevant to an\n"
    "Open MPI developer):\n\n  opal_shmem_base_select failed\n  --> Returned value -1 instead of OPAL_SUCCESS\n"
    "--------------------------------------------------------------------------\n")


def test_a_launchers_error_it_says_it_went_on_from_is_not_the_failure(tmp_path):
    console = ("Error: site environment script not found at:\nPath : /opt/site/env.pl\nError: No such file or directory\n"
               "Warning. Failed to set up the site environment.\nContinuing to launch.\n"
               + _MPI_INIT_FAILED * 2
               + "*** An error occurred in MPI_Init_thread\n*** on a NULL communicator\n")
    v = verdict(tmp_path, {"console.log": console})
    assert v.status == "failed"
    assert v.root_cause is not None and v.root_cause.category == "config_error"
    assert v.root_cause.rule_id == "mpi-init-failed"
    assert v.initiating is not None and v.initiating.all_ranks


def test_an_error_with_no_word_of_going_on_stays_the_failure(tmp_path):
    console = "Error: site environment script not found at:\nPath : /opt/site/env.pl\nError: No such file or directory\n"
    v = verdict(tmp_path, {"console.log": console})
    assert v.status == "failed"


# ---- session 33 ---------------------------------------------------------------------
# A process or the job saying it is done, in words no completion pattern was written from:
# a healthy end where its stream made no progress after it, and never an epoch's or a
# phase's end.

def _steps(rank: int, n: int = 4) -> str:
    return "".join(f"2025-03-02 09:1{i}:00,000 INFO trainer: [worker {rank}] iteration {i} loss: 0.{9 - i}\n"
                   for i in range(n))


@pytest.mark.parametrize("last", [
    "2025-03-02 09:20:00,000 INFO trainer: [worker {r}] process {r} is done.",
    "2025-03-02 09:20:00,000 INFO trainer: worker {r} finished successfully",
    "2025-03-02 09:20:00,000 INFO trainer: Done!",
    "2025-03-02 09:20:00,000 INFO trainer: done: 4 iterations, eval acc 0.61",
])
def test_each_rank_saying_it_is_done_after_its_last_step_is_a_healthy_end(tmp_path, last):
    files = {f"rank{r}.log": _steps(r) + last.format(r=r) + "\n" for r in range(3)}
    v = verdict(tmp_path, files)
    assert v.status == "healthy"


def test_a_launchers_summary_that_every_worker_and_the_job_finished_is_a_healthy_end(tmp_path):
    summary = "".join(f"launcher[09:20:0{r}] worker {r} (pid {4100 + r}) finished OK\n" for r in range(3))
    files = {f"rank{r}.log": _steps(r) for r in range(3)}
    files["launcher.out"] = summary + "launcher[09:20:05] all finished\n"
    assert verdict(tmp_path, files).status == "healthy"


def test_a_phase_said_done_before_more_training_is_no_end(tmp_path):
    # the snapshot stops mid-run: "done" was the data loading's, training went on after it
    files = {f"rank{r}.log": "2025-03-02 09:00:00,000 INFO trainer: Done!\n" + _steps(r) for r in range(2)}
    assert verdict(tmp_path, files).status == "inconclusive"


def test_an_epochs_end_as_the_last_line_is_no_end_of_the_run(tmp_path):
    files = {f"rank{r}.log": _steps(r) + "2025-03-02 09:20:00,000 INFO trainer: epoch 0 finished (4 iterations)\n"
             for r in range(2)}
    assert verdict(tmp_path, files).status == "inconclusive"


def test_a_rank_done_beside_a_rank_that_raised_is_a_failure(tmp_path):
    files = {"rank0.log": _steps(0) + "2025-03-02 09:20:00,000 INFO trainer: rank 0 done\n",
             "rank1.log": _steps(1, 2) + "Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\n"
             "    step()\nRuntimeError: shard 7 checksum mismatch\n"}
    v = verdict(tmp_path, files)
    assert v.status == "failed"
    assert v.initiating is not None and v.initiating.rank == 1


def test_ipythons_time_report_after_the_last_epoch_is_a_healthy_end(tmp_path):
    lines = "".join(f"(TrainWorker pid={900 + w}, ip=10.0.0.{w + 2}) epoch {e}: val loss 1.{9 - e}\n"
                    for e in range(3) for w in range(2))
    v = verdict(tmp_path, {"cell.log": lines + "CPU times: user 1.2 s, sys: 0.3 s, total: 1.5 s\nWall time: 41.2 s\n"})
    assert v.status == "healthy"


@pytest.mark.parametrize("banner", ["TRAINING COMPLETE", "Training Completed", "All Runs Finished Successfully"])
def test_a_completion_banner_in_any_letter_case_is_a_healthy_end(tmp_path, banner):
    # the completion patterns ignore case, so their literal pre-filter must too
    steps = "".join(f"Epoch [{e}] | Train Loss: 1.{9 - e} | Acc: {40 + e}.0%\n" for e in range(1, 4))
    v = verdict(tmp_path, {"slurm.out": steps + "=" * 36 + f"\n{banner}\n" + "=" * 36 + "\n"})
    assert v.status == "healthy"


def test_case_blind_patterns_take_every_usual_spelling_of_their_triggers():
    from parsers.base import Pattern
    p = Pattern("test.case", triggers=("training done",), regex=r"(?i)\btraining done\b")
    assert {"training done", "Training done", "TRAINING DONE", "Training Done"} <= set(p.triggers)
    strict = Pattern("test.strict", triggers=("training done",), regex=r"\btraining done\b")
    assert strict.triggers == ("training done",)


def _usage_error(prefix: str) -> str:
    return (f"{prefix}usage: torchrun [-h] [--nnodes NNODES] [--nproc-per-node NPROC_PER_NODE]\n"
            f"{prefix}torchrun: error: the following arguments are required: training_script, training_script_args\n")


@pytest.mark.parametrize("shell_error", [
    "/var/spool/slurmd/job20417/slurm_script: line 18: WORLD: unbound variable",
    "./launch_multi.sh: line 9: python -m torch.distributed.run ${NODES*8}: bad substitution",
])
def test_the_start_scripts_shell_error_comes_before_what_it_launched_wrongly(tmp_path, shell_error):
    console = (shell_error + "\n" + _usage_error("0: ") + _usage_error("1: ")
               + "srun: error: gpu-a17: task 0: Exited with exit code 2\nsrun: error: gpu-a18: task 1: Exited with exit code 2\n")
    v = verdict(tmp_path, {"slurm-20417.out": console})
    assert v.status == "failed"
    assert v.root_cause.rule_id == "shell-script-error" and v.root_cause.category == "config_error"
    assert v.first_deviating is not None and v.first_deviating.line_no == 1


def test_a_login_shells_missing_profile_file_is_no_cause(tmp_path):
    console = ("/home/u/.bashrc: line 14: /opt/site/modules.sh: No such file or directory\n"
               + "".join(f"step {i} loss 0.{9 - i}\n" for i in range(5))
               + "Traceback (most recent call last):\n  File \"fit.py\", line 9, in <module>\n"
               "    run()\nRuntimeError: CUDA error: an illegal memory access was encountered\n")
    v = verdict(tmp_path, {"job.out": console})
    assert v.root_cause is not None and v.root_cause.rule_id != "shell-script-error"


def test_a_stop_from_outside_begins_at_the_schedulers_cancel_line(tmp_path):
    lines = ["0: step 40 loss 2.01", "1: step 40 loss 2.03",
             "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
             "slurmstepd-gpu-b07: error: *** JOB 88211 ON gpu-b07 CANCELLED AT 2025-11-02T08:15:40 ***",
             "1: W1102 08:15:40.512000 31877 torch/distributed/elastic/agent/server/api.py:704] Received 15 death "
             "signal, shutting down workers",
             "1: W1102 08:15:40.513000 31877 torch/distributed/elastic/multiprocessing/api.py:897] Sending process "
             "31990 closing signal SIGTERM",
             "0: slurmstepd-gpu-b07: error: *** STEP 88211.0 ON gpu-b07 CANCELLED AT 2025-11-02T08:15:40 ***"]
    v = verdict(tmp_path, {"slurm-88211.out": "\n".join(lines) + "\n"})
    assert v.status == "failed" and v.initiating.kind == "external"
    assert v.first_deviating is not None and "CANCELLED AT" in v.first_deviating.text and "JOB 88211" in v.first_deviating.text


def _failure_table(codes: dict[int, int], first: int) -> str:
    entry = ("[{i}]:\n  time      : 2025-06-01_12:00:0{s}\n  host      : node-a\n  rank      : {r} (local_rank: {r})\n"
             "  exitcode  : {c} (pid: {p})\n  error_file: <N/A>\n"
             "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n")
    others = [r for r in codes if r != first]
    return ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n" + "=" * 60 + "\ntrain.py FAILED\n"
            + "-" * 60 + "\nFailures:\n"
            + "".join(entry.format(i=i + 1, s=6, r=r, c=codes[r], p=900 + r) for i, r in enumerate(others))
            + "-" * 60 + "\nRoot Cause (first observed failure):\n"
            + entry.format(i=0, s=2, r=first, c=codes[first], p=900 + first) + "=" * 60 + "\n")


_RANK0_TB = ("".join(f"[rank{r}]: 2025-06-01 11:5{s}:00 INFO step {s} loss 1.{9 - s}\n" for s in range(3) for r in range(4))
             + "[rank0]: Traceback (most recent call last):\n[rank0]:   File \"/srv/fit.py\", line 77, in <module>\n"
             "[rank0]:     out = model(**batch)\n[rank0]: KeyError: 'pixel_values'\n")


def test_every_rank_exiting_alike_in_the_launchers_table_is_every_ranks_failure(tmp_path):
    v = verdict(tmp_path, {"console.log": _RANK0_TB + _failure_table({r: 1 for r in range(4)}, first=2)})
    assert v.status == "failed"
    assert v.initiating.kind == "all_ranks" and v.initiating.all_ranks


def test_peers_the_launcher_killed_leave_the_failure_one_ranks(tmp_path):
    codes = {0: 1, 1: -15, 2: -15, 3: -15}
    v = verdict(tmp_path, {"console.log": _RANK0_TB + _failure_table(codes, first=0)})
    assert v.initiating.kind == "rank" and v.initiating.rank == 0


def test_a_rank_that_stopped_early_on_its_own_check_left_its_peers_collectives(tmp_path):
    def rank_log(r: int, last: str) -> str:
        steps = "".join(f"2025-04-04 10:0{e}:00,000 INFO fit - rank{r} epoch {e} val loss 0.{70 + r + e}\n"
                        for e in range(3))
        return steps + last
    peer_tb = ("Traceback (most recent call last):\n  File \"/srv/fit.py\", line 51, in <module>\n    loss.backward()\n"
               "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
               "[10.0.0.{r}]:4{r}11\n")
    files = {
        "rank0.log": rank_log(0, peer_tb.format(r=1)),
        "rank1.log": rank_log(1, "2025-04-04 10:03:00,000 INFO fit - rank1 EarlyStopping: patience exhausted, early stop\n"
                                 "2025-04-04 10:03:00,001 INFO fit - rank1 training finished\n"),
        "rank2.log": rank_log(2, peer_tb.format(r=3)),
    }
    v = verdict(tmp_path, files)
    assert v.status == "failed"
    assert v.initiating.rank == 1
    assert v.root_cause.category == "collective_mismatch"
    assert v.first_deviating is not None and "early stop" in v.first_deviating.text


def test_a_checks_closing_status_pass_on_each_rank_is_a_healthy_end(tmp_path):
    def rank_log(r: int) -> str:
        ops = "".join(f"rank={r} op={i} bytes=8388608 check=ok\n" for i in range(5))
        return ops + f"[host-{r}] all_gather verification done, status: SUCCESS\n"
    assert verdict(tmp_path, {f"rank{r}.log": rank_log(r) for r in range(2)}).status == "healthy"


def test_warnings_beside_a_bar_far_short_of_its_total_are_no_healthy_end(tmp_path):
    lines = ["/opt/env/lib/python3.12/site-packages/pynvml/__init__.py:5: FutureWarning: pynvml is deprecated",
             "(Driver pid=811) Rollout Progress:  31%|███       | 402/1300 [05:12:40<11:40:01, 46.80s/it]",
             "(Driver pid=811) Rollout Progress:  31%|███       | 403/1300 [05:13:27<11:39:14, 46.81s/it]",
             "(Worker pid=812) WARNING:2026-01-02 03:04:05,000:Retrying in 2s [Retry 1/5]."]
    v = verdict(tmp_path, {"driver.log": "\n".join(lines) + "\n"})
    assert v.status == "inconclusive"


def test_a_paste_of_warnings_alone_still_says_nothing_failed(tmp_path):
    lines = ["/opt/env/lib/python3.12/site-packages/pynvml/__init__.py:5: FutureWarning: pynvml is deprecated",
             "UserWarning: TypedStorage is deprecated. It will be removed in the future"]
    assert verdict(tmp_path, {"warn.log": "\n".join(lines) + "\n"}).status == "healthy"


def test_a_job_of_world_size_one_names_its_only_process(tmp_path):
    out = "[2026-02-02 10:00:00] world_size: 1\n[2026-02-02 10:00:01] building model\n"
    err = ("Traceback (most recent call last):\n  File \"/srv/sft.py\", line 40, in <module>\n    trainer.train()\n"
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of "
           "79.15 GiB of which 1.02 GiB is free.\n")
    v = verdict(tmp_path, {"job.out": out, "job.err": err})
    assert v.root_cause.category == "oom"
    assert v.initiating.kind == "rank" and v.initiating.rank == 0


def test_a_rank_error_below_the_consoles_training_steps_is_not_before_training(tmp_path):
    # the rank's own stamped lines stopped at start-up; its traceback, with no stamp of its own,
    # comes after the job's step records in the shared console
    lines = [f"[rank{r}]:[2025-05-05 08:00:0{r}] building the dataset" for r in range(4)]
    lines += [f"[2025-05-05 09:{m:02d}:00] (step={m:07d}) Train Loss ce: 0.{40 + m}, Steps/Sec: 0.03" for m in range(1, 9)]
    lines += ["[rank2]: Traceback (most recent call last):", '[rank2]:   File "/srv/train.py", line 600, in main',
              "[rank2]:     assert batch_has_text", "[rank2]: AssertionError"]
    v = verdict(tmp_path, {"run.err": "\n".join(lines) + "\n"})
    assert v.status == "failed"
    assert v.initiating.kind == "rank" and v.initiating.rank == 2
    assert v.root_cause.category != "config_error"


def test_a_killed_rank_began_where_its_values_left_its_peers(tmp_path):
    # the kernel's OOM killer leaves nothing in the rank's own output: the launcher reports the
    # death, and the rank's earlier line whose number differs from every peer's (its shard's rows;
    # the shard names carry each rank's own zero-padded number) is where it began to differ
    lines = [f"[default{r}]:2026-01-09 10:00:0{r},100 INFO [rank{r}] fit: initialized process group: rank {r}/3"
             for r in range(3)]
    lines += [f"[default{r}]:2026-01-09 10:00:0{r},200 INFO [rank{r}] fit: part_{r:04d}.arrow: "
              f"{24000 if r == 1 else 600} rows x 8 features" for r in range(3)]
    lines += [f"[default{r}]:2026-01-09 10:00:1{r},000 INFO [rank{r}] fit: epoch 0 step 1 loss 0.9{r}"
              for r in (0, 2)]
    lines += [f"[default{r}]:[rank{r}]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
              f"Connection closed by peer [127.0.0.1]:4{r}001" for r in (0, 2)]
    lines += ["E0109 10:00:15.593000 4242 torch/distributed/elastic/multiprocessing/api.py:1002] failed "
              "(exitcode: -9) local_rank: 1 (pid: 4301) of binary: /opt/venv/bin/python"]
    v = verdict(tmp_path, {"console.log": "\n".join(lines) + "\n"})
    assert v.status == "failed" and v.initiating.rank == 1
    assert v.first_deviating is not None and "part_0001.arrow: 24000 rows" in v.first_deviating.text


def test_a_bare_stopiteration_ends_its_ranks_traceback(tmp_path):
    # Python's exceptions not named ...Error (StopIteration from an exhausted iterator) close
    # their traceback like any other; the rank that raised it is the one its peers lost
    steps = "".join(f"2026-03-03 09:00:0{i} INFO fit [r0] step {i * 10}/90 loss 0.{8 - i}\n" for i in range(4))
    culprit = ("[rank2]: Traceback (most recent call last):\n[rank2]:   File \"/srv/fit.py\", line 71, in <module>\n"
               "[rank2]:     batch = next(loader_it)\n[rank2]:             ^^^^^^^^^^^^^^^\n[rank2]: StopIteration\n")
    peers = "".join(
        f"[rank{r}]: Traceback (most recent call last):\n[rank{r}]:   File \"/srv/fit.py\", line 74, in <module>\n"
        f"[rank{r}]:     loss.backward()\n[rank{r}]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/"
        f"pair.cc:553] Connection closed by peer [127.0.0.1]:5100{r}\n" for r in (0, 1))
    v = verdict(tmp_path, {"console.log": steps + culprit + peers})
    assert v.status == "failed"
    assert v.initiating.kind == "rank" and v.initiating.rank == 2


def test_a_checkpoint_failure_every_rank_relays_is_the_rank_the_exception_names(tmp_path):
    # torch.distributed.checkpoint re-raises one rank's error on every rank, under a header that
    # names the rank it came from
    def rank_log(r: int) -> str:
        return (f"[rank{r}]: Traceback (most recent call last):\n"
                f"[rank{r}]:   File \"/srv/train.py\", line 300, in <module>\n[rank{r}]:     dcp.save(state, checkpoint_id=ckpt)\n"
                f"[rank{r}]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException ranks:dict_keys([1])\n"
                f"[rank{r}]: Traceback (most recent call last): (RANK 1)\n"
                f"[rank{r}]:   File \"/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/utils.py\", "
                f"line 241, in all_reduce\n[rank{r}]:     local_data = map_fun()\n"
                f"[rank{r}]: RuntimeError: [enforce fail at inline_container.cc:603] . PytorchStreamWriter failed "
                f"writing file data/7: file write failed\n")
    steps = "".join(f"[rank{r}]: step {s} loss 0.{9 - s}\n" for s in range(3) for r in range(3))
    v = verdict(tmp_path, {"console.log": steps + "".join(rank_log(r) for r in range(3))})
    assert v.status == "failed"
    assert v.root_cause.category == "storage_io"
    assert v.initiating.kind == "rank" and v.initiating.rank == 1


# ---- session 34 ---------------------------------------------------------------------
# Round AH's general causes, each on text its fix was not written from.

def _rows(tmp_path, files: dict[str, str], columns: list[str]) -> list[dict]:
    job = write_job(tmp_path / "rows", files)
    out = tmp_path / "rows.parquet"
    ingest(job, out_parquet=out, options=QUIET)
    return pq.read_table(out, columns=columns).to_pylist()


def _fit(rank: int, n: int = 3) -> str:
    return "".join(f"2025-06-01 08:0{i}:00,000 INFO [worker-{rank}] fit - step {i * 10} loss 0.{8 - i}\n"
                   for i in range(n))


def test_an_exception_python_could_not_raise_does_not_fail_the_run(tmp_path):
    # sys.unraisablehook's report (a __del__ at interpreter exit) after each rank said it is done
    ignored = ("Exception ignored in: <function ShardReader.__del__ at 0x7f0c2a1b3d90>\n"
               "Traceback (most recent call last):\n"
               "  File \"/srv/fit/data.py\", line 41, in __del__\n    self.fh.close()\n"
               "OSError: [Errno 9] Bad file descriptor\n")
    files = {f"rank{r}.log": _fit(r) + f"2025-06-01 08:05:00,000 INFO [worker-{r}] fit - done: 30 steps\n" + ignored
             for r in range(2)}
    v = verdict(tmp_path, files)
    assert v.status == "healthy"
    # the same traceback without Python's "ignored" report is a failure
    files = {f"rank{r}.log": _fit(r) + ignored.split("\n", 1)[1] for r in range(2)}
    assert verdict(tmp_path / "raised", files).status == "failed"


@pytest.mark.parametrize("line", [
    "2025-06-01 08:05:00,000 INFO [worker-{r}] fit - done: 30 steps in 41 s",
    "2025-06-01 08:05:00,000 mmseg.apis INFO: Total training time: 0:41:07 (0.41 s / it)",
])
def test_an_end_of_run_line_behind_a_logging_head_is_a_healthy_end(tmp_path, line):
    files = {f"rank{r}.log": _fit(r) + line.format(r=r) + "\n" for r in range(2)}
    assert verdict(tmp_path, files).status == "healthy"


def test_an_epochs_done_behind_a_logging_head_is_no_end(tmp_path):
    files = {f"rank{r}.log": _fit(r) + f"2025-06-01 08:05:00,000 INFO [worker-{r}] fit - epoch 2 done: loss 0.3\n"
             for r in range(2)}
    assert verdict(tmp_path, files).status == "inconclusive"


def test_rays_job_succeeded_between_its_dashed_rules_is_a_healthy_end(tmp_path):
    steps = "".join(f"(TrainLoop pid=3311) step {i} reward 0.{i}\n" for i in range(1, 5))
    rule = "-" * 42
    v = verdict(tmp_path, {"submit.log": steps + f"\n{rule}\nJob 'raysubmit_Qm3ZzA1bC2dE3fG4' succeeded\n{rule}\n"})
    assert v.status == "healthy"


def test_a_record_head_with_the_machine_then_the_rank_then_the_level_names_the_rank(tmp_path):
    text = ("2025-06-01 08:00:00,000 trn-node3 rank3 INFO loop: step 10\n"
            "2025-06-01 08:00:01,000 trn-node3 rank1 WARNING loop: slow batch\n"
            "2025-06-01 08:00:02,000 trn-node3 INFO loop: waiting for rank 2\n")
    rows = _rows(tmp_path, {"console.log": text}, ["line_no", "rank"])
    assert {r["line_no"]: r["rank"] for r in rows} == {1: 3, 2: 1, 3: None}


def test_an_exception_named_by_a_module_with_a_digit_is_no_host(tmp_path):
    text = ("[1,2]<stderr>:Traceback (most recent call last):\n"
            "[1,2]<stderr>:  File \"/srv/fit/log.py\", line 12, in flush\n"
            "[1,2]<stderr>:    cur.execute(q)\n"
            "[1,2]<stderr>:psycopg2.OperationalError: server closed the connection unexpectedly\n")
    v = verdict(tmp_path, {"mpirun.log": text})
    assert "psycopg2.OperationalError" in v.root_cause.evidence.text
    assert v.initiating.rank == 2


def test_an_argparse_error_of_a_program_named_in_words_fails_the_job(tmp_path):
    text = ("usage: Fit runner [-h] [--nodes NODES]\n"
            "Fit runner: error: argument --nodes: invalid int value: 'two'\n")
    v = verdict(tmp_path, {"launch.log": text})
    assert v.status == "failed" and v.root_cause.category == "config_error"


@pytest.mark.parametrize("text, category", [
    ("Traceback (most recent call last):\n  File \"/srv/fit/ckpt.py\", line 20, in save\n    torch.save(self.state(), p)\n"
     "  File \"/opt/venv/lib/python3.12/site-packages/torch/serialization.py\", line 944, in save\n"
     "    _save(obj, opened_zipfile, pickle_module, pickle_protocol, _disable_byteorder_record)\n"
     "TypeError: cannot pickle 'sqlite3.Connection' object", "code_exception"),
    ("_pickle.PicklingError: Can't pickle <function <lambda> at 0x7f1e>: attribute lookup <lambda> on __main__ failed",
     "code_exception"),
    ("ValueError: Object arrays cannot be loaded when allow_pickle=False", "data_error"),
    ("Traceback (most recent call last):\n  File \"/srv/fit/loop.py\", line 12, in step\n    loss = F.cross_entropy(o, y)\n"
     "  File \"/opt/venv/lib/python3.12/site-packages/torch/nn/functional.py\", line 3086, in cross_entropy\n"
     "    return torch._C._nn.cross_entropy_loss(\nRuntimeError: expected scalar type Long but found Float",
     "data_error"),
    ("RuntimeError: Loading a checkpoint saved with world size of 8 but the current world size is 4 is not supported",
     "config_error"),
    ("huggingface_hub.errors.GatedRepoError: 403 Client Error. Cannot access gated repo for url", "config_error"),
    ("Traceback (most recent call last):\n  File \"/srv/fit/track.py\", line 30, in log\n    con.commit()\n"
     "sqlite3.OperationalError: database table is locked", "storage_io"),
])
def test_the_category_follows_what_the_message_means(text, category):
    c = classify_failure(text, "during_training")
    assert c is not None and c.category == category, (c.entry.id if c else None)


def test_a_main_module_that_spawns_at_import_fails_every_rank_alike(tmp_path):
    child = ("Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
             "  File \"/usr/lib/python3.12/multiprocessing/spawn.py\", line 122, in spawn_main\n"
             "    exitcode = _main(fd, parent_sentinel)\n"
             "  File \"/usr/lib/python3.12/multiprocessing/spawn.py\", line 140, in _check_not_importing_main\n"
             "    raise RuntimeError('''\nRuntimeError: \n"
             "        An attempt has been made to start a new process before the\n"
             "        current process has finished its bootstrapping phase.\n\n")
    v = verdict(tmp_path, {"console.log": child * 2})
    assert v.root_cause.category == "code_exception"
    assert v.initiating.kind == "all_ranks"


def test_a_check_the_other_ranks_passed_is_the_failing_ranks_own(tmp_path):
    def log(r: int, tail: str) -> str:
        return (f"2025-06-01 08:00:0{r},000 INFO [worker-{r}] fit - reading manifest part-{r:03d}.json\n" + tail)
    bad = ("Traceback (most recent call last):\n  File \"/srv/fit/data.py\", line 9, in <module>\n"
           "    m = load(p)\nValueError: manifest has no 'files' key\n")
    files = {"rank0.log": log(0, "2025-06-01 08:00:05,000 INFO [worker-0] fit - manifest: 512 files\n"),
             "rank1.log": log(1, bad),
             "rank2.log": log(2, "2025-06-01 08:00:05,000 INFO [worker-2] fit - manifest: 498 files\n")}
    v = verdict(tmp_path, files)
    assert v.initiating.kind == "rank" and v.initiating.rank == 1
    # where no rank got past that line (one failed alike, one was stopped there), it is every rank's check
    files["rank0.log"] = log(0, bad)
    files["rank2.log"] = log(2, "")
    assert verdict(tmp_path / "none", files).initiating.kind == "all_ranks"


def test_a_rank_whose_last_word_is_its_own_early_stop_left_its_peers(tmp_path):
    def rec(r: int, t: int, text: str) -> str:
        return f"2025-06-01 08:00:{t:02d},000 host-a1 rank{r} INFO loop: {text}\n"
    lines = [rec(r, t, f"val {t} loss 0.{t + r}") for t in range(1, 4) for r in range(3)]
    lines.append(rec(0, 4, "early stop: no improvement in 3 validations"))
    peer = ("Traceback (most recent call last):\n  File \"/srv/loop.py\", line 70, in <module>\n"
            "    dist.all_reduce(t)\nRuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] "
            "Connection closed by peer [10.1.0.4]:23456\n")
    parent = SPAWN_CONSOLE.split("-- Process 1", 1)[0]  # the launcher's SIGTERMs and ProcessRaisedException
    text = "".join(lines) + parent + "-- Process 2 terminated with the following error:\n" + peer
    v = verdict(tmp_path, {"console.log": text})
    assert v.initiating.rank == 0
    assert v.root_cause.category == "collective_mismatch"


def test_workers_that_could_not_be_started_fail_the_whole_job(tmp_path):
    # the launching process pickles what each worker runs; a nested function cannot be pickled
    tb = ("Traceback (most recent call last):\n  File \"/srv/fit/main.py\", line 80, in <module>\n"
          "    mp.spawn(run, args=(cfg,), nprocs=4)\n"
          "  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 121, in start\n"
          "    self._popen = self._Popen(self)\n"
          "  File \"/usr/lib/python3.12/multiprocessing/popen_spawn_posix.py\", line 47, in _launch\n"
          "    reduction.dump(process_obj, fp)\n"
          "  File \"/usr/lib/python3.12/multiprocessing/reduction.py\", line 60, in dump\n"
          "    ForkingPickler(file, protocol).dump(obj)\n"
          "AttributeError: Can't get local object 'build.<locals>.scale'\n")
    v = verdict(tmp_path, {"console.log": "starting 4 workers\n" + tb})
    assert v.root_cause.category == "code_exception"
    assert v.initiating.kind == "all_ranks"


def test_a_warning_that_means_the_same_failure_above_it_is_where_it_began(tmp_path):
    # the stream warned of the full disk (errno 28) before the checkpoint write failed on it
    text = ("2025-06-01 08:00:00,000 INFO fit - step 100 loss 0.41\n"
            "2025-06-01 08:00:05,000 WARNING cache - could not write shard cache: [Errno 28] No space left on device\n"
            "2025-06-01 08:00:06,000 INFO fit - step 110 loss 0.40\n"
            "Traceback (most recent call last):\n  File \"/srv/fit/ckpt.py\", line 30, in save\n"
            "    torch.save(state, path)\nOSError: [Errno 28] No space left on device: '/ckpt/step_120.pt'\n")
    v = verdict(tmp_path, {"rank0.log": text})
    assert v.root_cause.category == "storage_io"
    assert v.first_deviating is not None and "could not write shard cache" in v.first_deviating.text


@pytest.mark.parametrize("text, category", [
    ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cpu!",
     "code_exception"),
    ("ValueError: Unknown split \"validation\". Should be one of ['train', 'test'].", "config_error"),
    ("pyarrow.lib.ArrowInvalid: Parquet magic bytes not found in footer. Either the file is corrupted or this is not "
     "a parquet file.", "data_error"),
    ("botocore.exceptions.NoCredentialsError: Unable to locate credentials", "config_error"),
    ("RuntimeError: Error(s) in loading state_dict for Encoder:\n\tMissing key(s) in state_dict: \"proj.weight\".\n\t"
     "Unexpected key(s) in state_dict: \"module.proj.weight\".", "code_exception"),
    ("RuntimeError: Error(s) in loading state_dict for Encoder:\n\tsize mismatch for proj.weight: copying a param "
     "with shape torch.Size([512, 256]) from checkpoint, the shape in current model is torch.Size([256, 256]).",
     "config_error"),
])
def test_library_raise_texts_are_placed_by_what_they_mean(text, category):
    c = classify_failure(text, "during_training")
    assert c is not None and c.category == category, (c.entry.id if c else None)


@pytest.mark.parametrize("text, category", [
    ("RuntimeError: CometCallback requires comet-ml to be installed. Run `pip install comet-ml`.", "config_error"),
    ("ValueError: The model did not return a loss from the inputs, only the following keys: logits,hidden_states.",
     "data_error"),
    ("ValueError: Tried to step 3001 times. The specified number of total steps is 3000", "config_error"),
    ("ValueError: epoch 2 batch 17: 2 label(s) outside [0, 5)", "data_error"),
])
def test_messages_of_missing_packages_labels_and_schedules_are_placed_by_meaning(text, category):
    c = classify_failure(text, "during_training")
    assert c is not None and c.category == category, (c.entry.id if c else None)


def test_a_watchdogs_word_that_it_sent_the_signal_is_where_the_death_began(tmp_path):
    ranks = "".join(f"[default{r}]:2025-06-01 08:00:0{i},000 INFO step {i}\n" for i in range(3) for r in range(2))
    agent = ("E0601 08:00:09.500000 900 torch/distributed/elastic/multiprocessing/api.py:1002] failed "
             "(exitcode: -9) local_rank: 1 (pid: 912) of binary: /usr/bin/python3\n")
    guard = "2025-06-01 08:00:09 rssguard: pid 912 above 30 GiB for 10 s, sending SIGKILL\n"
    v = verdict(tmp_path, {"console.log": ranks + agent, "rssguard.log": guard})
    assert v.first_deviating is not None and "rssguard: pid 912" in v.first_deviating.text


# ---- session 35 ---------------------------------------------------------------------
# Round AK's general causes, each on text its fix was not written from.

def _epochs(rank: int, n: int, warn: bool = True, end: str = "epoch {e} end: val_acc 0.{a:02d}") -> str:
    head = "2025-09-03 14:{m:02d}:{s:02d},500 node7 [r{r}] INFO fit: "
    out = [f"2025-09-03 14:00:00,100 node7 [r{rank}] WARNING fit: grad strides do not match bucket view strides\n"
           if warn else ""]
    for e in range(n):
        t = 5 + 3 * e
        out.append(head.format(m=t // 60, s=t % 60, r=rank) + f"epoch {e} batch 40 loss 0.{90 - e:02d}\n")
        out.append(head.format(m=t // 60, s=t % 60, r=rank) + end.format(e=e, a=50 + e) + "\n")
    return "".join(out)


def test_a_log_that_stops_in_its_own_cadence_after_warnings_is_a_snapshot_not_a_healthy_end(tmp_path):
    # every rank's log runs from its start through twelve epochs and stops on one more epoch record
    v = verdict(tmp_path / "cut", {f"r{r}.log": _epochs(r, 12) for r in range(3)})
    assert v.status == "inconclusive"
    # the same run with a line it prints once at its end (its whole time): healthy
    done = {f"r{r}.log": _epochs(r, 12) + f"2025-09-03 14:00:45,000 node7 [r{r}] INFO fit: done in 41.2s\n"
            for r in range(3)}
    assert verdict(tmp_path / "done", done).status == "healthy"
    # a paste of a few lines showing training going on after the warning stays the benign warning
    # it was pasted for (issue 28's evidence of a healthy run)
    assert verdict(tmp_path / "paste", {"r0.log": _epochs(0, 3)}).status == "healthy"


@pytest.mark.parametrize("line", [
    "2025-09-03 14:00:45,000 node7 [r0] INFO fit: finished in 0:12:34",
    "INFO:trainer:done in 812 s",
])
def test_a_process_saying_it_finished_in_so_long_is_a_healthy_end(tmp_path, line):
    v = verdict(tmp_path, {"r0.log": _epochs(0, 12) + line + "\n"})
    assert v.status == "healthy"


def test_an_epochs_finished_in_so_long_is_no_end_of_the_run(tmp_path):
    # the same words after an epoch's number, printed at every epoch's end: the log stops in its loop
    v = verdict(tmp_path, {"r0.log": _epochs(0, 12, end="epoch {e} finished in 3.{a}s")})
    assert v.status == "inconclusive"


def test_colossalais_closing_report_per_node_is_that_nodes_outcome(tmp_path):
    # `colossalai run`'s report after every node's torchrun returned (colossalai/cli/launcher/run.py)
    body = "".join(f"Epoch {e}: loss {1.5 - e / 10:.2f}\n" for e in range(3))
    report = "\n====== Training on All Nodes =====\n{a}: {sa}\n{b}: {sb}\n\n====== Stopping All Nodes =====\n{a}: finish\n{b}: finish\n"
    ok = verdict(tmp_path / "ok", {"launch.log": body + report.format(a="10.1.0.4", b="10.1.0.5", sa="success",
                                                                         sb="success")})
    assert ok.status == "healthy"
    bad = verdict(tmp_path / "bad", {"launch.log": body + report.format(a="10.1.0.4", b="10.1.0.5", sa="success",
                                                                          sb="failure")})
    assert bad.status == "failed"
    assert bad.first_deviating is not None and "failure" in bad.first_deviating.text
    assert bad.first_deviating.node == "10.1.0.5"


@pytest.mark.parametrize("text", [
    "ImportError: accelerate>=1.20.0 is required for a normal functioning of this module, but found accelerate==1.16.0.",
    "RuntimeError: flash-attn>=2.6,<3 is required by this recipe",
])
def test_a_version_requirement_refused_at_import_is_a_version_mismatch(text):
    tb = ("Traceback (most recent call last):\n  File \"/srv/app/train.py\", line 3, in <module>\n"
          "    import recipe\n" + text)
    c = classify_failure(tb, "before_training")
    assert c is not None and c.entry.category == "version_mismatch"


NEW_TORCH_TIMEOUT = (
    "[rank2]:[E1103 09:12:44.100200300 ProcessGroupNCCL.cpp:684] [Rank 2] Some NCCL operations have failed or timed "
    "out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete "
    "data.\n"
    "[rank2]:[E1103 09:12:44.100300400 ProcessGroupNCCL.cpp:698] [Rank 2] To avoid data inconsistency, we are taking "
    "the entire process down.\n"
    "[rank2]:[E1103 09:12:44.101500600 ProcessGroupNCCL.cpp:1899] [PG ID 0 PG GUID 0(default_pg) Rank 2] Process group "
    "watchdog thread terminated with exception: [Rank 2] Watchdog caught collective operation timeout: "
    "WorkNCCL(SeqNum=1207, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600042 milliseconds "
    "before timing out.\n"
)


def test_a_watchdogs_timeout_report_is_cited_before_the_notice_that_follows_from_it(tmp_path):
    # torch >= 2.4 prints c10d's "Some NCCL operations have failed" notice before the watchdog's
    # exception that names the collective: the rules' edge (the timeout leads to the notice) orders them
    v = verdict(tmp_path / "both", {"console.log": NEW_TORCH_TIMEOUT})
    assert v.first_deviating is not None
    assert "WorkNCCL(SeqNum=1207, OpType=ALLREDUCE" in v.first_deviating.text
    # the notice alone is still the line to cite
    alone = verdict(tmp_path / "alone", {"console.log": NEW_TORCH_TIMEOUT.split("\n")[0] + "\n"})
    assert alone.first_deviating is not None and "Some NCCL operations" in alone.first_deviating.text
