#!/bin/bash
# Python launcher (qc_pipe_launch.py): 3 env:// ranks via subprocess.Popen, stdout to out/rank<R>.txt, stderr to a
# pipe the launcher only drains with communicate() rank by rank (rank 0 first), reporting the last 40 stderr lines of
# each rank into launcher.log at the end. Rank 1's shard has NaN features in some rows; the trainer fixes them up and
# writes one warning line per affected row to stderr. Process-group timeout 20 s.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p out
timeout -s TERM 150 nice $PY qc_pipe_launch.py 3 $PY qc_train.py --rows 3000 --epochs 2 --nan-rows-rank 1 --pg-timeout 20
rc launcher $?
