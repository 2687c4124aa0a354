"""wc_tornado_fork.py NPROC PORT -- TRAIN_ARGS...: pre-fork launcher on tornado.process.fork_processes: the parent
forks NPROC children (task id = rank), each child sets the env:// variables and runs wc_train.main in-process;
the parent (tornado) logs each child's exit. Logging: tornado's enable_pretty_logging (LogFormatter) on stderr."""
import logging, os, sys
import tornado.log, tornado.process

nproc, port = int(sys.argv[1]), sys.argv[2]
argv = sys.argv[4:] if sys.argv[3:4] == ["--"] else sys.argv[3:]
tornado.log.enable_pretty_logging()
logging.getLogger().setLevel(logging.INFO)
logging.getLogger("tornado.general").info("launcher pid %d: forking %d ranks, MASTER_PORT %s", os.getpid(), nproc, port)
try:
    task = tornado.process.fork_processes(nproc, max_restarts=0)
except RuntimeError as e:           # raised in the parent when a child exits non-zero
    logging.getLogger("tornado.general").error("launcher: %s", e)
    sys.exit(1)
if task is None:                    # parent, all children exited normally (fork_processes calls sys.exit(0))
    sys.exit(0)
os.environ.update(RANK=str(task), LOCAL_RANK=str(task), WORLD_SIZE=str(nproc), MASTER_ADDR="127.0.0.1",
                  MASTER_PORT=port)
import wc_train
wc_train.main(argv)
