"""submitit LocalExecutor driver for captures12 (da-*): submits da_train.run as one job of --tasks tasks on one
'node' (submitit starts one process per task and writes <folder>/<jobid>_<task>_log.{out,err}); rank/world from
submitit.JobEnvironment(). Prints the job's state and result (or its exception) from the driver.
Usage: python da_submit.py --tasks N --timeout-min M -- <da_train.py args>"""
import argparse, os, sys

import submitit


def task(argv, port):
    import da_train  # imported in the task process only (keeps torch out of the driver)
    env = submitit.JobEnvironment()
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ["MASTER_PORT"] = str(port)
    print(f"submitit task {env.global_rank}/{env.num_tasks} job {env.job_id} on {env.hostname}", flush=True)
    da_train.run(da_train.parse(argv), env.global_rank, env.num_tasks)
    return "ok"


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=2)
    ap.add_argument("--timeout-min", type=float, default=5)
    ap.add_argument("--port", type=int, default=29612)
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    rest = a.rest[1:] if a.rest[:1] == ["--"] else a.rest
    ex = submitit.LocalExecutor(folder="sublogs/%j")
    ex.update_parameters(tasks_per_node=a.tasks, nodes=1, timeout_min=a.timeout_min)
    job = ex.submit(task, rest, a.port)
    print(f"submitted job {job.job_id} ({a.tasks} tasks), logs in sublogs/{job.job_id}/", flush=True)
    try:
        print("results:", job.results(), flush=True)
    except Exception as e:
        print(f"job {job.job_id} state {job.state}", flush=True)
        raise
