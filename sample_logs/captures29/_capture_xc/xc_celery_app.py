"""xc_celery_app.py: the site's Celery app for distributed training jobs. Broker: kombu's filesystem transport
(queue/in, queue/out, queue/processed), results: the file backend (results/). One task per rank,
train_rank(rank, world, port, argv): the rank's env:// variables are set in the pool process and xc_train.main runs
in it; its records propagate to the worker's logging (celery's worker log format)."""
import os, sys
from celery import Celery

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the job dir (xc_train)

app = Celery("xcjobs")
app.conf.update(
    broker_url="filesystem://", result_backend="file://" + os.path.abspath("results"),
    broker_transport_options={"data_folder_in": "queue/out", "data_folder_out": "queue/out",
                              "processed_folder": "queue/processed", "store_processed": True},
    task_acks_late=True, worker_prefetch_multiplier=1, task_track_started=True, broker_connection_retry_on_startup=True)


@app.task(name="xcjobs.train_rank", bind=True)
def train_rank(self, rank, world, port, argv):
    os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world), MASTER_ADDR="127.0.0.1",
                      MASTER_PORT=str(port))
    import xc_train
    xc_train.main(argv)
    return f"rank {rank} finished"
