"""The DECK floor (kernel.CTL_FLOOR, `search.reference_search(floor=...)`): a search of the
positions whose DECK holds at least `floor` cards. A move into a position with a smaller
DECK is cut, as a line at the depth limit is: a win found is a WIN (the rulebook's wins,
E, do not depend on what was cut), and the end without a win is undecided, never a loss.
The kernel cuts exactly where the reference does, node for node, on the stand-in and on
random card files from the whole vocabulary."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.rules import Ending, new_game
from bombsolve.solvers.allisbomb.search import search as S
from bombsolve.solvers.allisbomb.search.solver import (
    _solve_root,
    to_kernel_state,
)
from tests.allisbomb.odd_sets import random_card_file


def _kernel(state, floor: int, limit: int, order: int = 0):
    import time

    return _solve_root(
        state.config,
        to_kernel_state(state),
        lambda: state,
        time.perf_counter(),
        limit,
        None,
        True,  # a win is replayed through the reference engine
        False,
        None,
        False,
        True,
        order=order,
        floor=floor,
    )


def _court() -> Options:
    rich = Path(__file__).parents[2] / "scripts" / "bench" / "cardsets" / "rich_court.toml"
    return Options(cards_file=rich, allow_nonstandard=True)


def _cases(tmp_path):
    """(config, deck) pairs: stand-in deals, and deals of random files of the vocabulary,
    every third file played by two players."""
    out = []
    cfg = Options()
    n = load_cards(cfg).n
    rng = np.random.default_rng(5)
    out += [(cfg, rng.permutation(n).tolist()) for _ in range(12)]
    for seed in range(12):
        rng = np.random.default_rng(100 + seed)
        path = random_card_file(rng, tmp_path / f"f{seed}.toml", 12, lasting=seed % 2 == 1)
        players = 2 if seed % 3 == 2 else 1
        cfg = Options(cards_file=path, allow_nonstandard=True, players=players)
        n = load_cards(cfg).n
        out += [(cfg, rng.permutation(n).tolist()) for _ in range(4)]
    return out


def test_kernel_and_reference_cut_the_same_floor(tmp_path):
    seen = {"win": 0, "undecided": 0, "loss": 0}
    cut = 0
    for cfg, deck in _cases(tmp_path):
        st = new_game(load_cards(cfg), deck)
        for floor in (0, 2, 4, 7):
            ref = S.reference_search(st, node_limit=3_000, floor=floor)
            ker = _kernel(st, floor, 3_000)
            assert (ref.outcome, ref.nodes) == (ker.outcome, ker.nodes), (deck, floor)
            assert ref.solution == ker.solution
            assert ref.loss_reason == ker.loss_reason
            seen[ref.outcome] += 1
            cut += bool(floor and ref.loss_reason & Ending.DEPTH_CUT)
    # every verdict met, and the floor cut lines in many searches
    assert min(seen.values()) >= 5 and cut >= 40, (seen, cut)


def test_a_floored_search_wins_only_real_wins_and_never_claims_a_loss(tmp_path):
    """A win of a floored search is a win of the deal (replayed, and never a deal the whole
    search proves lost); a floored search that cut something ends undecided, and one that cut nothing
    searched the whole game, so its verdict is the whole search's. (The kernel's floor is
    the reference's, node for node: the test above.)"""
    wins = undecided = 0
    for cfg, deck in _cases(tmp_path):
        st = new_game(load_cards(cfg), deck)
        whole = _kernel(st, 0, 400_000)
        for floor in (3, 5, 8):
            res = _kernel(st, floor, 400_000)  # a win is replayed (check)
            if res.outcome == "win":
                s = st.copy()
                for move in res.solution[:-1]:  # every position of the line keeps the floor
                    s.apply(move)
                    assert len(s.deck) >= floor
                # the whole search may not get there within its limit; it never proves a loss
                assert whole.outcome != "loss"
                wins += 1
            elif res.loss_reason & Ending.DEPTH_CUT:
                assert res.outcome == "undecided"
                undecided += res.nodes < 400_000
            else:
                assert res.outcome == whole.outcome
    assert wins >= 20 and undecided >= 20, (wins, undecided)


@pytest.mark.parametrize("order", [2, 3])
def test_kernel_floor_with_the_sweeps_orders_keeps_its_floor(tmp_path, order):
    """With the move orders the sweep uses, a floored win's line never enters a position
    whose DECK is under the floor (the winning move itself may draw it lower)."""
    found = 0
    for cfg, deck in _cases(tmp_path):
        st = new_game(load_cards(cfg), deck)
        res = _kernel(st, 5, 20_000, order=order)
        assert res.outcome != "loss" or not res.loss_reason & Ending.DEPTH_CUT
        if res.outcome == "win":
            found += 1
            s = st.copy()
            for move in res.solution[:-1]:
                s.apply(move)
                assert len(s.deck) >= 5
    assert found >= 10


def test_floors_are_shares_of_the_starting_deck():
    from bombsolve.solvers.allisbomb.search.floors import floors_for

    assert floors_for(15) == [3, 6, 10]
    assert floors_for(13) == [3, 5, 9]
    assert floors_for(1) == [1]  # at least 1, each once
    assert floors_for(0) == [1]


def test_the_floor_portfolio_decides_as_the_whole_search(tmp_path):
    """`floors.floor_portfolio` (several floors in several card and move orders): each win
    it reports replays through the reference engine, no whole search contradicts a verdict
    of it, and many agree; on a rich benchmark set it decides most deals within its
    budget."""
    from bombsolve.solvers.allisbomb.search.floors import floor_portfolio
    from bombsolve.solvers.allisbomb.search.search import MAX_DEPTH
    from bombsolve.solvers.allisbomb.search.solver import _entry_words, _result, compiled

    court = _court()
    rng = np.random.default_rng(3)
    cases = _cases(tmp_path) + [(court, rng.permutation(18).tolist()) for _ in range(30)]
    decided = {"win": 0, "loss": 0}
    court_wins = agreed = 0
    for cfg, deck in cases:
        c = compiled(cfg)
        st = new_game(c.cards, deck)
        code, nodes, reasons, turns, sol, sol_len = floor_portfolio(
            c, to_kernel_state(st), 60_000, MAX_DEPTH, _entry_words(c.cards.n)
        )
        assert nodes <= 60_000
        res = _result(lambda st=st: st, code, nodes, reasons, turns, sol, sol_len, 0.0, True)
        if res.outcome == "undecided":
            continue
        whole = _kernel(st, 0, 3_000_000)
        # the whole search, where its limit lets it decide, agrees; it never contradicts
        assert whole.outcome in (res.outcome, "undecided"), (deck, res.outcome, whole.outcome)
        agreed += whole.outcome == res.outcome
        decided[res.outcome] += 1
        court_wins += cfg is court and res.outcome == "win"
    assert decided["win"] >= 40 and court_wins >= 25 and agreed >= 30, (decided, court_wins, agreed)


def test_the_first_answer_tries_the_floors_in_the_reference(monkeypatch):
    """`solve_first` on a card file with the extended vocabulary searches the DECK floors
    in the reference before its plain search: a deal whose win the plain reference budget
    does not reach is answered by the reference (no kernel), its line replayed; the floors
    stay within the user's node limit."""
    from bombsolve.solvers.allisbomb.search import solver

    cfg = _court()
    cards = load_cards(cfg)
    rng = np.random.default_rng(7)
    deals = [rng.permutation(cards.n).tolist() for _ in range(12)]

    def first(deck, **kw):
        return solver.solve_first(new_game(cards, deck), before_kernel=lambda: 1 / 0, **kw)

    by_floor = 0
    for deck in deals:
        plain = S.reference_search(new_game(cards, deck), node_limit=solver.REFERENCE_FIRST)
        if plain.outcome != "undecided":
            continue
        try:
            res = first(deck)
        except ZeroDivisionError:  # handed over to the kernel
            continue
        assert res.engine == "reference" and res.outcome == "win"
        assert res.nodes <= solver.REFERENCE_FIRST
        by_floor += 1
    assert by_floor >= 2
    small = first(deals[0], node_limit=300)
    assert small.nodes <= 300
    monkeypatch.setattr(solver, "REFERENCE_FLOOR", 0)  # no floors: the plain reference alone
    assert first(deals[0], node_limit=300).nodes <= 300


def test_split_children_and_time_limited_searches_begin_with_the_floors(monkeypatch):
    """On a card file with the extended vocabulary every child search of a split, and a
    search under a time limit, begins with the DECK floors (a sixth of its node limit) and
    keeps its verdict: the same as the search without them wherever both decide, its wins
    replayed, its positions within the node limit. The stand-in's searches never do."""
    from bombsolve.solvers.allisbomb.search import solver
    from bombsolve.solvers.allisbomb.search.split import solve_split

    calls = []
    real = solver.floor_portfolio

    def counted(c, root, budget, *args):
        calls.append(budget)
        return real(c, root, budget, *args)

    monkeypatch.setattr(solver, "floor_portfolio", counted)
    court = _court()
    cards = load_cards(court)
    rng = np.random.default_rng(11)
    decks = [rng.permutation(cards.n).tolist() for _ in range(8)]

    sp = solve_split(new_game(cards, decks[0]), depth=1, node_limit=60_000)
    assert sp.searches >= 1 and len(calls) == sp.searches
    assert set(calls) == {60_000 // solver.WIDEN_AFTER}

    agreed = 0
    for deck in decks:
        st = new_game(cards, deck)
        calls.clear()
        timed = solver.solve_state(st, node_limit=200_000, portfolio=True, time_limit=600)
        assert calls == [200_000 // solver.WIDEN_AFTER] and timed.nodes <= 200_000
        plain = solver.solve_state(st, node_limit=3_000_000, check=False)
        assert timed.outcome in (plain.outcome, "undecided"), deck
        agreed += timed.outcome == plain.outcome != "undecided"
    assert agreed >= 6

    calls.clear()
    base = Options()
    st = new_game(load_cards(base), np.random.default_rng(1).permutation(18).tolist())
    solve_split(st, depth=1, node_limit=5_000)
    solver.solve_state(st, node_limit=5_000, portfolio=True, time_limit=600)
    assert calls == []


def test_the_floors_stop_at_a_passed_deadline():
    """A search whose time limit has passed stops after the floors' first turn: undecided
    (or a win that turn found), at most FLOOR_FIRST positions, the plain search not begun."""
    import time

    from bombsolve.solvers.allisbomb.search import floors, solver
    from bombsolve.solvers.allisbomb.search.search import MAX_DEPTH

    c = solver.compiled(_court())
    rng = np.random.default_rng(4)
    outcomes = set()
    for _ in range(6):
        st = new_game(c.cards, rng.permutation(c.cards.n).tolist())
        row = to_kernel_state(st)
        words = solver._entry_words(c.cards.n)
        code, nodes, *_ = floors.floor_portfolio(
            c, row, 600_000, MAX_DEPTH, words, time.perf_counter() - 1
        )
        assert code in (1, 2) and nodes <= floors.FLOOR_FIRST
        res = solver.solve_state(st, node_limit=600_000, portfolio=True, time_limit=1e-9)
        assert res.outcome in ("win", "undecided") and res.nodes <= floors.FLOOR_FIRST
        outcomes.add(res.outcome)
    assert "undecided" in outcomes


def test_the_floors_card_orders_are_fixed_permutations_of_the_sides():
    """`floors.arm_infos`: the card set's own program first, then FLOOR_TABLES copies that
    differ from it only in the priority table, switched on and holding a permutation of the
    card sides; the same tables on every call (a search's counts reproduce)."""
    from bombsolve.solvers.allisbomb.kernel.ordering import INFO_ORDER, priority_table
    from bombsolve.solvers.allisbomb.search import floors, solver

    c = solver.compiled(_court())
    n = c.cards.n
    infos = floors.arm_infos(c.prog.info, n)
    assert len(infos) == 1 + floors.FLOOR_TABLES and infos[0] is c.prog.info
    t = abs(int(c.prog.info[INFO_ORDER]))
    seen = set()
    for info in infos[1:]:
        table = priority_table(info, n)
        assert table is not None and sorted(table.reshape(-1).tolist()) == list(range(2 * n))
        rest = np.ones(len(info), bool)
        rest[INFO_ORDER] = False
        rest[t : t + 2 * n] = False
        assert (info[rest] == c.prog.info[rest]).all()  # the copy-keys flag (last) included
        seen.add(table.tobytes())
    assert len(seen) == floors.FLOOR_TABLES
    floors._INFOS.clear()
    again = floors.arm_infos(c.prog.info, n)
    assert all((a == b).all() for a, b in zip(infos, again, strict=True))


def test_wins_in_the_drawn_card_orders_replay(tmp_path, monkeypatch):
    """The floors searched only in the drawn card orders (the card set's own left out): each
    win's line, written as the options of the rules' move lists whatever order found it,
    replays through the reference engine; the whole search never contradicts a verdict."""
    from bombsolve.solvers.allisbomb.search import floors, solver
    from bombsolve.solvers.allisbomb.search.search import MAX_DEPTH

    real = floors.arm_infos
    monkeypatch.setattr(floors, "arm_infos", lambda info, n: real(info, n)[1:])
    rng = np.random.default_rng(8)
    court = _court()
    cases = _cases(tmp_path)[12:] + [(court, rng.permutation(18).tolist()) for _ in range(20)]
    wins = 0
    for cfg, deck in cases:
        c = solver.compiled(cfg)
        st = new_game(c.cards, deck)
        code, nodes, reasons, turns, sol, sol_len = floors.floor_portfolio(
            c, to_kernel_state(st), 60_000, MAX_DEPTH, solver._entry_words(c.cards.n)
        )
        res = solver._result(lambda st=st: st, code, nodes, reasons, turns, sol, sol_len, 0, True)
        if res.outcome != "undecided":
            assert _kernel(st, 0, 3_000_000).outcome in (res.outcome, "undecided"), deck
        wins += res.outcome == "win"
    assert wins >= 25, wins


def test_the_drawn_orders_take_their_share_of_the_budget(monkeypatch):
    """The drawn card orders' searches are capped together at FLOOR_DRAWN_SHARE of the
    floors' budget, the rest shared by the order by id's and the best-first search: each
    search's node limit is its part, and no search enters more."""
    from bombsolve.solvers.allisbomb.kernel import kernel as K
    from bombsolve.solvers.allisbomb.search import floors, solver
    from bombsolve.solvers.allisbomb.search.search import MAX_DEPTH

    c = solver.compiled(_court())
    real = K.dfs
    seen: dict[tuple, tuple[int, int]] = {}  # (info id, floor, order): (limit, nodes)

    def dfs(*a):
        out = real(*a)
        key = (id(a[7]), int(a[-3][K.CTL_FLOOR]), int(a[-1]))
        seen[key] = (int(a[14]), int(out[1]))
        return out

    monkeypatch.setattr(K, "dfs", dfs)
    budget = 4_800
    rng = np.random.default_rng(2)
    both = 0
    for _ in range(30):
        seen.clear()
        st = new_game(c.cards, rng.permutation(c.cards.n).tolist())
        code, nodes, *_ = floors.floor_portfolio(
            c, to_kernel_state(st), budget, MAX_DEPTH, solver._entry_words(c.cards.n)
        )
        own = {k: v for k, v in seen.items() if k[0] == id(c.prog.info)}
        drawn = {k: v for k, v in seen.items() if k[0] != id(c.prog.info)}
        share = int(budget * floors.FLOOR_DRAWN_SHARE)
        part = (budget - share) // (6 + floors.BEST_FIRST)
        best = [floors._best_first(c.cards.n, part)]
        assert all(bf.nodes <= part == bf.cap for bf in best)
        assert nodes == sum(v[1] for v in seen.values()) + sum(bf.nodes for bf in best)
        assert nodes <= budget
        assert {v[0] for v in drawn.values()} <= {share // 18}
        assert {v[0] for v in own.values()} <= {part}
        assert all(v[1] <= v[0] for v in seen.values())
        both += len(drawn) == 18
    assert both >= 3  # deals not won in the first turns: every search took its turns
