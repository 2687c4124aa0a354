#!/usr/bin/env python3
"""mc_make_text_jsonl.py OUT_DIR [--bad-eval-label IDX:LAB]: data/train.jsonl (1280 docs) and data/eval.jsonl (256
docs) of token-id documents {"ids": [...], "label": 0..3}. --bad-eval-label: eval record IDX gets label LAB."""
import argparse, json, os
import numpy as np
p = argparse.ArgumentParser(); p.add_argument("out"); p.add_argument("--bad-eval-label", default=None)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rng = np.random.default_rng(5)
for name, n_docs in (("train", 1280), ("eval", 256)):
    with open(f"{a.out}/{name}.jsonl", "w") as f:
        for i in range(n_docs):
            n = int(rng.integers(20, 120)); lab = int(rng.integers(0, 4))
            ids = (rng.integers(1, 1200, n) + lab * 1000).tolist()
            if name == "eval" and a.bad_eval_label and int(a.bad_eval_label.split(":")[0]) == i:
                lab = int(a.bad_eval_label.split(":")[1])
            f.write(json.dumps({"ids": ids, "label": lab}) + "\n")
    print(f"{a.out}/{name}.jsonl: {n_docs} records")
