"""The study runner: seeding, resume, corruption, identity, SIGKILL, Dask."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.runner import (
    ChunkSpec,
    Study,
    chunk_path,
    computed_by,
    load_manifest,
    load_study,
    run_study,
)
from bombsolve.solvers.common.toy import coin_chunk
from tests.common.reporters import recording_updates

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

ROOT = Path(__file__).resolve().parents[2]


def coin_study(n=2000, seed=11, p=0.4, chunk_size=250, sleep=0.0) -> Study:
    params = {"p": p, "sleep": sleep}
    return Study(
        "toy.coin", params, n_cases=n, seed=seed, chunk_fn=coin_chunk, chunk_size=chunk_size
    )


def test_chunk_seeds_are_spawned_children():
    root = np.random.SeedSequence(5)
    kids = root.spawn(3)
    for i in range(3):
        spec = ChunkSpec(i, 0, 10, 5)
        assert spec.seed_seq.generate_state(4).tolist() == kids[i].generate_state(4).tolist()
    assert len(ChunkSpec(0, 0, 10, 5).case_seeds()) == 10
    assert ChunkSpec(0, 0, 0, 5).case_seeds().shape == (0,)


def test_result_matches_closed_form_rate(tmp_path):
    df = run_study(coin_study(n=4000, p=0.25), tmp_path, workers=1, progress=False)
    assert list(df["case"]) == list(range(4000))
    # 0.25 +- 5 standard errors (sd = sqrt(.25*.75/4000) = 0.0068)
    assert abs(df["win"].mean() - 0.25) < 0.035


def test_one_and_two_workers_agree(tmp_path):
    a = run_study(coin_study(), tmp_path / "a", workers=1, progress=False)
    b = run_study(coin_study(), tmp_path / "b", workers=2, progress=False)
    pd.testing.assert_frame_equal(a, b)
    assert load_study(tmp_path / "b").equals(b)


def test_resume_computes_only_missing_chunks(tmp_path):
    full = run_study(coin_study(), tmp_path, workers=1, progress=False)
    chunk_path(tmp_path, 3).unlink()
    chunk_path(tmp_path, 5).unlink()
    again = run_study(coin_study(), tmp_path, workers=1, progress=False)
    pd.testing.assert_frame_equal(full, again)
    runs = load_manifest(tmp_path)["runs"]
    assert [r["chunks_computed"] for r in runs] == [8, 2]


@pytest.mark.parametrize("damage", ["truncate", "garbage", "other-study"])
def test_damaged_chunk_is_recomputed_never_read(tmp_path, damage):
    full = run_study(coin_study(), tmp_path, workers=1, progress=False)
    path = chunk_path(tmp_path, 2)
    if damage == "truncate":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(b"not parquet at all")
    else:
        other = tmp_path / "other"
        run_study(coin_study(seed=99), other, workers=1, progress=False)
        path.write_bytes(chunk_path(other, 2).read_bytes())
    with pytest.raises(BadInput, match="chunk 2"):
        load_study(tmp_path)
    again = run_study(coin_study(), tmp_path, workers=1, progress=False)
    pd.testing.assert_frame_equal(full, again)
    assert load_manifest(tmp_path)["runs"][-1]["chunks_computed"] == 1


def test_different_parameters_are_refused(tmp_path):
    run_study(coin_study(), tmp_path, workers=1, progress=False)
    with pytest.raises(BadInput, match="different study: the parameter p is 0.4 there and 0.9 now"):
        run_study(coin_study(p=0.9), tmp_path, workers=1, progress=False)
    with pytest.raises(BadInput, match="different study: --seed is 11 there and 12 now"):
        run_study(coin_study(seed=12), tmp_path, workers=1, progress=False)


def test_manifest_names_inputs_versions_and_times(tmp_path):
    card = tmp_path / "cards.toml"
    card.write_text("x = 1\n")
    study = Study("toy.coin", {"p": 0.5}, 10, 3, coin_chunk, 5, input_files=[card])
    run_study(study, tmp_path / "out", workers=1, progress=False, command="bombsolve test")
    m = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert m["command"] == "bombsolve test"
    assert m["input_files"][0]["sha256"] == __import__("hashlib").sha256(b"x = 1\n").hexdigest()
    assert {"bombsolve", "numpy", "numba", "python"} <= set(m["versions"])
    assert m["started"] and m["finished"] and m["git_commit"]
    card.write_text("x = 2\n")
    with pytest.raises(BadInput, match="the input file cards.toml differs"):
        run_study(study, tmp_path / "out", workers=1, progress=False)


def test_a_run_that_only_reuses_keeps_how_the_study_was_computed(tmp_path):
    """Re-running a finished study (to rewrite its report with later code) computes no
    chunk: the manifest keeps the command, versions, commit, host and end time of the runs
    that did, and records the new run in `runs` alone."""
    study = coin_study(n=20, chunk_size=10)
    run_study(study, tmp_path, workers=1, progress=False, command="bombsolve first")
    path = tmp_path / "manifest.json"
    before = json.loads(path.read_text())
    before["versions"]["bombsolve"] = "0.0.1"  # as if computed by an older release
    before["host"] = {"cpu": "elsewhere"}
    path.write_text(json.dumps(before))
    run_study(study, tmp_path, workers=1, progress=False, command="bombsolve again")
    after = json.loads(path.read_text())
    for key in ("command", "versions", "git_commit", "host", "finished", "input_files"):
        assert after[key] == before[key], key
    assert len(after["runs"]) == 2 and after["runs"][-1]["chunks_reused"] == 2
    assert after["runs"][-1]["chunks_computed"] == 0


def test_bad_counts_are_bad_input(tmp_path):
    with pytest.raises(BadInput):
        run_study(coin_study(chunk_size=0), tmp_path, workers=1, progress=False)
    with pytest.raises(BadInput):
        run_study(coin_study(), tmp_path, workers=0, progress=False)


def test_computed_by_names_a_killed_run_and_not_a_run_that_only_reused():
    runs = [
        # killed: the manifest was written at its first chunk, when the count was still 0
        {"git_commit": "a" * 40 + "-dirty", "chunks_computed": 0},
        {"git_commit": "b" * 40, "chunks_computed": 0, "finished": "t"},  # reused only
        {"git_commit": "c" * 40, "chunks_computed": 3, "finished": "t"},
        {"git_commit": "a" * 40, "chunks_computed": 1, "finished": "t"},
    ]
    assert computed_by({"runs": runs, "git_commit": "d" * 40}) == "a" * 12 + ", " + "c" * 12
    assert computed_by({"runs": [], "git_commit": "d" * 40}) == "d" * 12


_KILL_SCRIPT = """
import sys
from bombsolve.solvers.common.runner import Study, run_study
from bombsolve.solvers.common.toy import coin_chunk
s = Study("toy.coin", {"p": 0.4, "sleep": float(sys.argv[2])}, n_cases=2000, seed=11,
          chunk_fn=coin_chunk, chunk_size=250)
run_study(s, sys.argv[1], workers=1, progress=False)
"""


def test_sigkill_mid_run_then_rerun_matches_uninterrupted(tmp_path):
    out = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-c", _KILL_SCRIPT, str(out), "0.4"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        if (
            len(list((out / "chunks").glob("chunk-*.parquet"))) >= 2
            if (out / "chunks").exists()
            else False
        ):
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    n_before = len(list((out / "chunks").glob("chunk-*.parquet")))
    assert 2 <= n_before < 8, "the kill must land mid-run"
    resumed = run_study(coin_study(sleep=0.4), out, workers=1, progress=False)
    clean = run_study(coin_study(sleep=0.4), tmp_path / "clean", workers=2, progress=False)
    pd.testing.assert_frame_equal(resumed, clean)
    assert load_manifest(out)["runs"][-1]["chunks_computed"] == 8 - n_before
    assert not list(out.rglob("*.tmp"))


def test_dask_cluster_gives_identical_table(tmp_path, dask_cluster):
    local = run_study(coin_study(), tmp_path / "local", workers=1, progress=False)
    dist = run_study(
        coin_study(), tmp_path / "dask", scheduler=dask_cluster.address, progress=False
    )
    pd.testing.assert_frame_equal(local, dist)
    assert load_manifest(tmp_path / "dask")["runs"][0]["executor"].startswith(
        "dask tcp://127.0.0.1"
    )


def test_dask_worker_killed_mid_study_does_not_change_result(tmp_path, dask_cluster):
    study = coin_study(n=2000, chunk_size=125, sleep=0.3)
    local = run_study(
        coin_study(n=2000, chunk_size=125), tmp_path / "local", workers=1, progress=False
    )
    victim = dask_cluster.workers[0]
    import threading

    def kill_soon():
        time.sleep(1.0)
        os.killpg(victim.pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_soon)
    killer.start()
    dist = run_study(study, tmp_path / "dask", scheduler=dask_cluster.address, progress=False)
    killer.join()
    assert victim.poll() is not None, "the worker was killed while the study ran"
    pd.testing.assert_frame_equal(local.drop(columns=[]), dist)
    dask_cluster.workers[0] = dask_cluster.add_worker(9)


def test_unreachable_scheduler_is_bad_input(tmp_path, monkeypatch):
    monkeypatch.setattr("bombsolve.solvers.common.runner.DASK_CONNECT_TIMEOUT", "2s")
    with pytest.raises(BadInput, match="Dask scheduler"):
        run_study(
            coin_study(n=10, chunk_size=5), tmp_path, scheduler="tcp://127.0.0.1:1", progress=False
        )


class _TickClock:
    """A stand-in for the runner's `time` module whose monotonic clock advances one second
    per reading, so that time budgets are exercised without depending on machine load."""

    def __init__(self) -> None:
        self.t = 0.0
        self.perf_counter = time.perf_counter
        self.sleep = time.sleep

    def monotonic(self) -> float:
        self.t += 1.0
        return self.t


@pytest.mark.parametrize("workers", [1, 2])
def test_time_budget_stops_then_resume_completes(tmp_path, workers, monkeypatch):
    """A study too long for one sitting: runs with a budget keep what they finished, and the
    runs together give the table of one uninterrupted run."""
    from bombsolve.solvers.common import runner

    study = coin_study(n=2000, chunk_size=100)
    first = run_study(study, tmp_path, workers=workers, progress=False, time_budget=0.0)
    # A zero budget starts nothing.
    assert len(first) == 0 and first.attrs["complete"] is False
    monkeypatch.setattr(runner, "time", _TickClock())
    # The budget runs out after three readings of the clock: at least one chunk, not all.
    part = run_study(study, tmp_path, workers=workers, progress=False, time_budget=3.5)
    monkeypatch.undo()
    assert 0 < len(part) < 2000 and part.attrs["complete"] is False
    with pytest.raises(BadInput, match="unfinished"):
        load_study(tmp_path)
    partial = load_study(tmp_path, partial=True)
    pd.testing.assert_frame_equal(partial, part)
    assert partial.attrs["complete"] is False
    rest = run_study(study, tmp_path, workers=workers, progress=False)
    assert rest.attrs["complete"] is True
    whole = run_study(study, tmp_path / "w", workers=1, progress=False)
    pd.testing.assert_frame_equal(rest, whole)
    manifest = load_manifest(tmp_path)
    assert manifest["runs"][0]["chunks_computed"] == 0
    assert sum(r["chunks_computed"] for r in manifest["runs"]) == 20
    assert manifest["finished"] is not None


def test_order_chooses_what_a_partial_run_holds(tmp_path, monkeypatch):
    """`Study.order` changes which chunks come first, never the rows."""
    from dataclasses import replace

    from bombsolve.solvers.common import runner

    study = replace(coin_study(n=1000, chunk_size=100), order=lambda c: -c.index)
    monkeypatch.setattr(runner, "time", _TickClock())
    # The deadline is set at the first reading (1 + 2.5) and read before each chunk: the
    # readings 2 and 3 let two chunks run.
    got = run_study(study, tmp_path, workers=1, progress=False, time_budget=2.5)
    monkeypatch.undo()
    assert sorted(set(got["case"] // 100)) == [8, 9]  # the last chunks went first
    full = run_study(study, tmp_path, workers=1, progress=False)
    plain = run_study(coin_study(n=1000, chunk_size=100), tmp_path / "p", workers=1, progress=False)
    pd.testing.assert_frame_equal(full, plain)


def test_negative_time_budget_is_bad_input(tmp_path):
    with pytest.raises(BadInput, match="time budget"):
        run_study(coin_study(n=10), tmp_path, workers=1, progress=False, time_budget=-1)


def test_time_budget_is_shared_by_every_study_of_a_command(tmp_path):
    from bombsolve.solvers.common.runner import StudyPaused, time_budget

    with time_budget(0.2):
        time.sleep(0.3)  # an earlier study of the same command spent the budget
        with pytest.raises(StudyPaused):
            run_study(coin_study(), tmp_path, workers=1, progress=False)


def test_progress_lines_in_logs_quiet_and_the_summary(tmp_path, monkeypatch, capsys):
    from dataclasses import replace

    import bombsolve.cli.progress as terminal
    from bombsolve.solvers.common.progress import report_progress

    monkeypatch.setattr(terminal, "LOG_EVERY", 0.0)
    monkeypatch.setattr(terminal, "wants_progress", lambda: False)
    study = replace(coin_study(n=1000), progress_fn=lambda df: f"heads {df['win'].mean():.2f}")
    with report_progress(terminal.study_progress()):
        run_study(study, tmp_path / "a", workers=1)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("toy.coin: 250 of 1,000 cases (25%), ") and "cases/s" in err[0]
    assert "left | heads " in err[0]
    assert err[-1].startswith("toy.coin done: 1,000 of 1,000 cases (1,000 computed in ")
    assert len(err) == 5
    run_study(study, tmp_path / "b", workers=1, progress=terminal.study_progress(quiet=True))
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("toy.coin done:")
    with report_progress(terminal.study_progress()):
        run_study(study, tmp_path / "c", workers=1, progress=False)
    assert capsys.readouterr().err == ""
    run_study(study, tmp_path / "d", workers=1)  # no reporter given: the runner says nothing
    assert capsys.readouterr().err == ""


def test_the_runner_reports_through_the_callbacks_it_is_given(tmp_path):
    from dataclasses import replace

    from bombsolve.solvers.common.progress import StudyStart

    calls = []

    class Recorder:
        def __init__(self, start):
            calls.append(("start", start))

        def update(self, chunks, cases, estimate):
            calls.append(("update", chunks, cases, estimate()))

        def close(self, end):
            calls.append(("close", end.where, end.complete, end.estimate()))

    study = replace(coin_study(n=10, chunk_size=4), progress_fn=lambda df: f"{len(df)} rows")
    run_study(study, tmp_path, workers=1, progress=Recorder)
    assert calls == [
        ("start", StudyStart("toy.coin", 3, 0, 10, 0)),
        ("update", 1, 4, "4 rows"),
        ("update", 1, 4, "8 rows"),
        ("update", 1, 2, "10 rows"),
        ("close", str(tmp_path), True, "10 rows"),
    ]
    calls.clear()
    run_study(study, tmp_path, workers=1, progress=Recorder)  # resumed: nothing left to do
    assert calls == [
        ("start", StudyStart("toy.coin", 3, 3, 10, 10)),
        ("close", str(tmp_path), True, "10 rows"),
    ]


def test_a_failed_run_closes_its_reporter_without_an_end(tmp_path):
    from bombsolve.solvers.common.toy import coin_chunk

    ends = []

    class Recorder:
        def __init__(self, start):
            pass

        def update(self, chunks, cases, estimate):
            raise RuntimeError("the reporter's own failure")

        def close(self, end):
            ends.append(end)

    study = Study("toy.coin", {"p": 0.5}, n_cases=8, seed=1, chunk_fn=coin_chunk, chunk_size=4)
    with pytest.raises(RuntimeError):
        run_study(study, tmp_path, workers=1, progress=Recorder)
    assert ends == [None]
    with pytest.raises(TypeError, match="progress=True"):
        run_study(study, tmp_path / "x", workers=1, progress=True)


def test_cases_said_inside_a_chunk_are_reported_as_they_come(tmp_path):
    """A chunk function that says each case done (`progress.cases_done`) has its cases
    reported while its chunk runs, in this process and from a pool's workers; every case
    is reported once, and a chunk's end then reports only the chunk."""
    from dataclasses import replace

    Recorder, calls = recording_updates()

    base = coin_study(n=10, chunk_size=4)
    study = replace(base, params={**base.params, "say_cases": True})
    run_study(study, tmp_path / "one", workers=1, progress=Recorder)
    # each case as it is said, then each chunk's end with no case left to report
    assert calls == [(0, 1)] * 4 + [(1, 0)] + [(0, 1)] * 4 + [(1, 0)] + [(0, 1)] * 2 + [(1, 0)]
    calls.clear()
    study = replace(
        coin_study(n=40, chunk_size=10), params={"p": 0.4, "sleep": 2.0, "say_cases": True}
    )
    run_study(study, tmp_path / "pool", workers=2, progress=Recorder)
    assert sum(c for c, _ in calls) == 4 and sum(k for _, k in calls) == 40
    first_chunk = next(i for i, (c, _) in enumerate(calls) if c)
    # the workers' cases, said before their chunks' sleep, came before any chunk ended
    assert sum(k for _, k in calls[:first_chunk]) >= 10


def test_the_parts_of_a_chunk_have_its_cases_and_seeds():
    """`ChunkSpec.parts` cuts a chunk into consecutive parts whose seeds are the chunk's."""
    from bombsolve.solvers.common.runner import ChunkPlan

    chunk = ChunkPlan(2500, 1000, 9)[1]
    parts = chunk.parts(7)
    assert [(p.start, p.stop) for p in parts][0] == (1000, 1143)
    assert parts[-1].stop == 2000 and len(parts) == 7
    assert all(p.index == 1 and p.origin == 1000 for p in parts)
    seeds = np.concatenate([p.case_seeds() for p in parts])
    assert np.array_equal(seeds, chunk.case_seeds())
    (one,) = chunk.parts(1)
    assert (one.start, one.stop) == (1000, 2000)


def test_a_study_that_splits_runs_one_chunk_on_two_workers_as_one(tmp_path, monkeypatch):
    """With fewer chunks to do than workers, a study whose chunk function computes parts
    (`Study.splits`) runs them side by side and keeps the chunk it would have computed."""
    from dataclasses import replace

    from bombsolve.solvers.common import runner

    study = coin_study(n=300, chunk_size=300)
    whole = run_study(study, tmp_path / "a", workers=1, progress=False)
    split = run_study(replace(study, splits=True), tmp_path / "b", workers=2, progress=False)
    pd.testing.assert_frame_equal(whole, split)
    assert [p.name for p in (tmp_path / "b" / "chunks").iterdir()] == ["chunk-000000.parquet"]
    assert load_manifest(tmp_path / "b")["runs"][-1]["executor"] == "processes x2, in parts"
    # by default, a chunk this quick stays in this process: its first part, then the rest
    monkeypatch.setattr(runner, "_cores", lambda: 4)
    calls = []
    real = runner.run_chunk

    def spy(fn, params, chunk):
        calls.append((chunk.start, chunk.stop))
        return real(fn, params, chunk)

    monkeypatch.setattr(runner, "run_chunk", spy)
    auto = run_study(replace(study, splits=True), tmp_path / "c", progress=False)
    pd.testing.assert_frame_equal(whole, auto)
    assert len(calls) == 2 and calls[0][0] == 0 and calls[1] == (calls[0][1], 300)
    assert load_manifest(tmp_path / "c")["runs"][-1]["executor"] == "this process"


def test_a_chunk_in_parts_started_before_the_time_budget_is_spent_is_finished(tmp_path):
    """A time budget starts no chunk once spent, and a chunk already running is finished
    and kept: so are all the parts of a chunk cut in parts, not only those running."""
    from dataclasses import replace

    study = replace(coin_study(n=300, chunk_size=300, sleep=0.3), splits=True)
    got = run_study(study, tmp_path, workers=2, progress=False, time_budget=0.2)
    assert got.attrs["complete"] and len(got) == 300
    pd.testing.assert_frame_equal(got, run_study(study, tmp_path / "b", workers=1, progress=False))


def test_a_study_that_splits_takes_its_rate_on_a_part_not_a_chunk(tmp_path, monkeypatch):
    """By default a study of many chunks runs its first chunk in this process before it
    knows its rate; one whose chunk function computes parts runs only a least part here,
    and once the rest would take long, a pool runs the rest of that chunk and the others."""
    from dataclasses import replace

    from bombsolve.solvers.common import runner

    study = replace(coin_study(n=400, chunk_size=100), splits=True)
    whole = run_study(study, tmp_path / "a", workers=1, progress=False)
    monkeypatch.setattr(runner, "_cores", lambda: 2)
    sent = []
    real = runner._run_pool

    def pool(study, todo, n_workers, finish, *args):
        todo = list(todo)
        sent.extend((c.start, c.stop) for c in todo)
        return real(study, todo, n_workers, finish, *args)

    monkeypatch.setattr(runner, "_run_pool", pool)
    monkeypatch.setattr(runner, "POOL_PAYS_AFTER", 0.0)  # any rest takes too long here
    split = run_study(study, tmp_path / "b", progress=False)
    pd.testing.assert_frame_equal(whole, split)
    # a least part here, then the rest of that chunk and the others, whole, in the pool
    assert sent == [(study.least_part, 100), (100, 200), (200, 300), (300, 400)]
    executor = load_manifest(tmp_path / "b")["runs"][-1]["executor"]
    assert executor == "this process x1 part, then processes x2"
    assert sorted(p.name for p in (tmp_path / "b" / "chunks").iterdir()) == sorted(
        p.name for p in (tmp_path / "a" / "chunks").iterdir()
    )
