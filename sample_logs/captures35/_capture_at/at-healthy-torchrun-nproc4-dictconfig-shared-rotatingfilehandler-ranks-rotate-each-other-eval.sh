#!/bin/bash
# torchrun --standalone --nproc-per-node 4 (no --log-dir / --tee: the console holds the agent's lines and whatever
# the workers write to stderr). The trainer configures logging from at_logging.yaml (logging.config.dictConfig):
# every rank logs INFO to the SAME logs/train.log through its own RotatingFileHandler (maxBytes 4096, backupCount 5),
# WARNING+ to stderr. Each rank rotates the file when its own handler sees it full, so the ranks rename the file under
# each other (a rank keeps writing into the renamed train.log.N until it rotates itself). The run trains 3 epochs,
# evaluates and finishes normally.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY at_prep.py --out data --shards 4 --rows 256 > prep.log
mkdir -p logs
torchrun --standalone --nproc-per-node 4 at_train.py --data data --epochs 3 --log-config at_logging.yaml --eval \
  --ckpt ckpt --pg-timeout 60 > console.log 2>&1
rc torchrun $?
