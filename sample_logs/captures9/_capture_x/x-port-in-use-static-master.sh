#!/bin/bash
# torchrun x2 with the default static rendezvous, master port 29915, console tee'd to console.log. A process left over from an
# earlier session (a `python -m http.server 29915` serving plots) still holds the port.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY -m http.server 29915 --bind 127.0.0.1 > /dev/null 2>&1 &
H=$!; sleep 2
nice timeout 120 $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29915 \
  x_train.py --steps 10 --pg-timeout 30 2>&1 | tee console.log
rc launcher ${PIPESTATUS[0]}
kill $H
