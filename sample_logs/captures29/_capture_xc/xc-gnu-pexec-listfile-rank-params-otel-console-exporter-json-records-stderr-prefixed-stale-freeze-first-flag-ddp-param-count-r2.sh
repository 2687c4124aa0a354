#!/bin/bash
# GNU pexec (1.0rc8) as the launcher: `pexec -n 3 -f ranks.lst -t -e RANKARGS -c` runs one shell command per line of
# the per-rank list file (rank number + that rank's extra arguments). Each rank's stdout goes to otel/rank<R>.json
# (`-o otel/rank%s.json`, %s = the rank's whole list line, so rank 2's file is `otel/rank2 --freeze-first.json`): the trainer logs only through OpenTelemetry's LoggingHandler
# with the console exporter (one pretty-printed JSON log record per event, with resource attributes). stderr of
# all ranks is gathered into one console with a per-line `[stderr <line>]` prefix (`-u - -b`). The list file was
# copied from the linear-probe ablation and rank 2's line still carries `--freeze-first`: rank 2 builds its DDP
# model with the first layer frozen (4 trainable tensors instead of 6) and DDP's parameter check fails on all
# ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p otel
printf '0\n1\n2 --freeze-first\n' > ranks.lst
timeout -s TERM 150 nice pexec -n 3 -f ranks.lst -t -e RANKARGS -o 'otel/rank%s.json' -u - -b '[stderr %s] %l' -c -- \
  'set -- $RANKARGS; r=$1; shift; exec env RANK=$r LOCAL_RANK=$r WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29928 '"$PY"' xc_train.py --otel --epochs 2 --pg-timeout 30 "$@"' \
  > pexec.console 2>&1
rc pexec $?
