#!/bin/bash
# Lightning Trainer(strategy="ddp", accelerator="cpu", devices=2) started as a shell job with job control on (its own
# process group, SIGINT not ignored, like a terminal's foreground job), stdout+stderr to console.log (Lightning's
# default progress bar (rich is installed), Lightning's messages, the per-epoch val_loss prints).
# Planted: the user presses Ctrl-C during epoch 5: SIGINT to the whole foreground process group (the launcher script
# and both ranks, as the terminal's line discipline sends it), emulated with `kill -INT -- -PGID` once console.log
# shows "epoch 4: val_loss".
. "$(dirname "$(readlink -f "$0")")/common.sh"
export GLOO_SOCKET_IFNAME=lo
set -m
nice python oc_pl_ctrlc.py > console.log 2>&1 & LEADER=$!
set +m
sleep 1; PGID=$(ps -o pgid= -p $LEADER | tr -d ' ')
for i in $(seq 1 140); do grep -q 'epoch 4: val_loss' console.log 2>/dev/null && break; sleep 0.5; done
sleep 2.3
echo "$(date +%T.%N) SIGINT to process group $PGID"; ps -o pid,pgid,cmd -g $PGID
kill -INT -- -$PGID
( sleep 60; kill -KILL -- -$PGID 2>/dev/null && echo "SIGKILL after 60 s" ) & K=$!
wait $LEADER; rc python $?
kill $K 2>/dev/null; ps -o pid,pgid,cmd -g $PGID || true
