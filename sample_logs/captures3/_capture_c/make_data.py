"""Write the .npy sample directory read by spawn_train.py (and its injected data faults).

  --bad-label-index I   labels[I] = 10 (the model has 10 classes: valid labels 0..9)
  --corrupt-index I     sample_I.npy is cut to its first 100 bytes (a partial copy)
  --inf-index I         sample_I.npy holds 1e39 (inf in float32) in every feature
With a DistributedSampler without shuffle, index I goes to rank I % world,
in batch (I // world) // batch_size of the epoch.
"""
import argparse
import os

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--n", type=int, default=144)
p.add_argument("--bad-label-index", type=int, default=None)
p.add_argument("--corrupt-index", type=int, default=None)
p.add_argument("--inf-index", type=int, default=None)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rng = np.random.default_rng(0)
labels = rng.integers(0, 10, size=a.n)
if a.bad_label_index is not None:
    labels[a.bad_label_index] = 10
np.save(os.path.join(a.out, "labels.npy"), labels)
for i in range(a.n):
    x = rng.standard_normal(16).astype(np.float64)
    if a.inf_index == i:
        x[:] = 1e39
    path = os.path.join(a.out, f"sample_{i:05d}.npy")
    np.save(path, x)
    if a.corrupt_index == i:
        with open(path, "rb") as f:
            head = f.read(100)
        with open(path, "wb") as f:
            f.write(head)
