"""Helpers for All Is Bomb tests: build positions by card label."""

from __future__ import annotations

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.rules.rules import State, state_from_json


def position(
    config: Options,
    deck=(),
    equipped=((),),
    discard=(),
    ignited=(),
    desired=None,
    played=(),
    active=0,
) -> State:
    """A position with the given zones (labels; `discard` bottom first, as `State.discard`
    keeps it); every other card is out of play."""
    cs = load_cards(config)
    used = list(deck) + [x for e in equipped for x in e] + list(discard)
    rest = list(cs.labels)
    for lab in used:
        rest.remove(lab)
    ids: list[int] = []
    free = {}
    for i, lab in enumerate(cs.labels):
        free.setdefault(lab, []).append(i)
    for lab in ignited:
        ids.append(free[lab].pop(0))
    data = {
        "format": 2,
        "deck": list(deck),
        "equipped": [list(e) for e in equipped],
        "discard": list(discard)[::-1],
        "out": rest,
        "ignited_ids": ids,
        "desired": desired,
        "played": list(played),
        "active": active,
    }
    return state_from_json(data, cs)


def labels(state: State, ids) -> list[str]:
    return [state.cards.labels[c] for c in ids]


def escalated_sweep_args(out, deals: int, first: int, ceiling: int, chunk_size: int) -> list[str]:
    """`bombsolve allisbomb sweep` arguments for a small escalating sweep of base deals
    (seed 2, one worker, no report) into `out`."""
    return [
        *("allisbomb", "sweep", "--deals", str(deals), "--seed", "2", "--escalate"),
        *("--first-limit", str(first), "--node-limit", str(ceiling), "--heuristic-deals", "0"),
        *("--no-report", "--workers", "1", "--chunk-size", str(chunk_size), "--out", str(out)),
    ]
