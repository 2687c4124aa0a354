#!/bin/bash
# xargs -P 2 as the launcher: one line per rank in ranks.txt ('<rank> <code dir>'), each rank's stdout+stderr piped
# through a ts(1)-style stamping filter (awk strftime, 'Mon DD HH:MM:SS ' prefix) into logs/rank<R>.log; the worker
# prints bare '%(levelname)s %(message)s' lines. env:// rendezvous on 127.0.0.1:29651, 2 ranks.
# Planted: rank 1's line names the stale code copy checkout-r1/ (dacfg 2.2.1, no AugmentConfig); rank 0 runs
# checkout-r0/ (dacfg 2.3.0). Rank 0 broadcasts its TrainConfig object (broadcast_object_list, pickled by reference).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs checkout-r0 checkout-r1
cp da_train.py checkout-r0/; cp da_train.py checkout-r1/
cp "$HERE"/cfg-current/dacfg.py checkout-r0/; cp "$HERE"/cfg-stale/dacfg.py checkout-r1/
printf '0 checkout-r0\n1 checkout-r1\n' > ranks.txt
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29651 WORLD_SIZE=2
timeout -s TERM 90 xargs -P 2 -L 1 sh -c 'cd $1 && RANK=$0 PYTHONPATH=. exec nice '$PY' da_train.py --steps 10 \
  --pg-timeout 30 --log-style plain --fault cfg_pickle 2>&1 | awk -W interactive "{ print strftime(\"%b %d %H:%M:%S\"), \$0 }" \
  > ../logs/rank$0.log' < ranks.txt
rc launcher $?
