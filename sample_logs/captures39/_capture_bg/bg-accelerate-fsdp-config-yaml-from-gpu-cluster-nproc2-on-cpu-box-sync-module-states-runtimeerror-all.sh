#!/bin/bash
# accelerate launch --config_file fsdp_config.yaml bg_acc.py: the config file was copied from the GPU cluster's
# recipe (FSDP, FULL_SHARD, bf16, sync_module_states / cpu_ram_efficient_loading on, 8 processes there; edited to
# num_processes 2 and use_cpu: true for a CPU smoke test on this box). Accelerator() builds the FSDP plugin from the
# config on every rank and refuses sync_module_states on cpu.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bg_prep.py --out data --shards 2 --rows 2048 > prep.log
for r in 00 01; do mv data/shard_$r.npz data/train_$r.npz; done
cat > fsdp_config.yaml <<'Y'
compute_environment: LOCAL_MACHINE
debug: false
distributed_type: FSDP
downcast_bf16: 'no'
fsdp_config:
  fsdp_auto_wrap_policy: SIZE_BASED_WRAP
  fsdp_min_num_params: 100000
  fsdp_backward_prefetch: BACKWARD_PRE
  fsdp_cpu_ram_efficient_loading: true
  fsdp_forward_prefetch: false
  fsdp_offload_params: false
  fsdp_sharding_strategy: FULL_SHARD
  fsdp_state_dict_type: SHARDED_STATE_DICT
  fsdp_sync_module_states: true
  fsdp_use_orig_params: true
machine_rank: 0
main_process_port: 29831
main_training_function: main
mixed_precision: bf16
num_machines: 1
num_processes: 2
rdzv_backend: static
same_network: true
tpu_env: []
tpu_use_cluster: false
tpu_use_sudo: false
use_cpu: true
Y
accelerate launch --config_file fsdp_config.yaml bg_acc.py --epochs 2 > console.log 2>&1
rc accelerate $?
