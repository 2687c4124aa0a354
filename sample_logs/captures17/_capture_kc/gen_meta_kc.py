#!/usr/bin/env python3
"""gen_meta_kc.py: write README.md, truth.json, .correlatorignore into each roundI kc-* folder and README-kc.md."""
import json, os
from jobs_meta_kc import ENV, JOBS

H = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(H)
rows = []
for name, m in JOBS.items():
    d = os.path.join(OUT, name)
    t = m["truth"]
    with open(os.path.join(d, "truth.json"), "w") as f:
        json.dump(t, f, indent=2, ensure_ascii=False); f.write("\n")
    with open(os.path.join(d, ".correlatorignore"), "w") as f:
        f.write("README.md\ntruth.json\n.correlatorignore\n")
    ini = t["initiating"]
    tr = (f"{t['status']}; initiating kind `{ini['kind']}`, rank {ini['rank']}, node {ini['node']}, all_ranks "
          f"{ini['all_ranks']}; category `{t['root_cause']['category']}`")
    files = sorted(os.path.relpath(os.path.join(r, x), d) for r, _, fs in os.walk(d) for x in fs
                   if x not in ("README.md", "truth.json", ".correlatorignore"))
    txt = f"""# {name}

Captured for real on this machine on 2026-12-06 (collector `kc`, round I): {ENV}. The job ran from
`_capture_kc/{name}.sh` in the scratch dir `/home/user/jobsI/{name}/` with `/home/user/venv`, under `nice` and a
`timeout`, in a private network namespace (loopback only, no resolver) and mount namespace (`unshare -n -m`,
`_capture_kc/common.sh`, adapted from the round-H harness). Log files copied out byte for byte with
`_capture_kc/collect.py` (layout kept); no line edited, nothing masked, paths such as `/home/user/jobsI/...` left as
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
`bash _capture_kc/{name}.sh && bash _capture_kc/collect_all.sh && python3 _capture_kc/gen_meta_kc.py` (new pids,
ports, times; the truth strings name pids/ports of this capture).
"""
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write(txt)
    cat = t["root_cause"]["category"] or ""
    who = ini["node"] or (f"rank {ini['rank']}" if ini["rank"] is not None else ini["kind"])
    if ini["kind"] == "external":
        who = f"external, {who}"
    rows.append(f"| {name} | {m['source']} | {t['status']} / {cat} ({who}) |" if cat else
                f"| {name} | {m['source']} | {t['status']} |")
st = [j["truth"]["status"] for j in JOBS.values()]
with open(os.path.join(OUT, "README-kc.md"), "w") as f:
    f.write(f"""# Collector `kc` (round I, 2026-12-06): {len(JOBS)} real multi-process jobs captured on this machine

All jobs were run for real on host `vm` (2 cores, CPU only, torch 2.13.0+cpu with gloo, `/home/user/venv`), one at a
time, each in private network + mount namespaces (`unshare -n -m`, loopback only) under `nice` and a `timeout`,
scratch dirs `/home/user/jobsI/<name>/`. Scripts: `_capture_kc/` (`common.sh`, one `kc-*.sh` per job, `kc_train.py`,
`kc_lit.py`, `kc_lit_fit.py`, `kc_hf.py`, `kc_fabric.py`, `kc_submitit.py`, data makers, `kctok.c`; `collect.py` /
`collect_all.sh` copy the logs byte for byte, `gen_meta_kc.py` + `jobs_meta_kc.py` write README.md / truth.json /
.correlatorignore). No log line was edited or masked.

| folder | launcher / layout | status / category (initiator) |
|---|---|---|
""" + "\n".join(rows) + f"""

Counts: {st.count('failed')} failed, {st.count('healthy')} healthy, {st.count('inconclusive')} inconclusive.
""")
print("written", len(JOBS))
