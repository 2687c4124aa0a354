"""Build the toy dataset: per-rank shards shard_XX.npz (features, int labels) + val.npz; variants per shard."""
import argparse, json, os
import numpy as np
p = argparse.ArgumentParser()
p.add_argument("--out", required=True)
p.add_argument("--shards", type=int, default=4)
p.add_argument("--rows", type=int, default=512)
p.add_argument("--features", type=int, default=16)
p.add_argument("--rows-shard", default="")           # "S:N": shard S has N rows
p.add_argument("--drop-class-shard", type=int, default=-1)   # shard S filtered to rows whose label is not 3
p.add_argument("--label-noise-shard", type=int, default=-1)  # shard S with 40% of its labels flipped
p.add_argument("--sampledir-shard", type=int, default=-1)    # shard S exported as one .npy file per sample
p.add_argument("--jsonl", action="store_true")               # write shards as JSON-lines records instead of npz
p.add_argument("--cut-record", default="")                   # "S:I": record I of shard S cut short (jsonl)
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rng = np.random.default_rng(0)
w = rng.normal(size=(a.features, 4))
rows = {int(k): int(v) for k, v in [a.rows_shard.split(":")]} if a.rows_shard else {}
for s in range(a.shards):
    n = rows.get(s, a.rows)
    x = rng.normal(size=(n * 2 if s == a.drop_class_shard else n, a.features)).astype(np.float32)
    y = (x @ w).argmax(1).astype(np.int64)
    if s == a.drop_class_shard:
        k = y != 3; x, y = x[k][:n], y[k][:n]
    if s == a.label_noise_shard:
        m = rng.random(len(y)) < 0.4; y[m] = (y[m] + rng.integers(1, 4, m.sum())) % 4
    if s == a.sampledir_shard:
        d = os.path.join(a.out, f"shard_{s:02d}"); os.makedirs(d, exist_ok=True)
        for i in range(len(y)):
            np.save(os.path.join(d, f"sample_{i:06d}.npy"), np.concatenate([x[i], [y[i]]]).astype(np.float32))
    elif a.jsonl:
        cut = [int(v) for v in a.cut_record.split(":")] if a.cut_record else [-1, -1]
        with open(os.path.join(a.out, f"shard_{s:02d}.jsonl"), "w") as f:
            for i in range(len(y)):
                line = json.dumps({"id": f"{s:02d}-{i:06d}", "x": [round(float(v), 5) for v in x[i]], "y": int(y[i])})
                if [s, i] == cut:
                    line = line[:len(line) // 2]
                f.write(line + "\n")
    else:
        np.savez(os.path.join(a.out, f"shard_{s:02d}.npz"), x=x, y=y)
xv = rng.normal(size=(128, a.features)).astype(np.float32)
np.savez(os.path.join(a.out, "val.npz"), x=xv, y=(xv @ w).argmax(1).astype(np.int64))
print(f"wrote {a.shards} shards to {a.out}")
