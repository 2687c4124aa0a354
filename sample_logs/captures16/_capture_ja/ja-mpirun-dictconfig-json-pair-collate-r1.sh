#!/bin/bash
# mpirun -np 3 (Open MPI, no --tag-output, stderr merged) starting `bash -c 'export RANK=$OMPI_COMM_WORLD_RANK ...;
# exec python ja_train.py'`; gloo env:// init. Logging via logging.config.dictConfig(logging.json): one JSON object
# per record on stderr (console.log) and in logs/rank<R>.jsonl.
# Data: per-rank pair shards data/pairs-<R>.pt, DataLoader(batch 16, collate_fn=pair_collate: reshape(-1, 2, 16)).
# Planted: after dedup rank 1's shard has 57 samples (ranks 0/2: 64): its last batch of each epoch has 9 samples, an
# odd count the pairing collate cannot reshape.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE"/logging.json .
$PY make_pairs.py 64,57,64
timeout -s TERM 120 nice mpirun --allow-run-as-root --oversubscribe --merge-stderr-to-stdout -np 3 \
  -x PYTHONUNBUFFERED -x OMP_NUM_THREADS -x PATH -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29856 -x WORLD_SIZE=3 \
  bash -c 'export RANK=$OMPI_COMM_WORLD_RANK LOCAL_RANK=$OMPI_COMM_WORLD_LOCAL_RANK; exec python ja_train.py \
  --log-style json --data pairs --epochs 3 --steps 12 --pg-timeout 20' > console.log 2>&1
rc mpirun $?
