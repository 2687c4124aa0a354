#!/usr/bin/env python3
import json, os
from gen_meta_bd import JOBS, OUT
rows = []
for name in JOBS:
    t = json.load(open(os.path.join(OUT, name, "truth.json")))
    if t["status"] == "failed":
        i = t["initiating"]
        who = (f"rank {i['rank']}" + (f", node {i['node']}" if i["node"] else "")) if i["rank"] is not None else (f"node {i['node']}" if i["node"] else i["kind"])
        rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
    else:
        rows.append(f"| {name} | {t['status']} |")
with open(os.path.join(OUT, "README-bd.md"), "w") as f:
    f.write("# README-bd\n\nEnvironment: torch 2.13.0+cpu with gloo, Python 3.11.7, lightning 2.6.6, accelerate 1.16.0, "
            "Open MPI 4.1.4 (mpirun), numpy 2.4.6, PyYAML, util-linux `script` (for the nohup jobs' pty); an earlier "
            "round's virtualenv (/home/user/capAD/venv) used read-only. Launchers: torchrun (nohup'd with console in "
            "nohup.out; --tee 3 --log-dir; --redirects 3 --log-dir with the FileTimer watchdog, launcher SIGKILLed; "
            "static two-node nohup'd per node), torch.multiprocessing.spawn (3 and 4 ranks), accelerate launch "
            "(MULTI_CPU, 3 ranks), Lightning Trainer DDP (subprocess launcher, 3 ranks; ddp_spawn, 2 ranks), mpirun "
            "(3 and 6 ranks). Most trainers log through Python logging with one FileHandler per rank in a shared "
            "directory. Every job ran alone on this machine (2 CPUs) inside its own network namespace (loopback "
            "only), mount namespace (the checkpoint tmpfs) and UTS namespace (hostname ml-a03; the two-node job: two "
            "launcher instances in nested UTS namespaces ml-a03 / ml-a04), from a clean environment. Logs copied "
            "verbatim except home-dir / top-directory prefixes neutralised and the per-job scratch dir shown as "
            "/home/user/project/. Scripts: _capture_bd/ (one per job, run_all.sh, collect_all.sh, collect.py, "
            "common.sh, gen_meta_bd.py, gen_readme_bd.py, helper programs bd_*.py).\n\n"
            "| folder | status / category (initiator) |\n|---|---|\n")
    f.write("\n".join(rows) + "\n")
