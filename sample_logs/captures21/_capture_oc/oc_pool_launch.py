"""oc_pool_launch.py WORLD PORT: the group's notebook-era launcher: a concurrent.futures.ProcessPoolExecutor (spawn
context) runs one rank per worker process; each rank logs to logs/rank<R>.log, the launcher to launcher.log."""
import concurrent.futures as cf, logging, multiprocessing as mp, os, sys, time

import oc_pool_rank


def main():
    world, port = int(sys.argv[1]), sys.argv[2]
    os.makedirs("logs", exist_ok=True)
    logging.basicConfig(filename="launcher.log", level=logging.INFO,
                        format="%(asctime)s %(levelname)s launcher: %(message)s")
    log = logging.getLogger()
    log.info("pool of %d workers (spawn), master 127.0.0.1:%s", world, port)
    t0 = time.time()
    with cf.ProcessPoolExecutor(max_workers=world, mp_context=mp.get_context("spawn")) as ex:
        futs = {ex.submit(oc_pool_rank.run, r, world, port): r for r in range(world)}
        log.info("submitted ranks %s", sorted(futs.values()))
        for f in cf.as_completed(futs):
            r = futs[f]
            try:
                log.info("rank %d returned %s after %.1f s", r, f.result(), time.time() - t0)
            except Exception as e:
                log.error("rank %d raised %r after %.1f s", r, e, time.time() - t0)
    log.info("all ranks finished")


if __name__ == "__main__":
    main()
