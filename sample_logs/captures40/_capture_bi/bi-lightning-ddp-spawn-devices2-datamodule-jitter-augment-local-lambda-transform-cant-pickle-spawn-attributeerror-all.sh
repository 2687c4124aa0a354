#!/bin/bash
# python bi_pl.py --devices 2 --strategy ddp_spawn --augment jitter --progress: Lightning Trainer(accelerator="cpu",
# devices=2, strategy="ddp_spawn"), default progress bar, CSVLogger, one console. The --augment jitter option makes the
# LightningDataModule hold a train-time transform written as a local lambda; ddp_spawn must pickle the trainer,
# module and datamodule to start its worker processes (multiprocessing start method "spawn"), which fails for the lambda.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bi_prep.py --out data --shards 2 --rows 2048 > prep.log
$PY bi_pl.py --devices 2 --strategy ddp_spawn --max-epochs 3 --augment jitter --progress > console.log 2>&1
rc python $?
