#!/bin/bash
# node-local stage-in: copy this node's shards from the shared store into local scratch, one at a time
# usage: bu_stage.sh SRC DST SHARD...  (STAGE_SECONDS: per-shard transfer times of the shared store, simulated)
src=$1 dst=$2; shift 2
mkdir -p "$dst"
echo "$(date '+%F %T') stage-in start: $* -> $dst"
set -- $@; T=(${STAGE_SECONDS:-2}); i=0
for s in "$@"; do
  cp "$src/shard_$s.npz" "$dst/.shard_$s.npz.part"; sleep ${T[$i]:-2}; i=$((i+1))
  mv "$dst/.shard_$s.npz.part" "$dst/shard_$s.npz"; echo "$(date '+%F %T') staged shard_$s.npz"
done
cp "$src"/val_*.npz "$dst"/; echo "$(date '+%F %T') stage-in done"
