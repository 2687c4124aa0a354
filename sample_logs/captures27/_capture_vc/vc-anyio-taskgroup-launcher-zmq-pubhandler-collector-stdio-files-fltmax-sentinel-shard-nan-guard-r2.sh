#!/bin/bash
# anyio launcher (vc_anyio_launch.py, task group, one open_process per env:// rank, stdio/rank<R>.out|.err, launcher
# records in launcher.log with syslog-style stamps); the ranks log only through a pyzmq PUBHandler (topic
# train.r<R>.<LEVEL>) to a SUB collector writing zmqlog.txt. 3 ranks, .npy shards; rank 2's shard has 4 rows whose
# features 5, 9, 11 are FLT_MAX (an exporter's missing-value sentinel). The trainer's guard stops on a non-finite loss.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY vc_make_shards.py data 3 1200 --sentinel 2 4
$PY vc_zmq_collector.py tcp://127.0.0.1:5599 zmqlog.txt & CPID=$!
sleep 1
timeout -s TERM 150 nice $PY vc_anyio_launch.py --nproc 3 --port 29902 --grace 8 -- \
  $PY vc_train.py --shard-dir data --nan-guard --epochs 2 --pg-timeout 30 --zmq-log tcp://127.0.0.1:5599 \
  --fmt '%(asctime)s %(levelname)s %(name)s rank{rank}: %(message)s'
rc launcher $?
sleep 1; kill $CPID
