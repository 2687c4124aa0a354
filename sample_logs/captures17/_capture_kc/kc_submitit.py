#!/usr/bin/env python3
"""kc_submitit.py: submit kc_train.py as one submitit LocalExecutor job with tasks_per_node=2 (2 ranks); each task
exports the torch.distributed env with submitit.helpers.TorchDistributedEnvironment and runs kc_train.py in-process
(runpy). Task logs: submitit_logs/<job_id>/<job_id>_<task>_log.{out,err} (submitit's %j_%t layout); this driver
prints the job id, polls the state and prints the result / exception of each task."""
import runpy, sys, time
import submitit
from submitit.helpers import TorchDistributedEnvironment


class Train:
    def __init__(self, argv):
        self.argv = argv

    def __call__(self):
        env = TorchDistributedEnvironment().export(set_cuda_visible_devices=False)
        print(f"submitit task: rank {env.rank}/{env.world_size} local_rank {env.local_rank} "
              f"master {env.master_addr}:{env.master_port}", flush=True)
        sys.argv = ["kc_train.py"] + self.argv
        runpy.run_path("kc_train.py", run_name="__main__")
        return f"rank {env.rank} done"


if __name__ == "__main__":
    ex = submitit.LocalExecutor(folder="submitit_logs/%j")
    ex.update_parameters(tasks_per_node=2, nodes=1, timeout_min=2, name="kc-tabular")
    job = ex.submit(Train(sys.argv[1:]))
    print(f"submitted job {job.job_id} ({job.num_tasks} tasks), logs in {job.paths.folder}", flush=True)
    while not job.done():
        time.sleep(2)
    print(f"job {job.job_id} state {job.state}", flush=True)
    rc = 0
    for t in range(job.num_tasks):
        sub = job.task(t)
        try:
            print(f"task {t}: {sub.result()}", flush=True)
        except Exception as e:
            print(f"task {t} failed: {type(e).__name__}: {e}", flush=True)
            rc = 1
    sys.exit(rc)
