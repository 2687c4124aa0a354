#!/usr/bin/env python3
import json, os
from gen_meta_ba import JOBS, OUT
rows = []
for name in JOBS:
    t = json.load(open(os.path.join(OUT, name, "truth.json")))
    if t["status"] == "failed":
        i = t["initiating"]
        who = (f"rank {i['rank']}" + (f", node {i['node']}" if i["node"] else "")) if i["rank"] is not None else (f"node {i['node']}" if i["node"] else i["kind"])
        rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
    else:
        rows.append(f"| {name} | {t['status']} |")
with open(os.path.join(OUT, "README-ba.md"), "w") as f:
    f.write("# README-ba\n\nEnvironment: torch 2.13.0+cpu with gloo, Python 3.11.7, lightning 2.6.6, accelerate 1.16.0, "
            "Open MPI 4.1.4 (mpirun), numpy 2.4.6, PyYAML 6.0.4, tqdm, util-linux `script`; the previous round's "
            "virtualenv (/home/user/capAD/venv) used read-only. Launchers: torchrun (standalone with --redirects 3 "
            "--log-dir; plain console; --tee 3 with --max-restarts 1; static two-node with --tee 3 and per-node "
            "consoles, one node in a memory cgroup; inside an appended `script` typescript with ANSI colours), "
            "torch.multiprocessing.spawn (3 and 4 ranks), accelerate launch (MULTI_CPU, 3 and 8 ranks), Lightning "
            "Trainer(strategy=DDPStrategy) started with plain python (3 ranks), mpirun without --tag-output (4 ranks). "
            "Every job ran alone on this machine (2 CPUs) inside its own network namespace (loopback only), mount "
            "namespace and UTS namespace (hostname trn-07; the two-node job: two launcher instances in nested UTS "
            "namespaces trn-07 / trn-08), from a clean environment. Logs copied verbatim except home-dir / "
            "top-directory prefixes neutralised and the per-job scratch dir (named after the folder) shown as "
            "/home/user/project/. Scripts: _capture_ba/ (one per job, run_all.sh, collect_all.sh, collect.py, "
            "common.sh, gen_meta_ba.py, gen_readme_ba.py, helper programs ba_*.py).\n\n"
            "| folder | status / category (initiator) |\n|---|---|\n")
    f.write("\n".join(rows) + "\n")
