"""Dead-position pruning (solvers/allisbomb/kernel/prune.py): every rule, soundness, verdicts.

Soundness is what matters: whenever `dead` says True, an exhaustive search without
pruning must find no win. The random positions come from random legal playouts of seeded
deals; the kernel's `dead` and the plain-Python `dead_reason` must agree on each.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.kernel import program, prune
from bombsolve.solvers.allisbomb.kernel.program import compile_program
from bombsolve.solvers.allisbomb.rules.rules import EQUIP0, Ending, State, new_game
from bombsolve.solvers.allisbomb.search.search import reference_search
from bombsolve.solvers.allisbomb.search.solver import solve_batch, solve_state, to_kernel_state
from bombsolve.solvers.allisbomb.studies.study import matrix_configs
from tests.allisbomb.helpers import position

ROOT = Path(__file__).resolve().parents[2]

#: The positions below are built on the stand-in set version 1's cards, loaded by name.
V1 = "standin-v1"
BASE = Options(cards_version=V1)
WAKING = Options(expansions=("waking_up",), cards_version=V1)
ALL = Options(expansions=("all",), cards_version=V1)
ALL_HANDS = Options(expansions=("all",), hands=True, cards_version=V1)
JUICE = Options(expansions=("the_juice",), cards_version=V1)
DREAM = Options(expansions=("dream_guide",), cards_version=V1)
GIFTS = Options(expansions=("gifts",), cards_version=V1)
MOSQ = Options(expansions=("mosquitos",), cards_version=V1)


def kernel_dead(s: State) -> bool:
    info = compile_program(s.cards).info  # its own copy: pruning() does not switch it off
    return bool(prune.dead(to_kernel_state(s), s.cards.n, info))


def check(s: State) -> str | None:
    """dead_reason, after checking that the Numba predicate agrees with it."""
    why = prune.dead_reason(s)
    assert kernel_dead(s) == (why is not None), (why, s.to_json())
    return why


# --- (c) each rule on hand-built positions ----------------------------------------------------

BASE_REST = ["JOKER", "MENDER", "RASCAL", "LIBRARIAN", "GUARDIAN"]


def test_princess_rule_needs_the_king():
    s = position(
        BASE, deck=["EGGS", "MENDER", "RASCAL"], equipped=[["JOKER"]], discard=["PRINCESS"]
    )
    assert check(s) == "PRINCESS"
    s = position(BASE, deck=["EGGS", "MENDER", "KING"], equipped=[["JOKER"]], discard=["PRINCESS"])
    assert check(s) != "PRINCESS"


def test_princess_out_of_play_is_dead_even_with_the_king():
    s = position(BASE, deck=["EGGS", "MENDER", "KING", "RASCAL"], equipped=[["JOKER"]])
    assert check(s) == "PRINCESS"  # position() puts every unlisted card out of play


def test_deck_rule():
    # R = PRINCESS + 2 cards: her ignited NUMBER 3 can never be drawn
    s = position(BASE, deck=["MENDER", "EGGS"], equipped=[["PRINCESS"]], desired="EGGS")
    assert check(s) == "DECK"
    s = position(BASE, deck=["MENDER", "EGGS", "RASCAL"], equipped=[["PRINCESS"]], desired="EGGS")
    assert check(s) is None


def test_dish_rule_base_and_waking_up():
    s = position(
        BASE,
        deck=["MENDER", "RASCAL", "KING"],
        equipped=[["PRINCESS"]],
        discard=["EGGS"],
        desired="EGGS",
    )
    assert check(s) == "DISH"
    s = position(
        BASE,
        deck=["MENDER", "RASCAL", "KING", "EGGS"],
        equipped=[["PRINCESS"]],
        discard=["PANCAKES"],
        desired="EGGS",
    )
    assert check(s) is None
    # WAKING UP wants the dish in the DISCARD PILE: there it is fine, out of play it is not
    s = position(
        WAKING,
        deck=["MENDER", "RASCAL", "THRONE"],
        equipped=[["PRINCESS"]],
        discard=["EGGS"],
        desired="EGGS",
    )
    assert check(s) is None
    s = position(
        WAKING,
        deck=["MENDER", "RASCAL", "THRONE", "EGGS"],
        equipped=[["PRINCESS"]],
        desired="PANCAKES",
    )
    assert check(s) == "DISH"


def test_throne_rule():
    s = position(
        WAKING,
        deck=["MENDER", "RASCAL", "KING"],
        equipped=[["PRINCESS"]],
        discard=["EGGS", "THRONE"],
        desired="EGGS",
    )
    assert check(s) == "THRONE"


def test_prophecy_rule():
    prophets = ["PROPHET OF CROISSANT", "PROPHET OF EGGS", "PROPHET OF PANCAKES"]
    dishes = ["CROISSANT", "EGGS", "PANCAKES"]
    s = position(BASE, deck=["MENDER", "RASCAL", "KING", *dishes], equipped=[["PRINCESS"]])
    assert check(s) == "PROPHECY"  # no prophet left
    s = position(
        BASE, deck=["MENDER", "RASCAL", "KING", *prophets], equipped=[["PRINCESS"]], discard=dishes
    )
    assert check(s) == "PROPHECY"  # every dish a prophet could name is lost
    # the one dish still in play has lost its prophet
    s = position(
        BASE,
        deck=["MENDER", "RASCAL", "KING", "PROPHET OF CROISSANT", "PROPHET OF EGGS", "PANCAKES"],
        equipped=[["PRINCESS"]],
        discard=["CROISSANT", "EGGS", "PROPHET OF PANCAKES"],
    )
    assert check(s) == "PROPHECY"
    s = position(
        BASE,
        deck=["MENDER", "RASCAL", "KING", "PROPHET OF PANCAKES", "PANCAKES"],
        equipped=[["PRINCESS"]],
        discard=["CROISSANT", "EGGS"],
    )
    assert check(s) is None


def test_the_juice_rule():
    s = position(
        JUICE,
        deck=["MENDER", "RASCAL", "EGGS", "THE JUICE"],
        equipped=[["PRINCESS"]],
        desired="EGGS",
    )
    assert check(s) == "THE JUICE"
    s = position(
        JUICE,
        deck=["MENDER", "RASCAL", "EGGS", "THE JUICE"],
        equipped=[["PRINCESS"]],
        desired="THE JUICE",
    )
    assert check(s) is None
    # before the prophecy: only the PROPHET OF THE JUICE can still name the right dish
    s = position(
        JUICE,
        deck=["MENDER", "RASCAL", "THE JUICE", "PROPHET OF EGGS", "EGGS"],
        equipped=[["PRINCESS"]],
        discard=["PROPHET OF THE JUICE"],
    )
    assert check(s) == "PROPHECY"


def test_mosquitos_rule():
    s = position(
        MOSQ, deck=["MENDER", "RASCAL", "EGGS", "SKOOT"], equipped=[["PRINCESS"]], desired="EGGS"
    )
    assert check(s) == "MOSQUITOS"  # SQUEEK is out of play
    s = position(
        MOSQ,
        deck=["MENDER", "RASCAL", "EGGS", "SKOOT"],
        equipped=[["PRINCESS"]],
        discard=["SQUEEK"],
        desired="EGGS",
    )
    assert check(s) is None


def test_dream_guide_rule():
    base = dict(deck=["MENDER", "RASCAL", "EGGS"], equipped=[["PRINCESS"]], desired="EGGS")
    s = position(DREAM, discard=["DREAM GUIDE"], **base)
    assert check(s) == "DREAM GUIDE"
    s = position(
        DREAM, discard=["DREAM GUIDE"], played=[], **{**base, "deck": [*base["deck"], "QUEEN"]}
    )
    assert check(s) is None  # the QUEEN can bring it back
    guide = load_cards(DREAM).ids_named("DREAM GUIDE")[0]
    s = position(DREAM, discard=["DREAM GUIDE"], played=[guide], **base)
    assert check(s) is None  # already played once: the condition is met


def test_gifts_rule_distinct_and_plays():
    base = dict(
        deck=["MENDER", "RASCAL", "EGGS", "MUSIC BOX", "JEWEL"],
        equipped=[["PRINCESS"]],
        desired="EGGS",
    )
    s = position(GIFTS, **base)
    assert check(s) == "GIFTS"  # PERFUME and PORTRAIT are out of play, never played
    ids = load_cards(GIFTS).ids_named("PORTRAIT")
    assert check(position(GIFTS, played=ids, **base)) is None
    plays = replace(GIFTS, gifts_distinct=False)
    assert check(position(plays, **base)) is None  # one GIFT card can be played 3 times
    s = position(plays, deck=["MENDER", "RASCAL", "EGGS"], equipped=[["PRINCESS"]], desired="EGGS")
    assert check(s) == "GIFTS"


def test_all_rule_and_the_spent_retriever():
    s = position(
        ALL,
        deck=["MENDER", "RASCAL", "EGGS"],
        equipped=[["PRINCESS"]],
        discard=["ALL"],
        desired="EGGS",
    )
    assert check(s) == "ALL"
    # ALL could take EGGS back from the discard pile, but that play discards ALL for good,
    # and ALL must be equipped at the end: so EGGS is lost
    s = position(
        ALL,
        deck=["MENDER", "RASCAL", "ALL"],
        equipped=[["PRINCESS"]],
        discard=["EGGS"],
        desired="EGGS",
    )
    assert check(s) == "DISH"
    # with HANDS, the LEFT HAND can bring ALL back afterwards: not dead
    s = position(
        ALL_HANDS,
        deck=["MENDER", "RASCAL", "ALL", "LEFT HAND"],
        equipped=[["PRINCESS"]],
        discard=["EGGS"],
        desired="EGGS",
    )
    assert check(s) is None


def test_burial_under_cards_nothing_can_clear():
    """A card deep in the pile is lost when only top-card retrievals could take it and a card
    that nothing can take out of the pile lies above it (module docstring, Psi)."""
    lay = dict(
        deck=["MENDER", "RASCAL", "KING", "ALL", "LEFT HAND"],
        equipped=[["PRINCESS"]],
        desired="EGGS",
    )
    assert check(position(ALL_HANDS, discard=["GUARDIAN", "EGGS"], **lay)) is None  # on top
    assert check(position(ALL_HANDS, discard=["EGGS", "GUARDIAN"], **lay)) == "DISH"
    # a COURT card above it can be taken off by PERFUME (never spent): not buried
    gh = Options(expansions=("gifts",), hands=True, cards_version=V1)
    lay = dict(
        deck=["MENDER", "RASCAL", "LEFT HAND", "PERFUME", "MUSIC BOX", "JEWEL"],
        equipped=[["PRINCESS"]],
        desired="EGGS",
    )
    assert check(position(gh, discard=["EGGS", "JOKER"], **lay)) is None
    assert check(position(gh, discard=["EGGS", "GUARDIAN"], **lay)) == "DISH"
    lay["deck"].remove("PERFUME")
    assert check(position(gh, discard=["EGGS", "JOKER"], **lay)) == "DISH"


#: Stand-in version 2's HANDS: its LEFT HAND takes any card of the DISCARD PILE, at any depth.
V2_HANDS = Options(hands=True, cards_version="standin-v2")


def test_one_shot_retriever_takes_back_one_card():
    """With v2's LEFT HAND the reach set holds the whole DISCARD PILE, but the LEFT HAND
    (which cannot take itself back from the PLAY AREA, and which nothing else takes back)
    takes one card more: the PRINCESS or the DESIRED DISH, never both."""
    lay = dict(deck=["MENDER", "RASCAL", "LEFT HAND", "JOKER"], equipped=[["GUARDIAN"]])
    s = position(V2_HANDS, discard=["PRINCESS", "EGGS"], desired="EGGS", **lay)
    a = prune.analyse(s.cards)
    assert prune.reach_set(s) >= {s.cards.labels.index(x) for x in ("PRINCESS", "EGGS")}
    assert prune._rule(s, a, prune.reach_set(s)) is None  # R alone proves nothing
    assert check(s) == "PRINCESS"
    # one card short of the win: the LEFT HAND can take it
    one = dict(deck=[*lay["deck"], "PRINCESS"], equipped=lay["equipped"])
    assert check(position(V2_HANDS, discard=["EGGS"], desired="EGGS", **one)) is None
    # with the KING, the LEFT HAND takes the dish and the KING the PRINCESS: not dead
    lay["deck"].append("KING")
    assert check(position(V2_HANDS, discard=["PRINCESS", "EGGS"], desired="EGGS", **lay)) is None
    # the LEFT HAND takes the KING back, the KING the PRINCESS: the dish stays lost
    lay["deck"].remove("KING")
    s = position(V2_HANDS, discard=["PRINCESS", "EGGS", "KING"], desired="EGGS", **lay)
    assert check(s) == "PRINCESS"


def test_one_shot_group_of_the_stand_in_set_version_2():
    """The LEFT HAND is the one seed; ALL and the PILLOW take the top card of the pile, so
    they can take the LEFT HAND back and join its group (each takes one card as well)."""
    cfg = Options(expansions=EXPANSIONS, hands=True, cards_version="standin-v2")
    cs = load_cards(cfg)
    assert {cs.labels[c] for c in prune.one_shot_seeds(cs)} == {"LEFT HAND"}
    s = new_game(cs, list(range(cs.n)))
    a = prune.analyse(cs)
    reach, off = prune._reach_off(s, a)
    group = prune.one_shot_group(s, a, reach, off)
    assert {cs.labels[c] for c in group} == {"LEFT HAND", "ALL", "PILLOW"}
    # stand-in version 1's LEFT HAND takes only the top card: no seed, nothing refined
    assert not prune.one_shot_seeds(load_cards(ALL_HANDS))


V2_BASE = Options(cards_version="standin-v2")
V2_WAKING = Options(expansions=("waking_up",), cards_version="standin-v2")
V2_DREAM = Options(expansions=("dream_guide",), cards_version="standin-v2")


def test_an_ignited_king_takes_the_princess_back_no_more():
    """Ignited for good: the KING takes the PRINCESS back only on his passive side, and no
    card of these stand-in v2 sets turns a card back to its passive side (C, "Orientation
    Rule"), so once he is ignited a PRINCESS in the DISCARD PILE is lost."""
    for cfg, deck, pile in (
        (V2_BASE, ["MENDER", "RASCAL", "KING", "EGGS"], ["PRINCESS"]),
        (V2_WAKING, ["MENDER", "RASCAL", "KING", "THRONE"], ["EGGS", "PRINCESS"]),
    ):
        lay = dict(deck=deck, equipped=[["JOKER"]], discard=pile, desired="EGGS")
        assert check(position(cfg, **lay)) is None  # passive: he can still take her back
        assert check(position(cfg, ignited=["KING"], **lay)) == "PRINCESS"
    # the DREAM GUIDE can turn an equipped ignited card back: the KING may retrieve again
    lay = dict(
        deck=["MENDER", "RASCAL", "KING", "EGGS", "DREAM GUIDE"],
        equipped=[["JOKER"]],
        discard=["PRINCESS"],
        desired="EGGS",
    )
    assert check(position(V2_DREAM, ignited=["KING"], **lay)) is None


def test_an_ignited_equipped_throne_needs_a_card_to_put_it_back():
    """WAKING UP: the ignited PRINCESS EQUIPs the ignited THRONE from the DECK; an ignited
    THRONE among the EQUIPPED CARDS is discarded when played, so it needs a card that puts
    an EQUIPPED CARD back into the DECK (stand-in v2: the ignited JOKER) or takes it back
    from the DISCARD PILE (the LEFT HAND)."""
    cs = load_cards(V2_WAKING)
    assert {cs.labels[c] for c in prune.throne_returners(cs)} == {"JOKER"}
    hands = replace(V2_WAKING, hands=True)
    assert {load_cards(hands).labels[c] for c in prune.throne_returners(load_cards(hands))} == {
        "JOKER",
        "LEFT HAND",
    }
    lay = dict(deck=["MENDER", "RASCAL", "GUARDIAN"], discard=["EGGS"], desired="EGGS")
    held = [["PRINCESS", "THRONE"]]
    assert check(position(V2_WAKING, equipped=held, ignited=["THRONE"], **lay)) == "THRONE"
    # passive, its own play turns it and puts it at the bottom of the DECK (D.4, D.5)
    assert check(position(V2_WAKING, equipped=held, **lay)) is None
    # the JOKER in the DECK (ignited: it plays its "EQUIPPED CARD to the DECK" side) can
    lay["deck"].append("JOKER")
    assert check(position(V2_WAKING, equipped=held, ignited=["THRONE"], **lay)) is None
    # so can the LEFT HAND, by taking it back once it is discarded
    lay["deck"][-1] = "LEFT HAND"
    assert check(position(hands, equipped=held, ignited=["THRONE"], **lay)) is None
    # and the DREAM GUIDE can turn it back to its passive side: no card set of it is refined
    every = load_cards(Options(expansions=EXPANSIONS, cards_version="standin-v2"))
    assert prune.throne_returners(every) == frozenset(range(every.n))


def test_a_throne_that_puts_itself_back_into_the_deck_is_its_own_returner(tmp_path):
    """A card file whose ignited THRONE moves itself from the PLAY AREA to the bottom of the
    DECK when played (a `move` from zone `play`, CARDS.md): played ignited, it is then not
    discarded (D.4 ignites the played card only if it is still in the PLAY AREA), and the
    ignited PRINCESS can EQUIP it from the DECK, so the THRONE rule must not fire."""
    text = (Path(__file__).parents[2] / "solvers/allisbomb/data/waking_up.toml").read_text()
    old = 'steps = [{op = "move", zone = "deck", pick = "top", to = "deck_bottom"}]'
    assert text.count(old) == 1  # the THRONE's ignited action in the shipped file
    mine = 'steps = [{op = "move", zone = "play", pick = "self", to = "deck_bottom"}]'
    path = tmp_path / "waking_up.toml"
    path.write_text(text.replace(old, mine))
    custom = Options(expansions=("waking_up",), cards_file=path)
    cs = load_cards(custom)
    assert cs.ids_named("THRONE")[0] in prune.throne_returners(cs)
    lay = dict(
        deck=["MENDER", "RASCAL", "GUARDIAN"],
        equipped=[["PRINCESS", "THRONE"]],
        ignited=["PRINCESS", "THRONE"],
        discard=["EGGS"],
        desired="EGGS",
    )
    s = position(custom, **lay)
    assert check(s) is None
    # and it is a win: the THRONE to the bottom of the DECK, then the PRINCESS EQUIPs it
    assert reference_search(s, node_limit=10_000).outcome == "win"


def test_the_passive_only_removers_of_the_stand_in_sets():
    """Version 2's KING (base and WAKING UP) is the one card ignited for good once ignited,
    where no DREAM GUIDE or PORTRAIT can turn him back; version 1's ignited MENDER turns the
    top card of the DECK back, so there no card is."""

    def passive_only(cfg: Options) -> set[str]:
        cs = load_cards(cfg)
        return {cs.labels[c] for c, p in enumerate(prune.analyse(cs).passive_only) if p}

    assert passive_only(V2_BASE) == passive_only(V2_WAKING) == {"KING"}
    assert passive_only(replace(V2_WAKING, hands=True, players=2)) == {"KING"}
    assert passive_only(V2_DREAM) == set()
    assert passive_only(Options(expansions=("gifts",), cards_version="standin-v2")) == set()
    assert passive_only(BASE) == passive_only(WAKING) == set()


def test_custom_card_file_with_a_retrieval_card_is_not_pruned(tmp_path):
    """(d) the analysis reads the card file: a new retrieval card keeps positions alive."""
    text = """
[set]
name = "mosquitos"
provenance = "printed"
[[card]]
name = "MOSQUITO"
label = "SKOOT"
[card.passive]
number = 1
steps = [{op = "move", zone = "discard", pick = "class", class = "BREAKFAST", to = "deck_top"}]
[card.ignited]
number = 1
[[card]]
name = "MOSQUITO"
label = "SQUEEK"
[card.passive]
number = 2
[card.ignited]
number = 1
"""
    path = tmp_path / "mine.toml"
    path.write_text(text)
    custom = Options(expansions=("mosquitos",), cards_file=path)
    lay = dict(
        deck=["MENDER", "RASCAL", "KING", "SKOOT"],
        equipped=[["PRINCESS"]],
        discard=["EGGS", "SQUEEK"],
        desired="EGGS",
    )
    assert check(position(MOSQ, **lay)) == "DISH"
    assert check(position(custom, **lay)) is None
    a = prune.analyse(load_cards(custom))
    skoot = load_cards(custom).labels.index("SKOOT")
    breakfasts = {i for i, c in enumerate(load_cards(custom).cards) if "BREAKFAST" in c.classes}
    assert a.retrieves(skoot) == breakfasts and a.deep[skoot] == breakfasts
    # and the solver's verdicts with this file do not depend on pruning
    rng = np.random.default_rng(5)
    decks = np.stack([rng.permutation(load_cards(custom).n) for _ in range(30)])
    assert_same_verdicts(custom, decks, 50_000)


def test_analysis_of_the_stand_in_set():
    cs = load_cards(Options(expansions=EXPANSIONS, hands=True, cards_version=V1))
    a = prune.analyse(cs)
    retrievers = {cs.labels[c] for c in range(cs.n) if a.retrieves(c)}
    assert retrievers == {"KING", "ALL", "QUEEN", "PILLOW", "PERFUME", "LEFT HAND"}
    spent = {cs.labels[c] for c in range(cs.n) if a.spent[c]}
    assert spent == {"ALL", "QUEEN", "PILLOW", "LEFT HAND"}  # retrieval on the ignited side
    single = {cs.labels[c] for c in range(cs.n) if a.single[c]}
    assert single == spent  # each takes one card, then lands on the pile
    near = {cs.labels[c]: a.depth[c] for c in range(cs.n) if a.near[c]}
    assert near == {"ALL": 0, "PILLOW": 0, "LEFT HAND": 0}  # the top card only
    assert {cs.labels[c] for c in range(cs.n) if a.deep[c]} == {"KING", "QUEEN", "PERFUME"}
    assert a.princess_wins == 1 and a.princess_number == 1  # the WAKING UP PRINCESS
    prophets = {cs.labels[c]: {cs.names[d] for d in a.dishes[c]} for c in range(cs.n)}
    assert prophets["PROPHET OF THE JUICE"] == {"THE JUICE"}
    assert prophets["KING"] == set()


# --- (a) soundness on random positions --------------------------------------------------------

#: Stand-in version 2's HANDS configurations, where the one-shot refinement works.
V2_HANDS_CONFIGS = [
    V2_HANDS,
    Options(expansions=("all",), hands=True, cards_version="standin-v2"),
    Options(expansions=("dream_guide", "all"), hands=True, cards_version="standin-v2"),
    Options(players=2, hands=True, cards_version="standin-v2"),
]

SOUND_CONFIGS = [
    BASE,
    Options(blitz=True),
    MOSQ,
    DREAM,
    GIFTS,
    replace(GIFTS, gifts_distinct=False),
    JUICE,
    WAKING,
    ALL,
    ALL_HANDS,
    Options(players=2),
    Options(expansions=("the_juice", "all"), hands=True),
    *V2_HANDS_CONFIGS,
    # the last game of a campaign: earlier sets carried without their conditions, cards lost
    Options(
        expansions=("all",),
        hands=True,
        waking_up_rules=True,
        extra_sets=("mosquitos", "dream_guide", "gifts", "the_juice", "waking_up"),
        removed=("GUARDIAN", "JOKER"),
    ),
]


def random_positions(config: Options, deals: int, seed: int) -> list[State]:
    """Positions met on random legal playouts of seeded deals (every turn of each)."""
    cs = load_cards(config)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(deals):
        s = new_game(cs, list(rng.permutation(cs.n)))
        while not s.is_over() and s.turn < 60:
            moves = s.legal_moves()
            s = s.copy().apply(moves[rng.integers(len(moves))])
            if not s.is_over():
                out.append(s)
    return out


@pytest.mark.parametrize("config", SOUND_CONFIGS, ids=lambda c: c.label())
def test_dead_positions_have_no_win(config):
    """(a) Whenever `dead` says True, the unpruned kernel search finds no win."""
    positions = random_positions(config, 12, 2026)
    dead = [s for s in positions if check(s) is not None]
    with program.pruning(config, False):
        for s in dead[:: max(1, len(dead) // 30)]:
            r = solve_state(s, node_limit=100_000, check=False)
            assert r.outcome != "win", s.to_json()
    assert len(positions) > 50


SIX_HANDS = Options(expansions=EXPANSIONS, hands=True)


@pytest.mark.parametrize("config", [*SOUND_CONFIGS, SIX_HANDS], ids=lambda c: c.label())
def test_reach_mask_is_the_reach_set(config):
    """The kernel's reach set R (`reach_mask`: worklists over bit masks, each remover read
    once) is exactly the plain-Python fixpoint `reach_set` on every position met, burial
    and spent retrievers included."""
    cs = load_cards(config)
    info = compile_program(cs).info
    positions = random_positions(config, 12, 5)
    piles = 0
    for s in positions:
        got = int(prune.reach_mask(to_kernel_state(s), cs.n, info))
        want = sum(1 << c for c in prune.reach_set(s))
        assert got == want, s.to_json()
        piles += len(s.discard) >= 3
    assert len(positions) > 50 and piles > 10, (len(positions), piles)


def test_one_shot_refinement_fires_and_its_positions_have_no_win():
    """The refinement is not vacuous on stand-in version 2's HANDS: it proves positions
    dead that R alone does not, kernel and reference agree on them, and the unpruned search
    finds no win from any of them (most are decided losses)."""
    refined = decided = 0
    for config in V2_HANDS_CONFIGS:
        for s in random_positions(config, 12, 2026):
            a = prune.analyse(s.cards)
            if prune._rule(s, a, prune.reach_set(s)) is not None or check(s) is None:
                continue
            refined += 1
            with program.pruning(config, False):
                r = solve_state(s, node_limit=100_000, check=False)
            assert r.outcome != "win", s.to_json()
            decided += r.outcome == "loss"
    assert refined >= 10 and decided >= refined * 0.7, (refined, decided)


def test_dead_proof_names_the_one_shot_group_only_where_the_refinement_was_needed():
    """`dead_proof` gives the rule of `dead_reason`, with the group S when only the
    refinement proves the position (LEFT HAND among it), none when R alone does; the loss
    explanation's words then name the group's cards."""
    from bombsolve.solvers.allisbomb.search.explain import dead_words

    plain = refined = 0
    for config in V2_HANDS_CONFIGS:
        for s in random_positions(config, 12, 2026):
            proof = prune.dead_proof(s)
            assert (proof and proof[0]) == prune.dead_reason(s)
            if proof is None:
                continue
            rule, group = proof
            a = prune.analyse(s.cards)
            if prune._rule(s, a, prune.reach_set(s)) is not None:
                assert group == frozenset()
                plain += 1
                continue
            names = [s.cards.cards[c].label for c in sorted(group)]
            assert "LEFT HAND" in names, names
            words = dead_words(rule, names)
            assert words.startswith(dead_words(rule)) and all(x in words for x in names)
            refined += 1
    assert plain >= 10 and refined >= 10, (plain, refined)


def test_soundness_finds_dead_positions_and_decides_them():
    """The soundness test is not vacuous: it meets dead positions, and proves them lost."""
    found = decided = 0
    for config in (BASE, ALL, JUICE):
        for s in random_positions(config, 12, 2026):
            if check(s) is None:
                continue
            found += 1
            with program.pruning(config, False):
                decided += solve_state(s, node_limit=100_000, check=False).outcome == "loss"
    assert found >= 30 and decided >= found * 0.8, (found, decided)


def test_dead_blitz_positions_against_the_reference_search():
    """On the 13-card Blitz deck the plain-Python reference search confirms dead positions."""
    config = Options(blitz=True)
    dead = [s for s in random_positions(config, 10, 7) if check(s) is not None]
    assert len(dead) >= 5
    for s in dead[:25]:
        r = reference_search(s, node_limit=20_000)
        assert r.outcome != "win", s.to_json()


# --- (b) verdicts with and without pruning ----------------------------------------------------


def assert_same_verdicts(config: Options, decks: np.ndarray, node_limit: int) -> int:
    """Wherever the unpruned search decides, the pruned one gives the same verdict; returns
    how many deals that was."""
    with program.pruning(config, False):
        plain = solve_batch(config, decks, node_limit=node_limit)
    pruned = solve_batch(config, decks, node_limit=node_limit)
    decided = plain["code"] != 2
    assert (pruned["code"][decided] == plain["code"][decided]).all(), config.label()
    return int(decided.sum())


@pytest.mark.parametrize("config", matrix_configs(), ids=lambda c: c.label())
def test_same_verdicts_on_matrix_configs(config):
    """(b) Every matrix configuration, 200 seeded uniform deals (60 with all six expansions,
    plus mid-game positions): identical verdicts wherever the unpruned search decides."""
    cs = load_cards(config)
    rng = np.random.default_rng(1)
    every = set(config.expansions) == set(EXPANSIONS)
    # with all six, whole deals are rarely decided at this limit: fewer, plus positions
    decks = np.stack([rng.permutation(cs.n) for _ in range(60 if every else 200)])
    decided = assert_same_verdicts(config, decks, 10_000)
    if not every:
        assert decided > 0
    else:  # compare mid-game positions of random playouts too
        positions = random_positions(config, 6, 11)[::4]
        decided = 0
        for s in positions:
            with program.pruning(config, False):
                plain = solve_state(s, node_limit=20_000, check=False).outcome
            if plain != "undecided":
                decided += 1
                assert solve_state(s, node_limit=20_000).outcome == plain, s.to_json()
        assert decided >= 5, decided


def test_dead_is_reported_as_no_win_reachable():
    config = ALL
    cs = load_cards(config)
    rng = np.random.default_rng(3)
    decks = np.stack([rng.permutation(cs.n) for _ in range(30)])
    out = solve_batch(config, decks, node_limit=50_000)
    lost = out["code"] == 0
    assert lost.any()
    assert any(int(r) & Ending.NO_WIN_REACHABLE for r in out["reason"][lost])
    with program.pruning(config, False):
        off = solve_batch(config, decks, node_limit=50_000)
    assert not any(int(r) & Ending.NO_WIN_REACHABLE for r in off["reason"])


def _positions_near_wins(cs, rng, playouts: int, lines: int, turns: int) -> list[State]:
    """Positions of random playouts of `cs`, and those along the winning lines of random
    deals (each line's last position has a winning move)."""
    from tests.allisbomb.odd_sets import random_positions as random_playouts

    out = random_playouts(cs, rng, playouts, turns)
    for _ in range(lines):
        s = new_game(cs, list(rng.permutation(cs.n)))
        for move in solve_state(s, node_limit=200_000, check=False).solution:
            out.append(s.copy())
            s = s.copy().apply(move)
    return out


def test_a_position_that_cannot_win_now_has_no_winning_move(tmp_path):
    """`can_win_now` (what the deepening's last level reads before building moves) and its
    kernel twin `may_win_now` agree, and a position they call unable to win has no move
    that wins (only an `equip_win` step wins, rulebook E.3, after the Draw & Equip phase,
    D.2), on positions of random one- and two-player card files from the whole vocabulary
    (`equip_win` on any card, `next` steps that draw fewer) and of the rich benchmark sets;
    met: positions of both kinds, positions with a card that could win EQUIPPED but too few
    cards in the DECK for it, and wins among those that can."""
    from bombsolve.solvers.allisbomb.rules.rules import TooManyMoves
    from tests.allisbomb.odd_sets import random_game

    sets = [random_game(tmp_path, "w", 7000, i, 10)[::2] for i in range(16)]
    for name in ("rich_court", "rich_relay", "rich_pile", "rich_fire"):
        path = ROOT / "scripts" / "bench" / "cardsets" / f"{name}.toml"
        cfg = Options(cards_file=path, allow_nonstandard=True)
        sets.append((np.random.default_rng(len(sets)), load_cards(cfg)))
    seen = {False: 0, True: 0}
    won = short = 0
    for rng, cs in sets:
        info = compile_program(cs).info
        movers = prune.win_movers(cs)
        for s in _positions_near_wins(cs, rng, 6, 4, 40):
            can = prune.can_win_now(s)
            assert bool(prune.may_win_now(to_kernel_state(s), cs.n, info)) == can
            seen[can] += 1
            short += not can and any(s.zone[c] == EQUIP0 + s.active for c in movers)
            try:
                wins = [m for m, c in s.iter_children() if c.outcome.name == "WIN"]
            except TooManyMoves:  # past the move cap: the premise is read on the others
                continue
            assert can or not wins, s.to_json()
            won += bool(wins)
    assert seen[False] >= 100 and seen[True] >= 100, seen
    assert won >= 20 and short >= 50, (won, short)
