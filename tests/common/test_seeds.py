"""Every game of a run draws its own seed from one SeedSequence: runs share no game."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.common.runner import ChunkSpec
from bombsolve.solvers.common.seeds import PLAY_CHUNK, child_seed, game_seeds

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"


def test_two_roots_share_no_game_seed():
    runs = [set(game_seeds(s, 5000).tolist()) for s in range(4)]
    for a in range(4):
        assert len(runs[a]) == 5000  # no repeat inside a run either
        for b in range(a + 1, 4):
            assert not runs[a] & runs[b]


def test_game_i_is_case_i_of_a_study_with_the_same_root():
    n = 2 * PLAY_CHUNK + 17
    chunks = [
        ChunkSpec(k, s, min(s + PLAY_CHUNK, n), 9) for k, s in enumerate(range(0, n, PLAY_CHUNK))
    ]
    assert (game_seeds(9, n) == np.concatenate([c.case_seeds() for c in chunks])).all()
    assert (game_seeds(9, n)[:500] == game_seeds(9, 500)).all()  # a longer run extends


def test_sub_study_roots_differ_across_runs():
    roots = {child_seed(s, 1, i) for s in range(50) for i in range(6)}
    assert len(roots) == 300


def test_dragon_play_games_are_the_seed_sequence_games():
    from bombsolve.solvers.dragon import CODES, Options, run_games

    r = CliRunner().invoke(
        cli, ["dragon", "play", "-p", "3", "-s", "random", "-n", "300", "--seed", "4", "--json"]
    )
    assert r.exit_code == 0, r.output
    got = [s["wins"] for s in json.loads(r.stdout)["seats"]]
    out = run_games(3, game_seeds(4, 300), [CODES["random"]] * 3, Options.parse(""))
    assert got == out["winners"].sum(axis=0).tolist()


def test_bomber_play_games_are_the_seed_sequence_games():
    from bombsolve.solvers.bomber import COLUMNS, Options, run_random_games, summarise

    r = CliRunner().invoke(cli, ["bomber", "play", "-p", "4", "-n", "400", "--seed", "2", "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    df = pd.DataFrame(run_random_games(game_seeds(2, 400), 4, Options(), -1))
    df.columns = list(COLUMNS)
    df["condition"] = "4p"
    assert rep["outcomes"]["bomber"]["rate"] == summarise(df).iloc[0]["bomber"]
    assert rep["first_game_seed"] == int(game_seeds(2, 1)[0])


def test_docstring_examples():
    import doctest

    from bombsolve.solvers.common import seeds

    result = doctest.testmod(seeds)
    assert result.attempted > 0 and result.failed == 0
