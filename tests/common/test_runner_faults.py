"""The runner under faults: damaged manifests and folders, edited chunks, huge studies,
two studies into one folder, killed parents, Ctrl-C and closed pipes (DESIGN.md, "Runs that
last")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pandas as pd
import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.runner import (
    LOCK,
    MANIFEST,
    FolderLocked,
    Study,
    chunk_path,
    folder_lock,
    load_manifest,
    load_study,
    run_study,
)
from bombsolve.solvers.common.toy import coin_chunk

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def coin_study(n: int = 40, chunk_size: int = 10, sleep: float = 0.0, seed: int = 5) -> Study:
    return Study("toy.coin", {"p": 0.3, "sleep": sleep}, n, seed, coin_chunk, chunk_size)


def one_line(exc: BadInput) -> str:
    text = str(exc)
    assert "\n" not in text and "Traceback" not in text
    return text


# --- manifests -------------------------------------------------------------------------------


def _tamper(m: dict, how: str):
    if how == "list":
        return []
    if how == "null":
        return None
    if how == "runs-missing":
        return {k: v for k, v in m.items() if k != "runs"}
    if how == "runs-5":
        return {**m, "runs": 5}
    if how == "identity-5":
        return {**m, "identity": 5}
    if how == "identity-edited":  # its hash left as it was
        return {**m, "identity": {**m["identity"], "n_cases": 30}}
    if how == "hash-missing":
        return {k: v for k, v in m.items() if k != "identity_hash"}
    if how == "chunk-size-0":
        return {**m, "identity": {**m["identity"], "chunk_size": 0}}
    raise AssertionError(how)


TAMPER = [
    "list",
    "null",
    "runs-missing",
    "runs-5",
    "identity-5",
    "identity-edited",
    "hash-missing",
    "chunk-size-0",
]


@pytest.mark.parametrize("how", TAMPER)
def test_tampered_manifest_is_refused_in_one_line(tmp_path, how):
    run_study(coin_study(), tmp_path, workers=1, progress=False)
    path = tmp_path / MANIFEST
    path.write_text(json.dumps(_tamper(json.loads(path.read_text()), how)))
    for call in (
        lambda: run_study(coin_study(), tmp_path, workers=1, progress=False),
        lambda: load_study(tmp_path),
        lambda: load_manifest(tmp_path),
    ):
        with pytest.raises(BadInput) as info:
            call()
        assert "manifest" in one_line(info.value) or "field" in str(info.value)


def test_tampered_manifest_through_report_command(tmp_path):
    out = tmp_path / "s"
    code = CliRunner().invoke(
        cli, ["allisbomb", "sweep", "--deals", "4", "--blitz", "--heuristic-deals", "0",
              "--no-report", "--workers", "1", "--out", str(out)],
    )  # fmt: skip
    assert code.exit_code == 0, code.output
    m = json.loads((out / MANIFEST).read_text())
    (out / MANIFEST).write_text(json.dumps({**m, "identity": 5}))
    result = CliRunner().invoke(cli, ["allisbomb", "report", str(out)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "identity" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_manifest_folder_chunks_file_and_chunk_folder_are_refused(tmp_path):
    a = tmp_path / "a"
    (a / MANIFEST).mkdir(parents=True)
    with pytest.raises(BadInput, match="manifest"):
        run_study(coin_study(), a, workers=1, progress=False)
    b = tmp_path / "b"
    b.mkdir()
    (b / "chunks").write_text("x")
    with pytest.raises(BadInput, match="chunks"):
        run_study(coin_study(), b, workers=1, progress=False)
    c = tmp_path / "c"
    run_study(coin_study(), c, workers=1, progress=False)
    chunk_path(c, 1).unlink()
    chunk_path(c, 1).mkdir()
    before = (c / MANIFEST).read_text()
    with pytest.raises(BadInput, match="chunk-000001.parquet is a folder"):
        run_study(coin_study(), c, workers=1, progress=False)
    assert (c / MANIFEST).read_text() == before
    chunk_path(c, 1).rmdir()
    assert len(run_study(coin_study(), c, workers=1, progress=False)) == 40


def test_unwritable_chunks_folder_refused_before_the_manifest_changes(tmp_path):
    """A chunks folder that cannot be written (read-only for a user; for root, a read-only
    tmpfs mounted on it) is found before the manifest is rewritten."""
    out = tmp_path / "s"
    run_study(coin_study(), out, workers=1, progress=False)
    chunk_path(out, 3).unlink()
    chunks = out / "chunks"
    if os.geteuid() == 0:
        for p in chunks.iterdir():
            p.unlink()
        mount = ["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(chunks)]
        if subprocess.run(mount, capture_output=True).returncode != 0:
            pytest.skip("root cannot mount a read-only tmpfs here, and ignores mode bits")
    else:
        chunks.chmod(0o500)
    before = (out / MANIFEST).read_text()
    try:
        with pytest.raises(BadInput, match="cannot write"):
            run_study(coin_study(), out, workers=1, progress=False)
    finally:
        if os.geteuid() == 0:
            subprocess.run(["umount", str(chunks)], check=False)
        else:
            chunks.chmod(0o700)
    assert (out / MANIFEST).read_text() == before


def test_chunks_folder_that_is_a_link_is_refused(tmp_path):
    """A chunks folder that is a link (here into sysfs) is never followed: the study would
    write outside its folder."""
    out = tmp_path / "s"
    run_study(coin_study(), out, workers=1, progress=False)
    chunk_path(out, 3).unlink()
    (out / "chunks").rename(tmp_path / "kept")
    (out / "chunks").symlink_to("/sys")
    before = (out / MANIFEST).read_text()
    with pytest.raises(BadInput, match="chunks is a symbolic link"):
        run_study(coin_study(), out, workers=1, progress=False)
    assert (out / MANIFEST).read_text() == before


# --- chunk data checksums --------------------------------------------------------------------


def test_edited_rows_in_a_valid_chunk_are_recomputed(tmp_path):
    full = run_study(coin_study(), tmp_path, workers=1, progress=False)
    path = chunk_path(tmp_path, 2)
    table = pq.read_table(path)
    df = table.to_pandas()
    df.loc[0, "win"] = not df.loc[0, "win"]
    edited = pa.Table.from_pandas(df, preserve_index=False).replace_schema_metadata(
        table.schema.metadata
    )
    pq.write_table(edited, path)
    with pytest.raises(BadInput, match="chunk 2"):
        load_study(tmp_path)
    again = run_study(coin_study(), tmp_path, workers=1, progress=False)
    pd.testing.assert_frame_equal(full, again)
    assert load_manifest(tmp_path)["runs"][-1]["chunks_computed"] == 1


def test_every_game_chunk_reads_back_with_its_checksum(tmp_path):
    """The checksum survives the Parquet round trip of each game's real rows, so a resumed
    study reuses its chunks rather than recomputing them forever."""
    result = CliRunner().invoke(
        cli, ["bomber", "study", "--games", "12", "--workers", "1", "--out", str(tmp_path / "b")]
    )
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(
        cli, ["bomber", "study", "--games", "12", "--workers", "1", "--out", str(tmp_path / "b")]
    )
    assert result.exit_code == 0, result.output
    manifests = list((tmp_path / "b").rglob(MANIFEST))
    assert manifests
    for m in manifests:
        runs = json.loads(m.read_text())["runs"]
        assert runs[-1]["chunks_computed"] == 0 and runs[-1]["chunks_reused"] >= 1


# --- lazy chunk descriptors ------------------------------------------------------------------


def test_huge_study_costs_no_memory_per_chunk(tmp_path):
    study = coin_study(n=10**15, chunk_size=1)
    tracemalloc.start()
    try:
        df = run_study(study, tmp_path, workers=1, progress=False, time_budget=0.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(df) == 0 and df.attrs["complete"] is False
    assert peak < 50 * 2**20
    assert len(study.chunks()) == 10**15
    assert study.chunks()[10**15 - 1].start == 10**15 - 1


def test_huge_sweep_pauses_at_once(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "bombsolve.cli.main", "allisbomb", "sweep", "--deals", str(10**15),
         "--chunk-size", "1", "--blitz", "--heuristic-deals", "0", "--workers", "1",
         "--time-budget", "0", "--out", str(tmp_path / "s")],
        cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "re-run the same command to resume" in proc.stderr


# --- the folder lock -------------------------------------------------------------------------


def test_second_study_into_a_locked_folder_is_refused_at_once(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    with folder_lock(tmp_path):
        t = time.monotonic()
        with pytest.raises(FolderLocked, match="another study is running"):
            run_study(coin_study(), tmp_path, workers=1, progress=False)
        assert time.monotonic() - t < 5
    assert not (tmp_path / LOCK).exists()
    assert len(run_study(coin_study(), tmp_path, workers=1, progress=False)) == 40


def test_wait_starts_when_the_first_study_ends(tmp_path):
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with folder_lock(tmp_path):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    held.wait(10)
    threading.Timer(1.0, release.set).start()
    t = time.monotonic()
    df = run_study(coin_study(), tmp_path, workers=1, progress=False, wait=True)
    assert time.monotonic() - t >= 0.9 and len(df) == 40
    thread.join()


_SLOW = """
import sys
from bombsolve.solvers.common.runner import Study, run_study
from bombsolve.solvers.common.toy import coin_chunk
s = Study("toy.coin", {"p": 0.4, "sleep": float(sys.argv[2])}, n_cases=400, seed=11,
          chunk_fn=coin_chunk, chunk_size=50)
run_study(s, sys.argv[1], workers=int(sys.argv[3]), progress=False)
"""


def _start(out: Path, sleep: float, workers: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", _SLOW, str(out), str(sleep), str(workers)],
        cwd=ROOT,
        env=ENV,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(cond, timeout: float = 120) -> None:
    deadline = time.time() + timeout
    while not cond():
        assert time.time() < deadline, "timed out"
        time.sleep(0.05)


def test_two_studies_started_at_once_one_refused(tmp_path):
    first = _start(tmp_path, 0.3, 1)
    _wait_for(lambda: (tmp_path / LOCK).exists())
    second = _start(tmp_path, 0.3, 1)
    _, err = second.communicate(timeout=120)
    assert second.returncode == 1 and "another study is running" in err
    first.communicate(timeout=120)
    assert first.returncode == 0
    runs = load_manifest(tmp_path)["runs"]
    assert len(runs) == 1 and runs[0]["chunks_computed"] == 8


# --- processes -------------------------------------------------------------------------------


def test_pool_workers_die_with_their_parent(tmp_path):
    proc = _start(tmp_path, 1.0, 2)
    parent = psutil.Process(proc.pid)
    _wait_for(lambda: len(parent.children(recursive=True)) >= 3)  # 2 workers + the tracker
    _wait_for(lambda: (tmp_path / "chunks").exists())
    children = parent.children(recursive=True)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, f"still alive 10 s after the parent: {[p.cmdline()[:3] for p in alive]}"


def _default_sigint() -> None:
    """In the child before exec: Ctrl-C as a terminal gives it. An ignored or blocked SIGINT
    is inherited across exec, and an earlier test in the same pytest process may leave it
    ignored (the full suite did: the child then never saw the signal)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _cli(args: list[str], **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "bombsolve.cli.main", *args],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
        **kw,
    )


class _Stderr:
    """The lines a child writes to stderr, read by a thread as they come, so a test can
    wait for a marker line without a fixed sleep (which a stalled machine outlasts)."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc, self.lines = proc, []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.lines.append(line)

    def text(self) -> str:
        return "".join(self.lines)

    def finish(self, timeout: float) -> str:
        """Everything the child wrote, once it has exited (within `timeout` seconds)."""
        self.proc.wait(timeout=timeout)
        self.thread.join(timeout)
        return self.text()


def test_ctrl_c_exits_130_and_says_how_to_resume(tmp_path):
    out = tmp_path / "s"
    # Far more games than any machine plays before the signal (chunks of 50 games are cut
    # as they are needed, so the size costs nothing); the signal goes when the first chunk
    # file exists, that is once the study has started (its manifest is written first).
    proc = _cli(["bomber", "study", "--games", str(10**9), "--chunk-size", "50",
                 "--workers", "2", "--out", str(out)])  # fmt: skip
    err = _Stderr(proc)
    try:
        _wait_for(lambda: proc.poll() is not None or any(out.rglob("chunk-*.parquet")), timeout=900)
        assert proc.poll() is None, f"ended before the signal:\n{err.finish(10)}"
        os.killpg(proc.pid, signal.SIGINT)  # the terminal's Ctrl-C reaches the whole group
        text = err.finish(300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, text
    assert "Traceback" not in text
    assert text.strip().splitlines()[-1] == (
        "bombsolve: interrupted; re-run the same command to resume"
    )
    assert not list(out.rglob("*.tmp"))


#: `bombsolve ARGS...` with a line on stderr when its first game starts: the moment to
#: press Ctrl-C, whatever the load (imports and seeding may take long on a stalled machine).
_MARKED_PLAY = """
import sys
import bombsolve.solvers.dragon.rules as rules
from bombsolve.cli.main import cli
real = rules.play_game
def play_game(*args, **kw):
    if rules.play_game is play_game:
        rules.play_game = real
        print("marker: first game", file=sys.stderr, flush=True)
    return real(*args, **kw)
rules.play_game = play_game
cli(sys.argv[1:], prog_name="bombsolve")
"""


def test_ctrl_c_outside_a_study_exits_130(tmp_path):
    # a million games of the plain-Python engine: over an hour of play (and 8 MB of seeds)
    proc = subprocess.Popen(
        [sys.executable, "-c", _MARKED_PLAY, "dragon", "play", "--games", str(10**6),
         "--engine", "reference"],
        cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=_default_sigint,
    )  # fmt: skip
    err = _Stderr(proc)
    try:
        _wait_for(
            lambda: proc.poll() is not None or "marker: first game\n" in err.lines, timeout=900
        )
        assert proc.poll() is None, f"ended before the signal:\n{err.finish(10)}"
        os.killpg(proc.pid, signal.SIGINT)
        text = err.finish(300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, text
    assert text.strip().splitlines()[-1] == "bombsolve: interrupted"


def _stopped_at_the_second_chunk(params, chunk):
    if chunk.index == 1:
        raise KeyboardInterrupt
    return coin_chunk(params, chunk)


def test_a_stop_says_re_run_to_resume_only_where_a_re_run_finds_the_folder(tmp_path, monkeypatch):
    # A play command's games run on the runner in a temporary folder, removed on the way
    # out: no re-run resumes them. A study with --out keeps its folder.
    from bombsolve.cli.common import run_play_games
    from bombsolve.cli.main import _interrupted_message
    from bombsolve.solvers.common import runner

    monkeypatch.setattr(runner, "_STUDIES_STARTED", [])
    study = Study("toy.coin", {"p": 0.3}, 30, 7, _stopped_at_the_second_chunk, 10)
    with pytest.raises(KeyboardInterrupt):
        run_play_games(study, workers=1, game="toy")
    assert _interrupted_message() == "interrupted"
    with pytest.raises(KeyboardInterrupt):
        run_study(study, tmp_path / "s", workers=1, progress=False)
    assert _interrupted_message() == "interrupted; re-run the same command to resume"


def test_closed_pipe_exits_quietly():
    shell = f"{sys.executable} -m bombsolve.cli.main dragon replay --seed 1 | head -1; echo ${{PIPESTATUS[0]}}"
    proc = subprocess.run(
        ["bash", "-c", shell], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300
    )
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == "0", proc.stderr
    assert proc.stderr == ""


def refusing_chunk(params, chunk):
    """A chunk function that finds its parameters impossible (as a kernel might)."""
    raise BadInput(f"parameter p={params['p']} cannot be run; expected 0 <= p <= 1")


@pytest.mark.parametrize("workers", [1, 2])
def test_first_chunk_refused_leaves_no_folder(tmp_path, workers):
    out = tmp_path / "new" / "study"
    study = Study("toy.refuse", {"p": 7}, 40, 1, refusing_chunk, 10)
    with pytest.raises(BadInput, match="p=7"):
        run_study(study, out, workers=workers, progress=False)
    assert list(tmp_path.iterdir()) == []
