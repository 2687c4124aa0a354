#!/bin/bash
# Grid-Engine-style single-host batch runner (vc_qbatch.py, the site's "qbatch"): job script train.sh with
# `#$ -N ddp_tr`, `#$ -l h_rt=40`; stdout in ddp_tr.o<jobid>, stderr in ddp_tr.e<jobid>, execd-style
# spool/messages and spool/accounting. The job script runs torchrun (3 workers) for 14 epochs, more than h_rt allows;
# at h_rt the runner's terminate method SIGTERMs the job's process group.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > train.sh <<'J'
#!/bin/bash
#$ -N ddp_tr
#$ -l h_rt=40
#$ -cwd
echo "job $JOB_ID ($JOB_NAME) on $HOSTNAME, started $(date '+%a %b %d %T %Z %Y')"
echo "torch $(python -c 'import torch; print(torch.__version__)')"
torchrun --nnodes 1 --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29904 \
  vc_train.py --epochs 14 --rows 2400 --sleep 0.05 --pg-timeout 30 \
  --fmt '[%(asctime)s][rank {rank}][%(levelname)s] %(message)s'
rc=$?
echo "torchrun exited with $rc at $(date '+%T')"
exit $rc
J
timeout -s KILL 150 nice $PY vc_qbatch.py submit train.sh > qsub.out
rc qbatch $?
