#!/bin/bash
# python -m torch.distributed.run --standalone --nproc-per-node 2 --redirects 3 --log-dir logs bx_train.py
# --log-format logfmt --mine-hard 2.0: 2 ranks, DDP over gloo, structlog-style key=value lines on stderr (into the
# per-rank files). Each rank keeps a 256x256 feature map of every sample whose loss exceeds 2.0 for a later
# hard-example report. Rank 1's shard has 40% flipped labels, so it stores hundreds of maps a second; the node's memory
# watchdog (bx_memwatch.sh, limit 900 MiB, log memwatch.log) SIGKILLs it.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bx_prep.py --out data --shards 2 --rows 1024 --label-noise-shard 1 > prep.log
bash bx_memwatch.sh "bx_train.py --data" 900 memwatch.log & W=$!
python -m torch.distributed.run --standalone --nproc-per-node 2 --redirects 3 --log-dir logs bx_train.py --data data \
  --log-format logfmt --hidden 256 --epochs 40 --log-every 16 --mine-hard 2.0 --step-sleep 0.01 --pg-timeout 30 > console.log 2>&1
rc torchrun $?
sleep 1; kill $W; wait $W 2>/dev/null
