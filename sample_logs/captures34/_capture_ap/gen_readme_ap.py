#!/usr/bin/env python3
import json, os
from gen_meta_ap import JOBS, OUT
rows = []
for name in JOBS:
    t = json.load(open(os.path.join(OUT, name, "truth.json")))
    if t["status"] == "failed":
        i = t["initiating"]; who = f"rank {i['rank']}" if i["rank"] is not None else (f"node {i['node']}" if i["node"] else i["kind"])
        rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
    else:
        rows.append(f"| {name} | {t['status']} |")
with open(os.path.join(OUT, "README-ap.md"), "w") as f:
    f.write("# README-ap\n\nEnvironment: torch 2.13.0+cpu with gloo, Python 3.11.7, lightning 2.6.6, accelerate 1.16.0, "
            "mpi4py 4.1.2, Open MPI 4.1.4 (mpirun), numpy 2.4 (the previous round's virtualenv reused). Launchers: "
            "torchrun (standalone with --log-dir + --tee 3, --redirects 3, --redirects 3 --tee 1; c10d two-node with "
            "per-node --log-dir; c10d elastic two-node with --max-restarts 1), torch.multiprocessing.spawn, accelerate "
            "launch (MULTI_CPU), Lightning Trainer(strategy='ddp'), mpirun --output-filename. Every job ran alone on "
            "this machine (2 CPUs) inside its own network namespace (loopback only), mount namespace and UTS namespace "
            "(hostname trn-01; two-node jobs: two launcher instances in nested UTS namespaces trn-a / trn-b; the "
            "link-failure job also put trn-b in its own network namespace joined by a veth pair), from a clean "
            "environment. Logs copied verbatim except home-dir prefixes neutralised (~/.pyenv/ -> "
            "/home/user/.pyenv/) and the per-job scratch dir (named after the folder) shown as /home/user/project/. "
            "Scripts: _capture_ap/ (one per job, run_all.sh, collect_all.sh, gen_meta_ap.py).\n\n"
            "| folder | status / category (initiator) |\n|---|---|\n")
    f.write("\n".join(rows) + "\n")
