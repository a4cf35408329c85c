"""Escalating node limits for sweeps: a first pass at a small limit, then only the deals it
left undecided again, each time at twice the limit, up to a ceiling.

Every pass is the same exhaustive search (`solver.solve_batch`), so a verdict reached at
any limit is the verdict of every larger limit: escalation never changes a decided deal,
it only spends more positions on the deals a smaller limit could not decide. The cost of
a deal decided at limit L is at most about 2L (the passes before it sum to less than L),
while almost every deal is decided in the first, cheap pass.

A pass restarts its deals from the setup position: the transposition table of the smaller
pass is not kept (it would cost the memory of every undecided deal at once), which is
what bounds the waste by the doubling.

A deal still undecided at the ceiling may then be split (`split.solve_split`, when the
policy's `split` depth is set): its turn's children are decided one by one, each with a
search and a table of its own, which decides deals whose first moves lead into a loss too
large for any table while a later move wins.

The ceiling's table: beyond `solver.MAX_TABLE_BITS` (about 3 M stored positions per move
order) a search keeps going exactly but without storing, so a pass above that limit is
given a larger table, up to `TABLE_BITS_CEILING` (see `table_bits_for`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.kernel.kernel import CODE_UNDECIDED, bits_to_store
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search.solver import (
    MAX_TABLE_BITS,
    OUTCOME_NAMES,
    PORTFOLIO_FIRST,
    solve_batch,
)
from bombsolve.solvers.allisbomb.search.split import SPLIT_LIMIT, solve_split
from bombsolve.solvers.common.errors import BadInput

#: First pass of a sweep's escalation (positions per deal, both move orders together): the
#: one-pass sweep's node limit, so an escalating sweep costs what a one-pass sweep costs on
#: every deal that one decides. A smaller first pass is slower, not faster: a deal decided
#: at x positions costs about 2x by doubling from below (every smaller pass is spent
#: first), and the hard deals are most of a sweep's positions; measured on the same 60
#: six-expansion deals, escalating from 200,000 took 1.6x the CPU of one pass at 3,000,000
#: (scripts/bench/bench_allisbomb_sweep.py). The cheap first pass pays when the pass limit is
#: what bounds a run's time or memory, not its total CPU.
FIRST_LIMIT = 3_000_000
#: Last pass: a deal still undecided here is reported 'undecided'.
CEILING = 51_200_000
#: The ceiling a sweep escalates to by itself, with no --escalate and no --node-limit, when
#: a card file uses the extended vocabulary (CARDS.md, "Limits"): there a deal left open
#: at the first pass is often a win a little past it (held-out random set 6's deal 196 of
#: seed 2026 at 3,780,885 positions), and two more passes cost at most 18,000,000
#: positions a deal still open, about 30 CPU-s.
RICH_CEILING = 4 * FIRST_LIMIT
#: The kernel's verdict code of each outcome name (the inverse of `solver.OUTCOME_NAMES`).
CODE_OF_OUTCOME = {name: code for code, name in OUTCOME_NAMES.items()}
#: Largest table a pass may get (2**24 index slots, 12.6 million positions a move order;
#: the kernel's entry numbers allow 2**kernel.TT_ENTRY_BITS). Its pages are mapped only as
#: a search fills them; a pass that fills it goes on exactly without storing.
TABLE_BITS_CEILING = 24


@dataclass(frozen=True)
class Escalation:
    """The node limits of an escalating sweep: first, 2*first, 4*first, ... up to ceiling
    (the last pass is at the ceiling itself, even when it is not a doubling of first),
    then, if `split` is positive, the deals still undecided split to that many turns, each
    child searched with `split_limit` positions (`split.solve_split`), and all of a deal's
    children together with at most `split_total` positions (0: no bound).

    >>> Escalation(1000, 5000).limits()
    [1000, 2000, 4000, 5000]
    """

    first: int = FIRST_LIMIT
    ceiling: int = CEILING
    split: int = 0
    split_limit: int = SPLIT_LIMIT
    split_total: int = 0

    def __post_init__(self) -> None:
        if self.first < 1:
            raise BadInput(f"escalation first limit {self.first} is not positive")
        if self.ceiling < self.first:
            raise BadInput(
                f"escalation ceiling {self.ceiling:,} is below its first limit {self.first:,}"
            )
        if self.split < 0:
            raise BadInput(f"split depth {self.split} is negative; expected 0 (no split) or more")
        if self.split_limit < 1:
            raise BadInput(f"split node limit {self.split_limit} is not positive")
        if self.split_total < 0:
            raise BadInput(
                f"split total limit {self.split_total} is negative; expected 0 (no bound) or more"
            )

    def limits(self) -> list[int]:
        """The node limit of each pass, in order."""
        out = [self.first]
        while out[-1] < self.ceiling:
            out.append(min(2 * out[-1], self.ceiling))
        return out

    def to_dict(self) -> dict[str, int]:
        """JSON-ready parameters (for study manifests); the split's only when it is on, and
        its total only when it is bounded, so a study made before either existed keeps its
        identity."""
        out = {"first": self.first, "ceiling": self.ceiling}
        if self.split:
            out |= {"split": self.split, "split_limit": self.split_limit}
            if self.split_total:
                out["split_total"] = self.split_total
        return out


#: The split a sweep does by itself after RICH_CEILING on a card file with the extended
#: vocabulary: turns deep, positions a child, positions of a deal's children in all.
#: Children of a million positions split deep cost a fraction of the split's default
#: (25,000,000 four turns deep) on the deals the passes leave open; the total bounds what
#: a deal that stays open costs (what the passes spent on it, 21,000,000, again): measured
#: in results/PERFORMANCE.md, "Sweeps that split by default".
RICH_SPLIT_DEPTH = 8
RICH_SPLIT_LIMIT = 1_000_000
RICH_SPLIT_TOTAL = sum(Escalation(FIRST_LIMIT, RICH_CEILING).limits())
#: The escalation a sweep of a card file with the extended vocabulary does by itself.
RICH_ESCALATION = Escalation(
    FIRST_LIMIT, RICH_CEILING, RICH_SPLIT_DEPTH, RICH_SPLIT_LIMIT, RICH_SPLIT_TOTAL
)


def table_bits_for(node_limit: int) -> int | None:
    """The table of a pass: None (the solver's own choice) up to the solver's largest table,
    else room for both move orders' halves of the limit, at most TABLE_BITS_CEILING bits."""
    half = max(1, node_limit // 2)
    if half <= (3 << MAX_TABLE_BITS) // 4:
        return None
    return int(min(TABLE_BITS_CEILING, max(MAX_TABLE_BITS, bits_to_store(half))))


def continues_one_pass(node_limit: int) -> bool:
    """Whether an escalation whose first pass is at `node_limit` searches that pass as a
    one-pass sweep at that limit does (the same table: `table_bits_for` leaves it to the
    solver), so that its rows of the deals decided there are that sweep's rows."""
    return table_bits_for(node_limit) is None


def solve_escalating(
    config: Options,
    decks: np.ndarray,
    policy: Escalation = Escalation(),
    first_budget: int = PORTFOLIO_FIRST,
    after: int = 0,
) -> dict[str, np.ndarray]:
    """Decide every row of `decks` (int array [m, n]) under the escalation `policy`.

    Returns `solver.solve_batch`'s arrays ('code', 'turns', 'reason' of the deciding pass;
    'nodes' summed over every pass the deal took part in) plus 'limit', the node limit of
    the pass that decided the deal (or the ceiling for a deal left undecided), and
    'passes', how many passes the deal took part in, and 'split', the children the split
    searched (0 for a deal the passes decided; its 'limit' is then the ceiling and its
    'nodes' include the split's). first_budget as in `solve_batch`.

    `after`: the passes at limits up to it were run before and left every row undecided
    (an earlier sweep's ceiling, which the policy's passes include): they are not run
    again, and their positions are not counted here. The rows pass on to the later passes
    and the split as they would have.
    """
    decks = np.ascontiguousarray(decks, dtype=np.int64)
    m = decks.shape[0]
    out = {k: np.zeros(m, np.int64) for k in ("code", "nodes", "turns", "reason", "limit")}
    out["passes"] = np.zeros(m, np.int64)
    out["split"] = np.zeros(m, np.int64)
    out["limit"][:] = after
    out["code"][:] = CODE_UNDECIDED
    todo = np.arange(m)
    for limit in policy.limits():
        if limit <= after:
            continue
        if todo.size == 0:
            break
        res = solve_batch(
            config,
            decks[todo],
            node_limit=limit,
            table_bits=table_bits_for(limit),
            first_budget=first_budget,
        )
        out["nodes"][todo] += res["nodes"]
        out["passes"][todo] += 1
        for k in ("code", "turns", "reason"):
            out[k][todo] = res[k]
        out["limit"][todo] = limit
        todo = todo[res["code"] == CODE_UNDECIDED]
    if policy.split and todo.size:
        cs = load_cards(config)
        for i in todo:
            res = solve_split(
                new_game(cs, decks[i].tolist()),
                depth=policy.split,
                node_limit=policy.split_limit,
                total_limit=policy.split_total or None,
            )
            out["code"][i] = CODE_OF_OUTCOME[res.outcome]
            out["nodes"][i] += res.nodes
            out["turns"][i] = len(res.solution)
            out["reason"][i] = res.loss_reason
            out["split"][i] = res.searches
    return out


def escalation_line(
    config: Options, deck: np.ndarray, policy: Escalation, /, **fields: object
) -> dict[str, object]:
    """Decide one deal (`deck`, int array [1, n]) under `policy` and return its record:
    `fields` first (which deal, which variant; `config` may be one of them), then the
    verdict code, whether it is undecided, positions over every pass, the deciding pass's
    limit and the CPU seconds."""
    t = time.process_time()
    res = solve_escalating(config, deck, policy)
    cpu = time.process_time() - t
    return {
        **fields,
        "code": int(res["code"][0]),
        "undecided": bool(res["code"][0] == CODE_UNDECIDED),
        "nodes": int(res["nodes"][0]),
        "limit": int(res["limit"][0]),
        "cpu_s": round(cpu, 3),
    }
