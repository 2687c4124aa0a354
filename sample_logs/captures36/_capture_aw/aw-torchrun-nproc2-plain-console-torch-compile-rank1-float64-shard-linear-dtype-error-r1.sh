#!/bin/bash
# torchrun --standalone --nproc-per-node 2, plain console (no --log-dir / --tee), torch.compile(DDP(model)) with the
# default inductor backend. Rank 1's shard was re-exported with float64 features (the others float32): the first
# batch on rank 1 fails in the compiled DDP forward (F.linear on a float64 input with float32 weights: "mat1 and mat2
# must have the same dtype"); rank 0, in the DDP allreduce, sees the connection to rank 1 close.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY aw_prep.py --out data --shards 2 --rows 256 --f64-shard 1 > prep.log
torchrun --standalone --nproc-per-node 2 aw_train.py --data data --epochs 3 --compile --pg-timeout 60 > console.log 2>&1
rc torchrun $?
