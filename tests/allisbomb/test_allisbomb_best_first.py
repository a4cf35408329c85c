"""The best-first search (search/best_first.py, kernel/best_first.py): positions nearest the
win conditions of rulebook E and G expanded first. A win it finds is a line of legal turns
that wins; it answers a loss only when it expanded every reachable position and cut
nothing; the kernel stores the same positions as the reference, in the same order, and
answers the same line. The searches of card files with the extended vocabulary run it
beside the DECK floors, first in each of their rounds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import best_first as KB
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.kernel.program import compiled_program
from bombsolve.solvers.allisbomb.rules.rules import DISCARD, Outcome, new_game
from bombsolve.solvers.allisbomb.search import best_first as B
from bombsolve.solvers.allisbomb.search import search as S
from bombsolve.solvers.allisbomb.search.solver import (
    compiled,
    solve_batch,
    to_kernel_state,
    verify_solution,
)
from tests.allisbomb.odd_sets import random_card_file
from tests.allisbomb.vocab_helpers import kernel_line

CARDSETS = Path(__file__).parents[2] / "scripts" / "bench" / "cardsets"
OUTCOME = {K.CODE_WIN: "win", K.CODE_LOSS: "loss", K.CODE_UNDECIDED: "undecided"}


def _court(*expansions: str) -> Options:
    return Options(
        cards_file=CARDSETS / "rich_court.toml", allow_nonstandard=True, expansions=expansions
    )


def _cases(tmp_path):
    """(config, deck) pairs: the stand-in (base, MOSQUITOS, WAKING UP), rich_court with its
    MOSQUITOS, and random files of the whole vocabulary, every third for two players."""
    out = []
    configs = [Options(), Options(expansions=("mosquitos",)), Options(expansions=("waking_up",))]
    configs += [_court("mosquitos")]
    for seed in range(10):
        rng = np.random.default_rng(300 + seed)
        path = random_card_file(rng, tmp_path / f"f{seed}.toml", 12, lasting=seed % 2 == 1)
        players = 2 if seed % 3 == 2 else 1
        configs.append(Options(cards_file=path, allow_nonstandard=True, players=players))
    for k, cfg in enumerate(configs):
        rng = np.random.default_rng(40 + k)
        n = load_cards(cfg).n
        out += [(cfg, rng.permutation(n).tolist()) for _ in range(5)]
    return out


def _kernel(state, limit: int):
    code, nodes, reasons, turns, sol, sol_len = B.kernel_best_first(
        compiled(state.config), to_kernel_state(state), limit
    )
    return OUTCOME[code], nodes, reasons, kernel_line(sol, sol_len, turns)


def test_kernel_and_reference_store_the_same_positions(tmp_path):
    seen = {"win": 0, "undecided": 0, "loss": 0}
    for cfg, deck in _cases(tmp_path):
        st = new_game(load_cards(cfg), deck)
        for limit in (40, 2_000):
            ref = B.reference_best_first(st, node_limit=limit)
            outcome, nodes, reasons, line = _kernel(st, limit)
            assert (ref.outcome, ref.nodes, ref.loss_reason) == (outcome, nodes, reasons), deck
            assert ref.solution == line
            assert nodes <= limit
            seen[outcome] += 1
    assert seen["win"] > 20 and seen["undecided"] > 5 and seen["loss"] > 0, seen


def test_a_win_is_a_winning_line_and_a_loss_is_the_whole_searchs(tmp_path):
    checked = {"win": 0, "loss": 0}
    for cfg, deck in _cases(tmp_path):
        st = new_game(load_cards(cfg), deck)
        got = B.reference_best_first(st, node_limit=20_000)
        if got.outcome == "undecided":
            continue
        if got.outcome == "win":
            assert verify_solution(st, got.solution).outcome is Outcome.WIN
        whole = S.reference_search(st, node_limit=100_000)
        if whole.outcome != "undecided":  # (a win deep in the depth-first order)
            assert whole.outcome == got.outcome, deck
        checked[got.outcome] += 1
    assert checked["win"] > 20 and checked["loss"] > 0, checked


def test_a_search_with_a_cut_line_is_never_a_loss(monkeypatch, tmp_path):
    # with lines cut two turns down, every search that would have lost is undecided
    monkeypatch.setattr(B, "MAX_DEPTH", 2)
    outcomes = set()
    for cfg, deck in _cases(tmp_path)[:30]:
        st = new_game(load_cards(cfg), deck)
        got = B.reference_best_first(st, node_limit=5_000)
        outcomes.add(got.outcome)
        if got.outcome == "win":
            assert len(got.solution) <= 2
    assert "loss" not in outcomes and "undecided" in outcomes


def test_progress_counts_the_win_conditions_not_met():
    cards = load_cards(Options())
    princess = cards.ids_named("PRINCESS")[0]
    dish = cards.ids_named("PANCAKES")[0]
    prophet = cards.ids_named("PROPHET")[0]
    others = [c for c in range(cards.n) if c not in (princess, dish)]
    # rulebook E: no PROPHECY (2) and no ignited PROPHET (1), the PRINCESS PASSIVE (1)
    st = new_game(cards, [princess] + others[:2] + [dish] + others[2:])
    assert B.progress(st) == 4
    st.ignited[prophet] = True  # an ignited PROPHET in play: the PROPHECY is a play away
    assert B.progress(st) == 3
    st.zone[prophet] = DISCARD  # not in the DISCARD PILE
    assert B.progress(st) == 4
    st = new_game(cards, others[:3] + [princess, dish] + others[3:])
    assert B.progress(st) == 5  # (and the PRINCESS not EQUIPPED: 1 more)
    st.ignited[princess] = True
    assert B.progress(st) == 4
    st.zone[princess] = DISCARD
    assert B.progress(st) == 6  # (back in play only by a card's action)
    st.desired = dish  # a PROPHECY naming a PASSIVE dish in the DECK: 1, not 3
    assert B.progress(st) == 4
    st.ignited[dish] = True
    assert B.progress(st) == 3
    st.zone[dish] = DISCARD  # out of the DECK, where the PRINCESS EQUIPS it: 1
    assert B.progress(st) == 4
    # G, MOSQUITOS: each MOSQUITO not in the DISCARD PILE counts 1
    cfg = Options(expansions=("mosquitos",))
    cards = load_cards(cfg)
    mosquitos = cards.ids_named("MOSQUITO")
    princess = cards.ids_named("PRINCESS")[0]
    rest = [c for c in range(cards.n) if c != princess]
    st = new_game(cards, [princess] + rest)
    assert B.progress(st) == 4 + len(mosquitos) == 6
    st.zone[mosquitos[0]] = DISCARD
    assert B.progress(st) == 5


def test_the_kernel_reads_progress_as_the_reference(tmp_path):
    for cfg, deck in _cases(tmp_path)[::3]:
        st = new_game(load_cards(cfg), deck)
        info = compiled_program(cfg).info
        for _move, child in list(st.iter_children())[:6]:
            for _m, grandchild in list(child.iter_children())[:6]:
                row = to_kernel_state(grandchild)
                prophets = sum(1 << c for c in grandchild.cards.ids_named("PROPHET"))
                got = KB.progress(row, grandchild.cards.n, info, prophets)
                assert got == B.progress(grandchild), deck


def test_extended_files_search_best_first_beside_the_floors(monkeypatch):
    # the floors' portfolio gives its best-first search the first turn of each round:
    # without it the same deals take more positions, with the same verdicts
    from bombsolve.solvers.allisbomb.search import floors

    cfg = _court()
    n = load_cards(cfg).n
    rng = np.random.default_rng(2026)
    decks = np.stack([rng.permutation(n) for _ in range(40)])
    with_best = solve_batch(cfg, decks)
    monkeypatch.setattr(floors, "BEST_FIRST", False)
    without = solve_batch(cfg, decks)
    assert (with_best["code"] == without["code"]).all()
    assert np.median(with_best["nodes"]) < np.median(without["nodes"]) / 2


def test_the_floors_answer_the_best_first_line():
    # a deal the best-first search wins in its first turn: the portfolio answers its line
    from bombsolve.solvers.allisbomb.search import floors
    from bombsolve.solvers.allisbomb.search.solver import MAX_DEPTH, _entry_words

    c = compiled(_court())
    rng = np.random.default_rng(2026)
    for _ in range(30):
        st = new_game(c.cards, rng.permutation(c.cards.n).tolist())
        row = to_kernel_state(st)
        code, nodes, reasons, turns, sol, sol_len = B.kernel_best_first(c, row, 10**6)
        if code != K.CODE_WIN or nodes > floors.FLOOR_FIRST:
            continue
        got = floors.floor_portfolio(c, row, 500_000, MAX_DEPTH, _entry_words(c.cards.n))
        assert got[:4] == (K.CODE_WIN, nodes, reasons, turns)
        assert kernel_line(got[4], got[5], got[3]) == kernel_line(sol, sol_len, turns)
        assert verify_solution(st, kernel_line(sol, sol_len, turns)).outcome is Outcome.WIN
        return
    pytest.fail("no deal won in the first turn")


@pytest.mark.parametrize("limit", [1, 7])
def test_the_limit_counts_the_root(limit):
    st = new_game(load_cards(Options()), list(range(18)))
    ref = B.reference_best_first(st, node_limit=limit)
    assert ref.nodes <= limit and _kernel(st, limit)[1] == ref.nodes
