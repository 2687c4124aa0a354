#!/bin/bash
# python bh_pretrain.py: a short pre-training script that calls torch.multiprocessing.spawn(nprocs=3) at module level,
# without an `if __name__ == "__main__":` guard. Spawned children re-import the main module (spawn start method),
# reach mp.spawn again during their bootstrap and raise multiprocessing's RuntimeError; the parent reports it.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 3 --rows 1024 > prep.log
NPROCS=3 STEPS=150 $PY bh_pretrain.py > console.log 2>&1
rc python $?
