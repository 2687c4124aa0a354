#!/bin/bash
# nohup'd background torchrun x2 (stdout+stderr of agent and workers into train_20261205.out), script waits on it.
# Each rank reads JSON-lines records (data/shard-{R}.jsonl) through a DataLoader with 2 worker processes;
# record 21 of rank 0's shard is truncated (a partial write) -> JSONDecodeError in rank 0's DataLoader worker.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY - <<'PY'
import json, os, random
os.makedirs("data", exist_ok=True)
for r in range(2):
    rnd = random.Random(r)
    with open(f"data/shard-{r}.jsonl", "w") as f:
        for i in range(120):
            line = json.dumps({"id": f"s{r}-{i:05d}", "x": [round(rnd.gauss(0, 1), 4) for _ in range(16)], "y": rnd.randrange(4)})
            if r == 0 and i == 21:
                line = line[:57]
            f.write(line + "\n")
PY
nohup nice $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29917 x_train.py --data data \
  --steps 10 --pg-timeout 30 > train_20261205.out 2>&1 &
wait $!; rc launcher $?
