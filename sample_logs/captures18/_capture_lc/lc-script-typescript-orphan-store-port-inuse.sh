#!/bin/bash
# Console captured with util-linux `script -q -f typescript.log -c "torchrun ..."` (a typescript of the operator's
# terminal: \r\n line ends, script's header/trailer lines). torchrun --nnodes 1 --nproc-per-node 2 --master-addr
# 127.0.0.1 --master-port 29500 (the static rendezvous, the agent hosts the TCPStore on the master port).
# Planted: an orphaned TCPStore server of an earlier run (a `python` left behind holding 127.0.0.1:29500) still runs.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY -c "import datetime, time, torch.distributed as d; s = d.TCPStore('127.0.0.1', 29500, 1, True, timeout=datetime.timedelta(seconds=300)); time.sleep(120)" > orphan.out 2>&1 &
orphan=$!
sleep 6
export LOGLEVEL=INFO
timeout -s TERM 120 nice script -q -f typescript.log -c "torchrun --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29500 lc_train.py --steps 10 --pg-timeout 30" > /dev/null 2>&1
rc script $?
kill $orphan
