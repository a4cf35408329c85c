"""The Numba kernel against the reference engine: identical scores and captures."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bombsolve.solvers.dragon import kernel
from bombsolve.solvers.dragon.agents import CODES, make_agents
from bombsolve.solvers.dragon.readings import BY_NAME
from bombsolve.solvers.dragon.rules import Options, play_game

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

READINGS = {
    "default": Options(),
    "close_up+in_order+empty_slot": Options(
        placement="close_up", rocket_timing="in_order", rocket_empty_slot=True
    ),
    "under+discards": Options(double_when="under", double_card="discard", string_card="discard"),
    "no_reshuffle+empty+partial": Options(
        string_reshuffle=False, round_end="empty", partial_refill=True
    ),
    "continue+round+deal3+no13+no_bad_luck": Options(
        new_round="continue", tiebreak="round", two_player_deal=3, thirteen_bonus=0, bad_luck=False
    ),
    "reshuffle_empty+row_first": Options(reshuffle_when="empty", equal_vitality="row_first"),
    "gamepark": Options.parse("", preset="gamepark"),
}

#: Every open point of the rulebook with two readings (the study knobs and safeguards aside).
BINARY = [r.name for r in BY_NAME.values() if r.kind == "reading"]


def _combination(bits: int) -> Options:
    """Return the readings whose bit is set in `bits` (bit i: BINARY[i] takes its second value)."""
    text = ",".join(
        f"{name}={BY_NAME[name].choices[(bits >> i) & 1]}" for i, name in enumerate(BINARY)
    )
    return Options.parse(text)


def _compare(names: list[str], options: Options, seeds: range) -> int:
    n = len(names)
    codes = [CODES[x] for x in names]
    for seed in seeds:
        ref = play_game(n, make_agents(names), seed, options)
        scores, captures, rounds, turns = kernel.game_record(n, seed, codes, options)
        ref_caps = [(r, t, p, b, int(x2), c) for r, t, p, b, x2, c in ref.captures]
        assert scores == ref.scores, (names, options.describe(), seed)
        assert captures == ref_caps, (names, options.describe(), seed)
        assert (rounds, turns) == (ref.round, ref.turns_total), (names, seed)
    return len(seeds)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_match_at_every_player_count(n):
    assert _compare(["random"] * n, Options(), range(1000 + 100 * n, 1300 + 100 * n)) == 300


@pytest.mark.parametrize("reading", list(READINGS))
def test_mixed_strategies_match_under_every_reading(reading):
    options = READINGS[reading]
    played = 0
    for names in (
        ["random", "greedy", "position", "random"],
        ["greedy", "position"],
        ["position", "greedy", "random", "greedy", "position", "random"],
    ):
        played += _compare(names, options, range(60))
    assert played == 180


@pytest.mark.parametrize("block", range(8))
def test_every_combination_of_readings_matches(block):
    # All 2**14 combinations of the open points, each in one seeded game (player count and
    # strategies vary with the combination); eight blocks of 2,048 so a failure names its part.
    assert len(BINARY) == 14
    names_by_n = {
        2: ["greedy", "random"],
        3: ["random", "position", "greedy"],
        4: ["random"] * 4,
        5: ["position", "random", "random", "greedy", "random"],
        6: ["random"] * 6,
    }
    played = 0
    for bits in range(block * 2048, (block + 1) * 2048):
        n = 2 + bits % 5
        played += _compare(names_by_n[n], _combination(bits), range(bits, bits + 1))
    assert played == 2048


def test_combinations_cover_both_values_of_every_reading():
    for i, name in enumerate(BINARY):
        values = {getattr(_combination(bits), name) for bits in (0, 1 << i)}
        assert len(values) == 2, name
    assert set(itertools.chain(BINARY)) <= set(Options.names())


@pytest.mark.parametrize(
    "reading", ["default", "close_up+in_order+empty_slot", "under+discards", "gamepark"]
)
def test_montecarlo_matches_draw_for_draw(reading):
    options = READINGS[reading]
    played = 0
    for names in (["montecarlo", "random", "greedy", "position"], ["montecarlo", "montecarlo"]):
        played += _compare(names, options, range(2))
    assert played == 4


def test_run_games_winners_follow_the_tiebreak():
    seeds = np.arange(500, dtype=np.uint64)
    out = kernel.run_games(4, seeds, [0, 0, 0, 0])
    assert out["scores"].shape == (500, 4)
    assert (out["scores"].max(axis=1) >= 50).all()
    for i in range(500):
        best = out["scores"][i].max()
        tied = np.flatnonzero(out["scores"][i] == best)
        fewest = out["bodies"][i][tied].min()
        expect = [p for p in tied if out["bodies"][i][p] == fewest]
        assert list(np.flatnonzero(out["winners"][i])) == expect
    # Every body taken is credited to the card that took it, and cards are played.
    assert out["card_points"].sum() == out["scores"].sum()
    assert out["card_takes"].sum() > 0
    assert 0.99 * out["turns"].sum() * 4 <= out["card_plays"].sum() <= out["turns"].sum() * 4


@pytest.mark.parametrize("reading", ["draw", "empty"])
def test_reshuffle_counts_match(reading):
    options = Options(reshuffle_when=reading)
    seeds = np.arange(40, dtype=np.uint64)
    out = kernel.run_games(6, seeds, [0] * 6, options)
    ref = [play_game(6, make_agents(["random"] * 6), int(s), options).reshuffles for s in seeds]
    assert list(out["reshuffles"]) == ref
    assert sum(ref) > 40  # six players go through the deck several times a game


@pytest.mark.parametrize(
    "names", [["random"] * 4, ["greedy", "position", "random"], ["montecarlo", "greedy"]]
)
def test_batch_games_do_not_depend_on_the_games_before(names):
    # play_many reuses one set of state arrays for the whole batch: every game of a batch
    # must come out as it does alone (game_record allocates fresh arrays for its game).
    n = len(names)
    codes = [CODES[x] for x in names]
    seeds = np.arange(40 if "montecarlo" in names else 200, dtype=np.uint64)[::-1]
    out = kernel.run_games(n, seeds, codes)
    for i in range(0, len(seeds), 7):
        seed = int(seeds[i])
        alone = kernel.run_games(n, seeds[i : i + 1], codes)
        for key in out:
            assert (out[key][i] == alone[key][0]).all(), (key, seed)
        scores, _, rounds, turns = kernel.game_record(n, seed, codes)
        assert list(out["scores"][i]) == scores, seed
        assert (out["rounds"][i], out["turns"][i]) == (rounds, turns), seed
