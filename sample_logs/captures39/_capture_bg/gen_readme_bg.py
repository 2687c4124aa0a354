#!/usr/bin/env python3
import json, os
from gen_meta_bg import JOBS, OUT
rows = []
for name in JOBS:
    t = json.load(open(os.path.join(OUT, name, "truth.json")))
    if t["status"] == "failed":
        i = t["initiating"]
        who = (f"rank {i['rank']}" + (f", node {i['node']}" if i["node"] else "")) if i["rank"] is not None else (f"node {i['node']}" if i["node"] else i["kind"])
        rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
    else:
        rows.append(f"| {name} | {t['status']} |")
with open(os.path.join(OUT, "README-bg.md"), "w") as f:
    f.write("# README-bg\n\nEnvironment: torch 2.13.0+cpu with gloo, Python 3.11.7, lightning 2.6.6, accelerate 1.16.0, "
            "numpy 2.4.6, tqdm; an earlier round's virtualenv (/home/user/capAD/venv) used read-only. Launchers, all "
            "mainstream: torchrun (plain console; --tee 3 --log-dir; with a memory-watchdog script beside it), "
            "torch.multiprocessing.spawn (3 ranks), accelerate launch (MULTI_CPU, 2 and 3 ranks; an FSDP config "
            "file), Lightning Trainer DDP (subprocess launcher, 2 and 3 ranks); 2-4 ranks per job. Every job ran "
            "alone on this machine (2 CPUs) inside its own network namespace (loopback only), mount namespace and "
            "UTS namespace (hostname trn-b12), from a clean environment. Logs copied verbatim except home-dir / "
            "top-directory prefixes neutralised and the per-job scratch dir shown as /home/user/project/. Scripts: "
            "_capture_bg/ (one per job, run_all.sh, collect_all.sh, collect.py, common.sh, gen_meta_bg.py, "
            "gen_readme_bg.py, helper programs bg_*.py).\n\n"
            "| folder | status / category (initiator) |\n|---|---|\n")
    f.write("\n".join(rows) + "\n")
