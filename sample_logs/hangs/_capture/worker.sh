#!/bin/sh
# torchrun --no-python sh worker.sh ARGS: each worker's stdout+stderr -> worker-$RANK.log
exec "$PYTHON" train.py "$@" > "worker-${RANK}.log" 2>&1
