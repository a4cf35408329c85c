"""Sound dead-position pruning for the All Is Bomb search (issue 2 part 4, issue 3).

A position is *dead* when no winning position can be reached from it. The exhaustive
search (`kernel.dfs`) may then treat it as a loss without exploring it: a win is a
reachable winning position, so skipping positions that reach none never changes a
verdict. The check must therefore be **sound** (True only when there really is no
win); it need not find every dead position.

Static analysis of the card set (`analyse`, from the card file's steps, so it holds for
any `--cards` file): for every card, which cards one of its steps can take *out of the
DISCARD PILE* back into play (`move` from zone `discard` to the DECK or the EQUIPPED
CARDS; by name or class only the matching cards, by position any card); which dishes its
PROPHECY steps can name; and whether it is *spent* by using its retrieval (the retrieval
is only on its ignited side, and that side has no step acting on the played card itself
nor an equip-for-the-win: after such a play the ignite phase discards it, or a prophecy
sets it aside).

Facts of the engine the argument rests on (rulebook D, "Discard Pile", data/CARDS.md):

1. A card acts only when played, and only an EQUIPPED CARD can be played (D.1).
2. Nothing ever leaves "out of play": no step selects from that zone.
3. A card leaves the DISCARD PILE only by a `move` step with zone `discard` of the card
   being played ("You can't change the order of the cards in the DISCARD PILE, unless a
   CARD ACTION states otherwise"); igniting or turning back a discarded card leaves it
   there.

Hence the *reach* set R, computed now as the least fixpoint of "cards in the DECK, the
EQUIPPED CARDS or the PLAY AREA, plus cards of the DISCARD PILE that a step of a card in
R can retrieve", contains every card that will ever again be in the DECK or equipped (or
act), on any line of play: by induction over turns, a card enters the DECK or the
EQUIPPED CARDS from the DISCARD PILE only through a step of a played card, which is in R.

Refinement (spent retrievers): let r be a card that must be in the DECK or equipped when
the game is won (the PRINCESS; ALL; the THRONE under WAKING UP's rules; the DESIRED DISH
under the base rules) and whose retrieval spends it. If no *other* card of R can retrieve
r, then on a winning line r never plays its ignited side (it would end in the DISCARD PILE
or out of play for good), so its retrieval steps never run and R can be recomputed
without them. Repeated until nothing changes; each round is sound given the previous.

The rules (each returns "dead"; a necessary condition of every win that fails):

- PRINCESS (E, "Playing the Princess"): the win is made by the ignited PRINCESS's
  equip-for-the-win step, so she must still be playable: not in R -> dead. A game without
  a PRINCESS, or whose PRINCESS has no equip-for-the-win step on her ignited side, has no
  win at all.
- DECK (D.2, E "Losing the Game"): in the winning turn the PRINCESS draws her ignited
  NUMBER from a DECK that holds at most the cards of R other than her: more -> dead.
- DISH (E, "Desired Dish"): the base rules need the DESIRED DISH ignited and EQUIPPED by
  the PRINCESS, so it must come out of the DECK: not in R -> dead. WAKING UP (G) needs it
  in the DISCARD PILE: out of play -> dead.
- THRONE (G, "Waking Up"): the ignited PRINCESS must EQUIP the ignited THRONE: not in R
  (or not in the game) -> dead.
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

The tables travel in the kernel's `info` array (indices `INFO_*` below, after the 16
win-condition entries of `cards.win_info`), so the search's signatures do not change.
`dead` is the Numba predicate the search calls; `dead_reason` is the same analysis in
plain Python over a `rules.State`, naming the rule that fired (tests compare the two).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

if TYPE_CHECKING:
    from solvers.allisbomb.cards import CardSet
    from solvers.allisbomb.config import GameConfig

# Zones, as in the kernel's state layout and rules.py (kept here to avoid an import cycle).
DECK, EQUIP0, EQUIP1, DISCARD, OUT, PLAY = 0, 1, 2, 3, 4, 5

#: info[INFO_ON]: 1 = the search prunes dead positions, 0 = it does not.
INFO_ON = 16
#: info[INFO_PRINCESS_WINS]: 1 if the PRINCESS's ignited side has an equip-for-the-win step,
#: 0 if not (or the game has no PRINCESS), 2 if a card file has several PRINCESS cards (the
#: PRINCESS and DECK rules are then not used).
INFO_PRINCESS_WINS = 17
#: info[INFO_PRINCESS_NUMBER]: the NUMBER of the PRINCESS's ignited side (0 if none).
INFO_PRINCESS_NUMBER = 18
#: info[INFO_TABLE + 5*c + k]: per card c, k = 0/1 retrieval mask lo/hi (31 bits each),
#: 2 spent flag, 3/4 mask of the dishes its PROPHECY steps name, lo/hi.
INFO_TABLE = 24
TABLE_WIDTH = 5
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


def info_len(n: int) -> int:
    """Length of the `info` array for n cards (win conditions + pruning tables)."""
    return INFO_TABLE + TABLE_WIDTH * n


@dataclass(frozen=True)
class Analysis:
    """What the card set can do, card by card (see the module docstring).

    retrieves[c]: the card ids a step of card c can take out of the DISCARD PILE into the
    DECK or the EQUIPPED CARDS. spent[c]: using that retrieval discards or sets aside c.
    dishes[c]: the card ids its PROPHECY steps can name. princess_wins: the PRINCESS's
    ignited side has an equip-for-the-win step (1), has not or there is no PRINCESS (0), or
    the game has several PRINCESS cards (2: the PRINCESS and DECK rules are not used);
    princess_number: that side's NUMBER.
    """

    retrieves: tuple[frozenset[int], ...]
    spent: tuple[bool, ...]
    dishes: tuple[frozenset[int], ...]
    princess_wins: int
    princess_number: int


_ANALYSES: dict[int, tuple[CardSet, Analysis]] = {}


def analyse(cs: CardSet) -> Analysis:
    """Analyse the steps of every card of `cs` (plain Python, from the card file's steps).

    Cached per card set (the search asks for it at every position).
    """
    hit = _ANALYSES.get(id(cs))
    if hit is not None and hit[0] is cs:
        return hit[1]
    a = _analyse(cs)
    _ANALYSES[id(cs)] = (cs, a)  # holding cs keeps its id from being reused
    return a


def _analyse(cs: CardSet) -> Analysis:
    n = cs.n
    everyone = frozenset(range(n))
    retrieves = []
    spent = []
    dishes = []
    for card in cs.cards:
        got: set[int] = set()
        ret_side = [False, False]
        named: set[int] = set()
        for s, side in enumerate((card.passive, card.ignited)):
            for st in side.steps:
                if st.op == "move" and st.zone == "discard" and st.to != "out":
                    ret_side[s] = True
                    if st.pick == "name":
                        got.update(cs.ids_named(st.name))
                    elif st.pick == "class":
                        got.update(i for i, c in enumerate(cs.cards) if st.cls in c.classes)
                    else:  # by position (top, bottom, nth, any): any card can come to it
                        got.update(everyone)
                elif st.op == "prophecy":
                    ids = cs.ids_named(st.dish)
                    if ids:  # the kernel and the engine name the first card of that name
                        named.add(ids[0])
        ign = card.ignited.steps
        self_safe = not any(st.zone == "play" or st.op == "equip_win" for st in ign)
        spent.append(ret_side[1] and not ret_side[0] and self_safe)
        retrieves.append(frozenset(got))
        dishes.append(frozenset(named))
    ids = cs.ids_named("PRINCESS")
    wins, number = 0, 0
    if len(ids) > 1:
        wins = 2  # which one wins is not the same in kernel and engine: assume nothing
    elif ids:
        side = cs.cards[ids[0]].ignited
        wins = int(any(st.op == "equip_win" for st in side.steps))
        number = side.number
    return Analysis(tuple(retrieves), tuple(spent), tuple(dishes), wins, number)


def _mask(ids) -> int:
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def extend_info(cs: CardSet, info: np.ndarray) -> np.ndarray:
    """Return `info` (the 16 win-condition entries) extended with the pruning tables."""
    a = analyse(cs)
    out = np.zeros(info_len(cs.n), np.int32)
    out[: len(info)] = info
    out[INFO_ON] = 1
    out[INFO_PRINCESS_WINS] = a.princess_wins
    out[INFO_PRINCESS_NUMBER] = a.princess_number
    for c in range(cs.n):
        b = INFO_TABLE + TABLE_WIDTH * c
        r, d = _mask(a.retrieves[c]), _mask(a.dishes[c])
        out[b : b + 5] = (r & 0x7FFFFFFF, r >> 31, int(a.spent[c]), d & 0x7FFFFFFF, d >> 31)
    return out


# --- the reference predicate (plain Python over rules.State) ----------------------------------


def _reach(live: set[int], discard: set[int], a: Analysis, off: set[int]) -> set[int]:
    """The least fixpoint R (module docstring), ignoring the retrievals of cards in `off`."""
    reach = set(live)
    while True:
        can = set().union(*(a.retrieves[c] for c in reach if c not in off))
        new = (discard & can) - reach
        if not new:
            return reach
        reach |= new


def reach_set(state, a: Analysis | None = None) -> set[int]:
    """The cards that can ever again be in the DECK or equipped on a winning line."""
    cs = state.cards
    a = a or analyse(cs)
    cfg = cs.config
    n = cs.n
    live = {c for c in range(n) if state.zone[c] in (DECK, EQUIP0, EQUIP1, PLAY)}
    discard = {c for c in range(n) if state.zone[c] == DISCARD}
    ids = cs.ids_named
    must = set(ids("PRINCESS")[:1]) if a.princess_wins != 2 else set()
    if cfg.waking_up:
        must |= set(ids("THRONE")[:1])
    elif state.desired >= 0:
        must.add(state.desired)
    if "all" in cfg.expansions:
        must |= set(ids("ALL")[:1])
    off: set[int] = set()
    reach = _reach(live, discard, a, off)
    while True:
        more = set()
        for r in must & reach:
            if a.spent[r] and r not in off:
                others = set().union(*(a.retrieves[q] for q in reach if q != r and q not in off))
                if r not in others:
                    more.add(r)
        if not more:
            return reach
        off |= more
        reach = _reach(live, discard, a, off)


def dead_reason(state) -> str | None:
    """Name the rule (one of `RULES`) proving no win is reachable from `state`, or None.

    The plain-Python twin of `dead` (same analysis, written over sets and card names).
    """
    cs = state.cards
    cfg = cs.config
    a = analyse(cs)
    reach = reach_set(state, a)
    ids = cs.ids_named
    first = lambda name: (ids(name) or [-1])[0]  # noqa: E731
    p = first("PRINCESS")
    if a.princess_wins != 2:
        if p < 0 or not a.princess_wins or p not in reach:
            return "PRINCESS"
        if a.princess_number > len(reach) - 1:
            return "DECK"
    d = state.desired
    throne = first("THRONE") if cfg.waking_up else -1
    if cfg.waking_up:
        if d >= 0 and state.zone[d] == OUT:
            return "DISH"
        if throne < 0 or throne not in reach:
            return "THRONE"
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


@njit(cache=True, inline="always")
def _pair(lo, hi):
    return np.int64(lo) | (np.int64(hi) << np.int64(31))


@njit(cache=True, inline="always")
def _has(mask, c):
    return (mask >> np.int64(c)) & np.int64(1) == 1


@njit(cache=True)
def _popcount(m):
    k = 0
    while m != 0:
        m &= m - np.int64(1)
        k += 1
    return k


@njit(cache=True)
def _closure(live, disc, info, n, off):
    reach = live
    while True:
        can = np.int64(0)
        for c in range(n):
            if _has(reach, c) and not _has(off, c):
                b = INFO_TABLE + TABLE_WIDTH * c
                can |= _pair(info[b], info[b + 1])
        new = disc & can & ~reach
        if new == 0:
            return reach
        reach |= new


@njit(cache=True)
def reach_mask(st, n, info):
    """The reach set R of `st` as a bit mask of card ids (see `reach_set`)."""
    H = 5 * n
    one = np.int64(1)
    live = np.int64(0)
    disc = np.int64(0)
    for c in range(n):
        z = st[n + c]
        if z == DISCARD:
            disc |= one << np.int64(c)
        elif z != OUT:
            live |= one << np.int64(c)
    must = np.int64(0)
    if info[1] >= 0 and info[INFO_PRINCESS_WINS] != 2:
        must |= one << np.int64(info[1])
    if info[0] == 1:
        if info[2] >= 0:
            must |= one << np.int64(info[2])
    elif st[H + 2] >= 0:
        must |= one << np.int64(st[H + 2])
    if info[11] >= 0:
        must |= one << np.int64(info[11])
    off = np.int64(0)
    reach = _closure(live, disc, info, n, off)
    while True:
        more = np.int64(0)
        for r in range(n):
            if not _has(must, r) or not _has(reach, r) or _has(off, r):
                continue
            if info[INFO_TABLE + TABLE_WIDTH * r + 2] == 0:
                continue
            others = np.int64(0)
            for q in range(n):
                if q != r and _has(reach, q) and not _has(off, q):
                    b = INFO_TABLE + TABLE_WIDTH * q
                    others |= _pair(info[b], info[b + 1])
            if not _has(others, r):
                more |= one << np.int64(r)
        if more == 0:
            return reach
        off |= more
        reach = _closure(live, disc, info, n, off)


@njit(cache=True)
def dead(st, n, info):
    """True only if no winning position is reachable from `st` (module docstring, rule by
    rule); always False when info[INFO_ON] is 0. Mirrors `dead_reason`."""
    if info[INFO_ON] == 0:
        return False
    H = 5 * n
    reach = reach_mask(st, n, info)
    p = info[1]
    if info[INFO_PRINCESS_WINS] != 2:
        if p < 0 or info[INFO_PRINCESS_WINS] == 0 or not _has(reach, p):
            return True  # PRINCESS
        if info[INFO_PRINCESS_NUMBER] > _popcount(reach) - 1:
            return True  # DECK
    d = st[H + 2]
    t = info[2]
    if info[0] == 1:
        if d >= 0 and st[n + d] == OUT:
            return True  # DISH
        if t < 0 or not _has(reach, t):
            return True  # THRONE
    elif d >= 0 and not _has(reach, d):
        return True  # DISH
    j = info[10]
    if d < 0:
        ok = False
        for q in range(n):
            if not _has(reach, q):
                continue
            b = INFO_TABLE + TABLE_WIDTH * q
            named = _pair(info[b + 3], info[b + 4])
            for r in range(n):
                if not _has(named, r):
                    continue
                if info[0] == 1:
                    good = st[n + r] != OUT and r != t
                else:
                    good = _has(reach, r)
                if good and (j == -2 or r == j):
                    ok = True
        if not ok:
            return True  # PROPHECY
    if j != -2 and (j < 0 or (d >= 0 and d != j)):
        return True  # THE JUICE
    if info[3] != -1:
        mos = _pair(info[3], info[4])
        if mos == 0:
            return True  # MOSQUITOS
        for c in range(n):
            if _has(mos, c) and st[n + c] == OUT:
                return True  # MOSQUITOS
    g = info[5]
    if g != -2 and (g < 0 or (st[4 * n + g] == 0 and not _has(reach, g))):
        return True  # DREAM GUIDE
    if info[8] > 0:
        gifts = _pair(info[6], info[7])
        if info[9] == 1:
            cnt = 0
            for c in range(n):
                if _has(gifts, c) and (st[4 * n + c] == 1 or _has(reach, c)):
                    cnt += 1
            if cnt < info[8]:
                return True  # GIFTS
        elif st[H + 4] < info[8] and (gifts & reach) == 0:
            return True  # GIFTS
    a = info[11]
    if a != -2 and (a < 0 or not _has(reach, a)):
        return True  # ALL
    return False


# --- switching it off (for differential tests and benchmarks) --------------------------------


def pruning_enabled(config: GameConfig) -> bool:
    """True if the searches (kernel and reference) prune dead positions of `config`'s game."""
    from solvers.allisbomb.solver import compiled

    return bool(compiled(config).prog.info[INFO_ON])


@contextmanager
def pruning(config: GameConfig, on: bool) -> Iterator[None]:
    """Within the block, the searches prune dead positions of `config`'s game iff `on`.

    The switch is `info[INFO_ON]` of the solver's cached compiled program (the kernel reads
    it there; `search.reference_search` asks `pruning_enabled`). On by default.
    """
    from solvers.allisbomb.solver import compiled

    info = compiled(config).prog.info
    old = int(info[INFO_ON])
    info[INFO_ON] = int(on)
    try:
        yield
    finally:
        info[INFO_ON] = old
