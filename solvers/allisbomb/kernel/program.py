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
from dataclasses import dataclass, replace
from functools import cache, cached_property

import numpy as np

from bombsolve.solvers.allisbomb.cards.cards import (
    DESTS,
    KEYWORDS,
    OPS,
    PICKS,
    ZONES,
    CardSet,
    Step,
    load_cards,
)
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel.copies import copies_on, extend_copies
from bombsolve.solvers.allisbomb.kernel.layout import NEXT_ADD_ZERO, NEXT_IGNITED, NEXT_NO_ACTION
from bombsolve.solvers.allisbomb.kernel.ordering import INFO_ORDER, extend_order
from bombsolve.solvers.allisbomb.kernel.prune import INFO_ON, extend_info

OP_CODE = {op: i for i, op in enumerate(OPS)}
ZONE_CODE = {z: i for i, z in enumerate(ZONES)}
PICK_CODE = {p: i for i, p in enumerate(PICKS)}
DEST_CODE = {d: i for i, d in enumerate(DESTS)}
KW_CODE = {k: i for i, k in enumerate(KEYWORDS)}
# Step row layout (int32): op, zone, pick, n, within, name_mask_lo, name_mask_hi,
# class_mask_lo, class_mask_hi, to, may, count, ref (card id of dish/target, -1 none,
# -2 "desired"), then the extended vocabulary's columns: 13 the selecting op of an
# OP_XSELECT row (OP_CODE), 14 its side filter (SIDE_CODE), 15 `all` (0/1); a guard row's
# condition: 16 has one (0/1), 17 its zone (COND_ZONE_CODE, -1 any), 18 its side
# (SIDE_CODE), 19/20 its card mask (name or class; every card for neither), 21 `self`,
# 22 at_least, 23 at_most (-1 none), 24 not; 25 the rows the guard skips when it fails;
# 26 a `deck_place` (k from the top, -k from the bottom), 27 `next_to` and 28 `of` (the
# card id; -1 this card); 29 1 if the step's picks are asked for as a set
# (`Step.picks_as_set`: each pick listed by the first pick no earlier than the last pick).
STEP_WIDTH = 30
#: The kernel's opcode for a selecting step that uses the extended vocabulary (turn_over, a
#: side filter, `all`, or a step that an "if you do" step follows): run by `kernel._xselect`,
#: away from the plain steps' hot path.
OP_XSELECT = 16
#: Guard rows (kernel._guard): OP_GROUP holds a condition and/or "you may do all of this"
#: over the next `span` rows (a group's steps, or one conditioned step); OP_IFDONE skips the
#: next `span` rows unless the step before acted on some card.
OP_GROUP, OP_IFDONE = 17, 18
#: "Choose one of these": OP_CHOOSE then each option's rows, OP_JUMP past the others.
OP_CHOOSE, OP_JUMP = 19, 20
#: exchange (kernel._exchange): its side filter in column 14, `taken` in 15 (1: equipped).
OP_EXCHANGE = 21
#: reorder of the DISCARD PILE, reverse (kernel._xreorder): the pile in column 1 (ZONE_CODE),
#: reverse in column 15.
OP_XREORDER = 22
#: draw (kernel._draw_number, in the Draw & Equip phase; nothing in the action): column 3
#: its value, 15 1 if it sets the number (else adds), 16 = 2 with its counting number in
#: the condition columns 17-23. A side with draw steps has -(NUMBER + 1) in `number`.
OP_DRAW = 23
#: next (kernel, OP_NEXT in `_ext_step`): column 3 the effect's code in the state's header
#: byte (layout.py: 1 plays ignited, 2 no CARD ACTION, NEXT_ADD_ZERO + k draws k more).
OP_NEXT = 24
NEXT_CODE = {"ignited": NEXT_IGNITED, "no_action": NEXT_NO_ACTION}
SIDE_CODE = {"": 0, "passive": 1, "ignited": 2}
#: A condition's zone as the kernel's zone code (1: the active player's EQUIPPED CARDS).
COND_ZONE_CODE = {"": -1, "deck": 0, "equipped": 1, "discard": 3, "out": 4, "play": 5}


@dataclass(frozen=True)
class Program:
    """The card set compiled to arrays (see kernel.py for how they are read)."""

    n: int
    number: np.ndarray  # int32 [n, 2]: NUMBER of (card, side)
    keyword: np.ndarray  # int32 [n, 2]: 0 none, 1 URGENT, 2 ROYAL
    step_start: np.ndarray  # int32 [n, 2]
    step_count: np.ndarray  # int32 [n, 2]
    #: int32 [k, STEP_WIDTH]. The kernel plays a row of the extended vocabulary (an opcode
    #: >= OP_XSELECT) through `kernel._ext_step`'s address (`kernel.extended_entries`), so
    #: the steps compile only for a program that has such a row (no shipped stand-in set)
    steps: np.ndarray
    info: np.ndarray  # int32: win_info's 16 entries, prune.py's tables, copies.py's table

    @cached_property
    def extended(self) -> bool:
        """Whether `steps` has a row of the extended vocabulary (`uses_extended`); kept, as
        every kernel call asks (solver._Compiled.rule_args)."""
        return uses_extended(self.steps)


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
            if any(st.op == "draw" for st in side.steps):
                number[cid, s] = -side.number - 1  # the kernel then reads its draw steps
            keyword[cid, s] = KW_CODE[side.keyword]
            start[cid, s] = len(rows)
            rows.extend(step_rows(cs, side.steps))
            count[cid, s] = len(rows) - start[cid, s]  # rows: a group is several
    steps = (
        np.array(rows, np.int32).reshape(-1, STEP_WIDTH)
        if rows
        else np.zeros((1, STEP_WIDTH), np.int32)
    )
    info = extend_copies(cs, extend_order(cs, extend_info(cs, win_info(cs))), steps)
    return Program(n, number, keyword, start, count, steps, info)


def uses_extended(steps: np.ndarray) -> bool:
    """Whether some row of `steps` is of the extended vocabulary (OP_XSELECT and above:
    guards, choices, exchange, reorder of the pile, draw and next steps)."""
    return bool((steps[:, 0] >= OP_XSELECT).any())


def step_rows(cs: CardSet, steps: tuple[Step, ...]) -> list[list[int]]:
    """Encode a list of steps as rows: a group as its guard row and its steps' rows, a step
    with a condition after a guard row over it, an "if you do" step after an OP_IFDONE row
    (and the step before it as an OP_XSELECT row, which tells whether it acted)."""
    rows: list[list[int]] = []
    for i, st in enumerate(steps):
        if st.op == "group":
            inner = step_rows(cs, st.steps)
            body = [_guard_row(cs, st, len(inner)), *inner]
        else:
            if st.op == "choose":
                body = _choose_rows(cs, st)
            else:
                force = i + 1 < len(steps) and steps[i + 1].if_done
                body = [step_row(cs, st, force)]
            if st.cond is not None:
                body.insert(0, _guard_row(cs, replace(st, may=False), len(body)))
        if st.if_done:
            row = [0] * STEP_WIDTH
            row[0], row[25] = OP_IFDONE, len(body)
            body.insert(0, row)
        rows.extend(body)
    return rows


def _choose_rows(cs: CardSet, st: Step) -> list[list[int]]:
    """A `choose` step: its OP_CHOOSE row (options in column 11, where each option's rows
    start in columns 13.., the whole block's length in 25), then each option's rows, an
    OP_JUMP row to the block's end after every option but the last."""
    kids = [step_rows(cs, (x,)) for x in st.steps]
    total = sum(len(k) for k in kids) + len(kids) - 1
    head = [0] * STEP_WIDTH
    head[0], head[10], head[11], head[25] = OP_CHOOSE, int(st.may), len(kids), total
    body = [head]
    off = 0
    for j, kid in enumerate(kids):
        head[13 + j] = off
        body.extend(kid)
        off += len(kid)
        if j < len(kids) - 1:
            jump = [0] * STEP_WIDTH
            jump[0], jump[25] = OP_JUMP, total - off - 1
            body.append(jump)
            off += 1
    return body


def _guard_row(cs: CardSet, st: Step, span: int) -> list[int]:
    """The OP_GROUP row of a group (its condition, `may`) or of a conditioned step."""
    row = [0] * STEP_WIDTH
    row[0], row[10], row[25] = OP_GROUP, int(st.may), span
    if st.cond is not None:
        row[16:25] = _cond_columns(cs, st.cond)
    return row


def _cond_columns(cs: CardSet, c) -> list[int]:
    """Columns 16..24 of a guard row: 1, then the condition (layout above)."""
    if c.card and c.card != "self":
        ids = cs.ids_named(c.card)
    elif c.cls:
        ids = [i for i, k in enumerate(cs.cards) if c.cls in k.classes]
    else:
        ids = list(range(cs.n))
    lo, hi = _split(card_mask(ids))
    return [
        1,
        COND_ZONE_CODE[c.zone],
        SIDE_CODE[c.side],
        lo,
        hi,
        int(c.card == "self"),
        c.at_least,
        c.at_most,
        int(c.negate),
    ]


def step_row(cs: CardSet, st: Step, force_ext: bool = False) -> list[int]:
    """Encode one step as an int row (layout above); `force_ext`: as an OP_XSELECT row."""
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
    extended = st.op == "turn_over" or st.side or st.all or force_ext or st.zone == "anywhere"
    extended = extended or st.amount is not None or st.to in DESTS[5:] or st.pick in PICKS[7:]
    if st.op == "exchange":
        op = OP_EXCHANGE
    elif st.op == "reverse" or (st.op == "reorder" and st.zone == "discard"):
        op = OP_XREORDER
    elif st.op == "draw":
        op = OP_DRAW
    elif st.op == "next":
        op = OP_NEXT
    else:
        op = OP_XSELECT if extended else OP_CODE[st.op]
    return (
        [
            op,
            ZONE_CODE.get(st.zone, 0),
            PICK_CODE.get(st.pick, 0),
            st.value
            if st.op == "draw"
            else NEXT_CODE.get(st.effect, NEXT_ADD_ZERO + st.value)
            if st.op == "next"
            else st.n,
            st.within,
            nlo,
            nhi,
            clo,
            chi,
            DEST_CODE.get(st.to, 0),
            int(st.may),
            st.count,
            ref,
            OP_CODE[st.op],
            SIDE_CODE[st.side],
            int(st.taken == "equipped")
            if st.op == "exchange"
            else int(st.all or st.op == "reverse")
            if st.op != "draw"
            else int(st.sets),
        ]
        + _amount_columns(cs, st.amount)
        + [
            -st.place if st.from_bottom else st.place,
            _ref(cs, st.next_to),
            _ref(cs, st.of),
            int(st.picks_as_set()),
        ]
    )


def _ref(cs: CardSet, name: str) -> int:
    """A card a step names by NAME (its first copy), -1 for "self", -2 for none."""
    if name == "self":
        return -1
    return (cs.ids_named(name) or [-2])[0] if name else -2


def _amount_columns(cs: CardSet, c) -> list[int]:
    """Columns 16..25 of a step row: 2 and a counting number's card, class, zone and side in
    the condition columns (counted as `kernel._amount` does), or zeros."""
    if c is None:
        return [0] * 10
    return [2, *_cond_columns(cs, c)[1:], 0]


def win_info(cs: CardSet) -> np.ndarray:
    """Win-condition parameters of the game (rulebook E and G), as an int array.

    [0] waking-up rules, [1] princess id, [2] throne id, [3..4] mosquito mask (-1, -1:
    not a condition), [5] dream guide id, [6..7] gift mask, [8] gifts needed, [9] gifts
    distinct, [10] juice id, [11] all id, [12] players, [13] all by any player, [14] give
    optional, [15] where the move-order table starts (ordering.py, set by `extend_order`;
    0 here). A card id of -2 means "not a condition", -1 "a condition whose
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
def compiled_program(config: Options) -> Program:
    """The compiled program of `config`'s game, one per configuration for the life of the
    process (kept, not evicted: `pruning` switches the copy the solver holds)."""
    return compile_program(load_cards(config))


def pruning_enabled(config: Options) -> bool:
    """True if the searches (kernel and reference) prune dead positions of `config`'s game."""
    return bool(compiled_program(config).info[INFO_ON])


@contextmanager
def pruning(config: Options, on: bool) -> Iterator[None]:
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


def copy_keys_enabled(config: Options) -> bool:
    """True if the verdict searches (kernel and reference) key their tables copy-symmetrically
    in `config`'s game (copies.py): on by default whenever the game has copies."""
    return copies_on(compiled_program(config).info)


@contextmanager
def copy_keys(config: Options, on: bool) -> Iterator[None]:
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


def move_order_enabled(config: Options) -> bool:
    """True if the portfolio search and `search.reference_search(order=2)` of `config`'s game
    try the EQUIPPED CARDS in the priority order of ordering.py (off by default,
    `ordering.ON_BY_DEFAULT`)."""
    return int(compiled_program(config).info[INFO_ORDER]) > 0


@contextmanager
def move_order(config: Options, on: bool) -> Iterator[None]:
    """Within the block, the ordered searches of `config`'s game use the priority table iff
    `on` (off: they try cards by id, as before the table existed). The switch is
    info[INFO_ORDER] of the cached compiled program, as `copy_keys`'s."""
    info = compiled_program(config).info
    old = int(info[INFO_ORDER])
    info[INFO_ORDER] = abs(old) if on else -abs(old)
    try:
        yield
    finally:
        info[INFO_ORDER] = old
