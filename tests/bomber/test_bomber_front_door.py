"""The front door of Catch the Bomber (solvers/bomber/__init__.py) beyond the checks every
game shares (tests/test_conformance.py): its names, its rooms, and what each contract
function means for this game."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import bombsolve.solvers.bomber as B
from bombsolve.cli.main import cli
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.game import FRONT_DOOR, IllegalAction
from bombsolve.solvers.common.rng import SplitMix64
from tests.common.imports import import_graph

ROOT = Path(__file__).resolve().parents[2]


def playout(seed: int, players: int, options=None, stop: int | None = None):
    """Random legal actions from `new_game(seed)`; the states met, until the end or `stop`."""
    rng = SplitMix64(seed + 1)
    state = B.new_game(seed, players, options)
    states = [state]
    while B.outcome(state) is None and (stop is None or len(states) <= stop):
        legal = B.legal_actions(state)
        state = B.apply(state, legal[rng.below(len(legal))])
        states.append(state)
    return states


def test_every_name_of_the_door_loads_and_no_other():
    assert set(FRONT_DOOR) <= set(B.__all__)
    for name in B.__all__:
        assert getattr(B, name) is not None, name
    assert set(B.__all__) <= set(dir(B))
    with pytest.raises(AttributeError, match="no attribute 'Rules'"):
        B.Rules  # noqa: B018


def test_opening_the_door_loads_no_numba_or_pandas():
    code = (
        "import sys\n"
        "from bombsolve.solvers.bomber import NAME, AGENTS, KERNELS, apply, legal_actions, new_game\n"
        "s = new_game(1)\n"
        "apply(s, legal_actions(s)[0])\n"
        "print(sorted(m for m in ('numba', 'pandas', 'matplotlib') if m in sys.modules))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_the_docstring_lists_every_room_in_import_order():
    rooms = re.findall(r"^- ``(\w+)``", B.__doc__, re.M)
    graph = import_graph("bomber")
    assert set(rooms) == set(graph) - {"__init__"}
    for i, room in enumerate(rooms):
        assert graph[room] <= set(rooms[:i]), (room, graph[room] - set(rooms[:i]))


def cli_options(*pairs: str) -> dict:
    args = [x for p in pairs for x in ("--rule", p)]
    r = CliRunner().invoke(cli, ["bomber", "rules", *args, "--json"])
    assert r.exit_code == 0, r.output
    return {o["name"]: o["value"] for o in json.loads(r.stdout)["options"]}


@pytest.mark.parametrize(
    "pairs",
    [(), ("dog=forbid",), ("warrior-bombing=no", "stuck_bomber=assess"), ("move_optional=0",)],
)
def test_options_from_rules_reads_rule_as_the_command_line_does(pairs):
    options = B.options_from_rules(list(pairs))
    assert options.as_dict() == cli_options(*pairs)
    assert B.options_from_rules(B.rules_of(options)) == options


@pytest.mark.parametrize(
    "pair,fragment",
    [
        ("dgo=forbid", "did you mean dog?"),
        ("move_optional=perhaps", "true or false"),
        ("dog=caught,dog=forbid", "one option per --rule"),
        ("dog", "expected NAME=VALUE"),
        ("dog=sniff", "unknown dog reading 'sniff'"),
    ],
)
def test_options_from_rules_refuses_what_the_command_line_refuses(pair, fragment):
    with pytest.raises(BadInput, match=re.escape(fragment)):
        B.options_from_rules([pair])
    r = CliRunner().invoke(cli, ["bomber", "rules", "--rule", pair])
    assert r.exit_code == 2 and fragment in r.output


def test_rules_of_names_only_what_differs():
    assert B.rules_of(B.Options(move_optional=False)) == ["move_optional=false"]
    assert B.RULE_SAMPLES["dog"] == ("caught", "forbid")
    assert B.RULE_SAMPLES["warrior_bombing"] == (True, False)


def test_new_game_is_the_first_game_of_play_with_that_seed():
    r = CliRunner().invoke(
        cli, ["bomber", "play", "-p", "4", "-n", "1", "--seed", "9", "--engine", "reference",
              "--json"],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    first = doc["first_game_seed"]
    assert first == B.game_seed(9) != 9
    dealt = B.new_game(9, 4)
    assert (
        dealt.hands == B.prepare(4, first).hands
        and dealt.characters == B.prepare(4, first).characters
    )
    ref, _ = B.reference_and_kernel(9, 4)
    won = {0: "bomber", 1: "police", 2: "draw", 3: "sole"}[ref[1][0]]
    assert doc["outcomes"][won]["rate"] == 1.0
    assert B.new_game(9).players == 3
    with pytest.raises(BadInput, match="seed -1 out of range"):
        B.new_game(-1)


def test_apply_leaves_its_argument_and_refuses_an_illegal_action():
    state = B.new_game(5, 5)
    legal = B.legal_actions(state)
    after = B.apply(state, legal[0])
    assert state.history == [] and len(after.history) == 1
    assert B.to_move(after) == 1 and B.to_move(state) == 0
    assert B.describe(state, B.legal_actions(state)[0]).startswith("play ")
    illegal = next(a for a in range(115) if a not in legal)
    with pytest.raises(IllegalAction, match=f"action {illegal} is not legal for seat 1"):
        B.apply(state, illegal)
    end = playout(5, 5)[-1]
    with pytest.raises(IllegalAction, match="the game is over"):
        B.apply(end, 0)


def test_outcome_names_the_winners_and_the_ending():
    endings = {}
    for seed in range(60):
        end = playout(seed, 5)[-1]
        result = B.outcome(end)
        endings[result.ending] = result
        assert result.winners == tuple(B.winners(end))
    assert set(endings) <= set(B.OUTCOME_NAMES.values()) and len(endings) >= 3
    assert endings["Police side's victory"].winners  # the Police side are several seats
    assert B.outcome(B.new_game(0)) is None


def test_view_is_the_seat_s_own():
    state = playout(2, 6, stop=12)[-1]
    for seat in range(6):
        seen = B.view(state, seat)
        assert seen.me == seat and seen.character == state.characters[seat]
        assert hash(seen) == hash(B.view(state, seat))
    with pytest.raises(BadInput, match="seat 6 out of range"):
        B.view(state, 6)


def one_character_each(state) -> bool:
    for p in range(state.players):
        played = [s.card for line in state.lines for s in line if s.owner == p]
        held = [c for c, k in enumerate(state.hands[p]) for _ in range(k)]
        chars = [c for c in played + held if c in B.EXTRAS or c in (B.Card.BOMBER, B.Card.POLICE)]
        if chars != [state.characters[p]]:
            return False
    return True


def test_resample_keeps_what_the_seat_saw_and_replays():
    """Every redraw is a game the engine could have played: one character per seat, and a
    Suspicious Person never face down for a seat that still holds cards ("must be played
    as a player's last card"), a check only the replay makes."""
    rng = SplitMix64(3)
    sp = B.Card.SUSPICIOUS_PERSON
    for seed in range(8):
        for state in playout(seed, 6)[10::9]:
            for seat in range(6):
                other = B.resample(state, seat, rng)
                assert B.view(other, seat) == B.view(state, seat)
                assert one_character_each(other)
                for line in other.lines:
                    for s in line:
                        if s.card == sp:
                            assert other.hand_size(s.owner) == 0
                assert len(other.history) == len(state.history)
                assert other.current == state.current


def test_resample_redraws_the_extras_only_when_drawn_at_random():
    start = B.new_game(4, 4)
    rng = SplitMix64(1)
    seat = start.characters.index(B.Card.BOMBER)
    drawn = {tuple(c for c in B.resample(start, seat, rng).characters if c in B.EXTRAS)
             for _ in range(60)}  # fmt: skip
    assert len(drawn) == 3  # the one extra of 4 players may be any of the three
    named = B.prepare(4, 77, None, (B.Card.HOLY_WARRIOR,))
    assert named.extras_named
    kept = {tuple(c for c in B.resample(named, 0, rng).characters if c in B.EXTRAS)
            for _ in range(30)}  # fmt: skip
    assert kept == {(B.Card.HOLY_WARRIOR,)}


def test_agents_registry():
    assert set(B.AGENTS) == {"random", "heuristic"} == set(B.QUICK_AGENTS)
    assert all(isinstance(v, str) and v for v in B.AGENTS.values())
    assert B.make_agent("heuristic").name == "heuristic"
    with pytest.raises(BadInput, match="did you mean random"):
        B.make_agent("ranodm")
    with pytest.raises(BadInput, match="random takes no parameter"):
        B.make_agent("random:3")


def test_kernels_and_studies():
    from bombsolve.cli import warmup

    (k,) = B.KERNELS
    assert k in warmup.KERNELS and warmup.kernels_of("bomber") == [k]
    assert warmup.estimate_now(k) == k.estimate == 9
    assert set(B.STUDIES) == {*B.PARTS, "play"}
    study = B.STUDIES["players"]("random", 8, 1, players=3)
    assert study.name == "bomber.players" and study.n_cases == 8
    assert B.STUDIES["play"] is B.play_study


def test_reference_and_kernel_play_the_same_game():
    ref, ker = B.reference_and_kernel(4, 5, B.Options(dog="forbid"))
    assert ref == ker and len(ref[0]) == ref[1][B.COLUMNS.index("turns")]
    assert B.reference_and_kernel(5, 5)[0] != ref
