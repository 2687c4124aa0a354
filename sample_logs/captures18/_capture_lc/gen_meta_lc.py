#!/usr/bin/env python3
"""gen_meta_lc.py: write README.md, truth.json, .correlatorignore into each roundJ lc-* folder and README-lc.md."""
import json, os
from jobs_meta_lc import ENV, JOBS

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

Captured for real on this machine on 2026-12-06 (collector `lc`, round J): {ENV}. The job ran from
`_capture_lc/{name}.sh` in the scratch dir `/home/user/jobsJ/{name}/` with `/home/user/venv`, under `nice` and a
`timeout`, in a private network namespace (loopback only, no resolver) and mount namespace (`unshare -n -m`,
`_capture_lc/common.sh`, adapted from the round-I kc harness). Log files copied out byte for byte with
`_capture_lc/collect.py` (layout kept); no line edited, nothing masked, paths such as `/home/user/jobsJ/...` left as
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
`bash _capture_lc/{name}.sh && bash _capture_lc/collect_all.sh && python3 _capture_lc/gen_meta_lc.py` (new pids,
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
with open(os.path.join(OUT, "README-lc.md"), "w") as f:
    f.write(f"""# Collector `lc` (round J, 2026-12-06): {len(JOBS)} real multi-process jobs captured on this machine

All jobs were run for real on host `vm` (2 cores, CPU only, torch 2.13.0+cpu with gloo, `/home/user/venv`), one at a
time, each in private network + mount namespaces (`unshare -n -m`, loopback only) under `nice` and a `timeout`,
scratch dirs `/home/user/jobsJ/<name>/`. Scripts: `_capture_lc/` (`common.sh`, one `lc-*.sh` per job, `lc_train.py`,
`lc_hydra.py` + `conf/config.yaml`, `lc_ignite.py`, `lc_syslogd.py`, data makers `lc_make_data.py` / `lc_make_jsonl.py`,
`run_all.sh`; `collect.py` /
`collect_all.sh` copy the logs byte for byte, `gen_meta_lc.py` + `jobs_meta_lc.py` write README.md / truth.json /
.correlatorignore). No log line was edited or masked.

| folder | launcher / layout | status / category (initiator) |
|---|---|---|
""" + "\n".join(rows) + f"""

Counts: {st.count('failed')} failed, {st.count('healthy')} healthy, {st.count('inconclusive')} inconclusive.

Notes: `lc_train.py` was edited twice during the session without changing its line count: the checkpoint retry
catches `(OSError, RuntimeError)` (before: `OSError`; only the tmux job uses retries, it ran with the new line) and
the fast-decode path wraps `torch.frombuffer` in `torch.tensor(...)` (only the worker-segv job uses it, it ran with
the new line). Each job's scratch dir holds the exact copy it ran. Discarded attempts (not kept as incidents): a first
c10d three-agent run whose node names did not resolve (fixed with a hosts file), a first ulimit run whose limit was
large enough for the job to finish, a first worker-segv run that crashed before the warning flood, and two tmux runs
that did not end healthy (retry caught only OSError; then a tmpfs too small for the last checkpoint).
""")
print("written", len(JOBS))
