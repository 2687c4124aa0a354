#!/bin/bash
# A Rust launcher (yc_launch.rs, std only, built with rustc in the job dir): one cgroup-v1 memory cgroup per rank
# (900 MB each), env:// variables set, stdout / stderr of rank R in ranks/R/stdout and ranks/R/stderr, its own
# launcher.log (`[yc_launch <epoch> +<elapsed>] ...`, each exit as Rust prints an ExitStatus, with the cgroup's
# oom_kill count). The run was started with an activation-statistics probe left enabled on rank 1
# (`--act-cache-rank 1 --act-cache-mb 16`: it keeps a 16 MB copy of the activations every step and never frees them);
# the kernel OOM-kills rank 1 in its cgroup; ranks 0/2 lose their peer in the next collective.
. "$(dirname "$(readlink -f "$0")")/common.sh"
# (rustc from the collector's rustup toolchain; RUSTUP_HOME / CARGO_HOME point at it)
"${CARGO_HOME:-$HOME/.cargo}/bin/rustc" -O -o yc_launch yc_launch.rs > rustc.console 2>&1
timeout -s TERM 240 nice ./yc_launch 3 29945 943718400 -- $PY yc_train.py --epochs 3 --pg-timeout 60 \
  --act-cache-rank 1 --act-cache-mb 16 --fmt '%(asctime)s %(levelname)s r{rank} %(name)s %(message)s' > launch.console 2>&1
rc launcher $?
