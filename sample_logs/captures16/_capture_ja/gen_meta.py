#!/usr/bin/env python3
"""gen_meta.py [OUT]: write README.md, truth.json and .correlatorignore of every ja-* job (truths written from the
planted faults and the printed lines, without running the tool)."""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), numpy 2.4.6, "
       "accelerate 1.16.0, deepspeed 0.19.8, Open MPI 4.1.4, GNU parallel 20221122, GNU coreutils (stdbuf, tee), util-linux setsid")


def truth(status="failed", rank=None, node=None, all_ranks=False, kind="rank", cat=None, fd=None, fd_rank=None,
          coll=(), notes=""):
    if status != "failed":
        return {"schema_version": 1, "status": status,
                "initiating": {"rank": None, "node": None, "all_ranks": False, "kind": "unknown"},
                "root_cause": {"category": None, "rule_id": None}, "first_deviating": None, "collateral": [],
                "notes": notes}
    return {"schema_version": 1, "status": status,
            "initiating": {"rank": rank, "node": node, "all_ranks": all_ranks, "kind": kind},
            "root_cause": {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


J = {}
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'jobs_meta.py')).read())


def readme(name, d):
    t = d["truth"]
    head = f"# {name}\n\n"
    if t["status"] == "failed":
        i = t["initiating"]
        summary = (f"**Truth:** failed; initiating kind `{i['kind']}`, rank {i['rank']}, node {i['node']}, all_ranks "
                   f"{i['all_ranks']}; category `{t['root_cause']['category']}`.\n\n")
    else:
        summary = f"**Truth:** {t['status']}.\n\n"
    return (head + "Captured for real on this machine on 2026-12-06 (collector `ja`, round H): " + ENV + ". The job ran "
            f"from `_capture_ja/{name}.sh` in the scratch dir `/home/user/jobsH/{name}/` with `/home/user/venv`, under "
            "`nice`, in a private network namespace (loopback only, no resolver) and mount namespace (`unshare -n -m`, "
            "`_capture_ja/common.sh`). Log files copied out byte for byte with `_capture_ja/collect.py` (layout kept); "
            "no line edited, nothing masked, paths such as `/home/user/jobsH/...` left as printed.\n\n"
            + summary +
            f"## Source / command\n{d['command']}\n\n## Layout\n{d['layout']}\n\n## What was planted\n{d['planted']}\n\n"
            f"## What happened\n{d['happened']}\n\n## Exit codes\n{d['exits']}\n\n## Judgement calls\n{d['calls']}\n\n"
            f"Truth notes: {t['notes']}\n\n## Rerun\n`bash _capture_ja/{name}.sh && bash _capture_ja/collect_all.sh` "
            "(new pids, ports, times).\n")


for name, d in J.items():
    dst = os.path.join(OUT, name)
    os.makedirs(dst, exist_ok=True)
    with open(os.path.join(dst, "truth.json"), "w") as f:
        json.dump(d["truth"], f, indent=2, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(dst, "README.md"), "w") as f:
        f.write(readme(name, d))
    with open(os.path.join(dst, ".correlatorignore"), "w") as f:
        f.write("README.md\ntruth.json\n.correlatorignore\n")
print(f"{len(J)} jobs written to {os.path.abspath(OUT)}")
