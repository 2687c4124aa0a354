#!/bin/bash
# A site launch script (launch.sh) started as `nohup bash launch.sh > launch.log 2>&1 &`; launch.sh starts the 3 ranks
# in the background, each as `nohup env ... python mc_envtrain.py 2>&1 > logs/rank$i.out &` (redirection order as
# written in the script: the rank's stderr goes to launch.sh's stdout = launch.log, only its stdout to
# logs/rank$i.out), then waits for them. env:// rendezvous on 127.0.0.1:29541, pg timeout 40 s.
# Planted: the last rank is started by a separate line (pinned with taskset to the last core for the "eval helper"
# role) in which RANK was mistyped as RNAK.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
cat > launch.sh <<'EOL'
#!/bin/bash
# launch.sh: 3 ranks on this host, env:// rendezvous
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29541 WORLD_SIZE=3
for i in 0 1; do
  nohup env RANK=$i LOCAL_RANK=$i python mc_envtrain.py --steps 40 2>&1 > logs/rank$i.out &
done
i=2
nohup env RNAK=$i LOCAL_RANK=$i taskset -c 1 python mc_envtrain.py --steps 40 2>&1 > logs/rank$i.out &
echo "launch.sh: started 3 ranks: $(jobs -p | tr '\n' ' ')"
wait
echo "launch.sh: all ranks exited"
EOL
timeout -s TERM 170 nice nohup bash launch.sh > launch.log 2>&1 &
wait $!; rc launch $?
