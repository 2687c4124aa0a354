"""torch.multiprocessing.start_processes(start_method='forkserver') driver for captures12 (da-*): N processes, each
calls da_train.run with its index as rank; with --log-style json --log-file 'logs/rank{rank}.jsonl' every rank
writes only its own JSON-lines file, the parent's console gets the start_processes report.
Usage: python da_startproc.py --nprocs N --port P -- <da_train.py args>"""
import argparse, os

import torch.multiprocessing as mp

import da_train


def worker(i, world, argv):
    da_train.run(da_train.parse(argv), i, world)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--nprocs", type=int, default=3)
    ap.add_argument("--port", type=int, default=29631)
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    rest = a.rest[1:] if a.rest[:1] == ["--"] else a.rest
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = str(a.port)
    mp.start_processes(worker, args=(a.nprocs, rest), nprocs=a.nprocs, start_method="forkserver")
    print("all processes finished")
