#!/bin/bash
# Lightning Trainer(strategy="ddp", accelerator="cpu", devices=3): Lightning re-launches the script for ranks 1-2;
# one console. Shard 1 has a constant feature column (stuck sensor) and the data module standardises per shard
# -> 0/0 = NaN features on rank 1 -> its NaN guard raises FloatingPointError at the first step; peers fail in the
# DDP allreduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY am_prep.py --out data --shards 3 --rows 256 --const-col-shard 1 > prep.log
export MASTER_PORT=29544
$PY am_pl.py --data data --devices 3 --max-epochs 3 --normalize shard --nan-guard > console.log 2>&1
rc train $?
