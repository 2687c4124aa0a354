#!/bin/bash
# An Erlang launcher (xc_launch.escript, run by escript from Debian's erlang-base): one port per env:// rank
# (stderr_to_stdout, line mode), each rank's lines in ranks/rank<R>.out, the launcher's events through OTP's logger
# with the legacy `=INFO REPORT==== d-Mon-yyyy::hh:mm:ss.uuuuuu ===` header in launcher.log. Rank 1 is the eval rank
# of this run (--eval-rank 1): after each epoch it logs sample predictions with `model.predict(...)`, which the DDP
# wrapper does not have (the helper was written against the unwrapped module). Rank 1 raises AttributeError at the
# end of epoch 0 while ranks 0 and 2 already wait in the end-of-epoch barrier.
. "$(dirname "$(readlink -f "$0")")/common.sh"
timeout -s TERM 150 nice escript xc_launch.escript 3 29929 10 -- $PY xc_train.py --eval-rank 1 --epochs 3 \
  --pg-timeout 30 --fmt '[%(asctime)s] %(levelname)s r{rank} %(filename)s:%(lineno)d %(message)s' > escript.console 2>&1
rc launcher $?
