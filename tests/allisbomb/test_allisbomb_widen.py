"""Widening (search/widen.py): the rest of the node limit spread over the first turn's
moves, two levels deep, on card sets with the extended vocabulary, positions with a single
move played before widening; sound against the exhaustive search on random card files from
the whole vocabulary at one, two and three levels, and never used by the stand-in's cards."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.rules import State, TooManyMoves, new_game
from bombsolve.solvers.allisbomb.search import solver
from bombsolve.solvers.allisbomb.search import widen as widening
from bombsolve.solvers.allisbomb.search.solver import (
    DEFAULT_NODE_LIMIT,
    solve,
    solve_batch,
    solve_state,
    verify_solution,
)
from tests.allisbomb.odd_sets import random_card_file

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench"

NAMES = {1: "win", 0: "loss", 2: "undecided"}


def _random_config(seed: int, tmp_path: Path, n_cards: int = 9) -> tuple[Options, np.ndarray]:
    rng = np.random.default_rng(seed)
    path = random_card_file(rng, tmp_path / f"w{seed}.toml", n_cards, True)
    cfg = Options(cards_file=path, allow_nonstandard=True)
    n = load_cards(cfg).n
    return cfg, np.stack([rng.permutation(n) for _ in range(20)])


def test_widening_decides_a_deal_the_portfolio_leaves_undecided(tmp_path, monkeypatch):
    """Random file 18, deal 13: both move orders spend 4,000 positions without a verdict;
    the first turn's moves searched side by side find a win within the same limit."""
    cfg, decks = _random_config(18, tmp_path)
    assert solver.compiled(cfg).prog.extended
    deck = decks[13]
    won = solve_batch(cfg, deck[None, :], node_limit=4000)
    assert int(won["code"][0]) == 1 and int(won["nodes"][0]) <= 4000
    single = solve(cfg, deck, node_limit=4000)  # the same search, its line replayed
    assert single.outcome == "win" and single.nodes == int(won["nodes"][0])
    assert len(single.solution) == int(won["turns"][0])
    monkeypatch.setattr(solver, "WIDEN_AFTER", 10**18)  # the portfolio alone, whole limit
    assert int(solve_batch(cfg, deck[None, :], node_limit=4000)["code"][0]) == 2


@pytest.mark.parametrize("levels", [1, 2, 3])
def test_widening_agrees_with_the_exhaustive_search(tmp_path, levels):
    """Over random files from the whole vocabulary, every verdict widening reaches with a
    small budget, one, two or three levels deep, is the plain search's with a large one (a
    LOSS only when every move of every level is lost), every win replays in the reference
    engine, and both kinds are met."""
    decided = {"win": 0, "loss": 0}
    for seed in range(12):
        cfg, decks = _random_config(seed, tmp_path, n_cards=6)
        for deck in decks[:10]:
            root = new_game(load_cards(cfg), list(deck))
            w = solver.widen_search(cfg, root, 5000, first=20, levels=levels)
            got = NAMES[w.code]
            if got == "undecided":
                continue
            exact = solve(cfg, deck, node_limit=400_000, portfolio=False)
            assert exact.outcome == got, (seed, deck.tolist())
            decided[got] += 1
            if got == "win":
                assert len(w.line) == w.turns
                verify_solution(new_game(load_cards(cfg), list(deck)), list(w.line))
    assert decided["win"] > 20 and decided["loss"] > 20, decided


#: rich_relay's deal 101 of the benchmark's seed 2026 (scripts/bench/rich_sets.py), top first.
RELAY_101 = [17, 7, 8, 15, 16, 9, 0, 6, 4, 3, 2, 5, 11, 14, 13, 12, 10, 1]


def test_two_levels_decide_a_deal_one_level_leaves_open(monkeypatch):
    """rich_relay's deal 101 has a single first move. Without the pass-through of forced
    moves, widening its first turn's moves alone leaves it open after 200,000 positions
    (the plain search of that child), and widening each first move's own first turn too
    finds a 26-turn WIN within 5,000; with it, one level is that second level (a WIN after
    20,047) and two levels find it within 5,000 as well; the sweep's search finds it with
    the default limit, its line replayed."""
    cfg = Options(cards_file=BENCH / "cardsets" / "rich_relay.toml", allow_nonstandard=True)
    cards = load_cards(cfg)
    for levels, budget in ((1, 200_000), (2, 5000)):
        w = solver.widen_search(cfg, new_game(cards, RELAY_101), budget, levels=levels)
        assert NAMES[w.code] == "win" and w.nodes <= budget and w.turns == len(w.line) == 26
        verify_solution(new_game(cards, RELAY_101), list(w.line))
    deck = np.array(RELAY_101)
    assert int(solve_batch(cfg, deck[None, :])["code"][0]) == 1
    res = solve(cfg, deck)  # check=True: the line replayed in the reference engine
    assert res.outcome == "win" and res.nodes <= DEFAULT_NODE_LIMIT
    monkeypatch.setattr(widening, "SKIP_FORCED", False)
    one = solver.widen_search(cfg, new_game(cards, RELAY_101), 200_000, levels=1)
    assert NAMES[one.code] == "undecided" and one.nodes == 200_000
    two = solver.widen_search(cfg, new_game(cards, RELAY_101), 5000, levels=2)
    assert NAMES[two.code] == "win" and two.nodes <= 5000 and two.turns == len(two.line) == 26
    verify_solution(new_game(cards, RELAY_101), list(two.line))


def test_the_stand_in_never_widens(monkeypatch):
    """The stand-in's cards have no extended rows: a deal the portfolio leaves undecided
    stays as it was (the pinned node counts rely on it)."""

    def refuse(*args, **kwargs):
        raise AssertionError("widened a stand-in deal")

    monkeypatch.setattr(solver, "widen_search", refuse)
    cfg = Options()
    assert not solver.compiled(cfg).prog.extended
    decks = np.stack([np.random.default_rng(s).permutation(18) for s in range(30)])
    out = solve_batch(cfg, decks, node_limit=60)
    assert (out["code"] == 2).any() and out["nodes"].max() <= 60
    assert solve(cfg, decks[0], node_limit=60).nodes <= 60


def _open_moves(state: State) -> list[tuple[tuple[int, ...], State]]:
    """The moves of `state` after which the game goes on (a move that ends it is answered
    before widening starts)."""
    return [(m, c) for m, c in state.iter_children() if not c.is_over()]


def _forced_positions(cfg: Options, deck: np.ndarray, rng, turns: int = 8) -> list[State]:
    """The positions with a single move (the others, if any, lose at once) on a random
    line of up to `turns` turns."""
    state, out = new_game(load_cards(cfg), list(deck)), []
    for _ in range(turns):
        try:
            kids = _open_moves(state)
            won = any(c.result() == "win" for _, c in state.iter_children() if c.is_over())
        except TooManyMoves:
            break
        if not kids:
            break
        if len(kids) == 1 and not won:
            out.append(state.copy())
        state = kids[int(rng.integers(len(kids)))][1]
    return out


def test_widening_through_forced_moves_agrees_with_the_exhaustive_search(tmp_path):
    """Positions with a single move, on random lines of random files from the whole
    vocabulary: widening one such position is widening its one child, the move heading
    the line (without the pass-through the child is searched by the kernel instead, in
    other rounds); every verdict is the plain search's with a large limit, every win
    replays, and both kinds are met."""
    decided = {"win": 0, "loss": 0}
    same = 0
    for seed in range(12):
        cfg, decks = _random_config(seed, tmp_path, n_cards=6)
        rng = np.random.default_rng(1000 + seed)
        for deck in decks:
            for pos in _forced_positions(cfg, deck, rng):
                ((move, child),) = _open_moves(pos)
                w = solver.widen_search(cfg, pos, 5000, first=20)
                below = solver.widen_search(cfg, child, 5000, first=20)
                assert (w.code, w.nodes) == (below.code, below.nodes)
                got = NAMES[w.code]
                if got == "win":
                    assert w.line == (move, *below.line) and len(w.line) == w.turns
                    verify_solution(pos.copy(), list(w.line))
                same += 1
                if got == "undecided":
                    continue
                exact = solve_state(pos.copy(), node_limit=400_000, check=False)
                assert exact.outcome == got, (seed, deck.tolist())
                decided[got] += 1
    assert same > 30 and decided["win"] > 10 and decided["loss"] > 10, (same, decided)


def _random_set_one() -> str:
    spec = importlib.util.spec_from_file_location("random_sets", BENCH / "random_sets.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.random_set(1)


#: Random set 1's deal 639 of the benchmark's seed 2026 (scripts/bench/rich_sets.py), top first.
RANDOM1_639 = [7, 1, 2, 12, 5, 3, 17, 6, 15, 8, 11, 4, 16, 14, 9, 13, 0, 10]


def test_a_deal_with_one_first_move_is_widened_below_it(tmp_path, monkeypatch):
    """Random set 1's deal 639 has a single first move: widening it was the kernel's search
    of that one child every other round, undecided after the sweep's whole limit; played
    first, its own first turn's moves widened two levels deep, it is a 30-turn WIN within
    600,000 positions, and the sweep's search finds it with the default limit, replayed."""
    path = tmp_path / "random1.toml"
    path.write_text(_random_set_one())
    cfg = Options(cards_file=path, allow_nonstandard=True)
    cards = load_cards(cfg)
    assert len(_open_moves(new_game(cards, RANDOM1_639))) == 1
    won = solver.widen_search(cfg, new_game(cards, RANDOM1_639), 600_000)
    assert NAMES[won.code] == "win" and won.nodes <= 600_000 and won.turns == len(won.line)
    verify_solution(new_game(cards, RANDOM1_639), list(won.line))
    res = solve(cfg, np.array(RANDOM1_639))  # check=True: the line replayed
    assert res.outcome == "win" and res.nodes <= DEFAULT_NODE_LIMIT
    monkeypatch.setattr(widening, "SKIP_FORCED", False)
    left = solver.widen_search(cfg, new_game(cards, RANDOM1_639), 600_000)
    assert NAMES[left.code] == "undecided" and left.nodes == 600_000


#: Random set 1's deal 905 of the benchmark's seed 2026, top first: its first moves lead to
#: positions of thousands of moves each.
RANDOM1_905 = [3, 5, 14, 7, 16, 9, 11, 8, 12, 13, 0, 1, 15, 2, 17, 4, 6, 10]


def test_a_child_too_wide_for_its_round_is_searched_whole(tmp_path, monkeypatch):
    """Random set 1's deal 905: past its forced first move, most moves lead to a position
    of more than a thousand moves.
    A widening round gives such a child at most one move per MIN_SHARE positions of its
    budget, or searches it whole: no position has more of its moves generated than that
    (and one more, which tells it is too wide), and every position is searched in the
    kernel's form. The sweep's search still finds the deal's WIN, replayed."""
    path = tmp_path / "random1.toml"
    path.write_text(_random_set_one())
    cfg = Options(cards_file=path, allow_nonstandard=True)
    cards = load_cards(cfg)
    made: dict[int, int] = {}  # moves generated, by position
    plain = State.iter_children

    def counted(self):
        for kid in plain(self):
            made[id(self)] = made.get(id(self), 0) + 1
            yield kid

    monkeypatch.setattr(State, "iter_children", counted)
    limits: list[int] = []

    def search(row, limit, order):
        assert isinstance(row, np.ndarray) and order in widening.ORDERS
        limits.append(limit)
        return solver.SolveResult("undecided", limit, 0.0, [], 0)

    budget = 16_000  # a bound of 1,002 moves a position
    root = new_game(cards, RANDOM1_905)
    w = widening.widen(root, budget, search, convert=solver.to_kernel_state)
    assert NAMES[w.code] == "undecided" and w.nodes == budget == sum(limits)
    bound = budget // widening.MIN_SHARE + 2
    assert max(n for key, n in made.items() if key != id(root)) <= bound
    monkeypatch.setattr(State, "iter_children", plain)
    moves = _open_moves(new_game(cards, RANDOM1_905))
    while len(moves) == 1:  # the forced moves widening passes through
        moves = _open_moves(moves[0][1])
    wide = [len(_open_moves(child)) for _, child in moves]
    assert sum(k > bound for k in wide) >= 20, wide  # the bound bites: over a thousand moves
    res = solve(cfg, np.array(RANDOM1_905))  # check=True: the line replayed
    assert res.outcome == "win" and res.nodes <= DEFAULT_NODE_LIMIT
