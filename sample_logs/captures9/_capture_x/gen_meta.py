#!/usr/bin/env python3
"""gen_meta.py [OUT]: write README.md, truth.json and .correlatorignore of every x-* job under OUT
(default sample_logs/captures9). Truths are written from the injections (META below) and were checked by
hand against the captured lines (../../_capture/check_truths.py checks every `contains` is in the job's log files)."""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "sample_logs/captures9"
ENV = ("Run by `_capture_x/<name>.sh` in the scratch dir `/home/user/jobs/<name>/` (the scripts of `_capture_x/` copied "
       "there) inside a private network namespace with only loopback up and a private mount namespace "
       "(`unshare -n -m`, see `_capture_x/common.sh`); `python`, `torchrun`, `deepspeed` from `/home/user/venv`, under "
       "`nice`, `PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1`. Log files copied out by `_capture_x/collect.py` (layout kept; "
       "the only rewrite is this machine's interpreter path, with `sample_logs/_capture/neutral_paths.py`'s map).")


def T(status, kind, rank, node, all_ranks, cat, fd, fd_rank, coll, notes):
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks, "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "ranks": r} for c, r in coll], "notes": notes}


CLOSED = "Connection closed by peer"
META = {
 "x-ds-launcher-allgather-dtype-r1": dict(
  files=["console.log"],
  launcher="`deepspeed --num_gpus 3` (DeepSpeed launcher, CPU accelerator) running the plain gloo trainer `x_train.py`",
  layout="`console.log`: the launcher's console (runner + `deepspeed.launcher.launch` lines, workers' output unprefixed; uncaught exceptions carry torch's `[rankN]:` prefix)",
  injected="rank 1 builds its per-step stats tensor for `dist.all_gather` in float64 at step 6 (the output list and the other ranks use float32).",
  exits="launcher 1",
  happened="Steps 1-5 fine. Rank 1: `ValueError: Invalid usage of tensors with different dtypesFound torch.float32 and  torch.float64` from `_ensure_all_tensors_same_dtype` in `all_gather`; ranks 0 and 2, already inside the all_gather, fail with gloo `Connection closed by peer`. The launcher's `sigkill_handler` kills the subprocesses and logs the failing command with its exit code.",
  truth=T("failed", "rank", 1, None, False, "code_exception",
          "ValueError: Invalid usage of tensors with different dtypes", 1, [(CLOSED, [0, 2])],
          "one rank passes a float64 tensor to all_gather (float32 output list): torch raises locally on rank 1 before any data moves; its peers see the connection close. code_exception (a dtype bug on one rank's code path); collective_mismatch arguable.")),
 "x-ds-torchrun-healthy-warnings": dict(
  files=["launcher.log", "logs/**/*.log"],
  launcher="torchrun ×2 `--log-dir logs --redirects 3` running a DeepSpeed engine (`deepspeed.init_distributed(dist_backend='gloo')`, `deepspeed.initialize`, ZeRO stage 0, client AdamW)",
  layout="`launcher.log` (agent only) + `logs/none_<rand>/attempt_0/{0,1}/{stdout,stderr}.log` (DeepSpeed engine lines, per-rank Python logging)",
  injected="none: a healthy 20-step run with alarming but harmless lines: DeepSpeed's CPU-accelerator WARNINGs, rank 0 `checkpoint dir ckpt/ has no 'latest' file; starting from scratch`, rank 1 `grad norm spike at step 7 ... continuing`.",
  exits="launcher 0",
  happened="Both ranks run 20 steps and log `done`; exit 0.",
  truth=T("healthy", None, None, None, False, None, None, None, [],
          "healthy DeepSpeed run under torchrun; WARNING lines (no latest checkpoint, grad-norm spike, accelerator detection) are not failures; exit 0.")),
 "x-ds-launcher-sigterm-scheduler": dict(
  files=["console.log"],
  launcher="`deepspeed --num_gpus 2` (CPU accelerator) running the DeepSpeed engine trainer `x_ds.py` (400 steps)",
  layout="`console.log`: the launcher's console with the workers' output",
  injected="a 'scheduler' (the capture script) sends SIGTERM to the deepspeed runner process 25 s after the start (wall-time limit / preemption).",
  exits="launcher 143 (the runner killed by SIGTERM)",
  happened="Steps 1-84 fine on both ranks. The workers die from the SIGTERM silently; `deepspeed.launcher.launch`'s handler logs `Killing subprocess <pid>` twice and `Main process received SIGTERM, exiting`; the runner exits 143 without a line.",
  truth=T("failed", "external", None, None, False, "killed_by_scheduler",
          "Main process received SIGTERM, exiting", None, [],
          "a healthy run SIGTERMed from outside (the whole process group, as a scheduler's wall-time limit); the launcher's handler line is the only trace; killed_by_scheduler, external (as captures7's s-acc-yaml-rich-timeout-term).")),
 "x-spawn-bcast-stale-labels-r2": dict(
  files=["console.log", "logs/*.log"],
  launcher="`torch.multiprocessing.spawn`, 3 processes (`x_train.py --spawn 3 --no-stderr --log-file 'logs/rank{rank}.log'`)",
  layout="`console.log` (the parent: spawn's report and what C++ writes to stderr) + `logs/rank{0,1,2}.log` (each process's Python logging, file only)",
  injected="each rank reads a label map from its own cache dir (`cache/rank{R}/labels.txt`); rank 2's is stale (8 classes, the others 10); rank 0 broadcasts class weights of its length (10 floats) into each rank's buffer.",
  exits="parent 1",
  happened="All ranks log `starting` and `loaded label map ...`: ranks 0, 1 `10 classes`, rank 2 `8 classes`. Rank 2 aborts in the broadcast: `terminate called after throwing an instance of 'gloo::EnforceNotMet'` / `... op.preamble.length <= op.nbytes. 40 vs 32. Received data size doesn't match expected size. Is there a distributed collective mismatch in your code?` (console only, no rank on it). Ranks 0 and 1 log `class weights synced from rank 0` and are SIGTERMed by spawn without a line; spawn: `ProcessExitedException: process 2 terminated with signal SIGABRT`.",
  truth=T("failed", "rank", 2, None, False, "collective_mismatch",
          "Received data size doesn't match expected size. Is there a distributed collective mismatch in your code?", 2, [],
          "stale per-rank label map on rank 2: its broadcast buffer is 8 floats, rank 0 sends 10; gloo aborts rank 2 (SIGABRT); ranks 0, 1 are terminated by spawn silently. collective_mismatch (size mismatch in one collective); data_error arguable (the stale cache file). The earlier INFO line 'loaded label map cache/rank2/labels.txt: 8 classes' deviates too; the first error line is the gloo enforce message.")),
 "x-logdir-json-rlimit-as-r1": dict(
  files=["console.log", "logs/**/*.log"],
  launcher="torchrun ×3 `--log-dir logs --redirects 3 --tee 3`",
  layout="`console.log` (agent + `[defaultN]:` copies of every rank's output) + `logs/none_<rand>/attempt_0/<lr>/{stdout,stderr}.log`; Python logging with a JSON formatter (`{\"ts\", \"level\", \"logger\", \"rank\", \"pid\", \"msg\"}`)",
  injected="rank 1 runs under `RLIMIT_AS` 1200 MiB (set by the trainer at start, a per-rank memory cap); at step 5 every rank builds a 600 MiB feature cache (`bytearray`).",
  exits="launcher 1",
  happened="Rank 1 logs `step 5: building feature cache (600 MiB)` and raises `MemoryError` (bare, in `bytearray(...)`); ranks 0 and 2 fail in the next collective with gloo `Connection closed by peer`; torchrun's table: Root Cause rank 1 (exitcode 1), ranks 0, 2 SIGTERM.",
  truth=T("failed", "rank", 1, None, False, "oom",
          "[rank1]: MemoryError", 1, [(CLOSED, [0, 2])],
          "per-rank address-space cap on rank 1: host allocation fails with a bare MemoryError (oom, as captures7's s-loguru-ulimit-v-rank1); peers see the connection close.")),
 "x-restart-kill-then-nan-r1": dict(
  files=["launcher.log", "logs/**/*.log"],
  launcher="torchrun ×3, `--rdzv-backend c10d --max-restarts 1 --log-dir logs --redirects 3` (no tee); process group over `PrefixStore('attempt-<restart>')` on the agent's store; per-rank checkpoints every 3 steps, resumed on restart",
  layout="`launcher.log` (agent only) + `logs/none_<rand>/attempt_{0,1}/<lr>/{stdout,stderr}.log`",
  injected="attempt 0: rank 0's worker is SIGKILLed from outside once it logs step 7 (an OOM-killer-like kill, nothing printed by the worker); attempt 1 (resumed at step 7 from the step-6 checkpoints): rank 1's batch at step 11 holds an inf.",
  exits="launcher 1",
  happened="Attempt 0: all ranks log steps 1-7 and the step-6 checkpoint; the agent logs `failed (exitcode: -9) local_rank: 0 (pid: 11729)` and restarts the group (no worker traceback in attempt 0). Attempt 1: `resumed from ckpt/rankR.pt at step 7`, steps 7-10, checkpoint at 9; rank 1 raises `FloatingPointError: non-finite loss nan at step 11 (rank 1)`; ranks 0 and 2 fail with gloo `Connection closed by peer`; no restarts left: ChildFailedError, Root Cause rank 1.",
  truth=T("failed", "rank", 1, None, False, "nan_divergence",
          "FloatingPointError: non-finite loss nan at step 11 (rank 1)", 1, [(CLOSED, [0, 2])],
          "the job's failure is attempt 1's: rank 1's non-finite loss at step 11; ranks 0, 2 collateral in attempt 1. Attempt 0's external SIGKILL of rank 0 (exitcode -9) was recovered by torchrun's restart and is not the cause of the final failure.")),
 "x-nohup-dataloader-json-r0": dict(
  files=["train_20261205.out"],
  launcher="`nohup torchrun ×2 ... > train_20261205.out 2>&1 &` (background job; the capture script waits on it)",
  layout="one `train_20261205.out` (agent + both workers, unprefixed log lines, `[rankN]:` on uncaught tracebacks)",
  injected="each rank reads JSON-lines records (`data/shard-{R}.jsonl`) through a DataLoader with 2 worker processes; record 21 of rank 0's shard is truncated (a partial write).",
  exits="launcher 1",
  happened="Steps 1-2 fine; rank 0's DataLoader worker 0 hits the truncated record in batch 3: `RuntimeError: Caught JSONDecodeError in DataLoader worker process 0.` with the original traceback `json.decoder.JSONDecodeError: Expecting ',' delimiter: line 2 column 1 (char 58)`; rank 1 fails with gloo `Connection closed by peer`; torchrun Root Cause rank 0.",
  truth=T("failed", "rank", 0, None, False, "data_error",
          "Caught JSONDecodeError in DataLoader worker process 0", 0, [(CLOSED, [1])],
          "a truncated JSON record in rank 0's shard: JSONDecodeError inside its DataLoader worker, re-raised in rank 0; rank 1 sees the connection close.")),
 "x-port-in-use-static-master": dict(
  files=["console.log"],
  launcher="torchrun ×2, default static rendezvous, `--master-addr 127.0.0.1 --master-port 29915`, console piped through `tee console.log`",
  layout="`console.log` (the agent's traceback only)",
  injected="a process left over from an earlier session (`python -m http.server 29915`) holds the master port.",
  exits="launcher 1",
  happened="The agent's static rendezvous cannot create its TCPStore: `torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29915, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use`; no worker is started.",
  truth=T("failed", "all_ranks", None, None, True, "rendezvous",
          "The server socket has failed to listen on any local network address. port: 29915", None, [],
          "master port held by another process: the launcher's store cannot listen, no worker runs (all_ranks, as public/mmpretrain-port-22-in-use).")),
 "x-2node-c10d-segv-rank3": dict(
  files=["node-*/console.log"],
  launcher="two torchrun agents = two nodes on this machine, `--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29916 --rdzv-id job42 --tee 3`",
  layout="`node-0/console.log` (ranks 0, 1) and `node-1/console.log` (ranks 2, 3), each its agent's output with `[defaultN]:` (local rank) prefixes",
  injected="once rank 3 (node 1, local rank 1) logs step 6, it is sent SIGSEGV from outside (no faulthandler: the process prints nothing).",
  exits="node-0 1, node-1 1",
  happened="Rank 3 dies silently; node-1's agent logs `failed (exitcode: -11) local_rank: 1 (pid: 23097)` and SIGTERMs rank 2; its table: Root Cause rank 3 (`Signal 11 (SIGSEGV)`). Node-0's ranks 0 and 1 fail with gloo `Connection closed by peer`; node-0's table names its own rank 0 as Root Cause.",
  truth=T("failed", "rank", 3, None, False, "other",
          "failed (exitcode: -11) local_rank: 1 (pid: 23097)", 3, [(CLOSED, [0, 1])],
          "rank 3 killed by SIGSEGV (silent; only node-1's agent line and table name it); other, as the corpus's segfaults; ranks 0, 1 (node 0) collateral, rank 2 SIGTERMed by its agent without a line. Node-0's table blames its own rank 0.")),
 "x-hf-gloo-heads-config-all": dict(
  files=["console.log", "logs/**/*.log"],
  launcher="torchrun ×2 `--log-dir logs --redirects 3 --tee 3` running `transformers.Trainer` on CPU (`ddp_backend='gloo'`, `use_cpu=True`)",
  layout="`console.log` (agent + `[defaultN]:` copies) + `logs/none_<rand>/attempt_0/<lr>/{stdout,stderr}.log`",
  injected="the shared `model_config.json` says `hidden_size: 30` (meant 32) with `num_attention_heads: 4`.",
  exits="launcher 1",
  happened="Both ranks log the model config and fail building the model: `ValueError: The hidden size (30) is not a multiple of the number of attention heads (4)`; torchrun's table names one of them Root Cause, the other SIGTERM.",
  truth=T("failed", "all_ranks", None, None, True, "config_error",
          "ValueError: The hidden size (30) is not a multiple of the number of attention heads (4)", None, [],
          "a job-wide model-config typo: every rank raises the same ValueError at model construction; no single initiator.")),
 "x-hf-gloo-healthy-tee-alarming": dict(
  files=["train.log"],
  launcher="torchrun ×2 running `transformers.Trainer` on CPU (`ddp_backend='gloo'`), console piped through `tee train.log`",
  layout="one `train.log` (agent, both ranks, tqdm bars, transformers INFO on rank 0)",
  injected="none: `from_pretrained` of a saved encoder into a classifier (LOAD REPORT: `classifier.* MISSING`, newly initialized), DDP `find_unused_parameters=True` warnings, a metrics-push callback logs `ERROR ... metrics push failed at step 6, will retry at next log` with a `ConnectionRefusedError` traceback (caught), then pushes again.",
  exits="launcher 0",
  happened="24 steps, `train done: {...}` on rank 0; exit 0.",
  truth=T("healthy", None, None, None, False, None, None, None, [],
          "healthy HF Trainer run: MISSING-keys load report, DDP warnings and a caught ConnectionRefusedError logged at ERROR with traceback; max_steps reached, exit 0.")),
 "x-ray-train-hang-r2-logfmt": dict(
  files=["console.log", "rt/session_2*/logs/worker-*", "rt/session_2*/logs/train/*.log"],
  launcher="Ray Train `TorchTrainer`, 3 workers, `TorchConfig(backend='gloo', timeout_s=20)`, `ray.init(address='local', _temp_dir=rt)`",
  layout="`console.log` (driver; worker lines prefixed `(RayTrainWorker pid=N)`) + `rt/session_<ts>/logs/worker-*.{out,err}` + `rt/session_<ts>/logs/train/*.log`; workers log in logfmt (`ts=... level=... rank=R msg=\"...\"`)",
  injected="rank 2 logs `step 5: waiting for eval shard lock /shared/eval/.lock` and sleeps 60 s before step 5; gloo timeout 20 s.",
  exits="driver 1",
  happened="Ranks 0 and 1 enter step 5's backward all-reduce and time out after 20 s: rank 0 `Timed out waiting 20000ms for send operation to complete`, rank 1 `... recv operation ...`; the controller raises `ray.train.WorkerGroupError: Training failed due to worker errors:` with `[Rank 0 Error Snippet]` and `[Rank 1 Error Snippet]`; rank 2 is torn down by Ray without a line of its own.",
  truth=T("failed", "rank", 2, None, False, "nccl_timeout_hang",
          "step 5: waiting for eval shard lock /shared/eval/.lock", 2, [("Timed out waiting 20000ms for", [0, 1])],
          "rank 2 blocks before step 5; ranks 0, 1 hit the 20 s gloo timeout; Ray's error report lists only the victims (Rank 0, Rank 1 snippets). First deviating line: rank 2's last INFO line before it stalls.")),
}


def main():
    for name, m in META.items():
        d = os.path.join(OUT, name)
        if not os.path.isdir(d):
            print("missing", d); continue
        logs = sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs
                      if f not in ("README.md", "truth.json", ".correlatorignore"))
        t = m["truth"]
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(t, f, indent=2); f.write("\n")
        with open(os.path.join(d, ".correlatorignore"), "w") as f:
            f.write("# scenario documentation, not logs\nREADME.md\ntruth.json\n")
        tl = (f"{t['status']}" + (f", {t['initiating']['kind']}" if t['initiating']['kind'] else "")
              + (f", rank {t['initiating']['rank']}" if t['initiating']['rank'] is not None else "")
              + (f", `{t['root_cause']['category']}`" if t['root_cause']['category'] else ""))
        r = [f"# {name}", "", f"Captured for real on this machine on 2026-12-05 (host `vm`, 2 cores, CPU only).", "",
             f"* **Launcher:** {m['launcher']}", f"* **Layout:** {m['layout']}",
             f"* **Planted:** {m['injected']}", f"* **Exit codes:** {m['exits']}", "",
             "## What happened", "", m["happened"], "",
             "## Truth", "", f"{tl}. First deviating line: " + (f"`{t['first_deviating']['contains']}`" if t['first_deviating']['contains'] else "none")
             + (f" (rank {t['first_deviating']['rank']})" if t['first_deviating']['rank'] is not None else "") + "."
             + ("".join(f" Collateral: `{c['contains']}` on ranks {c['ranks']}." for c in t['collateral'])),
             "", t["notes"], "",
             "## Files", ""] + [f"* `{x}`" for x in logs] + ["",
             "## Rerun", "", ENV, "", "```", f"_capture_x/{name}.sh            # as root; scratch dir /home/user/jobs/{name}",
             f"python3 _capture_x/collect.py {name} " + " ".join(f"'{g}'" for g in m["files"]),
             "python3 _capture_x/gen_meta.py && python3 ../_capture/check_truths.py .", "```", "",
             "A recapture differs in pids, ports, time stamps and random directory names; the truth's pid-bearing strings "
             "must then be updated from the new logs.", ""]
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write("\n".join(r))
        print("wrote", name)


if __name__ == "__main__":
    main()
