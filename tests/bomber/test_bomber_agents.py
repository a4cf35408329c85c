"""Agents: legal moves only, a player's view only, and each role's rule of thumb."""

from __future__ import annotations

import pytest

from bombsolve.solvers.bomber import rules as R
from bombsolve.solvers.bomber.agents import HeuristicAgent, RandomAgent, parse_agents, play_game
from bombsolve.solvers.bomber.kernel import trace_game
from bombsolve.solvers.bomber.rules import (
    BRIDGE,
    Card,
    SplitMix64,
    legal_actions,
    observe,
    play_action,
)
from bombsolve.solvers.common.errors import BadInput
from tests.bomber.positions import position


@pytest.mark.parametrize("spec", ["random", "heuristic", "random,bomber=heuristic"])
def test_agents_finish_games_with_legal_moves(spec):
    agents = parse_agents(spec)
    for seed in range(40):
        g = play_game(3 + seed % 4, seed, agents=agents)  # apply() rejects illegal moves
        assert g.over


def test_random_agent_plays_the_kernel_game():
    for seed in range(50):
        g = play_game(5, seed)
        _, kernel_actions = trace_game(seed, 5)
        assert [a for _, a in g.history] == kernel_actions


def test_heuristic_sees_only_the_view():
    # Two states that differ only in what player 0 cannot see give the same choice.
    lines = {0: "CIT [BMB]@1 SQD", 1: "POL [CIT]@2", 2: "BMB"}
    a = position(lines=lines, hands={0: {Card.CITIZEN: 2, Card.POLICE: 1}, 1: {Card.BOMB: 3}},
                 characters=[Card.POLICE, Card.BOMBER, Card.POLICE])  # fmt: skip
    lines_b = {0: "CIT [BMR]@1 SQD", 1: "POL [SQD]@2", 2: "BMB"}
    b = position(lines=lines_b, hands={0: {Card.CITIZEN: 2, Card.POLICE: 1}, 1: {Card.CITIZEN: 5}},
                 characters=[Card.POLICE, Card.POLICE, Card.BOMBER])  # fmt: skip
    va, vb = observe(a, 0), observe(b, 0)
    assert va.lines == vb.lines and va.hand == vb.hand
    for seed in range(20):
        pa = HeuristicAgent().act(va, legal_actions(a), SplitMix64(seed))
        pb = HeuristicAgent().act(vb, legal_actions(b), SplitMix64(seed))
        assert pa == pb


def _choice(state, player=0, seed=0):
    return R.decode(HeuristicAgent().act(observe(state, player), legal_actions(state, player),
                                         SplitMix64(seed)))  # fmt: skip


def test_bomber_hides_face_down_away_from_police_and_dogs():
    st = position(
        lines={0: "POL", 1: "DOG", 2: "BMB", 3: "CIT", 4: "SQD [CIT] SQD [CIT] SQD", 5: "CIT"},
        hands={0: {Card.BOMBER: 1, Card.CITIZEN: 1}},
    )
    a = _choice(st)
    assert a.kind == "play" and a.card == Card.BOMBER and a.dst in (3, 5)


def test_bomber_bombs_where_victims_are_and_no_squad():
    st = position(lines={0: "CIT", 1: "CIT SQD", 2: "[BMR]@0", 3: "POL"},
                  hands={0: {Card.BOMB: 4, Card.POLICE_DOG: 0}})  # fmt: skip
    assert _choice(st) == R.decode(play_action(Card.BOMB, 0))


def test_police_spread_and_follow_suspicion():
    chars = [Card.POLICE, Card.BOMBER, Card.POLICE, Card.YOUNG_LADY]
    st = position(lines={0: "POL@2", 1: "CIT [CIT]@1", 2: "CIT"}, characters=chars,
                  hands={0: {Card.POLICE: 1}})  # fmt: skip
    a = _choice(st)
    assert a.card == Card.POLICE and a.dst == 1


def test_police_side_defuses_visible_bombs():
    st = position(lines={2: "BMB CIT"}, hands={0: {Card.BOMB_SQUAD: 1}},
                  characters=[Card.POLICE, Card.BOMBER, Card.POLICE])  # fmt: skip
    assert _choice(st) == R.decode(play_action(Card.BOMB_SQUAD, 2))


def test_police_side_disperses_citizens():
    st = position(lines={0: "CIT", 1: "CIT", 2: "CIT [SQD]"}, hands={0: {Card.CITIZEN: 1}},
                  characters=[Card.POLICE, Card.BOMBER, Card.POLICE])  # fmt: skip
    a = _choice(st)
    assert a.kind == "play" and a.dst in (3, 4, 5)


def test_holy_warrior_weighs_his_sole_victory():
    chars = [Card.HOLY_WARRIOR, Card.BOMBER, Card.POLICE, Card.POLICE]
    # players 2 and 3 showed Police face up: player 1 is the only suspect
    st = position(lines={0: "POL@2 [CIT]@1", 1: "POL@3", 3: "SQD [CIT]@1"}, characters=chars,
                  hands={0: {Card.HOLY_WARRIOR: 1}})  # fmt: skip
    a = _choice(st)
    assert a.card == Card.HOLY_WARRIOR and a.dst == 0


def test_young_lady_and_suspicious_person_seek_safety():
    st = position(lines={0: "BMB", 1: "SQD", 2: "BMB"}, hands={0: {Card.SUSPICIOUS_PERSON: 1}},
                  characters=[Card.SUSPICIOUS_PERSON, Card.BOMBER, Card.POLICE, Card.POLICE])  # fmt: skip
    assert _choice(st).dst == 1
    st2 = position(lines={0: "BMB", 1: "SQD", 2: "BMB", 3: "CIT"}, hands={0: {Card.YOUNG_LADY: 1}},
                   characters=[Card.YOUNG_LADY, Card.BOMBER, Card.POLICE, Card.POLICE])  # fmt: skip
    assert _choice(st2).dst == 1


def test_bomber_moves_a_lone_citizen_for_chaos():
    full = "POL [BMB]@1 BMB@1 [BMB]@1 BMB@1"
    lines = {g: full for g in range(6)}
    lines.update({0: "CIT CIT BMB@1 [BMB]@1 BMB@1", 1: "SQD CIT BMB@1 [BMB]@1 BMB@1"})
    st = position(lines={**lines, BRIDGE: "CIT"}, hands={0: {Card.CITIZEN: 1}})
    a = _choice(st)
    # the lone Citizen of G2 joins the one on the Bridge: one location fewer for Chaos
    assert (a.kind, a.src, a.index, a.dst) == ("move", 1, 1, BRIDGE)


def test_random_agent_uniform_over_legal():
    legal = [3, 7, 11]
    rng = SplitMix64(5)
    counts = {a: 0 for a in legal}
    for _ in range(3000):
        counts[RandomAgent().act(None, legal, rng)] += 1
    assert all(900 < c < 1100 for c in counts.values())


def test_parse_agents():
    assert set(parse_agents("heuristic").values()) == {"heuristic"}
    spec = parse_agents("heuristic,bomber=random")
    assert spec[Card.BOMBER] == "random" and spec[Card.POLICE] == "heuristic"
    assert set(parse_agents("bomber=heuristic").values()) == {"random", "heuristic"}
    for bad, msg in [("clever", "unknown agent 'clever'"), ("spy=random", "unknown role"),
                     ("random,heuristic", "two defaults"), ("", "empty"), ("random,,x", "empty item")]:  # fmt: skip
        with pytest.raises(BadInput, match=msg):
            parse_agents(bad)
