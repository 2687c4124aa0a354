#!/bin/bash
# daemontools supervision: `svscan service/` with one service per env:// rank (run script + `down` file) and a log
# service per rank `multilog t s1000000 ./main` (TAI64N `@4000...` stamps; service/rank<R>/log/main/current).
# The launcher starts each rank once with `svc -o`, polls `svstat` into launcher.log, and stops svscan at the end.
# Healthy run: 3 ranks, 3 epochs, final evaluation.
. "$(dirname "$(readlink -f "$0")")/common.sh"
for r in 0 1 2; do
  S=service/rank$r; mkdir -p $S/log/main
  cat > $S/run <<RUN
#!/bin/sh
exec 2>&1
cd $J
exec env RANK=$r LOCAL_RANK=$r WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29808 PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 \
  nice $PY -W default tc_train.py --rows 1600 --epochs 3 --warn --final-eval --pg-timeout 60 --fmt '%(levelname)s:%(name)s:rank{rank}:%(message)s'
RUN
  printf '#!/bin/sh\nexec multilog t s1000000 ./main\n' > $S/log/run
  chmod +x $S/run $S/log/run; touch $S/down
done
say() { echo "$(date '+%F %T') launcher: $*" >> launcher.log; }
svscan $J/service > svscan.out 2>&1 &
SVS=$!
sleep 3
say "svscan pid $SVS; starting ranks once (svc -o)"
svc -o service/rank0 service/rank1 service/rank2
for i in $(seq 1 80); do
  sleep 3; st=$(svstat service/rank0 service/rank1 service/rank2 2>&1)
  echo "$st" | sed "s/^/$(date '+%F %T') svstat: /" >> launcher.log
  echo "$st" | grep -q ': up' || break
done
say "all ranks down; stopping svscan"
svc -dx service/rank0 service/rank1 service/rank2 service/rank0/log service/rank1/log service/rank2/log
kill $SVS; wait $SVS
rc svscan 0
