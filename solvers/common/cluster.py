"""A real local Dask cluster: one `dask scheduler` and K `dask worker` processes on 127.0.0.1.

Tests of distributed runs and the sweep benchmark need a scheduler and workers that are
separate processes (so a worker can be killed mid-study), not an in-process LocalCluster.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[2]


class LocalDaskCluster:
    """Start a scheduler and `n_workers` one-thread workers (0: a scheduler alone); logs go
    to `tmp`.

    ``protocol="tls"`` with ``env`` naming the certificates (Dask's ``DASK_DISTRIBUTED__COMM__
    TLS__...`` variables) starts an encrypted one; this process's client then needs the same
    settings in its Dask configuration.

    Use as a context manager, or call `close()`. `address` is the scheduler's address;
    `workers` holds the worker processes (a test may kill one and `add_worker` another).
    """

    def __init__(
        self,
        tmp: Path,
        n_workers: int = 2,
        start_timeout: float = 60.0,
        protocol: str = "tcp",
        env: dict[str, str] | None = None,
    ):
        self.tmp = Path(tmp)
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.file = self.tmp / "scheduler.json"
        self.env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DASK_DISTRIBUTED__WORKER__DAEMON": "False",
            **(env or {}),
        }
        self.workers: list[subprocess.Popen] = []
        self.scheduler = self._spawn(
            [
                "-m",
                "distributed.cli.dask_scheduler",
                *("--protocol", protocol),
                *("--host", "127.0.0.1", "--port", "0", "--no-dashboard"),
                *("--scheduler-file", str(self.file)),
            ],
            "scheduler",
        )
        try:
            deadline = time.time() + start_timeout
            while not self.file.exists():
                if time.time() > deadline or self.scheduler.poll() is not None:
                    raise RuntimeError("dask scheduler did not start")
                time.sleep(0.1)
            self.address = self._address()
            self.workers = [self.add_worker(i) for i in range(n_workers)]
            if n_workers:
                self.wait_for_workers(n_workers, start_timeout)
        except BaseException:
            self.close()
            raise

    def _spawn(self, args: list[str], name: str) -> subprocess.Popen:
        with open(self.tmp / f"{name}.log", "w") as log:
            # Own session: close() signals the whole process group, children included.
            return subprocess.Popen(
                [sys.executable, *args],
                env=self.env,
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def _address(self) -> str:
        # The scheduler may be part-way through writing its file.
        for _ in range(100):
            try:
                return json.loads(self.file.read_text())["address"]
            except (ValueError, KeyError):
                time.sleep(0.1)
        raise RuntimeError(f"no scheduler address in {self.file}")

    def add_worker(self, i: int) -> subprocess.Popen:
        """Start one more worker process (one thread, no nanny, so killing it kills it)."""
        return self._spawn(
            [
                "-m",
                "distributed.cli.dask_worker",
                *("--scheduler-file", str(self.file)),
                *("--nthreads", "1", "--nworkers", "1", "--no-nanny", "--no-dashboard"),
                *("--host", "127.0.0.1", "--name", f"w{i}-{time.time_ns()}"),
            ],
            f"worker{i}",
        )

    def wait_for_workers(self, n: int, timeout: float = 60.0) -> None:
        from distributed import Client

        with Client(self.address, timeout="30s") as client:
            client.wait_for_workers(n, timeout=timeout)

    def close(self) -> None:
        # Dask workers may ignore SIGTERM while they close their connections; a short
        # grace period, then SIGKILL, keeps teardown to seconds.
        procs = [*self.workers, self.scheduler]
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    def __enter__(self) -> LocalDaskCluster:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
