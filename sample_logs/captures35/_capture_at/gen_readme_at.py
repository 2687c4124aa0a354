#!/usr/bin/env python3
import json, os
from gen_meta_at import JOBS, OUT
rows = []
for name in JOBS:
    t = json.load(open(os.path.join(OUT, name, "truth.json")))
    if t["status"] == "failed":
        i = t["initiating"]; who = f"rank {i['rank']}" if i["rank"] is not None else (f"node {i['node']}" if i["node"] else i["kind"])
        rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
    else:
        rows.append(f"| {name} | {t['status']} |")
with open(os.path.join(OUT, "README-at.md"), "w") as f:
    f.write("# README-at\n\nEnvironment: torch 2.13.0+cpu with gloo, Python 3.11.7, lightning 2.6.6, accelerate 1.16.0, "
            "deepspeed 0.19.8 (CPU accelerator; installed --no-deps into a side directory on PYTHONPATH for that job "
            "only), mpi4py 4.1.2, Open MPI 4.1.4 (mpirun), numpy 2.4 (an earlier round's virtualenv reused). "
            "Launchers: torchrun (standalone --redirects 3 --log-dir; standalone plain console; c10d two-node with "
            "per-host directories; static two-node with one host-prefixed combined console), "
            "torch.multiprocessing.spawn (3 and 8 ranks), accelerate launch (MULTI_CPU; once under a `timeout -s TERM` "
            "wall-clock-limit wrapper), Lightning Trainer(strategy=DDPStrategy) with the TQDM bar, mpirun --tag-output, "
            "the deepspeed launcher with --enable_each_rank_log. Every job ran alone on this machine (2 CPUs) inside "
            "its own network namespace (loopback only), mount namespace and UTS namespace (hostname trn-01; two-node "
            "jobs: two launcher instances in nested UTS namespaces trn-a / trn-b, the read-only-scratch job also with "
            "per-node mount namespaces), from a clean environment. Logs copied verbatim except home-dir prefixes "
            "neutralised and the per-job scratch dir (named after the folder) shown as /home/user/project/. Scripts: "
            "_capture_at/ (one per job, run_all.sh, collect_all.sh, collect.py, gen_meta_at.py).\n\n"
            "| folder | status / category (initiator) |\n|---|---|\n")
    f.write("\n".join(rows) + "\n")
