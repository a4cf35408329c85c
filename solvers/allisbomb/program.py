"""The card set of a game compiled to the NumPy arrays the kernel interprets (`kernel.py`).

`compile_program` turns a `cards.CardSet` into opcode arrays (names resolved to card masks)
and the `info` array: the win conditions' parameters (`win_info`, rulebook E and G) and the
tables of the static analysis of the cards (`prune.extend_info`). `compiled_program` caches
one per configuration; `pruning` switches dead-position pruning of a configuration on or
off in that cached copy, which both searches read.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

import numpy as np

from solvers.allisbomb.cards import DESTS, KEYWORDS, OPS, PICKS, ZONES, CardSet, Step, load_cards
from solvers.allisbomb.config import GameConfig
from solvers.allisbomb.copies import copies_on, extend_copies
from solvers.allisbomb.prune import INFO_ON, extend_info

OP_CODE = {op: i for i, op in enumerate(OPS)}
ZONE_CODE = {z: i for i, z in enumerate(ZONES)}
PICK_CODE = {p: i for i, p in enumerate(PICKS)}
DEST_CODE = {d: i for i, d in enumerate(DESTS)}
KW_CODE = {k: i for i, k in enumerate(KEYWORDS)}
# Step row layout (int32): op, zone, pick, n, within, name_mask_lo, name_mask_hi,
# class_mask_lo, class_mask_hi, to, may, count, ref (card id of dish/target, -1 none,
# -2 "desired")
STEP_WIDTH = 13


@dataclass(frozen=True)
class Program:
    """The card set compiled to arrays (see kernel.py for how they are read)."""

    n: int
    number: np.ndarray  # int32 [n, 2]: NUMBER of (card, side)
    keyword: np.ndarray  # int32 [n, 2]: 0 none, 1 URGENT, 2 ROYAL
    step_start: np.ndarray  # int32 [n, 2]
    step_count: np.ndarray  # int32 [n, 2]
    steps: np.ndarray  # int32 [k, STEP_WIDTH]
    info: np.ndarray  # int32: win_info's 16 entries, prune.py's tables, copies.py's table


def card_mask(ids: list[int]) -> int:
    """Bit mask of card ids."""
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def _split(mask: int) -> tuple[int, int]:
    return mask & 0x7FFFFFFF, mask >> 31


def compile_program(cs: CardSet) -> Program:
    """Compile a CardSet into the opcode arrays run by `kernel` (names resolved to card masks)."""
    n = cs.n
    number = np.zeros((n, 2), np.int32)
    keyword = np.zeros((n, 2), np.int32)
    start = np.zeros((n, 2), np.int32)
    count = np.zeros((n, 2), np.int32)
    rows: list[list[int]] = []
    for cid, card in enumerate(cs.cards):
        for s, side in enumerate((card.passive, card.ignited)):
            number[cid, s] = side.number
            keyword[cid, s] = KW_CODE[side.keyword]
            start[cid, s] = len(rows)
            count[cid, s] = len(side.steps)
            for st in side.steps:
                rows.append(step_row(cs, st))
    steps = (
        np.array(rows, np.int32).reshape(-1, STEP_WIDTH)
        if rows
        else np.zeros((1, STEP_WIDTH), np.int32)
    )
    info = extend_copies(cs, extend_info(cs, win_info(cs)), steps)
    return Program(n, number, keyword, start, count, steps, info)


def step_row(cs: CardSet, st: Step) -> list[int]:
    """Encode one step as an int row (layout above)."""
    name_ids = cs.ids_named(st.name) if st.name else []
    cls_ids = [i for i, c in enumerate(cs.cards) if st.cls and st.cls in c.classes]
    ref = -1
    if st.op == "prophecy":
        ids = cs.ids_named(st.dish)
        ref = ids[0] if ids else -1
    elif st.op == "equip_win":
        if st.target == "desired":
            ref = -2
        else:
            ids = cs.ids_named(st.target)
            ref = ids[0] if ids else -1
    nlo, nhi = _split(card_mask(name_ids))
    clo, chi = _split(card_mask(cls_ids))
    return [
        OP_CODE[st.op],
        ZONE_CODE.get(st.zone, 0),
        PICK_CODE.get(st.pick, 0),
        st.n,
        st.within,
        nlo,
        nhi,
        clo,
        chi,
        DEST_CODE.get(st.to, 0),
        int(st.may),
        st.count,
        ref,
    ]


def win_info(cs: CardSet) -> np.ndarray:
    """Win-condition parameters of the game (rulebook E and G), as an int array.

    [0] waking-up rules, [1] princess id, [2] throne id, [3..4] mosquito mask (-1, -1:
    not a condition), [5] dream guide id, [6..7] gift mask, [8] gifts needed, [9] gifts
    distinct, [10] juice id, [11] all id, [12] players, [13] all by any player, [14] give
    optional, [15] unused. A card id of -2 means "not a condition", -1 "a condition whose
    card is not in the game" (it cannot be met).
    """
    cfg = cs.config
    info = np.full(16, -1, np.int32)
    first = lambda name: (cs.ids_named(name) or [-1])[0]  # noqa: E731
    info[0] = int(cfg.waking_up)
    info[1] = first("PRINCESS")
    info[2] = first("THRONE") if cfg.waking_up else -1
    if "mosquitos" in cfg.expansions:
        info[3], info[4] = _split(card_mask(cs.ids_named("MOSQUITO")))
    info[5] = first("DREAM GUIDE") if "dream_guide" in cfg.expansions else -2
    gifts = [i for i, c in enumerate(cs.cards) if "GIFT" in c.classes]
    if "gifts" not in cfg.expansions:
        gifts = []
    info[6], info[7] = _split(card_mask(gifts))
    info[8] = 3 if "gifts" in cfg.expansions else 0
    info[9] = int(cfg.gifts_distinct)
    info[10] = first("THE JUICE") if "the_juice" in cfg.expansions else -2
    info[11] = first("ALL") if "all" in cfg.expansions else -2
    info[12] = cfg.players
    info[13] = int(cfg.all_any_player)
    info[14] = int(cfg.give_optional)
    info[15] = 0
    return info


@cache
def compiled_program(config: GameConfig) -> Program:
    """The compiled program of `config`'s game, one per configuration for the life of the
    process (kept, not evicted: `pruning` switches the copy the solver holds)."""
    return compile_program(load_cards(config))


def pruning_enabled(config: GameConfig) -> bool:
    """True if the searches (kernel and reference) prune dead positions of `config`'s game."""
    return bool(compiled_program(config).info[INFO_ON])


@contextmanager
def pruning(config: GameConfig, on: bool) -> Iterator[None]:
    """Within the block, the searches prune dead positions of `config`'s game iff `on`.

    The switch is `info[INFO_ON]` of the cached compiled program (the kernel reads it there;
    `search.reference_search` asks `pruning_enabled`). On by default.
    """
    info = compiled_program(config).info
    old = int(info[INFO_ON])
    info[INFO_ON] = int(on)
    try:
        yield
    finally:
        info[INFO_ON] = old


def copy_keys_enabled(config: GameConfig) -> bool:
    """True if the verdict searches (kernel and reference) key their tables copy-symmetrically
    in `config`'s game (copies.py): on by default whenever the game has copies."""
    return copies_on(compiled_program(config).info)


@contextmanager
def copy_keys(config: GameConfig, on: bool) -> Iterator[None]:
    """Within the block, the verdict searches of `config`'s game use copy-symmetric table
    keys iff `on` and the game has copies (the last entry of the cached program's `info`;
    `search.reference_search` asks `copy_keys_enabled`). On by default."""
    info = compiled_program(config).info
    old = int(info[-1])
    if not on:
        info[-1] = 0
    try:
        yield
    finally:
        info[-1] = old
