#!/usr/bin/env python3
"""check_truths.py [BATCH]: in every scenario folder of BATCH (default: the current folder; a
folder holding a truth.json), each truth's first_deviating.contains and collateral contains must
be a substring of a line of the scenario's log files (every file but README.md, truth.json and
.correlatorignore), and its category one of the vocabulary. Prints each string's lines and files;
exit 1 on a miss. Shared by the capture and collection batches (captures9 onwards, heldout11)."""
import json
import os
import sys

CATEGORIES = {"config_error", "nccl_timeout_hang", "oom", "data_error", "storage_io", "version_mismatch",
              "collective_mismatch", "nan_divergence", "rendezvous", "killed_by_scheduler", "code_exception",
              "other", "nccl_network", "hardware_xid"}
NOT_LOGS = {"README.md", "truth.json", ".correlatorignore"}

batch = sys.argv[1] if len(sys.argv) > 1 else "."
bad = False
for name in sorted(os.listdir(batch)):
    d = os.path.join(batch, name)
    if not os.path.isfile(os.path.join(d, "truth.json")):
        continue
    with open(os.path.join(d, "truth.json"), encoding="utf-8") as fh:
        t = json.load(fh)
    category = (t.get("root_cause") or {}).get("category")
    if category is not None and category not in CATEGORIES:
        print(f"{name}: unknown category {category!r}")
        bad = True
    lines = []
    for r, _, fs in os.walk(d):
        for f in fs:
            if f in NOT_LOGS:
                continue
            p = os.path.join(r, f)
            with open(p, encoding="utf-8", errors="replace") as fh:
                lines += [(os.path.relpath(p, d), ln) for ln in fh]
    subs = [("first_deviating", (t.get("first_deviating") or {}).get("contains"))]
    subs += [("collateral", c["contains"]) for c in t.get("collateral") or []]
    for kind, s in subs:
        if s is None:
            continue
        hits = [f for f, ln in lines if s in ln]
        print(f"{name}: {kind} {'OK' if hits else 'MISSING'} ({len(hits)} lines, {len(set(hits))} files) {s[:70]!r}")
        bad |= not hits
print("ALL OK" if not bad else "MISSES")
sys.exit(int(bad))
