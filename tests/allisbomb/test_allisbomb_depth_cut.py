"""The depth limit cuts a line, not the search (CARDS.md, "Limits"; search.MAX_DEPTH).

A move that would go deeper than the searches follow is not entered; the search goes on,
so a win found elsewhere is a WIN, and only a search that ends with no win after a cut is
undecided (never a loss). The kernel (its stack's depth) cuts exactly where the reference
does, and the shared-table search of `allisbomb exhaust` never stores a position whose
subtree was cut as lost. The small limits here (MAX_DEPTH patched, or stacks made short)
make cuts happen on stand-in deals, where 1,000 turns never binds.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import exhaust_kernel as EK
from bombsolve.solvers.allisbomb.kernel.kernel import CODE_LOSS, CODE_WIN, E_CUT, MAXC
from bombsolve.solvers.allisbomb.kernel.layout import state_words
from bombsolve.solvers.allisbomb.rules import blitz_ranks as R
from bombsolve.solvers.allisbomb.rules.deals import unrank
from bombsolve.solvers.allisbomb.rules.rules import Ending, new_game
from bombsolve.solvers.allisbomb.search import exhaust as E
from bombsolve.solvers.allisbomb.search import search as S
from bombsolve.solvers.allisbomb.search import solver
from bombsolve.solvers.allisbomb.search.solver import compiled, solve, solve_batch, solve_state

VOCAB = Path(__file__).parent / "data" / "vocab_actions.toml"


def _deal(seed: int) -> list[int]:
    return list(np.random.default_rng(seed).permutation(load_cards(Options()).n))


@pytest.fixture
def shallow(monkeypatch):
    """Both searches follow lines at most `depth` turns deep (the kernel's stacks are
    made that short, as solver makes them from search.MAX_DEPTH)."""

    def set_depth(depth: int) -> None:
        monkeypatch.setattr(S, "MAX_DEPTH", depth)
        monkeypatch.setattr(solver, "MAX_DEPTH", depth)
        monkeypatch.setattr(solver._TABLE, "frames", {})

    return set_depth


# seed 22: the first win the plain search meets is 16 turns long; one of 12 exists
def test_a_cut_line_does_not_stop_the_search_reference_and_kernel(shallow):
    cfg = Options()
    st = new_game(cfg, _deal(22))
    full = S.reference_search(st, node_limit=100_000)
    assert full.outcome == "win" and len(full.solution) == 16
    assert not full.loss_reason & Ending.DEPTH_CUT
    shallow(12)
    ref = S.reference_search(st, node_limit=100_000)
    ker = solve_state(st, node_limit=100_000, portfolio=False)  # replays the win (check)
    assert ref.outcome == ker.outcome == "win"
    assert len(ref.solution) == len(ker.solution) <= 12
    assert ref.nodes == ker.nodes and ref.solution == ker.solution
    assert ref.loss_reason & Ending.DEPTH_CUT and ker.loss_reason & E_CUT


# seed 42 is a loss (every line loses); with lines cut it can only be undecided
def test_no_win_after_a_cut_is_undecided_never_a_loss(shallow):
    cfg = Options()
    st = new_game(cfg, _deal(42))
    full = S.reference_search(st, node_limit=100_000)
    assert full.outcome == "loss" and not full.loss_reason & Ending.DEPTH_CUT
    shallow(6)
    ref = S.reference_search(st, node_limit=100_000)
    ker = solve_state(st, node_limit=100_000, portfolio=False)
    assert ref.outcome == ker.outcome == "undecided"
    assert ref.nodes == ker.nodes < 100_000  # the search ended, not its limit
    assert ref.loss_reason & Ending.DEPTH_CUT and ker.loss_reason & E_CUT


def test_keep_most_after_a_cut_is_not_proven_best(shallow):
    st = new_game(Options(), _deal(22))
    shallow(12)
    res = S.reference_search(st, node_limit=100_000, keep_most=True)
    assert res.outcome == "win" and res.loss_reason & Ending.NOT_BEST


def _shared(decks: np.ndarray, table: E.SharedTable, depth: int) -> tuple[np.ndarray, ...]:
    table.frames = EK.new_frames(depth, state_words(table.n), MAXC)
    c = compiled(E.BLITZ)
    m = decks.shape[0]
    code, nodes, reason = (np.zeros(m, np.int64) for _ in range(3))
    EK.solve_shared(
        decks,
        c.prog.n,
        E.BLITZ.players,
        *c.rule_args,
        table.index,
        table.entries,
        table.state,
        E.SHARED_LIMIT,
        table.refill,
        np.int64(E.SHARED_ORDER),
        table.frames,
        code,
        nodes,
        reason,
    )
    return code, reason


def test_the_shared_table_never_stores_a_cut_subtree_as_lost():
    """Blitz deals decided over one shared table with a 7-turn stack, then again over the
    same table at the full depth, against the per-deal search: a win is a win, no true win
    is called a loss, and the full-depth search decides as the per-deal search does (a
    position stored LOST after a cut in the 7-turn search would hide its win from it)."""
    decks, _ranks = R.group_decks(np.arange(3))
    decks = np.ascontiguousarray(decks[::7][:300], dtype=np.int64)
    truth = solve_batch(E.BLITZ, decks, node_limit=E.ESCALATION.ceiling)["code"]
    table = E.SharedTable()
    code, reason = _shared(decks, table, 7)
    assert ((code == CODE_WIN) <= (truth == CODE_WIN)).all()
    assert ((code == CODE_LOSS) <= (truth == CODE_LOSS)).all()
    cut = (reason & E_CUT) != 0
    assert cut.sum() >= 10 and (code[cut] != CODE_LOSS).all()
    assert (cut & (code == CODE_WIN)).any()  # a win found after a cut elsewhere
    again, reason = _shared(decks, table, S.MAX_DEPTH)
    assert (again == truth).all() and not (reason & E_CUT).any()


@pytest.mark.slow
@pytest.mark.parametrize("rank", [6121913088505083, 249836142193460, 5864673579050835])
def test_vocabulary_deals_a_deep_line_left_undecided_are_wins(rank):
    """The vocabulary test file's deals that a default sweep left undecided because one
    line went past 1,000 turns: the search now goes on past that line and finds a win."""
    cfg = Options(cards_file=VOCAB, allow_nonstandard=True)
    deck = unrank(rank, load_cards(cfg).n)
    res = solve(cfg, deck)  # the sweep's search: both move orders, the default limit
    assert res.outcome == "win"


def test_the_answer_names_the_cut(shallow):
    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    shallow(6)
    r = CliRunner().invoke(cli, ["allisbomb", "--seed", "42", "--exit-code"])
    assert r.exit_code == 11, r.output  # undecided
    assert "a line was cut at the deepest the search follows (6 turns" in r.output, r.output
    assert "CARDS.md 'Limits'" in r.output
