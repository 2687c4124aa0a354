#!/bin/bash
# GNU parallel --tag --line-buffer launching 3 ranks from a job table (ranks.tsv: rank, model config); every output
# line is prefixed with the job's arguments (`0<TAB>configs/base.json<TAB>`). MASTER_ADDR/PORT exported by the script.
# asctime logging on stderr (parallel merges stderr lines with the same tag). console.log = all of parallel's output.
# Planted: rank 1's row in ranks.tsv still points at the layernorm ablation config (configs/ablation-ln.json,
# "layernorm": true) left from an earlier sweep; ranks 0 and 2 use configs/base.json. DDP's constructor checks the
# parameter tensors across ranks.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p configs
echo '{"hidden": 32, "layernorm": false}' > configs/base.json
echo '{"hidden": 32, "layernorm": true}' > configs/ablation-ln.json
printf '0\tconfigs/base.json\n1\tconfigs/ablation-ln.json\n2\tconfigs/base.json\n' > ranks.tsv
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29731 WORLD_SIZE=3
timeout -s TERM 90 nice parallel --tag --line-buffer -j3 --colsep '\t' \
  'RANK={1} LOCAL_RANK={1} exec python ia_train.py --steps 10 --pg-timeout 30 --config {2}' :::: ranks.tsv \
  > console.log 2>&1
rc parallel $?
