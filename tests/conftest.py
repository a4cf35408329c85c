"""Shared fixtures. A real local Dask cluster: a scheduler and workers as separate processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


class LocalDaskCluster:
    """Starts `dask scheduler` and `dask worker` processes on 127.0.0.1."""

    def __init__(self, tmp: Path, n_workers: int = 2):
        self.tmp = tmp
        self.file = tmp / "scheduler.json"
        self.env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DASK_DISTRIBUTED__WORKER__DAEMON": "False",
        }
        self.scheduler = self._spawn(
            [
                "-m",
                "distributed.cli.dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(self.file),
            ],
            "scheduler",
        )
        deadline = time.time() + 60
        while not self.file.exists():
            if time.time() > deadline or self.scheduler.poll() is not None:
                raise RuntimeError("dask scheduler did not start")
            time.sleep(0.1)
        self.workers = [self.add_worker(i) for i in range(n_workers)]
        self.address = self._address()
        self.wait_for_workers(n_workers)

    def _spawn(self, args, name):
        log = open(self.tmp / f"{name}.log", "w")
        return subprocess.Popen(
            [sys.executable, *args],
            env=self.env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def _address(self) -> str:
        import json

        for _ in range(100):
            try:
                return json.loads(self.file.read_text())["address"]
            except (ValueError, KeyError):
                time.sleep(0.1)
        raise RuntimeError("no scheduler address")

    def add_worker(self, i: int) -> subprocess.Popen:
        return self._spawn(
            [
                "-m",
                "distributed.cli.dask_worker",
                "--scheduler-file",
                str(self.file),
                "--nthreads",
                "1",
                "--nworkers",
                "1",
                "--no-nanny",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
                "--name",
                f"w{i}-{time.time_ns()}",
            ],
            f"worker{i}",
        )

    def wait_for_workers(self, n: int) -> None:
        from distributed import Client

        with Client(self.address, timeout="30s") as client:
            client.wait_for_workers(n, timeout=60)

    def close(self) -> None:
        # Dask workers may ignore SIGTERM while they close their connections; a short
        # grace period, then SIGKILL, keeps teardown to seconds.
        for proc in [*self.workers, self.scheduler]:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in [*self.workers, self.scheduler]:
            try:
                proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    cluster = LocalDaskCluster(tmp_path_factory.mktemp("dask"))
    yield cluster
    cluster.close()
