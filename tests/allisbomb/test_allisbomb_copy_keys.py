"""Copy-symmetric table keys (copies.py): positions that differ only by which copy of a
duplicated card sits where share one entry of the verdict search's table.

Checked here: which groups of copies are used (rulebook G "Blitz" names the base game's
pairs), that the reference key is the same for a position and its renamings and is the
key of a renaming, that the kernel's key makes the same classes as the reference's, that
the searches agree node for node with the keys on (also on a card file with three copies
of a card), and that verdicts do not change when the keys are switched off.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import BLITZ_PAIRS, load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.kernel.copies import (
    copy_groups,
    groups_of,
    kernel_search_key,
    search_key,
)
from bombsolve.solvers.allisbomb.kernel.layout import key_words
from bombsolve.solvers.allisbomb.kernel.program import (
    compile_program,
    compiled_program,
    copy_keys,
    copy_keys_enabled,
    win_info,
)
from bombsolve.solvers.allisbomb.rules.rules import DECK, DISCARD, State, new_game
from bombsolve.solvers.allisbomb.search.search import reference_search
from bombsolve.solvers.allisbomb.search.solver import solve, solve_batch, to_kernel_state
from tests.allisbomb.odd_sets import first_vocabulary_card_file


def _renamed(s: State, sigma: list[int]) -> State:
    """The position with card c renamed sigma[c] everywhere."""
    r = s.copy()
    r.deck = [sigma[c] for c in s.deck]
    r.discard = [sigma[c] for c in s.discard]
    for c in range(len(sigma)):
        r.zone[sigma[c]] = s.zone[c]
        r.ignited[sigma[c]] = s.ignited[c]
        r.played[sigma[c]] = s.played[c]
    r.desired = sigma[s.desired] if s.desired >= 0 else -1
    return r


def _positions(cfg: Options, lines: int, seed: int) -> list[State]:
    rng = np.random.default_rng(seed)
    n = load_cards(cfg).n
    out = []
    for _ in range(lines):
        s = new_game(cfg, list(rng.permutation(n)))
        while not s.is_over():
            out.append(s)
            kids = s.children()
            s = kids[int(rng.integers(len(kids)))][1]
    return out


def _swap(s: State, pairs: list[list[int]], rng) -> list[int]:
    """A random renaming of the pairs of copies that do not both lie in the DECK or the
    DISCARD PILE (those keep their names in the key, copies.search_key)."""
    sigma = list(range(s.cards.n))
    for g in pairs:
        if not all(s.zone[c] in (DECK, DISCARD) for c in g) and rng.random() < 0.5:
            a, c = g[0], g[1]
            sigma[a], sigma[c] = c, a
    return sigma


def test_the_base_games_pairs_are_the_groups_and_blitz_has_none():
    for cfg in (Options(), Options(expansions=EXPANSIONS, hands=True)):
        cs = load_cards(cfg)
        groups = groups_of(compiled_program(cfg).info)
        assert sorted(cs.labels[g[0]] for g in groups) == sorted(BLITZ_PAIRS)
        assert all(len(g) == 2 and cs.labels[g[0]] == cs.labels[g[1]] for g in groups)
        assert copy_keys_enabled(cfg)
    assert groups_of(compiled_program(Options(blitz=True)).info) == []
    assert not copy_keys_enabled(Options(blitz=True))


def test_a_group_a_rule_names_by_id_is_not_used():
    cs = load_cards(Options())
    jokers = [i for i, lab in enumerate(cs.labels) if lab == "JOKER"]
    info = win_info(cs)
    steps = compile_program(cs).steps
    assert jokers in copy_groups(cs, info, steps)
    info[1] = jokers[1]  # as if the JOKER were the card the PRINCESS rule reads
    assert jokers not in copy_groups(cs, info, steps)
    steps = steps.copy()
    steps[0, 12] = jokers[0]  # as if a PROPHECY step named the first JOKER
    assert jokers not in copy_groups(cs, win_info(cs), steps)


def test_the_switch_turns_the_keys_off_and_back_on():
    cfg = Options()
    with copy_keys(cfg, False):
        assert not copy_keys_enabled(cfg)
        assert groups_of(compiled_program(cfg).info) == []
    assert copy_keys_enabled(cfg)


@pytest.mark.parametrize(
    "cfg",
    [
        Options(**v)
        for v in (
            {},
            {"players": 2},
            {"expansions": EXPANSIONS},
            # the set the threshold below was first measured on
            {"expansions": EXPANSIONS, "cards_version": "standin-v1"},
        )
    ],
    ids=lambda c: f"{c.label()} {c.cards_version}",
)
def test_renamings_share_the_reference_key_and_the_kernel_makes_the_same_classes(cfg):
    info = compiled_program(cfg).info
    groups = groups_of(info)
    n = load_cards(cfg).n
    KW = key_words(n)
    rng = np.random.default_rng(3)
    out = np.zeros(KW, np.uint64)
    order = np.zeros(2 * n + 8, np.int64)
    ref_keys: dict[tuple, int] = {}
    kern_keys: dict[tuple, int] = {}
    renamed_keys = 0
    for i, s in enumerate(_positions(cfg, 6, 11)):
        r = _renamed(s, _swap(s, groups, rng))
        key = search_key(s, groups)
        assert search_key(r, groups) == key
        renamed_keys += r.key() != s.key()
        # the key is the key of a renaming of the position: the state it names exists
        for p in (s, r):
            row = to_kernel_state(p)
            k = tuple(out) if kernel_search_key(row, n, info, out, order) else tuple(row[:KW])
            ref_keys.setdefault(search_key(p, groups), i)
            kern_keys.setdefault(k, i)
            assert ref_keys[search_key(p, groups)] == kern_keys[k]
    assert renamed_keys >= 20  # the renamings were exercised
    assert len(ref_keys) == len(kern_keys)


def test_the_key_names_a_renaming_of_the_position():
    cfg = Options()
    groups = groups_of(compiled_program(cfg).info)
    n = load_cards(cfg).n
    changed = 0
    for s in _positions(cfg, 4, 5):
        key = search_key(s, groups)
        # some renaming of the copies has exactly this plain key
        sigmas = [[]]
        for g in groups:
            sigmas = [x + [p] for x in sigmas for p in (g, g[::-1])]
        found = False
        for choice in sigmas:
            sigma = list(range(n))
            for g, p in zip(groups, choice, strict=True):
                for a, b in zip(g, p, strict=True):
                    sigma[a] = b
            found |= _renamed(s, sigma).key() == key
        assert found
        changed += key != s.key()
    assert changed > 5


@pytest.mark.parametrize(
    "cfg",
    [Options(), Options(expansions=("all",)), Options(players=2, hands=True)],
    ids=lambda c: c.label(),
)
def test_verdicts_do_not_change_when_the_keys_are_off(cfg):
    n = load_cards(cfg).n
    decks = np.stack([np.random.default_rng([8, i]).permutation(n) for i in range(40)])
    on = solve_batch(cfg, decks, node_limit=200_000)
    with copy_keys(cfg, False):
        off = solve_batch(cfg, decks, node_limit=200_000)
    decided = (on["code"] != 2) & (off["code"] != 2)
    assert decided.sum() >= 35
    assert (on["code"][decided] == off["code"][decided]).all()
    assert on["nodes"].sum() < off["nodes"].sum()


def test_three_copies_of_a_card_kernel_and_reference_agree(tmp_path):
    """A card file with three copies of several cards takes the general path (not a pair).
    One PRINCESS and one DESIRED DISH: the loader refuses copies of a card a win condition
    names (CARDS.md)."""
    path = first_vocabulary_card_file(np.random.default_rng(6), tmp_path / "three.toml", 7)
    text = path.read_text().replace(
        'name = "PRINCESS"\ncopies = 2', 'name = "PRINCESS"\ncopies = 1'
    )
    # the PRINCESS and the DESIRED DISH stay single cards (the loader refuses copies)
    single = {"PRINCESS", *re.findall(r'op = "prophecy", dish = "([^"]+)"', text)}
    text = re.sub(
        r'name = "(\w+)"\ncopies = 1',
        lambda m: m.group(0) if m.group(1) in single else f'name = "{m.group(1)}"\ncopies = 3',
        text,
    )
    path.write_text(text)
    cfg = Options(cards_file=path, allow_nonstandard=True)
    cs = load_cards(cfg)
    groups = groups_of(compiled_program(cfg).info)
    assert sum(len(g) == 3 for g in groups) >= 2, (cs.labels, groups)
    outcomes, changed = [], 0
    for i in range(12):
        deck = np.random.default_rng([4, i]).permutation(cs.n)
        a = solve(cfg, deck, node_limit=3000, portfolio=False)
        b = reference_search(new_game(cfg, deck), node_limit=3000)
        assert (a.outcome, a.nodes, a.loss_reason, a.solution) == (
            b.outcome,
            b.nodes,
            b.loss_reason,
            b.solution,
        )
        with copy_keys(cfg, False):
            changed += solve(cfg, deck, node_limit=3000, portfolio=False).nodes != a.nodes
        outcomes.append(a.outcome)
    assert {"win", "loss"} <= set(outcomes) and changed >= 4
