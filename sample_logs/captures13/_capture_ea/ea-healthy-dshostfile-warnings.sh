#!/bin/bash
# deepspeed launcher with --hostfile --no_ssh_check (one host, `localhost slots=2`, CPU accelerator), DeepSpeed
# engine trainer ea_ds.py (gloo); console.log = the launcher's console with the workers' output.
# Nothing wrong: --warn prints a FutureWarning, a 'no latest file' WARNING, an ERROR about a kernel cache with
# ENOSPC (caught, falls back), a grad-norm-spike WARNING on rank 1; checkpoints at steps 6 and 12 are mirrored
# without a rate limit.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE/ds_config.json" "$HERE/hostfile" .
timeout -s TERM 100 nice $V/deepspeed --hostfile hostfile --no_ssh_check --master_addr 127.0.0.1 --master_port 29752 \
  ea_ds.py --deepspeed_config ds_config.json --steps 12 --sleep 0.2 --pg-timeout 30 --ckpt-every 6 --ckpt-dir ckpt \
  --mirror mirror/run-0413 --warn > console.log 2>&1
rc launcher $?
