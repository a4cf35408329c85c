"""The study on a real Dask cluster (scheduler and workers as separate processes)."""

import pandas as pd
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.bombastic.rules import Options
from bombsolve.solvers.bombastic.study import match_study
from bombsolve.solvers.common.runner import load_study, run_study

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

TABLES = (
    "pairings",
    "ratings",
    "first_player",
    "card_variants",
    "card_usage",
    "card_usage_with_promos",
    "endings",
    "game_lengths",
    "outcomes",
)


def _study(out, extra):
    args = ["bombastic", "study", "--out", str(out), "--games", "2", "--card-games", "3"]
    args += ["--infostate-depth", "-1", "--kernel-games", "500", "--chunk-size", "1"]
    args += ["--agents", "random,heuristic", "--seed", "5", *extra]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output


def test_study_command_on_dask_gives_the_local_tables(tmp_path, dask_cluster):
    local, dist = tmp_path / "local", tmp_path / "dask"
    _study(local, ["--workers", "1"])
    _study(dist, ["--scheduler", dask_cluster.address])
    for stem in TABLES:
        a = pd.read_parquet(local / f"{stem}.parquet")
        b = pd.read_parquet(dist / f"{stem}.parquet")
        pd.testing.assert_frame_equal(a, b, obj=stem)
        assert (local / f"{stem}.csv").read_text() == (dist / f"{stem}.csv").read_text()
    # Every game of every part, not only the summaries: the runner's rows agree.
    parts = sorted(p.parent for p in (local / "runs").rglob("manifest.json"))
    # 4 ordered pairings (mirrors included), the kernel games, 12 deck variants.
    assert len(parts) == 4 + 1 + 12
    for part in parts:
        twin = dist / part.relative_to(local)
        pd.testing.assert_frame_equal(load_study(part), load_study(twin), obj=str(part))


def test_match_study_on_dask_with_promos_matches_local(tmp_path, dask_cluster):
    st = match_study("greedy", "ismcts:20", 6, 3, Options(promos=True), chunk_size=2)
    a = run_study(st, tmp_path / "a", workers=1, progress=False)
    b = run_study(st, tmp_path / "b", scheduler=dask_cluster.address, progress=False)
    pd.testing.assert_frame_equal(a, b)
