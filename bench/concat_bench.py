"""How the timeline file is assembled from ingest's Parquet parts: three ways, timed.

    python bench/concat_bench.py JOB_DIR [JOB_DIR ...] [--pairs 5] [--out-dir bench/out/concat]

For each job directory, alternating the variants round after round (the machine's
speed drifts; see bench/README.md), each as its own child process:

- ``codec``: ``correlator ingest JOB --out X.parquet`` as shipped: the parts' row
  groups copied byte for byte under one new footer (``parquet_concat``);
- ``pyarrow``: the same ingest with ``write_parquet`` replaced by pyarrow's own
  writer: each part read row group by row group (the part-only columns left out)
  and written again into one file with the parts' settings and the same
  ``correlator.*`` key-value metadata;
- ``dir``: the same ingest with the parts moved into a directory as they are (the
  cheapest a directory of parts can be; the part-only columns stay in them).

and then, on what each wrote, ``correlator analyze OUT --format json`` (for
``dir``, the same command with the timeline opened as ``read_parquet('dir/*.parquet')``,
``event_row`` made unique across parts from the part's number; a measurement
hook, not a supported input). Reported per variant: the ingest's wall time, the
writing step's own wall time (timed inside the ingest), and the analyze wall
time, as ranges over the rounds. The figures and the decision taken from them
are in ``correlator/ingest/parquet_concat.py``'s docstring.

Module level imports only the standard library: ingest's workers are spawned and
import the launching script again.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VARIANTS = ("codec", "pyarrow", "dir")


# ------------------------------------------------------------------ the variants


def _write_pyarrow(staged, out: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from correlator.ingest import pipeline as p

    keep = [n for n in p._PART_SCHEMA.names if n not in p.PART_EXTRAS]
    schema = pa.schema([p._PART_SCHEMA.field(n) for n in keep])
    meta = p._metadata(staged.con)
    opts = dict(p._PART_WRITE)
    opts["use_dictionary"] = [c for c in opts["use_dictionary"] if c in keep]
    opts["write_statistics"] = [c for c in opts["write_statistics"] if c in keep]
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with pq.ParquetWriter(tmp, schema, store_schema=False, **opts) as writer:
        for part in staged.parts:
            f = pq.ParquetFile(part)
            for i in range(f.num_row_groups):
                writer.write_table(f.read_row_group(i, columns=keep).replace_schema_metadata(None))
        writer.add_key_value_metadata(meta)
    tmp.replace(out)


def _write_dir(staged, out: Path) -> None:
    from correlator.ingest import pipeline as p

    meta = p._metadata(staged.con)
    out.mkdir(parents=True, exist_ok=True)
    for i, part in enumerate(staged.parts):
        os.replace(part, out / f"part-{i:06d}.parquet")
    (out / "metadata.json").write_text(json.dumps(meta))


def _child_ingest(variant: str, job: str, out: str) -> None:
    """``correlator ingest JOB --out OUT`` with the variant's writer, as the CLI runs it."""
    from correlator.ingest import workers

    workers.start_for_command(["ingest", job, "--out", out])
    from correlator.ingest import pipeline

    original = pipeline.write_parquet
    write = {"codec": original, "pyarrow": _write_pyarrow, "dir": _write_dir}[variant]

    def timed_write(staged, path: Path) -> None:
        t0 = time.perf_counter()
        write(staged, Path(path))
        print(f"WRITE_SECONDS {time.perf_counter() - t0:.4f}", file=sys.stderr)

    pipeline.write_parquet = timed_write
    from correlator.cli import main as cli

    sys.argv = ["correlator", "ingest", job, "--out", out]
    try:
        cli()
    finally:
        workers.discard_early()


def _child_analyze_dir(directory: str) -> None:
    """``correlator analyze`` of a directory of parts (measurement hook)."""
    import pyarrow as pa

    import correlator.target as target
    from correlator.timeline.problems import PROBLEM_SCHEMA
    from correlator.timeline.schema import EVENT_SCHEMA, FILE_SCHEMA

    meta = json.loads((Path(directory) / "metadata.json").read_text())
    glob = str(Path(directory) / "*.parquet")
    cols = ", ".join(EVENT_SCHEMA.names)

    def attach(con, path: str) -> None:
        con.execute(f"CREATE VIEW events AS SELECT {cols} FROM read_parquet('{glob}')")
        con.execute(
            f"CREATE VIEW {target.ROWS_VIEW} AS SELECT "
            "file_row_number + (CAST(regexp_extract(filename, 'part-(\\d+)', 1) AS BIGINT) << 32) AS event_row, "
            f"{cols} FROM read_parquet('{glob}', filename = true, file_row_number = true)"
        )
        for name, schema in (("files", FILE_SCHEMA), ("problems", PROBLEM_SCHEMA)):
            rows = json.loads(meta.get(f"correlator.{name}") or "[]")
            con.register(f"_{name}", pa.Table.from_pylist(rows, schema=schema))
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM _{name}")
            con.unregister(f"_{name}")

    target._attach_parquet = attach
    real_kind = target.kind_of
    target.kind_of = lambda t: "parquet" if t == directory else real_kind(t)
    from correlator.cli import main as cli

    sys.argv = ["correlator", "analyze", directory, "--format", "json"]
    cli()


# ------------------------------------------------------------------ the parent


def _timed(argv: list[str]) -> tuple[float, int, str, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=REPO)
    return time.perf_counter() - t0, proc.returncode, proc.stdout, proc.stderr


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(f.stat().st_size for f in path.iterdir())
    return path.stat().st_size


def run(jobs: list[Path], pairs: int, out_dir: Path) -> dict:
    out_dir.mkdir(parents=True, exist_ok=True)
    me = [sys.executable, str(Path(__file__).resolve())]
    results: dict = {}
    for job in jobs:
        name = job.name if job.name != "job" else job.parent.name + "-" + job.name
        res = results.setdefault(str(job), {v: {"ingest": [], "write": [], "analyze": [], "bytes": 0} for v in VARIANTS})
        verdicts: dict[str, str] = {}
        for r in range(pairs):
            order = VARIANTS if r % 2 == 0 else tuple(reversed(VARIANTS))
            for v in order:
                out = out_dir / (f"{name}.{v}" + ("" if v == "dir" else ".parquet"))
                shutil.rmtree(out, ignore_errors=True) if out.is_dir() else out.unlink(missing_ok=True)
                secs, rc, _so, se = _timed([*me, "_ingest", v, str(job), str(out)])
                if rc != 0:
                    raise SystemExit(f"{v} ingest of {job} failed ({rc}):\n{se[-3000:]}")
                w = re.search(r"WRITE_SECONDS (\S+)", se)
                res[v]["ingest"].append(round(secs, 3))
                res[v]["write"].append(float(w.group(1)) if w else None)
                res[v]["bytes"] = _size(out)
                argv = ([*me, "_analyze_dir", str(out)] if v == "dir"
                        else [sys.executable, "-m", "correlator", "analyze", str(out), "--format", "json"])
                secs, rc, so, se = _timed(argv)
                if rc not in (0, 1, 3):
                    raise SystemExit(f"{v} analyze of {job} failed ({rc}):\n{se[-3000:]}")
                res[v]["analyze"].append(round(secs, 3))
                verdicts[v] = _verdict(so)
            print(f"{name} round {r + 1}: " + "  ".join(
                f"{v} ingest {res[v]['ingest'][-1]:.2f} write {res[v]['write'][-1]:.3f} analyze {res[v]['analyze'][-1]:.2f}"
                for v in VARIANTS), flush=True)
        res["same_verdict"] = len(set(verdicts.values())) == 1
    return results


def _verdict(stdout: str) -> str:
    try:
        doc = json.loads(stdout)
    except ValueError:
        return stdout[:200]
    keep = {k: doc.get(k) for k in ("events", "status", "initiating")}
    keep["rule"] = (doc.get("root_cause") or {}).get("rule_id")
    return json.dumps(keep, sort_keys=True, default=str)


def _range(xs: list) -> str:
    xs = [x for x in xs if x is not None]
    return f"{min(xs):.3f}-{max(xs):.3f}" if xs else "-"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "_ingest":
        _child_ingest(*sys.argv[2:5])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "_analyze_dir":
        sys.path.insert(0, str(REPO))
        _child_analyze_dir(sys.argv[2])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("jobs", nargs="+", type=Path)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--out-dir", type=Path, default=REPO / "bench" / "out" / "concat")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    results = run(a.jobs, a.pairs, a.out_dir)
    for job, res in results.items():
        print(f"\n{job}  (same verdict from all three: {res['same_verdict']})")
        for v in VARIANTS:
            r = res[v]
            print(f"  {v:8} ingest {_range(r['ingest'])} s  write step {_range(r['write'])} s  "
                  f"analyze {_range(r['analyze'])} s  output {r['bytes'] / 1e6:.1f} MB")
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
