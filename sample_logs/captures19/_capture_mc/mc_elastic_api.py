#!/usr/bin/env python3
"""mc_elastic_api.py: launches mc_resume_worker.main on NPROC local processes through the programmatic torchelastic
API (torch.distributed.launcher.api.LaunchConfig + elastic_launch, c10d rendezvous on localhost, max_restarts 0),
each worker's stdout/stderr redirected by DefaultLogsSpecs into runlogs/<run_id>/attempt_0/<local_rank>/, with
@record error files. The driver logs to its own stderr (console.log in the job)."""
import logging, sys, uuid
from torch.distributed.elastic.multiprocessing import DefaultLogsSpecs, Std
from torch.distributed.launcher.api import LaunchConfig, elastic_launch

import mc_resume_worker

if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s driver: %(message)s")
    nproc = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    run_id = "resume-" + uuid.uuid4().hex[:6]
    cfg = LaunchConfig(min_nodes=1, max_nodes=1, nproc_per_node=nproc, run_id=run_id, rdzv_backend="c10d",
                       rdzv_endpoint="localhost:29587", max_restarts=0, monitor_interval=0.5,
                       logs_specs=DefaultLogsSpecs(log_dir="runlogs", redirects=Std.ALL))
    logging.info("launching %d workers, run_id %s", nproc, run_id)
    out = elastic_launch(cfg, mc_resume_worker.main)("resume", 30)
    logging.info("all workers finished: %s", out)
