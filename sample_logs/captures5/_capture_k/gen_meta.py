"""Write truth.json, README.md, .correlatorignore for the captures5 k-* incidents.
usage: gen_meta.py OUT   (reads exit codes from $JOBS/<name>/exit_codes.txt.*, default /home/user/jobs)"""
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

ACC = "accelerate launch --multi_gpu --num_processes {n} --num_machines 1 --main_process_ip 127.0.0.1 --main_process_port {p} k_train.py --launcher accelerate"
I = {}
I["k-acc-cpu-oom-logfiles"] = dict(
    launcher="accelerate launch (torchrun underneath), 3 processes", layout="`console.log` (launcher stdout+stderr, workers inherit it) + `logs/rank{0,1,2}.log` (logging FileHandler per rank, ISO-8601 timestamps; logger lines only, no tracebacks)",
    cmd=ACC.format(n=3, p=29821) + " --log-format iso --log-dir logs --fault oom --fault-rank 1 --fault-step 4 > console.log 2>&1",
    injected="rank 1, step 4: `torch.empty((1<<24, 1<<22))` (256 TiB) -- the CPU allocator refuses it; the OOM stand-in for a CUDA OOM.",
    happened="Rank 1 logs `building activation cache ...` then raises `RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 281474976710656 bytes`. Ranks 0 and 2, already in backward's all_reduce, get gloo `Connection closed by peer`. torchrun SIGTERMs them; its table names rank 1 as Root Cause. The per-rank files stop at the last logger line: the traceback is only in console.log.",
    hard="The per-rank log files carry no error at all; the error is only in the shared console; two collateral tracebacks of the same shape follow it.",
    truth=T(rank=1, cat="oom", contains="DefaultCPUAllocator: can't allocate memory", frank=1, coll=[(CCB, None)],
            notes="host-memory allocation refused on rank 1 (CPU OOM stand-in); ranks 0, 2 gloo Connection closed by peer; torchrun names rank 1."))
I["k-acc-nan-logfiles"] = dict(
    launcher="accelerate launch, 4 processes", layout="`console.log` + `logs/rank{0..3}.log` (ISO-8601 logging per rank)",
    cmd=ACC.format(n=4, p=29822) + " --log-format iso --log-dir logs --fault nan --fault-rank 2 --fault-step 6 > console.log 2>&1",
    injected="rank 2, step 6: one input value set to `inf`; the trainer's own check raises `FloatingPointError` when its local loss is not finite (before backward).",
    happened="Rank 2: `FloatingPointError: Loss is nan at step 6`. The other ranks wait in backward's all_reduce and get gloo `Connection closed by peer`; torchrun names rank 2.",
    hard="Per-rank files have no error lines; the NaN is a local check, not an error from the framework.",
    truth=T(rank=2, cat="nan_divergence", contains="FloatingPointError: Loss is nan at step 6", frank=2, coll=[(CCB, None)],
            notes="inf input on rank 2 -> NaN loss, trainer raises; peers gloo Connection closed by peer."))
I["k-acc-healthy-warnings"] = dict(
    launcher="accelerate launch, 2 processes", layout="`console.log` + `logs/rank{0,1}.log`",
    cmd=ACC.format(n=2, p=29823) + " --log-format iso --log-dir logs --warnings --steps 10 > console.log 2>&1",
    injected="nothing; `--warnings` builds a `torch.cuda.amp.GradScaler()` on CPU and a DataLoader with 4 workers on a 2-core machine.",
    happened="accelerate's defaults notice, torch FutureWarning (`torch.cuda.amp.GradScaler(args...)` is deprecated), UserWarning `GradScaler is enabled, but CUDA is not available.  Disabling.`, DataLoader worker-number UserWarnings, 10 steps, `training done` on both ranks, exit 0.",
    hard="Warning lines with `Warning` / `deprecated` / `freeze` words, none a failure.",
    truth=T(status="healthy", kind=None, notes="accelerate 2 ranks, real torch deprecation/CPU/DataLoader warnings, 10 steps, training done, exit 0."))
I["k-acc-jit-version-refusal"] = dict(
    launcher="accelerate launch, 3 processes", layout="`console.log`",
    cmd="(python: TorchScript Linear saved, its archive's `version` record rewritten to 99 -> models/feat-v2.pt, see capture.sh)\n" + ACC.format(n=3, p=29824) + " --jit-model models/feat-v2.pt > console.log 2>&1",
    injected="the frozen feature extractor every rank loads claims archive format version 99 (as if exported by a newer torch).",
    happened="Every rank: `RuntimeError: [enforce fail at inline_container.cc:230] . Attempted to read a PyTorch file with version 99, but the maximum supported version for reading is 10. The version of your PyTorch installation may be too old, please upgrade PyTorch ...`. torchrun's table names one rank (a race) as Root Cause and SIGTERMs the rest.",
    hard="Identical errors on all ranks; the launcher's table names a single rank.",
    truth=T(rank=None, all_ranks=True, kind="all_ranks", cat="version_mismatch", contains="Attempted to read a PyTorch file with version 99", frank=None,
            notes="model file from a newer torch format refused on every rank alike at load."))
I["k-acc-launch-flag-conflict"] = dict(
    launcher="accelerate launch (refuses before starting anything)", layout="`console.log`",
    cmd="accelerate launch --multi_gpu --cpu --num_processes 3 ... k_train.py ... > console.log 2>&1",
    injected="the launcher flags `--multi_gpu --cpu` together.",
    happened="accelerate 1.15.0's `_validate_launch_command` raises `ValueError: You can only use one of `--cpu`, `--multi_gpu`, `--tpu`, `--use_deepspeed`, `--use_fsdp` at a time.`; no worker starts, no rank prints anything.",
    hard="No rank output at all; only the launcher's traceback.",
    truth=T(rank=None, all_ranks=True, kind="all_ranks", cat="config_error", contains="You can only use one of `--cpu`, `--multi_gpu`", frank=None,
            notes="launcher configuration refused before any worker started; the job's configuration, not a rank, is at fault."))
I["k-tee-logdir-corrupt-sample"] = dict(
    launcher="torchrun, 3 processes, `--log-dir logs --redirects 3 --tee 3`", layout="`console.log` (`[defaultN]:` prefixes) + `logs/none_<rand>/attempt_0/<local_rank>/{stdout,stderr}.log`",
    cmd="python make_data.py data/train --n 64 --truncate 20\ntorchrun --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29841 --log-dir logs --redirects 3 --tee 3 k_train.py --data-dir data/train --steps 12 > console.log 2>&1",
    injected="sample file `sample-000020.pt` truncated to half its size; read by rank 2 at step 7 (index (step-1)*3+rank).",
    happened="Rank 2: `RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory ...` in `torch.load`. Ranks 0, 1: gloo `Connection closed by peer` in backward. torchrun names rank 2.",
    hard="The same text appears twice (tee'd console and the per-rank stderr.log files); a `RuntimeError` from the loader, not a `ValueError`.",
    truth=T(rank=2, cat="data_error", contains="PytorchStreamReader failed reading zip archive: failed finding central directory", frank=2, coll=[(CCB, None)],
            notes="truncated sample file read by rank 2 at step 7; ranks 0, 1 Connection closed by peer."))
I["k-iso-early-exit"] = dict(
    launcher="torchrun, 3 processes", layout="`launcher.log` (torchrun and worker stdout+stderr) + `logs/rank{0,1,2}.log` (ISO-8601 logging per rank)",
    cmd="torchrun --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29842 k_train.py --log-format iso --log-dir logs --fault early_exit --fault-rank 1 --fault-step 5 --pg-timeout 20 > launcher.log 2>&1",
    injected="rank 1 logs `no more batches in local shard, leaving the loop` at step 5 and calls `sys.exit(0)`; its peers go on into the step's collectives.",
    happened="Rank 1 exits 0 (no traceback). Ranks 0, 2: gloo `Connection closed by peer` in backward; torchrun's table lists the failing ranks 0 and 2 (Root Cause: one of them), never rank 1, whose exit code was 0.",
    hard="The initiator exits cleanly with an INFO line; the launcher blames a victim.",
    truth=T(rank=1, cat="collective_mismatch", contains="no more batches in local shard, leaving the loop", frank=1, coll=[(CCB, None)],
            notes="rank 1 leaves the training loop early (sys.exit(0), uneven shards) so its peers' collectives have no partner; peers Connection closed by peer; torchrun blames a peer. collective_mismatch (ranks disagree on the number of collectives); code_exception arguable."))
N2 = "torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:{p} --rdzv-id {i} --node-rank {{r}}{x} ../k_train.py {a} > console.log 2>&1   # in node-{{r}}/"
I["k-2node-gloo-ifname-node1"] = dict(
    launcher="two torchrun agents (`--nnodes 2`, c10d rendezvous on 127.0.0.1), 2 processes each, `--tee 3`", layout="`node-0/console.log`, `node-1/console.log`",
    cmd=N2.format(p=29831, i="k2n-ifname", x=" --tee 3", a="--pg-timeout 30") + "\n(node-1 only: GLOO_SOCKET_IFNAME=ib0)",
    injected="node-1's environment has `GLOO_SOCKET_IFNAME=ib0`, an interface this machine lacks; node-0 has no such variable.",
    happened="Ranks 2 and 3 (node-1) fail creating the gloo device in `init_process_group`: `RuntimeError: [enforce fail at .../gloo/transport/tcp/device.cc:84] ifa != nullptr. Unable to find address for: ib0`; node-1's agent fails within seconds. Ranks 0, 1 (node-0) wait 30 s for node-1's ranks' store keys: `torch.distributed.DistStoreError: wait timeout after 30000ms, keys: /default_pg/0//cpu//0/2`; node-0's table blames rank 0.",
    hard="The failing node's error is earlier but appears only in its own console; node-0's timeout names neither the env var nor node-1.",
    truth=T(rank=None, node="node-1", cat="config_error", contains="Unable to find address for: ib0", frank=None, coll=[("DistStoreError: wait timeout after 30000ms", [0, 1])],
            notes="node-only env var GLOO_SOCKET_IFNAME=ib0 on node-1: both its ranks (2, 3) fail alike at process-group init; node-0's ranks time out waiting. Initiator is the node (both its ranks), not one rank."))
I["k-2node-missing-shard-node1"] = dict(
    launcher="two torchrun agents, 2 processes each, `--tee 3`", layout="`node-0/console.log`, `node-1/console.log` (ISO-8601 logger lines inside `[defaultN]:`)",
    cmd=N2.format(p=29832, i="k2n-shard", x=" --tee 3", a="--log-format iso --shard-dir scratch/shards"),
    injected="each node has a node-local `scratch/shards/`; node-1's was staged without `shard-00003.pt` (rank 3's shard).",
    happened="Rank 3 (node-1, local 1): `FileNotFoundError: [Errno 2] No such file or directory: 'scratch/shards/shard-00003.pt'`. Ranks 0 and 2: gloo `Connection closed by peer` in step 1's backward (rank 0 then aborts, `terminate called without an active exception`, exit -6); rank 1 is SIGTERMed silently. node-0's table blames rank 0, node-1's rank 3. node-0's agent (the rendezvous host) exits first, so node-1's agent prints a TCPStore `recvValueWithTimeout failed` C++ trace and `failed to shutdown the rendezvous ... RendezvousConnectionError`.",
    hard="Relative path only; the file exists on node-0; node-0's console shows only echoes.",
    truth=T(rank=3, node="node-1", cat="storage_io", contains="No such file or directory: 'scratch/shards/shard-00003.pt'", frank=3, coll=[(CCB, None)],
            notes="node-1's local scratch lacks rank 3's shard (incomplete staging); peers Connection closed by peer. storage_io (node-local file missing); config_error/data_error arguable."))
I["k-2node-shape-mismatch-logdir"] = dict(
    launcher="two torchrun agents, 2 processes each, `--log-dir logs --redirects 3 --tee 3` per node", layout="`node-{0,1}/console.log` + `node-{0,1}/logs/k2n-shape_<rand>/attempt_0/<local_rank>/{stdout,stderr}.log`",
    cmd=N2.format(p=29833, i="k2n-shape", x=" --log-dir logs --redirects 3 --tee 3", a="--fault shape_mismatch --fault-rank 2 --fault-step 5 --pg-timeout 30"),
    injected="at step 5 every rank calls an extra `dist.all_reduce`; rank 2's tensor has 16 elements, the others' 12.",
    happened="gloo does not detect the size difference: the all_reduce never completes and after the 30 s timeout every rank raises `RuntimeError: [.../gloo/transport/tcp/unbound_buffer.cc:..] Timed out waiting 30000ms for {recv|send} operation to complete` (which ranks report recv vs send: see below); a rank whose peer has already exited gets `Connection closed by peer` instead. Nothing printed names rank 2 or a shape.",
    hard="The culprit prints the same kind of timeout as its victims; no line shows the shape; only the injection tells rank 2.",
    truth=None,  # filled in below from the capture
)
I["k-tee-killed-external"] = dict(
    launcher="torchrun, 2 processes, `--tee 3`, under `timeout -s TERM 25`", layout="`console.log`",
    cmd="timeout -s TERM 25 torchrun --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29843 --tee 3 k_train.py --steps 400 --sleep 0.3 > console.log 2>&1   # exit 124",
    injected="a healthy 400-step run; SIGTERM to the torchrun agent after 25 s (a scheduler's time limit / kill).",
    happened="Steps progress normally, then `Received 15 death signal, shutting down workers`, SIGTERM to both workers, `SignalException: Process N got signal: 15` traceback from torchrun. No worker prints an error.",
    hard="The only traceback is the launcher's own; the training itself was healthy.",
    truth=T(rank=None, kind="external", cat="killed_by_scheduler", contains="Received 15 death signal, shutting down workers", frank=None,
            notes="healthy job SIGTERMed from outside (timeout on the launcher); torchrun shuts the workers down."))

EXC = re.compile(r"(Error|Exception|Timed out|death signal|Warning)\b")
for name, d in I.items():
    inc = os.path.join(OUT, name)
    if not os.path.isdir(inc):
        continue
    codes = {os.path.basename(f).split(".")[-1]: open(f).read().strip() for f in sorted(glob.glob(os.path.join(JOBS, name, "exit_codes.txt.*")))}
    files = sorted(os.path.relpath(os.path.join(r, f), inc) for r, _, fs in os.walk(inc) for f in fs if f not in ("README.md", "truth.json", ".correlatorignore"))
    allt = {f: open(os.path.join(inc, f), errors="replace").read().splitlines() for f in files}
    t = d["truth"]
    if name == "k-2node-shape-mismatch-logdir":
        recv, send = set(), set()
        for f in ("node-0/console.log", "node-1/console.log"):
            for l in allt.get(f, []):
                m = re.search(r"\[rank(\d)\]: RuntimeError: .*Timed out waiting 30000ms for (recv|send)", l)
                if m:
                    (recv if m.group(2) == "recv" else send).add(int(m.group(1)))
        coll = [(f"Timed out waiting 30000ms for {k} operation", sorted(s - {2})) for k, s in (("recv", recv), ("send", send)) if s - {2}]
        own = "recv" if 2 in recv else "send" if 2 in send else "nothing"
        coll.append((CCB, None))
        t = T(rank=2, node="node-1", cat="collective_mismatch", contains=None, frank=2, coll=coll,
              notes=f"rank 2 (node-1) all_reduces 16 elements vs 12 on the others; gloo times out on every rank after 30 s; rank 2's own line (a {own} timeout) is indistinguishable from its victims', so no printed line starts the failure.")
        d["happened"] += f" In this capture: recv timeouts on ranks {sorted(recv)}, send timeouts on ranks {sorted(send)}."
    for c in t["collateral"]:
        if c["ranks"] is None:
            rk = set()
            for f, ls in allt.items():
                for l in ls:
                    m = re.search(r"\[rank(\d)\]: .*" + re.escape(c["contains"]), l)
                    if m:
                        rk.add(int(m.group(1)))
            c["ranks"] = sorted(rk)
    json.dump(t, open(os.path.join(inc, "truth.json"), "w"), indent=2)
    open(os.path.join(inc, ".correlatorignore"), "w").write("# scenario documentation, not logs\nREADME.md\ntruth.json\n")
    ini = t["initiating"]
    who = "all ranks" if ini["all_ranks"] else (f"rank {ini['rank']}" if ini["rank"] is not None else (f"node {ini['node']}" if ini["node"] else "none"))
    r = [f"# {name}\n", "**Captured** run on this machine (host `vm`, 2 cores), 2026-12-05. Python 3.11.7, torch 2.13.0+cpu (gloo), accelerate 1.15.0.\n",
         f"* Launcher: {d['launcher']}", f"* Layout: {d['layout']}", f"* Injected: {d['injected']}",
         f"* Exit codes: " + ", ".join(f"{k} {v}" for k, v in codes.items()),
         f"* Truth: status `{t['status']}`, initiator {who}" + (f" ({ini['node']})" if ini['node'] and ini['rank'] is not None else "") + f", category `{t['root_cause']['category']}`, kind `{ini['kind']}`\n",
         "## Command\n", f"Run in the scratch dir `/home/user/jobs/{name}/` with `../_capture_k/k_train.py` (and `make_data.py`) copied there, inside a private network namespace with only loopback (`_capture_k/capture.sh OUT {name}`; `python`, `torchrun`, `accelerate` from `/home/user/venv`, all under `nice`, `PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1`):\n",
         "```", d["cmd"], "```\n", "Log files copied unchanged, then `neutral_paths.py` (paths only).\n",
         "## What happened\n", d["happened"] + "\n", "## What is hard\n", d["hard"] + "\n", "## Files (error/warning lines, computed)\n"]
    for f, ls in allt.items():
        hits = []
        for l in ls:
            if EXC.search(l) and not re.search(r'^\S*\s+(File "|raise |\^)', l):
                s = l.strip()
                if s not in hits:
                    hits.append(s)
        last = next((l for l in reversed(ls) if l.strip()), "")
        r.append(f"* `{f}` ({len(ls)} lines): " + ("; ".join(f"`{h[:220]}`" for h in hits[:6]) or "no error lines") + f". Last non-empty line: `{last.strip()[:200]}`")
    r.append(f"\n## Notes\n\n{t['notes']}\n")
    open(os.path.join(inc, "README.md"), "w").write("\n".join(r))
    print(name, json.dumps(t["initiating"]), t["root_cause"]["category"], t["collateral"])
