#!/bin/bash
# torchrun --standalone --nproc-per-node 3 bg_train.py --keep-preds (console: all ranks, Python logging), with a small
# memory watchdog (memwatch.sh, as run beside jobs on a shared box) polling the RSS of torchrun's worker processes
# every second and SIGKILLing any above 1200 MiB, logging to memwatch.log. Rank 0 keeps every step's full logits
# (512x1024 fp32, 2 MiB) for an end-of-run report: its RSS grows ~2 MiB/step, passes the limit and the watchdog kills it.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 3 --rows 4096 > prep.log
cat > memwatch.sh <<'W'
#!/bin/bash
# memwatch.sh PARENT_PID LIMIT_MIB: kill -9 any child of PARENT_PID whose RSS exceeds LIMIT_MIB
P=$1; LIM=$2
echo "$(date '+%F %T') memwatch: watching children of pid $P, limit ${LIM} MiB"
while kill -0 $P 2>/dev/null; do
  for c in $(pgrep -P $P); do
    rss=$(awk '/VmRSS/{print int($2/1024)}' /proc/$c/status 2>/dev/null) || continue
    [ -n "$rss" ] || continue
    if [ "$rss" -gt "$LIM" ]; then
      echo "$(date '+%F %T') memwatch: pid $c ($(tr '\0' ' ' < /proc/$c/cmdline | cut -c1-60)) rss ${rss} MiB > ${LIM} MiB, sending SIGKILL"
      kill -9 $c
    fi
  done
  sleep 1
done
echo "$(date '+%F %T') memwatch: pid $P gone, exiting"
W
torchrun --standalone --nproc-per-node 3 bg_train.py --data data --keep-preds --steps 1200 --log-every 50 \
  --pg-timeout 60 --step-sleep 0.005 > console.log 2>&1 & T=$!
bash memwatch.sh $T 1200 > memwatch.log 2>&1 & M=$!
wait $T; rc torchrun $?; wait $M
