#!/bin/bash
# A real Slurm 22.05 cluster of two nodes (nodea, nodeb: one slurmd each in its own UTS + mount namespace, one
# slurmctld; xc_slurm_up.sh). Each node has a node-local /tmp (tmpfs). The site hardening image of nodeb mounts its
# /tmp `noexec,nosuid,nodev` (nodea's image does not). The job (train.sbatch, 2 nodes x 2 tasks) builds the site's
# custom-op library once, copies it to every node's /tmp with sbcast and runs the ranks with `srun --label
# --kill-on-bad-exit=1`; each rank loads the library with torch.ops.load_library after the process group is up.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p slurm ext
echo 'mount -t tmpfs -o mode=1777 tmp /tmp' > slurm/nodea.setup
echo 'mount -t tmpfs -o mode=1777,noexec,nosuid,nodev tmp /tmp' > slurm/nodeb.setup
./xc_slurm_up.sh nodea,nodeb > slurm-up.txt 2>&1
export SLURM_CONF=$J/slurm/etc/slurm.conf
cat > train.sbatch <<'S'
#!/bin/bash
#SBATCH --job-name=tab-ddp-ext
#SBATCH --partition=cpu
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=2
#SBATCH --time=00:10:00
#SBATCH --output=slurm-%j.out
set -e
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29922 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
echo "[$(date -Is)] job $SLURM_JOB_ID on $SLURM_JOB_NODELIST ($SLURM_NNODES nodes, $SLURM_NTASKS tasks)"
gcc -shared -fPIC -O2 -o ext/libxcops.so xc_xcops.c
sbcast --force ext/libxcops.so /tmp/libxcops-$SLURM_JOB_ID.so
echo "[$(date -Is)] libxcops staged to /tmp/libxcops-$SLURM_JOB_ID.so on $SLURM_JOB_NODELIST"
srun --label --kill-on-bad-exit=1 /home/user/venv/bin/python xc_train.py --ext-lib /tmp/libxcops-$SLURM_JOB_ID.so \
  --epochs 2 --pg-timeout 30 --fmt '%(asctime)s %(levelname)s [rank {rank}/{world}] %(message)s'
echo "[$(date -Is)] done"
S
sbatch train.sbatch > sbatch.txt 2>&1; cat sbatch.txt
jid=$(awk '{print $4}' sbatch.txt)
for i in $(seq 180); do squeue -h -j "$jid" 2>/dev/null | grep -q . || break; sleep 1; done
sleep 2; scontrol show job "$jid" > scontrol-job.txt 2>&1; sinfo -N -l > sinfo.txt 2>&1
rc squeue-wait $i
./xc_slurm_down.sh
