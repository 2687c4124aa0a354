#!/usr/bin/env python3
"""gen_meta_rc.py: write README.md, truth.json, .correlatorignore into each roundP rc-* folder."""
import json, os
from jobs_meta_rc import ENV, JOBS

H = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(H)
for name, m in JOBS.items():
    d = os.path.join(OUT, name)
    t = m["truth"]
    with open(os.path.join(d, "truth.json"), "w") as f:
        json.dump(t, f, indent=2, ensure_ascii=False); f.write("\n")
    with open(os.path.join(d, ".correlatorignore"), "w") as f:
        f.write("README.md\ntruth.json\n.correlatorignore\n")
    ini = t["initiating"]
    cat = (t["root_cause"] or {}).get("category")
    tr = (f"{t['status']}; initiating kind `{ini['kind']}`, rank {ini['rank']}, node {ini['node']}, all_ranks "
          f"{ini['all_ranks']}; category `{cat}`") if ini else f"{t['status']} (initiating, root_cause, first_deviating null)"
    files = sorted(os.path.relpath(os.path.join(r, x), d) for r, _, fs in os.walk(d) for x in fs
                   if x not in ("README.md", "truth.json", ".correlatorignore"))
    txt = f"""# {name}

Captured for real on this machine on 2026-12-06 (collector `rc`, round P): {ENV}. The job ran from
`_capture_rc/{name}.sh` in the scratch dir `/home/user/jobsP/{name}/` with `/home/user/venv`, under `nice` and a
`timeout`, in a private network namespace (loopback only, no resolver) and mount namespace (`unshare -n -m`,
`_capture_rc/common.sh`, adapted from the round-O qc harness). Log files copied out byte for byte with
`_capture_rc/collect.py` (layout kept); no line edited, nothing masked, paths such as `/home/user/jobsP/...` left as
printed.

**Truth:** {tr}.

## Source / command
{m['source']}: {m['cmd']}

## Layout
{m['layout']}

Files: {', '.join('`' + x + '`' for x in files)}

## What was planted
{m['planted']}

## What happened
{m['happened']}

## Exit codes
{m['exits']}

## Judgement calls
{m['judgement']}

Truth notes: {t['notes']}

## Rerun
`bash _capture_rc/{name}.sh && JOBS=/home/user/jobsP bash _capture_rc/collect_all.sh && python3 _capture_rc/gen_meta_rc.py`
(new pids, ports, times; some truth strings name pids of this capture).
"""
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(txt)
print("wrote", len(JOBS), "folders")
