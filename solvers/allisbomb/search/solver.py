"""Solve All Is Bomb deals under perfect play: `solve` (one deal) and `solve_batch` (many).

Verdicts (DESIGN.md, "Truth of results"): 'win' with a move list that replays through the
reference engine, 'loss' (every line of play loses), or 'undecided' (node limit, or no
win found after a line was cut at `search.MAX_DEPTH` turns). The card program of a config is compiled once
and cached; the transposition table is allocated once per process and reused with
generation stamps, so many calls in one process are cheap.

Loss reason (`loss_reason`, bits of `rules.Ending`, OR-ed over every losing end the search
met): 1 drew too many (rulebook E: "would draw more cards than there are in the DECK"),
2 no card to play, 4 the game ended without every win condition, 8 a line returned to a
position already on it (a cycle). For a 'loss' it says which ways every line failed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache, lru_cache

import numpy as np

from bombsolve.solvers.allisbomb.cards.cards import CardSet, load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.kernel import layout
from bombsolve.solvers.allisbomb.kernel.program import Program, compiled_program
from bombsolve.solvers.allisbomb.rules.rules import Ending, Outcome, State, new_game
from bombsolve.solvers.allisbomb.search.floors import floor_portfolio, floors_for
from bombsolve.solvers.allisbomb.search.search import MAX_DEPTH
from bombsolve.solvers.allisbomb.search.widen import WIDEN_FIRST, WIDEN_LEVELS, Widened, widen
from bombsolve.solvers.common import stopping
from bombsolve.solvers.common.errors import BadInput

OUTCOME_NAMES = {K.CODE_WIN: "win", K.CODE_LOSS: "loss", K.CODE_UNDECIDED: "undecided"}
DEFAULT_NODE_LIMIT = 3_000_000
#: The kernel pauses every PAUSE_STEP positions, and every PAUSE_BUILT moves it builds (a
#: card file can make one position's moves many), to look at the clock when there is a time
#: limit and, always, to give Python the moment to act on Ctrl-C or a stop signal: compiled
#: code never does, and a rich card file's search can run for minutes. A pause costs one
#: call (microseconds) against tenths of a second of search; resuming is exact.
PAUSE_STEP = 100_000
PAUSE_BUILT = 200_000
#: Largest transposition table: 2**22 index slots of 8 bytes, 3/4 as many entries (3 M
#: positions; 8 bytes per entry for its hash plus 8 per key word, layout.key_words: 5
#: words, 151 MB, for the base game), mapped by the operating system only as far as
#: searches fill it.
MAX_TABLE_BITS = 22


@lru_cache(maxsize=64)
def table_bits_for(node_limit: int) -> int:
    """The table size (log2 entries) for a node limit: twice the limit, 2**16..2**22.

    A small table stays in the CPU cache (much faster); the search stops inserting at 75%
    full, after which it stays exact but may revisit positions (and so hit the limit).
    """
    need = max(1, 2 * int(node_limit))
    return int(min(MAX_TABLE_BITS, max(16, need.bit_length())))


@dataclass
class SolveResult:
    """The verdict on one deal."""

    outcome: str  # "win" | "loss" | "undecided"
    nodes: int
    seconds: float
    solution: list[tuple[int, ...]] = field(default_factory=list)
    loss_reason: int = 0
    #: Which search answered: "kernel" (Numba) or "reference" (plain Python, `solve_first`).
    engine: str = "kernel"

    def reasons(self) -> list[str]:
        """The loss reason bits as names, e.g. ['DREW_TOO_MANY', 'CYCLE']."""
        return [e.name for e in Ending if e and self.loss_reason & e]


@dataclass
class _Compiled:
    cards: CardSet
    prog: Program
    gift_ids: np.ndarray
    tracked: np.ndarray
    n_gifts: int
    n_tracked: int
    #: 1 for each star card (Campaign Mode, rulebook H): what the keep-most search minimises
    #: over the DISCARD PILE. Made once per config; the kernel only reads it.
    objective: np.ndarray

    @property
    def rule_args(self) -> tuple:
        """The card program and rule tables, in the order every kernel entry point takes
        them (after the position and `n`), and last the addresses of the extended
        vocabulary's steps in this process (kernel.extended_entries; zeros for a program
        without extended rows). Made at each call: the addresses are this process's."""
        p = self.prog
        return (
            p.number,
            p.keyword,
            p.step_start,
            p.step_count,
            p.steps,
            p.info,
            self.gift_ids,
            self.n_gifts,
            K.extended_entries(p.extended),
        )


@lru_cache(maxsize=64)
def compiled(config: Options) -> _Compiled:
    """The card set and opcode arrays of a config (cached)."""
    cs = load_cards(config)
    prog = compiled_program(config)
    gifts = np.array([i for i, c in enumerate(cs.cards) if "GIFT" in c.classes] or [0], np.int64)
    n_g = sum("GIFT" in c.classes for c in cs.cards)
    from bombsolve.solvers.allisbomb.rules.rules import _info

    tracked_ids = _info(cs)["tracked"]
    tracked = np.array(tracked_ids or [0], np.int64)
    objective = np.array([int(k.campaign == "star") for k in cs.cards], np.int64)
    return _Compiled(cs, prog, gifts[: max(n_g, 1)], tracked, n_g, len(tracked_ids), objective)


class _Table:
    """The process-wide transposition table (open addressing, generation-stamped, exact:
    each entry holds the position's key words, see kernel._tt_find): an index of 8-byte
    slots and the entries it points to, in the order a search stores them.

    The buffers are allocated once for the largest size and handed out as views: the
    operating system maps a page only when a search first writes to it, and a search
    starts on the first kernel.TT_START slots and enlarges them only as it fills, and
    stores its entries from the first row on, so a small search touches a few hundred
    kilobytes. Index slots of another size or card count are older generations, i.e.
    empty to every later search (an index slot points only to entries of its own search).
    """

    def __init__(self) -> None:
        self.index_buf = np.zeros(0, np.uint64)
        self.entry_buf = np.zeros(0, np.uint64)
        self.depth_buf = np.zeros(0, np.int16)
        self.gen = 0
        self.frames: dict[int, tuple] = {}
        self.views: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        self.sweep_stacks: dict[int, tuple] = {}

    def get(self, bits: int, words: int) -> tuple[np.ndarray, np.ndarray]:
        """The index [2**bits] and the entries [3/4 of 2**bits, words] of the table."""
        # the views are kept until a buffer is replaced: a sweep asks for the same ones
        # once per deal, and making them cost a few microseconds of a ~0.2 ms deal
        views = self.views.get((bits, words))
        if views is not None:
            return views
        if bits > K.TT_ENTRY_BITS:  # an index slot holds an entry number of that many bits
            raise BadInput(f"table_bits is at most {K.TT_ENTRY_BITS} (got {bits})")
        size = 1 << max(bits, MAX_TABLE_BITS)
        if self.index_buf.shape[0] < size:
            self.index_buf = np.zeros(size, np.uint64)
            self.views.clear()
        rows = K.entry_rows(size)
        if self.entry_buf.shape[0] < rows * words:
            self.entry_buf = np.zeros(rows * words, np.uint64)
            self.views.clear()
        cap = 1 << bits
        rows = K.entry_rows(cap)
        views = self.index_buf[:cap], self.entry_buf[: rows * words].reshape(rows, words)
        self.views[(bits, words)] = views
        return views

    def depths(self, bits: int) -> np.ndarray:
        """Per-entry depths for kernel.shortest (valid for the entries of its current
        generation)."""
        size = 1 << max(bits, MAX_TABLE_BITS)
        if self.depth_buf.shape[0] < size:
            self.depth_buf = np.zeros(size, np.int16)
        return self.depth_buf[: 1 << bits]

    def frame_buffers(self, n: int) -> tuple:
        """The DFS stack arrays for n cards (allocated once per process and size)."""
        if n not in self.frames:
            L = K.state_len(n)
            d = MAX_DEPTH + 1
            self.frames[n] = (
                zeros_aligned((d, L), np.uint64),  # states (layout.py)
                np.zeros((d, K.MAXC), np.int32),  # fch
                np.zeros((d, K.MAXC), np.int32),  # fk
                np.zeros(d, np.int32),  # fplen
                np.zeros(d, np.int32),  # fstarted
                np.zeros(d, np.int64),  # fidx
                np.zeros((d, K.MAXC), np.int32),  # sol
                np.zeros(d, np.int32),  # sol_len
                np.zeros(2 * n + 8, np.int64),  # buf
                np.zeros(2 * n + 8, np.int64),  # tmp
                np.zeros(4, np.int64),  # cs
            )
        return self.frames[n]

    def sweep_frames(self, n: int) -> tuple:
        """The stacks of kernel.solve_many for n cards (allocated once per process)."""
        if n not in self.sweep_stacks:
            self.sweep_stacks[n] = K._frames(MAX_DEPTH, K.state_len(n))
        return self.sweep_stacks[n]


def zeros_aligned(shape: tuple[int, ...], dtype, align: int = 64) -> np.ndarray:
    """np.zeros(shape, dtype) starting on an `align`-byte boundary (default: a cache line).

    numpy aligns to 16 bytes, so the search's state rows, copied and read with 32-byte
    moves, straddled cache lines; Numba allocates `solve_batch`'s stacks aligned, and
    `solve` ran a few percent behind it on the same deals and positions."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    raw = np.zeros(nbytes + align, np.uint8)
    start = -raw.ctypes.data % align
    return raw[start : start + nbytes].view(dtype).reshape(shape)


_TABLE = _Table()
#: The second order's table and stacks (portfolio search; see kernel.portfolio).
_TABLE_B = _Table()


def _next_gen() -> int:
    """A generation stamp newer than every entry of both tables (one counter for both,
    never reset when a table is reallocated, so no stale entry can look current)."""
    return _reserve_gens(1) + 1


def _reserve_gens(k: int) -> int:
    """Count `k` generation stamps as used before a search that stamps entries with them one
    after another (kernel.solve_many: one a deal; kernel.shortest: one a depth limit) and
    tells its last only when it returns: a Ctrl-C raised just after that return, before the
    counters heard it, would otherwise leave entries whose stamps a later search in this
    process (a play session's) takes for its own. Returns the stamp the search counts from
    (its first is one more); the kernel's own wrap-around is then never reached. Both
    tables are cleared when the 32-bit stamps would run out."""
    start = max(_TABLE.gen, _TABLE_B.gen)
    if start + k >= 2**32 - 1:
        _TABLE.index_buf[:] = 0
        _TABLE_B.index_buf[:] = 0
        start = 0
    _TABLE.gen = _TABLE_B.gen = start + k
    return start


#: Positions each order searches before the first switch (then doubling).
PORTFOLIO_FIRST = 1000
#: On a card set with the extended vocabulary, the share of the node limit the portfolio
#: search may spend (1/WIDEN_AFTER) before the rest goes to widening (search/widen.py).
#: 2, 3, 4, 6, 8 and 12 were tried on 100 deals of rich_relay and random sets 1 and 2
#: (results/PERFORMANCE.md, "Rich card sets, and the depth cut"): 6 left the fewest undecided for the least CPU.
WIDEN_AFTER = 6
#: The share of the node limit (1/DEEPEN_AFTER) that widening leaves, on such a card set,
#: to the depth-bounded searches (`deepen_search`) for a deal it does not decide
#: (`_after_orders`).
DEEPEN_AFTER = 6
#: The depth bounds (turns) of `deepen_search`, searched in turn. A bound cuts the long
#: lines the depth-first orders follow, and which bound meets a win soon is a deal's own
#: affair: on held-out random set 4's open deals a 16-turn bound found case 465's win in
#: 97,699 positions where iterative deepening from 1 needed 9,731,894, a 24-turn bound
#: case 616's in about 30,000 (5,023,499), and a 20-turn bound none of them within 4
#: million (results/PERFORMANCE.md, "Depth-bounded searches").
DEPTH_BOUNDS = (16, 24, 32, 48)
#: Positions each bound is searched with in the first round; every round doubles it.
BOUND_FIRST = 20_000
#: Moves a bounded search may build per position of its share (kernel.CTL_BUILT_LIMIT): a
#: bound's last level builds every move of its positions and enters none, and a move
#: built there costs about a third of a depth-first position.
BOUND_BUILT = 4


def _deck_array(cards: CardSet, deck) -> np.ndarray:
    arr = np.asarray(deck, dtype=np.int64)
    if arr.ndim != 1 or sorted(arr.tolist()) != list(range(cards.n)):
        raise BadInput(f"a deck must hold each of the {cards.n} card ids 0..{cards.n - 1} once")
    return arr


def solve_batch(
    config: Options,
    decks: np.ndarray,
    node_limit: int = DEFAULT_NODE_LIMIT,
    table_bits: int | None = None,
    portfolio: bool = True,
    first_budget: int = PORTFOLIO_FIRST,
) -> dict[str, np.ndarray]:
    """Solve every row of `decks` (int array [m, n], card ids top first) in one Numba call
    (on a card set with the extended vocabulary: deal by deal, with pauses, see below).

    portfolio=True (default) runs two move orders side by side (kernel.portfolio): the
    same verdicts, usually far fewer positions, and `nodes` is then the sum of both
    searches (each may use node_limit // 2). On a card set that uses the extended
    vocabulary (`Program.extended`) each deal is first searched with the DECK floors
    (search/floors.py, up to node_limit // WIDEN_AFTER positions); the deals they leave
    open then go on as before: the two orders share node_limit // WIDEN_AFTER, and a
    deal they leave undecided is searched with what remains by widening over its first
    turn's moves (search/widen.py) and then by depth-bounded searches (`_after_orders`); the
    stand-in's cards never go there, so its searches are the portfolio's alone. portfolio=False gives the single plain
    search whose node counts match the reference search exactly. first_budget: positions
    each order searches before the first switch (the same verdicts; other node counts).

    Returns arrays of length m: 'code' (1 win, 0 loss, 2 undecided), 'nodes', 'turns'
    (solution length in turns, 0 unless won), 'reason' (loss reason bits, see module doc).
    Rows are not checked to be permutations (callers make them with `deals`).
    """
    c = compiled(config)
    decks = np.ascontiguousarray(decks, dtype=np.int64)
    if decks.ndim != 2 or decks.shape[1] != c.cards.n:
        raise BadInput(f"decks must be an array [m, {c.cards.n}] for {config.label()}")
    m = decks.shape[0]
    z = np.zeros((4, m), np.int64)  # (one allocation; indexing is cheaper than zip here)
    out = {"code": z[0], "nodes": z[1], "turns": z[2], "reason": z[3]}
    # each portfolio order may enter half the limit, so each table needs half the room
    bits = table_bits or table_bits_for(node_limit // 2 if portfolio else node_limit)
    words = _entry_words(c.cards.n)
    index, entries = _TABLE.get(bits, words)
    index_b, entries_b = _TABLE_B.get(bits, words)
    p = c.prog
    if portfolio and p.extended and node_limit >= 2 * WIDEN_AFTER:
        # the DECK floors first (search/floors.py), deal by deal; the deals they leave
        # open go on to the two orders, deal by deal from Python, which pauses them
        # (Ctrl-C is acted on within a pause: on such files one deal's search can last
        # minutes), into arrays of their own merged into `out`; then to widening
        first_limit = node_limit // WIDEN_AFTER
        rest = _floor_rows(c, decks, first_limit, config.players, out)
        part = {k: np.zeros(rest.size, np.int64) for k in out}
        tables = (index, entries, index_b, entries_b)
        _portfolio_rows(c, decks[rest], config.players, tables, first_limit, first_budget, part)
        for k in ("code", "turns", "reason"):
            out[k][rest] = part[k]
        out["nodes"][rest] += part["nodes"]  # after the floors' own
        _widen_rows(config, decks, node_limit, out)
        return out
    start = _reserve_gens(m)
    K.solve_many(
        decks,
        p.n,
        config.players,
        *c.rule_args,
        index,
        entries,
        start,
        node_limit,
        MAX_DEPTH,
        out["code"],
        out["nodes"],
        out["turns"],
        out["reason"],
        index_b,
        entries_b,
        int(portfolio),
        int(first_budget),
        _TABLE.sweep_frames(p.n),
        _TABLE_B.sweep_frames(p.n),
    )
    return out


def _portfolio_rows(
    c: _Compiled,
    decks: np.ndarray,
    players: int,
    tables: tuple,
    limit: int,
    first_budget: int,
    out: dict,
) -> None:
    """`kernel.solve_many`'s portfolio search of each deal in the two orders' `tables`
    (index, entries, index_b, entries_b), run from Python (`run_portfolio`: the same turns,
    so the same verdicts and counts) with pauses every PAUSE_STEP positions and PAUSE_BUILT
    moves built; results into `out`'s arrays."""
    n = c.prog.n
    A, B = _paused_orders(n, tables)
    buf, tmp, cs = _TABLE.frame_buffers(n)[8:]
    root = np.zeros(K.state_len(n), np.uint64)
    for i in range(decks.shape[0]):
        K.setup(decks[i], n, players, root)
        code, nodes, reasons, turns, _ = run_portfolio(
            root, n, c, np.uint32(_next_gen()), limit, buf, tmp, cs, c.objective, A, B, first_budget
        )
        out["code"][i], out["nodes"][i], out["turns"][i], out["reason"][i] = (
            code,
            nodes,
            turns,
            reasons,
        )


def _paused_orders(n: int, tables: tuple) -> tuple[tuple, tuple]:
    """`run_portfolio`'s two move orders for n cards: each its table (`tables`: index,
    entries, index_b, entries_b), this process's stacks and a control word array that
    pauses it every PAUSE_BUILT moves built. A win's line is left in an order's [8:10]
    (sol, sol_len)."""
    orders = []
    for table, (index, entries) in ((_TABLE, tables[:2]), (_TABLE_B, tables[2:])):
        ctl = np.zeros(K.CTL_PAUSE_BUILT + 1, np.int64)
        ctl[K.CTL_PAUSE_BUILT] = PAUSE_BUILT
        orders.append((index, entries, *table.frame_buffers(n)[:8], ctl))
    return orders[0], orders[1]


def _floor_rows(c: _Compiled, decks: np.ndarray, budget: int, players: int, out: dict):
    """Search each deal with the DECK floors (`floors.floor_portfolio`, at most `budget`
    positions): a decided deal takes its verdict, every deal its positions. Returns the
    indices of the deals left undecided."""
    n = c.prog.n
    row = np.zeros(K.state_len(n), np.uint64)
    words = _entry_words(n)
    rest = []
    for i in range(decks.shape[0]):
        K.setup(decks[i], n, players, row)
        code, nodes, reasons, turns, _, _ = floor_portfolio(c, row, budget, MAX_DEPTH, words)
        out["nodes"][i] = nodes
        if code == K.CODE_UNDECIDED:
            rest.append(i)
        else:
            out["code"][i], out["turns"][i], out["reason"][i] = code, turns, reasons
    return np.array(rest, np.int64)


def _widen_rows(config: Options, decks: np.ndarray, node_limit: int, out: dict) -> None:
    """Search each row the portfolio left undecided as `_after_orders` does, with the rest
    of its node limit; a decided row takes that verdict and every search's nodes."""
    cards = compiled(config).cards
    for i in np.flatnonzero(out["code"] == K.CODE_UNDECIDED):
        nodes = int(out["nodes"][i])
        if nodes >= node_limit:
            continue
        deal = new_game(cards, decks[i].tolist())
        code, nodes, turns, reason, _line = _after_orders(
            config, deal, node_limit, nodes, int(out["reason"][i])
        )
        out["nodes"][i] = nodes
        if code != K.CODE_UNDECIDED:
            out["code"][i], out["turns"][i], out["reason"][i] = code, turns, reason


def _after_orders(
    config: Options, deal: State, node_limit: int, nodes: int, reasons: int
) -> tuple[int, int, int, int, list]:
    """What the two move orders left of node_limit after `nodes`: widening (search/widen.py)
    keeps back a DEEPEN_AFTER-th of node_limit, and a deal it leaves open is searched to
    depth bounds (`deepen_search`) with all that remains. The bounded searches come last
    so that they cost nothing on the deals widening decides: their positions cost several
    times the depth-first search's (a bound's last level builds every move of its
    positions and enters none). Returns (code, nodes, turns, reason, line); an open deal
    keeps the orders' `reasons`."""
    keep = node_limit // DEEPEN_AFTER
    if node_limit - nodes > keep:
        w = widen_search(config, deal, node_limit - nodes - keep)
        nodes += w.nodes
        if w.code != K.CODE_UNDECIDED:
            return w.code, nodes, w.turns, w.reason, list(w.line)
    if node_limit > nodes:
        deep = deepen_search(config, to_kernel_state(deal), node_limit - nodes)
        nodes += deep.nodes
        if deep.outcome == "win":
            return K.CODE_WIN, nodes, len(deep.solution), deep.loss_reason, deep.solution
    return K.CODE_UNDECIDED, nodes, 0, reasons, []


def solve_state(
    state: State,
    node_limit: int = DEFAULT_NODE_LIMIT,
    table_bits: int | None = None,
    check: bool = True,
    keep_most: bool = False,
    time_limit: float | None = None,
    portfolio: bool = False,
    bound: bool = True,
    floors: bool = False,
) -> SolveResult:
    """Solve from a reference-engine position (e.g. a mid-game `--state`).

    portfolio=True runs two move orders side by side (see `solve_batch`); it is ignored
    with keep_most or a time limit. On a card file with the extended vocabulary the
    portfolio first searches the DECK floors (floors.py) with a WIDEN_AFTER-th of
    node_limit; floors=True (or portfolio=True under a time limit) has the one-order
    search do the same, then go on with what the floors left of node_limit.

    time_limit (seconds): answer 'undecided' once it is exceeded (checked every 100,000
    positions and every PAUSE_BUILT moves built, so it can be overrun by a fraction of a
    second whatever the card file). A position's moves past kernel.MAX_MOVES (or from a
    move of more than kernel.MAXC choices on) are cut, reason TOO_MANY_MOVES, and the
    search goes on: a win found is a win, and no win after such a cut is 'undecided'.

    keep_most=True (Campaign Mode, rulebook H): among all wins, return one that ends with
    the fewest star cards in the DISCARD PILE (the cards the campaign then loses). This
    searches every reachable position, so it costs as much as proving a loss; if the node
    limit stops it after a win, that win is returned with loss_reason bit 16 (NOT_BEST).
    bound=True (default) searches by branch and bound on `prune.lower_bound` (kernel.dfs
    best_mode 2): the same best, far fewer positions, and a win is proven best as soon as
    it reaches the root's bound; bound=False is the plain exhaustive keep-most search.
    """
    t0 = time.perf_counter()
    return _solve_root(
        state.config,
        to_kernel_state(state),
        lambda: state,
        t0,
        node_limit,
        table_bits,
        check,
        keep_most,
        time_limit,
        portfolio,
        bound,
        floors=floors,
    )


def _solve_root(
    config: Options,
    root: np.ndarray,
    make_state,
    t0: float,
    node_limit: int,
    table_bits: int | None,
    check: bool,
    keep_most: bool,
    time_limit: float | None,
    portfolio: bool,
    bound: bool,
    order: int = 0,
    floor: int = 0,
    floors: bool = False,
) -> SolveResult:
    """`solve_state` from the kernel's row of the position; `make_state()` gives the
    reference position, needed only to replay a win (check=True). floor > 0 (without the
    portfolio) searches only the positions whose DECK holds at least that many cards
    (kernel.CTL_FLOOR): a win found is a win, its end without one undecided. floors=True:
    the DECK floors first (`solve_state`)."""
    c = compiled(config)
    n = c.cards.n
    words = _entry_words(n)
    use_pf = portfolio and not keep_most and time_limit is None and floor == 0
    bits = table_bits or table_bits_for(node_limit // 2 if use_pf else node_limit)
    index, entries = _TABLE.get(bits, words)
    gen = _next_gen()
    states, fch, fk, fplen, fstarted, fidx, sol, sol_len, buf, tmp, cs = _TABLE.frame_buffers(n)
    objective = c.objective
    # the DECK floors first (search/floors.py), a WIDEN_AFTER-th of the limit, on extended
    # files: before the portfolio, or before the one-order search when asked or when a
    # time limit took the portfolio's place
    floors_first = (
        (portfolio or floors)
        and c.prog.extended
        and floor == 0
        and not keep_most
        and node_limit >= 2 * WIDEN_AFTER
    )
    floored = 0
    if floors_first:
        deadline = None if time_limit is None else t0 + time_limit
        code, floored, reasons, turns, sol_f, len_f = floor_portfolio(
            c, root, node_limit // WIDEN_AFTER, MAX_DEPTH, words, deadline
        )
        if code != K.CODE_UNDECIDED:
            return _result(make_state, code, floored, reasons, turns, sol_f, len_f, t0, check)
        if deadline is not None and time.perf_counter() > deadline:
            return _result(make_state, code, floored, 0, 0, None, None, t0, check)
    if use_pf:
        A, B = _paused_orders(n, (index, entries, *_TABLE_B.get(bits, words)))
        widening = floors_first  # the same files and limits: widening follows the floors
        first_limit = node_limit // WIDEN_AFTER if widening else node_limit
        code, nodes, reasons, turns, which = run_portfolio(
            root, n, c, np.uint32(gen), first_limit, buf, tmp, cs, objective, A, B, PORTFOLIO_FIRST
        )
        nodes += floored
        if widening and code == K.CODE_UNDECIDED and node_limit > nodes:
            return _widened(config, make_state, node_limit, nodes, reasons, t0, check)
        sol, sol_len = (A, B)[which][8:10]
        return _result(make_state, code, nodes, reasons, turns, sol, sol_len, t0, check)
    ctl = np.zeros((K.CTL_FLOOR if floor > 0 else K.CTL_PAUSE_BUILT) + 1, np.int64)
    ctl[K.CTL_PAUSE_BUILT] = PAUSE_BUILT
    if floor > 0:
        ctl[K.CTL_FLOOR] = floor
    pause_at = PAUSE_STEP
    while True:
        code, nodes, reasons, turns = _dfs_call(
            root,
            n,
            c,
            index,
            entries,
            gen,
            node_limit - floored,
            states,
            fch,
            fk,
            fplen,
            fstarted,
            fidx,
            sol,
            sol_len,
            buf,
            tmp,
            cs,
            objective,
            (2 if bound else 1) if keep_most else 0,
            ctl,
            pause_at,
            order,
        )
        if code != K.CODE_PAUSED:
            break
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            if ctl[5] >= 0:  # keep_most: a win was found, not proven the best
                code, turns, reasons = K.CODE_WIN, int(ctl[6]), int(reasons) | K.E_NOT_BEST
            else:
                code = K.CODE_UNDECIDED
            break
        stopping.check()  # a stop a finalizer swallowed (stopping's docstring)
        pause_at = int(nodes) + PAUSE_STEP
    nodes += floored
    return _result(make_state, code, nodes, reasons, turns, sol, sol_len, t0, check)


def widen_search(
    config: Options,
    root: State,
    budget: int,
    first: int = WIDEN_FIRST,
    levels: int = WIDEN_LEVELS,
) -> Widened:
    """`widen.widen` from `root` with at most `budget` positions, `levels` levels deep,
    each child searched by the kernel's plain search (`_solve_root`, from the child's row)
    in the order widening asks for."""
    bits = table_bits_for(max(1, budget))

    def search(row: np.ndarray, limit: int, order: int) -> SolveResult:
        # check=False: a won line is replayed whole, from the deal, by `_widened`
        return _solve_root(
            config,
            row,
            None,
            time.perf_counter(),
            limit,
            bits,
            check=False,
            keep_most=False,
            time_limit=None,
            portfolio=False,
            bound=True,
            order=order,
        )

    return widen(root, budget, search, first, levels, to_kernel_state)


def deepen_search(config: Options, root: np.ndarray, budget: int) -> SolveResult:
    """Depth-bounded searches from the kernel row `root` with at most `budget` positions in
    all: in rounds, each bound of DEPTH_BOUNDS in turn is searched from scratch
    (kernel.shortest from that depth only: every line at most that many turns deep, each
    position entered again only when met shallower), with BOUND_FIRST positions (or a
    sixteenth of a smaller budget) in the first round and twice as many in each next one,
    until one finds a win or the budget is spent. A bound whose every line was searched without a win (no win that short exists)
    is dropped. A search's moves built are capped at BOUND_BUILT per position of its
    share. Returns a win of at most the bound's turns (not necessarily the fewest), or
    'undecided': it never proves a loss (a bound cuts lines). The move orders' depth-first
    searches can follow lines hundreds of turns long past a win of twenty; a bound turns
    back there. The line is not replayed here (`solution` holds it; the caller replays the
    deal's whole line)."""
    t0 = time.perf_counter()
    c = compiled(config)
    bounds = [b for b in DEPTH_BOUNDS if b <= MAX_DEPTH]
    # a small budget still tries every bound, in several rounds
    share = max(1, min(BOUND_FIRST, budget // (4 * len(bounds))))
    spent = nodes = reasons = 0
    while bounds:
        for bound in list(bounds):
            part = min(share, budget - spent)
            if part <= 0:
                return _result(None, K.CODE_UNDECIDED, nodes, reasons, 0, None, None, t0, False)
            code, n, r, turns, sol, sol_len, searched_all = _run_shortest(
                c, root, table_bits_for(part), part, bound, BOUND_BUILT * part, first_depth=bound
            )
            nodes += n
            reasons |= r
            if code == K.CODE_WIN:
                return _result(None, code, nodes, reasons, turns, sol, sol_len, t0, False)
            # a bound searched whole spent only what it entered; a stopped one, its share
            spent += n if searched_all else part
            if searched_all:
                bounds.remove(bound)
        share *= 2
    return _result(None, K.CODE_UNDECIDED, nodes, reasons, 0, None, None, t0, False)


def _run_shortest(
    c: _Compiled,
    root: np.ndarray,
    bits: int,
    node_limit: int,
    max_turns: int,
    built_limit: int = 0,
    deadline: float | None = None,
    first_depth: int = 0,
) -> tuple:
    """kernel.shortest from the row `root` in the process's table of 2**bits slots, paused
    every PAUSE_STEP positions and PAUSE_BUILT moves built (for Ctrl-C and the clock) and
    resumed exactly, until it answers or `deadline` (a perf_counter time) passes; with
    built_limit > 0 it gives up once it built that many moves (kernel.CTL_BUILT_LIMIT);
    first_depth > 0 is its first depth limit (kernel.CTL_FIRST_DEPTH). Returns (code,
    nodes, reasons, turns, sol, sol_len, searched_all): CODE_PAUSED if the clock stopped
    it; a win's line in sol[:turns]; searched_all when every depth limit up to max_turns
    was searched without a win (moves cut at the move cap included: reasons' E_MOVES)."""
    n = c.cards.n
    index, entries = _TABLE.get(bits, _entry_words(n))
    tdepth = _TABLE.depths(bits)
    states, fch, fk, fplen, fstarted, _fidx, sol, sol_len, buf, tmp, cs = _TABLE.frame_buffers(n)
    ctl = np.zeros(K.CTL_FIRST_DEPTH + 1, np.int64)
    ctl[K.CTL_PAUSE_BUILT] = PAUSE_BUILT
    ctl[K.CTL_BUILT_LIMIT] = built_limit
    ctl[K.CTL_FIRST_DEPTH] = first_depth
    # one generation a depth limit searched (from first_depth, or 1), and one to spare
    gen = _reserve_gens(max_turns - max(first_depth, 1) + 2)
    pause_at = PAUSE_STEP
    while True:
        code, nodes, reasons, turns, _last = K.shortest(
            root,
            n,
            *c.rule_args,
            index,
            entries,
            tdepth,
            gen,
            node_limit,
            max_turns,
            states,
            fch,
            fk,
            fplen,
            fstarted,
            sol,
            sol_len,
            buf,
            tmp,
            cs,
            ctl,
            pause_at,
        )
        if code != K.CODE_PAUSED:
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
        stopping.check()  # a stop a finalizer swallowed (stopping's docstring)
        pause_at = int(nodes) + PAUSE_STEP
    return code, nodes, reasons, turns, sol, sol_len, bool(ctl[0] == K.CTL_SEARCHED_ALL)


def _widened(config, make_state, node_limit, nodes, reasons, t0, check) -> SolveResult:
    """The verdict of widening and the depth-bounded searches (`_after_orders`) with what the
    portfolio left of node_limit after `nodes`: the same search `_widen_rows` makes for
    the batch."""
    code, nodes, _turns, reason, line = _after_orders(
        config, make_state(), node_limit, nodes, reasons
    )
    res = SolveResult(OUTCOME_NAMES[code], nodes, time.perf_counter() - t0, line, reason)
    if check and res.outcome == "win":
        verify_solution(make_state(), res.solution)
    return res


def run_portfolio(
    root, n, c, gen, node_limit, buf, tmp, cs, objective, A, B, first_budget
) -> tuple:
    """kernel.portfolio's schedule run from Python: the two move orders (2 and 3) take
    turns in `kernel.dfs`, each paused after a doubling budget of positions, until one
    finishes; the same turns in the same order, so the same (code, nodes, reasons, turns,
    which order answered) as the compiled loop (tests/allisbomb/test_allisbomb_solver.py
    checks it against the sweep's). A turn longer than PAUSE_STEP positions is cut into
    calls of that many, each resumed exactly, so that Ctrl-C is acted on within one.

    A single deal makes a few of these calls (two per doubling), so running the loop here
    costs microseconds, and a first solve compiles `dfs` alone: compiling
    `kernel.portfolio` as well (the sweep's `solve_many` does) optimises and emits all of
    `dfs`'s code a second time, inside it (Numba links a callee's code into its caller's
    module and optimises the whole again): a sixth of the solver's cold compile."""
    half = max(1, node_limit // 2)
    A[10][0] = 0
    B[10][0] = 0
    budget = first_budget
    nodes = [0, 0]
    reasons = [0, 0]
    alive = [True, True]
    while True:
        for which, T, order in ((0, A, 2), (1, B, 3)):
            if not alive[which]:
                continue
            while True:  # its turn, in calls of PAUSE_STEP positions at most
                code, nodes[which], reasons[which], turns = K.dfs(
                    root,
                    n,
                    *c.rule_args,
                    T[0],
                    T[1],
                    gen,
                    half,
                    *T[2:10],
                    buf,
                    tmp,
                    cs,
                    objective,
                    0,
                    T[10],
                    min(budget, nodes[which] + PAUSE_STEP),
                    order,
                )
                if code != K.CODE_PAUSED or nodes[which] >= budget:
                    break
                stopping.check()
            if code == K.CODE_UNDECIDED:  # its share of the limit is spent; the other goes on
                alive[which] = False
            elif code != K.CODE_PAUSED:
                return code, nodes[0] + nodes[1], reasons[which], turns, which
        if not alive[0] and not alive[1]:
            return K.CODE_UNDECIDED, nodes[0] + nodes[1], reasons[0] | reasons[1], 0, 0
        budget *= 2


def _result(make_state, code, nodes, reasons, turns, sol, sol_len, t0, check) -> SolveResult:
    solution: list[tuple[int, ...]] = []
    if code == K.CODE_WIN:
        # one tolist() per array (element by element cost ~100 us per won deal, more than
        # the search of a typical base deal), and only of the columns used: a turn makes a
        # few choices, and converting all MAXC of each row cost ~15 us
        lens = sol_len[:turns].tolist()
        rows = sol[:turns, : max(lens, default=0)].tolist()
        solution = [tuple(r[:k]) for r, k in zip(rows, lens, strict=True)]
    res = SolveResult(
        OUTCOME_NAMES[int(code)], int(nodes), time.perf_counter() - t0, solution, int(reasons)
    )
    if check and res.outcome == "win":
        verify_solution(make_state(), res.solution)
    return res


def _read_only(a: np.ndarray) -> np.ndarray:
    if not a.flags.writeable:
        return a
    v = a.view()
    v.flags.writeable = False
    return v


def _dfs_call(
    root,
    n,
    c,
    index,
    entries,
    gen,
    node_limit,
    states,
    fch,
    fk,
    fplen,
    fstarted,
    fidx,
    sol,
    sol_len,
    buf,
    tmp,
    cs,
    objective,
    best_mode,
    ctl,
    pause_at,
    order=0,
):
    if best_mode == 2:
        # the bounded keep-most search: kernel.dfs compiles the bound only for a read-only
        # objective (kernel._bound_at_root), so the plain solve never compiles it
        objective = _read_only(objective)
    return K.dfs(
        root,
        n,
        *c.rule_args,
        index,
        entries,
        np.uint32(gen),
        node_limit,
        states,
        fch,
        fk,
        fplen,
        fstarted,
        fidx,
        sol,
        sol_len,
        buf,
        tmp,
        cs,
        objective,
        int(best_mode),
        ctl,
        pause_at,
        int(order),  # 0: the plain search; 2: ordering.py's card order
    )


def solve(
    config: Options,
    deck,
    node_limit: int = DEFAULT_NODE_LIMIT,
    shortest: bool = False,
    table_bits: int | None = None,
    check: bool = True,
    keep_most: bool = False,
    time_limit: float | None = None,
    portfolio: bool = True,
    bound: bool = True,
    order: int = 0,
) -> SolveResult:
    """Decide one deal (card ids, top first) under perfect play.

    portfolio=True (default) runs two move orders side by side (see `solve_batch`);
    portfolio=False is the plain search that matches the reference search node for node,
    in move order `order` (0 by card id; 2 ordering.py's card order, as
    `search.reference_search(order=2)`).
    shortest=True finds a win with the fewest turns (see solve_shortest). keep_most=True
    finds the win losing the fewest star cards (see solve_state; `bound` as there).
    With check=True a win's move list is replayed through the reference engine and a
    mismatch raises RuntimeError (it would be a bug, never a user error).

    >>> solve(Options(blitz=True), list(range(13))).outcome in ("win", "loss")
    True
    """
    t0 = time.perf_counter()
    c = compiled(config)
    arr = _deck_array(c.cards, deck)
    if shortest:
        return solve_shortest(new_game(c.cards, list(arr)), node_limit, table_bits, check)
    # the kernel's own setup writes the row (the layout tests check it against
    # to_kernel_state(new_game(...))); the reference position is made only to replay a win
    root = np.zeros(_row_words(c.cards.n)[1], np.uint64)
    K.setup(arr, c.cards.n, config.players, root)
    return _solve_root(
        config,
        root,
        lambda: new_game(c.cards, list(arr)),
        t0,
        node_limit,
        table_bits,
        check,
        keep_most,
        time_limit,
        portfolio,
        bound,
        order,
    )


def solve_shortest(
    state: State,
    node_limit: int,
    table_bits: int | None,
    check: bool,
    time_limit: float | None = None,
) -> SolveResult:
    """A win with the fewest turns: the portfolio search decides the deal, and if it is
    won, iterative deepening in the kernel (kernel.shortest) finds the fewest turns, at
    most the length of the win already found. Exact; `nodes` counts both searches.

    A loss or 'undecided' of the first search is the answer. If the node limit or
    `time_limit` (seconds) stops the deepening, the answer is the win already found, with
    loss_reason bit NOT_BEST (a win, not proven the shortest), as keep-most reports a win
    not proven the best; so is a win the deepening found after cutting a position's moves
    at the move cap (TOO_MANY_MOVES). The deepening pauses every PAUSE_STEP positions, to
    look at the clock and to let Ctrl-C through, and resumes exactly.
    """
    t0 = time.perf_counter()
    first = solve_state(
        state, node_limit, table_bits, check=False, portfolio=True, time_limit=time_limit
    )
    if first.outcome != "win":
        return SolveResult(
            first.outcome, first.nodes, time.perf_counter() - t0, [], first.loss_reason
        )
    code, nodes, reasons, turns, sol, sol_len, _all = _run_shortest(
        compiled(state.config),
        to_kernel_state(state),
        table_bits or table_bits_for(node_limit),
        max(1, node_limit - first.nodes),
        len(first.solution),
        deadline=None if time_limit is None else t0 + time_limit,
    )
    spent = int(nodes)
    if code != K.CODE_WIN:  # the win already found, not proven the shortest
        res = SolveResult(
            "win",
            first.nodes + spent,
            time.perf_counter() - t0,
            list(first.solution),
            int(Ending.NOT_BEST),
        )
        if check:
            verify_solution(state, res.solution)
        return res
    if reasons & K.E_MOVES:  # moves were cut: a shorter line may run through them
        reasons |= int(Ending.NOT_BEST)
    return _result(
        lambda: state, code, first.nodes + spent, reasons, turns, sol, sol_len, t0, check
    )


#: Positions the plain-Python reference search may enter in `solve_first` before the
#: single-deal solve hands over to the kernel: about a second of Python (15-20 thousand
#: positions per second), enough for most base-game deals (median ~700 positions). With
#: shortest=True the decision and the deepening share it.
REFERENCE_FIRST = 20_000
#: On a card file with the extended vocabulary, positions each DECK floor
#: (`floors.floors_for`, highest first) may enter in `solve_first` before the plain
#: reference search: on 12 deals each of rich_relay and rich_court the reference then
#: answered 9 and 10 (4 and 6 without), the 12 solves taking 0.52 and 0.43 of the time.
REFERENCE_FLOOR = 2_000


def solve_first(
    state: State,
    node_limit: int = DEFAULT_NODE_LIMIT,
    time_limit: float | None = None,
    check: bool = True,
    budget: int = REFERENCE_FIRST,
    before_kernel=None,
    shortest: bool = False,
    keep_most: bool = False,
) -> SolveResult:
    """Decide one position, answering without the Numba kernel when that is quick.

    The plain-Python reference search (`search.reference_search`, the same search as the
    kernel's plain order: same move order, same pruning, same node count, so the same
    verdict and winning line) runs first with at most `budget` positions (and half of
    `time_limit`). If it answers within them, that is the result (engine "reference"): on
    a fresh install this costs no compile. Otherwise `before_kernel()` is called (the
    command line announces the compile there) and the kernel decides the position under
    the full `node_limit` and what remains of `time_limit` (engine "kernel"; its nodes are
    its own), as `solve_state` (portfolio), `solve_shortest` or keep-most `solve_state`.

    On a card file with the extended vocabulary (not with shortest or keep_most) the DECK
    floors (search/floors.py, highest first) are searched before it, REFERENCE_FLOOR
    positions each and at most 3/8 of `budget` in all: a win there is the answer, and the
    plain search gets what they left.

    shortest=True: a won position goes on to `search.reference_deepening` (the kernel's
    iterative deepening, position for position) within what is left of the budget; the
    result is the win with the fewest turns, proven (the same length and the same line as
    `solve_shortest`: its deepening is the same search, and the line it finds does not
    depend on the first win's length). keep_most=True (Campaign Mode, rulebook H): the
    reference search with the bound (`reference_search(keep_most=True)`, the kernel's
    best_mode 2 node for node: the same best win, line and count). A search the budget
    stops is never reported: not a win not proven shortest or best, nor an 'undecided';
    the kernel searches again from the start, so the answer is the kernel-only answer.
    When the budget is the user's `node_limit` (node_limit <= budget) or `time_limit` has
    run out, the reference answers as the kernel would at its limit: 'undecided', or the
    win it found with loss_reason bit NOT_BEST.
    """
    from bombsolve.solvers.allisbomb.search.search import reference_deepening, reference_search

    if shortest and keep_most:
        raise BadInput("--shortest and --keep-most ask for different wins; choose one")
    t0 = time.perf_counter()
    first = min(budget, node_limit)
    # with a --time-limit the reference takes at most half of it: a position whose moves
    # are slow to list in Python (a card file near the move cap) goes on to the kernel
    # rather than use up the user's time. Without one the hand-over depends on positions
    # only, so the answer (engine and winning line) does not depend on the machine's speed.
    ref_time = None if time_limit is None else time_limit / 2
    floored = 0
    each = min(REFERENCE_FLOOR, first // 8)  # the floors take at most 3/8 of the budget
    if each > 0 and not (shortest or keep_most) and compiled(state.config).prog.extended:
        # the DECK floors first (search/floors.py): a win there is a win of the deal
        for floor in sorted(floors_for(len(state.deck)), reverse=True):
            left = None if ref_time is None else ref_time - (time.perf_counter() - t0)
            if left is not None and left <= 0:
                break
            fl = reference_search(state, node_limit=each, time_limit=left, floor=floor)
            floored += fl.nodes
            if fl.outcome == "win":
                if check:
                    verify_solution(state, fl.solution)
                secs = time.perf_counter() - t0
                return SolveResult("win", floored, secs, list(fl.solution), 0, engine="reference")
    left = None if ref_time is None else max(0.0, ref_time - (time.perf_counter() - t0))
    limit = first - floored
    ref = reference_search(state, node_limit=limit, time_limit=left, keep_most=keep_most)
    nodes, spent, won = ref.nodes + floored, ref.nodes, None
    not_best = int(Ending.NOT_BEST)
    if shortest and ref.outcome == "win":
        # the deepening within the rest of the budget (at least one position, as the kernel)
        won, limit = ref, max(1, first - ref.nodes)
        left = None if ref_time is None else max(0.0, ref_time - (time.perf_counter() - t0))
        ref = reference_deepening(state, len(won.solution), node_limit=limit, time_limit=left)
        spent = ref.nodes
        nodes += ref.nodes
    elapsed = time.perf_counter() - t0
    stopped = ref.outcome == "undecided" or bool(keep_most and ref.loss_reason & not_best)
    clock = ref_time is not None and stopped and elapsed >= ref_time
    out_of_time = time_limit is not None and elapsed > time_limit
    if not stopped or (not clock and (spent < limit or first >= node_limit)) or out_of_time:
        # a verdict, or a stop for a reason the kernel shares (no win after a line cut
        # at MAX_DEPTH or a position's moves cut at the move cap), or the limits themselves
        res = SolveResult(
            ref.outcome,
            nodes,
            time.perf_counter() - t0,
            list(ref.solution),
            ref.loss_reason,
            engine="reference",
        )
        if won is not None and ref.outcome != "win":
            # the win found, not proven the shortest: as solve_shortest reports it
            res.outcome, res.solution, res.loss_reason = "win", list(won.solution), not_best
        elif won is not None and ref.loss_reason & int(Ending.TOO_MANY_MOVES):
            res.loss_reason |= not_best  # moves were cut: a shorter line may run there
        if check and res.outcome == "win":
            verify_solution(state, res.solution)
        return res
    if before_kernel is not None:
        before_kernel()
    left = None if time_limit is None else max(1e-3, time_limit - (time.perf_counter() - t0))
    if shortest:
        res = solve_shortest(state, node_limit, None, check, time_limit=left)
    else:
        res = solve_state(
            state,
            node_limit=node_limit,
            check=check,
            keep_most=keep_most,
            time_limit=left,
            portfolio=True,
        )
    res.seconds = time.perf_counter() - t0
    return res


def verify_solution(state: State, solution: list[tuple[int, ...]]) -> State:
    """Replay a move list through the reference engine; raise RuntimeError unless it wins."""
    s = state.copy()
    for t, move in enumerate(solution):
        if s.is_over():
            raise RuntimeError(f"solution replay: game over before turn {t + 1}")
        s.apply(move)
    if s.outcome is not Outcome.WIN:
        raise RuntimeError(f"solution replay does not win (ends {s.outcome.value})")
    return s


def to_kernel_state(state: State) -> np.ndarray:
    """Encode a reference position as the kernel's state row (uint64; layout in layout.py).

    Built as Python bytes and ints and converted once: element by element through NumPy
    it cost ~70 us, a quarter of a typical base deal's search.
    """
    from bombsolve.solvers.allisbomb.rules.rules import _info

    n = state.cards.n
    KW, words = _row_words(n)
    HB = 8 * KW
    row = bytearray(8 * words)
    seq = [layout.PAD & 0xFF] * n
    seq[: len(state.deck)] = state.deck
    if state.discard:
        seq[n - len(state.discard) :] = state.discard[::-1]  # the bottom card at b[n - 1]
    row[:n] = bytes(seq)
    tracked = _info(state.cards)["tracked"]
    masks = [0] * 6
    card_bytes = bytearray(n)
    for c, z in enumerate(state.zone):
        card_bytes[c] = z | (layout.SIDE if state.ignited[c] else 0)
        masks[z] |= 1 << c
    for c in tracked:
        if state.played[c]:
            card_bytes[c] |= layout.PLAYED
    row[n : 2 * n] = card_bytes
    row[2 * n] = state.desired & 0xFF
    row[2 * n + 1] = min(state.gift_plays, 3) << 1 | state.active | _next_code(state) << 3
    row[HB + layout.H_DECK] = len(state.deck)
    row[HB + layout.H_PILE] = len(state.discard)
    row[HB + layout.H_OUTCOME] = _OUTCOME_CODE[state.outcome]
    row[HB + layout.H_ENDING] = int(state.ending)
    s = np.frombuffer(row, np.uint64).copy()
    s[KW] |= np.uint64(state.turn) << np.uint64(layout.TURN_SHIFT)
    s[KW + layout.W_MASKS : KW + layout.W_MASKS + 6] = masks
    return s


def _next_code(state: State) -> int:
    """The code of the effect waiting for the next card played (layout.py, b[2N+1])."""
    if state.next_card is None:
        return 0
    effect, k = state.next_card
    return layout.NEXT_ADD_ZERO + k if effect == "add" else _NEXT_CODE[effect]


_NEXT_CODE = {"ignited": layout.NEXT_IGNITED, "no_action": layout.NEXT_NO_ACTION}
_OUTCOME_CODE = {Outcome.ONGOING: K.R_ONGOING, Outcome.WIN: K.R_WIN, Outcome.LOSS: K.R_LOSS}


# (cached in Python: each is a jitted function, and a call from Python costs a dispatch, a
# few tenths of a microsecond of the ~10 us that `solve` adds to a search)
@cache
def _row_words(n: int) -> tuple[int, int]:
    """Key words and whole-row words of the state row for n cards."""
    return int(layout.key_words(n)), int(K.state_len(n))


@cache
def _entry_words(n: int) -> int:
    """Words of a table entry for n cards (kernel.tt_entry_words)."""
    return int(K.tt_entry_words(n))
