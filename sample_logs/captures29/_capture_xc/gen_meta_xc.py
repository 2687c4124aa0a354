#!/usr/bin/env python3
"""gen_meta_xc.py: write README.md, truth.json, .correlatorignore into each roundV xc-* folder."""
import json, os
from jobs_meta_xc import ENV, JOBS

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

Captured for real on this machine on 2026-12-07 (collector `xc`, round V): {ENV}. The job ran from
`_capture_xc/{name}.sh` in the scratch dir `/home/user/jobsV/{name}/` with `/home/user/venv`, under `nice` and a
time bound (`timeout`, or the script's bounded status polling), from a clean environment (`env -i`: PATH, HOME=/home/user, LANG=C.UTF-8, TERM=dumb), in a private network namespace
(loopback only, no resolver) and mount namespace (`unshare -n -m`, `_capture_xc/common.sh`, adapted from the round-U wc harness). Log files copied out with
`_capture_xc/collect.py` (layout kept); no line edited, reordered or dropped. The only bytes changed: this machine's
interpreter / cache home prefixes became `/home/user/.pyenv/` and `/home/user/.cache/`
(the mapping every earlier capture batch used); paths such as `/home/user/jobsV/...` are left as printed.

**Truth:** {tr}.

## Source / command
{m['source']}: {m['cmd']}

## Layout
{m['layout']}

Files: {', '.join('`' + x + '`' for x in files)}

## What was set up
{m['planted']}

## What happened
{m['happened']}

## Exit codes
{m['exits']}

## Judgement calls
{m['judgement']}

Truth notes: {t['notes']}

## Rerun
`bash _capture_xc/{name}.sh && JOBS=/home/user/jobsV bash _capture_xc/collect_all.sh && python3 _capture_xc/gen_meta_xc.py`
(new pids, ports, times).
"""
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(txt)
print("wrote", len(JOBS), "folders")
