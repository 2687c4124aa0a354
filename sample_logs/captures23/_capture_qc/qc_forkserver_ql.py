"""qc_forkserver_ql.py: launcher using torch.multiprocessing.start_processes(start_method="forkserver"); every rank logs
through a logging.handlers.QueueHandler into one multiprocessing queue; the parent's QueueListener writes train.log.
Workers run qc_train.py's main() with their rank set through argv."""
import logging, logging.handlers, os, sys, time
import torch.multiprocessing as mp

FMT = "%(asctime)s %(processName)s(%(process)d) %(levelname)-7s %(name)s - %(message)s"

def worker(rank, world, q, argv):
    root = logging.getLogger(); root.handlers[:] = []; root.setLevel(logging.INFO)
    root.addHandler(logging.handlers.QueueHandler(q))
    import multiprocessing; multiprocessing.current_process().name = f"rank{rank}"
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29822")
    sys.argv = ["qc_train.py", "--rank", str(rank), "--world", str(world), "--log", "none"] + argv
    import runpy
    try:
        runpy.run_path("qc_train.py", run_name="__main__")
    except BaseException:
        logging.getLogger("qc.worker").exception("rank %d failed", rank); raise

if __name__ == "__main__":
    world = int(sys.argv[1]); argv = sys.argv[2:]
    ctx = mp.get_context("forkserver"); q = ctx.Queue(-1)
    fh = logging.FileHandler("train.log"); fh.setFormatter(logging.Formatter(FMT))
    ql = logging.handlers.QueueListener(q, fh); ql.start()
    lg = logging.getLogger("launcher"); lg.addHandler(logging.handlers.QueueHandler(q)); lg.setLevel(logging.INFO)
    lg.info("launching %d ranks (forkserver) argv=%s", world, argv)
    try:
        mp.start_processes(worker, args=(world, q, argv), nprocs=world, join=True, start_method="forkserver")
        lg.info("all ranks finished")
    except Exception as e:
        lg.error("job failed: %s: %s", type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        raise
    finally:
        time.sleep(0.5); ql.stop()
