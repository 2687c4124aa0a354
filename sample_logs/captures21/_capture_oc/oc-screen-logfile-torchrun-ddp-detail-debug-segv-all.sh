#!/bin/bash
# A detached GNU screen session (`screen -L -Logfile screen.log -dmS train`, TERM=xterm) running torchrun
# --standalone --nproc-per-node 3; screen's log of the window (CR LF line ends, as the terminal saw it) is the only
# log. The site profile exports PYTHONFAULTHANDLER=1.
# Planted: the user re-runs a DDP job with TORCH_DISTRIBUTED_DEBUG=DETAIL (to chase an earlier hang). On this build
# (torch 2.13.0+cpu) DistributedDataParallel's constructor segfaults when DETAIL is set (seen with 1 process too:
# DETAIL -> SIGSEGV in _ddp_init_helper, INFO -> fine).
. "$(dirname "$(readlink -f "$0")")/common.sh"
ulimit -c 0
export TERM=xterm PYTHONFAULTHANDLER=1 GLOO_SOCKET_IFNAME=lo
cat > run.sh <<EOR
cd $J
echo "\$ TORCH_DISTRIBUTED_DEBUG=DETAIL torchrun --standalone --nproc-per-node 3 oc_ddp_detail.py"
TORCH_DISTRIBUTED_DEBUG=DETAIL nice $TR --standalone --nproc-per-node 3 oc_ddp_detail.py
echo "[exit \$?]"
EOR
cat > screenrc <<'EOS'
logfile flush 1
EOS
timeout -s TERM 150 screen -c screenrc -L -Logfile screen.log -dmS train bash run.sh
rc screen $?
# wait for the detached session to end
for i in $(seq 1 140); do screen -ls train >/dev/null 2>&1 || break; sleep 1; done
screen -ls train; true
