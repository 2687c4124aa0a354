#!/bin/bash
# mpirun -np 3 (no tagging); logging.basicConfig() defaults (`INFO:ga.train:msg`); console.log = mpirun's output.
# mpirun's stdin is a FIFO held open by a sleeping writer (as a terminal that nobody types into): Open MPI forwards
# stdin to rank 0 only. Planted: the output directory out/ already holds a previous run's files, so rank 0 asks
# `Overwrite? [y/N]` with input() and waits; ranks 1, 2 wait in a barrier (process-group timeout 20 s).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p out && echo '{"step": 40, "val_acc": 0.61}' > out/metrics.json
mkfifo stdin.fifo
(sleep 150 > stdin.fifo) & holder=$!
timeout -s TERM 90 nice /usr/bin/mpirun --allow-run-as-root --oversubscribe -np 3 \
  -x MASTER_ADDR=127.0.0.1 -x MASTER_PORT=29821 -x PYTHONUNBUFFERED=1 -x OMP_NUM_THREADS=1 \
  $PY ga_train.py --steps 10 --pg-timeout 20 --log-style basic --out-dir out < stdin.fifo > console.log 2>&1
rc launcher $?
kill $holder 2>/dev/null; rm -f stdin.fifo
