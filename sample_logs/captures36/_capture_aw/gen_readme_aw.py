#!/usr/bin/env python3
import json, os
from gen_meta_aw import JOBS, OUT
rows = []
for name in JOBS:
    t = json.load(open(os.path.join(OUT, name, "truth.json")))
    if t["status"] == "failed":
        i = t["initiating"]
        who = (f"rank {i['rank']}" + (f", node {i['node']}" if i["node"] else "")) if i["rank"] is not None else (f"node {i['node']}" if i["node"] else i["kind"])
        rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
    else:
        rows.append(f"| {name} | {t['status']} |")
with open(os.path.join(OUT, "README-aw.md"), "w") as f:
    f.write("# README-aw\n\nEnvironment: torch 2.13.0+cpu with gloo, Python 3.11.7, lightning 2.6.6, accelerate 1.16.0, "
            "mpi4py 4.1.2 (installed, unused by the trainer), Open MPI 4.1.4 (mpirun), numpy 2.4.6, in a fresh "
            "virtualenv (/home/user/capAD/venv) from the local package index. Launchers: torchrun (standalone with "
            "--log-dir --tee 3; standalone plain console; static two-node with --redirects 3 and per-node --log-dir "
            "trees), torch.multiprocessing.spawn (8 ranks), accelerate launch (MULTI_CPU; once inside a memory cgroup), "
            "Lightning Trainer(strategy=DDPStrategy) started with plain python, mpirun --tag-output and "
            "--output-filename. Every job ran alone on this machine (2 CPUs) inside its own network namespace "
            "(loopback only), mount namespace and UTS namespace (hostname ml-n01; the two-node job: two launcher "
            "instances in nested UTS namespaces ml-n01 / ml-n02), from a clean environment. Logs copied verbatim "
            "except home-dir / top-directory prefixes neutralised and the per-job scratch dir (named after the folder) "
            "shown as /home/user/project/. Scripts: _capture_aw/ (one per job, run_all.sh, collect_all.sh, collect.py, "
            "gen_meta_aw.py, gen_readme_aw.py). An elastic two-node job (node lost, job re-forms on one node) was "
            "attempted but did not re-form cleanly in the time box and was left out.\n\n"
            "| folder | status / category (initiator) |\n|---|---|\n")
    f.write("\n".join(rows) + "\n")
