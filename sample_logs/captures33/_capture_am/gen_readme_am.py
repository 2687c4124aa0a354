#!/usr/bin/env python3
import json, os
from gen_meta_am import JOBS, OUT
rows = []
for name in JOBS:
    t = json.load(open(os.path.join(OUT, name, "truth.json")))
    if t["status"] == "failed":
        i = t["initiating"]; who = f"rank {i['rank']}" if i["rank"] is not None else (f"node {i['node']}" if i["node"] else i["kind"])
        rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
    else:
        rows.append(f"| {name} | {t['status']} |")
with open(os.path.join(OUT, "README-am.md"), "w") as f:
    f.write("# README-am\n\nEnvironment: torch 2.13.0+cpu with gloo, Python 3.11.7, lightning 2.6.6, accelerate 1.16.0, "
            "mpi4py 4.1.2, Open MPI 4.1.4 (mpirun), numpy 2.4 (a second virtualenv with numpy 1.24.4 for the version-"
            "mismatch node). Launchers: torchrun (standalone, c10d elastic with --max-restarts, static two-node), "
            "torch.multiprocessing.spawn, accelerate launch, Lightning Trainer(strategy='ddp') and Lightning under "
            "mpirun, mpirun. Every job ran alone on this machine (2 CPUs) inside its own network namespace (loopback "
            "only), mount namespace and UTS namespace (hostname trn-01; two-node jobs: two launcher instances in "
            "nested UTS namespaces trn-a / trn-b, with private node-local tmpfs where needed), from a clean "
            "environment; the OOM job used per-rank cgroup-v1 memory caps. Logs copied verbatim except home-dir "
            "prefixes neutralised (the capturing account's ~/.pyenv/ -> /home/user/.pyenv/). Scripts: _capture_am/ (one per job, "
            "run_all.sh, collect_all.sh, gen_meta_am.py).\n\n| folder | status / category (initiator) |\n|---|---|\n")
    f.write("\n".join(rows) + "\n")
