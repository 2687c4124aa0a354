"""Write truth.json, README.md and .correlatorignore of every sample_logs/faults scenario.

python gen_meta.py FAULTS_DIR   (the truth of each scenario is the table below; the
"what each rank printed" part of each README is read from the captured logs.)
"""
import json
import re
import sys
from pathlib import Path

V = "torch 2.13.0+cpu, Python 3.11.7"
HF = V + ", transformers 5.24.0, tokenizers 0.23.3, accelerate 1.15.0"
DS = V + ", deepspeed 0.19.8 (DS_BUILD_OPS=0), pydantic 2.14"
CONN = "Connection closed by peer"

# slug: (layout, fault/injection, status, rank, all_ranks, kind, category, fd_contains, fd_rank, collateral, notes, versions)
S = {
 "single-anomaly-nan": ("`train.log` (single process, `python ft.py > train.log 2>&1`)",
   "`torch.autograd.set_detect_anomaly(True)`; at step 8 the forward takes `sqrt(h - 1)` of ReLU outputs (NaN); anomaly mode raises in backward",
   "failed", 0, False, "rank", "nan_divergence", "Error detected in MseLossBackward0", 0, [],
   "anomaly mode: UserWarning 'Error detected in MseLossBackward0' with the forward traceback, then RuntimeError: Function 'MseLossBackward0' returned nan values in its 0th output.", V),
 "single-collate-stack": ("`train.log` (single process)", "the record at step 9 has 19 features instead of 16; the collate_fn's `torch.stack` fails",
   "failed", 0, False, "rank", "data_error", "stack expects each tensor to be equal size", 0, [],
   "one ragged record; torch.stack in the user's collate_fn raises RuntimeError: stack expects each tensor to be equal size, but got [16] at entry 0 and [19] at entry 3.", V),
 "single-cpu-alloc": ("`train.log` (single process)", "at step 7 `torch.empty(1 << 44)` (64 TiB) on CPU",
   "failed", 0, False, "rank", "oom", "DefaultCPUAllocator: can't allocate memory", 0, [],
   "host allocator failure: RuntimeError: [enforce fail at alloc_cpu.cpp:127] ... DefaultCPUAllocator: can't allocate memory ... Error code 12 (Cannot allocate memory).", V),
 "single-eacces-output": ("`train.log` (single process)", "output dir `outputs/` is mode 555 and the job runs as root without CAP_DAC_OVERRIDE (`setpriv --bounding-set -dac_override,...`); the step-10 checkpoint dir cannot be created",
   "failed", 0, False, "rank", "storage_io", "PermissionError: [Errno 13] Permission denied", 0, [],
   "os.makedirs('outputs/checkpoint-10') raises PermissionError EACCES at the step-10 save.", V),
 "single-enoent-resume": ("`train.log` (single process)", "`--resume-from outputs/checkpoint-500/model.pt`, a file that does not exist",
   "failed", 0, False, "rank", "storage_io", "No such file or directory: 'outputs/checkpoint-500/model.pt'", 0, [],
   "torch.load of a missing checkpoint at startup: FileNotFoundError ENOENT. storage_io (the checkpoint the job needs is not on the storage); a case can be made for config_error (a wrong --resume-from path).", V),
 "single-enospc-metrics": ("`train.log` (single process)", "`outputs/` is a 64 KiB tmpfs; at step 10 a ~1.3 MB JSON of optimizer state is written into it",
   "failed", 0, False, "rank", "storage_io", "OSError: [Errno 28] No space left on device", 0, [],
   "real ENOSPC from a full tmpfs while json.dump writes the checkpoint's optimizer state.", V),
 "single-erofs-save": ("`train.log` (single process)", "`outputs/` is a read-only tmpfs (`mount -o ro`)",
   "failed", 0, False, "rank", "storage_io", "OSError: [Errno 30] Read-only file system", 0, [],
   "the step-10 checkpoint dir cannot be created on a read-only mount: OSError EROFS.", V),
 "single-getitem-keyerror": ("`train.log` (single process, DataLoader with 2 workers)", "one record (step 4) was written with key `target` instead of `y`; `Dataset.__getitem__` reads `rec['y']` in a worker",
   "failed", 0, False, "rank", "data_error", "Caught KeyError in DataLoader worker process", 0, [],
   "KeyError: Caught KeyError in DataLoader worker process 0, original traceback ends in KeyError: 'y'.", V),
 "single-hf-bad-scheduler": ("`train.log` (single process, HF script)", "`TrainingArguments(lr_scheduler_type='cosine_warm')`",
   "failed", 0, False, "rank", "config_error", "cosine_warm is not a valid SchedulerType", 0, [],
   "TrainingArguments validation at startup: ValueError: cosine_warm is not a valid SchedulerType.", HF),
 "single-hf-import-adamw": ("`train.log` (single process, HF script)", "an old recipe does `from transformers import AdamW` (removed from transformers)",
   "failed", 0, False, "rank", "version_mismatch", "cannot import name 'AdamW' from 'transformers'", 0, [],
   "ImportError of a name the installed transformers 5.24.0 no longer has: the script was written for an older version.", HF),
 "single-hf-tokenizer-none": ("`train.log` (single process, HF Trainer + tqdm)", "row 37 of the data set has `text=None`; the collator calls the tokenizer on it",
   "failed", 0, False, "rank", "data_error", "TextEncodeInput must be Union", 0, [],
   "the fast tokenizer raises TypeError: TextEncodeInput must be Union[...] for a None text inside the Trainer's data collator (step 5 of 12).", HF),
 "single-hf-unexpected-kwarg": ("`train.log` (single process, HF script)", "`TrainingArguments(evaluation_strategy='steps')` (renamed `eval_strategy`, the old name is gone in 5.x)",
   "failed", 0, False, "rank", "version_mismatch", "unexpected keyword argument 'evaluation_strategy'", 0, [],
   "TypeError: TrainingArguments.__init__() got an unexpected keyword argument 'evaluation_strategy': a script for an older transformers.", HF),
 "single-keyboard-interrupt": ("`train.log` (single process)", "SIGINT (Ctrl-C) to the trainer after 7 s of a 400-step run",
   "failed", None, False, "external", "killed_by_scheduler", "KeyboardInterrupt", None, [],
   "stopped from outside by SIGINT: a KeyboardInterrupt traceback (in time.sleep of a step) mid-run; nothing is wrong with the job. Category: the closest of the vocabulary (terminated from outside); kind external.", V),
 "single-memoryerror": ("`train.log` (single process)", "at step 12 `bytearray(1 << 46)` (64 TiB) in Python",
   "failed", 0, False, "rank", "oom", "MemoryError", 0, [],
   "a bare Python `MemoryError` (no message) after the step-10 line.", V),
 "single-truncated-checkpoint": ("`train.log` (single process)", "resume from a checkpoint cut to its first 1500 bytes (`head -c`) of a real `torch.save` file",
   "failed", 0, False, "rank", "storage_io", "failed finding central directory", 0, [],
   "torch.load of a truncated checkpoint: RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory ... your checkpoint file is corrupted.", V),
 "healthy-single-retry": ("`train.log` (single process)", "none: at step 6 opening a (fake) s3 shard fails twice with `ConnectionResetError`, logged as WARNING, the 3rd attempt succeeds",
   "healthy", None, False, None, None, None, None, [], "two WARNING lines 'attempt N/5 to open s3://... failed: [Errno 104] Connection reset by peer; retrying', then 'opened ... on attempt 3' and 'Training completed', exit 0.", V),
 "healthy-single-hf": ("`train.log` (single process, HF Trainer + tqdm)", "none (baseline for the single-hf-* scenarios)",
   "healthy", None, False, None, None, None, None, [], "12 Trainer steps, loss dicts, 'training finished', exit 0.", HF),
 "healthy-warning-spam": ("`console.log` (`torchrun --tee 3`, 2 ranks)", "none: FutureWarning / UserWarning deprecation lines from every rank (`warnings.warn` every 5 steps; Python prints each once per rank)",
   "healthy", None, False, None, None, None, None, [], "warnings only, 30 steps, 'Training completed', exit 0.", V),
 "healthy-caught-exception": ("`rank0.log`, `rank1.log` + `launcher.log` (per-rank files)", "none: at step 10 rank 0 fails to read a metrics file, logs `ERROR ... continuing` with a full FileNotFoundError traceback (`logger.exception`), training goes on",
   "healthy", None, False, None, None, None, None, [], "a logged-and-survived exception with traceback in rank0.log; both ranks reach step 30, rank 0 logs 'Training completed', exit 0.", V),
 "healthy-c10d-debug-warnings": ("`console.log` (`torchrun --tee 3`, 2 ranks), `TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=INFO`", "none: c10d/TCPStore/socket/reducer INFO chatter, DDP init dump, logger.cpp lines",
   "healthy", None, False, None, None, None, None, [], "benign c10d debug lines from the agent and both ranks; 30 steps, exit 0.", V),
 "healthy-elastic-restart": ("`console.log` (`torchrun --tee 3 --max-restarts 1`, 2 ranks)", "attempt 0: rank 1 raises `RuntimeError ... shard index not ready yet (transient)` before `init_process_group`; torchrun restarts the group, attempt 1 completes",
   "healthy", None, False, None, None, None, None, [], "a failed attempt 0 (traceback, 'failed (exitcode: 1) local_rank: 1', restart) then a complete attempt 1: 'Training completed', torchrun exit 0.", V),
 "cut-tee-console": ("`console.log` (`torchrun --tee 3`, 4 ranks), cut", "none: a healthy 200-step run's console, kept is `head -n 60` of the full 90-line log (stops at step 130 of 200)",
   "inconclusive", None, False, None, None, None, None, [], "the log just stops at step 130 of 200, no exit status: the tool cannot know the outcome.", V),
 "cut-single-tee-killed": ("`train.log` (single process through `tee`), cut", "none: `python ft.py --steps 400 2>&1 | tee train.log`; the tee is killed after 4 s (the trainer then dies of the broken pipe, unrecorded)",
   "inconclusive", None, False, None, None, None, None, [], "the log stops at step 30 of 400 with no error and no exit status.", V),
 "unrelated-text": ("`notes.txt`, one line", "none: not a training log at all",
   "inconclusive", None, False, None, None, None, None, [], "a one-line meeting note; there is no job in it.", "-"),
 "tr-collate-stack-rank2": ("`rank0.log`...`rank3.log` + `launcher.log` (per-rank files)", "a ragged record on rank 2 at step 11: collate_fn `torch.stack` fails",
   "failed", 2, False, "rank", "data_error", "stack expects each tensor to be equal size", 2, [(CONN, [1, 3])],
   "rank 2's collate_fn raises; ranks 1, 3 fail in DDP backward with gloo 'Connection closed by peer'; rank 0 is SIGTERMed without a word.", V),
 "tr-cpu-alloc-rank1": ("`rank0.log`...`rank3.log` + `launcher.log` (per-rank files)", "rank 1 allocates 64 TiB on CPU at step 6",
   "failed", 1, False, "rank", "oom", "DefaultCPUAllocator: can't allocate memory", 1, [(CONN, [0, 2])],
   "allocator failure on rank 1 only; ranks 0, 2 'Connection closed by peer'; rank 3 SIGTERMed silently.", V),
 "tr-ctrl-c": ("`console.log` (`torchrun --tee 3`, 2 ranks)", "SIGINT to the whole process group (agent + workers, as Ctrl-C at a terminal) after 9 s",
   "failed", None, False, "external", "killed_by_scheduler", "Received 2 death signal", None, [],
   "the first line is the agent's (the SIGINT reached agent and workers at once, the workers' tracebacks carry no stamp and come after it); agent: 'Received 2 death signal, shutting down workers' and SignalException ... got signal: 2; both workers print a KeyboardInterrupt traceback. Stopped from outside (kind external).", V),
 "tr-eacces-checkpoint-logdir": ("raw `torchrun --log-dir logs --redirects 3` tree `logs/none_<rand>/attempt_0/<r>/{stdout,stderr}.log` + `launcher.log`, 3 ranks", "`outputs/` mode 555, torchrun + workers run without CAP_DAC_OVERRIDE; rank 0 saves the step-10 checkpoint",
   "failed", 0, False, "rank", "storage_io", "PermissionError: [Errno 13] Permission denied: 'outputs/checkpoint-10'", 0, [(CONN, [1, 2])],
   "rank 0 cannot create the checkpoint dir (EACCES); ranks 1, 2 fail in the barrier after the save with 'Connection closed by peer'.", V),
 "tr-enospc-checkpoint-tee": ("`console.log` (`torchrun --tee 3`, 4 ranks)", "`outputs/` is a 64 KiB tmpfs; rank 0 writes ~1.3 MB of checkpoint JSON at step 10",
   "failed", 0, False, "rank", "storage_io", "OSError: [Errno 28] No space left on device", 0, [(CONN, [1, 2, 3])],
   "real ENOSPC on rank 0 during the checkpoint; ranks 1-3 wait in the barrier and get 'Connection closed by peer'.", V),
 "tr-fileexists-outdir": ("`console.log` (`torchrun --tee 3`, 3 ranks)", "every rank runs `os.makedirs('outputs')` (no `exist_ok`, no rank check)",
   "failed", None, True, "all_ranks", "code_exception", "FileExistsError: [Errno 17] File exists: 'outputs'", None, [],
   "a race every rank runs: rank 1 created the dir and logged it, ranks 2 and 0 raised FileExistsError; rank 1 was SIGTERMed. The bug is in code every rank runs (all_ranks), though one rank won the race.", V),
 "tr-getitem-keyerror-logdir": ("raw `torchrun --log-dir logs --redirects 3` tree + `launcher.log`, 4 ranks", "rank 3's record at step 7 has no `y` key; `__getitem__` in a DataLoader worker raises KeyError",
   "failed", 3, False, "rank", "data_error", "Caught KeyError in DataLoader worker process", 3, [(CONN, [0, 2])],
   "rank 3 KeyError (worker process 0, original KeyError: 'y'); ranks 0, 2 'Connection closed by peer'; rank 1 SIGTERMed silently.", V),
 "tr-hf-compute-loss-signature": ("`console.log` (plain `torchrun`, no `--tee`: worker lines unprefixed or `[rankN]:`), 2 ranks", "a Trainer subclass overrides `compute_loss(self, model, inputs, return_outputs=False)` (pre-4.46 signature); the Trainer calls it with `num_items_in_batch=`",
   "failed", None, True, "all_ranks", "version_mismatch", "unexpected keyword argument 'num_items_in_batch'", None, [],
   "both ranks raise TypeError: OldTrainer.compute_loss() got an unexpected keyword argument 'num_items_in_batch' from inside transformers' training_step: code written for an older transformers.", HF),
 "tr-hf-load-best-mismatch": ("`console.log` (`torchrun --tee 3`, 2 ranks)", "`TrainingArguments(load_best_model_at_end=True, eval_strategy='steps', save_strategy='epoch')`",
   "failed", None, True, "all_ranks", "config_error", "--load_best_model_at_end requires the save and eval strategy to match", None, [],
   "both ranks raise the same ValueError at startup; torchrun's table blames rank 1.", HF),
 "tr-hf-tokenizer-none": ("`rank0.log`, `rank1.log` + `launcher.log` (per-rank files), HF Trainer", "row 37 has `text=None`; it falls to rank 0 (shuffled DistributedSampler); tokenizer on None in the collator",
   "failed", 0, False, "rank", "data_error", "TextEncodeInput must be Union", 0, [(CONN, [1])],
   "rank 0 raises TypeError from the tokenizer; rank 1 fails with 'Connection closed by peer'.", HF),
 "tr-sigterm-agent": ("`console.log` (`torchrun --tee 3`, 4 ranks)", "`kill -TERM <torchrun pid>` after 9 s of a 400-step run (what a scheduler's cancel does to the launcher)",
   "failed", None, False, "external", "killed_by_scheduler", "Received 15 death signal", None, [],
   "the agent logs 'Received 15 death signal, shutting down workers', SIGTERMs the 4 workers (silent) and exits with SignalException ... got signal: 15.", V),
 "acc-grad-accum-plugin-conflict": ("`console.log` (`accelerate launch --multi_gpu`, torchrun underneath, no `--tee`), 2 ranks", "`Accelerator(cpu=True, gradient_accumulation_steps=4, gradient_accumulation_plugin=GradientAccumulationPlugin(num_steps=4))`",
   "failed", None, True, "all_ranks", "config_error", "You can only pass one of `gradient_accumulation_steps` and `gradient_accumulation_plugin`", None, [],
   "both ranks raise the same accelerate ValueError at startup.", HF),
 "acc-unexpected-kwarg": ("`console.log` (`accelerate launch --multi_gpu`, no `--tee`, unprefixed tracebacks), 2 ranks", "`Accelerator(cpu=True, dispatch_batches=True)` (the argument moved to DataLoaderConfiguration and is gone in 1.x)",
   "failed", None, True, "all_ranks", "version_mismatch", "unexpected keyword argument 'dispatch_batches'", None, [],
   "both ranks raise TypeError: Accelerator.__init__() got an unexpected keyword argument 'dispatch_batches' (two interleaved unprefixed tracebacks): a script for an older accelerate.", HF),
 "ds-zero-bad-key": ("`console.log` (`torchrun --tee 3`, 2 ranks, DeepSpeed on gloo)", "`zero_optimization.offload_optimizer_device: \"cpu\"` (an old/invented key; the real one is `offload_optimizer: {device: cpu}`)",
   "failed", None, True, "all_ranks", "config_error", "validation error for DeepSpeedZeroConfig", None, [],
   "pydantic ValidationError (extra_forbidden) for DeepSpeedZeroConfig on both ranks in deepspeed.initialize.", DS),
 "tr-anomaly-nan-rank2": ("`console.log` (`torchrun --tee 3`, 3 ranks)", "`set_detect_anomaly(True)` on every rank; at step 9 rank 2's forward takes `sqrt(h - 1)` of ReLU outputs (NaN)",
   "failed", 2, False, "rank", "nan_divergence", "Error detected in MseLossBackward0", 2, [(CONN, [0, 1])],
   "rank 2: anomaly-mode UserWarning with the forward traceback, then RuntimeError: Function 'MseLossBackward0' returned nan values in its 0th output; ranks 0, 1 fail in the DDP all_reduce with 'Connection closed by peer'.", V),
 "elastic-restart-static-fails": ("`console.log` (`torchrun --tee 3 --max-restarts 1`, 3 ranks)", "attempt 0: rank 1 raises `RuntimeError ... lost the shard reader at step 8 (transient)` mid-training; torchrun restarts; attempt 1 cannot rebuild the gloo mesh",
   "failed", 1, False, "rank", "code_exception", "lost the shard reader at step 8", 1, [(CONN, [0, 2])],
   "meant as a healthy restart: rank 1 raised at step 8, ranks 0, 2 'Connection closed by peer'; after the restart (static rendezvous) ranks 2 and 0 fail in init_process_group with 'Gloo connectFullMesh failed ... Connection refused' (a second, restart-induced failure), job exit 1. Captured in the scratch dir /home/user/job/healthy-elastic-restart (its first name).", V),
}

EXC = re.compile(r"^(?:\[default(\d+)\]:)?(?:\[rank(\d+)\]:\s?)?((?:[A-Za-z_][\w.]*(?:Error|Exception|Interrupt)\b|KeyboardInterrupt|MemoryError).*)$")


def printed(d: Path) -> list[str]:
    out = []
    for f in sorted(p for p in d.rglob("*") if p.is_file() and p.name not in ("README.md", "truth.json", ".correlatorignore")):
        rel = f.relative_to(d)
        m = re.search(r"rank(\d+)\.log$", f.name) or re.search(r"attempt_\d+/(\d+)/", str(rel))
        file_rank = m.group(1) if m else None
        seen = {}
        lines = f.read_text(errors="replace").splitlines()
        for ln in lines:
            mm = EXC.match(ln)
            if not mm or "ChildFailedError" in ln or ln.lstrip().startswith("raise"):
                continue
            who = mm.group(1) or mm.group(2) or file_rank
            key = f"rank {who}" if who is not None else "unprefixed"
            seen.setdefault(key, [])
            txt = mm.group(3)[:160]
            if txt not in seen[key]:
                seen[key].append(txt)
        last = lines[-1][:160] if lines else "(empty)"
        desc = "; ".join(f"{k}: " + " / ".join(f"`{t}`" for t in v[:3]) for k, v in seen.items()) or "no exception line"
        out.append(f"* `{rel}` ({len(lines)} lines): {desc}. Last line: `{last}`")
    return out


def commands(capture: Path) -> dict:
    text = (capture / "scenarios.sh").read_text()
    out = {}
    for m in re.finditer(r"^s_(\w+)\(\) \{ job [\w-]+\n(.*?)\}\n", text, re.S | re.M):
        out[m.group(1).replace("_", "-")] = m.group(2).rstrip()
    return out


def main():
    root = Path(sys.argv[1])
    cmds = commands(root / "_capture")
    for slug, (layout, fault, status, rank, allr, kind, cat, fd, fdr, coll, notes, ver) in S.items():
        d = root / slug
        if not d.is_dir():
            print("missing", slug)
            continue
        truth = {"schema_version": 1, "status": status,
                 "initiating": {"rank": rank, "node": None, "all_ranks": allr, "kind": kind},
                 "root_cause": {"category": cat, "rule_id": None},
                 "first_deviating": {"contains": fd, "rank": fdr},
                 "collateral": [{"contains": c, "ranks": r} for c, r in coll],
                 "notes": notes}
        (d / "truth.json").write_text(json.dumps(truth, indent=2) + "\n")
        (d / ".correlatorignore").write_text("# scenario documentation, not logs\nREADME.md\ntruth.json\n")
        init = ("-" if status != "failed" else
                "all ranks" if allr else "external (no rank)" if kind == "external" else f"rank {rank}")
        readme = [f"# {slug}", "",
                  f"**Captured** {status} run on this machine (2 cores), 2026-12-01. {ver}.", "",
                  f"* Layout: {layout}",
                  f"* Injected: {fault}",
                  f"* Truth: status `{status}`, initiator {init}, category `{cat}`" + (f", kind `{kind}`" if kind else ""), "",
                  "## Command", "",
                  "Run in the scratch dir `/home/user/job/" + slug + "` with the scripts of `../_capture/` copied there "
                  "(`_capture/capture.sh OUT " + slug + "`; `python`, `torchrun`, `accelerate` are the venv's, "
                  "reached as `/home/user/venv`, `tr4` = `torchrun --nnodes 1 --nproc-per-node ${NP:-4} --master-port 29611`, "
                  "`perrank N script ...` = torchrun `--no-python sh per_rank.sh` writing `rankN.log`, launcher to `launcher.log`):", "",
                  "```", cmds.get(slug, "(see _capture/scenarios.sh)"), "```", "",
                  "Log files copied unchanged.", "",
                  "## What each rank printed (exception lines, per file)", "", *printed(d), "",
                  "## Notes", "", notes, ""]
        (d / "README.md").write_text("\n".join(readme))
    extra = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("_") and p.name not in S)
    if extra:
        print("no truth for", extra)


if __name__ == "__main__":
    main()
