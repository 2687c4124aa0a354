#!/bin/bash
# nq (tiny job queue) with one queue dir per env:// rank slot (NQDIR=queue/rank<R>; nq's output files
# `,<hex time>.<pid>` start with nq's `exec nq ...` header line); the trainer logs only into logs/rank<R>.log through
# a logging.handlers.MemoryHandler (capacity 64 records, flushed on ERROR or when full) around a FileHandler.
# The job runs in its own PID namespace; 40 s in, that namespace is SIGKILLed from outside (a stand-in for the VM
# being reclaimed), so no process gets to write anything more.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p logs queue
cat > job.sh <<JOB
#!/bin/bash
for r in 0 1 2; do
  mkdir -p queue/rank\$r
  NQDIR=queue/rank\$r RANK=\$r LOCAL_RANK=\$r WORLD_SIZE=3 MASTER_ADDR=127.0.0.1 MASTER_PORT=29842 \
    nq nice $PY tc_train.py --rows 3200 --epochs 40 --sleep 0.03 --pg-timeout 120 --log-file 'logs/rank{rank}.log' \
      --memory-handler 64 --fmt '%(asctime)s %(process)d %(levelname)s [rank{rank}] %(message)s' > /dev/null
done
sleep 600
JOB
chmod +x job.sh
unshare -p -f --mount-proc ./job.sh &
UNS=$!
sleep 40
INIT=$(pgrep -P $UNS | head -1)
echo "$(date '+%F %T') SIGKILL to the job's PID namespace (init pid $INIT)" > harness-note.txt
kill -KILL $INIT
wait $UNS
rc job $?
