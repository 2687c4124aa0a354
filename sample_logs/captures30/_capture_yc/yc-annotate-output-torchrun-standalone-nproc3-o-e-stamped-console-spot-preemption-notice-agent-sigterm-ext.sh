#!/bin/bash
# devscripts' annotate-output as the console wrapper of a torchrun job (`annotate-output +%H:%M:%S.%N torchrun
# --standalone --nproc-per-node 3 ...`): every stdout line stamped `HH:MM:SS.ns O: `, every stderr line `... E: `,
# plus annotate-output's `I: Started` / `I: Finished with exitcode` lines, in console.log. A spot-instance
# preemption watcher (yc_preempt_watch.sh, its own preempt.log) gets the instance's termination notice 60 s into the
# run and sends SIGTERM to the torchrun agent, as the site's preemption hook does. Nothing is wrong with the job.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > yc_preempt_watch.sh <<'W'
#!/bin/bash
# poll the (simulated) metadata endpoint file for a termination notice; on notice, SIGTERM the job's agent
log() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) preempt-watch[$$]: $*" >> preempt.log; }
log "watching for a spot termination notice (agent pid $1)"
while [ ! -s meta/spot/instance-action ]; do sleep 1; done
log "termination notice: $(cat meta/spot/instance-action)"
log "sending SIGTERM to the training agent (pid $1)"
kill -TERM "$1"
W
chmod +x yc_preempt_watch.sh
mkdir -p meta/spot
timeout -s TERM 300 nice annotate-output +%H:%M:%S.%N torchrun --standalone --nproc-per-node 3 yc_train.py \
  --epochs 40 --sleep 0.05 --pg-timeout 60 --fmt '%(asctime)s %(levelname)s rank{rank}/{world} %(name)s: %(message)s' \
  > console.log 2>&1 &
AO=$!
sleep 4
AGENT=$(pgrep -f 'bin/torchrun --standalone' | head -1)
./yc_preempt_watch.sh "$AGENT" & PW=$!
sleep 56
echo '{"action": "terminate", "time": "'$(date -u +%Y-%m-%dT%H:%M:%SZ)'"}' > meta/spot/instance-action
wait $AO; rc annotate $?
wait $PW
