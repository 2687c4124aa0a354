#!/bin/bash
# Lightning Trainer(accelerator="cpu", devices=3, strategy=DDPStrategy()) started with plain `python` (Lightning
# re-launches the script for ranks 1 and 2), progress bar off, one console. Each rank reads its own directory of text
# records (one file per sample, "f1 ... f16|label", decoded as utf-8) through a DataLoader with 2 worker processes.
# One of rank 1's record files was re-saved by a tool that wrote latin-1 (a 0xb5 "micro" sign inside the feature text):
# when a worker of rank 1 decodes it, it raises UnicodeDecodeError ("Caught UnicodeDecodeError in DataLoader worker
# process N"); rank 1 dies and Lightning's child-process observer terminates the others.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY ba_prep.py --out data --shards 3 --rows 320 > prep.log
$PY - <<'PY'
import numpy as np, os
for r in range(3):
    d = np.load(f"data/shard_{r:02d}.npz"); os.makedirs(f"data/rank_{r:02d}")
    for i, (x, y) in enumerate(zip(d["x"], d["y"])):
        with open(f"data/rank_{r:02d}/{i:06d}.rec", "w", encoding="utf-8") as f:
            f.write(" ".join(f"{v:.5f}" for v in x) + f"|{y}\n")
with open("data/rank_01/000219.rec", "rb") as f:
    b = f.read()
with open("data/rank_01/000219.rec", "wb") as f:
    f.write(b[:20] + b"\xb5" + b[20:])
PY
python ba_pl.py --data data --devices 3 --records --num-workers 2 --max-epochs 4 --pg-timeout 60 > console.log 2>&1
rc python $?
