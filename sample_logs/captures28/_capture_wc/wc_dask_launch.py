"""wc_dask_launch.py NPROC PORT -- TRAIN_ARGS...: runs the env:// ranks as tasks on a dask.distributed LocalCluster
(one single-threaded nanny worker process per rank, each task pinned to its worker). The client gathers the task
results and prints each rank's outcome; distributed's own logging (scheduler, nannies, workers) goes to stderr."""
import os, sys, time
from dask.distributed import Client, LocalCluster

nproc, port = int(sys.argv[1]), sys.argv[2]
argv = sys.argv[4:] if sys.argv[3:4] == ["--"] else sys.argv[3:]


def run_rank(rank, world, port, argv):
    os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world), MASTER_ADDR="127.0.0.1",
                      MASTER_PORT=str(port))
    sys.path.insert(0, os.getcwd())
    import wc_train
    wc_train.main(argv)
    return f"rank {rank} ok"


if __name__ == "__main__":
    cluster = LocalCluster(n_workers=nproc, threads_per_worker=1, processes=True, dashboard_address=None,
                           host="127.0.0.1")
    client = Client(cluster)
    workers = sorted(client.scheduler_info()["workers"])
    print(f"[dask-launch] cluster {cluster.scheduler_address}, {len(workers)} workers", flush=True)
    futs = [client.submit(run_rank, r, nproc, port, argv, workers=[w], pure=False, key=f"rank-{r}")
            for r, w in enumerate(workers)]
    failed = 0
    for r, f in enumerate(futs):
        try:
            print(f"[dask-launch] {f.key} on {workers[r]}: {f.result()}", flush=True)
        except Exception as e:
            failed += 1
            print(f"[dask-launch] {f.key} on {workers[r]} failed: {type(e).__name__}: {e}", flush=True)
    client.close(); cluster.close()
    print(f"[dask-launch] finished, {failed} of {nproc} ranks failed", flush=True)
    sys.exit(1 if failed else 0)
