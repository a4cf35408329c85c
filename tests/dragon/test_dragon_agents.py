"""Strategies: what they see, and the choices their definitions promise."""

from __future__ import annotations

import dataclasses

import pytest

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.rng import SplitMix64
from bombsolve.solvers.dragon.agents import (
    GreedyStrategy,
    MonteCarloStrategy,
    PositionStrategy,
    RandomStrategy,
    expected_points,
    make_agents,
    resolve_name,
    smart_rocket,
)
from bombsolve.solvers.dragon.rules import View, play_game
from tests.dragon.dragon_helpers import fc, position


def test_view_hides_the_others_hands_and_the_deck():
    s = position(3, [(11, []), (12, []), (17, [])], hands=[[fc(5)], [fc(6)], [fc(7)]])
    v = s.view(0)
    fields = {f.name for f in dataclasses.fields(View)}
    assert "hands" not in fields and "deck" not in fields
    assert v.hand == (fc(5),) and v.hand_sizes == (1, 1, 1)
    unseen = v.unseen()
    assert fc(6) in unseen and fc(7) in unseen and fc(5) not in unseen


def test_greedy_takes_a_sure_body_and_avoids_the_bad_luck_four():
    # The unseen cards are the others' two 9s: the 5 surely lands first, under the 4
    # (-3); the 10 surely lands last, under the 12 with its 7 (17 >= 12, +3).
    s = position(
        3, [(4, []), (11, []), (12, [fc(7)])], hands=[[fc(5), fc(10)], [fc(9, 2)], [fc(9, 3)]]
    )
    v = s.view(0)
    assert expected_points(v, fc(5), 0, v.unseen()) < 0
    assert GreedyStrategy().choose(v, SplitMix64(0)) == [fc(10)]


def test_position_plays_high_to_land_last_or_low_to_land_first():
    s = position(3, [(11, []), (12, []), (17, [fc(9)])], hands=[[fc(5), fc(6), fc(8)], [], []])
    assert PositionStrategy().choose(s.view(0), SplitMix64(0)) == [fc(8)]  # 9 + 8 >= 17 if last
    s = position(3, [(5, []), (12, []), (25, [])], hands=[[fc(5), fc(6), fc(8)], [], []])
    assert PositionStrategy().choose(s.view(0), SplitMix64(0)) == [fc(5)]  # 5 >= 5 if first


def test_smart_rocket_takes_the_best_body_or_helps_least():
    s = position(3, [(11, [fc(9)]), (12, [fc(10)]), (17, [fc(10, 2), fc(5)])])
    v = s.view(0)
    assert smart_rocket(v, fc(2), [0, 1, 2]) == 2  # 15 + 2 = 17: 5 points
    s = position(3, [(11, []), (16, []), (25, [])])
    assert smart_rocket(s.view(0), fc(2), [0, 1, 2]) == 0  # nothing reachable: lowest value


def test_random_choices_are_uniform_and_distinct_for_two_players():
    s = position(
        2, [(11, []), (12, []), (15, []), (16, [])], hands=[[fc(5), fc(6), fc(7), fc(8)], []]
    )
    v = s.view(0)
    rng = SplitMix64(3)
    counts = {}
    for _ in range(4000):
        a, b = RandomStrategy().choose(v, rng)
        assert a != b
        counts[(a, b)] = counts.get((a, b), 0) + 1
    assert len(counts) == 12 and min(counts.values()) > 250


def test_montecarlo_beats_random_on_fixed_seeds():
    wins = 0
    for seed in range(6):
        g = play_game(3, [MonteCarloStrategy(samples=8), RandomStrategy(), RandomStrategy()], seed)
        wins += 0 in g.winners()
    assert wins >= 4


def test_strategy_names_and_aliases():
    assert resolve_name("MC") == "montecarlo" and resolve_name(" greedy ") == "greedy"
    assert [a.name for a in make_agents(["pos", "rand"])] == ["position", "random"]
    with pytest.raises(BadInput, match="did you mean position"):
        resolve_name("positon")
