#!/usr/bin/env python3
import json, os
from gen_meta_bh import JOBS, OUT
rows = []
for name in JOBS:
    t = json.load(open(os.path.join(OUT, name, "truth.json")))
    if t["status"] == "failed":
        i = t["initiating"]
        who = (f"rank {i['rank']}" + (f", node {i['node']}" if i["node"] else "")) if i["rank"] is not None else (f"node {i['node']}" if i["node"] else i["kind"])
        rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
    else:
        rows.append(f"| {name} | {t['status']} |")
with open(os.path.join(OUT, "README-bh.md"), "w") as f:
    f.write("# README-bh\n\nEnvironment: torch 2.13.0+cpu with gloo, Python 3.11.7, numpy 2.4.6, in a fresh virtualenv "
            "(/home/user/capBH/venv). Launchers, all mainstream: torchrun (--standalone with --log-dir and --tee 3, "
            "--tee 1, --redirects 1, --redirects 2 --tee 1, --redirects 3; and a two-node static rendezvous with two "
            "agents in separate UTS namespaces, hostnames gpu-n07 / gpu-n08) and torch.multiprocessing.spawn; 2-8 "
            "ranks per job (one job with 8). Every job ran alone on this machine (2 CPUs) inside its own network "
            "namespace (loopback only), mount namespace and UTS namespace (hostname gpu-n07), from a clean "
            "environment. Logs copied verbatim except home-dir / top-directory prefixes neutralised and the per-job "
            "scratch dir shown as /home/user/project/. Scripts: _capture_bh/ (one per job, run_all.sh, collect_all.sh, "
            "collect.py, common.sh, gen_meta_bh.py, gen_readme_bh.py, helper programs bh_*.py).\n\n"
            "| folder | status / category (initiator) |\n|---|---|\n")
    f.write("\n".join(rows) + "\n")
