#!/bin/bash
# accelerate launch --config_file accelerate_config.yaml where the config was written by 'accelerate config' answering
# "multi-CPU" (distributed_type MULTI_CPU, num_processes 3, use_cpu true). accelerate launches that with its simple
# launcher (a multi-CPU job is meant to be started by mpirun / an MPI hostfile), i.e. ONE python process without
# RANK/WORLD_SIZE; bm_hf.py's TrainingArguments(ddp_backend="gloo") then asks for the world size of a process group
# nobody created.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_textprep.py --out data --vocab 500 > prep.log
cat > accelerate_config.yaml <<'Y'
compute_environment: LOCAL_MACHINE
debug: false
distributed_type: MULTI_CPU
downcast_bf16: 'no'
machine_rank: 0
main_process_ip: 127.0.0.1
main_process_port: 29631
main_training_function: main
mixed_precision: 'no'
mpirun_config: {}
num_machines: 1
num_processes: 3
rdzv_backend: static
same_network: true
use_cpu: true
Y
cat > model_config.json <<'J'
{"vocab_size": 512, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
 "max_position_embeddings": 64, "num_labels": 4}
J
accelerate launch --config_file accelerate_config.yaml bm_hf.py --max-steps 60 --eval-steps 20 > console.log 2>&1
rc accelerate $?
