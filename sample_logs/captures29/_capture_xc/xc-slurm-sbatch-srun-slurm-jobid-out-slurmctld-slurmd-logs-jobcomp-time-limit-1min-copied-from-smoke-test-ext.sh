#!/bin/bash
# A real Slurm 22.05 cluster of one node (host vm: munged, slurmctld, slurmd; xc_slurm_up.sh) inside the job's
# namespaces. The job is submitted with sbatch; its batch script (train.sbatch) runs the three ranks with
# `srun --kill-on-bad-exit=1` (rank = SLURM_PROCID). The batch script was copied from the smoke-test script and
# still asks for `--time=00:01:00`; the full run needs about 2 minutes, so slurmctld ends it at its time limit.
. "$(dirname "$(readlink -f "$0")")/common.sh"
./xc_slurm_up.sh vm > slurm-up.txt 2>&1
export SLURM_CONF=$J/slurm/etc/slurm.conf
cat > train.sbatch <<'S'
#!/bin/bash
#SBATCH --job-name=tab-ddp
#SBATCH --partition=cpu
#SBATCH --ntasks=3
#SBATCH --cpus-per-task=1
#SBATCH --time=00:01:00
#SBATCH --output=slurm-%j.out
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=29921 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
echo "[$(date -Is)] job $SLURM_JOB_ID ($SLURM_JOB_NAME) on $SLURM_JOB_NODELIST: $SLURM_NTASKS tasks, master $MASTER_ADDR:$MASTER_PORT"
srun --kill-on-bad-exit=1 /home/user/venv/bin/python xc_train.py --epochs 30 --sleep 0.06 --pg-timeout 60 --warn \
  --fmt '%(asctime)s [%(process)d] r{rank} %(levelname)s %(name)s - %(message)s'
echo "[$(date -Is)] srun exited $?"
S
sbatch train.sbatch > sbatch.txt 2>&1; cat sbatch.txt
jid=$(awk '{print $4}' sbatch.txt)
for i in $(seq 240); do squeue -h -j "$jid" 2>/dev/null | grep -q . || break; sleep 1; done
sleep 2; scontrol show job "$jid" > scontrol-job.txt 2>&1
rc squeue-wait $i
./xc_slurm_down.sh
