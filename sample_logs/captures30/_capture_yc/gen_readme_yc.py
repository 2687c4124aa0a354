#!/usr/bin/env python3
"""gen_readme_yc.py: write captures/README-yc.md, roundW/used_launchers_new.md and roundW/used_capture_slugs_new.txt."""
import os
from jobs_meta_yc import JOBS

H = os.path.dirname(os.path.abspath(__file__))
CAP = os.path.dirname(H); ROUND = os.path.dirname(CAP)
para = open(os.path.join(H, "para_yc.md")).read().strip()
rows = []
for name in sorted(JOBS):
    t = JOBS[name]["truth"]
    if t["status"] in ("healthy", "inconclusive"):
        rows.append(f"| {name} | {t['status']} |")
        continue
    ini = t["initiating"]
    who = ("external" if ini["kind"] == "external" else "all_ranks" if ini["kind"] == "all_ranks" else
           f"node {ini['node']}" if ini["node"] else f"rank {ini['rank']}" if ini["rank"] is not None else ini["kind"])
    rows.append(f"| {name} | failed / {t['root_cause']['category']} ({who}) |")
txt = (f"# captures yc (round W)\n\n{para}\n\n| folder | status / category (initiator) |\n|---|---|\n" + "\n".join(rows) +
       "\n\nRerun: `bash _capture_yc/run_all.sh` (new pids, ports and times; collateral strings naming an ephemeral port "
       "are written without the port, so they stay valid). Check: "
       "`python3 ../_capture/check_truths.py . (from this folder)`.\n")
open(os.path.join(CAP, "README-yc.md"), "w").write(txt)
open(os.path.join(ROUND, "used_launchers_new.md"), "w").write(f"## captures yc (round W)\n\n{para}\n")
open(os.path.join(ROUND, "used_capture_slugs_new.txt"), "w").write("\n".join(sorted(JOBS)) + "\n")
print("README-yc.md:", len(rows), "rows")
