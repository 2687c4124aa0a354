#!/bin/bash
# Two "nodes" (UTS namespaces, hostnames cn-b01 / cn-b02), each running `torchrun --nnodes 2 --node-rank {0,1}
# --nproc-per-node 2 --master-addr cn-b01 --master-port 29734 --tee 3 ../bm_hf.py --output-dir scratch/out
# --save-steps 20 --save-on-each-node` in its own directory; 4 ranks (0,1 on cn-b01; 2,3 on cn-b02), transformers
# Trainer (gloo). With save_on_each_node the local main process of each node writes the checkpoint to its node-local
# scratch/out. On cn-b02 scratch/ is a read-only bind mount (planted: the node's scratch came back read-only), so the
# first checkpoint (step 20) fails on rank 2.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bm_textprep.py --out data --vocab 500 > prep.log
cat > model_config.json <<'J'
{"vocab_size": 512, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
 "max_position_embeddings": 64, "num_labels": 4}
J
for h in cn-b01 cn-b02; do mkdir -p $h/scratch/out; cp -r data tokenizer model_config.json $h/; done
mount --bind cn-b02/scratch cn-b02/scratch && mount -o remount,bind,ro cn-b02/scratch
node() {  # host node-rank
  (cd $1 && unshare -u bash -c "hostname $1; exec torchrun --nnodes 2 --node-rank $2 --nproc-per-node 2 \
    --master-addr cn-b01 --master-port 29734 --tee 3 ../bm_hf.py --output-dir scratch/out --max-steps 60 \
    --eval-steps 20 --save-steps 20 --save-on-each-node > console.log 2>&1")
}
node cn-b01 0 & A=$!
sleep 2
node cn-b02 1 & B=$!
wait $A; rc node-a $?; wait $B; rc node-b $?
umount cn-b02/scratch
