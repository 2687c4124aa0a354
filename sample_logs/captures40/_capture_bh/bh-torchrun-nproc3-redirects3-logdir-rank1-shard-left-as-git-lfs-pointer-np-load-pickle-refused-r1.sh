#!/bin/bash
# torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bh_train.py (logging to stdout, which torchrun
# redirects into logs/; the console keeps only the agent's lines). The data dir was fetched with git-lfs, but
# shard_01.npz was left as the LFS pointer text (the smudge step skipped it): rank 1's np.load fails on it.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY bh_prep.py --out data --shards 3 --rows 2048 > prep.log
sz=$(stat -c %s data/shard_01.npz); oid=$(sha256sum data/shard_01.npz | cut -d' ' -f1)
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %s\n' "$oid" "$sz" > data/shard_01.npz
torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir logs bh_train.py --data data --steps 200 \
  --log-every 20 --pg-timeout 60 > console.log 2>&1
rc torchrun $?
