"""Flight Recorder dumps: the safe loader, ingestion of real dump sets, and the
cross-rank verdict beside torch's own analyser (fr_trace) on the same dumps."""

from __future__ import annotations

import json
import os
import pickle
import re
from pathlib import Path

import duckdb
import pytest

from correlator.analysis.analyze import analyze
from correlator.ingest import IngestOptions, ingest
from parsers import flight_recorder as fr

QUIET = IngestOptions(echo_problems=False, workers=1)
HANGS = Path(__file__).resolve().parent.parent / "sample_logs" / "hangs"
FR_SETS = sorted(p.name for p in HANGS.glob("fr-*") if (p / "fr_dump").is_dir())

# What torch 2.13's _dump_fr_trace_json() wrote for one gloo all_reduce of a 4x2 tensor
# (captured here; keys sorted, no frames, pg_status numbers as strings, unset times 0).
TORCH_JSON = (
    '{"comm_lib_version":"","entries":[{"collective_seq_id":1,"input_dtypes":["Float"],'
    '"input_sizes":[[4,2]],"is_p2p":false,"op_id":1,"output_dtypes":["Float"],"output_sizes":[[4,2]],'
    '"p2p_seq_id":0,"pg_id":0,"process_group":["0","default_pg"],"profiling_name":"gloo:all_reduce",'
    '"record_id":0,"retired":false,"state":"scheduled","thread_id":"140677423733632","thread_name":"python",'
    '"time_created_ns":1796166884035913446,"time_discovered_completed_ns":0,"time_discovered_started_ns":0,'
    '"timeout_ms":1800000}],"nccl_comm_state":{},"pg_config":{"":{"desc":"","name":"","ranks":"[0]"}},'
    '"pg_status":{"0":{"last_completed_collective":"-1","last_enqueued_collective":"1",'
    '"last_started_collective":"-1"}},"version":"2.10"}'
)


class Plain:
    def __init__(self) -> None:
        self.version, self.entries, self.pg_config = "2.10", [], {}


class Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _real_dump() -> bytes:
    return (HANGS / "fr-hang-stall-rankfiles" / "fr_dump" / "rank_0").read_bytes()


# ------------------------------------------------------------------ the loader


def test_real_dump_loads_without_globals() -> None:
    dump = fr.load_dump(_real_dump())
    assert dump["version"] and isinstance(dump["entries"], list) and dump["entries"]


def test_refuses_an_object_of_a_class() -> None:
    data = pickle.dumps({"version": "2.10", "entries": [Plain()], "pg_config": {}}, protocol=4)
    assert fr.looks_like_dump(data[:8192])
    with pytest.raises(fr.NotAFlightRecorderDump, match="refused to load the global"):
        fr.load_dump(data)


def test_refuses_a_reduce_payload_and_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    data = pickle.dumps({"version": "2.10", "pg_config": {}, "entries": [Payload(marker)]}, protocol=4)
    with pytest.raises(fr.NotAFlightRecorderDump, match="refused"):
        fr.load_dump(data)
    assert not marker.exists()


def test_truncated_pickle() -> None:
    data = _real_dump()
    with pytest.raises(fr.NotAFlightRecorderDump, match="does not load"):
        fr.load_dump(data[: len(data) // 2])


def test_pickle_without_the_dump_keys() -> None:
    with pytest.raises(fr.NotAFlightRecorderDump, match="without the dump keys entries, pg_config"):
        fr.load_dump(pickle.dumps({"version": 1, "weights": [1.0]}))
    with pytest.raises(fr.NotAFlightRecorderDump, match="not a dump's dict"):
        fr.load_dump(pickle.dumps([1, 2, 3]))


def test_torch_json_dump() -> None:
    rows = fr.dump_rows(fr.load_dump(TORCH_JSON.encode()))
    entry, dump = rows
    assert entry.kind == "fr.entry" and entry.line_no == 1 and entry.level == "INFO"
    assert entry.attrs["op"] == "gloo:all_reduce" and entry.attrs["seq"] == "1"
    assert entry.attrs["numel"] == "8" and entry.attrs["retired"] == "false"
    assert entry.attrs["pg_ranks"] == "[0]"  # the lone pg_config keyed '' is the entries' group
    assert entry.ts is not None and entry.ts.year == 2026
    assert dump.kind == "fr.dump" and dump.line_no == 2
    assert dump.attrs["last_enqueued"] == "1" and dump.attrs["last_completed"] == "-1"


def test_entry_message_and_user_frame() -> None:
    rows = fr.dump_rows(fr.load_dump(_real_dump()))
    last = [r for r in rows if r.kind == "fr.entry"][-1]
    assert last.message.startswith("FR pg 0 (default_pg) seq 17 gloo:all_reduce in [[32, 16]] float")
    assert "retired=False" in last.message
    assert last.attrs["frame"].endswith("train.py:166 in main")  # not a frame inside torch/


@pytest.mark.parametrize(("name", "rank"), [
    ("fr_dump/rank_3", 3), ("nccl_trace_rank_12", 12), ("dumps/rank_2.json", 2), ("x/dump.pkl", None),
])
def test_rank_from_name(name: str, rank: int | None) -> None:
    assert fr.rank_from_name(name) == rank


def test_shared_references_stay_bounded() -> None:
    inner: list = [1] * 1000
    nested = [inner] * 1000  # a million values from a few kB of pickle (memo references)
    text = fr._text([nested] * 1000)
    assert len(text) < 3000 and text.endswith("...")


# ------------------------------------------------------------------ ingestion


def _timeline(target: Path, tmp_path: Path) -> tuple[duckdb.DuckDBPyConnection, list]:
    out = tmp_path / "t.parquet"
    result = ingest(target, out_parquet=out, options=QUIET)
    con = duckdb.connect()
    con.execute(f"CREATE VIEW events AS SELECT * FROM read_parquet('{out}')")
    return con, result.problems.items


def test_bad_dumps_are_problems_and_the_job_goes_on(tmp_path: Path) -> None:
    job = tmp_path / "job"
    job.mkdir()
    (job / "rank0.log").write_text("2026-12-01 10:00:00,000 INFO trainer: step 1 | rank 0 | loss 1.0\n")
    marker = tmp_path / "pwned"
    (job / "nccl_trace_rank_1").write_bytes(
        pickle.dumps({"version": "2.10", "pg_config": {}, "entries": [Payload(marker)]}, protocol=4))
    (job / "nccl_trace_rank_2").write_bytes(_real_dump()[:1500])  # cut short
    (job / "cache.pkl").write_bytes(pickle.dumps({"weights": [1.0, 2.0]}))
    (job / "nccl_trace_rank_0.json").write_text(TORCH_JSON)
    con, problems = _timeline(job, tmp_path)
    why = {p.file: p.what for p in problems}
    assert "refused to load the global" in why["nccl_trace_rank_1"]
    assert "does not load" in why["nccl_trace_rank_2"]
    assert "not a flight-recorder dump" in why["cache.pkl"]
    assert not marker.exists()
    got = con.execute("SELECT file, rank, source, kind FROM events ORDER BY file, line_no").fetchall()
    assert ("nccl_trace_rank_0.json", 0, "flight_recorder", "fr.entry") in got
    assert ("nccl_trace_rank_0.json", 0, "flight_recorder", "fr.dump") in got
    assert any(f == "rank0.log" for f, *_ in got)


@pytest.mark.parametrize("name", FR_SETS)
def test_real_dump_sets_become_events(name: str, tmp_path: Path) -> None:
    """One fr.entry per entry (line = index + 1) and one fr.dump per file, ranked by
    the file name; checked against the dumps read with the stdlib (trusted here)."""
    con, _ = _timeline(HANGS / name, tmp_path)
    dumps = sorted((HANGS / name / "fr_dump").iterdir())
    assert len(dumps) >= 2
    for path in dumps:
        raw = pickle.loads(path.read_bytes())
        rank = int(path.name.rsplit("_", 1)[1])
        rel = f"fr_dump/{path.name}"
        got = con.execute(
            "SELECT line_no, rank, ts, attrs['seq'], attrs['op'], attrs['input_sizes'], attrs['retired'] "
            "FROM events WHERE file = ? AND kind = 'fr.entry' ORDER BY line_no", [rel]).fetchall()
        assert [g[0] for g in got] == list(range(1, len(raw["entries"]) + 1))
        assert {g[1] for g in got} == {rank}
        for g, e in zip(got, raw["entries"], strict=True):
            assert g[3] == str(e["collective_seq_id"]) and g[4] == e["profiling_name"]
            assert g[5] == str(e["input_sizes"]) and g[6] == str(e["retired"]).lower()
            assert abs(g[2].timestamp() - e["time_created_ns"] / 1e9) < 1e-5
        (n,) = con.execute("SELECT count(*) FROM events WHERE file = ? AND kind = 'fr.dump' AND rank = ?",
                           [rel, rank]).fetchone()
        assert n == 1


# ------------------------------------------------------------------ beside fr_trace


def fr_trace_conclusion(text: str) -> dict:
    """What torch's fr_trace said on the re-keyed dumps (the as-is run crashes on
    every gloo dump set: pg_config keyed '' while entries say pg '0')."""
    rekeyed = text.split("### same dumps", 1)[1]
    first = rekeyed.split("\n$ ", 2)[1]  # the first command's output
    out: dict = {"missing": set(), "culprits": set(), "undecided_missed": set()}
    for m in re.finditer(r"missing ranks: \{([\d, ]+)\}", first):
        out["missing"] |= {int(x) for x in m.group(1).split(",")}
    for m in re.finditer(r"Culprit rank (\d+)", first):
        out["culprits"].add(int(m.group(1)))
    for m in re.finditer(r"missed FR dumps from ranks \(\{([\d, ]+)\}\)", first):
        out["undecided_missed"] |= {int(x) for x in m.group(1).split(",")}
    return out


def _fr_hypotheses(name: str) -> tuple:
    v = analyze(str(HANGS / name), options=QUIET)
    fr_hyps = [h for h in v.hypotheses if (h.evidence is not None and h.evidence.file.startswith("fr_dump/"))
               or (h.evidence is None and h.rule_id is None)]
    return v, fr_hyps


# Per set: fr_trace's conclusion (from its stored output), ours on the same dumps
# (rank None: a tie, no rank picked), and whether our verdict is truth.json's.
FR_TRACE_VS_OURS = {
    # Agree: rank 1 never reached seq 17, where 0 and 2 wait; fr_trace calls it missing
    # from that collective, we name it the rank they wait for (nccl_timeout_hang).
    "fr-hang-stall-rankfiles": ({"missing": {1}}, (1, "nccl_timeout_hang"), True),
    # Differ, we are right: fr_trace takes the first entry it reads for seq 17 (rank
    # 2's all_gather) as the expected collective and calls the two ranks that ran
    # all_reduce "Culprit"; two ranks against one, the odd one is rank 2, which is
    # what the code did (truth.json: the culprit called all_gather).
    "fr-mismatch-allgather-tee": ({"culprits": {0, 1}}, (2, "collective_mismatch"), True),
    # Differ, we decide where fr_trace cannot: it gives up because rank 0 left no dump.
    # The two dumps disagree 1 against 1 ([[515]] vs [[32, 16]]); rank 0's own abort
    # ("340 vs 328. Received data size doesn't match expected size": it received
    # more than its buffer held) puts it on the smaller side with rank 2, so rank 1
    # (515 elements) is the odd one, as truth.json says.
    "fr-mismatch-size-tee": ({"undecided_missed": {0}}, (1, "collective_mismatch"), True),
    # Same as above with rank 2 aborting (its enforce line carries no rank prefix:
    # worker-2.log) and rank 0 the larger: ours rank 0, fr_trace undecided.
    "fr-mismatch-size-workers": ({"undecided_missed": {2}}, (0, "collective_mismatch"), True),
    # Agree that rank 2 left no dump and that the dumps alone say no more: fr_trace
    # stops there; we name rank 2 as missing, weakly, and its own logs (the
    # launcher's SIGKILL, exit -9) give the verdict (oom, rank 2).
    "fr-missing-rank-sigkill-logdir": ({"undecided_missed": {2}}, (2, "other"), True),
    # Differ, we are right: fr_trace gives up (rank 0 aborted, no dump). The dumps
    # disagree 1 against 1 on the all_gather input ([[10, 1]] vs [[8, 1]]); the
    # unprefixed gloo abort ("20 vs 16": received more than its buffer) is the only
    # dump-less rank's, so rank 0 held 8 rows like rank 1: rank 2 is the odd one, and
    # as only the batch dimension differs, uneven data (data_error), not a code path.
    "fr-uneven-batch-rankfiles": ({"undecided_missed": {0}}, (2, "data_error"), True),
    # Differ; neither can know, we say so: two ranks, all_reduce against all_gather.
    # fr_trace names rank 1 "Culprit" only because it takes the first rank it reads
    # (rank 0) as the expected collective, the same rule that named the majority in
    # fr-mismatch-allgather-tee. The fault was injected into rank 1, but neither the
    # dumps nor the logs hold a fact for it: ours is a tie (no rank) naming what would
    # break it, and truth.json says the same (kind unknown).
    "fr-mismatch-allgather-2rank-tee": ({"culprits": {1}}, (None, "collective_mismatch"), False),
}


@pytest.mark.parametrize("name", sorted(FR_TRACE_VS_OURS))
def test_verdict_beside_fr_trace(name: str) -> None:
    theirs, (rank, category), as_truth = FR_TRACE_VS_OURS[name]
    said = fr_trace_conclusion((HANGS / name / "fr_trace.txt").read_text())
    for key, value in theirs.items():
        assert said[key] == value, (key, said)
    v, fr_hyps = _fr_hypotheses(name)
    assert any(h.rank == rank and h.category == category for h in fr_hyps), fr_hyps
    truth = json.loads((HANGS / name / "truth.json").read_text())
    assert v.initiating is not None and v.root_cause is not None
    assert v.root_cause.category == truth["root_cause"]["category"]
    if as_truth:
        assert v.initiating.rank == truth["initiating"]["rank"]
    else:  # a tie: said as one, with what would break it, and no rank picked
        assert v.initiating.rank is None and v.initiating.kind == "unknown"
        # (the dumps' tie, or the same tie read from the ranks' own timeout tracebacks: each says
        # what would break it)
        assert ("a tie, no rank is picked; it would be broken by" in v.root_cause.explanation
                or "one against one, no majority says which is odd; what would break the tie" in
                v.root_cause.explanation), v.root_cause.explanation


def test_every_dump_set_has_its_comparison() -> None:
    assert set(FR_TRACE_VS_OURS) == set(FR_SETS)


# ------------------------------------------------------------------ the inferences on built dumps


def _entry(seq: int, op: str, sizes: list, retired: bool = True) -> dict:
    return {
        "record_id": seq - 1, "pg_id": 0, "process_group": ("0", "default_pg"), "collective_seq_id": seq,
        "p2p_seq_id": 0, "op_id": seq, "profiling_name": f"nccl:{op}", "time_created_ns": 1796157217990107019 + seq,
        "input_sizes": sizes, "input_dtypes": ["Float"] * len(sizes), "output_sizes": sizes,
        "output_dtypes": ["Float"] * len(sizes), "state": "scheduled" if not retired else "completed",
        "time_discovered_started_ns": None, "time_discovered_completed_ns": None, "retired": retired,
        "timeout_ms": 600000, "is_p2p": False, "frames": [{"name": "step", "filename": "train.py", "line": 7}],
    }


def _job(tmp_path: Path, per_rank: dict[int, list[dict]], world: int) -> Path:
    job = tmp_path / "job"
    job.mkdir(parents=True)
    for rank, entries in per_rank.items():
        dump = {"version": "2.10", "pg_config": {"0": {"name": "default_pg", "desc": "", "ranks": str(list(range(world)))}},
                "pg_status": {"0": {"last_enqueued_collective": entries[-1]["collective_seq_id"]}}, "entries": entries}
        (job / f"nccl_trace_rank_{rank}").write_bytes(pickle.dumps(dump))
    return job


def _inferred(job: Path) -> list:
    v = analyze(str(job), options=QUIET)
    return [(h.rank, h.category) for h in v.hypotheses], v


def test_batch_dimension_only_is_data(tmp_path: Path) -> None:
    base = [_entry(1, "all_reduce", [[4]])]
    job = _job(tmp_path, {r: [*base, _entry(2, "all_gather", [[30 if r == 3 else 32, 16]])] for r in range(4)}, 4)
    hyps, v = _inferred(job)
    assert (3, "data_error") in hyps and v.initiating.rank == 3


def test_other_dimension_is_a_mismatch(tmp_path: Path) -> None:
    base = [_entry(1, "all_reduce", [[4]])]
    job = _job(tmp_path, {r: [*base, _entry(2, "all_gather", [[32, 8 if r == 1 else 16]])] for r in range(3)}, 3)
    hyps, v = _inferred(job)
    assert (1, "collective_mismatch") in hyps and v.initiating.rank == 1


def test_two_against_two_is_a_tie(tmp_path: Path) -> None:
    base = [_entry(1, "all_reduce", [[4]])]
    job = _job(tmp_path, {r: [*base, _entry(2, "all_reduce" if r < 2 else "broadcast", [[4]])] for r in range(4)}, 4)
    hyps, v = _inferred(job)
    assert (None, "collective_mismatch") in hyps
    assert not any(r is not None and c == "collective_mismatch" for r, c in hyps)
    assert "a tie, no rank is picked" in v.root_cause.explanation


def test_behind_minority_named_and_majority_behind_not(tmp_path: Path) -> None:
    done = [_entry(1, "all_reduce", [[4]]), _entry(2, "all_reduce", [[4]])]
    waiting = [*done, _entry(3, "all_reduce", [[4]], retired=False)]
    hyps, _ = _inferred(_job(tmp_path / "a", {0: waiting, 1: waiting, 2: done}, 3))
    assert (2, "nccl_timeout_hang") in hyps
    # two ranks never reached seq 3 and one waits there: the one ahead is the odd one,
    # which the dumps alone do not explain; nobody is named behind
    hyps, _ = _inferred(_job(tmp_path / "b", {0: waiting, 1: done, 2: done}, 3))
    assert not any(c == "nccl_timeout_hang" for _, c in hyps)


def test_a_rank_without_a_dump_is_named_only_in_a_failing_job(tmp_path: Path) -> None:
    same = [_entry(1, "all_reduce", [[4]])]
    job = _job(tmp_path, {0: same, 1: same}, 3)
    v = analyze(str(job), options=QUIET)
    assert v.status != "failed" and not v.hypotheses  # dumps alone prove no failure


def test_older_dump_without_collective_seq_id() -> None:
    """Dumps before version 2.0 number collectives with ``seq_id`` and have no process_group."""
    old = {"version": "1.4", "pg_config": {"0": {"name": "0", "desc": "default_pg", "ranks": "[0, 1]"}},
           "entries": [{"record_id": 0, "pg_id": 0, "seq_id": 5, "op_id": 5, "profiling_name": "nccl:all_reduce",
                        "input_sizes": [[2, 3]], "output_sizes": [[2, 3]], "time_created_ns": 10**18,
                        "state": "started", "retired": False, "frames": []}]}
    entry = fr.dump_rows(fr.load_dump(pickle.dumps(old)))[0]
    assert entry.attrs["seq"] == "5" and entry.attrs["pg_id"] == "0" and entry.attrs["pg_ranks"] == "[0, 1]"
    assert entry.attrs["numel"] == "6"
