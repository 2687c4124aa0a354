#!/usr/bin/env python3
"""write README.md + truth.json of every bp- capture folder, README-bp.md, and append the slugs."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("torch 2.13.0+cpu (gloo), Python 3.11.7, numpy 2.4.6 in an earlier round's virtualenv (/home/user/capBH/venv, "
       "used read-only) plus tqdm 4.70.1 and PyYAML 6.0.4 (pip --target, on PYTHONPATH); run in a private network "
       "namespace (loopback only), private mount namespace and UTS namespace (hostname trn-d04) from a clean "
       "environment, one job at a time on a shared 2-CPU machine")
def fail(rank, kind, cat, fd, fd_rank, coll, notes):
    return {"schema_version": 1, "status": "failed",
            "initiating": {"rank": rank, "node": None, "all_ranks": kind == "all_ranks", "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": fd, "rank": fd_rank},
            "collateral": [{"contains": c, "rank": r} for c, r in coll], "notes": notes}
def ok(status, notes):
    return {"schema_version": 1, "status": status, "initiating": None, "root_cause": None,
            "first_deviating": None, "collateral": [], "notes": notes}
TR = "torch/distributed/elastic/multiprocessing/api.py:1028] Sending process {} closing signal SIGTERM"
SP = "torch/multiprocessing/spawn.py:165] Terminating process {} via signal SIGTERM"
J = {}
J["bp-healthy-torchrun-nproc4-tee3-no-logdir-tqdm-rank0-bar-basicconfig-peers-final-eval"] = dict(
  run="`torchrun --standalone --nproc-per-node 4 --tee 3 bp_train.py --data data --style tqdm --epochs 3 --log-every 8 "
      "--eval` (no --log-dir: torchrun tees into a temporary dir): 4 ranks, DDP over gloo; rank 0 draws a tqdm bar on "
      "stderr (bar.write for epoch summaries), ranks 1-3 log through logging.basicConfig defaults (`INFO:__main__:`).",
  fault="None.", layout="console.log: torchrun's console, every rank's stdout/stderr teed with `[defaultN]:` prefixes.",
  judge="3 epochs, val accuracy all-reduced, 'finished' on all 4 ranks, torchrun exit 0: healthy.",
  truth=ok("healthy", "All 4 ranks log the final val accuracy and 'finished in'; no error, torchrun exits 0."))
J["bp-healthy-spawn-nprocs2-print-console-rank0-ckpt-every-epoch-final-eval"] = dict(
  run="`python bp_train.py --nprocs 2 --master-port 29761 --data data --style print --epochs 4 --log-every 10 "
      "--ckpt-dir ckpt --eval`: torch.multiprocessing.spawn, 2 ranks, DDP over gloo, `[rankN]` print lines; rank 0 "
      "saves a checkpoint after every epoch.",
  fault="None.", layout="console.log: the single console of the spawn parent (all ranks' prints).",
  judge="4 epochs, 4 checkpoints saved, val accuracy and 'finished' on both ranks, exit 0: healthy.",
  truth=ok("healthy", "Both ranks finish 4 epochs, rank 0 logs the saved checkpoints, both log val accuracy and "
           "'finished in'; python exits 0."))
J["bp-inconclusive-torchrun-nproc3-redirects3-tee2-logdir-basicconfig-console-snapshot-mid-run"] = dict(
  run="`torchrun --standalone --nproc-per-node 3 --redirects 3 --tee 2 --log-dir logs bp_train.py --data data "
      "--epochs 400 --log-every 16 --step-sleep 0.01`: 3 ranks, DDP over gloo, logging.basicConfig defaults (stderr, "
      "teed to the console; stdout only in the files).",
  fault="None. ~20 s in (epoch ~61 of 400), console.log and the logs/ tree were copied as a person watching the job "
        "would; the job was stopped afterwards (not part of the capture).",
  layout="snapshot/console.log: torchrun's console with the ranks' stderr teed. snapshot/logs/<run id>/attempt_0/"
         "{0,1,2}/{stdout,stderr}.log: per-rank files at the same moment.",
  judge="The logs stop mid-training with no error and no end: inconclusive.",
  truth=ok("inconclusive", "Snapshot of a running job: steady loss lines on all 3 ranks up to epoch ~61 of 400, no "
           "error, no completion."))
J["bp-torchrun-nproc2-tee3-logdir-tqdm-rank0-epoch-ckpt-save-under-ulimit-f-512k-write-efbig-iostream-error-r0"] = dict(
  run="`ulimit -f 512; torchrun --standalone --nproc-per-node 2 --tee 3 --log-dir logs bp_train.py --data data --style "
      "tqdm --hidden 256 --epochs 3 --ckpt-dir ckpt --eval`: 2 ranks, DDP over gloo, tqdm bar on rank 0, "
      "basicConfig logging on rank 1; rank 0 saves a checkpoint after each epoch.",
  fault="The shell running the job had a 512 KiB file-size limit (ulimit -f). Rank 0's first checkpoint (~1 MiB with "
        "the SGD momentum buffers) exceeds it: the write fails with EFBIG (Python ignores SIGXFSZ) and torch.save "
        "raises 'RuntimeError: basic_ios::clear: iostream error', then '[enforce fail at inline_container.cc:672] "
        "unexpected pos'. Rank 1, already in epoch 1's first all-reduce, gets 'Connection closed by peer' and aborts "
        "('terminate called without an active exception', SIGABRT) before rank 0 has exited, so torchrun's 'Root Cause' "
        "names local_rank 1 (-6) and SIGTERMs rank 0.",
  layout="console.log: torchrun's console with both ranks teed (`[defaultN]:`). logs/<run id>/attempt_0/{0,1}/"
         "{stdout,stderr}.log: per rank.",
  judge="The failure starts in rank 0's checkpoint write refused by the file-size limit: storage_io, rank 0. Rank 1's "
        "gloo connection-closed error, its SIGABRT (torchrun's misleading root cause) and the SIGTERM are consequences.",
  truth=fail(0, "rank", "storage_io", "RuntimeError: basic_ios::clear: iostream error", 0,
             [("Connection closed by peer [127.0.1.1]:10646", 1), (TR.format(27595), None),
              ("failed (exitcode: -6) local_rank: 1 (pid: 27596)", 1)],
             "Rank 0 fails inside torch.save of ckpt/epoch0.pt (iostream error / unexpected pos: the file write was cut "
             "at the ulimit -f size); rank 1 then loses its gloo peer and aborts, which torchrun reports as root cause."))
J["bp-torchrun-nproc2-redirects1-logdir-yaml-config-tab-indented-train-block-scannererror-all"] = dict(
  run="`torchrun --standalone --nproc-per-node 2 --redirects 1 --log-dir logs bp_train.py --config train.yaml --data "
      "data`: 2 ranks; each rank reads the YAML run config before init_process_group.",
  fault="In train.yaml the `lr:` line of the `train:` block is indented with a tab instead of spaces: yaml.safe_load "
        "raises 'ScannerError: ... found character '\\t' that cannot start any token' on both ranks.",
  layout="console.log: torchrun's console with both ranks' stderr (tracebacks, not rank-prefixed; --redirects 1 sends "
         "only stdout to files). logs/<run id>/attempt_0/{0,1}/stdout.log: empty per-rank stdout files.",
  judge="A malformed config read identically by every rank: config_error, all_ranks.",
  truth=fail(None, "all_ranks", "config_error", "found character '\\t' that cannot start any token", None,
             [(TR.format(27932), None)],
             "Both ranks raise the same yaml ScannerError on train.yaml line 6 before the process group forms; torchrun "
             "reports local_rank 0 and SIGTERMs the other, which had the same error."))
J["bp-spawn-nprocs3-basicconfig-ddp-aux-decoder-defined-never-called-find-unused-false-reduction-not-finished-all"] = dict(
  run="`python bp_train.py --nprocs 3 --master-port 29763 --data data --aux-decoder --epochs 3 --log-every 8`: "
      "torch.multiprocessing.spawn, 3 ranks, DDP over gloo, logging.basicConfig defaults (`INFO:__mp_main__:`).",
  fault="The model keeps a 'decoder' Linear layer (from a reconstruction-pretraining variant) that forward() never "
        "calls; DDP uses the default find_unused_parameters=False, so iteration 2 raises 'Expected to have finished "
        "reduction in the prior iteration before starting a new one' (parameter indices 6 7) on every rank.",
  layout="console.log: the spawn parent's console (all ranks' logging on stderr, the parent's ProcessRaisedException).",
  judge="Code/model-definition error identical on every rank: code_exception, all_ranks (spawn reports process 0 only "
        "because it was first).",
  truth=fail(None, "all_ranks", "code_exception",
             "RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one", None,
             [(SP.format(28158), None), (SP.format(28159), None)],
             "Unused decoder parameters with find_unused_parameters=False: DDP's reducer error at the second forward, "
             "deterministic on all ranks; the spawn SIGTERMs are consequences."))
J["bp-spawn-nprocs4-tqdm-rank0-bar-rank2-shard-labels-exported-one-based-cross-entropy-target-4-out-of-bounds-r2"] = dict(
  run="`python bp_train.py --nprocs 4 --master-port 29765 --data data --style tqdm --epochs 3 --log-every 8`: "
      "torch.multiprocessing.spawn, 4 ranks, DDP over gloo; tqdm bar on rank 0, basicConfig logging on all.",
  fault="Rank 2's shard_02.npz was re-exported with 1-based labels (1..4) while the model has 4 classes (0..3): "
        "CrossEntropyLoss raises 'IndexError: Target 4 is out of bounds.' on rank 2 in its first batch; spawn SIGTERMs "
        "the other 3 processes.",
  layout="console.log: the spawn parent's console (logging, tqdm bar at 0%, the parent's ProcessRaisedException "
         "naming process 2).",
  judge="Bad labels in one rank's shard: data_error started by rank 2; the SIGTERMs are consequences.",
  truth=fail(2, "rank", "data_error", "IndexError: Target 4 is out of bounds.", 2,
             [(SP.format(28757), None), (SP.format(28758), None), (SP.format(28760), None)],
             "Only rank 2's shard carries label 4; spawn's exception names process 2 with the cross_entropy IndexError."))
J["bp-spawn-nprocs3-print-console-leftover-breakpoint-on-high-loss-rank1-wide-range-shard-pdb-eof-bdbquit-r1"] = dict(
  run="`python bp_train.py --nprocs 3 --master-port 29767 --data data --style print --debug-high-loss 4.0 --epochs 3 "
      "--log-every 8`: torch.multiprocessing.spawn, 3 ranks, DDP over gloo, `[rankN]` print lines.",
  fault="A debugging aid left in the loop: `if loss.item() > 4.0: breakpoint()`. Rank 1's shard has raw, unnormalised "
        "features (40x wider range), so its loss crosses 4.0 in epoch 1; pdb starts in the spawned child (stdin is "
        "/dev/null), prints its prompt, reads EOF and quits: bdb.BdbQuit on rank 1.",
  layout="console.log: the spawn parent's console (prints, pdb's `> .../bp_train.py(90)main()` / `(Pdb)` lines, the "
         "parent's ProcessRaisedException naming process 1).",
  judge="The job dies because rank 1 hit a leftover breakpoint() in a non-interactive child: code_exception, rank 1 "
        "(the pdb prompt is the first sign). The SIGTERMs of ranks 0/2 are consequences.",
  truth=fail(1, "rank", "code_exception", "(Pdb)", None,
             [(SP.format(26007), None), (SP.format(26009), None)],
             "Rank 1 logs higher losses than its peers, pdb's frame line and '(Pdb)' prompt appear, then spawn reports "
             "process 1 terminated with bdb.BdbQuit; the others are SIGTERMed by spawn."))
NEWSLUGS = os.path.join(OUT, "..", "..", "used_capture_slugs_new.txt")
if __name__ == "__main__":
    rows = []
    for name, m in J.items():
        d = os.path.join(OUT, name)
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(f"# {name}\n\n## What was run\nEnvironment: {ENV}.\n\n{m['run']}\n\nFault planted: {m['fault']}\n\n"
                    f"Script: _capture_bp/{name}.sh.\n\n## Layout\n{m['layout']} Logs copied verbatim except home-dir "
                    "prefixes neutralised and the per-job scratch dir shown as /home/user/project/.\n\n"
                    f"## Judgement\n{m['judge']}\n")
        with open(os.path.join(d, "truth.json"), "w") as f:
            json.dump(m["truth"], f, indent=2); f.write("\n")
        t = m["truth"]
        if t["status"] == "failed":
            i = t["initiating"]
            who = f"rank {i['rank']}" if i["rank"] is not None else i["kind"]
            rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
        else:
            rows.append(f"| {name} | {t['status']} |")
    with open(os.path.join(OUT, "README-bp.md"), "w") as f:
        f.write("# README-bp\n\nEnvironment: torch 2.13.0+cpu with gloo, Python 3.11.7, numpy 2.4.6, in an earlier "
                "round's virtualenv (/home/user/capBH/venv, used read-only, no package changed), plus tqdm 4.70.1 and "
                "PyYAML 6.0.4 installed with pip --target outside it. Launchers, all mainstream: torchrun --standalone "
                "(--tee 3 without --log-dir, --redirects 3 --tee 2 --log-dir, --tee 3 --log-dir, --redirects 1 "
                "--log-dir) and torch.multiprocessing.spawn; 2-4 ranks per job. Training scripts log through "
                "logging.basicConfig defaults, print, or a tqdm bar on rank 0. Every job ran alone on this shared "
                "2-CPU machine inside its own network namespace (loopback only), mount namespace and UTS namespace "
                "(hostname trn-d04), from a clean environment. Logs copied verbatim except home-dir prefixes "
                "neutralised and the per-job scratch dir shown as /home/user/project/. Scripts: _capture_bp/ (one per "
                "job, run_all.sh, collect_all.sh, collect.py, common.sh, gen_meta_bp.py, bp_train.py, bp_prep.py)."
                "\n\n| folder | status / category (initiator) |\n|---|---|\n")
        f.write("\n".join(rows) + "\n")
    have = set(open(NEWSLUGS).read().split()) if os.path.exists(NEWSLUGS) else set()
    with open(NEWSLUGS, "a") as f:
        for name in J:
            if name not in have:
                f.write(name + "\n")
