#!/usr/bin/env python3
"""write README.md + truth.json of every bx- capture folder, README-bx.md, and append the slugs."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6, rich 15.0.0 in an earlier round's virtualenv "
       "(/home/user/capBI/venv, used read-only), Open MPI 4.1.4 mpirun; every job run in a private network namespace "
       "(loopback only), private mount namespace and UTS namespace (hostname ml-a03; the two-node jobs start a second "
       "launcher in a nested UTS namespace named ml-a04) from a clean environment, one job at a time on a shared 2-CPU "
       "machine")
TR = "torch/distributed/elastic/multiprocessing/api.py:1028] Sending process {} closing signal SIGTERM"
SP = "torch/multiprocessing/spawn.py:165] Terminating process {} via signal SIGTERM"
def fail(rank, kind, cat, fd, fd_rank, coll, notes, node=None):
    return {"schema_version": 1, "status": "failed",
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "rank": r} for c, r in coll], "notes": notes}
def ok(status, notes):
    return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
            "first_deviating": None, "collateral": [], "notes": notes}
J = {}
J["bx-torchrun-nproc3-logdir-tee3-jsonl-logs-rank1-class-balanced-sampler-shard-lacks-class3-while-loop-spins-peers-gloo-timeout-r1"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --tee 3 --log-dir logs bx_train.py --data data --log-format json "
      "--epochs 4 --balanced-from-epoch 1 --log-every 8 --pg-timeout 20`: 3 ranks, DDP over gloo (process-group "
      "timeout 20 s), one JSON object per log line on stdout.",
  fault="From epoch 1 every rank rebuilds a class-balanced sampler that draws random indices until each of the 4 "
        "classes has 16 picks. Rank 1's shard was filtered upstream and holds no class-3 row (its load line shows "
        "class counts [187, 164, 161, 0]), so its draw loop never terminates: no error, just a CPU-bound spin. Ranks 0 "
        "and 2 enter the first DDP all-reduce of epoch 1 and time out after 20 s (gloo 'Timed out waiting 20000ms'); "
        "torchrun then SIGTERMs the remaining processes, rank 1 included.",
  layout="console.log: torchrun's console with all ranks teed (`[defaultN]:` prefixes). logs/<run id>/attempt_0/"
         "{0,1,2}/{stdout,stderr}.log: per-rank files (JSON lines in stdout, tracebacks in stderr).",
  judge="The hang starts on rank 1 (its shard lacks a class, its sampler loop spins); the peers' gloo timeouts, "
        "torchrun's root-cause pick (rank 2 or 0, whichever exited first) and the SIGTERMs are consequences.",
  truth=fail(1, "rank", "nccl_timeout_hang", "loaded shard_01.npz: 512 samples, class counts [187, 164, 161, 0]", 1,
             [("Timed out waiting 20000ms for send operation to complete", 2),
              ("Timed out waiting 20000ms for recv operation to complete", 0),
              (TR.format(6471), None), ("failed (exitcode: 1) local_rank: 2 (pid: 6472)", 2)],
             "Rank 1 never reaches epoch 1's first all-reduce: its class-balanced sampler loops forever because its "
             "shard has no class-3 sample (class counts [..., 0]). Ranks 0 and 2 time out in gloo after 20 s; torchrun "
             "names rank 2 as root cause and SIGTERMs ranks 0 and 1."))
J["bx-mpirun-np4-tag-output-plain-logging-max-steps-from-own-shard-len-rank2-short-shard-exits-0-peers-conn-closed-r2"] = dict(
  run="`mpirun --allow-run-as-root --oversubscribe -np 4 --tag-output -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29733 ... "
      "python bx_train.py --data data --log-format plain --epochs 3 --max-steps-from-shard --log-every 8 --pg-timeout 30 "
      "--step-sleep 0.02`: 4 ranks (rank/size from Open MPI's environment), DDP over gloo, logging with an "
      "`asctime LEVEL train [host rank N]` format on stderr.",
  fault="Each rank derives its step budget locally as epochs x len(its DataLoader). Rank 2's shard has 416 rows "
        "(13 batches) instead of 512 (16), so its max_steps is 39 instead of 48: it logs 'reached max_steps=39, "
        "stopping' and 'training finished', destroys its process group and exits with code 0 while ranks 0, 1 and 3 "
        "are still training; their next DDP all-reduce fails with gloo 'Connection closed by peer'.",
  layout="console.log: mpirun's console, every line tagged `[1,N]<stdout|stderr>:`, then mpirun's own summary "
         "(which names rank 3, the first non-zero exit).",
  judge="Rank 2 leaves early (exit 0) with a step budget different from its peers: a collective mismatch started by "
        "rank 2. The connection-closed errors of ranks 0/1/3 and mpirun's report naming rank 3 are consequences.",
  truth=fail(2, "rank", "collective_mismatch", "13 batches per epoch, max_steps=39", 2,
             [("Connection closed by peer [127.0.0.1]:28821", 1), ("Connection closed by peer [127.0.0.1]:8380", 3),
              ("Connection closed by peer [127.0.1.1]:49554", 0), ("Process name: [[9754,1],3]", None)],
             "Rank 2 computes max_steps=39 from its shorter shard (the others 48), stops after step 39 and exits 0; "
             "the other ranks' next all-reduce loses their peer (Connection closed by peer) and they exit 1, which "
             "mpirun reports naming rank 3."))
J["bx-2node-uts-torchrun-c10d-nnodes2-node-consoles-nodeb-launched-nproc-per-node-4-world-6-vs-4-shards-filenotfound-ml-a04"] = dict(
  run="Two 'nodes' (UTS namespaces ml-a03 and ml-a04 on one loopback network), each running `torchrun --nnodes 2 "
      "--rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29520 --rdzv-id 4410 --nproc-per-node N bx_train.py --data data "
      "--log-format plain --epochs 3 --log-every 8 --pg-timeout 30 --eval`; ml-a03 with N=2, ml-a04 with N=4.",
  fault="The job is laid out for 4 ranks (2 per node; the data has 4 shards). Node ml-a04's launch line says "
        "--nproc-per-node 4 (copied from a 4-slot box). The c10d rendezvous accepts the heterogeneous nodes and the "
        "world becomes 6 (ranks 2-5 on ml-a04); ranks 4 and 5 find no shard_04.npz / shard_05.npz (FileNotFoundError). "
        "ml-a04's agent SIGTERMs its ranks 2 and 3; on ml-a03, ranks 0 and 1 lose their peers in DDP's initial "
        "broadcast (Connection closed by peer).",
  layout="ml-a03/console.log and ml-a04/console.log: each node's torchrun console (ranks' output not teed with a prefix: "
         "they write straight to it).",
  judge="A launch-configuration error on node ml-a04 (wrong local world size -> world 6 instead of 4): config_error "
        "initiated by that node. The FileNotFoundErrors of ranks 4/5 are its first visible effect; the connection "
        "errors and SIGTERMs are consequences.",
  truth=fail(None, "rank", "config_error", "rank 3/6 local 1/4 on ml-a04: process group ready", 3,
             [("No such file or directory: 'data/shard_04.npz'", 4), ("No such file or directory: 'data/shard_05.npz'", 5),
              ("Connection closed by peer [127.0.0.1]:23198", 0), ("Connection closed by peer [127.0.0.1]:55435", 1),
              (TR.format(9730), None), (TR.format(9729), None)],
             "Node ml-a04 was launched with --nproc-per-node 4 instead of 2, so the rendezvous forms a 6-rank world "
             "(its ranks print 'local k/4', world /6) for a 4-shard job: ranks 4 and 5 have no data shard and crash, "
             "taking the rest of the job down.", node="ml-a04"))
J["bx-spawn-nprocs4-rich-handler-console-rank3-shard-exported-per-sample-npy-files-open-handle-cache-ulimit-n-1024-emfile-r3"] = dict(
  run="`ulimit -n 1024; python bx_train.py --nprocs 4 --master-port 29741 --data data --log-format rich --epochs 2 "
      "--log-every 16 --pg-timeout 30`: torch.multiprocessing.spawn, 4 ranks, DDP over gloo, rich's RichHandler on "
      "the console (80 columns, wrapped).",
  fault="Shards 0-2 are .npz files; rank 3's shard was exported as one .npy file per sample (2048 files). The "
        "per-sample dataset keeps every file object open for reuse, so under the (common default) 1024 open-files "
        "limit rank 3 fails in its first epoch with 'OSError: [Errno 24] Too many open files' (and torch's spawn "
        "wrapper then fails to write its error file for the same reason). The spawn parent SIGTERMs ranks 0-2.",
  layout="console.log: the spawn parent's console (all ranks' output and tracebacks, rich-formatted log lines).",
  judge="Rank 3 exhausts its file-descriptor limit (storage/IO resource) through its per-sample loader; the "
        "termination of the other ranks is a consequence.",
  truth=fail(3, "rank", "storage_io", "OSError: [Errno 24] Too many open files", 3,
             [(SP.format(10191), None), (SP.format(10192), None), (SP.format(10193), None)],
             "Only rank 3 reads the per-sample-file shard and keeps every file open; it hits EMFILE at about 1000 "
             "open files in epoch 0. The spawn parent terminates ranks 0-2 and reports process 3 exited with 1."))
J["bx-srun-label-wrapper-ntasks3-print-style-rank0-writes-step-ckpt-in-place-rank1-eval-polls-exists-loads-half-written-zip-central-directory-r1"] = dict(
  run="`SLURM_JOB_ID=562091 ./bx_srunlike.sh -n 3 --label -- python bx_train.py --log-format print --hidden 1536 "
      "--epochs 4 --log-every 10 --ckpt-dir ckpt --ckpt-every 40 --eval-rank 1 --pg-timeout 30`: a local srun --label "
      "stand-in (wrapper script: SLURM_PROCID/SLURM_NTASKS per task, merged output prefixed `<task>: `, remaining "
      "tasks killed once one fails), 3 ranks, DDP over gloo, `[rankN]` print lines.",
  fault="Every 40 steps rank 0 torch.save()s ckpt/step_NNNNN.pt directly under its final name (~19 MB); rank 1, the "
        "eval rank, waits only until the path exists and torch.load()s it. At step 40 the load happens to see a "
        "complete file; at step 80 it reads the file while rank 0 is still writing it: 'PytorchStreamReader failed "
        "reading zip archive: failed finding central directory' on rank 1. Ranks 0 and 2 then lose rank 1 "
        "(Connection closed by peer) and the wrapper terminates them.",
  layout="console.log: the wrapper's merged console, each line prefixed with the task number, plus its `srun:` lines.",
  judge="The failing read is rank 1's (reading a half-written checkpoint: no write/read hand-off); ranks 0 and 2's "
        "gloo errors and the wrapper's termination are consequences.",
  truth=fail(1, "rank", "storage_io", "failed finding central directory", 1,
             [("Connection closed by peer [127.0.0.1]:14489", 0), ("Connection closed by peer [127.0.0.1]:30920", 2),
              ("srun: Terminating job step 562091.0", None), ("task 0: Exited with exit code 143", 0)],
             "Rank 1 loads ckpt/step_00080.pt as soon as the file exists, while rank 0 is still writing it, and fails "
             "with a truncated-zip error; its peers' connection-closed errors and the wrapper's kills follow."))
J["bx-python-m-torch-distributed-run-nproc2-redirects3-logdir-logfmt-rank1-noisy-shard-hard-example-store-keeps-outer-maps-memwatch-sigkill-r1"] = dict(
  run="`python -m torch.distributed.run --standalone --nproc-per-node 2 --redirects 3 --log-dir logs bx_train.py --data "
      "data --log-format logfmt --hidden 256 --epochs 40 --log-every 16 --mine-hard 2.0 --step-sleep 0.01 "
      "--pg-timeout 30`: 2 ranks, DDP over gloo, structlog-style key=value lines on stderr (into the per-rank files); "
      "next to it the node's memory watchdog `bx_memwatch.sh 'bx_train.py --data' 900 memwatch.log`.",
  fault="Each rank keeps a 256x256 feature map of every sample whose loss exceeds 2.0 for a later hard-example "
        "report (`hard N` in its step lines). Rank 1's shard has 40% flipped labels, so it keeps thousands of maps; "
        "its RSS passes the watchdog's 900 MiB limit and the watchdog SIGKILLs it. The agent then SIGTERMs rank 0, "
        "which had already hit 'Connection reset by peer'.",
  layout="console.log: the launcher's console (only its own lines: --redirects 3). memwatch.log: the watchdog's log. "
         "logs/<run id>/attempt_0/{0,1}/{stdout,stderr}.log: per-rank files.",
  judge="Rank 1 is killed for memory (its own growth): oom, rank 1 (pid 11458 in the watchdog line, the launcher's "
        "failure report and rank 1's logfmt lines). Rank 0's connection reset and SIGTERM are consequences.",
  truth=fail(1, "rank", "oom", "pid 11458 rss 934 MiB > 900 MiB, sending SIGKILL", 1,
             [("Connection reset by peer", 0), (TR.format(11457), None)],
             "The memory watchdog kills pid 11458 (rank 1, whose hard-example store grows fast on its noisy shard) at "
             "934 MiB; torchrun reports local_rank 1 exit -9 and SIGTERMs rank 0, which had lost its peer."))
J["bx-torchrun-nproc8-redirects3-logdir-jsonl-exp-warmup-lambdalr-exponent-not-clamped-lr-explodes-after-warmup-nonfinite-loss-guard-all"] = dict(
  run="`torchrun --standalone --nproc-per-node 8 --redirects 3 --log-dir logs bx_train.py --data data --log-format json "
      "--lr 0.1 --lr-schedule warmup --warmup-steps 20 --nonfinite-guard --epochs 50 --log-every 4 --pg-timeout 30`: "
      "8 ranks, DDP over gloo, JSON-lines logs with the current lr in each step line.",
  fault="The exponential warmup is LambdaLR(lambda s: 0.01 ** (1 - s / w)) with the exponent not clamped at 0 "
        "(intended 0.01 ** max(0, 1 - s / w)): the lr reaches 0.1 at step 20 and keeps growing x100 every 20 steps "
        "(0.2512 at step 24, 10 at step 40, 1e13 at step 160). The weights, identical on every rank, blow up; the "
        "loss climbs on all 8 ranks and the loss guard raises 'FloatingPointError: non-finite loss nan' (rank 3 "
        "first, at step 175); ranks 2 and 4 then lose it in the next all-reduce and torchrun SIGTERMs the rest.",
  layout="console.log: torchrun's console (--redirects 3: only the launcher's lines and failure report). "
         "logs/<run id>/attempt_0/{0..7}/{stdout,stderr}.log: per-rank JSON lines and tracebacks.",
  judge="A job-wide learning-rate schedule bug: every rank's loss diverges together; which rank trips the guard "
        "first is incidental. nan_divergence, all ranks.",
  truth=fail(None, "all_ranks", "nan_divergence", "lr 0.2512", None,
             [("Connection closed by peer [127.0.1.1]:15793", 2), (TR.format(13461), None),
              ("failed (exitcode: 1) local_rank: 3 (pid: 13464)", 3)],
             "The lr keeps rising past the base 0.1 after the 20 warmup steps (first seen at step 24: lr 0.2512), the "
             "loss explodes identically on all 8 ranks and becomes NaN; rank 3's guard raises first, the other ranks "
             "are cut off by the launcher."))
J["bx-healthy-2node-uts-torchrun-c10d-nnodes2-nproc2-tee3-node-consoles-rich-handler-tensor-copy-userwarning-final-eval"] = dict(
  run="Two 'nodes' (UTS namespaces ml-a03 and ml-a04), each `torchrun --nnodes 2 --nproc-per-node 2 --tee 3 "
      "--rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29530 --rdzv-id 4512 bx_train.py --data data --log-format rich "
      "--epochs 4 --log-every 16 --pg-timeout 60 --label-tensor-copy --eval` (COLUMNS=120).",
  fault="None. Labels are copied with torch.tensor(tensor): a UserWarning on every rank.",
  layout="ml-a03/console.log, ml-a04/console.log: each node's torchrun console with its two ranks teed (`[defaultN]:`).",
  judge="4 epochs, val accuracy and 'training finished' on all 4 ranks, both agents exit 0: healthy.",
  truth=ok("healthy", "All 4 ranks over both nodes log val accuracy 0.9375 and 'training finished'; only a benign "
           "UserWarning; both torchrun agents exit 0."))
J["bx-healthy-python-m-torch-distributed-run-nproc3-jsonl-logs-rank1-cut-record-caught-logged-traceback-skipped-final-eval"] = dict(
  run="`python -m torch.distributed.run --standalone --nproc-per-node 3 bx_train.py --data data --log-format json "
      "--skip-bad-records --epochs 4 --log-every 16 --pg-timeout 60 --eval`: 3 ranks, DDP over gloo, JSON-lines logs "
      "on stdout.",
  fault="None fatal. Record 137 of shard 1 (JSON lines) was cut in half: rank 1's loader catches the JSONDecodeError, "
        "logs a warning with the traceback in its exc_info field and skips the record (511 records loaded).",
  layout="console.log: the launcher's console (ranks' stdout/stderr straight through, no prefix).",
  judge="The caught exception is handled; all ranks train 4 epochs and finish with val accuracy: healthy.",
  truth=ok("healthy", "Rank 1 logs and skips one unreadable record (caught JSONDecodeError, traceback in the JSON "
           "line); all 3 ranks finish 4 epochs with val accuracy 0.9062 and 'training finished'; exit 0."))
J["bx-healthy-mpirun-np6-tag-output-logfmt-legacy-clip-grad-norm-futurewarning-final-eval"] = dict(
  run="`mpirun --allow-run-as-root --oversubscribe -np 6 --tag-output -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29737 ... "
      "python bx_train.py --data data --log-format logfmt --epochs 3 --legacy-clip 1.0 --log-every 6 --pg-timeout 60 "
      "--eval`: 6 ranks (rank/size from Open MPI's env), DDP over gloo, key=value lines on stderr.",
  fault="None. Gradient clipping uses the deprecated torch.nn.utils.clip_grad_norm: a FutureWarning on every rank.",
  layout="console.log: mpirun's console, lines tagged `[1,N]<stderr>:`.",
  judge="3 epochs, val accuracy and 'training finished' on all 6 ranks, mpirun exit 0: healthy.",
  truth=ok("healthy", "All 6 ranks log val accuracy 0.8672 and 'training finished after 36 steps'; only a "
           "deprecation FutureWarning; mpirun exits 0."))
J["bx-inconclusive-srun-label-wrapper-ntasks4-print-style-epoch-n-of-50-console-snapshot-mid-run"] = dict(
  run="`SLURM_JOB_ID=562317 ./bx_srunlike.sh -n 4 --label -- python bx_train.py --log-format print --show-total "
      "--epochs 50 --log-every 8 --step-sleep 0.03 --pg-timeout 60`: 4 ranks, DDP over gloo, print lines with "
      "`epoch k/50`, merged by the srun --label stand-in.",
  fault="None. ~25 s in (epoch 12 of 50), console.log was copied as a person watching the job would; the job was "
        "stopped afterwards (not part of the capture).",
  layout="snapshot/console.log: the wrapper's merged console at that moment.",
  judge="The log stops mid-training (epoch 12/50) with no error and no end: inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running job: steady loss lines on all 4 ranks up to epoch 12/50, no error, "
           "no completion."))
J["bx-inconclusive-torchrun-nproc2-tee3-no-logdir-logfmt-step-lines-no-total-console-snapshot-mid-run"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 --tee 3 bx_train.py --data data --log-format logfmt --epochs 100000 "
      "--log-every 16 --step-sleep 0.02 --pg-timeout 60` (no --log-dir): 2 ranks, DDP over gloo, key=value lines "
      "without a stated total.",
  fault="None. ~20 s in, console.log was copied; the job was stopped afterwards (not part of the capture).",
  layout="snapshot/console.log: torchrun's console with both ranks teed (`[defaultN]:`).",
  judge="The log stops mid-training with no error and no end: inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running job: loss lines on both ranks up to epoch 30, no error, no "
           "completion, no stated total."))
rows = []
for name, m in J.items():
    d = os.path.join(OUT, name)
    assert os.path.isdir(d), name
    with open(os.path.join(d, "truth.json"), "w") as f:
        json.dump(m["truth"], f, indent=2); f.write("\n")
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(f"# {name}\n\nCaptured on this machine: a real run, not edited. Environment: {ENV}.\n\n"
                f"## What was run\n{m['run']}\n\n## Fault planted\n{m['fault']}\n\n## Layout\n{m['layout']}\n\n"
                f"Paths: the scratch dir is shown as /home/user/project, the virtualenv as /home/user/venv, the "
                f"interpreter prefix as /home/user/.pyenv (collect.py); nothing else changed.\n\n"
                f"## Judgement\n{m['judge']}\n")
    t = m["truth"]
    st = t["status"] if t["status"] != "failed" else (
        f"failed / {t['root_cause']['category']} (" + (
            f"rank {t['initiating']['rank']}" if t['initiating']['rank'] is not None else
            (f"node {t['initiating']['node']}" if t['initiating']['node'] else t['initiating']['kind'])) + ")")
    rows.append(f"| {name} | {st} |")
with open(os.path.join(OUT, "README-bx.md"), "w") as f:
    f.write("# README-bx: captures of collector bx (roundAL)\n\n" + ENV[0].upper() + ENV[1:] + ". Launchers: torchrun "
            "(--standalone with --tee / --redirects / --log-dir, and --nnodes 2 with c10d rendezvous across two UTS "
            "namespaces), python -m torch.distributed.run, torch.multiprocessing.spawn, Open MPI mpirun --tag-output, "
            "and a local srun --label stand-in wrapper script. Training script bx_train.py (small MLP, DDP over gloo) "
            "with JSON-lines, logfmt, rich, plain logging and print formats. Harness: _capture_bx/ (one script per job, "
            "run_all.sh, collect_all.sh, collect.py, gen_meta_bx.py).\n\n| folder | status / category (initiator) |\n|---|---|\n"
            + "\n".join(sorted(rows)) + "\n")
if os.environ.get("APPEND_SLUGS"):
    with open(os.path.join(OUT, "..", "..", "used_capture_slugs_new.txt"), "a") as f:
        for name in J:
            f.write(name + "\n")
print(len(J), "folders")
