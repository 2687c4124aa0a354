#!/bin/bash
# The job is typed into a detached tmux session (tmux new-session -d -x 160 -y 48) whose pane output is logged with
# `tmux pipe-pane -o 'cat >> tmux-pane.log'` (raw terminal bytes: prompt, echoed command, tqdm's \r redraws, ANSI
# cursor moves of the two position=rank bars). torchrun --standalone --nproc-per-node 2, lc_train.py --log-style tqdm.
# Rank 0 saves ckpt/step-N.pt every 6 steps with up to 8 retries, 5 s apart, on OSError or RuntimeError (torch.save reports a full disk as RuntimeError); pg timeout 120 s.
# Planted (transient, recovered): ckpt/ is a 320 KiB tmpfs still holding a previous run's 260 KiB checkpoint that a
# background cleaner deletes ~25 s into the job: the first save hits ENOSPC, a later retry succeeds.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p ckpt && mount -t tmpfs -o size=320k tmpfs ckpt
head -c 266240 /dev/urandom > ckpt/prev-run-step-000900.pt
(sleep 25; rm -f ckpt/prev-run-step-000900.pt) &
export LOGLEVEL=INFO TERM=xterm-256color PS1='user@vm:~/job$ '
tmux -L lc new-session -d -s train -x 160 -y 48 "bash --norc -i"
tmux -L lc pipe-pane -t train -o 'cat >> tmux-pane.log'
sleep 1
tmux -L lc send-keys -t train "timeout -s TERM 150 nice torchrun --standalone --nproc-per-node 2 lc_train.py --log-style tqdm --steps 18 --sleep 0.5 --ckpt-dir ckpt --ckpt-every 6 --ckpt-retries 8 --ckpt-backoff 5 --pg-timeout 120; echo \"exit status \$?\"; tmux -L lc wait-for -S done" Enter
timeout 200 tmux -L lc wait-for done
sleep 1
tmux -L lc kill-server
grep -a -o 'exit status [0-9]*' tmux-pane.log | tail -1 | awk '{print $3}' > exit_code.torchrun; echo "$NAME: torchrun exit $(cat exit_code.torchrun)"
