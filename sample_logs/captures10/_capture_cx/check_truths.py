#!/usr/bin/env python3
"""check_truths.py [OUT]: every truth's first_deviating.contains and collateral contains must be a substring of a
line of the job's log files (everything but README.md, truth.json, .correlatorignore); for collateral, print
which files hold it. Exit 1 on a miss."""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "sample_logs/captures10"
bad = 0
for name in sorted(os.listdir(OUT)):
    d = os.path.join(OUT, name)
    if not name.startswith("cx-") or not os.path.isdir(d):
        continue
    t = json.load(open(os.path.join(d, "truth.json")))
    lines = []
    for r, _, fs in os.walk(d):
        for f in fs:
            if f in ("README.md", "truth.json", ".correlatorignore"):
                continue
            p = os.path.join(r, f)
            for ln in open(p, encoding="utf-8", errors="replace"):
                lines.append((os.path.relpath(p, d), ln))
    subs = [("first_deviating", t["first_deviating"]["contains"])] + [("collateral", c["contains"]) for c in t["collateral"]]
    for kind, s in subs:
        if s is None:
            continue
        hits = [f for f, ln in lines if s in ln]
        print(f"{name}: {kind} {'OK' if hits else 'MISSING'} ({len(hits)} lines, {len(set(hits))} files) {s[:70]!r}")
        bad |= not hits
print("ALL OK" if not bad else "MISSES")
sys.exit(bad)
