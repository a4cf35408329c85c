"""The kernel's state row (layout.py): its key words are the position's key, its zone masks
match its zone bytes, and a kernel turn writes exactly the row of the reference's child.

The transposition table stores and compares the first `key_words(n)` words of a row, so the
table is exact only if two rows have equal key words iff their positions have equal
`rules.State.key()`; the searches read the equipped cards, the DISCARD PILE and the cards
out of play from the zone masks, so these must always match the zone bytes.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.kernel import layout
from bombsolve.solvers.allisbomb.rules.rules import _info, new_game
from bombsolve.solvers.allisbomb.search.solver import compiled, to_kernel_state

GIFTS = Options(expansions=("gifts",))
CONFIGS = [
    Options(),
    Options(players=2),
    Options(expansions=("waking_up",)),
    GIFTS,
    replace(GIFTS, gifts_distinct=False, players=2),
    # (version 1's MOSQUITOS: its random lines are long enough for the 200 turns checked)
    Options(expansions=("mosquitos",), cards_version="standin-v1"),
    Options(expansions=("dream_guide", "the_juice"), players=2, hands=True),
    Options(expansions=EXPANSIONS, hands=True),
]


def walk(config: Options, deals: int, seed: int):
    """(position, move, child) for every child of every position of random lines."""
    cs = load_cards(config)
    rng = np.random.default_rng(seed)
    for _ in range(deals):
        s = new_game(cs, list(rng.permutation(cs.n)))
        while not s.is_over() and s.turn < 40:
            kids = s.children()
            for move, child in kids:
                yield s, move, child
            s = kids[int(rng.integers(len(kids)))][1]


def masks_match_zones(row: np.ndarray, n: int) -> bool:
    b = row.view(np.int8)
    m0 = int(layout.key_words(n)) + layout.W_MASKS
    for z in range(6):
        want = sum(1 << c for c in range(n) if b[n + c] & layout.ZONE == z)
        if int(row[m0 + z]) != want:
            return False
    return True


def kernel_child(row: np.ndarray, move, config: Options) -> np.ndarray:
    """The row after `move`, played by the kernel's turn (choices in the reference's order)."""
    c = compiled(config)
    n = c.prog.n
    out = row.copy()
    ch = np.zeros(K.MAXC, np.int32)
    chk = np.zeros(K.MAXC, np.int32)
    ch[: len(move)] = move
    cs = np.array([0, len(move), 0, 0], np.int64)
    buf = np.zeros(2 * n + 8, np.int64)
    tmp = np.zeros(2 * n + 8, np.int64)
    status = K.run_turn(row, out, n, *c.rule_args, ch, chk, cs, buf, tmp)
    assert status == 0 and cs[0] == len(move)
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label())
def test_key_words_are_equal_iff_keys_are_equal(config):
    n = load_cards(config).n
    kw = int(layout.key_words(n))
    by_words: dict[bytes, tuple] = {}
    by_key: dict[tuple, bytes] = {}
    tracked = set(_info(load_cards(config))["tracked"])
    for _s, _move, child in walk(config, 20, 11):
        words = to_kernel_state(child)[:kw].tobytes()
        key = child.key()
        assert by_words.setdefault(words, key) == key
        assert by_key.setdefault(key, words) == words
        # the same key reached another way: more turns, more GIFT plays past 3, other play
        # marks on the cards no win condition counts; the words must not differ either
        twin = child.copy()
        twin.turn += 7
        if twin.gift_plays >= 3:
            twin.gift_plays += 2
        twin.played = [p if c in tracked else not p for c, p in enumerate(twin.played)]
        assert twin.key() == key
        assert to_kernel_state(twin)[:kw].tobytes() == words
    assert len(by_key) > 300


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label())
def test_a_kernel_turn_writes_the_row_of_the_reference_child(config):
    """Byte for byte, the zone masks and the PAD between the DECK and the pile included."""
    n = load_cards(config).n
    checked = 0
    for s, move, child in walk(config, 10, 12):
        got = kernel_child(to_kernel_state(s), move, config)
        assert masks_match_zones(got, n)
        if child.is_over():
            # a turn that ends the game may stop half-way (drawing too many); only the
            # outcome and the ending are compared then
            hb = 8 * int(layout.key_words(n))
            want = to_kernel_state(child).view(np.int8)
            g = got.view(np.int8)
            assert g[hb + layout.H_OUTCOME] == want[hb + layout.H_OUTCOME]
            assert g[hb + layout.H_ENDING] == want[hb + layout.H_ENDING]
            continue
        assert np.array_equal(got, to_kernel_state(child)), (s.to_json(), move)
        checked += 1
    assert checked > 200


def test_the_key_is_at_most_one_word_longer_than_the_packed_key_it_replaced():
    def packed(n: int, n_tracked: int) -> int:  # the former kernel.key_words
        return (2 + 2 * n + n_tracked + 9) // 10 + 1

    for config in (Options(), Options(expansions=EXPANSIONS)):
        c = compiled(config)
        n = c.cards.n
        assert layout.key_words(n) <= packed(n, c.n_tracked) + 1


@pytest.mark.parametrize("config", CONFIGS[:3], ids=lambda c: c.label())
def test_kernel_setup_writes_the_row_of_the_reference_setup(config):
    cs = load_cards(config)
    rng = np.random.default_rng(5)
    for _ in range(20):
        deck = rng.permutation(cs.n)
        row = np.zeros(K.state_len(cs.n), np.uint64)
        K.setup(deck.astype(np.int64), cs.n, config.players, row)
        assert np.array_equal(row, to_kernel_state(new_game(cs, deck.tolist())))
        assert masks_match_zones(row, cs.n)
