"""Deals: rank/unrank round trips, shuffle uniformity, deck strings."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.deals import (
    deal_from_seed,
    deck_size,
    deck_string,
    parse_deck,
    rank,
    shuffle,
    shuffles,
    unrank,
)
from bombsolve.solvers.common.errors import BadInput

BASE = load_cards(Options())


@pytest.mark.parametrize("n", range(1, 7))
def test_rank_unrank_all_permutations(n):
    """Every permutation of n <= 6 has rank = its lexicographic index, and back."""
    for i, p in enumerate(itertools.permutations(range(n))):
        assert rank(p) == i
        assert unrank(i, n) == list(p)


def test_rank_unrank_samples_for_18():
    rng = np.random.default_rng(0)
    for _ in range(300):
        p = rng.permutation(18).tolist()
        assert unrank(rank(p), 18) == p
    assert rank(list(range(18))[::-1]) == math.factorial(18) - 1
    with pytest.raises(BadInput):
        unrank(math.factorial(18), 18)


def test_shuffle_is_uniform_chi_square():
    """All 24 orders of 4 cards equally likely (chi-square, 23 dof, p > 0.001)."""
    rng = np.random.default_rng(123)
    counts = np.zeros(24)
    m = 24_000
    decks = shuffles(4, m, rng)
    for d in decks:
        counts[rank(d)] += 1
    chi2 = ((counts - m / 24) ** 2 / (m / 24)).sum()
    assert chi2 < 49.7  # 0.999 quantile of chi-square with 23 dof
    one = shuffle(4, np.random.default_rng(1))
    assert sorted(one.tolist()) == [0, 1, 2, 3]


def test_deck_sizes_and_seed_deal():
    assert deck_size(Options()) == 18
    assert deck_size(Options(blitz=True)) == 13
    d = deal_from_seed(Options(), 42)
    assert sorted(d) == list(range(18)) and d == deal_from_seed(Options(), 42)


def test_deck_string_round_trip_and_case():
    d = deal_from_seed(Options(), 7)
    text = deck_string(d, BASE)
    back = parse_deck(text.lower().replace(",", " , "), BASE)
    assert [BASE.labels[c] for c in back] == [BASE.labels[c] for c in d]


def test_bad_decks():
    with pytest.raises(BadInput, match="did you mean PRINCESS"):
        parse_deck("PRINCES", BASE)
    good = deck_string(list(range(18)), BASE)
    with pytest.raises(BadInput, match="missing KING"):
        parse_deck(good.replace("KING,", ""), BASE)
    with pytest.raises(BadInput, match="extra KING"):
        parse_deck(good + ",KING", BASE)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(sorted(set(BASE.labels)) + ["", " ", "X", "jokr"]), max_size=25))
def test_random_deck_strings_never_crash(names):
    try:
        d = parse_deck(",".join(names), BASE)
    except BadInput:
        return
    assert sorted(d) == list(range(18))
