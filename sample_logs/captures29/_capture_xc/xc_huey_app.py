"""xc_huey_app.py: the site's huey task queue for training jobs (SqliteHuey in huey.db). One task per rank,
train_rank(rank, world, port, argv): sets the rank's env:// variables in the worker process and runs xc_train.main."""
import os, sys
from huey import SqliteHuey

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
huey = SqliteHuey("xcjobs", filename=os.path.abspath("huey.db"))


@huey.task()
def train_rank(rank, world, port, argv):
    os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world), MASTER_ADDR="127.0.0.1",
                      MASTER_PORT=str(port))
    import xc_train
    xc_train.main(argv)
    return f"rank {rank} finished"
