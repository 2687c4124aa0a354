#!/bin/bash
# runit supervision: one service per rank under service/ (run script: site CPU binding `taskset -c $LOCAL_RANK`, env
# from an envdir through `chpst -e`), each with a log service `svlogd -tt` writing service/rank<R>/log/main/current.
# The services carry a `down` file; the launcher starts them with `sv once` (no restart), polls `sv status` into
# launcher.log and stops runsvdir at the end. Host has 2 CPUs, the job 3 ranks: rank 2 is bound to CPU 2.
. "$(dirname "$(readlink -f "$0")")/common.sh"
for r in 0 1 2; do
  S=service/rank$r; mkdir -p $S/env $S/log/main
  echo $r > $S/env/RANK; echo $r > $S/env/LOCAL_RANK; echo 3 > $S/env/WORLD_SIZE
  echo 127.0.0.1 > $S/env/MASTER_ADDR; echo 29742 > $S/env/MASTER_PORT; echo 1 > $S/env/PYTHONUNBUFFERED
  echo 1 > $S/env/OMP_NUM_THREADS
  cat > $S/run <<RUN
#!/bin/sh
exec 2>&1
echo "rank$r: binding to cpu \$(cat env/LOCAL_RANK) (site policy: one core per local rank)"
cd $J
exec chpst -e $J/$S/env taskset -c \$(cat $J/$S/env/LOCAL_RANK) nice $PY tc_train.py --rows 1600 --epochs 2 --pg-timeout 40 --fmt '%(asctime)s %(levelname)-5s %(name)s r{rank}: %(message)s'
RUN
  printf '#!/bin/sh\nexec svlogd -tt ./main\n' > $S/log/run
  chmod +x $S/run $S/log/run; touch $S/down
done
say() { echo "$(date '+%F %T') launcher: $*" >> launcher.log; }
runsvdir -P $J/service 'log: ..........................................................' &
RSV=$!
sleep 2
say "runsvdir pid $RSV; starting ranks once"
sv once ./service/rank0 ./service/rank1 ./service/rank2 >> launcher.log 2>&1
for i in $(seq 1 60); do
  sleep 3; st=$(sv status ./service/rank0 ./service/rank1 ./service/rank2 2>&1)
  echo "$st" | sed "s/^/$(date '+%F %T') sv: /" >> launcher.log
  echo "$st" | grep -q '^run:' || break
done
say "no rank running; stopping runsvdir"
sv exit ./service/rank0 ./service/rank1 ./service/rank2 >> launcher.log 2>&1; sleep 2; kill -HUP $RSV; wait $RSV
rc runsvdir $?
