#!/bin/bash
# pdsh as the launcher on one host (`pdsh -R exec -f 4 -w r[0-3] sh -c 'RANK=${0#r} exec python oc_tp2d.py --init
# init/head.pt' %h`), its stdout piped through `dshbak -c` (output grouped per "host" r0..r3 under ---- headers,
# identical blocks coalesced) into console.log; pdsh's stderr (the ranks' stderr lines prefixed `rN: `) appended to
# the same file, unsorted.
# Job: 2-D parallel (FSDP2 fully_shard over "dp" x tensor parallel over "tp", 2x2 DeviceMesh) on CPU / gloo, DCP
# checkpoints at steps 60 and 120, head warm-started from a file written by an old exporter.
# Planted: nothing broken; the warm-start file carries numpy scalars, so torch.load's default weights_only=True
# refuses it with a long UnpicklingError and the code retries with weights_only=False (WARNING lines on stderr).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p init && $PY oc_make_head_init.py init/head.pt
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29902 WORLD_SIZE=4 GLOO_SOCKET_IFNAME=lo
timeout -s TERM 150 nice pdsh -R exec -f 4 -w 'r[0-3]' sh -c 'RANK=${0#r} exec python oc_tp2d.py --init init/head.pt' %h 2>> console.log | dshbak -c >> console.log
rc pdsh "${PIPESTATUS[0]}"
