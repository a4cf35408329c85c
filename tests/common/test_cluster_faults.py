"""A Dask cluster that fails, with real processes: every wait is bounded and ends in one line.

A scheduler without workers, a lost worker that nobody replaces, an address that accepts and
never answers (or answers in HTTP), a scheduler killed mid-study: each stops the study with
`DaskUnavailable` (on the command line one line, exit code 2) within the wait that
``--scheduler-timeout`` sets, and the chunks already finished resume on a working cluster to
the table of an uninterrupted run. A lost worker that is replaced still finishes the study.
"""

from __future__ import annotations

import dataclasses
import http.server
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.common.cluster import ROOT, LocalDaskCluster
from bombsolve.solvers.common.runner import (
    DaskUnavailable,
    Study,
    load_manifest,
    run_study,
    scheduler_wait,
)
from bombsolve.solvers.common.toy import coin_chunk

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

#: The wait every test gives the scheduler and its workers (seconds).
WAIT = 3.0
#: What one refusal may take beyond that wait on a busy two-core machine (seconds).
SLACK = 12.0


def coin() -> Study:
    """Twelve chunks of coin flips, each a quarter of a second: a run can be cut."""
    return Study(
        "toy.coin",
        {"p": 0.4, "sleep": 0.25},
        n_cases=240,
        seed=5,
        chunk_fn=coin_chunk,
        chunk_size=20,
    )


def uninterrupted(tmp_path: Path) -> pd.DataFrame:
    return run_study(coin(), tmp_path / "local", workers=1, progress=False)


def kill_when_chunk_done(out: Path, proc: subprocess.Popen) -> threading.Thread:
    """Kill `proc` (its whole process group) once the study in `out` has a finished chunk."""

    def watch() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if list((out / "chunks").glob("chunk-*.parquet")):
                os.killpg(proc.pid, signal.SIGKILL)
                return
            time.sleep(0.05)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def silent_listener():
    """An address that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except (TimeoutError, OSError):
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


class _QuietHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def http_server():
    """An HTTP server's address: it answers, in the wrong protocol."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def bombsolve(*args: str) -> tuple[int, str, float]:
    """Run the command line in a process of its own; return (exit code, stderr, seconds)."""
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "bombsolve.cli.main", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=180,
    )
    return proc.returncode, proc.stderr, time.monotonic() - t0


def the_one_line(stderr: str) -> str:
    """The one line a refused study prints (the kernel's first-compile notices aside)."""
    assert "Traceback" not in stderr, stderr
    lines = [ln for ln in stderr.splitlines() if ln.strip() and "compil" not in ln]
    assert len(lines) == 1, stderr
    return lines[0]


def refused_study(tmp_path: Path, address: str) -> str:
    """A small study command pointed at `address`: exit code 2 and one line, within the wait,
    and nothing written."""
    out = tmp_path / "study"
    code, err, took = bombsolve(
        "bomber", "study", "--games", "20", "--out", str(out),
        "--scheduler", address, "--scheduler-timeout", str(WAIT),
    )  # fmt: skip
    assert code == 2, err
    assert not out.exists()
    # Bounded by the wait, not by Dask's minutes (the process also starts and loads, or on
    # a first run compiles, its kernel: some 30 s at most on a busy two-core machine).
    assert took < WAIT + SLACK + 45, took
    return the_one_line(err)


def test_scheduler_without_workers_is_one_line(tmp_path):
    with LocalDaskCluster(tmp_path / "dask", n_workers=0) as cluster:
        line = refused_study(tmp_path, cluster.address)
    assert f"no worker joined the Dask scheduler {cluster.address} within 3 s" in line
    assert f"dask worker {cluster.address}" in line


def test_silent_listener_is_one_line(tmp_path, silent_listener):
    line = refused_study(tmp_path, silent_listener)
    assert f"Dask scheduler '{silent_listener}' did not answer within 3 s" in line


def test_http_server_is_one_line(tmp_path, http_server):
    line = refused_study(tmp_path, http_server)
    assert http_server in line and "Dask scheduler" in line


@pytest.mark.parametrize(
    "address,words",
    [
        ("tcp://127.0.0.1:1", "Timed out trying to connect"),
        ("tcp://no-such-host.invalid:8786", "Timed out trying to connect"),
        ("tls://127.0.0.1:1", "TLS"),
    ],
)
def test_unreachable_address_is_refused_within_the_wait(tmp_path, address, words):
    t0 = time.monotonic()
    with pytest.raises(DaskUnavailable, match="cannot reach Dask scheduler") as caught:
        run_study(
            coin(), tmp_path / "out", scheduler=address, scheduler_timeout=2.0, progress=False
        )
    assert words in str(caught.value)
    # (the address's own scheme in what is expected: a tls:// address is not told tcp://)
    assert f"expected {address.split(':')[0]}://HOST:PORT" in str(caught.value)
    assert time.monotonic() - t0 < 2.0 + SLACK
    assert not (tmp_path / "out").exists()


def test_the_wait_comes_from_the_command(tmp_path):
    """``scheduler_wait`` (what --scheduler-timeout sets) bounds a study that names none."""
    with LocalDaskCluster(tmp_path / "dask", n_workers=0) as cluster:
        t0 = time.monotonic()
        with scheduler_wait(1.0), pytest.raises(DaskUnavailable, match="within 1 s"):
            run_study(coin(), tmp_path / "out", scheduler=cluster.address, progress=False)
        assert time.monotonic() - t0 < 1.0 + SLACK


@pytest.mark.parametrize("value", ["0", "-2", "nan", "soon"])
def test_bad_scheduler_timeout_is_refused(tmp_path, value):
    result = CliRunner().invoke(
        cli,
        ["bomber", "study", "--out", str(tmp_path / "o"), "--scheduler-timeout", value],
    )
    assert result.exit_code == 2
    assert "--scheduler-timeout" in result.stderr and value in result.stderr
    assert not (tmp_path / "o").exists()


def stopped_by_a_kill(out, cluster, victim) -> tuple[str, float]:
    """Run the coin study on `cluster` while `victim` (a worker or the scheduler) is killed
    after its first chunk: the one line the study stops with, and the seconds it took."""
    watcher = kill_when_chunk_done(out, victim)
    t0 = time.monotonic()
    with pytest.raises(DaskUnavailable) as caught:
        run_study(coin(), out, scheduler=cluster.address, scheduler_timeout=WAIT, progress=False)
    took = time.monotonic() - t0
    watcher.join()
    assert victim.poll() is not None, "the process was killed mid-study"
    return str(caught.value), took


def test_chunk_that_kills_its_workers_is_one_line(tmp_path, capfd):
    """A chunk whose worker dies every time it runs (Dask's KilledWorker) stops the study
    with one line naming the chunk; the chunks finished before it are kept."""
    study = dataclasses.replace(coin(), params={"p": 0.4, "sleep": 0.0, "crash_case": 130})
    out = tmp_path / "dask"
    # one chunk at a time a worker: a worker that dies holds no other chunk, which Dask
    # would name as killed too (its default saturation 1.1 sends a one-thread worker two)
    env = {
        "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0",
        "DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION": "1.0",
    }
    with LocalDaskCluster(tmp_path / "cluster", n_workers=2, env=env) as cluster:
        with pytest.raises(DaskUnavailable) as caught:
            run_study(study, out, scheduler=cluster.address, scheduler_timeout=30, progress=False)
    line = str(caught.value)
    assert "chunk 6 was running on every Dask worker that died with it" in line
    assert "KilledWorker" in line and "re-run the same command to resume" in line
    assert "Traceback" not in capfd.readouterr().err


def test_only_worker_lost_stops_then_resumes(tmp_path, capfd):
    local = uninterrupted(tmp_path)
    out = tmp_path / "dask"
    with LocalDaskCluster(tmp_path / "cluster", n_workers=1) as cluster:
        line, took = stopped_by_a_kill(out, cluster, cluster.workers[0])
        assert f"every worker left the Dask scheduler {cluster.address}" in line
        assert "within 3 s" in line and "re-run the same command to resume" in line
        assert took < 60, took
        assert "Traceback" not in capfd.readouterr().err
        kept = load_manifest(out)["chunks_done"]
        assert 1 <= kept < 12
        # A worker joins: the same study resumes and ends with the uninterrupted table.
        cluster.workers.append(cluster.add_worker(1))
        cluster.wait_for_workers(1)
        resumed = run_study(coin(), out, scheduler=cluster.address, progress=False)
    pd.testing.assert_frame_equal(local, resumed)
    assert load_manifest(out)["runs"][-1]["chunks_reused"] == kept


def test_only_worker_replaced_within_the_wait_finishes(tmp_path):
    local = uninterrupted(tmp_path)
    out = tmp_path / "dask"
    with LocalDaskCluster(tmp_path / "cluster", n_workers=1) as cluster:
        victim = cluster.workers[0]
        watcher = kill_when_chunk_done(out, victim)

        def replace() -> None:
            watcher.join()
            cluster.workers.append(cluster.add_worker(1))

        replacer = threading.Thread(target=replace, daemon=True)
        replacer.start()
        dist = run_study(
            coin(), out, scheduler=cluster.address, scheduler_timeout=60, progress=False
        )
        replacer.join()
        assert victim.poll() is not None, "the worker was killed mid-study"
    pd.testing.assert_frame_equal(local, dist)


def test_scheduler_lost_mid_study_stops_then_resumes(tmp_path, capfd):
    local = uninterrupted(tmp_path)
    levels = [logging.getLogger(n).level for n in ("distributed", "distributed.client")]
    out = tmp_path / "dask"
    with LocalDaskCluster(tmp_path / "first", n_workers=1) as cluster:
        line, took = stopped_by_a_kill(out, cluster, cluster.scheduler)
    assert f"lost the Dask scheduler {cluster.address}" in line
    assert "re-run the same command to resume" in line
    assert took < 60, took
    assert "Traceback" not in capfd.readouterr().err
    # Dask's logging is quiet while the study runs, and as it was afterwards.
    assert [logging.getLogger(n).level for n in ("distributed", "distributed.client")] == levels
    kept = load_manifest(out)["chunks_done"]
    assert 1 <= kept < 12
    with LocalDaskCluster(tmp_path / "second", n_workers=1) as fresh:
        resumed = run_study(coin(), out, scheduler=fresh.address, progress=False)
    pd.testing.assert_frame_equal(local, resumed)
    assert load_manifest(out)["runs"][-1]["chunks_reused"] == kept


def test_scheduler_lost_mid_command_is_one_line(tmp_path):
    """The command line's view of a lost scheduler: one line, exit code 2, no traceback from
    Dask's client, and a folder the same command resumes."""
    out = tmp_path / "study"
    with LocalDaskCluster(tmp_path / "dask", n_workers=1) as cluster:
        command = subprocess.Popen(
            [
                sys.executable, "-m", "bombsolve.cli.main", "bomber", "study", "--players", "4",
                "--games", "4000", "--chunk-size", "100", "--out", str(out),
                "--scheduler", cluster.address, "--scheduler-timeout", str(WAIT),
            ],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while not list(out.glob("*/chunks/chunk-*.parquet")):
                if command.poll() is not None:
                    pytest.fail(f"ended before it was cut: {command.communicate()}")
                assert time.monotonic() < deadline, "no chunk finished"
                time.sleep(0.05)
            os.killpg(cluster.scheduler.pid, signal.SIGKILL)
            _, err = command.communicate(timeout=60)
        finally:
            if command.poll() is None:
                command.kill()
                command.wait()
    assert command.returncode == 2, err
    line = the_one_line(err)
    assert f"lost the Dask scheduler {cluster.address}" in line
    assert "re-run the same command to resume" in line
    (folder,) = [p.parent for p in out.glob("*/manifest.json")]
    assert 1 <= load_manifest(folder)["chunks_done"] < 40


def test_tls_scheduler_of_the_configuration_is_reached(tmp_path):
    """The bounded first question to the scheduler goes with the TLS settings of Dask's
    configuration, as Dask's client does: an encrypted cluster still runs the study."""
    import dask
    from distributed.security import Security

    made = Security.temporary()
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert.write_text(made.tls_ca_file)
    key.write_text(made.tls_client_key)
    config = {"distributed.comm.require-encryption": True, "distributed.comm.tls.ca-file": cert}
    for role in ("scheduler", "worker", "client"):
        config[f"distributed.comm.tls.{role}.cert"] = cert
        config[f"distributed.comm.tls.{role}.key"] = key
    env = {
        "DASK_" + name.upper().replace(".", "__").replace("-", "_"): str(value)
        for name, value in config.items()
    }
    local = uninterrupted(tmp_path)
    with dask.config.set({k: str(v) for k, v in config.items()}):
        with LocalDaskCluster(tmp_path / "dask", n_workers=1, protocol="tls", env=env) as c:
            assert c.address.startswith("tls://")
            dist = run_study(coin(), tmp_path / "out", scheduler=c.address, progress=False)
    pd.testing.assert_frame_equal(local, dist)


def test_play_commands_take_the_wait_too(silent_listener):
    """`bombastic play` and `tournament` run on Dask outside the study options: the same
    --scheduler-timeout bounds them."""
    for command in (["play", "--x", "random", "--o", "random"], ["tournament"]):
        t0 = time.monotonic()
        result = CliRunner().invoke(
            cli,
            ["bombastic", *command, "--games", "2", "--scheduler", silent_listener,
             "--scheduler-timeout", "1"],
        )  # fmt: skip
        assert result.exit_code == 2, result.output
        assert f"'{silent_listener}' did not answer within 1 s" in result.stderr
        assert time.monotonic() - t0 < 1.0 + SLACK
