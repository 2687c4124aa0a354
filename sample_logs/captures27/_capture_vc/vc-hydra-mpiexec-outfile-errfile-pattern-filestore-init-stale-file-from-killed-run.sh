#!/bin/bash
# MPICH Hydra `mpiexec.hydra -launcher fork -n 3 -outfile-pattern out/rank-%r.out -errfile-pattern out/rank-%r.err`
# launching a non-MPI gloo job (vc_pmi_rank.sh maps PMI_RANK / PMI_SIZE to RANK / WORLD_SIZE). The job initialises
# torch.distributed with a shared-file rendezvous, init_method file://$J/shared/ddp_init. Before it, an earlier run of
# the same job script was killed (SIGKILL to all its ranks, e.g. a node reboot) right after its process group came
# up, leaving shared/ddp_init behind; the resubmission reuses the path.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p shared out prev
INIT="file://$J/shared/ddp_init"
ARGS="vc_train.py --init-method $INIT --epochs 2 --pg-timeout 30 --fmt %(asctime)s|%(levelname)s|rank{rank}|%(message)s"
# earlier, killed run (its output kept in prev/ only for the README, not collected)
timeout -s TERM 60 mpiexec.hydra -launcher fork -n 3 -outfile-pattern prev/rank-%r.out -errfile-pattern prev/rank-%r.err \
  ./vc_pmi_rank.sh $PY $ARGS & PP=$!
for i in $(seq 60); do [ $(grep -l "process group up" prev/rank-*.out 2>/dev/null | wc -l) -ge 3 ] && break; sleep 0.5; done
kill -KILL $(sed -n "s/.*start pid=\([0-9]*\) .*/\1/p" prev/rank-*.out); wait $PP
ls -la shared > prev/shared-after-kill.txt
# the resubmitted job
timeout -s TERM 120 nice mpiexec.hydra -launcher fork -n 3 -outfile-pattern out/rank-%r.out \
  -errfile-pattern out/rank-%r.err ./vc_pmi_rank.sh $PY $ARGS > mpiexec.console 2>&1
rc mpiexec $?
