#!/bin/bash
# tmux session `train` with one window per env:// rank (windows r0, r1, r2), each window's output captured with
# `tmux pipe-pane -o 'cat >> logs/win-rR.log'` (pane text incl. the shell prompt and echoed command). Rank 2's shard
# was exported by a newer export script that shifts labels by one (--label-offset 2:1: labels 1..4 for a 4-way head).
# Process-group timeout 30 s. The harness waits until no rank is left, then kills the tmux server.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs
export TMUX_TMPDIR=$J
tmux -f /dev/null new-session -d -s train -n r0 -x 200 -y 50 bash --norc --noprofile
tmux new-window -t train -n r1 bash --norc --noprofile
tmux new-window -t train -n r2 bash --norc --noprofile
for r in 0 1 2; do
  tmux pipe-pane -o -t train:r$r "cat >> $J/logs/win-r$r.log"
  tmux send-keys -t train:r$r "cd $J && PS1='[\\u@\\h r$r]\\$ ' && RANK=$r WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29866 $PY qc_train.py --rows 2000 --epochs 2 --label-offset 2:1 --pg-timeout 30; echo \"rank $r exit \$?\"" Enter
done
sleep 5
for i in $(seq 1 60); do pgrep -f "qc_train.py --rows 2000 --epochs 2 --label-offset" > /dev/null || break; sleep 2; done
sleep 2; tmux kill-server
