#!/bin/sh
# Per-rank log files the way many users get them under torchrun:
#   torchrun --no-python ... sh per_rank.sh <train args>
# Every worker redirects its own stdout+stderr to $RANK_LOG_DIR/rank$RANK.log.
mkdir -p "$RANK_LOG_DIR"
exec "$PYTHON" "$TRAIN_PY" "$@" > "$RANK_LOG_DIR/rank${RANK}.log" 2>&1
