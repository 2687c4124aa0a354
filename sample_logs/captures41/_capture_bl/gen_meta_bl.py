#!/usr/bin/env python3
"""write README.md + truth.json of every bl- capture folder, and README-bl.md."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6 in the previous round's virtualenv (/home/user/capBH/venv, "
       "used read-only); run in a private network namespace (loopback only), private mount namespace and UTS namespace "
       "(hostname trn-c11; the two-node jobs add one UTS namespace per node, trn-c11 / trn-c12) from a clean "
       "environment, one job at a time on a shared 2-CPU machine")
def fail(rank, node, kind, cat, fd, fd_rank, coll, notes):
    return {"schema_version": 1, "status": "failed",
            "initiating": {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "rank": r} for c, r in coll], "notes": notes}
def ok(status, notes):
    return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
            "first_deviating": None, "collateral": [], "notes": notes}
TR = "torch/distributed/elastic/multiprocessing/api.py:1028] Sending process {} closing signal SIGTERM"
SP = "torch/multiprocessing/spawn.py:165] Terminating process {} via signal SIGTERM"
J = {}
J["bl-torchrun-nproc3-redirects3-logdir-hostrankpid-logging-manual-grad-allreduce-rank2-shard-lacks-class3-head-inferred-3-outputs-size-mismatch-r2"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bl_train.py --data data --grad-sync manual "
      "--log-format hostrankpid --steps 150 --log-every 20 --pg-timeout 30`: 3 ranks, no DDP wrapper (same seed on every "
      "rank, gradients all_reduce'd by hand after backward), Python logging with a `host:rank:pid` record head.",
  fault="The classifier head size is inferred from each rank's shard labels. Rank 2's shard was filtered and has no row "
        "of class 3, so rank 2 builds a 3-output head (5443 parameters) while ranks 0/1 build 4 outputs (5508). The "
        "hand-written gradient all_reduce of the head weight then exchanges buffers of different sizes: gloo's enforce "
        "(`op.preamble.length <= op.nbytes ... Is there a distributed collective mismatch`) aborts rank 2 (SIGABRT), "
        "rank 1 gets 'Connection reset by peer', torchrun SIGTERMs ranks 0/1.",
  layout="console.log: torchrun's console (agent lines only). logs/<run id>/attempt_0/{0,1,2}/{stdout,stderr}.log: every "
         "rank's output (--redirects 3); rank 2's 'terminate called ... gloo::EnforceNotMet' in 2/stderr.log.",
  judge="The model differs on rank 2 (3 classes), so its gradient collective does not match its peers': a collective "
        "mismatch started by rank 2 (the enforce fires in rank 2, which is also torchrun's root cause). Rank 1's reset "
        "and the SIGTERMs are consequences.",
  truth=fail(2, None, "rank", "collective_mismatch",
             "Received data size doesn't match expected size. Is there a distributed collective mismatch in your code?", 2,
             [("Read error [127.0.0.1]:25800: Connection reset by peer", 1), (TR.format(1259), 0), (TR.format(1260), 1)],
             "Rank 2 logs '3 classes' / 5443 parameters vs 4 classes / 5508 on ranks 0-1 (head inferred from a shard "
             "without class 3); the manual gradient all_reduce then mismatches and gloo aborts rank 2 (exitcode -6, "
             "torchrun's root cause); rank 1's connection reset and the SIGTERMs follow."))
J["bl-torchrun-nproc2-tee3-logdir-print-style-onecyclelr-total-steps-floor-div-vs-loader-ceil-last-partial-batch-steps-past-end-valueerror-all"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bl_train.py --data data --style print --epochs 3 "
      "--sched onecycle --lr 0.1 --log-every 10 --pg-timeout 60`: 2 ranks, DDP over gloo, print-style lines.",
  fault="OneCycleLR(total_steps = epochs * (len(dataset) // batch_size)) = 3 * 31 = 93, but the DataLoader (drop_last "
        "False, 1000 samples, batch 32) yields 32 batches per epoch, 96 steps: scheduler.step() number 94 raises "
        "'ValueError: Tried to step 94 times. The specified number of total steps is 93' on both ranks.",
  layout="console.log: torchrun's console with both ranks' output teed (`[defaultN]:` prefixes). logs/<run id>/"
         "attempt_0/{0,1}/{stdout,stderr}.log: the same per rank.",
  judge="A scheduler misconfiguration deterministic on every rank (both raise at the same step): config_error, all_ranks.",
  truth=fail(None, None, "all_ranks", "config_error",
             "ValueError: Tried to step 94 times. The specified number of total steps is 93", None, [],
             "Both ranks raise the same OneCycleLR ValueError in epoch 2 (total_steps computed with floor division while "
             "the loader keeps the last partial batch); nothing rank-specific."))
J["bl-torchrun-elastic-maxrestarts2-nproc4-tee3-logdir-rank3-feature-cache-pt-truncated-copy-zip-central-directory-every-attempt-r3"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 --max-restarts 2 --tee 3 --log-dir logs bl_train.py --data data "
      "--feature-cache cache --steps 200 --log-every 25 --pg-timeout 60`: 4 ranks, DDP over gloo, logging, elastic "
      "agent allowed 2 restarts.",
  fault="Each rank loads its precomputed cache/features_rank<R>.pt (torch.save). features_rank3.pt was copied "
        "incompletely (its first 40% of bytes only): on attempt 0 rank 3's torch.load fails with 'OSError: [Errno 22] "
        "Invalid argument' in PyTorchFileReader; torchrun SIGTERMs ranks 0-2 and restarts. In attempts 1 and 2 the "
        "restarted workers never get past init_process_group: gloo connectFullMesh fails (attempt 1: 'Connection "
        "refused' to addresses published in the previous round, in ~4 s; attempt 2: 'Connect timeout' after 300 s), "
        "and after the second restart the agent gives up (root cause reported: local_rank 1 of attempt 2).",
  layout="console.log: torchrun's console with all ranks teed (`[defaultN]:` prefixes), all three attempts. "
         "logs/<run id>/attempt_{0,1,2}/{0..3}/{stdout,stderr}.log: per attempt and rank.",
  judge="The run's only real fault is rank 3's truncated feature file (attempt 0, first error of the job). The restart "
        "attempts' gloo mesh-connect failures are what the elastic restarts led to (the cause is not retried away; "
        "the restarted groups do not even form), so they are consequences; torchrun's final 'Root Cause' (local_rank 1, "
        "attempt 2) is a collateral failure. data_error initiated by rank 3.",
  truth=fail(3, None, "rank", "data_error", "[rank3]: OSError: [Errno 22] Invalid argument", 3,
             [(TR.format(3452), 0), (TR.format(3453), 1), (TR.format(3454), 2),
              ("Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:152] timed out connecting: SO_ERROR: Connection refused", None),
              ("Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.h:311] Connect timeout [none]", None),
              ("failed (exitcode: 1) local_rank: 1 (pid: 3751)", 1)],
             "Attempt 0: rank 3 logs 'loading cached features cache/features_rank3.pt' and torch.load fails (truncated "
             "zip archive) while ranks 0-2 loaded theirs; restarts 1 and 2 die in gloo connectFullMesh on every rank "
             "and the agent stops after max_restarts=2, naming local_rank 1 of the last attempt."))
J["bl-spawn-nprocs3-logging-bracketed-host-rank-pid-stagein-rank2-source-stalled-monitored-barrier-timeout-r2"] = dict(
  run="`python bl_train.py --nprocs 3 --master-port 29741 --data data --stage-from remote --stage-barrier-timeout 15 "
      "--log-format bracketed --steps 200 --log-every 25 --pg-timeout 60`: torch.multiprocessing.spawn, 3 ranks, logging "
      "with a `[time][host][rank r/w][pid p][LEVEL]` head.",
  fault="Each rank copies its shard from the shared export remote/ into data/ and then waits in "
        "dist.monitored_barrier(timeout=15 s). Rank 2's file on the export is served through a pipe whose writer only "
        "delivers after 60 s (a stalled network read): rank 2 never logs 'staged ...'. Rank 0's monitored barrier reports "
        "'Rank 2 failed to pass monitoredBarrier in 15000 ms'; rank 1 gets 'received errors while waiting for send/recv "
        "from rank 0'; spawn reports process 1's exception and SIGTERMs processes 0 and 2.",
  layout="console.log: the parent's console (all ranks' logging records, gloo's C++ error lines, spawn's lines and the "
         "ProcessRaisedException for process 1).",
  judge="A straggler rank stuck in I/O makes its peers time out in a barrier: the hang is rank 2's (named by rank 0's "
        "monitored barrier). The exception spawn shows (process 1) and the SIGTERMs are consequences.",
  truth=fail(2, None, "rank", "nccl_timeout_hang", "Rank 2 failed to pass monitoredBarrier in 15000 ms", 0,
             [("Rank 1 successfully reached monitoredBarrier, but received errors while waiting for send/recv from rank 0", 1),
              (SP.format(11940), 0), (SP.format(11942), 2)],
             "Ranks 0 and 1 log 'staged ...' and 'waiting for all ranks to finish stage-in'; rank 2 logs only 'process "
             "group ready' (its read of the stalled source never returns). Rank 0's monitored barrier names rank 2 after "
             "15 s; the first deviating line is printed by rank 0 but blames rank 2."))
J["bl-spawn-nprocs2-print-console-rank0-only-eval-confusion-bincount-val-unlabelled-minus100-rows-runtimeerror-r0"] = dict(
  run="`python bl_train.py --nprocs 2 --master-port 29742 --data data --style print --eval-rank0 --steps 120 "
      "--log-every 20 --pg-timeout 60`: torch.multiprocessing.spawn, 2 ranks, DDP over gloo, print-style lines.",
  fault="After training, rank 0 alone evaluates on val.npz (confusion matrix via torch.bincount(y_true*C + y_pred)) "
        "while rank 1 waits at a barrier. val.npz holds 5 unlabelled rows marked with the ignore index -100: bincount "
        "gets negative values and raises 'RuntimeError: bincount only supports 1-d non-negative integral inputs.' on "
        "rank 0; spawn SIGTERMs rank 1.",
  layout="console.log: the parent's console (both ranks' lines, spawn's SIGTERM warning, ProcessRaisedException for "
         "process 0 with its traceback).",
  judge="Training finished on both ranks; the failure is in rank 0's own evaluation code (bincount on -100 labels): a "
        "code exception on rank 0; rank 1's termination is collateral.",
  truth=fail(0, None, "rank", "code_exception", "RuntimeError: bincount only supports 1-d non-negative integral inputs.", 0,
             [(SP.format(11720), 1)],
             "Both ranks log 'training finished'; rank 1 'waiting for rank 0 evaluation', rank 0 'evaluating on 64 "
             "validation samples' then raises in torch.bincount; spawn reports process 0 and terminates process 1."))
J["bl-torchrun-nproc2-tee3-logdir-dl-workers2-rank1-builds-decode-cache-keeps-lockf-exclusive-workers-block-dataloader-timeout-r1"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bl_train.py --data data --decode-cache dcache "
      "--workers 2 --dl-timeout 20 --steps 150 --log-every 25 --pg-timeout 90`: 2 ranks, DDP over gloo, logging, "
      "DataLoader with 2 worker processes.",
  fault="Samples are read from a per-rank decoded memmap guarded by fcntl.lockf (exclusive to build, shared to read). "
        "Rank 0's cache existed; rank 1's was missing, so rank 1 built it under the exclusive lock and (bug in that "
        "path) never released it. Rank 1's DataLoader workers block taking the shared lock; after 20 s rank 1 raises "
        "'RuntimeError: DataLoader timed out after 20 seconds'. Rank 0, waiting in DDP's gradient all-reduce, gets "
        "'Connection closed by peer'; torchrun SIGTERMs it.",
  layout="console.log: torchrun's console with both ranks teed (`[defaultN]:`). logs/<run id>/attempt_0/{0,1}/"
         "{stdout,stderr}.log.",
  judge="A hang in rank 1's dataloader workers (lock held by their parent) stalls the job; the DataLoader timeout "
        "turns it into rank 1's error. Hang started by rank 1; rank 0's connection-closed error and SIGTERM are "
        "consequences.",
  truth=fail(1, None, "rank", "nccl_timeout_hang", "RuntimeError: DataLoader timed out after 20 seconds", 1,
             [("Connection closed by peer [127.0.1.1]:4004", 0), (TR.format(12095), 0)],
             "Rank 1 logs 'decode cache dcache/decoded_01.npy missing, building it' / 'decode cache written' then nothing "
             "for 20 s until the DataLoader timeout; rank 0 never logs a step either (blocked in the all-reduce) and "
             "fails with connection closed once rank 1 exits."))
J["bl-torchrun-nproc3-redirects1-logdir-adamw-param-groups-decay-nodecay-plus-head-group-overlap-valueerror-all"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --redirects 1 --log-dir logs bl_train.py --data data --optim adamw "
      "--lr 0.003 --steps 200 --log-every 25 --pg-timeout 60`: 3 ranks, DDP over gloo, logging to stdout.",
  fault="AdamW is built from three param groups: all weights (decay 0.01), all biases (no decay) and the head with 10x "
        "lr; the head's weight and bias are in the first two groups too, so torch.optim raises 'ValueError: some "
        "parameters appear in more than one parameter group' on every rank.",
  layout="console.log: torchrun's console with every rank's stderr (tracebacks, `[rankN]:` prefixes) and the agent's "
         "lines; logs/<run id>/attempt_0/{0,1,2}/stdout.log: each rank's logging output (--redirects 1).",
  judge="An optimizer misconfiguration failing identically on every rank before training: job-wide, config_error.",
  truth=fail(None, None, "all_ranks", "config_error",
             "ValueError: some parameters appear in more than one parameter group", None, [],
             "All three ranks raise the same ValueError from AdamW.__init__ / add_param_group; torchrun's SIGTERMs hit "
             "ranks that had already failed identically."))
J["bl-2node-uts-torchrun-c10d-nnodes2-nproc2-node-consoles-nodeb-stale-job-reaper-script-sigterms-agent-midrun-ext-trn-c12"] = dict(
  run="Two 'nodes' (UTS namespaces trn-c11 / trn-c12, same loopback network), each `torchrun --nnodes 2 "
      "--nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29520 --rdzv-id 7731 bl_train.py --data data "
      "--style print --steps 3000 --log-every 100 --step-sleep 0.01 --pg-timeout 60`: 4 ranks (0-1 on trn-c11, 2-3 on "
      "trn-c12), print-style lines.",
  fault="The launch wrapper registers each agent's pid in <host>/run/7731.pid. Node trn-c12 runs a stale-job reaper "
        "script (bl_reaper.sh) whose active-job list holds only an older job id; ~10 s into training it logs 'job 7731 "
        "... not in active job list, sending SIGTERM' and SIGTERMs node b's torchrun agent, which shuts its workers "
        "down; node a's ranks get 'Connection reset by peer' and its agent fails.",
  layout="trn-c11/console.log, trn-c12/console.log: each node's torchrun console (ranks' lines and the agent's); "
         "trn-c12/reaper.log: the reaper script's log line.",
  judge="Training was healthy on all 4 ranks; a node-local script outside the job killed node trn-c12's launcher: an "
        "external kill on node trn-c12, no rank to blame. Node a's errors are consequences.",
  truth={**fail(None, "trn-c12", "external", "killed_by_scheduler",
                "reaper: job 7731 (pid 12523) not in active job list, sending SIGTERM", None,
                [("Received 15 death signal, shutting down workers", None), (TR.format(12530), 2), (TR.format(12532), 3),
                 ("Read error [127.0.0.1]:30405: Connection reset by peer", 0),
                 ("Read error [127.0.0.1]:10905: Connection reset by peer", 1)],
                "All ranks log steps up to 400/3000; at 20:16:01 trn-c12's reaper SIGTERMs the agent (pid 12523), which "
                "logs 'Received 15 death signal' and SIGTERMs ranks 2-3; ranks 0-1 on trn-c11 then fail with connection "
                "reset.")})
J["bl-healthy-2node-uts-torchrun-c10d-nnodes2-nproc2-logging-hostname-rank-pid-head-final-eval-all-ranks"] = dict(
  run="Two 'nodes' (UTS namespaces trn-c11 / trn-c12), each `torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d "
      "--rdzv-endpoint 127.0.0.1:29510 --rdzv-id 5512 bl_train.py --data data --log-format hostrankpid --eval-all "
      "--steps 150 --log-every 25 --pg-timeout 60`: 4 ranks, DDP over gloo, logging with a `host:rank:pid` head.",
  fault="None.", layout="trn-c11/console.log, trn-c12/console.log: each node's torchrun console.",
  judge="Every rank logs 'training finished', the all-reduced val accuracy and 'done'; both agents exit 0: healthy.",
  truth=ok("healthy", "150 steps on 4 ranks over two agents, final val accuracy 0.9375 on every rank, 'done' on all 4."))
J["bl-healthy-torchrun-nproc8-tee2-logdir-logging-to-stderr-final-eval-all-ranks"] = dict(
  run="`torchrun --standalone --nproc-per-node 8 --tee 2 --log-dir logs bl_train.py --data data --log-stream stderr "
      "--eval-all --steps 60 --log-every 20 --pg-timeout 120`: 8 ranks, DDP over gloo, logging to stderr.",
  fault="None.", layout="console.log: torchrun's console with every rank's stderr teed (`[defaultN]:`). logs/<run id>/"
                        "attempt_0/{0..7}/stderr.log.",
  judge="All 8 ranks log 'training finished', the val accuracy and 'done'; torchrun exits 0: healthy.",
  truth=ok("healthy", "60 steps on 8 ranks, final all-reduced val accuracy logged by every rank, all ranks 'done'."))
J["bl-healthy-spawn-nprocs2-print-console-grad-accum2-no-sync-cosine-final-eval"] = dict(
  run="`python bl_train.py --nprocs 2 --master-port 29744 --data data --style print --accum 2 --sched cosine --eval-all "
      "--steps 200 --log-every 25 --pg-timeout 60`: torch.multiprocessing.spawn, 2 ranks, DDP over gloo with gradient "
      "accumulation (no_sync every other step), cosine lr.",
  fault="None.", layout="console.log: the parent's console (both ranks' print lines).",
  judge="Both ranks finish 200 steps, log the val accuracy and 'done'; exit 0: healthy.",
  truth=ok("healthy", "Both ranks reach step 200, val accuracy 0.9531 (mean over 2 ranks), 'done' on both."))
J["bl-inconclusive-torchrun-nproc2-redirects2-tee1-logdir-console-snapshot-mid-run"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 --redirects 2 --tee 1 --log-dir logs bl_train.py --data data --steps "
      "5000 --log-every 50 --step-sleep 0.01 --pg-timeout 60`: 2 ranks, DDP over gloo, logging to stdout.",
  fault="None; ~15 s in, the console and the logs/ tree were copied to snapshot/ while the job was running (it was "
        "stopped afterwards; that part is not captured).",
  layout="snapshot/console.log: torchrun's console at the time (stdout teed, `[defaultN]:`); snapshot/logs/<run id>/"
         "attempt_0/{0,1}/{stdout,stderr}.log.",
  judge="The log stops mid-run at step 1000/5000 with no error and no end: inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running job: steps up to 1000 of 5000 logged on both ranks, no error, no end."))

NEWSLUGS = os.path.join(OUT, "..", "..", "used_capture_slugs_new.txt")
if __name__ == "__main__":
    rows = []
    for name, m in J.items():
        d = os.path.join(OUT, name)
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\n## What was run\nEnvironment: {ENV}.\n\n{m['run']}\n\nFault planted: {m['fault']}\n\n"
                    f"Script: _capture_bl/{name}.sh.\n\n## Layout\n{m['layout']} Logs copied verbatim except home-dir "
                    "prefixes neutralised and the per-job scratch dir shown as /home/user/project/.\n\n"
                    f"## Judgement\n{m['judge']}\n")
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(m["truth"], f, indent=2); f.write("\n")
        t = m["truth"]
        if t["status"] == "failed":
            i = t["initiating"]
            who = f"rank {i['rank']}" if i["rank"] is not None else (f"node {i['node']}" if i["node"] else i["kind"])
            if i["node"] and i["rank"] is None:
                who = f"{i['kind']}, node {i['node']}"
            rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
        else:
            rows.append(f"| {name} | {t['status']} |")
    with open(os.path.join(OUT, "README-bl.md"), "w") as f:
        f.write("# README-bl\n\nEnvironment: torch 2.13.0+cpu with gloo, Python 3.11.7, numpy 2.4.6, in the previous "
                "round's virtualenv (/home/user/capBH/venv, used read-only, no package changed). Launchers, all "
                "mainstream: torchrun --standalone (--redirects 3 --log-dir, --tee 3 --log-dir, --redirects 1 "
                "--log-dir, --tee 2 --log-dir with 8 ranks, --redirects 2 --tee 1 --log-dir, elastic --max-restarts 2), "
                "torchrun --nnodes 2 with two agents over a c10d rendezvous in separate UTS namespaces (hostnames "
                "trn-c11 / trn-c12), and torch.multiprocessing.spawn; 2-8 ranks per job. Training scripts log through "
                "Python logging (plain, `host:rank:pid` head, `[time][host][rank r/w][pid p][LEVEL]` head) or print. "
                "Every job ran alone on this shared 2-CPU machine inside its own network namespace (loopback only), "
                "mount namespace and UTS namespace, from a clean environment. Logs copied verbatim except home-dir "
                "prefixes neutralised and the per-job scratch dir shown as /home/user/project/. Scripts: _capture_bl/ "
                "(one per job, run_all.sh, collect_all.sh, collect.py, common.sh, gen_meta_bl.py, helpers bl_*.py, "
                "bl_reaper.sh).\n\n| folder | status / category (initiator) |\n|---|---|\n")
        f.write("\n".join(rows) + "\n")
    have = set(open(NEWSLUGS).read().split()) if os.path.exists(NEWSLUGS) else set()
    with open(NEWSLUGS, "a") as f:
        for name in J:
            if name not in have:
                f.write(name + "\n")
