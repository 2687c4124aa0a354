#!/bin/bash
# supervisord as the site launcher (nodaemon, one [program:rankR] per rank with its own environment= line and its
# own stdout / stderr log files under logs/, supervisord's own log logs/supervisord.log); a shell watcher asks
# `supervisorctl status` every 2 s and shuts supervisord down once no program is STARTING / RUNNING.
# Job: FSDP2 `fully_shard` (per block + root) over a 1-D DeviceMesh on CPU / gloo, env:// rendezvous.
# Planted: the rank1 program's environment= line still carries MODEL_D_FF="640" (left over from an ablation), so rank 1
# builds blocks with d_ff 640 instead of configs/model.json's 512.
. "$(dirname "$(readlink -f "$0")")/common.sh"
ulimit -c 0
mkdir -p logs run configs
echo '{"d_model": 128, "d_ff": 512, "n_layers": 4}' > configs/model.json
cat > supervisord.conf <<EOC
[unix_http_server]
file=$J/run/supervisor.sock

[supervisorctl]
serverurl=unix://$J/run/supervisor.sock

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisord]
nodaemon=true
logfile=$J/logs/supervisord.log
pidfile=$J/run/supervisord.pid
childlogdir=$J/logs
loglevel=info

[program:rank0]
command=$PY oc_fsdp2.py
directory=$J
environment=RANK="0",WORLD_SIZE="3",MASTER_ADDR="127.0.0.1",MASTER_PORT="29851",STEPS="80"
stdout_logfile=$J/logs/rank0.out
stderr_logfile=$J/logs/rank0.err
autostart=true
autorestart=false
startsecs=2

[program:rank1]
command=$PY oc_fsdp2.py
directory=$J
environment=RANK="1",WORLD_SIZE="3",MASTER_ADDR="127.0.0.1",MASTER_PORT="29851",STEPS="80",MODEL_D_FF="640"
stdout_logfile=$J/logs/rank1.out
stderr_logfile=$J/logs/rank1.err
autostart=true
autorestart=false
startsecs=2

[program:rank2]
command=$PY oc_fsdp2.py
directory=$J
environment=RANK="2",WORLD_SIZE="3",MASTER_ADDR="127.0.0.1",MASTER_PORT="29851",STEPS="80"
stdout_logfile=$J/logs/rank2.out
stderr_logfile=$J/logs/rank2.err
autostart=true
autorestart=false
startsecs=2
EOC
( sleep 6; while supervisorctl -c supervisord.conf status | grep -qE 'RUNNING|STARTING'; do sleep 2; done
  supervisorctl -c supervisord.conf status; supervisorctl -c supervisord.conf shutdown ) > watcher.txt 2>&1 &
timeout -s TERM 150 nice supervisord -c supervisord.conf > console.log 2>&1
rc supervisord $?
wait
cat watcher.txt
