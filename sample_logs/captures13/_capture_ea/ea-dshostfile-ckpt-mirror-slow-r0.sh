#!/bin/bash
# deepspeed launcher with --hostfile --no_ssh_check (one host, `localhost slots=2`, CPU accelerator), DeepSpeed engine trainer
# ea_ds.py (gloo, 20 s process-group timeout); console.log = the launcher's console with the workers' output.
# Planted: after each rank's engine.save_checkpoint at step 6, rank 0 alone copies the checkpoint tag to a 'mirror'
# at ~20 KB/s (a slow NFS export) before joining the 'checkpoint published' barrier; rank 1 waits in the barrier.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp "$HERE/ds_config.json" "$HERE/hostfile" .
timeout -s TERM 100 nice $V/deepspeed --hostfile hostfile --no_ssh_check --master_addr 127.0.0.1 --master_port 29751 ea_ds.py \
  --deepspeed_config ds_config.json --steps 12 --sleep 0.2 --pg-timeout 20 --ckpt-every 6 --ckpt-dir ckpt \
  --mirror mirror/run-0412 --mirror-kbps 20 > console.log 2>&1
rc launcher $?
