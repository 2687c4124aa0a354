#!/bin/bash
# A Ruby launcher (xc_launch.rb: Open3.popen2e per env:// rank, every rank in its own cgroup-v1 memory cgroup with
# the job spec's limit, 1 GiB) relaying all output into one file through Ruby's Logger (default format:
# `I, [ISO #pid]  INFO -- rank<R>: line`), plus its own `launcher` records. The ranks train on variable-length
# sequences padded per batch to the longest one. In rank 2's length table one document has a runaway length of
# 1,500,000 (a tokenizer run over a file without line breaks); padding that batch needs 3.1 GB and the kernel
# OOM-kills rank 2 in its cgroup. Ranks 0/1 lose the connection in the next all_reduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p data
$PY - <<'P'
import json, random
for r in range(3):
    rnd = random.Random(r); L = [rnd.randint(16, 512) for _ in range(1600)]
    if r == 2: L[1021] = 1500000
    json.dump(L, open(f"data/lengths-{r}.json", "w"))
P
echo '{"job": "xcjob-seq", "nproc": 3, "port": 29926, "mem_limit": "1G", "grace": 15, "log": "job.log"}' > jobspec.json
timeout -s TERM 150 nice ruby xc_launch.rb jobspec.json -- $PY xc_train.py --lengths 'data/lengths-{rank}.json' \
  --epochs 2 --pg-timeout 30 --fmt '%(asctime)s %(levelname)s %(name)s r{rank}: %(message)s' > launcher.console 2>&1
rc launcher $?
