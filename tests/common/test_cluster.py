"""The local Dask cluster helper: real processes up, a study runs, all gone afterwards."""

from __future__ import annotations

from bombsolve.solvers.common.cluster import LocalDaskCluster


def test_cluster_runs_tasks_and_leaves_no_process(tmp_path):
    from distributed import Client

    with LocalDaskCluster(tmp_path, n_workers=1) as cluster:
        procs = [cluster.scheduler, *cluster.workers]
        assert all(p.poll() is None for p in procs)
        with Client(cluster.address, timeout="30s") as client:
            assert client.submit(pow, 3, 4).result(timeout=60) == 81
            assert len(client.scheduler_info()["workers"]) == 1
    assert all(p.poll() is not None for p in procs)
    assert (tmp_path / "scheduler.log").exists()
