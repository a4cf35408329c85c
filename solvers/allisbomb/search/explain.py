"""Why a deal is lost, in the rulebook's words: the ends every line met and the longest line.

A search's loss reason is a set of `rules.Ending` bits. This module says them in words
(`ending_words`), with the pruning shown as what it proves: a position from which no win
is reachable, for the reason the dead-position analysis names (`prune.dead_proof`: one
rule of `prune.RULES`, said by `DEAD_WORDS`, and the one-shot retrievers it counted).
`explain_loss` re-walks a lost position with the reference engine under a budget and
reports each way the lines ended (with how often) and the longest line it met, with the
ending that stopped it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bombsolve.solvers.allisbomb.kernel.program import pruning_enabled
from bombsolve.solvers.allisbomb.kernel.prune import dead_proof
from bombsolve.solvers.allisbomb.rules.ending_words import ENDING_WORDS
from bombsolve.solvers.allisbomb.rules.rules import Ending, Outcome, State

#: What each dead-position rule (prune.RULES) proves, in words.
DEAD_WORDS = {
    "PRINCESS": "the PRINCESS can never again be played ignited (nothing can take her "
    "back from the DISCARD PILE, or she is out of play)",
    "DECK": "the DECK holds more cards than the ignited PRINCESS can draw in a winning turn",
    "DISH": "the DESIRED DISH is in the DISCARD PILE (or out of play) and nothing can take it back",
    "THRONE": "the THRONE can no longer be equipped",
    "PROPHECY": "no card that can still be played makes a PROPHECY naming a dish that can "
    "still be served",
    "THE JUICE": "THE JUICE can no longer become the DESIRED DISH",
    "MOSQUITOS": "a MOSQUITO is out of play",
    "DREAM GUIDE": "the DREAM GUIDE can no longer be played",
    "GIFTS": "fewer than three different GIFT cards can still be played",
    "ALL": "ALL can no longer be equipped",
}


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def ending_words(bits: int) -> list[str]:
    """The losing ends of a loss reason (bits of `Ending`) in words; NOT_BEST is not one."""
    return [w for e, w in ENDING_WORDS.items() if bits & e]


def dead_words(rule: str, group: list[str] | None = None) -> str:
    """'proved no win reachable: <what the rule proves>'; with `group` (the labels of the
    one-shot retrievers the proof counted, prune.py "One-shot retrievers"), the words say
    that the rule holds whatever few cards those can still take back."""
    words = f"{ENDING_WORDS[Ending.NO_WIN_REACHABLE]}: {DEAD_WORDS.get(rule, rule)}"
    if group:
        words += (
            f", whichever cards of the DISCARD PILE {_and(group)} can still take back "
            "(single cards, so they take back few)"
        )
    return words


@dataclass
class LossExplanation:
    """How the lines of a lost position end.

    `ends` counts each ending in words (a proved-dead position by the reason proved);
    `longest` is the longest line met (moves from the root), `longest_end` the ending
    that stopped it; `complete` is False if the budget stopped the walk first.
    """

    ends: dict[str, int] = field(default_factory=dict)
    longest: list[tuple[int, ...]] = field(default_factory=list)
    longest_end: str = ""
    positions: int = 0
    complete: bool = True


def explain_loss(root: State, budget: int = 20_000) -> LossExplanation:
    """Walk the lines of `root` as the reference search does (each position once) and
    say how they end; stop after `budget` positions (then `complete` is False)."""
    out = LossExplanation()
    if root.outcome is Outcome.LOSS:
        out.longest_end = ending_words(int(root.ending))[0] if root.ending else "lost"
        out.ends[out.longest_end] = 1
        return out
    prune_on = pruning_enabled(root.config)
    seen = {root.key()}
    on_line = {root.key()}
    stack = [(root, iter(root.children()))]
    line: list[tuple[int, ...]] = []

    def end(move, words: str) -> None:
        out.ends[words] = out.ends.get(words, 0) + 1
        if len(line) + 1 > len(out.longest):
            out.longest = [*line, move]
            out.longest_end = words

    while stack:
        state, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            on_line.discard(state.key())
            if line:
                line.pop()
            continue
        move, child = nxt
        if child.outcome is Outcome.WIN:  # not a lost position after all
            out.complete = False
            return out
        if child.outcome is Outcome.LOSS:
            end(move, ", ".join(ending_words(int(child.ending))) or "lost")
            continue
        proof = dead_proof(child) if prune_on else None
        if proof is not None:
            rule, group = proof
            end(move, dead_words(rule, [child.cards.cards[c].label for c in sorted(group)]))
            continue
        key = child.key()
        if key in on_line:
            end(move, ENDING_WORDS[Ending.CYCLE])
            continue
        if key in seen:
            continue
        if out.positions >= budget:
            out.complete = False
            return out
        out.positions += 1
        seen.add(key)
        on_line.add(key)
        stack.append((child, iter(child.children())))
        line.append(move)
    return out


def is_proof(words: str) -> bool:
    """True if `words` (an end of `explain_loss`) say where the pruning proved no
    win reachable (`dead_words`) rather than a way the rulebook's game is lost."""
    return words.startswith(ENDING_WORDS[Ending.NO_WIN_REACHABLE])
