"""Precompute per-rank feature tensors (standardised features + labels) into --out/features_rank{r}.pt."""
import argparse, os
import numpy as np, torch
p = argparse.ArgumentParser(); p.add_argument("--data", default="data"); p.add_argument("--out", default="cache")
p.add_argument("--ranks", type=int, default=4)
a = p.parse_args(); os.makedirs(a.out, exist_ok=True)
for r in range(a.ranks):
    d = np.load(os.path.join(a.data, f"shard_{r:02d}.npz"))
    x = torch.from_numpy(d["x"]); x = (x - x.mean(0)) / x.std(0)
    torch.save({"x": x, "y": torch.from_numpy(d["y"])}, os.path.join(a.out, f"features_rank{r}.pt"))
    print(f"features_rank{r}.pt: {tuple(x.shape)}")
