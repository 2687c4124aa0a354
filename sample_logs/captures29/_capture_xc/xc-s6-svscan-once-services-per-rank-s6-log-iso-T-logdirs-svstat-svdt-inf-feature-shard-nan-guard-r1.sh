#!/bin/bash
# s6 as the process supervisor: an s6-svscan scan directory with one service per env:// rank (svc/rank<R>/run, a
# `down` file so nothing starts by itself) and one s6-log logger per service (svc/rank<R>/log/run: `s6-log T`,
# ISO 8601 stamps, logdir logs/rank<R>/current). The job script starts each rank once (`s6-svc -o`), polls
# s6-svstat, then keeps s6-svstat / s6-svdt (death tally) output in status.txt. The ranks log without timestamps
# (the logger stamps each line). Rank 1's shard has one row whose feature f3 holds 3.4e+39 (the export wrote a
# float64 sentinel; it overflows float32 to inf); when that row comes up rank 1's loss is not finite and the
# trainer's NaN guard stops it; ranks 0/2 lose the connection in the next all_reduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p data logs
$PY xc_make_data.py data 3 1600 --big '1:1177:3.4e+39'
for r in 0 1 2; do
  mkdir -p svc/rank$r/log logs/rank$r; touch svc/rank$r/down
  cat > svc/rank$r/run <<R
#!/bin/sh
exec 2>&1
cd $J
exec env RANK=$r LOCAL_RANK=$r WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29925 PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 \\
  nice $PY xc_train.py --data 'data/shard-{rank}.csv' --nan-guard --epochs 3 --pg-timeout 30 \\
  --fmt '%(levelname)s %(name)s rank{rank}/{world}: %(message)s'
R
  printf '#!/bin/sh\nexec s6-log -b n10 s1000000 T %s/logs/rank%d\n' "$J" $r > svc/rank$r/log/run
  chmod +x svc/rank$r/run svc/rank$r/log/run
done
say() { echo "$(date -u '+%FT%T.%3NZ') job: $*"; }
{
  s6-svscan svc > svscan.console 2>&1 & SV=$!
  sleep 2
  for r in 0 1 2; do s6-svc -o svc/rank$r; say "rank $r: s6-svc -o svc/rank$r"; done
  sleep 3
  for i in $(seq 120); do
    up=$(for r in 0 1 2; do s6-svstat -o up svc/rank$r; done | grep -c true)
    [ "$up" = 0 ] && break; sleep 1
  done
  say "no rank up after ${i}s"
  for r in 0 1 2; do echo "svc/rank$r: $(s6-svstat svc/rank$r)"; s6-svdt svc/rank$r | sed "s|^|svc/rank$r death: |"; done > status.txt
  cat status.txt
  s6-svscanctl -t svc; wait $SV; say "s6-svscan exited $?"
} > launch.log 2>&1
rc launch 0
