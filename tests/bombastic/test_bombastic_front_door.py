"""Bombastic's front door (solvers/bombastic/__init__.py, game.py): lazy names, the game
`play` plays, agents on the contract's generator, the rule texts the CLI reads, and
imports from outside the package through the door only."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import bombsolve.solvers.bombastic as B
from bombsolve.solvers.bombastic.agents import _BeliefCache, as_generator, play_game
from bombsolve.solvers.bombastic.beliefs import FastBelief
from bombsolve.solvers.bombastic.rules import CHANCE, Card, Options
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.game import FRONT_DOOR
from bombsolve.solvers.common.rng import SplitMix64

ROOT = Path(__file__).resolve().parents[2]


def test_the_door_exports_the_contract_and_every_name_resolves():
    assert set(FRONT_DOOR) <= set(B.__all__)
    for name in B.__all__:
        getattr(B, name)
    with pytest.raises(AttributeError, match="no_such_name"):
        B.no_such_name  # noqa: B018


def test_importing_the_door_loads_no_room_and_no_numpy():
    code = (
        "import sys, bombsolve.solvers.bombastic\n"
        "print([m for m in sys.modules if m.startswith(('numpy', 'numba', 'pandas', "
        "'bombsolve.solvers.bombastic.'))])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def _imports_of_bombastic(path: Path) -> list[tuple[str, list[str]]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "bombsolve.solvers.bombastic"
        ):
            found.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [
                (a.name, []) for a in node.names if a.name.startswith("bombsolve.solvers.bombastic")
            ]
    return found


def test_outside_the_package_bombastic_comes_through_the_door_only():
    files = [
        p
        for folder in ("cli", "scripts", "solvers", "tests")
        for p in (ROOT / folder).rglob("*.py")
        if not p.is_relative_to(ROOT / "solvers" / "bombastic")
        and not p.is_relative_to(ROOT / "tests" / "bombastic")
    ]
    wrong = []
    for path in files:
        for module, names in _imports_of_bombastic(path):
            if module != "bombsolve.solvers.bombastic" or not set(names) <= set(B.__all__):
                wrong.append(f"{path.relative_to(ROOT)}: {module} {names}")
    assert not wrong


def test_new_game_is_the_game_play_game_plays_chance_moves_included():
    """Seat by seat with play_game's generators, the front door plays the same game from
    the same seed; with the promos and a random agent, some games have chance moves."""
    options = Options(promos=True)
    chance_seen = 0
    for seed in range(8):
        agents = (B.make_agent("random"), B.make_agent("heuristic"))
        played = play_game(B.make_agent("random"), B.make_agent("heuristic"), seed, options)
        gens = [np.random.default_rng([seed, seat]) for seat in (0, 1)]
        game = B.new_game(seed, options=options)
        decisions = 0
        while B.outcome(game) is None:
            p = B.to_move(game)
            game = B.apply(game, agents[p].act(B.view(game, p), B.legal_actions(game), gens[p]))
            decisions += 1
        assert game.state.history == played.state.history
        assert B.outcome(game).winners == ((played.winner,) if played.winner is not None else ())
        assert B.outcome(game).ending == played.ending.value
        chance_seen += len(game.state.history) - decisions  # drawn inside apply
    assert chance_seen


def test_a_chance_move_is_drawn_inside_apply():
    game = B.new_game(0)
    rng = SplitMix64(3)
    for _ in range(2000):
        if B.outcome(game) is not None:
            game = B.new_game(rng.below(1000))
        assert game.state.to_move != CHANCE
        legal = B.legal_actions(game)
        game = B.apply(game, legal[rng.below(len(legal))])


def test_agents_take_the_contracts_generator_as_a_seeded_numpy_one():
    state = B.new_game(4)
    seen = B.view(state, 0)
    a = B.make_agent("random").act(seen, list(seen.legal), SplitMix64(9))
    b = B.make_agent("random").act(
        seen, list(seen.legal), np.random.default_rng(SplitMix64(9).next())
    )
    assert a == b
    g = np.random.default_rng(1)
    assert as_generator(g) is g


def test_an_agent_chooses_among_the_legal_actions_it_is_given():
    seen = B.view(B.new_game(4), 0)
    for seed in range(20):
        assert (
            B.make_agent("random").act(seen, [seen.legal[-1]], np.random.default_rng(seed))
            == (seen.legal[-1])
        )


def test_the_omniscient_agent_sees_the_state_and_refuses_a_view():
    assert set(B.OMNISCIENT_AGENTS) == {"omniscient"} and not set(B.OMNISCIENT_AGENTS) & set(
        B.AGENTS
    )
    game = B.new_game(2)
    agent = B.make_agent("omniscient")
    assert agent.act(game.state, B.legal_actions(game), SplitMix64(1)) in B.legal_actions(game)
    with pytest.raises(TypeError, match="whole State"):
        agent.act(B.view(game, 0), B.legal_actions(game), SplitMix64(1))


def test_a_view_is_a_frozen_hashable_value():
    seen = B.view(B.new_game(1), 1)
    assert hash(seen) == hash(B.view(B.new_game(1), 1))
    with pytest.raises(AttributeError):
        seen.turn_number = 3


def test_the_belief_cache_starts_over_on_events_that_do_not_continue_its_own():
    cache = _BeliefCache()
    first = [("peek", 0, 2), ("swap", 0, 1)]
    other = [("peek", 4, 0), ("show", 2, 1)]
    cache.get(first)
    for events in (first + [("show", 3, 0)], other, other[:1]):
        fresh = FastBelief.uniform()
        for ev in events:
            fresh.update(ev)
        assert np.array_equal(cache.get(tuple(events)).w, fresh.w)


def test_resample_keeps_the_public_game_going_as_it_was():
    game = B.new_game(6)
    rng = SplitMix64(2)
    for _ in range(25):
        legal = B.legal_actions(game)
        game = B.apply(game, legal[rng.below(len(legal))])
        if B.outcome(game) is not None:
            break
        for player in (0, 1):
            other = B.resample(game, player, rng)
            assert B.to_move(other) == B.to_move(game)
            assert B.legal_actions(other) == B.legal_actions(game)
            assert other.state.cycled == game.state.cycled
            assert sorted(other.state.tiles) == sorted(game.state.tiles)


def test_rules_of_refuses_cards_taken_out_and_round_trips_the_rest():
    with pytest.raises(BadInput, match="--without"):
        B.rules_of(Options(removed=(int(Card.PEEK_MANY),)))
    options = Options(shuffle="opponent", deck_known=False, turn_cap=9)
    assert B.rules_of(options) == ["deck_known=false", "turn_cap=9", "shuffle=opponent"]
    assert B.options_from_rules(B.rules_of(options)) == options


def test_the_cli_rule_option_reads_as_options_from_rules():
    from bombsolve.cli.bombastic import rules_record
    from bombsolve.cli.main import cli

    texts = ["shuffle=opponent", "promos=true", "turn_cap=7"]
    args = ["bombastic", "rules", "--json"] + [x for t in texts for x in ("--rule", t)]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["in_effect"] == rules_record(B.options_from_rules(texts))


def test_describe_says_the_decision_in_the_cards_words():
    from bombsolve.solvers.bombastic.rules import CARD_TEXT

    game = B.new_game(0)
    card = Card(game.state.face_up[0])
    assert B.describe(game, 17) == f"X: uses card: {CARD_TEXT[card]}"
    assert B.describe(game, 9) == "X: goes for it: row1"


def test_the_warmup_list_takes_bombastics_kernels_from_the_door():
    from bombsolve.cli import warmup

    assert warmup.kernels_of("bombastic") == list(B.KERNELS)
    assert [k.part for k in B.KERNELS] == ["infostates", "ismcts"]
    assert all(warmup.estimate_now(k) == k.estimate for k in B.KERNELS)


def test_every_study_is_a_study_function():
    assert set(B.STUDIES) == {"match", "tournament", "reference"}
    study = B.STUDIES["match"]("random", "random", 3, 1, Options())
    assert study.n_cases == 3
