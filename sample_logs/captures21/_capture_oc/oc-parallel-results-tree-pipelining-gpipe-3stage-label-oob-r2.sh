#!/bin/bash
# GNU parallel as the launcher: `parallel --results res -j 3 --line-buffer` starts one process per pipeline stage
# (RANK from the argument, env:// rendezvous); parallel keeps each job's output in res/1/<rank>/stdout and stderr
# (its --results tree) and also prints it, so console.log has the interleaved output.
# Job: 3-stage torch.distributed.pipelining ScheduleGPipe classifier on gloo; the last stage (rank 2) reads labels.
# Planted: the label file was merged with a relabelled export: row 5601 carries class id 10 (the head has 10
# classes 0..9); it falls in step 87's batch (of 120).
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY oc_make_pipe_data.py data 8000 5601:10
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29823 WORLD_SIZE=3 GLOO_SOCKET_IFNAME=lo
timeout -s TERM 150 nice parallel --results res -j 3 --line-buffer 'RANK={} exec python oc_pipe_stages.py data 120' ::: 0 1 2 > console.log 2>&1
rc parallel $?
