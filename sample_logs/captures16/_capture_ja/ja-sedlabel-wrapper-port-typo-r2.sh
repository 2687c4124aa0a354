#!/bin/bash
# srun-style labels by a small shell wrapper: each of 3 ranks runs
# `python ja_train.py ... 2>&1 | sed -u "s/^/$RANK: /"` (stdout+stderr merged, `R: ` prefix like srun --label), all three
# wrappers' output into console.log. Env: env/common.env (MASTER_ADDR/PORT, WORLD_SIZE) then env/node-override-<R>.env
# if present. plain print() logging (`[R] LEVEL msg`).
# Planted: env/node-override-2.env (hand-edited for a port move) sets MASTER_PORT=29845x - a typo.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p env
printf 'export MASTER_ADDR=127.0.0.1\nexport MASTER_PORT=29845\nexport WORLD_SIZE=3\n' > env/common.env
printf '# moved off 29500 (clashes with the notebook server)\nexport MASTER_PORT=29845x\n' > env/node-override-2.env
cat > run_rank.sh <<'EOR'
#!/bin/bash
# run_rank.sh R: one rank, srun --label style output
export RANK=$1 LOCAL_RANK=$1
. env/common.env
[ -f env/node-override-$1.env ] && . env/node-override-$1.env
set -o pipefail
python ja_train.py --log-style plain --steps 12 --pg-timeout 30 "${@:2}" 2>&1 | sed -u "s/^/$RANK: /"
EOR
pids=""
for r in 0 1 2; do timeout -s TERM 90 nice bash run_rank.sh $r >> console.log 2>&1 & pids="$pids $!"; done
st=0; for p in $pids; do wait $p; s=$?; echo "wrapper exit $s" >> exits.txt; [ $s -ne 0 ] && st=$s; done
rc wrappers $st
