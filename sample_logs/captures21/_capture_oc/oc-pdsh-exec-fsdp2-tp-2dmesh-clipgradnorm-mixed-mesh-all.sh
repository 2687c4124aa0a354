#!/bin/bash
# pdsh as the launcher on one host: `pdsh -R exec -f 4 -w r[0-3] sh -c 'RANK=${0#r} exec python oc_tp2d.py --clip' %h`
# (exec rcmd module, one "host" r0..r3 per rank, every output line prefixed `rN: `, pdsh's own `pdsh@vm:` lines);
# stdout+stderr to console.log.
# Job: 2-D parallel (FSDP2 fully_shard over "dp" x tensor parallel Colwise/Rowwise over "tp", 2x2 DeviceMesh) on
# CPU / gloo.
# Planted: the new --clip option calls torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0) over all parameters;
# the output head is only dp-sharded (1-D mesh) while the blocks live on the 2-D mesh.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29901 WORLD_SIZE=4 GLOO_SOCKET_IFNAME=lo
timeout -s TERM 150 nice pdsh -R exec -f 4 -w 'r[0-3]' sh -c 'RANK=${0#r} exec python oc_tp2d.py --clip' %h > console.log 2>&1
rc pdsh $?
