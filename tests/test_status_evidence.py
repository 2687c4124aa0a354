"""Status is a claim on evidence (issue: failure is evidence, healthy is evidence too).

Property and metamorphic tests over real lines: a lone traceback is a failure
whatever the number of ranks visible; an unrelated line of another rank changes
nothing; a log cut mid-run, an empty or unrelated file is not healthy; the
general classifier places failures no rule names, from what the software says.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_job
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from correlator.analysis.analyze import analyze
from correlator.analysis.classifier import _builtin, classify_failure, facts_of, load_classifier
from correlator.ingest import IngestOptions, NothingToRead

QUIET = IngestOptions(echo_problems=False)

# Real tracebacks, each as Python printed it (sample_logs/faults captures, torch 2.13).
TRACEBACKS = {
    "storage_io": (
        "Traceback (most recent call last):\n"
        '  File "/home/user/job/train.py", line 61, in <module>\n'
        "    json.dump(metrics, fh)\n"
        "OSError: [Errno 28] No space left on device\n"
    ),
    "oom": (
        "Traceback (most recent call last):\n"
        '  File "/home/user/job/train.py", line 40, in <module>\n'
        "    big = torch.empty(1 << 40)\n"
        "RuntimeError: [enforce fail at alloc_cpu.cpp:119] data. DefaultCPUAllocator: can't allocate memory: "
        "you tried to allocate 4398046511104 bytes. Error code 12 (Cannot allocate memory)\n"
    ),
    "data_error": (
        "Traceback (most recent call last):\n"
        '  File "/home/user/job/train.py", line 77, in <module>\n'
        "    for batch in loader:\n"
        '  File "/home/user/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 733, in __next__\n'
        "    data = self._next_data()\n"
        '  File "/home/user/venv/lib/python3.11/site-packages/torch/utils/data/_utils/collate.py", line 211, in collate\n'
        "    return torch.stack(batch, 0, out=out)\n"
        "RuntimeError: stack expects each tensor to be equal size, but got [16] at entry 0 and [13] at entry 3\n"
    ),
}
STEP = "2026-12-01 20:00:{s:02d},000 - INFO - train - step {n} | rank {r} | loss 0.5 | 0.1 s/step\n"


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(category=st.sampled_from(sorted(TRACEBACKS)), peers=st.integers(min_value=0, max_value=3))
def test_a_lone_traceback_is_a_failure_with_any_number_of_ranks_visible(tmp_path_factory, category, peers):
    root = tmp_path_factory.mktemp("job")
    files = {"rank0.log": STEP.format(s=1, n=1, r=0) + TRACEBACKS[category]}
    for r in range(1, peers + 1):  # peers that only show a step line: no echo, no failure of their own
        files[f"rank{r}.log"] = STEP.format(s=1, n=1, r=r)
    v = analyze(write_job(root, files), options=QUIET)
    assert v.status == "failed"
    assert v.root_cause is not None and v.root_cause.category == category
    assert v.root_cause.basis and v.root_cause.basis[0].startswith(("classifier", "rule"))
    assert v.initiating is not None and v.initiating.kind == "rank"


@pytest.mark.parametrize("category", sorted(TRACEBACKS))
def test_a_pasted_traceback_alone_is_a_failure(tmp_path, category):
    v = analyze(write_job(tmp_path, {"paste.txt": TRACEBACKS[category]}), options=QUIET)
    assert v.status == "failed" and v.root_cause.category == category


def test_an_unrelated_line_of_another_rank_changes_nothing(tmp_path):
    alone = analyze(write_job(tmp_path / "a", {"paste.txt": TRACEBACKS["storage_io"]}), options=QUIET)
    more = analyze(write_job(tmp_path / "b", {
        "paste.txt": TRACEBACKS["storage_io"],
        "rank5.log": "2026-12-01 20:00:01,000 - INFO - train - loading tokenizer\n",
    }), options=QUIET)
    assert (alone.status, alone.root_cause.category) == (more.status, more.root_cause.category) == ("failed", "storage_io")


def test_a_log_cut_mid_run_is_not_healthy(tmp_path):
    steps = "".join(STEP.format(s=i, n=i, r=0) for i in range(1, 5))
    cut = analyze(write_job(tmp_path / "cut", {"rank0.log": steps}), options=QUIET)
    assert cut.status == "inconclusive" and any("step 4" in m for m in cut.missing)
    done = steps + "2026-12-01 20:00:06,000 - INFO - train - Training completed. 4 steps in 5.0 s\n"
    whole = analyze(write_job(tmp_path / "done", {"rank0.log": done}), options=QUIET)
    assert whole.status == "healthy" and "rank0.log:5" in whole.status_reason


@pytest.mark.parametrize("text", ["shopping list: eggs, milk\n", "hello world\nnothing to see\n"])
def test_unrelated_text_is_not_a_healthy_job(tmp_path, text):
    v = analyze(write_job(tmp_path, {"notes.txt": text}), options=QUIET)
    assert v.status == "inconclusive" and v.missing


def test_an_empty_file_is_no_job_at_all(tmp_path):
    with pytest.raises(NothingToRead):
        analyze(write_job(tmp_path, {"notes.txt": "\n"}), options=QUIET)


def test_a_survived_and_logged_exception_is_not_a_failure(tmp_path):
    text = (STEP.format(s=1, n=1, r=0) + TRACEBACKS["data_error"]
            + "".join(STEP.format(s=i, n=i, r=0) for i in range(2, 6))
            + "2026-12-01 20:00:07,000 - INFO - train - Training completed. 5 steps in 6.0 s\n")
    v = analyze(write_job(tmp_path, {"rank0.log": text}), options=QUIET)
    assert v.status == "healthy"


def test_only_echoes_give_their_category_and_an_unknown_culprit(tmp_path):
    echo = ("RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] "
            "Connection closed by peer [127.0.0.1]:4322\n")
    files = {f"rank{r}.log": STEP.format(s=1, n=1, r=r) + "Traceback (most recent call last):\n"
             '  File "/home/user/job/train.py", line 90, in <module>\n    loss.backward()\n' + echo
             for r in (0, 1)}
    v = analyze(write_job(tmp_path, files), options=QUIET)
    assert v.status == "failed"
    assert v.root_cause is not None and v.root_cause.rule_id is None and v.root_cause.category
    assert v.initiating.kind == "unknown" and v.initiating.rank is None and v.missing


def test_only_echoes_cite_the_earliest_echo_as_the_first_deviating_line(tmp_path):
    # torch 1.x watchdog lines (no process group, no stamp), as pasted in a public thread
    watchdog = ("[E ProcessGroupNCCL.cpp:737] [Rank {r}] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for {ms} milliseconds "
                "before timing out.\n")
    text = "".join(watchdog.format(r=r, ms=ms) for r, ms in ((3, 1802211), (1, 1802212), (6, 1802210)))
    v = analyze(write_job(tmp_path, {"console.log": text}), options=QUIET)
    assert v.status == "failed" and v.initiating.kind == "unknown"
    assert v.first_deviating is not None
    assert (v.first_deviating.file, v.first_deviating.line_no) == ("console.log", 1)
    assert "echo" in v.first_deviating.why


# --------------------------------------------------------------------------- the classifier


def test_every_classifier_example_is_placed_by_its_entry_and_no_near_miss_is():
    entries = load_classifier()
    assert entries, "the built-in classifier is empty"
    for e in entries:
        for ex in e.examples:
            c = classify_failure(ex, e.phase or "during_training", entries)
            assert c is not None and c.entry.id == e.id, (e.id, ex[:80], c and c.entry.id)
        for nm in e.near_misses:
            c = classify_failure(nm, "during_training", entries)
            assert c is None or c.entry.id != e.id, (e.id, nm[:80])


@pytest.mark.parametrize(
    ("text", "errno"),
    [
        ("OSError: [Errno 28] No space left on device", "ENOSPC"),
        ("write(): fd 12 failed with No space left on device", "ENOSPC"),
        ("PermissionError: [Errno 13] Permission denied: '/ckpt'", "EACCES"),
        ("OSError: [Errno 30] Read-only file system: '/out'", "EROFS"),
    ],
)
def test_errno_is_read_from_its_number_or_its_text(text, errno):
    assert errno in facts_of(text).errnos


def test_the_basis_names_what_the_decision_rested_on():
    c = classify_failure(TRACEBACKS["data_error"], "during_training")
    assert c is not None and c.category == "data_error" and "collate" in c.basis_text()
    c = classify_failure(TRACEBACKS["storage_io"], None)
    assert c is not None and "errno ENOSPC" in c.basis_text()


def test_a_config_check_before_training_is_config_but_during_training_is_code():
    text = "ValueError: could not convert string to float: 'warmup'"
    assert classify_failure(text, "before_training").category == "config_error"
    assert classify_failure(text, "during_training").category == "code_exception"


def test_a_message_that_states_a_setting_constraint_is_config_in_any_phase():
    text = "ValueError: max_steps must be positive, got -1"
    for phase in ("before_training", "during_training", None):
        assert classify_failure(text, phase).category == "config_error"


def test_users_entries_come_before_the_builtin_ones(tmp_path):
    (tmp_path / "mine.yaml").write_text(
        "classifier:\n  - id: my-quota\n    category: storage_io\n    basis: [message]\n"
        "    message: 'quota exceeded'\n    why: our cluster's quota\n"
    )
    entries = load_classifier((tmp_path,))
    assert entries[0].id == "my-quota" and len(entries) == len(_builtin()) + 1
    assert classify_failure("RuntimeError: quota exceeded on /lustre", None, entries).entry.id == "my-quota"


def test_a_directory_of_separate_jobs_says_so_and_suggests_batch(tmp_path):
    import shutil

    samples = Path(__file__).resolve().parents[1] / "sample_logs"
    for name in ("gloo-data-error-per-rank", "healthy-per-rank"):
        shutil.copytree(samples / name, tmp_path / name)
    v = analyze(str(tmp_path), options=QUIET)
    assert v.status == "inconclusive" and "2 separate jobs" in v.status_reason
    assert any("correlator batch" in m for m in v.missing)
    # one job's node directories run at the same time: analysed as one job
    one = analyze(str(samples / "two-node-faketime-skew"), options=QUIET)
    assert one.status == "failed" and "separate jobs" not in (one.status_reason or "")


# A run that trained on after a warning is healthy only where its records do not stop
# inside a loop they count through: a snapshot of a running job is not a run that ended.
WARN = "2026-12-01 20:00:00,500 - WARNING - py.warnings - UserWarning: the grad strides do not match the bucket view\n"
LOOP_STEP = "2026-12-01 20:00:{s:02d},000 - INFO - train - [{r}/2] epoch {e}/3 step {n} batch {b}/4 loss 0.5\n"
MEGATRON = (" [2026-12-01 20:00:{s:02d}] iteration {n:>8}/{total:>8} | consumed samples: {c:>8} | "
            "lm loss: 2.1E+00 | grad norm: 1.1 |\n")


def _loop_job(root: Path, batches: int) -> Path:
    files = {}
    for r in range(2):
        lines = [WARN]
        for i in range(batches):
            lines.append(LOOP_STEP.format(s=1 + i, r=r, e=1 + i // 4, n=i + 1, b=i % 4 + 1))
        files[f"rank{r}.log"] = "".join(lines)
    return write_job(root, files)


@pytest.mark.parametrize(("batches", "status"), [(12, "healthy"), (10, "inconclusive"), (6, "inconclusive"),
                                                  (9, "inconclusive")])
def test_progress_after_a_warning_is_healthy_only_at_a_loops_end(tmp_path, batches, status):
    # 12 batches end epoch 3 of 3; 10 end inside epoch 3, 6 inside epoch 2
    v = analyze(_loop_job(tmp_path, batches), options=QUIET)
    assert v.status == status, v.status_reason


@pytest.mark.parametrize(("last", "status"), [(50, "healthy"), (30, "inconclusive")])
def test_a_stated_iteration_total_says_whether_the_log_stops_mid_run(tmp_path, last, status):
    lines = [WARN] + [MEGATRON.format(s=i // 10, n=i, total=50, c=i * 64) for i in range(10, last + 1, 10)]
    v = analyze(write_job(tmp_path, {"console.log": "".join(lines)}), options=QUIET)
    assert v.status == status, v.status_reason


def test_a_position_that_does_not_move_is_no_loop(tmp_path):
    # "[1/2]" is the rank of the world on every line: the stream counts through no loop
    line = "2026-12-01 20:00:{s:02d},000 - INFO - train - [1/2] step {n} loss 0.5\n"
    text = WARN + "".join(line.format(s=1 + i, n=i) for i in range(5))
    v = analyze(write_job(tmp_path, {"rank1.log": text}), options=QUIET)
    assert v.status == "healthy", v.status_reason


# docker compose's console: one stream per service (the services have no rank)
COMPOSE_TRACEBACK = (
    "{svc}  | Traceback (most recent call last):\n"
    '{svc}  |   File "/app/train.py", line 40, in <module>\n'
    '{svc}  |     label = batch["label"]\n'
    "{svc}  | KeyError: 'label'\n"
)
COMPOSE_STEP = "{svc}  | 2026-12-01 20:00:{s:02d},000 INFO step {n} loss 2.30\n"


def test_one_services_steps_are_not_anothers_training_on(tmp_path):
    text = (COMPOSE_STEP.format(svc="job-worker-1", s=1, n=1) + COMPOSE_STEP.format(svc="job-worker-2", s=1, n=1)
            + COMPOSE_TRACEBACK.format(svc="job-worker-2") + COMPOSE_STEP.format(svc="job-worker-1", s=2, n=2)
            + COMPOSE_STEP.format(svc="job-worker-1", s=3, n=3))
    v = analyze(write_job(tmp_path, {"console.log": text}), options=QUIET)
    assert v.status == "failed", v.status_reason
    assert v.root_cause is not None and "KeyError" in v.root_cause.evidence.text
    assert v.initiating.node == "job-worker-2"


def test_a_service_that_trains_on_after_its_own_error_survived_it(tmp_path):
    text = (COMPOSE_STEP.format(svc="job-worker-1", s=1, n=1) + COMPOSE_STEP.format(svc="job-worker-2", s=1, n=1)
            + COMPOSE_TRACEBACK.format(svc="job-worker-2") + COMPOSE_STEP.format(svc="job-worker-1", s=2, n=2)
            + COMPOSE_STEP.format(svc="job-worker-2", s=2, n=2))
    v = analyze(write_job(tmp_path, {"console.log": text}), options=QUIET)
    assert v.status != "failed", v.status_reason
