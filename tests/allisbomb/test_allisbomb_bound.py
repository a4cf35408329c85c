"""Branch and bound for Campaign Mode's keep-most search (prune.objective_bound /
prune.lower_bound, kernel.dfs best_mode 2, search.reference_search bound=True).

What must hold: the bound never exceeds the stars lost by the best win reachable (checked
against the bound-free exhaustive search), the Numba and plain-Python bounds agree, the
kernel and the reference agree move for move with the bound on, and the bound never
changes a proven best score. Positions come from random legal playouts of seeded deals of
the six campaign games (`campaign.campaign_config`).
"""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.kernel import prune
from bombsolve.solvers.allisbomb.kernel.kernel import E_NOT_BEST
from bombsolve.solvers.allisbomb.kernel.program import compile_program
from bombsolve.solvers.allisbomb.rules.rules import State, new_game
from bombsolve.solvers.allisbomb.search.search import reference_search, stars_lost
from bombsolve.solvers.allisbomb.search.solver import solve_state, to_kernel_state, verify_solution
from bombsolve.solvers.allisbomb.studies.campaign import campaign_config, play_campaign
from tests.allisbomb.helpers import position
from tests.allisbomb.test_allisbomb_prune import random_positions

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

#: These figures are the stand-in set version 1's (loaded by name: `config.CARD_VERSIONS`).
V1 = "standin-v1"
CAMPAIGN = [campaign_config(g, cards_version=V1) for g in range(len(EXPANSIONS))]
BASE = Options(cards_version=V1)
HANDS = Options(hands=True, cards_version=V1)
MOSQ = Options(expansions=("mosquitos",), cards_version=V1)
WAKING = Options(expansions=("waking_up",), cards_version=V1)


def kernel_bound(s: State) -> int:
    info = compile_program(s.cards).info
    objective = np.array(prune.star_objective(s.cards), np.int64)
    return int(prune.lower_bound(to_kernel_state(s), s.cards.n, info, objective))


def bound(s: State) -> int:
    """objective_bound, after checking that the Numba bound agrees with it."""
    b = prune.objective_bound(s)
    assert kernel_bound(s) == b, s.to_json()
    return b


def best_score(s: State, res) -> int | None:
    """Stars lost by a win proven best, else None."""
    if res.outcome != "win" or res.loss_reason & E_NOT_BEST:
        return None
    return stars_lost(verify_solution(s, res.solution))


# --- each part of the bound on hand-built positions -------------------------------------------


def test_a_star_card_nothing_can_take_back_counts():
    # base game: only the KING takes a card from the pile, and only the PRINCESS
    s = position(
        BASE,
        deck=["MENDER", "RASCAL", "KING", "EGGS"],
        equipped=[["PRINCESS"]],
        discard=["GUARDIAN", "JOKER"],
    )
    assert bound(s) == 1  # GUARDIAN (star) stays; JOKER has no star
    s = position(BASE, deck=["MENDER", "RASCAL", "KING", "EGGS"], equipped=[["PRINCESS"]])
    assert bound(s) == 0


def test_a_star_card_on_top_is_not_counted_while_the_left_hand_can_take_it():
    # LEFT HAND's ignited side puts the top card of the DISCARD PILE on the DECK
    rest = ["MENDER", "RASCAL", "KING", "EGGS", "LEFT HAND"]
    s = position(HANDS, deck=rest, equipped=[["PRINCESS"]], discard=["GUARDIAN"])
    assert bound(s) == 0
    # under a card that nothing can clear, it is buried for good
    s = position(HANDS, deck=rest, equipped=[["PRINCESS"]], discard=["GUARDIAN", "JOKER"])
    assert bound(s) == 1


def test_mosquitos_must_end_in_the_discard_pile():
    s = position(
        MOSQ,
        deck=["MENDER", "RASCAL", "EGGS", "SKOOT", "SQUEEK"],
        equipped=[["PRINCESS"]],
        desired="EGGS",
    )
    assert bound(s) == 2  # both MOSQUITO cards are star cards


def test_waking_up_desired_dish_must_end_in_the_discard_pile():
    rest = ["KING", "THRONE", "MENDER", "PANCAKES"]
    s = position(WAKING, deck=rest + ["EGGS"], equipped=[["PRINCESS"]], desired="EGGS")
    assert bound(s) == 1  # EGGS is a star card
    s = position(WAKING, deck=rest + ["EGGS"], equipped=[["PRINCESS"]], desired="PANCAKES")
    assert bound(s) == 0
    # before the prophecy: only EGGS can still be named (its PROPHET is the one in play)
    s = position(
        WAKING,
        deck=rest + ["EGGS", "PROPHET OF EGGS"],
        equipped=[["PRINCESS"]],
        ignited=["PROPHET OF EGGS"],
    )
    assert bound(s) == 1


# --- random positions of the six campaign games -----------------------------------------------


@pytest.fixture(scope="module")
def positions() -> dict[int, list[State]]:
    return {g: random_positions(cfg, 6, 100 + g)[::3] for g, cfg in enumerate(CAMPAIGN)}


@pytest.fixture(scope="module")
def live() -> dict[int, list[State]]:
    """Positions along winning lines (a win is reachable from each): every other turn of
    the first win found on seeded deals of each campaign game."""
    out: dict[int, list[State]] = {}
    for g, cfg in enumerate(CAMPAIGN):
        rng = np.random.default_rng(200 + g)
        out[g] = []
        n = load_cards(cfg).n
        for _ in range(2):
            s = new_game(cfg, list(rng.permutation(n)))
            res = solve_state(s, node_limit=20_000, portfolio=True, check=False)
            for t, move in enumerate(res.solution if res.outcome == "win" else []):
                if t % 2 == 1:
                    out[g].append(s)
                s = s.copy().apply(move)
    return out


def test_kernel_and_reference_bounds_agree(positions):
    values = [bound(s) for ps in positions.values() for s in ps]
    # the two-player campaign too (both players' EQUIPPED CARDS are in the reach set)
    for g in range(len(EXPANSIONS)):
        values += [bound(s) for s in random_positions(campaign_config(g, (), 2, V1), 2, 7 + g)[::3]]
    assert len(values) > 150
    assert sum(v > 0 for v in values) > 20  # the comparison is not vacuous


def test_the_bound_never_exceeds_the_best_win(live):
    """Soundness: where the bound-free exhaustive keep-most search proves its best win, that
    win's stars lost are >= the bound (so are every other win's: they lose at least as many).
    With the bound on, the proven best score is the same."""
    checked = positive = 0
    for game, ps in live.items():
        for s in ps:
            plain = solve_state(s, node_limit=10_000, keep_most=True, bound=False, check=False)
            bnb = solve_state(s, node_limit=10_000, keep_most=True, bound=True, check=False)
            a, b = best_score(s, plain), best_score(s, bnb)
            if plain.outcome != "undecided" and not plain.loss_reason & E_NOT_BEST:
                assert bnb.outcome == plain.outcome, (game, s.to_json())
            if a is None:
                continue
            lb = bound(s)
            assert a >= lb, (game, a, lb, s.to_json())
            assert b == a, (game, s.to_json())  # proven best by both: the same score
            assert bnb.nodes <= plain.nodes
            checked += 1
            positive += lb > 0
    # (with the bound equal to the best score on many of them: an over-count would fail)
    assert checked >= 60 and positive >= 40, (checked, positive)


def test_kernel_matches_reference_with_the_bound(positions, live):
    """Same outcome, positions, loss reasons and line, node limits small enough that some
    searches stop with a win not proven best."""
    seen = set()
    for game in positions:
        for s in live[game][::6] + positions[game][::16]:
            a = solve_state(s, node_limit=1_000, keep_most=True, bound=True, check=False)
            b = reference_search(s, node_limit=1_000, keep_most=True, bound=True)
            assert (a.outcome, a.nodes, a.loss_reason, a.solution) == (
                b.outcome,
                b.nodes,
                b.loss_reason,
                b.solution,
            ), (game, s.to_json())
            seen.add((a.outcome, bool(a.loss_reason & E_NOT_BEST)))
    assert {("win", False), ("win", True)} <= seen, seen


def test_bound_stops_at_the_root_bound():
    """MOSQUITOS: both MOSQUITO star cards end every win in the DISCARD PILE, so the root's
    bound is 2 and a win losing just them is proven best at once."""
    cfg = CAMPAIGN[0]
    rng = np.random.default_rng(5)
    stopped = 0
    for _ in range(6):
        s = random_positions(cfg, 1, int(rng.integers(1 << 30)))[0]
        res = solve_state(s, node_limit=200_000, keep_most=True, check=True)
        if res.outcome == "win" and best_score(s, res) == prune.objective_bound(s) == 2:
            plain = solve_state(s, node_limit=200_000, keep_most=True, bound=False)
            assert res.nodes <= plain.nodes
            stopped += 1
    assert stopped >= 1


def test_campaign_says_which_wins_are_proven_best():
    r = play_campaign(np.random.default_rng(3), node_limit=30_000, cards_version=V1)
    assert len(r.best) == len(r.stars_lost) == len(EXPANSIONS)
    for outcome, proven, lost in zip(r.outcomes, r.best, r.stars_lost, strict=True):
        if outcome == "win":
            assert isinstance(lost, int) and lost >= 0
        else:
            assert lost is None and not proven
    assert r.best[0]  # MOSQUITOS at this limit: proven (see test_bound_stops_at_the_root_bound)
