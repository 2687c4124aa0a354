"""Write truth.json, README.md and .correlatorignore into each captured c-* incident.

    python gen_meta.py OUT      (OUT: the folder holding the c-* directories)

The truths below were written from what was injected and from what the ranks printed
(read by eye in the captured files), not from any tool's output. The "files" section
of each README is computed from the files themselves (line counts, exception lines).
"""
import json
import os
import re
import sys

VERSIONS = ("Python 3.11.7, torch 2.13.0+cpu (gloo), lightning 2.6.6, numpy 2.4.6; "
            "2-core CPU machine, host `vm`, 2026-12-05")
IGNORE = "# scenario documentation, not logs\nREADME.md\ntruth.json\n"


def failed(rank, category, contains, fd_rank, collateral, notes, all_ranks=False, kind="rank"):
    return {
        "schema_version": 1,
        "status": "failed",
        "initiating": {"rank": rank, "node": None, "all_ranks": all_ranks, "kind": kind},
        "root_cause": {"category": category, "rule_id": None},
        "first_deviating": {"contains": contains, "rank": fd_rank},
        "collateral": [{"contains": c, "ranks": r} for c, r in collateral],
        "notes": notes,
    }


def healthy(notes):
    return {
        "schema_version": 1,
        "status": "healthy",
        "initiating": {"rank": None, "node": None, "all_ranks": False, "kind": None},
        "root_cause": {"category": None, "rule_id": None},
        "first_deviating": {"contains": None, "rank": None},
        "collateral": [],
        "notes": notes,
    }


SPAWN_CMD = "/home/user/venv/bin/python"
INCIDENTS = {
    "c-spawn-label-oob": dict(
        launcher="torch.multiprocessing.spawn (3 processes)",
        layout="`console.log` (stdout+stderr of the parent, `> console.log 2>&1`)",
        command="python make_data.py data --bad-label-index 97\n"
                "nice python spawn_train.py --world 3 --port 29711 > console.log 2>&1   # exit 1",
        injected="`labels.npy[97] = 10` for a 10-class model (valid labels 0..9). With a "
                 "DistributedSampler without shuffle, index 97 goes to rank 1 (97 % 3), batch 4 "
                 "of epoch 0 (step 5).",
        ranks="rank 1: `F.cross_entropy` raises `IndexError: Target 10 is out of bounds.` at step 5; "
              "its traceback reaches the console only inside mp.spawn's `-- Process 1 terminated "
              "with the following error:` block. Ranks 0 and 2 (last line: step 4) are SIGTERMed by "
              "the spawn parent (`Terminating process N via signal SIGTERM`, pids, no ranks) and "
              "print nothing of their own.",
        hard="The only error text is the parent's re-raised `ProcessRaisedException`: its "
             "outer traceback (spawn.py) comes first, the worker's real traceback after "
             "`-- Process 1 terminated`; the process index is the rank. The SIGTERM warnings "
             "come before the traceback and name pids, not ranks.",
        truth=failed(1, "data_error", "IndexError: Target 10 is out of bounds.", 1, [],
                     "label 10 in a 10-class data set falls to rank 1 at step 5; mp.spawn re-raises "
                     "it as 'Process 1 terminated'; ranks 0 and 2 are SIGTERMed silently."),
    ),
    "c-spawn-corrupt-npy-logfiles": dict(
        launcher="torch.multiprocessing.spawn (4 processes)",
        layout="`console.log` (parent stdout+stderr; every rank's logging also goes to the "
               "console) + `logs/rank0.log`...`logs/rank3.log` (Python logging FileHandler per rank; "
               "a failing rank logs its traceback with `logger.exception` before re-raising)",
        command="python make_data.py data --corrupt-index 62\n"
                "nice python spawn_train.py --world 4 --port 29712 --log-dir logs --batch-size 4 "
                "> console.log 2>&1   # exit 1",
        injected="`data/sample_00062.npy` cut to its first 100 bytes (a partial copy). Index 62 "
                 "goes to rank 2 (62 % 4), batch 3 of epoch 0 (step 4).",
        ranks="rank 2: `np.load` in `Dataset.__getitem__` raises `ValueError: EOF: reading array "
              "header, expected 118 bytes got 90` (logged `[rank 2] ERROR train: rank 2 failed` + "
              "traceback, in `logs/rank2.log` and the console). Ranks 1 and 3 fail ~1 s later in "
              "DDP backward with gloo `Connection closed by peer` (logged the same way). Rank 0 "
              "is SIGTERMed by the spawn parent with no error line (`logs/rank0.log` ends at step 2). "
              "The console ends with mp.spawn's `-- Process 2 terminated with the following error:` "
              "block repeating rank 2's traceback.",
        hard="Each traceback appears twice (per-rank file and console) and rank 2's three times "
             "(console logger line, spawn block, rank2.log). Per-rank files carry no traceback "
             "for rank 0 at all.",
        truth=failed(2, "data_error", "ValueError: EOF: reading array header, expected 118 bytes got 90", 2,
                     [("Connection closed by peer", [1, 3])],
                     "truncated .npy sample read by rank 2 at step 4; ranks 1, 3 get gloo "
                     "'Connection closed by peer' in backward; rank 0 SIGTERMed silently."),
    ),
    "c-spawn-missing-data": dict(
        launcher="torch.multiprocessing.spawn (3 processes)",
        layout="`console.log` (parent stdout+stderr)",
        command="python make_data.py data\n"
                "nice python spawn_train.py --world 3 --port 29713 "
                "--data-dir /home/user/jobs/datasets/cifar-npy-v2/train > console.log 2>&1   # exit 1",
        injected="`--data-dir` names a directory that does not exist (the data was written to `data/`).",
        ranks="Every rank raises `FileNotFoundError: [Errno 2] No such file or directory: "
              "'/home/user/jobs/datasets/cifar-npy-v2/train/labels.npy'` right after "
              "`process group up`. mp.spawn shows only the first process it saw exit "
              "(`-- Process 1 terminated` in this capture; an earlier trial showed Process 0) and "
              "SIGTERMs the other two: their identical errors are never printed.",
        hard="The console names one process (1) although every rank fails alike; nothing "
             "says the other ranks hit the same error.",
        truth=failed(None, "config_error",
                     "No such file or directory: '/home/user/jobs/datasets/cifar-npy-v2/train/labels.npy'",
                     None, [],
                     "wrong --data-dir: every rank's Dataset raises FileNotFoundError at start-up; "
                     "mp.spawn reports only process 1 (a race), the others are SIGTERMed. Same "
                     "category as faults/single-enoent-resume (a missing input file).",
                     all_ranks=True, kind="all_ranks"),
    ),
    "c-spawn-silent-hang-logfiles": dict(
        launcher="torch.multiprocessing.spawn (3 processes), `init_process_group(timeout=15 s)`",
        layout="`console.log` + `logs/rank0.log`...`logs/rank2.log` (as c-spawn-corrupt-npy-logfiles)",
        command="python make_data.py data\n"
                "nice python spawn_train.py --world 3 --port 29714 --log-dir logs --fault hang "
                "--fail-rank 2 --fail-step 4 --pg-timeout 15 --log-every 1 > console.log 2>&1   # exit 1",
        injected="rank 2 calls `time.sleep(3600)` before its step 4 (stuck, logging nothing).",
        ranks="Ranks 0 and 1 enter step 4's backward all_reduce and, 15 s later, raise "
              "gloo `Timed out waiting 15000ms for send operation to complete` (rank 0) / "
              "`... for recv operation to complete` (rank 1), logged with `logger.exception`. "
              "Rank 2 prints nothing after step 3 (`logs/rank2.log` ends there) and is SIGTERMed "
              "by the spawn parent. mp.spawn's block names `Process 1` (a victim).",
        hard="The initiator is silent; the only process the console names is rank 1, a "
             "victim; the 15 s gap between step 3 and the timeouts is the only trace of the stall.",
        truth=failed(2, "nccl_timeout_hang", None, 2, [("Timed out waiting 15000ms for", [0, 1])],
                     "rank 2 stalls silently before step 4; ranks 0, 1 hit the 15 s gloo timeout "
                     "in backward; mp.spawn blames process 1."),
    ),
    "c-spawn-nan-split-streams": dict(
        launcher="torch.multiprocessing.spawn (4 processes)",
        layout="`stdout.log` (the ranks' logging: `process group up`, step lines) and "
               "`stderr.log` (spawn's SIGTERM warnings and the re-raised traceback), separate files",
        command="python make_data.py data --inf-index 103\n"
                "nice python spawn_train.py --world 4 --port 29715 --fault nan_check --batch-size 4 "
                "--epochs 3 --log-every 3 > stdout.log 2> stderr.log   # exit 1",
        injected="`data/sample_00103.npy` holds 1e39 in every feature (inf once cast to float32); "
                 "index 103 goes to rank 3 (103 % 4), batch 6 of epoch 0 (step 7). The script "
                 "checks `torch.isfinite(loss)` before backward and raises `FloatingPointError`.",
        ranks="rank 3: `FloatingPointError: Loss is nan at step 7 (epoch 0); stopping`, shown "
              "in stderr.log inside mp.spawn's `-- Process 3 terminated` block. Ranks 0-2 wait in "
              "step 7's backward all_reduce; their errors (if any) are not printed; all three are "
              "SIGTERMed (`Terminating process N via signal SIGTERM` x3). stdout.log ends at the step-6 "
              "lines of all four ranks.",
        hard="Timestamps only in stdout.log, the error only in stderr.log (glog-style `W1205 ...` "
             "lines, no date year). The outcome is a race: in 3 of the 13 trials of this job mp.spawn "
             "reported a victim instead (see c-spawn-nan-blames-peer); the capture script reruns "
             "until it reports process 3 (1 try for this capture).",
        truth=failed(3, "nan_divergence", "FloatingPointError: Loss is nan at step 7 (epoch 0); stopping", 3, [],
                     "an inf sample on rank 3 gives a NaN loss at step 7; the script's isfinite check "
                     "raises; the other three are SIGTERMed silently."),
    ),
    "c-spawn-nan-blames-peer": dict(
        launcher="torch.multiprocessing.spawn (4 processes)",
        layout="`console.log` (parent stdout+stderr)",
        command="python make_data.py data --inf-index 103\n"
                "nice python spawn_train.py --world 4 --port 29717 --fault nan_check --batch-size 4 "
                "--epochs 3 --log-every 3 > console.log 2>&1   # exit 1",
        injected="as c-spawn-nan-split-streams: an inf sample on rank 3 at step 7, the loss check "
                 "raises `FloatingPointError` on rank 3.",
        ranks="rank 3 raised `FloatingPointError` (known from the injection and from the other "
              "trials), but its traceback never reached the console: mp.spawn reports the first "
              "process whose exit it sees, here `-- Process 0 terminated with the following error:` "
              "with rank 0's gloo `Connection closed by peer` from step 7's backward. One "
              "unattributed `terminate called without an active exception` line (a C++ abort in "
              "some process's exit; which one is not printed) precedes the three SIGTERM warnings. "
              "No line mentions NaN.",
        hard="Evidence-free initiator: nothing in the log names rank 3 or a NaN. The console "
             "blames rank 0, which is a victim (`Connection closed by peer ... typically caused by "
             "a remote worker crashing`). A good answer says rank 0 is collateral and the "
             "initiator is unknown; the truth below is what was injected. Capture: the script "
             "reruns until mp.spawn reports a process other than 3; the first invocation got "
             "process 3 in 8 of 8 tries, the kept one (a second invocation) on its first try.",
        truth=failed(3, "nan_divergence", None, 3, [("Connection closed by peer", [0])],
                     "injected NaN loss on rank 3 (step 7); its FloatingPointError is lost, mp.spawn "
                     "shows rank 0's 'Connection closed by peer' instead; the log cannot name rank 3."),
    ),
    "c-spawn-fd-limit": dict(
        launcher="torch.multiprocessing.spawn (2 processes), DataLoader with 2 worker processes per rank",
        layout="`console.log` (parent stdout+stderr)",
        command="( ulimit -n 128; nice python fd_train.py --world 2 --num-workers 2 --port 29718 "
                "> console.log 2>&1 )   # exit 1",
        injected="`ulimit -n 128` for the whole job (every rank and worker inherits it). Each sample "
                 "is a dict of 48 one-element tensors; with the default `file_descriptor` sharing "
                 "strategy every tensor of a batch crosses from a worker as a file descriptor, "
                 "`prefetch_factor=4`.",
        ranks="Both ranks log `RLIMIT_NOFILE (128, 128)`. Then six unprefixed tracebacks from "
              "DataLoader worker processes / resource-sharer threads, each ending `OSError: [Errno 24] "
              "Too many open files` (which rank's workers is not printed). Rank 0's main loop dies "
              "unpickling a batch: `RuntimeError: received 0 items of ancdata` (in mp.spawn's "
              "`-- Process 0 terminated` block). Rank 1 is SIGTERMed. torch's own hint "
              "(`Too many open files. Communication with the workers is no longer possible...`) "
              "does **not** appear.",
        hard="The fatal error (`received 0 items of ancdata`) does not say 'file descriptors'; the "
             "EMFILE lines come first, unprefixed, from worker processes, interleaved. No "
             "category of the vocabulary fits exactly: it is an OS resource limit (`other`; "
             "`config_error` of the environment is arguable).",
        truth=failed(None, "config_error", "OSError: [Errno 24] Too many open files", None, [],
                     "job-wide ulimit -n 128 with fd-shared DataLoader batches: workers hit EMFILE, "
                     "rank 0 dies with 'received 0 items of ancdata', rank 1 is SIGTERMed; the limit "
                     "applies to every rank alike.", all_ranks=True, kind="all_ranks"),
    ),
    "c-pl-callback-keyerror": dict(
        launcher="PyTorch Lightning Trainer, `strategy=\"ddp\"`, `devices=3`, `accelerator=\"cpu\"` "
                 "(Lightning re-executes the script for ranks 1, 2)",
        layout="`console.log` (stdout+stderr of the launching process; the child ranks inherit it) + "
               "`lightning_logs/tiny/version_0/{hparams.yaml,metrics.csv}` (CSVLogger; checkpoints not kept)",
        command="nice python pl_train.py --strategy ddp --devices 3 --empty-batch 1:5 > console.log 2>&1   # exit 1",
        injected="rank 1's training batch 5 of epoch 0 (shuffled by Lightning's DistributedSampler, "
                 "seed 7) is all padding (mask 0). `training_step`'s early-return path for an empty "
                 "batch returns `{\"loss\": ...}` without `n_tokens`; the `ThroughputLog` callback's "
                 "`on_train_batch_end` reads `outputs[\"n_tokens\"]`.",
        ranks="rank 1: `[rank1]: KeyError: 'n_tokens'` (torch's `[rankN]:` traceback prefix). Ranks 0 "
              "and 2: `[rankN]: RuntimeError: ... Connection closed by peer` in the next backward. "
              "One unattributed `terminate called without an active exception` at the end. Lightning's "
              "`[rank: N] Seed set to 7` lines and the `sync_dist` / `LeafSpec` warnings before are normal.",
        hard="Three long Lightning tracebacks; rank 1's comes first in the file and is the "
             "shortest; Lightning prints `[rank: N]` while torch prints `[rankN]:`.",
        truth=failed(1, "code_exception", "KeyError: 'n_tokens'", 1, [("Connection closed by peer", [0, 2])],
                     "callback KeyError on rank 1 (an empty batch takes training_step's early return "
                     "without n_tokens); ranks 0, 2 get gloo 'Connection closed by peer'."),
    ),
    "c-pl-resume-weights-only": dict(
        launcher="PyTorch Lightning Trainer, `strategy=\"ddp_spawn\"` (mp.spawn underneath), `devices=2`",
        layout="`console.log` of the resumed run + `lightning_logs/tiny/version_0/{hparams.yaml,metrics.csv}` "
               "of the earlier run that wrote the checkpoint (its console and the .ckpt files not kept; "
               "the resumed run created an empty `version_1`)",
        command="nice python pl_train.py --strategy ddp --devices 2 --epochs 1 --hparams-dataclass > first_run.log 2>&1   # exit 0, not kept\n"
                "nice python pl_train.py --strategy ddp_spawn --devices 2 --epochs 2 --hparams-dataclass \\\n"
                "    --resume lightning_logs/tiny/version_0/checkpoints/last.ckpt > console.log 2>&1   # exit 1",
        injected="`save_hyperparameters()` stores a `DataConfig` dataclass (`__main__.DataConfig`) in the "
                 "checkpoint's hyper-parameters. Resuming with `trainer.fit(ckpt_path=...)`: Lightning "
                 "passes `weights_only=None` for a local file, torch 2.13's `torch.load` defaults to "
                 "`weights_only=True` and refuses the custom class.",
        ranks="Both ranks run the same restore; mp.spawn shows `-- Process 0 terminated` with "
              "`_pickle.UnpicklingError: Weights only load failed. ...` (multi-line message with tabs "
              "and ANSI bold escapes, `Unsupported global: GLOBAL __main__.DataConfig`), and SIGTERMs "
              "the other process. Last normal line: `Restoring states from the checkpoint path at ...`.",
        hard="A start-up failure on every rank shown once; the message is multi-line and names "
             "PyTorch 2.6's default change. `hparams.yaml` of the earlier run shows the "
             "`!!python/object:__main__.DataConfig` object.",
        truth=failed(None, "version_mismatch", "Weights only load failed", None, [],
                     "resume of a checkpoint holding __main__.DataConfig: torch>=2.6's weights_only=True "
                     "default refuses it on every rank (Lightning passes weights_only=None); "
                     "mp.spawn (ddp_spawn) shows process 0 only.", all_ranks=True, kind="all_ranks"),
    ),
    "c-pl-val-exception-split": dict(
        launcher="PyTorch Lightning Trainer, `strategy=\"ddp_spawn\"`, `devices=3`",
        layout="`stdout.log` (`self.print` lines of rank 0) and `stderr.log` (Lightning's logging, "
               "warnings, spawn's messages and the traceback), separate files",
        command="nice python pl_train.py --strategy ddp_spawn --devices 3 --val-label4 2:3 "
                "> stdout.log 2> stderr.log   # exit 1",
        injected="one validation row (index 77 -> rank 2, val batch 3) has label 4; the model has 5 "
                 "classes, but the example printer in `validation_step` indexes `CLASS_NAMES`, a list "
                 "of 4 names (the code bug). Validation of epoch 0 (after 16 training steps; the "
                 "sanity check only covers val batches 0-1).",
        ranks="rank 2: `IndexError: list index out of range` in `validation_step` (shown in mp.spawn's "
              "`-- Process 2 terminated` block). mp.spawn SIGTERMs ranks 0 and 1, whose Lightning "
              "handler prints `[rank: 1] Received SIGTERM: 15` and `[rank: 0] Received SIGTERM: 15` "
              "before the traceback. stdout.log has rank 0's example lines up to val batch 5 of epoch 0.",
        hard="The `Received SIGTERM` lines, printed before the traceback, look like an external "
             "kill; they are the spawn parent's clean-up. No timestamps anywhere.",
        truth=failed(2, "code_exception", "IndexError: list index out of range", 2,
                     [("Received SIGTERM: 15", [0, 1])],
                     "rank 2's validation_step indexes a 4-name class list with label 4; mp.spawn "
                     "SIGTERMs ranks 0, 1 (Lightning prints 'Received SIGTERM: 15')."),
    ),
    "c-pl-healthy-warnings": dict(
        launcher="PyTorch Lightning Trainer, `strategy=\"ddp\"`, `devices=2`",
        layout="`console.log` + `lightning_logs/tiny/version_0/{hparams.yaml,metrics.csv}`",
        command="nice python pl_train.py --strategy ddp --devices 2 --epochs 3 > console.log 2>&1   # exit 0",
        injected="nothing.",
        ranks="Warnings only: the litlogger tip, `_pytree.py:21: isinstance(treespec, LeafSpec) is "
              "deprecated` (once per rank), `It is recommended to use self.log('val_loss', ..., "
              "sync_dist=True)`; rank 0's validation example lines; ends `Trainer.fit stopped: "
              "max_epochs=3 reached.` and `done: 72 steps`.",
        hard="Warning lines from library files; nothing fails.",
        truth=healthy("Lightning ddp, 2 ranks, 3 epochs, deprecation and sync_dist warnings, "
                      "'max_epochs=3 reached', exit 0."),
    ),
}

EXC = re.compile(r"^(\[rank\d+\]: )?([A-Za-z_][\w.]*(Error|Exception|Interrupt)\b.*|terminate called.*|.*Received SIGTERM.*)")


def file_summary(root):
    out = []
    for dirpath, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if name in ("README.md", "truth.json", ".correlatorignore"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            lines = open(path, encoding="utf-8", errors="replace").read().replace("\x1b", "\\x1b").splitlines()
            exc = []
            for ln in lines:
                m = EXC.match(ln)
                if m:
                    s = ln if len(ln) <= 160 else ln[:157] + "..."
                    if s not in exc:
                        exc.append(s)
            nonempty = [ln for ln in lines if ln.strip()]
            last = nonempty[-1] if nonempty else ""
            last = last if len(last) <= 160 else last[:157] + "..."
            e = "; ".join(f"`{x}`" for x in exc[:6]) or "no exception line"
            out.append(f"* `{rel}` ({len(lines)} lines): {e}. Last non-empty line: `{last}`")
    return "\n".join(out)


def main(out):
    for name, d in INCIDENTS.items():
        root = os.path.join(out, name)
        if not os.path.isdir(root):
            print("missing", name)
            continue
        t = d["truth"]
        ini = t["initiating"]
        who = ("none" if t["status"] == "healthy" else
               "all ranks" if ini["all_ranks"] else f"rank {ini['rank']}")
        readme = f"""# {name}

**Captured** {t['status']} run on this machine. {VERSIONS}.

* Launcher: {d['launcher']}
* Layout: {d['layout']}
* Injected: {d['injected']}
* Truth: status `{t['status']}`, initiator {who}, category `{t['root_cause']['category']}`, kind `{ini['kind']}`

## Command

Run in the scratch dir `/home/user/jobs/{name}/` with the scripts of `../_capture_c/` copied there
(`_capture_c/capture.sh OUT {name}`; `python` = `/home/user/venv/bin/python`):

```
{d['command']}
```

Log files copied unchanged, then `neutral_paths.py` (paths only).

## What happened, per rank

{d['ranks']}

## What is hard

{d['hard']}

## Files (exception lines, computed)

{file_summary(root)}

## Notes

{t['notes']}
"""
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write(readme)
        with open(os.path.join(root, "truth.json"), "w") as f:
            json.dump(t, f, indent=2, ensure_ascii=False)
            f.write("\n")
        with open(os.path.join(root, ".correlatorignore"), "w") as f:
            f.write(IGNORE)
        print("wrote", name)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
