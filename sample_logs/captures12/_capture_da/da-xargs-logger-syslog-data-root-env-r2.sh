#!/bin/bash
# xargs -P 3 as the launcher (one rank per line of ranks.txt); each rank sources its own env file env/rank<R>.sh and
# pipes its stdout+stderr through util-linux `logger -n 127.0.0.1 -P 5514 -d --rfc3164 -t train-rank<R>` to a UDP
# syslog collector (da_syslogd.py) that writes one shared file, syslog/train.log ('<13>Mon DD HH:MM:SS vm
# train-rankR: line'). Workers print bare '%(levelname)s %(message)s'. env:// rendezvous on 127.0.0.1:29661.
# Planted: rank 2's env file still exports the old dataset location DA_DATA_ROOT=/mnt/datasets-v1/shards (ranks 0, 1:
# $J/data, which holds manifest.txt).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p env data syslog
printf 'shard-%05d.tar\n' 0 1 2 3 > data/manifest.txt
for R in 0 1 2; do echo "export DA_DATA_ROOT=$J/data" > env/rank$R.sh; done
echo "export DA_DATA_ROOT=/mnt/datasets-v1/shards" > env/rank2.sh
printf '0\n1\n2\n' > ranks.txt
$PY da_syslogd.py 5514 syslog/train.log & D=$!
sleep 1
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29661 WORLD_SIZE=3
timeout -s TERM 90 xargs -P 3 -L 1 sh -c '. env/rank$0.sh; RANK=$0 exec nice '$PY' da_train.py --steps 10 \
  --pg-timeout 30 --log-style plain --fault data_root 2>&1 | logger -n 127.0.0.1 -P 5514 -d --rfc3164 -t train-rank$0' < ranks.txt
rc launcher $?
sleep 1; kill $D
