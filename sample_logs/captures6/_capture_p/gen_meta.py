"""Write truth.json, README.md, .correlatorignore for the captures6 p-* incidents.
usage: gen_meta.py OUT   (reads exit codes from $JOBS/<name>/exit_codes.txt.*, default /home/user/jobs)
Truths are written by hand from the injection and the printed lines (checked against the capture)."""
import glob, json, os, re, sys

OUT = sys.argv[1]
JOBS = os.environ.get("JOBS", "/home/user/jobs")
CCB = "Connection closed by peer"


def T(status="failed", rank=None, node=None, all_ranks=False, kind="rank", cat=None, contains=None, frank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks, "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": {"contains": contains, "rank": frank},
            "collateral": [{"contains": c, "ranks": r} for c, r in coll], "notes": notes}


TR = "torchrun"
I = {}
I["p-restart-late-shard-recovers"] = dict(
    launcher="torchrun, 3 processes, c10d rendezvous, `--max-restarts 1 --log-dir logs --redirects 3` (no `--tee`)",
    layout="`launcher.log` (torchrun's own stderr) + `logs/none_<rand>/attempt_{0,1}/<local_rank>/{stdout,stderr}.log`",
    cmd="python make_shards.py shards --ranks 3 --steps 10 --hold 2:4\n"
        "( while ! grep -qs FileNotFoundError logs/*/attempt_0/2/stderr.log; do sleep 0.2; done; cp shards.staging/rank2/batch-0004.csv shards/rank2/ ) &\n"
        "torchrun --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29911 --max-restarts 1 --monitor-interval 1 --log-dir logs --redirects 3 "
        "p_train.py --attempt-store --shard-dir shards --steps 10 --pg-timeout 20 > launcher.log 2>&1",
    injected="rank 2's batch 4 (`shards/rank2/batch-0004.csv`) is not there when attempt 0 reads it (held back in `shards.staging/`); a background job stands for a lagging sync and copies it in as soon as rank 2's attempt-0 stderr shows `FileNotFoundError`. The trainer puts its process group on a per-attempt `PrefixStore` (`--attempt-store`; without it the restarted gloo group dials attempt 0's stale addresses and fails, see the README-p.md notes).",
    happened="attempt 0: rank 2 `FileNotFoundError: [Errno 2] No such file or directory: 'shards/rank2/batch-0004.csv'`; ranks 0 and 1 get gloo `Connection closed by peer` in backward; torchrun SIGTERMs the group and restarts it (its `launcher.log` shows only the `Sending process ... closing signal SIGTERM` / `failed (exitcode: 1) local_rank: 2` lines). attempt 1 (restart_count=1 in every rank's first line) runs all 10 steps, `training done` on every rank, torchrun exits 0.",
    hard="A real traceback and two collateral tracebacks sit in attempt_0 of a run that ended well; only attempt_1 and the exit code say so.",
    truth=T(status="healthy", kind=None,
            notes="attempt 0 failed (rank 2 FileNotFoundError on a not-yet-synced batch, peers Connection closed by peer); torchrun restarted the group and attempt 1 completed, exit 0."))
I["p-restart-utf8-fails-twice"] = dict(
    launcher="torchrun, 3 processes, c10d rendezvous, `--max-restarts 1 --log-dir logs --redirects 3 --tee 3`",
    layout="`console.log` (`[defaultN]:` prefixes, both attempts) + `logs/none_<rand>/attempt_{0,1}/<local_rank>/{stdout,stderr}.log`",
    cmd="python make_shards.py shards --ranks 3 --steps 10 --bad-utf8 1:5\n"
        "torchrun --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29912 --max-restarts 1 --monitor-interval 1 --log-dir logs --redirects 3 --tee 3 "
        "p_train.py --attempt-store --shard-dir shards --steps 10 --pg-timeout 20 > console.log 2>&1",
    injected="rank 1's batch 5 (`shards/rank1/batch-0005.csv`) has one field written in latin-1 (`caf\\xe9`), read with `encoding=\"utf-8\"`.",
    happened="In both attempts rank 1 raises `UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 640: invalid continuation byte` at step 5 (logged first by the trainer's CRITICAL `unhandled exception, exiting` line, then by torch's `[rank1]:` excepthook); ranks 0 and 2 get gloo `Connection closed by peer` in backward. torchrun restarts once, then gives up (exit 1); its final table names rank 1 (attempt 1).",
    hard="Every traceback appears twice per attempt (logger + excepthook) and twice per file set (console and log tree); the same failure repeats in attempt 1.",
    truth=T(rank=1, cat="data_error", contains="UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 640", frank=1, coll=[(CCB, [0, 2])],
            notes="non-UTF-8 byte in rank 1's batch 5 fails it in attempt 0 and again in attempt 1; peers Connection closed by peer both times; restart did not help."))
N3 = ("torchrun --nnodes 3 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29913 --rdzv-id p3n-ckpt --tee 3 --node-rank {r} "
      "../p_train.py --ckpt-dir ckpt --ckpt-step 6 --pg-timeout 30 > console.log 2>&1   # in node-{r}/, started 1 s apart")
I["p-3node-readonly-ckpt-node2"] = dict(
    launcher="three torchrun agents (`--nnodes 3`, c10d rendezvous on 127.0.0.1), 2 processes each, `--tee 3`",
    layout="`node-0/console.log`, `node-1/console.log`, `node-2/console.log`",
    cmd="mount --bind node-2/ckpt node-2/ckpt && mount -o remount,ro,bind node-2/ckpt   # private mount namespace\n" + N3,
    injected="each node's local rank 0 saves a node-local checkpoint into `ckpt/` at step 6; node-2's `ckpt/` is a read-only bind mount (a volume mounted read-only on that node only).",
    happened="Ranks 0 (node-0) and 2 (node-1) save `ckpt/step-00006.pt`. Rank 4 (node-2, local 0) fails in `torch.save`: `RuntimeError: [enforce fail at inline_container.cc:747] . open file failed with strerror: Read-only file system`. Ranks 0, 1, 2, 3 and 5 get gloo `Connection closed by peer` in the next collective. Each agent prints its own table: node-2's names rank 4 (local 0), node-0's rank 0, node-1's rank 3.",
    hard="Three consoles, each with a Root Cause; the initiator's error is a C++ enforce message (no errno name); five collateral tracebacks.",
    truth=T(rank=4, node="node-2", cat="storage_io", contains="open file failed with strerror: Read-only file system", frank=4, coll=[(CCB, [0, 1, 2, 3, 5])],
            notes="node-2's checkpoint dir is read-only: rank 4's torch.save fails; the other five ranks Connection closed by peer."))
I["p-jsonl-silent-hang"] = dict(
    launcher="torchrun, 3 processes", layout="`launcher.log` (torchrun + workers' stderr) + `logs/rank{0,1,2}.log` (one JSON object per line: ts, level, rank, logger, msg, exc)",
    cmd="torchrun --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29914 p_train.py --log-format json --log-dir logs --fault hang --fault-rank 1 --fault-step 6 --pg-timeout 15 > launcher.log 2>&1",
    injected="rank 1, before step 6: `fetch_remote_batch` sleeps 3600 s (a read from a remote store that never returns); it prints nothing. Process-group timeout 15 s, no watchdog.",
    happened="Rank 1's log stops after step 3's eval line. Ranks 0 and 2 wait in step 6's backward all_reduce and after 15 s raise `Timed out waiting 15000ms for recv operation to complete` (rank 0) and `... for send operation to complete` (rank 2); their JSON files end with a CRITICAL record whose `exc` holds the traceback. torchrun SIGTERMs rank 1 and names rank 0 as Root Cause.",
    hard="The culprit prints nothing; its victims' timeouts are the only errors; the tracebacks inside the JSON lines are escaped strings.",
    truth=T(rank=1, cat="nccl_timeout_hang", contains=None, frank=1,
            coll=[("Timed out waiting 15000ms for recv operation", [0]), ("Timed out waiting 15000ms for send operation", [2])],
            notes="rank 1 blocks silently before step 6; ranks 0, 2 time out in the all_reduce after 15 s; torchrun blames rank 0."))
I["p-pidfmt-hang-watchdog"] = dict(
    launcher="torchrun, 3 processes", layout="`launcher.log` + `logs/rank{0,1,2}.log` (`%(asctime)s [%(process)d] LEVEL name: msg` -- no rank in the lines; faulthandler dumps in the same files)",
    cmd="torchrun --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29915 p_train.py --log-format pid --log-dir logs --watchdog 6 --fault hang --fault-rank 2 --fault-step 5 --pg-timeout 20 > launcher.log 2>&1",
    injected="rank 2, before step 5: `fetch_remote_batch` sleeps 3600 s. A per-step watchdog (`faulthandler.dump_traceback_later(6)`, re-armed every step) writes a stack dump into each rank's log file. Process-group timeout 20 s.",
    happened="After 6 s all three watchdogs fire (`Timeout (0:00:06)!`): ranks 0 and 1 are in `loss.backward` (the all_reduce), rank 2 is in `fetch_remote_batch` (`p_train.py`, line 133). After 20 s ranks 0 and 1 raise `Timed out waiting 20000ms for send operation to complete` (rank 0) and `... recv operation ...` (rank 1). torchrun's table lists rank 1 (exit 1) and rank 2 (SIGTERMed, -15) and names rank 0 as Root Cause. The dumps are only in the per-rank files, not in `launcher.log`.",
    hard="Every rank dumps a watchdog stack; only the frame names tell the stuck rank from the waiting ones; rank is only in the file name.",
    truth=T(rank=2, cat="nccl_timeout_hang", contains="line 133 in fetch_remote_batch", frank=2,
            coll=[("Timed out waiting 20000ms for send operation", [0]), ("Timed out waiting 20000ms for recv operation", [1])],
            notes="rank 2 blocks in a remote fetch before step 5; its watchdog dump shows fetch_remote_batch while ranks 0, 1 dump backward and then time out after 20 s."))
I["p-legacy-launch-world-size"] = dict(
    launcher="`python -m torch.distributed.launch` (legacy, deprecated), 3 processes", layout="`console.log`",
    cmd="python -m torch.distributed.launch --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29916 p_train.py --world-size 4 --pg-timeout 20 > console.log 2>&1",
    injected="the script is given `--world-size 4` (a config from a 4-GPU box) and passes it to `init_process_group(init_method=\"env://\", world_size=4)`, while the launcher starts 3 processes.",
    happened="The launcher's FutureWarning (`torch.distributed.launch is deprecated`). Every rank logs `world_size(env)=3` and then waits for a 4th rank that never comes: after 20 s c10d `waitForInput ... timed out after 20000ms` warnings and, on every rank, `torch.distributed.DistStoreError: wait timeout after 20000ms, keys: /default_pg/0//cpu//0/3`. torchrun's table names rank 0.",
    hard="Nothing printed says 4; the only trace of the missing rank is the key `/0/3`; all ranks fail alike.",
    truth=T(rank=None, all_ranks=True, kind="all_ranks", cat="config_error", contains="DistStoreError: wait timeout after 20000ms, keys: /default_pg/0//cpu//0/3", frank=None,
            notes="world size 4 passed to init_process_group with 3 processes launched: every rank waits for rank 3 and times out alike. config_error (rendezvous arguable)."))
I["p-mpi-outfile-stale-state"] = dict(
    launcher="mpirun (Open MPI) -np 3, `--merge-stderr-to-stdout --output-filename logs` (copies also to the console)",
    layout="`console.log` (mpirun's stdout+stderr, unprefixed) + `logs/1/rank.{0,1,2}/stdout` (per-rank, stderr merged)",
    cmd="mpirun --allow-run-as-root --oversubscribe -np 3 -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29917 --merge-stderr-to-stdout --output-filename logs python mpi_env.py p_train.py --state-dir state --pg-timeout 20 > console.log 2>&1",
    injected="each rank resumes its eval state from `state/rank{R}.json`; rank 2's file is in an older format (`best_loss` instead of `best_val`), so `prev.get(\"best_val\")` is None and the first eval compares `val < None`.",
    happened="Rank 2 at step 3's eval: `TypeError: '<' not supported between instances of 'float' and 'NoneType'`. Ranks 0 and 1: gloo `Connection closed by peer` in step 4's backward. mpirun: `Primary job  terminated normally, but 1 process returned a non-zero exit code` and `The first process to do so was: Process name: [[N,1],2]`.",
    hard="No `[1,N]` tags; console lines interleave the three ranks; the initiator's error is an ordinary Python TypeError.",
    truth=T(rank=2, cat="code_exception", contains="TypeError: '<' not supported between instances of 'float' and 'NoneType'", frank=2, coll=[(CCB, [0, 1])],
            notes="rank 2's eval compares against None (resumed state file lacks best_val); peers Connection closed by peer. code_exception (the unguarded comparison); data_error arguable (stale state file)."))
I["p-sigkill-pidns-logdir"] = dict(
    launcher="torchrun, 2 processes, `--log-dir logs --redirects 3`, inside its own PID namespace under `timeout -s KILL 30`",
    layout="`launcher.log` + `logs/none_<rand>/attempt_0/<local_rank>/{stdout,stderr}.log`",
    cmd="timeout -s KILL 30 unshare -p -f --kill-child nice torchrun --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29918 --log-dir logs --redirects 3 p_train.py --steps 400 --sleep 0.3 > launcher.log 2>&1   # exit 137",
    injected="a healthy 400-step run; after 30 s the whole job is SIGKILLed from outside (timeout's KILL to unshare, `--kill-child` KILLs torchrun, the PID namespace's init; the kernel then KILLs every worker: what a container / cgroup kill does).",
    happened="Training runs to step 83, then every process dies at once: no signal message, no traceback, no torchrun table. `launcher.log` holds one c10d hostname warning; the per-rank stderr files end in the middle of training.",
    hard="Nothing at all is printed about the kill; the only evidence is logs that stop mid-run with no `training done` and no launcher summary.",
    truth=T(rank=None, kind="external", cat="killed_by_scheduler", contains=None, frank=None,
            notes="healthy job SIGKILLed from outside (whole process tree, like a cgroup/container kill); no line records it, the logs just stop mid-training."))
I["p-run-healthy-retry-warnings"] = dict(
    launcher="`python -m torch.distributed.run`, 2 processes, `--tee 3`", layout="`console.log` (`[defaultN]:` prefixes)",
    cmd="python -m torch.distributed.run --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29919 --tee 3 p_train.py --steps 20 --warnings --fault retry_ok --fault-rank 1 --fault-step 7 > console.log 2>&1",
    injected="nothing fatal: `--warnings` triggers real torch UserWarnings (tensor copy-construct, DataLoader 3 workers on 2 cores, `lr_scheduler.step()` before `optimizer.step()`); at step 7 rank 1's augmentation fetch raises `ConnectionResetError: [Errno 104] Connection reset by peer` once, which is caught, logged as WARNING with its traceback, and retried successfully.",
    happened="20 steps, the warnings, rank 1's `WARNING ... fetch of augmentation batch 7 failed (attempt 1/3), retrying in 0.5s` with a traceback, `training done` on both ranks, exit 0.",
    hard="A traceback ending in `Connection reset by peer` (a typical collateral phrase) inside a healthy run.",
    truth=T(status="healthy", kind=None, notes="healthy 20-step run with real torch UserWarnings and one caught-and-retried ConnectionResetError on rank 1; exit 0."))
I["p-ds-launcher-rank-logs-schema"] = dict(
    launcher="DeepSpeed launcher (`deepspeed --num_gpus 2`, CPU accelerator auto-detected, gloo), DeepSpeed 0.19.8",
    layout="`console.log` (launcher only) + `rank_logs/<YYYYmmddHHMMSS>_rank{0,1}.log` (`--enable_each_rank_log`: each rank's stdout+stderr)",
    cmd="python make_shards.py shards --ranks 2 --steps 10 --drop-col 1:6\n"
        "deepspeed --num_gpus 2 --master_port 29920 --enable_each_rank_log rank_logs ds_p.py --deepspeed --deepspeed_config ds_config.json > console.log 2>&1",
    injected="rank 1's batch 6 (`shards/rank1/batch-0006.csv`) was exported with 15 feature columns instead of 16.",
    happened="Rank 1 at step 6: `RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x15 and 16x64)` in the first Linear. Rank 0: gloo `Connection closed by peer` in DeepSpeed's gradient all_reduce (`allreduce_bucket`). The launcher's console: `Killing subprocess ...` twice and `[ERROR] [launch.py:259:sigkill_handler] [... 'ds_p.py', '--local_rank=1', ...] exits with return code = 1`.",
    hard="The console has no traceback at all; the rank files are named by launch time; the error reads like a model bug.",
    truth=T(rank=1, cat="data_error", contains="mat1 and mat2 shapes cannot be multiplied (8x15 and 16x64)", frank=1, coll=[(CCB, [0])],
            notes="rank 1's batch 6 has 15 columns (changed export schema): shape error in forward; rank 0 Connection closed by peer."))
I["p-pl-ckpt-tmpfs-full"] = dict(
    launcher="PyTorch Lightning 2.6.6 `Trainer(strategy=\"ddp\", accelerator=\"cpu\", devices=2)` (re-executes the script for rank 1)",
    layout="`console.log` + `pl_logs/tiny/version_0/{metrics.csv,hparams.yaml}` (CSVLogger)",
    cmd="mount -t tmpfs -o size=64k tmpfs ckpt   # private mount namespace\npython p_pl.py --ckpt-dir ckpt > console.log 2>&1",
    injected="the ModelCheckpoint directory `ckpt/` is a 64 KiB tmpfs (a small quota'd volume); the first checkpoint (model + Adam state) does not fit.",
    happened="At the end of epoch 0 rank 0's ModelCheckpoint writes to a temp file and moves it: `OSError: [Errno 28] No space left on device: '/tmp/tmp...' -> '.../ckpt/tiny-epoch=00-val_loss=1.416.ckpt'`. Rank 1, in the checkpoint's `barrier`, gets gloo `Connection closed by peer`. Exit 1.",
    hard="Lightning banner, a deprecation message, a long traceback through fsspec/shutil; the failure is on rank 0, the usual victim.",
    truth=T(rank=0, cat="storage_io", contains="No space left on device", frank=0, coll=[(CCB, [1])],
            notes="checkpoint volume full: rank 0's ModelCheckpoint save fails with ENOSPC; rank 1 Connection closed by peer in the barrier."))
I["p-hf-trainer-ragged-row"] = dict(
    launcher="torchrun, 2 processes, `--tee 3`, Hugging Face `transformers.Trainer` 5.25.0 (`use_cpu=True, ddp_backend=\"gloo\"`)",
    layout="`console.log` (`[defaultN]:` prefixes, Trainer's dict log lines)",
    cmd="(python: 96-row train.jsonl, row 37 has 15 token ids, the others 16)\n"
        "torchrun --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29921 --tee 3 p_hf.py --data train.jsonl > console.log 2>&1",
    injected="one dataset row (index 37) has 15 `input_ids` instead of 16; `default_data_collator` cannot stack the batch that holds it.",
    happened="Two logging steps, then rank 0 (whose batch holds the row) raises `ValueError: expected sequence of length 16 at dim 1 (got 15)` in `torch_default_data_collator`; rank 1 gets gloo `Connection closed by peer`. torchrun names rank 0. DDP's `find_unused_parameters=True` warning and DeepSpeed's `Setting accelerator to CPU` warning (transformers imports deepspeed) precede it.",
    hard="The failing batch is chosen by the Trainer's sampler, not visible in the log; warnings before the error.",
    truth=T(rank=0, cat="data_error", contains="expected sequence of length 16 at dim 1 (got 15)", frank=0, coll=[(CCB, [1])],
            notes="ragged dataset row breaks collation on rank 0; rank 1 Connection closed by peer."))

EXC = re.compile(r"(Error|Exception|Timed out|Timeout \(|death signal|Warning|WARNING|CRITICAL|exits with return code)\b")
for name, d in I.items():
    inc = os.path.join(OUT, name)
    if not os.path.isdir(inc):
        continue
    codes = {os.path.basename(f).split(".")[-1]: open(f).read().strip() for f in sorted(glob.glob(os.path.join(JOBS, name, "exit_codes.txt.*")))}
    files = sorted(os.path.relpath(os.path.join(r, f), inc) for r, _, fs in os.walk(inc) for f in fs if f not in ("README.md", "truth.json", ".correlatorignore"))
    t = d["truth"]
    json.dump(t, open(os.path.join(inc, "truth.json"), "w"), indent=2)
    open(os.path.join(inc, ".correlatorignore"), "w").write("# scenario documentation, not logs\nREADME.md\ntruth.json\n")
    ini = t["initiating"]
    who = "all ranks" if ini["all_ranks"] else (f"rank {ini['rank']}" if ini["rank"] is not None else (ini["kind"] or "none"))
    r = [f"# {name}\n", "**Captured** run on this machine (host `vm`, 2 cores), 2026-12-05. Python 3.11.7, torch 2.13.0+cpu (gloo).\n",
         f"* Launcher: {d['launcher']}", f"* Layout: {d['layout']}", f"* Injected: {d['injected']}",
         "* Exit codes: " + ", ".join(f"{k} {v}" for k, v in codes.items()),
         f"* Truth: status `{t['status']}`, initiator {who}" + (f" ({ini['node']})" if ini["node"] else "") + f", category `{t['root_cause']['category']}`, kind `{ini['kind']}`\n",
         "## Command\n",
         f"Run in the scratch dir `/home/user/jobs/{name}/` with the scripts of `../_capture_p/` copied there, inside a private network namespace with only loopback and a private mount namespace (`_capture_p/capture.sh OUT {name}`; `python`, `torchrun`, `deepspeed` from `/home/user/venv`, all under `nice`, `PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1`):\n",
         "```", d["cmd"], "```\n", "Log files copied unchanged, then `neutral_paths.py` (paths only).\n",
         "## What happened\n", d["happened"] + "\n", "## What is hard\n", d["hard"] + "\n", "## Files (error/warning lines, computed)\n"]
    for f in files:
        ls = open(os.path.join(inc, f), errors="replace").read().splitlines()
        hits = []
        for l in ls:
            if EXC.search(l) and not re.search(r'^\S*\s+(File "|raise |\^)', l):
                s = l.strip()[:220]
                if s not in hits:
                    hits.append(s)
        last = next((l for l in reversed(ls) if l.strip()), "")[:200]
        shown = "; ".join(f"`{h}`" for h in hits[:8]) + (f" (+{len(hits) - 8} more)" if len(hits) > 8 else "")
        r.append(f"* `{f}` ({len(ls)} lines): {shown or 'no error/warning lines'}. Last non-empty line: `{last}`")
    r += ["", "## Notes\n", t["notes"]]
    open(os.path.join(inc, "README.md"), "w").write("\n".join(r) + "\n")
    print("wrote", name)
