"""Sound dead-position pruning for the All Is Bomb search.

A position is *dead* when no winning position can be reached from it. The exhaustive
search (`kernel.dfs`, and `search.reference_search` alike) then counts it as a loss
without exploring it: a win is a reachable winning position, so skipping positions that
reach none never changes a verdict. The check must be **sound** (True only when there
really is no win); it need not find every dead position.

**Static analysis** of the card set (`analyse`, from the card file's steps, so it holds
for any `--cards` file). A *removal* is a `move` step from zone `discard`; a *retrieval*
is one whose destination is the DECK or the EQUIPPED CARDS. For every card: which cards
its retrievals can reach at any depth of the DISCARD PILE (by name, by class, `any`
without `within`, `bottom`), which only near the top (`top`, `nth`, `within`: down to a
fixed depth), which dishes its PROPHECY steps name, and whether it is

- *spent*: its retrievals are all on its ignited side, its passive side removes nothing,
  and its ignited side neither acts on the played card itself nor has an
  equip-for-the-win step. Playing that side ends with the card in the DISCARD PILE (the
  ignite phase discards an ignited played card, D.4) or set aside by a prophecy;
- *single*: spent, with exactly one removal step taking one card and no prophecy: each
  such play takes at most one card out of the DISCARD PILE and then lands on its top.

**Facts of the engine** the argument rests on (rulebook D, G "Discard Pile", CARDS.md):
(1) a card acts only when played, and only an EQUIPPED CARD is played (D.1); (2) nothing
leaves "out of play" (no step selects from that zone); (3) a card leaves the DISCARD PILE
only by a removal step of the card being played ("You can't change the order of the
cards in the DISCARD PILE, unless a CARD ACTION states otherwise"); igniting, turning
back or turning over a discarded card leaves it in place; (4) every other card enters the
pile on top. A side filter (`side`) only narrows what a step may take, and a condition
(`if`, "if you do", a group's "you may") only whether it runs, so the analysis ignores them
(what it finds a step *can* do stays true; the steps inside groups count as the card's own);
`all` takes any number of cards. A move from `anywhere` is a removal at any depth; an
`exchange` is a removal of its selection and of the card itself at any depth, never a
single one (the card lands in the taken card's place, not on top; see `_analyse`); a card
set that can reorder or reverse the DISCARD PILE has every retrieval taken as reaching
any depth (burial no longer only grows). A `next` step (an effect on the next card played)
moves no card, so (1)-(4) stand: "plays ignited" has that card play its ignited side, which
ends in the DISCARD PILE like any ignited play (the spent argument below holds), "no CARD
ACTION" only takes steps away, and "draws k fewer" lowers the DECK rule's number.

**The reach set R** (`reach_mask`, `reach_set`): the least fixpoint of "the cards in the
DECK, the EQUIPPED CARDS or the PLAY AREA, plus each card Y of the DISCARD PILE that a
retrieval of some card of R can reach". It contains every card that will ever again be
in the DECK or equipped, on any line: the first card to come back from outside R would
have been retrieved by a card that was back already, so in R. *Reach* takes burial into
account: let C (clearable) be the least set holding every card that a removal of a
non-single card of R can take, and what a single card of R that is itself in C can take;
let Psi(Y) count the cards *not* in C above Y. Psi(Y) never decreases while Y stays in
the pile: a new card goes on top; a non-single removal takes a card of C; a single card
in C takes a card of C and lands on top (a card of C); a single card not in C takes one
card and lands on top as one card not in C. The number of cards above Y is at least
Psi(Y), so a retrieval that reaches only depth k can never take Y once Psi(Y) > k.

**Spent retrievers** (refinement): a card r that must be in the DECK or equipped when
the game is won (the PRINCESS; ALL; the THRONE under WAKING UP's rules; the DESIRED DISH
under the base rules) and is spent, with no other card of R able to retrieve it: on a
winning line r never plays its ignited side (it would stay in the pile or out of play),
so it removes nothing, and R and C are recomputed without it. Repeated to a fixpoint;
each round is sound given the previous one.

**Ignited for good** (refinement; `passive_only`, `ignited_for_good`). A card whose removal
steps are all on its passive side, and whose side no `flip_back` or `turn_over` step of the
card set can select, removes nothing once it is ignited: sides change only by a game effect
(C, "Orientation Rule"): IGNITE turns a passive card ignited or discards an ignited one
(D.4), "plays ignited" (a `next` step) turns a passive card ignited, and only `flip_back`
and `turn_over` turn a card back to its passive side (CARDS.md); a played card plays the
side that is up (D.1, D.3). So every such card that is ignited now starts switched off, in R
and C alike, on every line from the position (the spent-retriever rounds and the one-shot
group then start from it). In the stand-in sets it is the KING ("You may put the PRINCESS
from the DISCARD PILE on top of the DECK", a passive action) wherever no DREAM GUIDE or
PORTRAIT can turn it back: once the KING is ignited, a PRINCESS in the DISCARD PILE is lost
for good. (A card with removals on both sides keeps all of them: not refined.)

**One-shot retrievers** (refinement; `one_shot_group`, `one_shot_sets`). A single card
with an any-depth retrieval of several cards (a *seed*, `one_shot_seeds`; in stand-in v2
the LEFT HAND, "put one card of the DISCARD PILE on top of the DECK") makes R hold every
card of the pile it can select, although each of its plays takes one card. It cannot take
itself back: during its CARD ACTION the played card is in the PLAY AREA (D.1, D.3), and a
selection from the DISCARD PILE (or `anywhere`, CARDS.md) never offers the PLAY AREA.
Let S be the least set of removers of R (not switched off) holding the seeds in R and
every remover of R that can take (any removal, also out of play) a card of S; the
refinement is used only when every card of S is single. Let P count the cards of S in the
DECK, equipped or in the PLAY AREA. P never grows: a card of S leaves the DISCARD PILE only
by a removal of a card being played (fact (3)), which is in R (not switched off, on a
winning line) and so in S; each play of a card of S that takes a card ends with it in the
DISCARD PILE (spent), so P is unchanged when it takes a card of S and drops by one
otherwise; nothing comes back from out of play (2). At the win every card of S that must be
there (`_must`: ALL, ...) is counted in P, so from now on the cards of S take at most
`spare` = P - |S and must| cards that are not in S. No card outside S can take a card of
S, so no card of S is in C, and C and the burial argument are those of R without S's
removals, S's plays being those of single cards not in C. So, as for R, on a winning line
every card that comes back lies in R'_Y: the closure without the removals of S (and of the
cards switched off), from the cards in the DECK, equipped or in the PLAY AREA, the cards of
S in R, and the set Y of at most `spare` cards that S takes from the pile as it is now (the
first card to come back outside R'_Y would have been taken by a card of S, so be in Y, or by
another card of R'_Y, which the closure follows). Each rule below but DECK holds of every
superset of R'_Y if it holds of R'_Y (more cards back only helps a win) and reads only
whether certain cards (`read_cards`) are in R: a card of Y outside those with no removal
step changes none of them, and a card already in R'_0 changes nothing. So with spare <= 2
(`ONE_SHOT_MOST`) the position is dead if a rule other than DECK fires on R'_0 and (spare
>= 1) on R'_Y for every Y of min(spare, m) of the m candidates (cards of the pile in R,
outside R'_0, that a card of S can retrieve and that a rule reads or that remove). In
particular it is dead once `spare` = 1 and two needed cards lie outside R'_0 that no
candidate's closure brings back together. `dead` tries it only when the card set has a seed
(the seed mask at fast_start(n) + 4 is not 0), so the other card sets pay nothing.

**The rules** (each is a necessary condition of every win; `RULES`):

- PRINCESS (E, "Playing the Princess"): the win is made by the ignited PRINCESS's
  equip-for-the-win step, so she must still be playable: not in R -> dead. A game with no
  PRINCESS, or whose PRINCESS has no equip-for-the-win step on her ignited side, has no win.
- DECK (D.2, E "Losing the Game"): in the winning turn the PRINCESS draws her ignited
  NUMBER from a DECK that holds at most the cards of R other than her: more -> dead.
- DISH (E, "Desired Dish"): the base rules need the DESIRED DISH ignited and EQUIPPED by
  the PRINCESS, so it must come out of the DECK: not in R -> dead. WAKING UP (G) needs it
  in the DISCARD PILE: out of play -> dead.
- THRONE (G, "Waking Up"): the ignited PRINCESS must EQUIP the ignited THRONE: not in R
  (or not in the game) -> dead. She EQUIPs it from the DECK (her `equip_win` step takes
  it from the DECK or as the card drawn from it, CARDS.md), so an ignited THRONE among the
  EQUIPPED CARDS must first go back into the DECK. Played, it is discarded (D.4); it stays
  ignited unless a step can turn it back (C, "Orientation Rule"); so it comes back only by
  a card of `throne_returners` (a step moving it from the EQUIPPED CARDS into the DECK, a
  swap or exchange, or a retrieval from the DISCARD PILE), which must be in R to be
  played: none in R -> dead. (Those cards are read by this rule: `read_cards`.)
- PROPHECY (E.1): with no prophecy made yet, some card of R must have a PROPHECY step
  naming a dish that can still serve (in R under the base rules; not out of play and not
  the THRONE under WAKING UP; THE JUICE if that expansion is in play). None -> dead.
- THE JUICE (G): THE JUICE must be the DESIRED DISH; once another dish was named -> dead.
- MOSQUITOS (G): both MOSQUITO cards must end in the DISCARD PILE: one out of play -> dead.
- DREAM GUIDE (G): it must be played once: never played and not in R -> dead.
- GIFTS (G): three different GIFT cards must be played (option `gifts_distinct`): played
  ones plus unplayed ones in R fewer than three -> dead. With `gifts_distinct=False`
  (three GIFT plays): fewer than three plays and no GIFT card in R -> dead.
- ALL (G): ALL must be an EQUIPPED CARD at the end: not in R -> dead.

The tables travel in the kernel's `info` array after the 16 win-condition entries of
`program.win_info` (layout: `INFO_*` below), so the search's signatures do not change.
`dead` is the Numba predicate the search calls (on the children that `still_alive`, at the
end of this file, cannot prove alive from their parent); `dead_reason` is the same analysis in
plain Python over a `rules.State`, naming the rule that fired (tests compare the two).
Pruning is on by default; `program.pruning(config, False)` switches it off for both searches.

Numba's on-disk cache tracks each function's own source file only, so `kernel.py` carries a
digest of this file (`NUMBA_DEPENDS_ON`, solvers/common/numba_deps.py): after editing it,
run `python -m bombsolve.solvers.common.numba_deps` (a test fails until then), or `kernel.dfs` keeps
running the `dead` it was compiled with.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from bombsolve.solvers.allisbomb.kernel.layout import (
    H_DECK,
    H_PILE,
    PLAYED,
    SIDE,
    W_MASKS,
    ZONE,
    key_words,
)
from bombsolve.solvers.common.numba_jit import njit
from bombsolve.solvers.common.numba_opt import linked_helper

if TYPE_CHECKING:
    from bombsolve.solvers.allisbomb.cards.cards import CardSet, Step

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "da75f7c3e94559c1"

#: The decorator of the predicates the search calls (`dead`, `lower_bound`, ...): they only
#: read the arrays they are given and allocate nothing, so Numba's reference counting of
#: those arrays (and of the int8 views of the row) is pure cost; without it (`_nrt=False`)
#: `dead` took 24 -> 20 ns per call on base positions and 98 -> 46 ns with all six expansions
#: (with the worklists of `_closure_mask`; the counting alone had grown to 59 ns on base).
#: The searches link them (`linked_helper`, bombsolve.solvers.common.numba_opt: optimised in full
#: there, once); the tests' calls from Python run their own, less optimised, copy.
_no_refcount = linked_helper(cache=True, _nrt=False)

# Zones, as in the kernel's state layout and rules.py (kept here to avoid an import cycle).
DECK, EQUIP0, EQUIP1, DISCARD, OUT, PLAY = 0, 1, 2, 3, 4, 5

#: info[INFO_ON]: 1 = the searches prune dead positions, 0 = they do not.
INFO_ON = 16
#: info[INFO_PRINCESS_WINS]: 1 if the PRINCESS's ignited side has an equip-for-the-win step,
#: 0 if not (or the game has no PRINCESS), 2 if a card file has several PRINCESS cards (the
#: PRINCESS and DECK rules are then not used).
INFO_PRINCESS_WINS = 17
#: info[INFO_PRINCESS_NUMBER]: the NUMBER of the PRINCESS's ignited side (0 if none).
INFO_PRINCESS_NUMBER = 18
#: info[INFO_N_REMOVERS], info[INFO_N_PROPHETS]: lengths of the two id lists at INFO_LISTS
#: (cards with a removal step, then cards with a PROPHECY step).
INFO_N_REMOVERS = 19
INFO_N_PROPHETS = 20
#: info[INFO_SPENT], info[INFO_SPENT + 1]: the spent cards (lo/hi of 31 bits), so that `dead`
#: skips the spent-retriever rounds when none of them is in R.
INFO_SPENT = 21
INFO_LISTS = 24
#: Per-card table at info[table_start(n) + TABLE_WIDTH * c + k]; masks as lo/hi pairs of
#: 31 bits: k = 0/1 cards it can retrieve at any depth, 2/3 cards it can retrieve near the
#: top, 4 how deep that reaches (-1: none), 5/6 what it can remove (0 for a single card),
#: 7/8 what a single card can remove (else 0), 9 spent, 10 single, 11/12 dishes named.
TABLE_WIDTH = 13
#: Names of the rules, in the order `dead_reason` tests them.
RULES = (
    "PRINCESS",
    "DECK",
    "DISH",
    "THRONE",
    "PROPHECY",
    "THE JUICE",
    "MOSQUITOS",
    "DREAM GUIDE",
    "GIFTS",
    "ALL",
)


def table_start(n: int) -> int:
    """Where the per-card table starts in `info` for n cards."""
    return INFO_LISTS + 2 * n


def info_len(n: int) -> int:
    """Length of the `info` array for n cards (win conditions + pruning tables)."""
    return table_start(n) + TABLE_WIDTH * n


@dataclass(frozen=True)
class Analysis:
    """What each card's steps can do (see the module docstring), indexed by card id.

    deep / near: the cards its retrievals reach at any depth / only down to `depth`
    (0 = the top card; -1 if it has no such retrieval). removes: what its removal steps
    can take, all of them (used for C). spent, single: as in the module docstring.
    dishes: the card ids its PROPHECY steps name. princess_wins: see INFO_PRINCESS_WINS;
    princess_number: the NUMBER of the PRINCESS's ignited side. win_numbers: see
    `win_numbers`. passive_only: its removals
    are all on its passive side and no step can turn it back (module docstring, "Ignited
    for good").
    """

    deep: tuple[frozenset[int], ...]
    near: tuple[frozenset[int], ...]
    depth: tuple[int, ...]
    removes: tuple[frozenset[int], ...]
    spent: tuple[bool, ...]
    single: tuple[bool, ...]
    dishes: tuple[frozenset[int], ...]
    princess_wins: int
    princess_number: int
    passive_only: tuple[bool, ...] = ()
    win_numbers: tuple[int, ...] = ()  # `win_numbers`

    def retrieves(self, c: int) -> frozenset[int]:
        """Every card that card c can take back from the DISCARD PILE (any depth)."""
        return self.deep[c] | self.near[c]


_ANALYSES: dict[int, tuple[CardSet, Analysis]] = {}


def analyse(cs: CardSet) -> Analysis:
    """Analyse the steps of every card of `cs` (plain Python, from the card file's steps).

    Cached per card set (the reference search asks for it at every position).
    """
    hit = _ANALYSES.get(id(cs))
    if hit is not None and hit[0] is cs:
        return hit[1]
    a = _analyse(cs)
    _ANALYSES[id(cs)] = (cs, a)  # holding cs keeps its id from being reused
    return a


def _selects(cs: CardSet, st: Step) -> frozenset[int]:
    if st.pick == "name":
        return frozenset(cs.ids_named(st.name))
    if st.pick == "class":
        return frozenset(i for i, c in enumerate(cs.cards) if st.cls in c.classes)
    return frozenset(range(cs.n))  # by position: any card can come to be there


def _reach_depth(st: Step) -> int:
    """How deep in the pile (0 = top) a removal reaches; -1 = any depth (also for a count
    that counts cards: it may be as large as the game)."""
    if st.amount is not None:
        return -1
    if st.pick == "top":
        return st.count - 1
    if st.pick == "nth":
        return st.n + st.count - 2
    if st.pick == "bottom" or st.within == 0:
        return -1
    return st.within + st.count - 2  # each earlier choice may lift the next card by one


def turnable_cards(cs: CardSet) -> frozenset[int]:
    """The cards a step could turn back to their passive side (C, "Orientation Rule": only
    a game effect turns a card over; in the vocabulary flip_back and turn_over)."""
    out: set[int] = set()
    for card in cs.cards:
        for side in (card.passive, card.ignited):
            for st in side.all_steps():
                if st.op in ("flip_back", "turn_over"):
                    out |= _selects(cs, st)
    return frozenset(out)


def win_movers(cs: CardSet) -> frozenset[int]:
    """The cards with an `equip_win` step on either side (in a group or a choice too): the
    only step that wins (rulebook E.3, CARDS.md), and a card acts only when it is played
    from the EQUIPPED CARDS of the player whose turn it is (D.1, F)."""
    return frozenset(c for c, k in enumerate(win_numbers(cs)) if k < NO_WIN_NUMBER)


def _draws_fewer(cs: CardSet) -> int:
    """The largest "draws k fewer" of any `next` step of the card set, as -k (0 if none):
    an earlier card's step may have the card played next draw that many fewer (CARDS.md,
    "Effects on the next card"; "plays ignited" and "no CARD ACTION" leave the number)."""
    return min(
        (
            st.value
            for k in cs.cards
            for sd in (k.passive, k.ignited)
            for st in sd.all_steps()
            if st.op == "next" and not st.effect and st.value < 0
        ),
        default=0,
    )


#: `win_numbers` of a card that cannot win (more than any DECK holds).
NO_WIN_NUMBER = 127


def win_numbers(cs: CardSet) -> tuple[int, ...]:
    """`analyse(cs).win_numbers`: for each card, the fewest cards a play of it that wins must draw: the Draw & Equip
    phase (D.2) comes before the CARD ACTION (D.3), and drawing more cards than the DECK
    holds loses at once ("Losing the Game"), so a card wins only from a DECK of at least
    that many. The least NUMBER of its sides with an `equip_win` step, lowered by the
    largest "draws k fewer" of any `next` step of the card set (CARDS.md, "Effects on the
    next card"), 0 for a side with `draw` steps (they may change it); NO_WIN_NUMBER for a
    card not in `win_movers`."""
    return analyse(cs).win_numbers


def _win_numbers(cs: CardSet) -> tuple[int, ...]:
    fewer = _draws_fewer(cs)
    out = []
    for card in cs.cards:
        need = NO_WIN_NUMBER
        for sd in (card.passive, card.ignited):
            if any(st.op == "equip_win" for st in sd.all_steps()):
                drawn = 0 if any(st.op == "draw" for st in sd.all_steps()) else sd.number + fewer
                need = min(need, max(0, drawn))
        out.append(need)
    return tuple(out)


def can_win_now(state) -> bool:
    """False only if no move of `state` wins in this turn: the player whose turn it is has
    no card of `win_movers` EQUIPPED whose `win_numbers` the DECK holds. `kernel.shortest`
    (`may_win_now`) and `search.reference_deepening` build no moves of such a position at
    a depth limit's last level, whose children are not entered: they could only show a win
    there."""
    need = win_numbers(state.cards)
    return any(
        z == EQUIP0 + state.active and need[c] <= len(state.deck) for c, z in enumerate(state.zone)
    )


def throne_returners(cs: CardSet) -> frozenset[int]:
    """The cards that could bring an ignited EQUIPPED THRONE back into the DECK (module
    docstring, "The rules", THRONE): a step moving an EQUIPPED CARD (or a card from
    anywhere, or the played card from the PLAY AREA) it can select into the DECK, any `swap`
    or `exchange` step, or a retrieval that can take it from the DISCARD PILE; every card if
    a step could turn it back to its passive side (then its own play puts it at the bottom
    of the DECK, D.5), and none without a THRONE."""
    ids = cs.ids_named("THRONE")
    if not ids:
        return frozenset()
    t = ids[0]
    if t in turnable_cards(cs):
        return frozenset(range(cs.n))
    a = analyse(cs)
    out = {c for c in range(cs.n) if t in a.retrieves(c)}
    for c, card in enumerate(cs.cards):
        for side in (card.passive, card.ignited):
            for st in side.all_steps():
                if st.op in ("swap", "exchange"):
                    out.add(c)
                elif (
                    st.op == "move"
                    and st.zone in ("equipped", "anywhere", "play")
                    and st.to.startswith("deck")
                    and t in _selects(cs, st)
                ):
                    # from the PLAY AREA: the played card itself, which then escapes the
                    # Ignite phase (D.4) still ignited; c is the THRONE when it is its own
                    out.add(c)
    return frozenset(out)


def _analyse(cs: CardSet) -> Analysis:
    deep, near, depth, removes, spent, single, dishes = [], [], [], [], [], [], []
    passive_only = []
    turnable = turnable_cards(cs)
    for c, card in enumerate(cs.cards):
        dp: set[int] = set()
        nr: set[int] = set()
        dep = -1
        rm: set[int] = set()
        n_removals = [0, 0]
        retrieves_on = [False, False]
        named: set[int] = set()
        for s, side in enumerate((card.passive, card.ignited)):
            for st in side.all_steps():  # groups' steps too; conditions ignored (as if met)
                # a move from "anywhere" can take a card of the DISCARD PILE, at any depth
                if st.op == "move" and st.zone in ("discard", "anywhere"):
                    sel = _selects(cs, st)
                    rm |= sel
                    # `all` takes every matching card: as many as the game holds
                    n_removals[s] += cs.n if st.all or st.amount is not None else st.count
                    if st.to == "out":
                        continue  # out of play: never back in the game
                    retrieves_on[s] = True
                    k = _reach_depth(st)
                    if k < 0:
                        dp |= sel
                    else:
                        nr |= sel
                        dep = max(dep, k)
                elif st.op == "exchange":
                    # The chosen card may leave the DISCARD PILE, or (when an earlier step
                    # put this card there) this card may, the other taking its place below
                    # the top: a removal of either at any depth, and never a single one
                    # (the card does not land on top). Any card could be this one's copy
                    # in the pile: taken as able to take its selection and itself.
                    sel = _selects(cs, st) | {i for i, k in enumerate(cs.cards) if k is card}
                    rm |= sel
                    dp |= sel
                    n_removals[s] += 2
                    retrieves_on[s] = True
                elif st.op == "prophecy":
                    ids = cs.ids_named(st.dish)
                    if ids:  # the kernel and the engine name the first card of that name
                        named.add(ids[0])
        ign = card.ignited.all_steps()
        is_spent = (
            retrieves_on[1]
            and n_removals[0] == 0
            and not any(st.zone == "play" or st.op in ("equip_win", "exchange") for st in ign)
        )
        is_single = is_spent and n_removals[1] == 1 and not any(st.op == "prophecy" for st in ign)
        deep.append(frozenset(dp))
        near.append(frozenset(nr))
        depth.append(dep)
        removes.append(frozenset(rm))
        spent.append(is_spent)
        single.append(is_single)
        dishes.append(frozenset(named))
        passive_only.append(n_removals[0] > 0 and n_removals[1] == 0 and c not in turnable)
    if any(
        st.op in ("reorder", "reverse") and st.zone == "discard"
        for card in cs.cards
        for side in (card.passive, card.ignited)
        for st in side.all_steps()
    ):
        # A card action may reorder the DISCARD PILE: a card can rise above cards that
        # bury it, so the burial argument (Psi never decreases) fails. Every retrieval is
        # then taken as reaching any depth (R only grows: conservative).
        deep = [frozenset(d | r) for d, r in zip(deep, near, strict=True)]
        near = [frozenset() for _ in near]
        depth = [-1 for _ in depth]
    ids = cs.ids_named("PRINCESS")
    wins, number = 0, 0
    if len(ids) > 1:
        wins = 2  # which one wins is not the same in kernel and engine: assume nothing
    elif ids:
        side = cs.cards[ids[0]].ignited
        wins = int(any(st.op == "equip_win" for st in side.all_steps()))
        number = side.number
        if any(st.op == "draw" for st in side.steps):
            number = 0  # draw steps may change it: the DECK rule then assumes nothing
        # an earlier card's `next` step may have her draw fewer: the DECK rule then
        # assumes the fewest any card's step leaves
        number = max(0, number + _draws_fewer(cs))
    return Analysis(
        tuple(deep),
        tuple(near),
        tuple(depth),
        tuple(removes),
        tuple(spent),
        tuple(single),
        tuple(dishes),
        wins,
        number,
        tuple(passive_only),
        _win_numbers(cs),
    )


def _mask(ids) -> int:
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def extend_info(cs: CardSet, info: np.ndarray) -> np.ndarray:
    """Return `info` (the 16 win-condition entries) extended with the pruning tables."""
    a = analyse(cs)
    n = cs.n
    out = np.zeros(info_len(n), np.int32)
    out[: len(info)] = info
    out[INFO_ON] = 1
    out[INFO_PRINCESS_WINS] = a.princess_wins
    out[INFO_PRINCESS_NUMBER] = a.princess_number
    removers = [c for c in range(n) if a.removes[c]]
    prophets = [c for c in range(n) if a.dishes[c]]
    out[INFO_N_REMOVERS] = len(removers)
    out[INFO_N_PROPHETS] = len(prophets)
    spent = _mask(c for c in range(n) if a.spent[c])
    out[INFO_SPENT : INFO_SPENT + 2] = [spent & 0x7FFFFFFF, spent >> 31]
    out[INFO_LISTS : INFO_LISTS + len(removers)] = removers
    out[INFO_LISTS + n : INFO_LISTS + n + len(prophets)] = prophets
    t0 = table_start(n)
    for c in range(n):
        b = t0 + TABLE_WIDTH * c
        rm = _mask(a.removes[c])
        row = []
        for m in (_mask(a.deep[c]), _mask(a.near[c])):
            row += [m & 0x7FFFFFFF, m >> 31]
        row.append(a.depth[c])
        for m in (0 if a.single[c] else rm, rm if a.single[c] else 0):
            row += [m & 0x7FFFFFFF, m >> 31]
        row += [int(a.spent[c]), int(a.single[c])]
        d = _mask(a.dishes[c])
        row += [d & 0x7FFFFFFF, d >> 31]
        out[b : b + TABLE_WIDTH] = row
    return extend_fast(cs, extend_marks(cs, extend_skip(cs, extend_bound(cs, out))))


# --- the reference predicate (plain Python over rules.State) ----------------------------------


def _closure(
    state, a: Analysis, off: set[int], extra: set[int] | frozenset[int] = frozenset()
) -> set[int]:
    """The least fixpoint R (module docstring), without the removals of cards in `off`,
    starting from the cards in the DECK, equipped or in the PLAY AREA and those of `extra`."""
    n = state.cards.n
    reach = {c for c in range(n) if state.zone[c] in (DECK, EQUIP0, EQUIP1, PLAY)} | set(extra)
    pile = list(reversed(state.discard))  # top first
    while True:
        actors = [q for q in sorted(reach) if q not in off and a.removes[q]]
        clear = set().union(*(a.removes[q] for q in actors if not a.single[q]))
        grew = True
        while grew:
            grew = False
            for s in actors:
                if a.single[s] and s in clear and not a.removes[s] <= clear:
                    clear |= a.removes[s]
                    grew = True
        deep = set().union(*(a.deep[q] for q in actors))
        new = set()
        buried = 0  # Psi: cards not in C above the card looked at
        for y in pile:
            if y not in reach:
                depths = [a.depth[q] for q in actors if y in a.near[q]]
                if y in deep or (depths and buried <= max(depths)):
                    new.add(y)
            if y not in clear:
                buried += 1
        if not new:
            return reach
        reach |= new


def _must(state, a: Analysis) -> set[int]:
    """The cards that must be in the DECK, equipped or in the PLAY AREA when the game is
    won (module docstring, "Spent retrievers")."""
    cfg = state.cards.config
    ids = state.cards.ids_named
    must = set(ids("PRINCESS")[:1]) if a.princess_wins != 2 else set()
    if cfg.waking_up:
        must |= set(ids("THRONE")[:1])
    elif state.desired >= 0:
        must.add(state.desired)
    if "all" in cfg.expansions:
        must |= set(ids("ALL")[:1])
    return must


def _reach_off(state, a: Analysis) -> tuple[set[int], set[int]]:
    """The reach set R and the cards switched off to reach it: those ignited for good,
    then the spent retrievers (module docstring)."""
    must = _must(state, a)
    off = ignited_for_good(state, a)
    while True:
        reach = _closure(state, a, off)
        more = set()
        for r in must & reach:
            if a.spent[r] and r not in off:
                others = set().union(*(a.retrieves(q) for q in reach if q != r and q not in off))
                if r not in others:
                    more.add(r)
        if not more:
            return reach, off
        off |= more


def ignited_for_good(state, a: Analysis) -> set[int]:
    """The cards with removals only on their passive side that are ignited now and that no
    step can turn back: they remove nothing on any later turn (module docstring)."""
    return {c for c, p in enumerate(a.passive_only) if p and state.ignited[c]}


def reach_set(state, a: Analysis | None = None) -> set[int]:
    """The cards that can ever again be in the DECK or equipped on a winning line."""
    return _reach_off(state, a or analyse(state.cards))[0]


def one_shot_seeds(cs: CardSet) -> frozenset[int]:
    """The single cards with an any-depth retrieval of more than one card (module
    docstring, "One-shot retrievers")."""
    a = analyse(cs)
    return frozenset(c for c in range(cs.n) if a.single[c] and len(a.deep[c]) > 1)


def one_shot_group(state, a: Analysis, reach: set[int], off: set[int]) -> set[int]:
    """The group S of the one-shot refinement (module docstring), or the empty set: the
    least set of removers of R (not switched off) holding every single card with an
    any-depth retrieval and every remover of R that can take one of its cards; empty when
    that set holds a card that is not single, or no such card is in R."""
    actors = {q for q in reach if q not in off and a.removes[q]}
    group = actors & one_shot_seeds(state.cards)
    while group:
        more = {q for q in actors - group if a.removes[q] & group}
        if not more:
            return group
        if not all(a.single[q] for q in more):
            return set()
        group |= more
    return group


#: The one-shot refinement is tried when the group may take at most this many cards.
ONE_SHOT_MOST = 2


def one_shot_sets(state, a: Analysis, reach: set[int], off: set[int]) -> list[set[int]]:
    """The reach sets R'_Y of the one-shot refinement (module docstring): on every winning
    line the cards that come back lie in one of them; [] when the refinement does not
    apply. The first is R'_0 (the group takes no card that matters), then one per set Y of
    as many cards as the group may take (`spare`, at most ONE_SHOT_MOST) among the
    candidates: the cards of the DISCARD PILE in R, outside R'_0, that a card of the
    group can retrieve and that a rule reads or that have a removal step (the others change
    no rule but DECK, which the refinement does not use)."""
    group = one_shot_group(state, a, reach, off)
    if not group:
        return []
    n = state.cards.n
    live = {c for c in range(n) if state.zone[c] in (DECK, EQUIP0, EQUIP1, PLAY)}
    spare = len(group & live) - len(group & _must(state, a))
    if spare > ONE_SHOT_MOST:
        return []
    off2 = off | group
    start = group & reach
    base = _closure(state, a, off2, start)
    if spare <= 0:
        return [base]
    before, after = read_cards(state.cards)
    read = before if state.desired < 0 else after | {state.desired}
    takes = set().union(*(a.retrieves(g) for g in group))
    cand = [
        y
        for y in sorted(state.discard)
        if y in reach and y not in base and y in takes and (y in read or a.removes[y])
    ]
    out = [base]
    for ys in itertools.combinations(cand, min(spare, len(cand))):
        if any(a.removes[y] for y in ys):
            out.append(_closure(state, a, off2, start | set(ys)))
        else:
            out.append(base | set(ys))
    return out


def dead_reason(state) -> str | None:
    """Name the rule (one of `RULES`) proving no win is reachable from `state`, or None.

    The plain-Python twin of `dead` (same analysis, written over sets and card names).
    A position proved dead by the one-shot refinement is named by the rule that fires on
    R'_0 (module docstring), which fires on every R'_Y then.
    """
    proof = dead_proof(state)
    return None if proof is None else proof[0]


def dead_proof(state) -> tuple[str, frozenset[int]] | None:
    """`dead_reason`'s rule and the one-shot group S its proof needed (module docstring,
    "One-shot retrievers"): empty when the rule fires on the reach set R itself, the
    group's card ids when only the refinement proves the position dead; None when no rule
    proves it."""
    a = analyse(state.cards)
    reach, off = _reach_off(state, a)
    why = _rule(state, a, reach)
    if why is not None:
        return why, frozenset()
    sets = one_shot_sets(state, a, reach, off)
    if sets and all(_rule(state, a, r, deck=False) is not None for r in sets):
        return _rule(state, a, sets[0], deck=False), frozenset(one_shot_group(state, a, reach, off))
    return None


def _rule(state, a: Analysis, reach: set[int], deck: bool = True) -> str | None:
    """The first rule of `RULES` that fires with `reach` as the reach set (DECK only if
    `deck`), or None."""
    cs = state.cards
    cfg = cs.config
    ids = cs.ids_named
    first = lambda name: (ids(name) or [-1])[0]  # noqa: E731
    p = first("PRINCESS")
    if a.princess_wins != 2:
        if p < 0 or not a.princess_wins or p not in reach:
            return "PRINCESS"
        if deck and a.princess_number > len(reach) - 1:
            return "DECK"
    d = state.desired
    throne = first("THRONE") if cfg.waking_up else -1
    if cfg.waking_up:
        if d >= 0 and state.zone[d] == OUT:
            return "DISH"
        if throne < 0 or throne not in reach:
            return "THRONE"
        if state.zone[throne] in (EQUIP0, EQUIP1) and state.ignited[throne]:
            if not throne_returners(cs) & reach:
                return "THRONE"  # ignited and EQUIPPED, and nothing can put it back
    elif d >= 0 and d not in reach:
        return "DISH"
    juice = first("THE JUICE") if "the_juice" in cfg.expansions else -2
    if d < 0:
        named = set().union(*(a.dishes[q] for q in reach))
        if cfg.waking_up:
            ok = {r for r in named if state.zone[r] != OUT and r != throne}
        else:
            ok = named & reach
        if juice != -2:
            ok &= {juice}
        if not ok:
            return "PROPHECY"
    if juice != -2 and (juice < 0 or (d >= 0 and d != juice)):
        return "THE JUICE"
    if "mosquitos" in cfg.expansions:
        mos = ids("MOSQUITO")
        if not mos or any(state.zone[m] == OUT for m in mos):
            return "MOSQUITOS"
    if "dream_guide" in cfg.expansions:
        g = first("DREAM GUIDE")
        if g < 0 or (not state.played[g] and g not in reach):
            return "DREAM GUIDE"
    if "gifts" in cfg.expansions:
        gifts = [i for i, c in enumerate(cs.cards) if "GIFT" in c.classes]
        if cfg.gifts_distinct:
            if sum(1 for g in gifts if state.played[g] or g in reach) < 3:
                return "GIFTS"
        elif state.gift_plays < 3 and not set(gifts) & reach:
            return "GIFTS"
    if "all" in cfg.expansions:
        al = first("ALL")
        if al < 0 or al not in reach:
            return "ALL"
    return None


# --- the Numba predicate ---------------------------------------------------------------------
#
# `dead` runs on every child that `still_alive` cannot vouch for, so it is written for speed
# with the same results as the plain-Python twin: one pass without branches over the zones
# (a card's zone is hard to predict, and a mispredicted branch per card cost more than the
# arithmetic), the pile walk and its clearable set only when some retrieval in R is
# depth-limited, the spent-retriever rounds only when a spent card that must stay in the
# game is in R (INFO_SPENT), and the played marks read only by the rules that use them.


@njit(cache=True, inline="always")
def _pair(info, i):
    return np.int64(info[i]) | (np.int64(info[i + 1]) << np.int64(31))


@njit(cache=True, inline="always")
def _has(mask, c):
    return (mask >> np.int64(c)) & np.int64(1) == 1


@njit(cache=True, inline="always")
def _bit(c):
    return np.int64(1) << np.int64(c)


@njit(cache=True, inline="always")
def _popcount(m):
    """Set bits of a non-negative mask (a fixed sequence of adds and shifts, no loop)."""
    x = np.uint64(m)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _zone_masks(st, n):
    """(cards in the DISCARD PILE, cards out of play) as masks: the state row keeps them."""
    M = key_words(n) + W_MASKS
    return np.int64(st[M + DISCARD]), np.int64(st[M + OUT])


@njit(cache=True, inline="always")
def _pile_card(sb, n, j):
    """The j-th card of the DISCARD PILE from its bottom (layout.py: its bottom card is the
    row's byte n - 1); sb is the row's int8 view."""
    return np.int64(sb[n - 1 - j])


@njit(cache=True, inline="always")
def _pile_len(sb, n):
    return np.int64(sb[8 * key_words(n) + H_PILE])


@njit(cache=True, inline="always")
def _played_count(sb, n, cards):
    """How many cards of mask `cards` carry their play mark (sb: the row's int8 view)."""
    k = 0
    while cards != 0:
        c = _low(cards)
        cards &= cards - np.int64(1)
        k += (sb[n + c] & PLAYED) != 0
    return k


@njit(cache=True, inline="always")
def _low(m):
    """The lowest card of a non-empty mask (one count-trailing-zeros instruction). The
    kernel keeps its own `_low_card`: using this one in `dfs` instead measured 3-4% slower
    (compare_allisbomb_kernels.py --rev HEAD, medians of 5 runs on base and 3 on six)."""
    return np.int64(trailing_zeros(np.uint64(m)))


#: The larger pieces of `dead` (`_reach`, `_closure_mask`): compiled once (`linked_helper`)
#: and inlined by LLVM (forceinline). Inlined in Numba's IR, each copy was translated,
#: typed and lowered again in its caller (`_closure_mask` twice, `_reach` with it); the
#: solver's IR inlining fell from 2.4 to 1.6 s, though its whole cold compile did not move
#: measurably (commit eb03441). `still_alive` stays inlined in Numba's
#: IR: as a linked helper the search ran 4% more instructions.
_inlined_once = linked_helper(cache=True, _nrt=False, forceinline=True)


@_inlined_once
def _closure_mask(sb, n, info, off, reach, disc, removers):
    """The reach set R without the removals of the cards in mask `off` (see `_closure`),
    from `reach` (the cards in the DECK, equipped or in the PLAY AREA) and `disc` (the
    cards in the DISCARD PILE); sb is the row's int8 view, `removers` the mask of the
    cards with a removal step (info at fast_start(n)).

    Everything the rounds gather from the active removers (the cards of R not in `off`
    that have a removal: what they retrieve, how deep, what they can clear) only grows
    with R, so each remover's table entries are read once, in the round it joins R, and
    the clearable set C grows by a worklist of the single cards in C. A card's bit is
    taken with one count-trailing-zeros per active remover, not a pass over all of them."""
    t0 = INFO_LISTS + 2 * n
    singles = _pair(info, fast_start(n) + 2)
    L = _pile_len(sb, n)
    seen = np.int64(0)  # removers in `deep` and `max_depth`
    near_seen = np.int64(0)  # removers in `near` and `clear`
    done = np.int64(0)  # single cards whose removals are already in `clear`
    deep = np.int64(0)  # retrievable at any depth by some active remover
    near = np.int64(0)  # retrievable near the top by some active remover
    clear = np.int64(0)  # C so far
    max_depth = -1
    while True:
        act = reach & ~off & removers
        todo = act & ~seen
        seen |= todo
        while todo != 0:
            q = _low(todo)
            todo &= todo - np.int64(1)
            b = t0 + TABLE_WIDTH * q
            deep |= _pair(info, b)
            max_depth = max(max_depth, info[b + 4])
        new = disc & deep & ~reach
        if max_depth >= 0:  # a depth-limited retrieval: burial counts (C and Psi)
            todo = act & ~near_seen
            near_seen |= todo
            while todo != 0:
                q = _low(todo)
                todo &= todo - np.int64(1)
                b = t0 + TABLE_WIDTH * q
                near |= _pair(info, b + 2)
                clear |= _pair(info, b + 5)
            work = act & singles & clear & ~done
            while work != 0:
                s = _low(work)
                done |= _bit(s)
                clear |= _pair(info, t0 + TABLE_WIDTH * s + 7)
                work = act & singles & clear & ~done
            buried = 0
            j = L - 1
            # the pile from its top down, as long as some top-card retrieval could reach
            while j >= 0 and buried <= max_depth:
                y = _pile_card(sb, n, j)
                if _has(near & ~(reach | new), y):
                    m = act
                    while m != 0:
                        q = _low(m)
                        m &= m - np.int64(1)
                        b = t0 + TABLE_WIDTH * q
                        if buried <= info[b + 4] and _has(_pair(info, b + 2), y):
                            new |= _bit(y)
                            break
                if not _has(clear, y):
                    buried += 1
                j -= 1
        if new == 0:
            return reach
        reach |= new


@njit(cache=True, inline="always")
def _ignited_for_good(sb, n, info):
    """The cards of `ignited_for_good` as a mask: the passive-only removers (info at
    fast_start(n) + 10) whose side bit is set in the row (sb: its int8 view)."""
    m = _pair(info, fast_start(n) + 10)
    off = np.int64(0)
    while m != 0:
        c = _low(m)
        m &= m - np.int64(1)
        if (sb[n + c] & SIDE) != 0:
            off |= _bit(c)
    return off


@njit(cache=True, inline="always")
def _must_mask(sb, n, info):
    """The cards that must be in the DECK, equipped or in the PLAY AREA at the win (`_must`)."""
    must = np.int64(0)
    if info[1] >= 0 and info[INFO_PRINCESS_WINS] != 2:
        must |= _bit(info[1])
    if info[0] == 1:
        if info[2] >= 0:
            must |= _bit(info[2])
    elif sb[2 * n] >= 0:
        must |= _bit(sb[2 * n])
    if info[11] >= 0:
        must |= _bit(info[11])
    return must


@_inlined_once
def _reach(st, n, info, disc, out):
    """The reach set R (`reach_set`), given the masks of `_zone_masks`, and the spent cards
    switched off to reach it (`_reach_off`).

    Inlined by LLVM into `dead` and `reach_mask` (`_inlined_once`; as a call with its
    arrays' reference counting it cost a third of `dead`).
    """
    t0 = INFO_LISTS + 2 * n
    sb = st.view(np.int8)
    removers = _pair(info, fast_start(n))
    live = (_bit(n) - 1) & ~disc & ~out  # neither in the DISCARD PILE nor out of play
    spent = _pair(info, INFO_SPENT)
    off = _ignited_for_good(sb, n, info)
    must = np.int64(-1)  # not computed yet
    while True:
        reach = _closure_mask(sb, n, info, off, live, disc, removers)
        if spent & reach & ~off == 0:
            return reach, off  # no spent card in R: no round would switch one off
        if must < 0:
            must = _must_mask(sb, n, info)
        # once: retrievable by some card of R; twice: by two or more of them
        act = reach & ~off & removers
        once = np.int64(0)
        twice = np.int64(0)
        m = act
        while m != 0:
            q = _low(m)
            m &= m - np.int64(1)
            b = t0 + TABLE_WIDTH * q
            r = _pair(info, b) | _pair(info, b + 2)
            twice |= once & r
            once |= r
        more = np.int64(0)
        m = must & act
        while m != 0:
            r = _low(m)
            m &= m - np.int64(1)
            b = t0 + TABLE_WIDTH * r
            if info[b + 9] == 0:
                continue
            own = _has(_pair(info, b) | _pair(info, b + 2), r)
            if not (_has(twice, r) or (_has(once, r) and not own)):
                more |= _bit(r)  # no other card of R can take r back
        if more == 0:
            return reach, off
        off |= more


@_no_refcount
def reach_mask(st, n, info):
    """The reach set R of `st` as a bit mask of card ids (see `reach_set`)."""
    disc, out = _zone_masks(st, n)
    return _reach(st, n, info, disc, out)[0]


# Compiled once and inlined by LLVM (forceinline) into `dead` and twice into
# `_one_shot_dead`: inlined in Numba's IR, each of its three copies was translated, typed and
# lowered again (about 2 s of the solver's cold compile). Its callers pass `deck` as
# np.bool_, not as the literal True or False, which would compile it once for each.
@linked_helper(cache=True, _nrt=False, forceinline=True)
def _rules_fire(sb, n, info, reach, out, deck):
    """True if a rule of `dead` other than THE JUICE fires with `reach` as the reach set
    (DECK only if `deck`): the twin of `_rule`, once THE JUICE is known not to fire."""
    d = np.int64(sb[2 * n])
    j = info[10]
    p = info[1]
    if info[INFO_PRINCESS_WINS] != 2:
        if p < 0 or info[INFO_PRINCESS_WINS] == 0 or not _has(reach, p):
            return True  # PRINCESS
        if deck and info[INFO_PRINCESS_NUMBER] > _popcount(reach) - 1:
            return True  # DECK
    t = info[2]
    if info[0] == 1:
        if d >= 0 and _has(out, d):
            return True  # DISH
        if t < 0 or not _has(reach, t):
            return True  # THRONE
        z = sb[n + t]
        if (z & SIDE) != 0 and 1 <= (z & ZONE) <= 2:  # ignited and EQUIPPED (either player)
            if _pair(info, fast_start(n) + 12) & reach == 0:
                return True  # THRONE: nothing can put it back into the DECK
    elif d >= 0 and not _has(reach, d):
        return True  # DISH
    if d < 0:
        t0 = INFO_LISTS + 2 * n
        named = np.int64(0)
        for i in range(info[INFO_N_PROPHETS]):
            q = info[INFO_LISTS + n + i]
            if _has(reach, q):
                named |= _pair(info, t0 + TABLE_WIDTH * q + 11)
        if info[0] == 1:
            usable = ~out & ~_bit(t)  # (t >= 0 here: THRONE above)
        else:
            usable = reach
        if j != -2:
            usable &= _bit(j)  # (j >= 0 here: THE JUICE was tested first)
        if named & usable == 0:
            return True  # PROPHECY
    if info[3] != -1:
        mos = _pair(info, 3)
        if mos == 0 or mos & out != 0:
            return True  # MOSQUITOS
    g = info[5]
    if g != -2 and (g < 0 or not ((sb[n + g] & PLAYED) != 0 or _has(reach, g))):
        return True  # DREAM GUIDE
    if info[8] > 0:
        gifts = _pair(info, 6)
        if info[9] == 1:
            if _popcount(gifts & reach) + _played_count(sb, n, gifts & ~reach) < info[8]:
                return True  # GIFTS
        # (the row keeps GIFT plays capped at 3, as State.key() does; info[8], the plays
        # needed, is 3: rules._info's gifts_needed)
        elif (sb[2 * n + 1] >> 1) & 3 < info[8] and (gifts & reach) == 0:
            return True  # GIFTS
    a = info[11]
    if a != -2 and (a < 0 or not _has(reach, a)):
        return True  # ALL
    return False


@_no_refcount
def _closure_call(sb, n, info, off, start, disc, removers):
    """`_closure_mask` as a call (the one-shot rounds run it several times: LLVM inlines
    it here once, and the rounds share this copy)."""
    return _closure_mask(sb, n, info, off, start, disc, removers)


@_no_refcount
def _one_shot_dead(st, n, info, reach, off, disc, out):
    """The one-shot refinement (module docstring) on a position whose reach set R fires no
    rule: True only if every R'_Y fires one. Twin of `one_shot_sets` with `_rule`."""
    sb = st.view(np.int8)
    t0 = INFO_LISTS + 2 * n
    fs = fast_start(n)
    removers = _pair(info, fs)
    singles = _pair(info, fs + 2)
    act = reach & ~off & removers
    group = act & _pair(info, fs + 4)
    if group == 0:
        return False
    while True:  # every remover of R that can take a card of the group joins it
        more = np.int64(0)
        m = act & ~group
        while m != 0:
            q = _low(m)
            m &= m - np.int64(1)
            b = t0 + TABLE_WIDTH * q
            if (_pair(info, b + 5) | _pair(info, b + 7)) & group != 0:
                more |= _bit(q)
        if more == 0:
            break
        if more & ~singles != 0:
            return False  # a card that is not single could take a card of the group
        group |= more
    live = (_bit(n) - 1) & ~disc & ~out
    spare = _popcount(group & live) - _popcount(group & _must_mask(sb, n, info))
    if spare > ONE_SHOT_MOST:
        return False
    off2 = off | group
    start = live | (group & reach)
    base = _closure_call(sb, n, info, off2, start, disc, removers)
    if not _rules_fire(sb, n, info, base, out, np.bool_(False)):
        return False
    if spare <= 0:
        return True
    d = np.int64(sb[2 * n])
    read = _pair(info, fs + 6) if d < 0 else _pair(info, fs + 8) | _bit(d)
    takes = np.int64(0)
    m = group
    while m != 0:
        q = _low(m)
        m &= m - np.int64(1)
        b = t0 + TABLE_WIDTH * q
        takes |= _pair(info, b) | _pair(info, b + 2)
    cand = disc & reach & ~base & takes & (read | removers)
    if cand == 0:
        return True
    one = spare == 1 or _popcount(cand) == 1
    m1 = cand
    while m1 != 0:
        y1 = _low(m1)
        m1 &= m1 - np.int64(1)
        m2 = np.int64(0) if one else m1
        while True:  # Y = {y1} (one card), else {y1, y2} for each y2 after y1
            if one:
                ys = _bit(y1)
            else:
                if m2 == 0:
                    break
                y2 = _low(m2)
                m2 &= m2 - np.int64(1)
                ys = _bit(y1) | _bit(y2)
            if ys & removers != 0:
                r = _closure_call(sb, n, info, off2, start | ys, disc, removers)
            else:
                r = base | ys  # no new remover: nothing else comes back
            if not _rules_fire(sb, n, info, r, out, np.bool_(False)):
                return False
            if one:
                break
    return True


@_no_refcount
def dead(st, n, info):
    """True only if no winning position is reachable from `st` (module docstring, rule by
    rule); always False when info[INFO_ON] is 0. Mirrors `dead_reason`."""
    if info[INFO_ON] == 0:
        return False
    sb = st.view(np.int8)
    d = np.int64(sb[2 * n])
    j = info[10]
    if j != -2 and (j < 0 or (d >= 0 and d != j)):
        return True  # THE JUICE (tested first: it needs no reach set)
    disc, out = _zone_masks(st, n)
    reach, off = _reach(st, n, info, disc, out)
    if _rules_fire(sb, n, info, reach, out, np.bool_(True)):
        return True
    if _pair(info, fast_start(n) + 4) == 0:
        return False  # no card for the one-shot refinement in this card set
    return _one_shot_dead(st, n, info, reach, off, disc, out)


# --- the lower bound of branch and bound (Campaign Mode's "keep the most cards") -----------
#
# Rulebook H: after a game, "remove all cards with the star symbol from the DISCARD PILE".
# The keep-most search (`kernel.dfs` with best_mode 2, `search.reference_search` with
# bound=True) wants the win whose final DISCARD PILE holds the smallest objective (the star
# cards). `lower_bound` / `objective_bound` give, for a position, a number that every win
# reachable from it reaches or exceeds; a branch whose bound is not below the best win
# already found cannot improve it and is skipped.
#
# Soundness (objective >= 0 per card; the argument is about winning lines only, which is all
# the objective is defined for). The final objective is the sum over the cards in the
# DISCARD PILE of the winning position, so it is at least the sum over any set of cards
# proven to be there:
#
# (a) *Stuck cards*: a card Y now in the DISCARD PILE, not in the reach set R (`reach_set`:
#     on a winning line it never again comes into the DECK or the EQUIPPED CARDS) and not
#     selectable by a step that moves a DISCARD PILE card "out" of any card of R. A card
#     leaves the pile only by a removal step of the card being played (fact (3) above;
#     rulebook G "Discard Pile": the order changes only "unless a CARD ACTION states
#     otherwise"); a removal either retrieves Y (into the DECK or EQUIPPED: excluded by R)
#     or sets it out of play (excluded by the second test; only cards of R are ever played,
#     rulebook D.1). So Y is in the DISCARD PILE at the end. The "out" test ignores depth:
#     that only makes the set smaller, never wrong.
# (b) *MOSQUITOS* (rulebook G): when it is a win condition, both MOSQUITO cards must be in
#     the DISCARD PILE when the game is won.
# (c) *WAKING UP* (rulebook G): "The DESIRED DISH must be in the DISCARD PILE". Once the
#     prophecy is made the dish counts; before it, the dish will be one of the dishes that a
#     PROPHECY step of a card of R names, not out of play and not the THRONE (and THE JUICE
#     if that expansion is a condition), the same candidates as the PROPHECY rule above:
#     the bound adds the smallest objective among them (0 for a candidate already counted).
#
# Every part is certain on every winning line from the position, so the sum is a lower
# bound; it is computed in plain Python (`objective_bound`, over a rules.State) and with
# Numba (`lower_bound`, over the kernel's state), and tests demand the same number.
#
# Layout: after the pruning tables (`info_len(n)`), two entries per card (lo/hi of 31 bits):
# the cards its "move from the DISCARD PILE to out of play" steps can select.

#: Entries per card of the bound's table (see the layout above).
BOUND_WIDTH = 2


def bound_start(n: int) -> int:
    """Where the bound's per-card table starts in `info` for n cards."""
    return info_len(n)


def out_removes(cs: CardSet) -> tuple[frozenset[int], ...]:
    """Per card: the cards its steps can move from the DISCARD PILE out of play (any side)."""
    out = []
    for card in cs.cards:
        sel: set[int] = set()
        for side in (card.passive, card.ignited):
            for st in side.all_steps():
                if st.op == "move" and st.zone in ("discard", "anywhere") and st.to == "out":
                    sel |= _selects(cs, st)
        out.append(frozenset(sel))
    return tuple(out)


def extend_bound(cs: CardSet, info: np.ndarray) -> np.ndarray:
    """Return `info` (win conditions + pruning tables) extended with the bound's table."""
    n = cs.n
    out = np.zeros(bound_start(n) + BOUND_WIDTH * n, np.int32)
    out[: len(info)] = info
    for c, sel in enumerate(out_removes(cs)):
        m = _mask(sel)
        out[bound_start(n) + BOUND_WIDTH * c : bound_start(n) + BOUND_WIDTH * (c + 1)] = [
            m & 0x7FFFFFFF,
            m >> 31,
        ]
    return out


def star_objective(cs: CardSet) -> list[int]:
    """The Campaign Mode objective: 1 for a card with the star symbol, else 0 (rulebook H)."""
    return [int(c.campaign == "star") for c in cs.cards]


def objective_bound(state, objective: list[int] | None = None) -> int:
    """A lower bound on the objective (default `star_objective`) summed over the DISCARD PILE
    of every win reachable from `state` (the argument is in the comment above; rulebook G
    "Discard Pile", G MOSQUITOS, G WAKING UP, H). Plain-Python twin of `lower_bound`.

    A position from which no win is reachable (`dead_reason`) gets some number: the search
    never asks, having pruned it.
    """
    cs = state.cards
    cfg = cs.config
    objective = objective if objective is not None else star_objective(cs)
    a = analyse(cs)
    reach = reach_set(state, a)
    outs = out_removes(cs)
    taken = set().union(*(outs[q] for q in reach))
    certain = {y for y in state.discard if y not in reach and y not in taken}
    if "mosquitos" in cfg.expansions:
        certain |= set(cs.ids_named("MOSQUITO"))
    extra = 0
    d = state.desired
    if cfg.waking_up:
        if d >= 0:
            certain.add(d)
        else:
            throne = (cs.ids_named("THRONE") or [-1])[0]
            named = set().union(*(a.dishes[q] for q in reach))
            cand = {r for r in named if state.zone[r] != OUT and r != throne}
            if "the_juice" in cfg.expansions:
                cand &= set(cs.ids_named("THE JUICE")[:1])
            if cand:
                extra = min(0 if r in certain else objective[r] for r in cand)
    return sum(objective[c] for c in certain) + extra


@_no_refcount
def lower_bound(st, n, info, objective):
    """The Numba twin of `objective_bound` over the kernel's state (objective: int64 [n])."""
    sb = st.view(np.int8)
    reach = reach_mask(st, n, info)  # (a call: a third inlined copy would compile slower)
    _disc, out = _zone_masks(st, n)
    b0 = INFO_LISTS + 2 * n + TABLE_WIDTH * n  # bound_start(n)
    taken = np.int64(0)
    for c in range(n):
        if _has(reach, c):
            taken |= _pair(info, b0 + BOUND_WIDTH * c)
    certain = np.int64(0)
    for j in range(_pile_len(sb, n)):
        y = _pile_card(sb, n, j)
        if not _has(reach, y) and not _has(taken, y):
            certain |= _bit(y)
    if info[3] != -1:
        certain |= _pair(info, 3)
    extra = np.int64(0)
    d = np.int64(sb[2 * n])
    if info[0] == 1:
        if d >= 0:
            certain |= _bit(d)
        else:
            t0 = INFO_LISTS + 2 * n
            named = np.int64(0)
            for i in range(info[INFO_N_PROPHETS]):
                q = info[INFO_LISTS + n + i]
                if _has(reach, q):
                    named |= _pair(info, t0 + TABLE_WIDTH * q + 11)
            cand = named & ~out
            if info[2] >= 0:
                cand &= ~_bit(info[2])
            j = info[10]
            if j != -2:
                cand &= _bit(j) if j >= 0 else np.int64(0)
            first = True
            for c in range(n):
                if _has(cand, c):
                    v = np.int64(0) if _has(certain, c) else np.int64(objective[c])
                    if first or v < extra:
                        extra = v
                        first = False
    total = extra
    for c in range(n):
        if _has(certain, c):
            total += objective[c]
    return total


@_no_refcount
def bound_reaches(st, n, info, objective, target):
    """True iff `lower_bound(st, ...) >= target`, skipping the reach set when even counting
    every card of the DISCARD PILE, both MOSQUITOs and the dearest card (for the WAKING UP
    dish) stays below target: the bound never counts more than that."""
    sb = st.view(np.int8)
    most = np.int64(0)
    seen = np.int64(0)
    for j in range(_pile_len(sb, n)):
        y = _pile_card(sb, n, j)
        seen |= _bit(y)
        most += objective[y]
    if info[3] != -1:
        mos = _pair(info, 3)
        for c in range(n):
            if _has(mos, c) and not _has(seen, c):
                most += objective[c]
    if info[0] == 1:
        top = np.int64(0)
        for c in range(n):
            top = max(top, np.int64(objective[c]))
        most += top
    if most < target:
        return False
    return lower_bound(st, n, info, objective) >= target


# --- skipping the check on a child that provably stays alive (kernel.dfs, kernel.shortest) ---
#
# `dead` is the dearest part of a child after the turn itself, and most children are not
# dead. `still_alive(parent, child)` proves, from a few comparisons, that a child of a
# parent that is *not* dead is not dead either, so the search skips `dead` on it. It says
# True only when all of these hold:
#
# (a) the child's DISCARD PILE is the parent's with k >= 0 cards X put on top (the parent's
#     pile, bottom first, is a prefix of the child's), the same cards are out of play and
#     the DESIRED DISH is the same;
# (b) every card of X is *inert* (`inert_cards`): it has no removal step, and `dead` never
#     asks whether it is in R: not a PRINCESS, nor the THRONE (WAKING UP's rules), ALL,
#     the DREAM GUIDE or a GIFT when these are win conditions; while no prophecy is made,
#     not a card with a PROPHECY step, a dish such a step names or THE JUICE; once it is
#     made, not the DESIRED DISH. A card set with any depth-limited retrieval (`near`) has
#     no inert cards, so there (a) must hold with k = 0;
# (c) if k > 0 and the DECK rule is in use: the child's cards outside the DISCARD PILE and
#     out of play, less one, are at least the PRINCESS's ignited NUMBER;
# (d) each card with removals only on its passive side that no step turns back
#     (`passive_only`) has the same side up in both, so both start from the same cards
#     ignited for good (a KING played passive is ignited in the child: its retrieval of the
#     PRINCESS is gone, and the child may be dead);
# (e) under WAKING UP's rules the THRONE is ignited and EQUIPPED in both or in neither (the
#     THRONE rule reads that, beside R).
#
# Why. Write R_p, R_c for the reach sets (`reach_set`) and I_p, I_c for the cards in the
# DECK, equipped or in the PLAY AREA. By (a) the cards of X were in I_p (a card cannot be in
# the pile twice, and none came from out of play), so I_c = I_p - X and the child's pile is
# the parent's plus X. With no depth-limited retrieval the closure ignores burial: R is I
# plus every pile card that a deep retrieval of a remover in R (not switched off) can take.
# For one set `off`: R_c is within R_p (by induction on the closure: a card added to R_c is
# taken by a remover of R_c, so of R_p, from the parent's pile, or lies in X, within I_p),
# and R_p - X is within R_c (a card added to R_p is taken by a remover of R_p, which is not
# in X, so it is in R_c, from the parent's pile, which the child's holds too). So R_c and
# R_p hold the same removers and the same cards of the `must` list of `reach_set` (none is
# inert), and the spent-retriever rounds switch off the same cards (starting, by (d), from
# the same cards ignited for good): the final sets obey
# R_p - X <= R_c <= R_p as well. Each rule of `dead` reads of R only whether a non-inert
# card is in it, except DECK, which reads |R| >= |I_c| (so (c) keeps it from firing); the
# rest reads the out-of-play cards and the dish (equal by (a)) and the played marks and
# GIFT plays, which only grow and only ever make a position less dead. So every rule
# that fires on the child fires on the parent: the child is not dead.
# The one-shot refinement keeps this: the cards of X have no removal step, so neither S,
# nor P (X was in I_p and none of it is in S), nor the cards of S that must be there
# change; the same induction gives R'_Y(p) - X <= R'_Y(c) <= R'_Y(p) for each Y, the
# child's candidates are the parent's plus at most cards of X (not read), and DECK is not
# used, so a child that every R'_Y proves dead has a parent that they prove dead too.
# (k = 0 is the old `kernel._same_pile`: the child's pile, out cards and dish are the
# parent's, so `dead` reads the same R.)
#
# Layout: after the bound's table, SKIP_WIDTH entries: the inert cards while no prophecy
# is made, then once it is made (the DESIRED DISH is taken out by the kernel), lo/hi pairs.

#: Entries of the skip table (see the layout above).
SKIP_WIDTH = 4


def skip_start(n: int) -> int:
    """Where the skip table starts in `info` for n cards."""
    return bound_start(n) + BOUND_WIDTH * n


def read_cards(cs: CardSet) -> tuple[frozenset[int], frozenset[int]]:
    """The cards whose place in R some rule of `dead` reads, or that have a removal step:
    (while no prophecy is made, once it is made, before adding the DESIRED DISH)."""
    a = analyse(cs)
    n = cs.n
    cfg = cs.config
    ids = cs.ids_named
    read = {c for c in range(n) if a.removes[c]} | set(ids("PRINCESS"))
    if cfg.waking_up:
        read |= set(ids("THRONE")[:1]) | throne_returners(cs)
    for exp, name in (("all", "ALL"), ("dream_guide", "DREAM GUIDE")):
        if exp in cfg.expansions:
            read |= set(ids(name)[:1])
    if "gifts" in cfg.expansions:
        read |= {i for i, c in enumerate(cs.cards) if "GIFT" in c.classes}
    prophecy = {c for c in range(n) if a.dishes[c]}
    prophecy |= set().union(*a.dishes) | set(ids("THE JUICE")[:1])
    return frozenset(read | prophecy), frozenset(read)


def inert_cards(cs: CardSet) -> tuple[frozenset[int], frozenset[int]]:
    """The cards that `still_alive` lets onto the DISCARD PILE (see (b) above): (while no
    prophecy is made, once it is made, before taking out the DESIRED DISH)."""
    a = analyse(cs)
    n = cs.n
    if any(a.near[c] for c in range(n)):
        return frozenset(), frozenset()  # burial would matter: see (b)
    before, after = read_cards(cs)
    every = frozenset(range(n))
    return every - before, every - after


def extend_skip(cs: CardSet, info: np.ndarray) -> np.ndarray:
    """Return `info` (up to the bound's table) extended with the skip table."""
    n = cs.n
    out = np.zeros(skip_start(n) + SKIP_WIDTH, np.int32)
    out[: len(info)] = info
    row = []
    for m in map(_mask, inert_cards(cs)):
        row += [m & 0x7FFFFFFF, m >> 31]
    out[skip_start(n) :] = row
    return out


# --- the cards whose play marks the kernel keeps ------------------------------------------------
#
# The kernel's state keeps a card's play mark (layout.PLAYED) only for the cards whose play
# count a win condition reads (rules._info's "tracked": the DREAM GUIDE, and the GIFT cards
# when three different ones must be played), as rules.State.key() does. The kernel finds
# them as a mask (lo/hi pair) at info[mark_start(n)], after the skip table.


@njit(cache=True, inline="always")
def mark_start(n):
    """Where the tracked-cards mask starts in `info` for n cards (skip_start(n) + SKIP_WIDTH)."""
    return INFO_LISTS + (2 + TABLE_WIDTH + BOUND_WIDTH) * n + SKIP_WIDTH


@njit(cache=True, inline="always")
def fast_start(n):
    """Where the remover masks start in `info` for n cards (mark_start(n) + 2)."""
    return mark_start(n) + 2


def extend_marks(cs: CardSet, info: np.ndarray) -> np.ndarray:
    """Return `info` (up to the skip table) extended with the tracked-cards mask."""
    out = np.zeros(skip_start(cs.n) + SKIP_WIDTH + 2, np.int32)
    out[: len(info)] = info
    # imported here, not at module level: no jitted code uses it, so the Numba caches need
    # not depend on cards.py (bombsolve.solvers.common.numba_deps follows module-level imports)
    from bombsolve.solvers.allisbomb.cards.cards import win_cards

    m = _mask(win_cards(cs)["tracked"])
    out[skip_start(cs.n) + SKIP_WIDTH :] = [m & 0x7FFFFFFF, m >> 31]
    return out


def extend_fast(cs: CardSet, info: np.ndarray) -> np.ndarray:
    """Return `info` (up to the tracked-cards mask) extended with masks for `dead`'s
    rounds (lo/hi pairs at fast_start(n)): the cards with a removal step (the removers
    listed at INFO_LISTS), those of them that are single, the seeds of the one-shot group
    (`one_shot_seeds`; none: `dead` skips the refinement), `read_cards`, the cards
    with removals only on their passive side that no step turns back (`passive_only`), and
    `throne_returners` and `win_movers` (eight masks), then `win_numbers` (n entries)."""
    a = analyse(cs)
    n = cs.n
    out = np.zeros(fast_start(n) + 16 + n, np.int32)
    out[: len(info)] = info
    rm = _mask(c for c in range(n) if a.removes[c])
    single = _mask(c for c in range(n) if a.removes[c] and a.single[c])
    before, after = read_cards(cs)
    passive = _mask(c for c in range(n) if a.passive_only[c])
    masks = (rm, single, _mask(one_shot_seeds(cs)), _mask(before), _mask(after), passive)
    masks += (_mask(throne_returners(cs)), _mask(win_movers(cs)))
    out[fast_start(n) : fast_start(n) + 16] = [h for m in masks for h in (m & 0x7FFFFFFF, m >> 31)]
    out[fast_start(n) + 16 :] = a.win_numbers
    return out


def _throne_held(state) -> bool:
    """The THRONE is ignited and EQUIPPED (what (e) above compares)."""
    t = (state.cards.ids_named("THRONE") or [-1])[0]
    return t >= 0 and state.zone[t] in (EQUIP0, EQUIP1) and state.ignited[t]


def skips_dead_check(parent, child) -> bool:
    """Plain-Python twin of `still_alive` over two `rules.State`s ((a)-(e) above)."""
    cs = child.cards
    k = len(child.discard) - len(parent.discard)
    if k < 0 or child.discard[: len(parent.discard)] != parent.discard:
        return False
    if child.desired != parent.desired:
        return False
    if [z == OUT for z in child.zone] != [z == OUT for z in parent.zone]:
        return False
    a = analyse(cs)
    if ignited_for_good(child, a) != ignited_for_good(parent, a):
        return False
    if cs.config.waking_up and _throne_held(child) != _throne_held(parent):
        return False
    if k == 0:
        return True
    before, after = inert_cards(cs)
    inert = before if child.desired < 0 else after - {child.desired}
    if not set(child.discard[len(parent.discard) :]) <= inert:
        return False
    live = sum(1 for z in child.zone if z not in (DISCARD, OUT))
    return a.princess_wins == 2 or a.princess_number <= live - 1


@njit(cache=True, inline="always")
def _same_bytes_from(a, b, first, end):
    """True if rows a and b (uint64) hold the same bytes first..end-1 (end - first <= 8 *
    len): the words are compared whole, with the bytes outside the range masked off, so
    a pile of k cards costs about k / 8 comparisons instead of k."""
    diff = np.uint64(0)
    for w in range(first // 8, (end + 7) // 8):
        x = a[w] ^ b[w]
        lo = first - 8 * w  # bytes of this word before the range (> 0 only in the first word)
        if lo > 0:
            x &= ~np.uint64(0) << np.uint64(8 * lo)
        hi = end - 8 * w  # bytes of this word up to the range's end (< 8 only in the last)
        if hi < 8:
            x &= (np.uint64(1) << np.uint64(8 * hi)) - np.uint64(1)
        diff |= x
    return diff == np.uint64(0)


@njit(cache=True, inline="always")
def may_win_now(st, n, info):
    """`can_win_now` of the row `st`: a card of `win_movers` (info at fast_start(n) + 14)
    among the EQUIPPED CARDS of the player whose turn it is, whose `win_numbers` (info from
    fast_start(n) + 16) the DECK holds."""
    sb = st.view(np.int8)
    act = np.int64(sb[2 * n + 1] & 1)
    m = np.int64(st[key_words(n) + W_MASKS + EQUIP0 + act]) & _pair(info, fast_start(n) + 14)
    deck = np.int64(sb[8 * key_words(n) + H_DECK])
    at = fast_start(n) + 16
    while m != 0:
        c = np.int64(trailing_zeros(np.uint64(m)))
        if info[at + c] <= deck:
            return True
        m &= m - 1
    return False


@njit(cache=True, inline="always")
def still_alive(a, b, n, info):
    """True only if position b, a child of a position a that is not dead, is not dead
    either ((a)-(e) above); the search then skips `dead` on it. Twin of `skips_dead_check`."""
    ab = a.view(np.int8)
    bb = b.view(np.int8)
    la = _pile_len(ab, n)
    lb = _pile_len(bb, n)
    d = np.int64(bb[2 * n])
    if lb < la or d != ab[2 * n]:
        return False
    disc_a, out_a = _zone_masks(a, n)
    disc_b, out_b = _zone_masks(b, n)
    if out_a != out_b:
        return False  # a card went out of play (none comes back)
    if _ignited_for_good(ab, n, info) != _ignited_for_good(bb, n, info):
        return False  # (d): a passive-only remover turned ignited
    t = info[2]
    if info[0] == 1 and t >= 0:
        za, zb = ab[n + t], bb[n + t]
        held_a = (za & SIDE) != 0 and 1 <= (za & ZONE) <= 2
        held_b = (zb & SIDE) != 0 and 1 <= (zb & ZONE) <= 2
        if held_a != held_b:
            return False  # (e): the THRONE rule reads whether it is ignited and EQUIPPED
    # the parent's pile (bottom first from byte n - 1) is the bottom of the child's
    if not _same_bytes_from(a, b, n - la, n):
        return False
    # so the cards put on top are the child's pile cards that the parent's pile lacks
    s = INFO_LISTS + (2 + TABLE_WIDTH + BOUND_WIDTH) * n  # skip_start(n)
    inert = _pair(info, s) if d < 0 else _pair(info, s + 2) & ~_bit(d)
    if disc_b & ~disc_a & ~inert != 0:
        return False
    if lb == la or info[INFO_PRINCESS_WINS] == 2:
        return True
    return info[INFO_PRINCESS_NUMBER] <= n - lb - _popcount(out_b) - 1
