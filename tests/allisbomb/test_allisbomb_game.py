"""All Is Bomb's front door (solvers/allisbomb/game.py, the contract of
solvers/common/game.py): the action encoding, the view and resample of a game of open
information, illegal actions, endings, the --rule texts, and the agents behind one
signature playing the same games as the skill-gap study's players."""

from __future__ import annotations

import dataclasses

import pytest

from bombsolve.cli import warmup
from bombsolve.cli.allisbomb import GameArgs
from bombsolve.solvers.allisbomb import game
from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import RULE_OPTIONS, Options
from bombsolve.solvers.allisbomb.rules.deals import deal_from_seed
from bombsolve.solvers.allisbomb.rules.rules import Outcome, new_game
from bombsolve.solvers.allisbomb.search import agents
from bombsolve.solvers.allisbomb.search.agents import (
    TURN_CAP,
    Budget,
    greedy_choice,
    lookahead_game,
    play_greedy,
)
from bombsolve.solvers.allisbomb.search.search import reference_search
from bombsolve.solvers.allisbomb.studies.study import matrix_configs
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.game import IllegalAction, Result
from bombsolve.solvers.common.rng import SplitMix64


def play(agent, state, rng: SplitMix64, turn_cap: int = TURN_CAP):
    """Play `state` through the front door with `agent` in every seat; every position."""
    line = [state]
    while game.outcome(state) is None and state.turn < turn_cap:
        legal = game.legal_actions(state)
        action = agent.act(game.view(state, game.to_move(state)), legal, rng)
        assert action in legal
        state = game.apply(state, action)
        line.append(state)
    return line


def test_the_encoding_example_of_the_module_doc():
    s = game.new_game(0)
    names = [s.cards.labels[c] for c in s.equipped(0)]
    assert names == ["JOKER", "JOKER", "GUARDIAN"]
    moves = s.legal_moves()
    assert moves == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert game.legal_actions(s) == [0, 1, 2, 3, 4, 5]
    after = game.apply(s, 3)
    assert after.key() == s.copy().apply((1, 0)).key()
    words = game.describe(s, 3)
    assert (
        words.startswith("player 1: play JOKER") and "move PRINCESS (passive) to discard" in words
    )
    assert game.to_move(s) == 0 and game.to_move(after) == 0


def test_new_game_is_the_deal_the_command_line_solves():
    for players, options in ((None, None), (2, None), (None, Options(blitz=True))):
        config = options or Options()
        if players:
            config = dataclasses.replace(config, players=players)
        want = new_game(load_cards(config), deal_from_seed(config, 42))
        assert game.new_game(42, players, options).key() == want.key()
    # players from the options when not given
    assert game.new_game(5, options=Options(players=2)).config.players == 2
    with pytest.raises(BadInput, match="players must be 1 or 2"):
        game.new_game(0, players=3)


def test_an_illegal_action_is_refused_and_the_state_kept():
    s = game.new_game(3)
    key = s.key()
    n = len(game.legal_actions(s))
    for action in (-1, n, True, 1.0, "0"):
        with pytest.raises(IllegalAction, match="not legal"):
            game.apply(s, action)
    assert s.key() == key
    over = play(game.make_agent("random"), s, SplitMix64(1))[-1]
    assert game.legal_actions(over) == [] and game.to_move(over) == -1
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply(over, 0)


def test_endings_in_the_rulebooks_words():
    # a lost game: every seat loses, the ending one of rulebook E's
    s = game.new_game(3)
    lost = play(game.make_agent("random"), s, SplitMix64(2))[-1]
    assert lost.outcome is Outcome.LOSS
    result = game.outcome(lost)
    assert result.winners == () and result.ending in game.LOSS_WORDS.values()
    # a won game (a line the reference search finds): every seat wins
    for players in (1, 2):
        for seed in range(20):
            s = game.new_game(seed, players)
            found = reference_search(s, node_limit=2000)
            if found.outcome == "win":
                break
        for move in found.solution:
            assert game.outcome(s) is None
            s = game.apply(s, s.legal_moves().index(move))
        assert game.outcome(s) == Result(tuple(range(players)), game.WIN_WORDS)


def test_a_player_sees_the_whole_position():
    """Rulebook B: "You can examine the DECK anytime you wish": the view holds the DECK
    order, so resample gives the same position back and draws nothing."""
    s = game.new_game(9, players=2)
    s = game.apply(s, 0)
    v0, v1 = game.view(s, 0), game.view(s, 1)
    assert v0.deck == tuple(s.deck) and v0.zone == tuple(s.zone)
    assert v0 != v1 and dataclasses.replace(v0, player=1) == v1
    assert v0.state().key() == s.key()
    other = game.new_game(10, players=2)
    assert game.view(other, 0) != game.view(game.new_game(9, players=2), 0)
    rng = SplitMix64(4)
    again = game.resample(s, 1, rng)
    assert again is not s and again.key() == s.key() and game.view(again, 1) == v1
    assert rng.below(1000) == SplitMix64(4).below(1000), "resample drew from the generator"
    with pytest.raises(BadInput, match="player 2 is not a seat"):
        game.view(s, 2)


def test_rule_texts_agree_with_the_command_line():
    for name, values in game.RULE_SAMPLES.items():
        for value in values:
            text = f"{name.replace('_', '-')}={'yes' if value else 'no'}"
            options = game.options_from_rules([text])
            assert options == GameArgs(rule_pairs=(text,)).config()
            assert game.options_from_rules(game.rules_of(options)) == options
    assert set(game.RULE_SAMPLES) == set(RULE_OPTIONS)
    assert game.rules_of(Options(give_optional=True, all_any_player=False)) == [
        "give_optional=true",
        "all_any_player=false",
    ]
    with pytest.raises(BadInput, match="did you mean give_optional"):
        game.options_from_rules(["give_optinal=true"])
    with pytest.raises(BadInput, match="expansions is not a --rule option.*--expansions"):
        game.rules_of(Options(expansions=("mosquitos",)))


def test_greedy_agent_plays_the_games_of_play_greedy(monkeypatch):
    """Position for position (the line `play_greedy` plays, recorded as it chooses), on
    deals it loses and the solo deal of seed 26, which it wins."""
    chosen: list[tuple] = []

    def recorded(s, seen):
        k, child = greedy_choice(s, seen)
        chosen.append(child.key())
        return k, child

    monkeypatch.setattr(agents, "greedy_choice", recorded)
    agent = game.make_agent("greedy")  # one agent over many games: it starts each afresh
    # (the solo deal of seed 1 again at the end: the same game, nothing remembered)
    for players, seeds in ((1, [*range(6), 26]), (2, range(6)), (1, [1])):
        for seed in seeds:
            start = game.new_game(seed, players)
            line = play(agent, start, SplitMix64(seed))
            chosen.clear()
            won = play_greedy(start.copy())
            assert [s.key() for s in line[1:]] == chosen, (players, seed)
            assert (line[-1].outcome is Outcome.WIN) == won
            assert won == ((players, seed) == (1, 26))


def test_lookahead_agent_plays_the_games_of_lookahead_game():
    agent = game.make_agent("lookahead:40")
    assert agent.budget == Budget(4, 40)
    for players, seeds in ((1, range(3)), (2, range(3)), (1, [1])):
        for seed in seeds:
            start = game.new_game(seed, players)
            line = play(agent, start, SplitMix64(seed))
            want = lookahead_game(start.copy(), Budget(4, 40))
            assert [s.key() for s in line] == [s.key() for s in want], (players, seed)


def test_random_agent_draws_from_the_generator_it_is_given():
    start = game.new_game(1, 2)
    a = [s.key() for s in play(game.make_agent("random"), start, SplitMix64(8))]
    b = [s.key() for s in play(game.make_agent("random"), start, SplitMix64(8))]
    c = [s.key() for s in play(game.make_agent("random"), start, SplitMix64(9))]
    assert a == b and a != c


def test_solver_agent_wins_a_won_deal():
    agent = game.make_agent("solver:2000")
    for seed in range(4):
        start = game.new_game(seed)
        if reference_search(start, node_limit=2000).outcome == "win":
            assert play(agent, start, SplitMix64(0))[-1].outcome is Outcome.WIN, seed


def test_agent_specs():
    assert set(game.AGENTS) == {"random", "greedy", "lookahead", "solver"}
    assert {spec.split(":")[0] for spec in game.QUICK_AGENTS} == set(game.AGENTS)
    assert game.make_agent("solver:500").nodes == 500
    assert all(game.make_agent(name).name == name for name in game.AGENTS)
    with pytest.raises(BadInput, match="did you mean lookahead"):
        game.make_agent("lookahed")
    with pytest.raises(BadInput, match="takes no parameter"):
        game.make_agent("greedy:3")
    with pytest.raises(BadInput, match="expected a whole number"):
        game.make_agent("lookahead:many")
    with pytest.raises(BadInput, match="expected 1 or more"):
        game.make_agent("solver:0")


def test_kernels_and_studies():
    assert game.KERNELS == warmup.kernels_of("allisbomb")
    assert [k.part for k in game.KERNELS] == [
        "solve",
        "shortest",
        "keep-most",
        "extended",
        "sweep",
        "exhaust",
    ]
    study = game.STUDIES["matrix"](2, 7)
    assert study.params["labels"] == [c.label() for c in matrix_configs()]
    assert study.params["deals"] == 2 and study.seed == 7
    assert {"sweep", "matrix", "campaign", "exhaust", "sensitivity"} <= set(game.STUDIES)


@pytest.mark.slow  # compiles the solver's kernel on a cold cache
def test_reference_and_kernel_decide_a_deal_alike():
    verdicts = set()
    for players in game.PLAYERS:
        for seed in range(6):
            ref, ker = game.reference_and_kernel(seed, players)
            assert ref == ker, (players, seed)
            verdicts.add(ref[0])
            if ref[0] == "win":
                assert ref[3], "a win comes with its line"
    assert "win" in verdicts and len(verdicts) > 1
