"""aj_spawn.py NPROCS -- TRAIN_ARGS...: launch aj_train.main on NPROCS processes with torch.multiprocessing.spawn
(MASTER_ADDR/MASTER_PORT from the environment, default 127.0.0.1:29533)."""
import os, sys
import torch.multiprocessing as mp
import aj_train


def _run(i, n, argv):
    aj_train.main(i, n, argv)


if __name__ == "__main__":
    n = int(sys.argv[1]); argv = sys.argv[3:] if sys.argv[2:3] == ["--"] else sys.argv[2:]
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29533")
    print(f"aj_spawn: starting {n} processes: {' '.join(argv)}", flush=True)
    mp.spawn(_run, args=(n, argv), nprocs=n, join=True)
    print("aj_spawn: all processes exited cleanly", flush=True)
