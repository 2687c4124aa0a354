"""Batch post-mortem over synthetic jobs with planted bad nodes.

Generates ``--jobs`` small jobs (``correlator.synth batch``: 8 ranks on 4 nodes
each, drawn from a shared cluster in which two nodes initiate most failures they
take part in), runs ``correlator batch`` over them, and prints:

- the time taken and the per-job verdict accuracy (initiating node vs truth);
- the repeat-offender table, and whether its "suspect" nodes equal the planted
  bad nodes of ``truth_batch.json`` (exit 0 when they do, 1 when not);
- the same table computed from the generator's truth, i.e. what a perfect
  analysis would show: whether the planted signal is strong enough at all.

Why ``--cluster-nodes 32`` by default: on the generator's default 64-node cluster
each bad node takes part in only ~7-15 failed jobs out of 200, and in about half
of the seeds even the generator's truth cannot single out both of them
statistically (a good node initiating 5 of 11 failures by chance looks the same).
On 32 nodes the truth separates them in 19 seeds out of 20.

    python bench/batch_bench.py                      # 200 jobs, built-in rules
    python bench/batch_bench.py --jobs 50 --keep out/ --rules my-rules/ --no-builtin
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from correlator import synth
from correlator.batch.index import repeat_offenders
from correlator.batch.run import BatchOptions, run_batch


def _table(offs, limit: int = 12) -> str:
    lines = [f"{'node':14s} {'initiated':>9s} {'in failed jobs':>14s} {'expected':>8s} {'p':>9s}  flag      jobs"]
    for o in offs[:limit]:
        jobs = ", ".join(o.jobs[:6]) + (" …" if len(o.jobs) > 6 else "")
        lines.append(f"{o.key:14s} {o.initiated:9d} {o.exposure:14d} {o.expected:8.2f} {o.p_value:9.2e}  "
                     f"{o.flag or '-':8s}  {jobs}")
    if len(offs) > limit:
        lines.append(f"... {len(offs) - limit} more nodes initiated failures in more than one job")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=200)
    ap.add_argument("--cluster-nodes", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", default="200KB")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--rules", action="append", default=[], help="extra rule directory (repeatable)")
    ap.add_argument("--no-builtin", action="store_true", help="only the --rules directories")
    ap.add_argument("--keep", metavar="DIR", help="write jobs and reports under DIR and keep them")
    a = ap.parse_args(argv)

    base = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="correlator-batch-bench-"))
    jobs_dir, out_dir = base / "jobs", base / "reports"
    try:
        t0 = time.perf_counter()
        truth = synth.generate_batch(jobs_dir, jobs=a.jobs, ranks=8, nodes=4, size=a.size, bad_nodes=2,
                                     cluster_nodes=a.cluster_nodes, seed=a.seed)
        t1 = time.perf_counter()
        print(f"generated {a.jobs} jobs ({a.cluster_nodes}-node cluster, seed {a.seed}) in {t1 - t0:.1f}s; "
              f"planted bad nodes: {', '.join(truth['bad_nodes'])}", flush=True)
        opts = BatchOptions(workers=a.workers, rules_dirs=tuple(a.rules), builtin_rules=not a.no_builtin,
                            exclude=("truth.json",))  # the generator's expected verdict is not a log
        res = run_batch(str(jobs_dir), str(out_dir), opts, progress=sys.stderr)
        t2 = time.perf_counter()
        print(f"\nbatch: {res.jobs} jobs in {t2 - t1:.1f}s on {opts.workers or os.cpu_count()} workers "
              f"({(t2 - t1) / max(1, res.jobs):.2f}s per job), {res.errors} could not be analysed; "
              f"index: {out_dir / 'index.html'}")

        by_job = {r["job"]: r for r in res.rows}
        failed = [j for j in truth["jobs"] if j["status"] == "failed"]
        right = sum(1 for j in failed if by_job.get(j["job"], {}).get("initiating_node") == j["initiating_node"])
        healthy = [j for j in truth["jobs"] if j["status"] == "healthy"]
        called_healthy = sum(1 for j in healthy if by_job.get(j["job"], {}).get("status") == "healthy")
        print(f"initiating node right in {right}/{len(failed)} failed jobs; "
              f"{called_healthy}/{len(healthy)} healthy jobs called healthy")

        offs, tested = repeat_offenders(res.rows, "node")
        print(f"\nrepeat offenders from the analysis ({tested} nodes tested):")
        print(_table(offs))
        truth_rows = [{"job": j["job"], "status": j["status"], "initiating_node": j["initiating_node"],
                       "node_list": j["hosts"], "all_ranks": False, "category": j["scenario"], "ranks": 8}
                      for j in truth["jobs"]]
        toffs, _ = repeat_offenders(truth_rows, "node")
        print("\nthe same from the generator's truth (a perfect analysis):")
        print(_table(toffs, 6))
        suspects = sorted(o.node for o in offs if o.flag == "suspect")
        truth_suspects = sorted(o.node for o in toffs if o.flag == "suspect")
        same = suspects == sorted(truth["bad_nodes"])
        print(f"\nsuspects from the analysis: {suspects}; planted: {truth['bad_nodes']}; "
              f"from the truth: {truth_suspects}")
        print(f"repeat-offender table equals truth_batch.json's bad nodes: {'yes' if same else 'NO'}")
        (base / "bench.json").write_text(json.dumps({
            "jobs": a.jobs, "seconds": round(t2 - t1, 1), "node_right": right, "failed": len(failed),
            "suspects": suspects, "bad_nodes": truth["bad_nodes"], "equal": same,
        }, indent=2) + "\n")
        return 0 if same else 1
    finally:
        if not a.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
