"""Shared fixtures. A real local Dask cluster: a scheduler and workers as separate processes."""

from __future__ import annotations

import pytest

from solvers.common.cluster import LocalDaskCluster
from solvers.common.numba_target import configure

# the kernels the tests compile are the command line's (cli.main configures its process so)
configure()


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    cluster = LocalDaskCluster(tmp_path_factory.mktemp("dask"))
    yield cluster
    cluster.close()
