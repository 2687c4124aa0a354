#!/bin/bash
# An init-script style site launcher: each rank is started with Debian's start-stop-daemon (--background
# --make-pidfile --output logs/rank<R>.log, env:// variables from the caller's environment), then the launcher polls
# `start-stop-daemon --status` on the pid files every 5 s and logs to launcher.log.
# Job: data-parallel training with gradients all_reduced by hand per parameter, per-rank validation and early
# stopping, TORCH_DISTRIBUTED_DEBUG=DETAIL.
# Planted: the early-stopping decision is taken on each rank's own validation shard (no all_reduce of val_loss); rank
# 2's shard is the noisiest, so it stops first and enters the final all_gather_object while ranks 0/1 train on.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs run
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29881 WORLD_SIZE=3 GLOO_SOCKET_IFNAME=lo TORCH_DISTRIBUTED_DEBUG=DETAIL
cat > launch.sh <<'EOL'
#!/bin/bash
log() { echo "$(date '+%F %T') launcher: $*"; }
log "starting $WORLD_SIZE ranks (master $MASTER_ADDR:$MASTER_PORT, TORCH_DISTRIBUTED_DEBUG=$TORCH_DISTRIBUTED_DEBUG)"
for r in $(seq 0 $((WORLD_SIZE - 1))); do
  RANK=$r LOCAL_RANK=$r start-stop-daemon --start --background --make-pidfile --pidfile "$PWD/run/rank$r.pid" \
    --output "$PWD/logs/rank$r.log" --chdir "$PWD" --exec "$PY" -- oc_earlystop.py
  log "rank $r: start-stop-daemon rc $?, pid $(cat run/rank$r.pid)"
done
while :; do
  sleep 5; alive=0; st=""
  for r in $(seq 0 $((WORLD_SIZE - 1))); do
    start-stop-daemon --status --pidfile "$PWD/run/rank$r.pid"; s=$?
    [ $s = 0 ] && alive=$((alive + 1)); st="$st rank$r=$s"
  done
  log "status:$st ($alive running)"
  [ $alive = 0 ] && break
done
log "all ranks gone"
EOL
export PY
timeout -s TERM 170 nice bash launch.sh > launcher.log 2>&1
rc launcher $?
