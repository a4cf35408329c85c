"""Every Blitz deal: decide each of the 13!/3! = 1,037,836,800 deals once (rulebook G, "Blitz").

Blitz plays the 13 distinct base cards left after "you remove one card from each of the
duplicate pairs". Setup (rulebook B) draws 3 cards and EQUIPS them: the equipped cards
are a set, not a sequence, so two shuffles that differ only in the order of their first
three cards are the same game (the kernel's setup position is the same row). A *Blitz deal*
here is therefore one shuffle with its first three cards in increasing card id, and the
deals are numbered by their lexicographic order (`blitz_ranks.deal_rank`, `deal_of_rank`): rank
r = (index of the equipped 3-set among the C(13, 3) = 286 sets, in lexicographic order)
* 10! + (lexicographic rank of the order of the other 10 cards). Each deal stands for the
3! = 6 shuffles that reach it, so the share of winnable deals is the share of winnable
uniform shuffles.

The study (`exhaust_study`) cuts a range of ranks into blocks of at most `BLOCK` deals,
one runner case each, and blocks into chunks (resumable, local processes or Dask). A block
builds its decks in Numba (`blitz_ranks.decks_of_ranks`) and decides them in one kernel call
(`solver.solve_batch`'s `kernel.solve_many`; the deals it leaves undecided go on through
`escalate.solve_escalating`, one call per pass). A block's row holds counts, positions
and CPU seconds, never one row per deal. `sample_study` decides uniform random deals
instead (for an estimate with its interval when the whole range is out of reach).

The whole count (`group_study`) runs the deals in another order, by *groups*: the deals
whose bottom 13 - GROUP_TOP cards lie in one order (`blitz_ranks.group_decks`). Deals of a
group meet many of each other's positions (once the top cards are drawn, what is left is
the same DECK), so they are decided by `decide_shared`: one kernel call per case, whose
search keeps the positions it has proven won or lost in a table shared by the deals of a
chunk (`exhaust_kernel`; a position's verdict does not depend on the deal it came from).
The verdicts are those of `decide`; only the positions entered (and the CPU) differ.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from bombsolve.solvers.allisbomb.cards.cards import load_cards, provenance_words
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel import exhaust_kernel as EK
from bombsolve.solvers.allisbomb.kernel.kernel import CODE_LOSS, CODE_UNDECIDED, CODE_WIN, MAXC
from bombsolve.solvers.allisbomb.kernel.layout import key_words, state_words
from bombsolve.solvers.allisbomb.rules.blitz_ranks import (
    GROUP_TOP,
    N_CARDS,
    N_DEALS,
    N_EQUIPPED,
    deal_of_rank,
    deal_rank,
    decks_of_ranks,
    group_decks,
    group_size,
    n_groups,
    parse_ranks,
)
from bombsolve.solvers.allisbomb.rules.commands import rerun_command
from bombsolve.solvers.allisbomb.rules.deals import rank as perm_rank
from bombsolve.solvers.allisbomb.search.escalate import Escalation, solve_escalating
from bombsolve.solvers.allisbomb.search.search import MAX_DEPTH
from bombsolve.solvers.allisbomb.search.solver import compiled
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.runner import ChunkSpec, Study
from bombsolve.solvers.common.stats import wilson_undecided

BLITZ = Options(blitz=True)
#: Deals decided per kernel call, and per runner case (a block: its decks are 13 int64
#: each, 6.8 MB).
BLOCK = 1 << 16
#: Node limits of `exhaust`: the first pass decides all but a few deals; the rest escalate.
ESCALATION = Escalation(first=100_000, ceiling=51_200_000)
#: Positions each move order of the portfolio searches before the first switch: 200, not
#: the solver's 1,000: 11% fewer positions per Blitz deal (mean 280 against 313 on two sets of
#: 20,000 uniform deals; 100 gave 279, 400 gave 289).
FIRST_BUDGET = 200
#: The shared-table search (`decide_shared`): its move order (ordering.py's order 2), the
#: positions it may enter per deal before the deal goes on to the escalation, and its
#: table (2**SHARED_BITS index slots). 2**18 slots (a 2 MB index over 6 MB of entries,
#: emptied about every 1,000 deals): deals that meet run one after another
#: (`blitz_ranks.group_decks`), so a table that stays nearer the processor costs less
#: than the positions a larger one saves (stand-in v2, 120,960 deals of two random runs
#: of 9 groups, interleaved, load 3: 2**18 20.1 us and 68.6 positions per deal, 2**19
#: 22.2 and 62.7, 2**20 23.2 and 59.6, 2**21 24.3 and 55.7).
SHARED_ORDER = 2
SHARED_LIMIT = 20_000
SHARED_BITS = 18
#: Deals per chunk of the runner (part of a study's identity).
DEFAULT_CHUNK = 1_000_000

EXHAUST_COLUMNS = (
    "case",
    "first_rank",
    "stop_rank",
    "deals",
    "wins",
    "losses",
    "undecided",
    "positions",
    "max_positions",
    "hardest_rank",
    "cpu_seconds",
)


def decide(ranks: np.ndarray, policy: Escalation = ESCALATION) -> dict[str, np.ndarray]:
    """Decide the Blitz deals of `ranks` in one kernel call (then one per escalation pass for
    the few left undecided); `escalate.solve_escalating`'s arrays."""
    return solve_escalating(BLITZ, decks_of_ranks(ranks), policy, FIRST_BUDGET)


class SharedTable:
    """A table of decided positions kept over many `decide_shared` calls (exhaust_kernel):
    2**bits index slots, entries up to half of them (emptied before a deal once it holds
    more than `refill` of them). One table serves one card program: it is made for BLITZ
    and its card file."""

    def __init__(self, bits: int = SHARED_BITS) -> None:
        c = compiled(BLITZ)
        self.n = c.cards.n
        slots = 1 << bits
        rows = slots // 2
        self.index = np.zeros(slots, np.uint64)
        self.entries = np.zeros((rows, key_words(self.n) + 2), np.uint64)
        self.state = np.zeros(3, np.int64)  # generation, search number, next free entry
        self.refill = max(0, rows - 4 * SHARED_LIMIT)
        self.frames = EK.new_frames(MAX_DEPTH, state_words(self.n), MAXC)


def decide_shared(
    decks: np.ndarray,
    table: SharedTable | None = None,
    policy: Escalation = ESCALATION,
    node_limit: int = SHARED_LIMIT,
) -> dict[str, np.ndarray]:
    """Decide Blitz `decks` [m, 13] in one call of `exhaust_kernel.solve_shared` (one move
    order, a table of proven positions shared by the deals and kept in `table`); the deals
    it leaves undecided at `node_limit` positions go on through `escalate.solve_escalating`
    (their 'nodes' count both). Returns 'code' and 'nodes' arrays. Verdicts equal
    `decide`'s; deals that reach positions decided before enter fewer positions."""
    table = table or SharedTable()
    c = compiled(BLITZ)
    decks = np.ascontiguousarray(decks, dtype=np.int64)
    m = decks.shape[0]
    code = np.zeros(m, np.int64)
    nodes = np.zeros(m, np.int64)
    reason = np.zeros(m, np.int64)
    EK.solve_shared(
        decks,
        c.prog.n,
        BLITZ.players,
        *c.rule_args,
        table.index,
        table.entries,
        table.state,
        node_limit,
        table.refill,
        np.int64(SHARED_ORDER),
        table.frames,
        code,
        nodes,
        reason,
    )
    todo = np.flatnonzero(code == CODE_UNDECIDED)
    if todo.size:
        res = solve_escalating(BLITZ, decks[todo], policy, FIRST_BUDGET)
        code[todo] = res["code"]
        nodes[todo] += res["nodes"]
    return {"code": code, "nodes": nodes}


def _row(case: int, ranks: np.ndarray, res: dict[str, np.ndarray], cpu: float) -> dict:
    code, nodes = res["code"], res["nodes"]
    hardest = int(np.argmax(nodes))
    return {
        "case": case,
        "first_rank": int(ranks.min()),
        "stop_rank": int(ranks.max()) + 1,
        "deals": len(ranks),
        "wins": int((code == CODE_WIN).sum()),
        "losses": int((code == CODE_LOSS).sum()),
        "undecided": int((code == CODE_UNDECIDED).sum()),
        "positions": int(nodes.sum()),
        "max_positions": int(nodes[hardest]),
        "hardest_rank": int(ranks[hardest]),
        "cpu_seconds": cpu,
    }


def rerun_of_rank(config: Options, r: int) -> str | None:
    """The command that solves the Blitz deal of rank `r` of this count alone: its shuffle
    (`deal_of_rank`) by the rank `bombsolve allisbomb --rank` takes, which numbers every
    order of the 13 cards (`deals.rank`), not the deals of this count; `config` is the
    count's game (Blitz, with its rule options)."""
    return rerun_command(config, perm_rank(deal_of_rank(r)))


def _frame(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(EXHAUST_COLUMNS))


def exhaust_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Decide the blocks of one chunk (the runner's chunk function): case k holds the deals
    of ranks first + k * block up to the range's end; one row of counts per block
    (`EXHAUST_COLUMNS`). `cpu_seconds` is the one column that is not reproducible."""
    policy = Escalation(**params["escalation"])
    first, stop, block = (int(params[k]) for k in ("first_rank", "stop_rank", "block"))
    rows = []
    for case in range(chunk.start, chunk.stop):
        a = first + case * block
        ranks = np.arange(a, min(a + block, stop), dtype=np.int64)
        t0 = time.process_time()
        res = decide(ranks, policy)
        rows.append(_row(case, ranks, res, time.process_time() - t0))
    return _frame(rows)


# The name every study of it records (runner.chunk_name), from before the rooms.
exhaust_chunk.study_name = "solvers.allisbomb.exhaust.exhaust_chunk"  # type: ignore[attr-defined]


def sample_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Decide uniform random deals: case k is a block of ranks drawn with replacement by a
    generator on the case's own seed (so the deals do not depend on the chunking); rows as
    `exhaust_chunk`'s (`first_rank`/`stop_rank` then are the block's smallest rank and one
    past its largest)."""
    policy = Escalation(**params["escalation"])
    total, block = int(params["sample"]), int(params["block"])
    rows = []
    for case, seed in zip(range(chunk.start, chunk.stop), chunk.case_seeds(), strict=True):
        m = min(block, total - case * block)
        rng = np.random.default_rng(int(seed))
        ranks = np.sort(rng.integers(0, N_DEALS, size=m, dtype=np.int64))
        t0 = time.process_time()
        res = decide(ranks, policy)
        rows.append(_row(case, ranks, res, time.process_time() - t0))
    return _frame(rows)


# The name every study of it records (runner.chunk_name), from before the rooms.
sample_chunk.study_name = "solvers.allisbomb.exhaust.sample_chunk"  # type: ignore[attr-defined]


GROUP_COLUMNS = ("case", "first_group", "stop_group", *EXHAUST_COLUMNS[3:])


def group_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Decide the groups of one chunk (`blitz_ranks.group_decks`): case k holds groups
    first + k * per .. first + (k + 1) * per - 1 (up to the range's end), decided by `decide_shared` over one table made for the
    chunk (so a chunk's positions do not depend on what ran before it in its process); one
    row of counts per case (`GROUP_COLUMNS`; `hardest_rank` is a deal rank)."""
    policy = Escalation(**params["escalation"])
    top, per = int(params["group_top"]), int(params["groups_per_case"])
    first, stop = int(params.get("first_group", 0)), int(params.get("stop_group", params["groups"]))
    table = SharedTable(int(params["shared_bits"]))
    limit = int(params["shared_limit"])
    rows = []
    for case in range(chunk.start, chunk.stop):
        g0 = first + case * per
        groups = np.arange(g0, min(g0 + per, stop), dtype=np.int64)
        t0 = time.process_time()
        decks, ranks = group_decks(groups, top)
        res = decide_shared(decks, table, policy, limit)
        row = _row(case, ranks, res, time.process_time() - t0)
        del row["first_rank"], row["stop_rank"]
        rows.append({"first_group": int(groups[0]), "stop_group": int(groups[-1]) + 1, **row})
    return pd.DataFrame(rows, columns=list(GROUP_COLUMNS))


# The name every study of it records (runner.chunk_name), from before the rooms.
group_chunk.study_name = "solvers.allisbomb.exhaust.group_chunk"  # type: ignore[attr-defined]


def group_study(
    chunk_size: int = DEFAULT_CHUNK,
    policy: Escalation = ESCALATION,
    top: int = GROUP_TOP,
    groups: tuple[int, int] | None = None,
) -> Study:
    """The study deciding every Blitz deal, group by group (`blitz_ranks.group_decks`:
    the deals sharing the order of the 13 - top bottom cards), in chunks of about
    `chunk_size` deals (whole cases of at most BLOCK deals). `groups` = (A, B) decides
    only groups A to B - 1 (a part of the whole count, searched as the whole count
    searches it); the default is all of them."""
    size = group_size(top)
    per = max(1, BLOCK // size)
    every = n_groups(top)
    first, stop = groups if groups is not None else (0, every)
    if not 0 <= first < stop <= every:
        raise BadInput(f"groups {first}:{stop}: expected 0 <= A < B <= {every:,}")
    cases = -(-(stop - first) // per)
    if chunk_size < 1:
        raise BadInput(f"--chunk-size {chunk_size} is not positive; expected deals per chunk")
    params = {
        **_params(policy),
        "search": "exhaust_kernel.solve_shared (one move order, a table of proven positions "
        "per chunk), then escalate.solve_escalating for the deals it leaves undecided",
        "group_top": top,
        "groups": every,
        "groups_per_case": per,
        "group_order": "bottom card slowest; within a group, the deck from the bottom up",
        "shared_order": SHARED_ORDER,
        "shared_limit": SHARED_LIMIT,
        "shared_bits": SHARED_BITS,
    }
    if (first, stop) != (0, every):
        params.update({"first_group": int(first), "stop_group": int(stop)})
    return Study(
        name="allisbomb.exhaust-groups",
        params=params,
        n_cases=cases,
        seed=0,
        chunk_fn=group_chunk,
        chunk_size=max(1, chunk_size // (per * size)),
        input_files=load_cards(BLITZ).files,
        progress_fn=progress_text,
    )


def parse_groups(text: str) -> tuple[int, int]:
    """'A:B' (a half-open range of `group_study`'s groups; either end may be left out)."""
    every = n_groups()
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        a = int(parts[0].replace("_", "").replace(",", "")) if parts[0].strip() else 0
        b = int(parts[1].replace("_", "").replace(",", "")) if parts[1].strip() else every
    except ValueError:
        raise BadInput(f"--groups {text!r}: expected A:B, two group numbers (e.g. 0:45)") from None
    if not 0 <= a < b <= every:
        raise BadInput(f"--groups {text!r}: expected 0 <= A < B <= {every:,}")
    return a, b


def _blocks(deals: int, chunk_deals: int) -> tuple[int, int, int]:
    """(deals per block, blocks, blocks per chunk) for `deals` deals in chunks of about
    `chunk_deals` (rounded down to whole blocks of at most BLOCK deals)."""
    if chunk_deals < 1:
        raise BadInput(f"--chunk-size {chunk_deals} is not positive; expected deals per chunk")
    block = min(BLOCK, chunk_deals)
    return block, -(-deals // block), max(1, chunk_deals // block)


def progress_text(df: pd.DataFrame) -> str:
    """The running count on the progress bar: deals won of deals decided so far."""
    deals, wins = int(df["deals"].sum()), int(df["wins"].sum())
    return f"{wins:,}/{deals:,} won ({wins / max(deals, 1):.4%}), {int(df['undecided'].sum())} undecided"


def _params(policy: Escalation) -> dict[str, Any]:
    return {
        "config": BLITZ.label(),
        "deal": "a shuffle with its 3 EQUIPPED cards in increasing id (13!/3! deals)",
        "escalation": policy.to_dict(),
        "search": "solver.solve_batch (portfolio of two move orders), per escalation pass",
        "first_budget": FIRST_BUDGET,
    }


def exhaust_study(
    first: int = 0,
    stop: int = N_DEALS,
    chunk_size: int = DEFAULT_CHUNK,
    policy: Escalation = ESCALATION,
) -> Study:
    """The study deciding the Blitz deals of ranks [first, stop) for `runner.run_study`, in
    chunks of about `chunk_size` deals (whole blocks of at most BLOCK deals). All of them
    (the default range) is `group_study`: every deal, group by group, where deals share
    their work; a part of the range runs its ranks in order with `decide`."""
    if not 0 <= first < stop <= N_DEALS:
        raise BadInput(f"ranks {first}:{stop}: expected 0 <= A < B <= {N_DEALS:,}")
    if (first, stop) == (0, N_DEALS):
        return group_study(chunk_size, policy)
    block, cases, per_chunk = _blocks(stop - first, chunk_size)
    params = {**_params(policy), "first_rank": int(first), "stop_rank": int(stop), "block": block}
    return Study(
        name="allisbomb.exhaust",
        params=params,
        n_cases=cases,
        seed=0,  # nothing is random: every deal of the range
        chunk_fn=exhaust_chunk,
        chunk_size=per_chunk,
        input_files=load_cards(BLITZ).files,
        progress_fn=progress_text,
    )


def sample_study(
    deals: int, seed: int, chunk_size: int = DEFAULT_CHUNK, policy: Escalation = ESCALATION
) -> Study:
    """The study deciding `deals` uniform random Blitz deals (SeedSequence(seed) children)."""
    if deals < 1:
        raise BadInput(f"--sample {deals} is not positive; expected 1 or more")
    block, cases, per_chunk = _blocks(deals, chunk_size)
    return Study(
        name="allisbomb.exhaust-sample",
        params={**_params(policy), "sample": int(deals), "block": block},
        n_cases=cases,
        seed=int(seed),
        chunk_fn=sample_chunk,
        chunk_size=per_chunk,
        input_files=load_cards(BLITZ).files,
        progress_fn=progress_text,
    )


def summarize(df: pd.DataFrame, total: int, sampled: bool = False) -> dict[str, Any]:
    """The counts of a finished (or partial) study: wins as an exact fraction of the deals
    decided, the CPU cost per deal, the hardest deal; for a sample, the Wilson interval."""
    deals = int(df["deals"].sum()) if len(df) else 0
    wins = int(df["wins"].sum()) if len(df) else 0
    und = int(df["undecided"].sum()) if len(df) else 0
    cpu = float(df["cpu_seconds"].sum()) if len(df) else 0.0
    out: dict[str, Any] = {
        "config": BLITZ.label(),
        "cards": BLITZ.cards_version,
        "provenance": provenance_words(load_cards(BLITZ).provenance_by_set()),
        "deals": deals,
        "of": int(total),
        "complete": deals == total,
        "wins": wins,
        "losses": int(df["losses"].sum()) if len(df) else 0,
        "undecided": und,
        "positions": int(df["positions"].sum()) if len(df) else 0,
        "cpu_seconds": round(cpu, 3),
        "us_per_deal": round(1e6 * cpu / deals, 2) if deals else None,
    }
    if len(df):
        h = df.loc[df["max_positions"].idxmax()]
        out["hardest"] = {"rank": int(h["hardest_rank"]), "positions": int(h["max_positions"])}
    if sampled:
        lo, hi = wilson_undecided(wins, und, deals) if deals else (0.0, 1.0)
        out.update({"rate": wins / deals if deals else None, "lo": lo, "hi": hi})
    elif deals and und == 0:
        f = Fraction(wins, deals)
        out["fraction"] = f"{wins}/{deals}"
        out["fraction_reduced"] = f"{f.numerator}/{f.denominator}"
        out["rate"] = wins / deals
    return out


__all__ = [
    "N_CARDS",
    "N_DEALS",
    "N_EQUIPPED",
    "deal_of_rank",
    "deal_rank",
    "decks_of_ranks",
    "parse_ranks",
    "parse_groups",
    "group_study",
    "decide",
    "exhaust_study",
    "sample_study",
    "summarize",
    "rerun_of_rank",
]
