"""yc_dq_tasks.py: dramatiq actor running one training rank in the worker thread (redis broker, results backend)."""
import os
import dramatiq
from dramatiq.brokers.redis import RedisBroker
from dramatiq.results import Results
from dramatiq.results.backends import RedisBackend

broker = RedisBroker(url="redis://127.0.0.1:6379/0")
broker.add_middleware(Results(backend=RedisBackend(url="redis://127.0.0.1:6379/1")))
dramatiq.set_broker(broker)


def _actor(queue):
    @dramatiq.actor(actor_name=f"train_{queue}", queue_name=queue, max_retries=0, time_limit=120_000, store_results=True)
    def train(rank, world, port, argv):
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
        import yc_train
        yc_train.main(["--rank", str(rank), "--world", str(world), "--no-handler"] + list(argv))
        return f"rank {rank} done"
    return train


ACTORS = {f"rank{r}": _actor(f"rank{r}") for r in range(8)}
