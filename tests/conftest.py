"""Shared fixtures. A real local Dask cluster: a scheduler and workers as separate processes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parents[1]


def pytest_configure(config) -> None:
    # Installed as bombsolve.solvers, the code imported is wherever `pip install -e` last
    # pointed: never test another checkout than this one.
    try:
        spec = importlib.util.find_spec("bombsolve.solvers")
    except ModuleNotFoundError:
        spec = None
    where = None if spec is None else Path(spec.origin).resolve().parent
    if where != _HERE / "solvers":
        raise pytest.UsageError(
            f"bombsolve.solvers is {'not installed' if where is None else f'imported from {where}'}; "
            f"expected {_HERE / 'solvers'}: run python3 -m pip install -e '.[test]' in {_HERE}"
        )
    from bombsolve.solvers.common.numba_target import configure

    # the kernels the tests compile are the command line's (bombsolve.cli.main configures its process so)
    configure()


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    from bombsolve.solvers.common.cluster import LocalDaskCluster

    cluster = LocalDaskCluster(tmp_path_factory.mktemp("dask"))
    yield cluster
    cluster.close()
