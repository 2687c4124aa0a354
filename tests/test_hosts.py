"""Nodes are hosts: the host the logs name (NCCL's ``host:pid:tid`` header, torchrun's
failure table, a syslog kernel line, a pdsh prefix) before the directory's name, which
is kept as ``node_alias``; the batch's repeat offenders are keyed by host, and a node
known only by a directory's name is a machine of its own job."""

from __future__ import annotations

from pathlib import Path

from conftest import write_job

from correlator.ingest import IngestOptions
from correlator.target import open_timeline

QUIET = IngestOptions(echo_problems=False, workers=1)


def _nccl(host: str, pid: int, n: int = 3) -> str:
    # verbatim NCCL INFO shapes (sample_logs/nccl-ib-error-one-node)
    return "".join(
        f"{host}:{pid}:{pid} [0] NCCL INFO Bootstrap : Using ens9f1:10.226.98.{i}<0>\n" for i in range(n)
    )


def _steps(rank: int) -> str:
    return "".join(
        f"2024-05-01 12:00:{s:02d},000 - INFO - __main__ - step {s} | rank {rank} | loss 1.0\n" for s in range(1, 4)
    )


def _nodes(root: Path) -> dict[str, tuple[str | None, str | None]]:
    """file -> (node, node_alias), each file having one."""
    with open_timeline(str(root), QUIET) as con:
        rows = con.execute("SELECT file, any_value(node), any_value(node_alias), count(DISTINCT node) "
                           "FROM events GROUP BY file").fetchall()
    assert all(n <= 1 for *_, n in rows)
    return {f: (node, alias) for f, node, alias, _ in rows}


def _job(dirs: dict[str, str | None]) -> dict[str, str]:
    """A two-rank job, a directory per node; ``dirs``: directory -> the host its NCCL
    lines name (None: no NCCL line)."""
    files = {}
    for rank, (d, host) in enumerate(dirs.items()):
        files[f"{d}/console.log"] = (_nccl(host, 4100 + rank) if host else "") + _steps(rank)
    return files


def test_the_host_the_logs_name_is_the_node_and_the_directory_its_alias(tmp_path):
    got = _nodes(write_job(tmp_path / "job", _job({"node-0": "gpn021", "node-1": "gpn022"})))
    assert got == {"node-0/console.log": ("gpn021", "node-0"), "node-1/console.log": ("gpn022", "node-1")}


def test_renaming_node_directories_leaves_host_named_nodes_unchanged(tmp_path):
    # metamorphic: the same logs under other directory names
    base = _nodes(write_job(tmp_path / "a", _job({"node-0": "gpn021", "node-1": "gpn022"})))
    renamed = _nodes(write_job(tmp_path / "b", _job({"gpu-node-07": "gpn021", "worker-3": "gpn022"})))
    assert sorted(n for n, _ in base.values()) == sorted(n for n, _ in renamed.values()) == ["gpn021", "gpn022"]
    assert {a for _, a in renamed.values()} == {"gpu-node-07", "worker-3"}
    # a directory without host evidence keeps its own name, whatever it is
    mixed = _nodes(write_job(tmp_path / "c", _job({"gpu-node-07": "gpn021", "worker-3": None})))
    assert mixed == {"gpu-node-07/console.log": ("gpn021", "gpu-node-07"), "worker-3/console.log": ("worker-3", "worker-3")}


def test_two_directories_on_one_host_are_two_agents_and_keep_their_names(tmp_path):
    # two torchrun agents of one test box: the host would merge them
    got = _nodes(write_job(tmp_path / "job", _job({"node-0": "vm", "node-1": "vm"})))
    assert got == {"node-0/console.log": ("node-0", "node-0"), "node-1/console.log": ("node-1", "node-1")}


def test_localhost_names_no_machine(tmp_path):
    root = write_job(tmp_path / "job", _job({"node-0": "localhost", "node-1": "gpn022"}))
    got = _nodes(root)
    assert got == {"node-0/console.log": ("node-0", "node-0"), "node-1/console.log": ("gpn022", "node-1")}
    with open_timeline(str(root), QUIET) as con:
        hosts = dict(con.execute("SELECT file, hosts FROM files WHERE file LIKE '%console.log'").fetchall())
    assert hosts == {"node-0/console.log": [], "node-1/console.log": ["gpn022"]}


def test_a_directory_whose_files_name_two_hosts_keeps_its_name(tmp_path):
    files = _job({"node-0": "gpn021", "node-1": "gpn022"})
    files["node-1/other.log"] = _nccl("gpn023", 999)
    got = _nodes(write_job(tmp_path / "job", files))
    assert got["node-1/console.log"] == ("node-1", "node-1") and got["node-1/other.log"] == ("node-1", "node-1")
    assert got["node-0/console.log"] == ("gpn021", "node-0")


def test_every_file_of_a_host_named_directory_takes_the_host(tmp_path):
    # a raw dmesg names no host; its directory's NCCL lines do. A syslog-form kernel
    # line names its own host: evidence like NCCL's.
    files = _job({"node-0": "gpn021", "node-1": None})
    files["node-0/dmesg.log"] = "[ 1234.567890] NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.\n"
    files["node-1/kern.log"] = "Dec  1 12:00:00 gpn022 kernel: NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.\n"
    got = _nodes(write_job(tmp_path / "job", files))
    assert got["node-0/dmesg.log"] == ("gpn021", "node-0")
    assert got["node-1/console.log"] == ("gpn022", "node-1") and got["node-1/kern.log"] == ("gpn022", "node-1")


def test_torchrun_failure_table_names_the_host(tmp_path):
    table = ("[0]:\n  time      : 2023-06-03_22:45:01\n  host      : gpu187.cluster.local\n"
             "  rank      : 1 (local_rank: 0)\n  exitcode  : 1 (pid: 19401)\n  error_file: <N/A>\n"
             "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n")
    files = {"node-0/console.log": _steps(0),
             "node-1/console.log": _steps(1) + "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
             "============================================================\ntrain.py FAILED\n"
             "------------------------------------------------------------\nFailures:\n  <NO_OTHER_FAILURES>\n"
             "------------------------------------------------------------\nRoot Cause (first observed failure):\n"
             + table + "============================================================\n"}
    got = _nodes(write_job(tmp_path / "job", files))
    assert got["node-1/console.log"] == ("gpu187", "node-1")  # FQDN cut like NCCL's
    assert got["node-0/console.log"] == ("node-0", "node-0")


def _failed_job(node1_host: str | None) -> dict[str, str]:
    """Rank 1, in node-1/, runs out of memory; rank 0 in node-0/ waits."""
    files = _job({"node-0": None, "node-1": node1_host})
    files["node-1/console.log"] += (
        "2024-05-01 12:00:04,000 - ERROR - __main__ - torch.OutOfMemoryError: CUDA out of memory. "
        "Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.06 GiB is free.\n")
    return files


def test_batch_offenders_are_hosts_not_directory_names(tmp_path):
    from correlator.batch.index import repeat_offenders
    from correlator.batch.run import BatchOptions, run_batch

    root = tmp_path / "jobs"
    # five jobs whose node-1 is five different hosts, two whose node-1 is one host,
    # two whose node-1 only the directory names
    jobs = {**{f"a{i}": f"gpn10{i}" for i in range(5)}, "b0": "gpn200", "b1": "gpn200", "c0": None, "c1": None}
    for name, host in jobs.items():
        write_job(root / name, _failed_job(host))
    out = tmp_path / "out"
    res = run_batch(str(root), str(out), BatchOptions(workers=1, html=False))
    rows = {r["job"]: r for r in res.rows}
    assert all(r["status"] == "failed" for r in rows.values()), [(r["job"], r.get("error")) for r in res.rows]
    assert all(r["initiating_node"] == (jobs[j] or "node-1") for j, r in rows.items())
    assert rows["b0"]["initiating_node_alias"] == "node-1" and rows["c0"]["initiating_node_alias"] is None
    assert rows["c0"]["path_nodes"] == ["node-0", "node-1"] and rows["b0"]["path_nodes"] == ["node-0"]
    offs, tested = repeat_offenders(res.rows, "node")
    # gpn200 initiated twice; no node-1 adds up across jobs; every job's node-0 is its own
    assert [(o.key, o.initiated, o.aliases) for o in offs] == [("gpn200", 2, ["node-1"])]
    assert tested == len(jobs) * 2 - 1  # nine node-0s, seven hosts, two job/node-1s; gpn200 once
    md = (out / "index.md").read_text()
    section = md[md.index("## Repeat offenders: nodes"):md.index("## Repeat offenders: GPUs")]
    assert "| gpn200 (node-1) | 2 |" in section and "| node-1 |" not in section
    # before nodes were hosts, the nine node-1 directories were one node that initiated nine times
    legacy = [{**r, "path_nodes": None} for r in res.rows]
    for r in legacy:
        r["initiating_node"] = r["initiating_node_alias"] or r["initiating_node"]
        r["node_list"] = ["node-0", "node-1"]
    assert [(o.key, o.initiated) for o in repeat_offenders(legacy, "node")[0]] == [("node-1", 9)]
