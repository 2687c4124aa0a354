"""yc_rq_tasks.py: the RQ job function: one job per rank, run in the worker's work-horse process."""
import os


def train_rank(rank, world, port, argv):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    import yc_train
    yc_train.main(["--rank", str(rank), "--world", str(world)] + list(argv))
    return f"rank {rank} done"
