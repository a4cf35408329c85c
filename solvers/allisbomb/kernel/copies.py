"""Copy-symmetric keys: one transposition-table entry for positions that differ only by
which copy of a duplicated card sits where.

The base game has two copies each of JOKER, MENDER, RASCAL, LIBRARIAN and GUARDIAN
(rulebook G, "Blitz", names the pairs). Copies are the same card: the rules read a card
through its NAME, CLASS, NUMBER, KEYWORD and its two sides, never through which copy it
is. So renaming the copies of a position (the JOKER on top of the DECK becomes the other
JOKER and back) gives a position with the same moves, renamed, and the same verdict: a
search may keep one table entry for all the renamings of a position. The verdict search
(`kernel.dfs`, `search.reference_search`) keys its table by `search_key`: the position
with the copies of each card renamed by where they lie (details there). The states it
plays are never renamed, so its winning line is the line of the real deal. Every key is
the key of a renaming of the position, so positions with one key have one verdict: the
search stays exact.

A group of copies is used only if no rule names one of its cards by its id (the dish of a
PROPHECY step, the target of an equip-for-the-win step, a `next_to` or `of` card, a card a win condition reads:
`program.win_info`'s ids, `cards.win_cards`' tracked cards); such a group stays as it is.
The keep-most search (campaign) does not use the keys: its objective is given per card id.

Table in the kernel's `info` array, after everything else: at offset T, info[T] = G,
info[T+1], info[T+2] = the mask (lo/hi of 31 bits) of the first ids a of the pairs whose
copies are a and a + 1 (copies are consecutive ids, cards.py: every pair of the rulebook),
then the G other groups, each as its size k and its k card ids ascending; the last entry
of `info` is T, or 0 when the keys are off (no group, or switched off by
`program.copy_keys`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from bombsolve.solvers.allisbomb.kernel.layout import W_MASKS, ZONE, key_words
from bombsolve.solvers.common.numba_jit import njit
from bombsolve.solvers.common.numba_opt import linked_helper

if TYPE_CHECKING:
    from bombsolve.solvers.allisbomb.cards.cards import CardSet
    from bombsolve.solvers.allisbomb.rules.rules import State

#: Digest of the project files this module imports (bombsolve.solvers.common.numba_deps): a change to
#: them changes this file too, so Numba rebuilds its on-disk cache of this module.
NUMBA_DEPENDS_ON = "da75f7c3e94559c1"

#: Zones as in layout.py (kept here to avoid an import of the kernel).
_DECK, _DISCARD = 0, 3
#: The ids of program.win_info that name one card (PRINCESS, THRONE, DREAM GUIDE, THE
#: JUICE, ALL) and the step row columns that hold one card id (program.step_row: 12 a
#: PROPHECY dish or equip-for-the-win target, 27 `next_to`, 28 `of`).
_WIN_IDS = (1, 2, 5, 10, 11)
_REF_COLUMNS = (12, 27, 28)


def copy_groups(cs: CardSet, info: np.ndarray, steps: np.ndarray) -> list[list[int]]:
    """The groups of card ids (two or more, ascending) that are copies of one card and that
    no rule names by id (module docstring); `info` is program.win_info's array (or longer),
    `steps` the compiled step rows."""
    # imported here, not at module level: no jitted code uses it, so the Numba cache of
    # the kernel need not depend on cards.py (bombsolve.solvers.common.numba_deps)
    from bombsolve.solvers.allisbomb.cards.cards import win_cards

    named = {int(info[i]) for i in _WIN_IDS if info[i] >= 0}
    for col in _REF_COLUMNS:
        if col < steps.shape[1]:
            named |= {int(r) for r in steps[:, col] if r >= 0}
    named |= set(win_cards(cs)["tracked"])
    groups: dict[int, list[int]] = {}
    for c, card in enumerate(cs.cards):
        for first, g in groups.items():
            if cs.cards[first] == card:
                g.append(c)
                break
        else:
            groups[c] = [c]
    return [g for g in groups.values() if len(g) > 1 and not named & set(g)]


def extend_copies(cs: CardSet, info: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """Return `info` extended with the table of copy groups (layout in the docstring)."""
    groups = copy_groups(cs, info, steps)
    pairs = [g[0] for g in groups if len(g) == 2 and g[1] == g[0] + 1]
    rest = [g for g in groups if g[0] not in pairs]
    m = sum(1 << a for a in pairs)
    table = [len(rest), m & 0x7FFFFFFF, m >> 31]
    for g in rest:
        table += [len(g), *g]
    out = np.zeros(len(info) + len(table) + 1, np.int32)
    out[: len(info)] = info
    out[len(info) : len(info) + len(table)] = table
    out[-1] = len(info) if groups else 0
    return out


def copies_on(info: np.ndarray) -> bool:
    """True if the table of copy groups at the end of `info` is switched on."""
    return bool(info[-1])


def groups_of(info: np.ndarray) -> list[list[int]]:
    """The copy groups of the table at the end of `info` (empty when switched off)."""
    t = int(info[-1])
    if t == 0:
        return []
    m = int(info[t + 1]) | int(info[t + 2]) << 31
    out = [[a, a + 1] for a in range(64) if m >> a & 1]
    i = t + 3
    for _ in range(int(info[t])):
        k = int(info[i])
        out.append([int(c) for c in info[i + 1 : i + 1 + k]])
        i += 1 + k
    return sorted(out)


# --- the reference (plain Python over rules.State) ----------------------------------------


def search_key(state: State, groups: list[list[int]]) -> tuple:
    """`state.key()` with the copies of each group renamed: the copies that lie in the DECK
    or the DISCARD PILE take the group's first ids (in the order of their own ids), the
    others the remaining ids in the order of (zone, side, play mark if a win condition
    reads it; then being the DESIRED DISH). Copies out of the DECK and the DISCARD PILE that tie on these
    can be swapped without changing the key, so positions that differ only by which of them
    is which get one key; so do positions that differ by which copy lies in the DECK and
    which is EQUIPPED, out of play or in the PLAY AREA. Two copies that both lie in the
    DECK or the DISCARD PILE keep their names (telling their order apart would cost the
    kernel more than the positions it saves, measured)."""
    if not groups:
        return state.key()
    n = state.cards.n
    from bombsolve.solvers.allisbomb.cards.cards import win_cards

    tracked = set(win_cards(state.cards)["tracked"])

    def placed(c: int) -> bool:
        return state.zone[c] in (_DECK, _DISCARD)

    def looks(c: int) -> tuple:
        # the kernel's card byte (layout.py: zone, side bit 8, play mark bit 16), then the dish
        marked = state.played[c] if c in tracked else False
        return (state.zone[c] + 8 * state.ignited[c] + 16 * marked, c == state.desired)

    rename = list(range(n))
    for g in groups:
        order = [c for c in g if placed(c)] + sorted((c for c in g if not placed(c)), key=looks)
        for c, new in zip(order, g, strict=True):
            rename[c] = new
    if rename == list(range(n)):
        return state.key()
    r = state.copy()
    r.deck = [rename[c] for c in state.deck]
    r.discard = [rename[c] for c in state.discard]
    for c in range(n):
        r.zone[rename[c]] = state.zone[c]
        r.ignited[rename[c]] = state.ignited[c]
        r.played[rename[c]] = state.played[c]
    r.desired = rename[state.desired] if state.desired >= 0 else state.desired
    return r.key()


# --- the kernel's (Numba over the state row, layout.py) ------------------------------------

_LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_ONES = np.uint64(0x0101010101010101)


@njit(cache=True, _nrt=False, inline="always")
def _placed(b, n, c):
    """True if card c lies in the DECK or the DISCARD PILE (has a byte in b[0:N])."""
    z = b[n + c] & ZONE
    return z == _DECK or z == _DISCARD


@njit(cache=True, _nrt=False, inline="always")
def _looks(b, n, c):
    """`search_key`'s `looks` of card c not in the DECK or DISCARD PILE, as one number: its
    card byte (zone, side, play mark), then whether it is the DESIRED DISH."""
    return (np.int64(b[n + c]) << np.int64(1)) | np.int64(b[2 * n] == c)


@njit(cache=True, _nrt=False, inline="always")
def _place_of(s, n, c):
    """The index in b[0:N] of card c, which lies in the DECK or the DISCARD PILE: the
    first byte equal to c, found a word at a time (0x80 flags each equal byte exactly)."""
    pat = np.uint64(c) * _ONES
    for w in range((n + 7) // 8):
        t = s[w] ^ pat
        m = ~(((t & _LOW7) + _LOW7) | t | _LOW7)
        left = n - 8 * w
        if left < 8:
            m &= (np.uint64(1) << np.uint64(8 * left)) - np.uint64(1)
        if m != 0:
            return 8 * w + np.int64(trailing_zeros(m)) // 8
    return np.int64(-1)


@njit(cache=True, _nrt=False, inline="always")
def _rename(s, b, n, c, new, out):
    """In the key words `out` (a copy of s's), give card c's byte, place and DESIRED DISH
    mark to the id `new` (the caller gives new's to c in turn)."""
    ob = out.view(np.int8)
    ob[n + new] = b[n + c]
    if _placed(b, n, c):
        ob[_place_of(s, n, c)] = new
    if b[2 * n] == c:
        ob[2 * n] = new


# Compiled once and inlined by LLVM (forceinline) at its two calls in `kernel.dfs` and two
# in the exhaust kernel: inlined in Numba's IR, each copy was translated, typed and lowered
# again (about 0.9 s of a cold compile each).
@linked_helper(cache=True, _nrt=False, forceinline=True)
def kernel_search_key(s, n, info, out, order):
    """Write the copy-symmetric key of the state row s (what `search_key` is to
    rules.State.key(), in the row's key words) into out[0:key_words(n)]; return True if
    it differs from s's own key words (else out is not written). `order` (int64, at least
    the largest group's size) is scratch.

    The pairs of consecutive ids (every group of the rulebook's cards) are looked at
    through the zone masks first; another group (a card file's) is put in `search_key`'s
    order by an insertion sort."""
    t = np.int64(info[info.shape[0] - 1])
    if t == 0:
        return False
    b = s.view(np.int8)
    changed = False
    # the pairs (a, a + 1) by the zone masks: only a pair whose first copy is not placed
    # can be renamed (most positions of the rulebook's games have none, and cost 4 loads)
    M = key_words(n) + W_MASKS
    placed = s[M + _DECK] | s[M + _DISCARD]
    todo = (np.uint64(info[t + 1]) | (np.uint64(info[t + 2]) << np.uint64(31))) & ~placed
    while todo != 0:
        a = np.int64(trailing_zeros(todo))
        todo &= todo - np.uint64(1)
        c = a + 1
        if (placed >> np.uint64(c)) & np.uint64(1) == 0 and _looks(b, n, a) <= _looks(b, n, c):
            continue
        if not changed:
            changed = True
            for j in range(key_words(n)):
                out[j] = s[j]
        _rename(s, b, n, a, c, out)
        _rename(s, b, n, c, a, out)
    i = t + 3
    for _ in range(info[t]):
        k = np.int64(info[i])
        g = i + 1
        i = g + k
        # the placed copies in id order, then the others by `_looks` (stable)
        m = 0
        for j in range(k):
            c = np.int64(info[g + j])
            if _placed(b, n, c):
                order[m] = c
                m += 1
        for j in range(k):
            c = np.int64(info[g + j])
            if _placed(b, n, c):
                continue
            w = _looks(b, n, c)
            q = m
            while q > 0 and not _placed(b, n, order[q - 1]) and _looks(b, n, order[q - 1]) > w:
                order[q] = order[q - 1]
                q -= 1
            order[q] = c
            m += 1
        for j in range(k):
            c = order[j]
            new = np.int64(info[g + j])
            if c != new:
                if not changed:
                    changed = True
                    for jj in range(key_words(n)):
                        out[jj] = s[jj]
                _rename(s, b, n, c, new, out)
    return changed
