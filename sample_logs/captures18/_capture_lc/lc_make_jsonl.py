#!/usr/bin/env python3
"""lc_make_jsonl.py OUT NRANKS [--short R:I]: per-rank JSON-lines data OUT/part-<r>.jsonl (160 records of 24
features, 6 classes); --short R:I drops the last feature of record I of rank R (a row cut by the exporter)."""
import argparse, json, os
import numpy as np
p = argparse.ArgumentParser(); p.add_argument("out"); p.add_argument("nranks", type=int); p.add_argument("--short")
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
w = np.linspace(-1, 1, 144).reshape(24, 6)
for r in range(a.nranks):
    x = np.random.default_rng(r).standard_normal((160, 24)).round(4)
    y = (x @ w).argmax(1)
    with open(f"{a.out}/part-{r}.jsonl", "w") as f:
        for i in range(160):
            xi = x[i].tolist()
            if a.short == f"{r}:{i}":
                xi = xi[:-1]
            f.write(json.dumps({"x": xi, "y": int(y[i])}) + "\n")
    print(f"{a.out}/part-{r}.jsonl")
