"""Shared fixtures. A real local Dask cluster: a scheduler and workers as separate processes."""

from __future__ import annotations

import pytest

from solvers.common.cluster import LocalDaskCluster


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    cluster = LocalDaskCluster(tmp_path_factory.mktemp("dask"))
    yield cluster
    cluster.close()
