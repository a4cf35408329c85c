"""The provenance caption of an All Is Bomb sweep (DESIGN.md, "Truth of results": a
result says which rules, cards, options, agents, seeds and code version made it), from
its manifest alone.

Kept apart from `study.py` so that a report, which only reads a finished sweep, does not
import the solver and its Numba kernels to write its caption.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bombsolve.solvers.allisbomb.cards.cards import provenance_words
from bombsolve.solvers.allisbomb.cards.config import UNVERSIONED_CARDS
from bombsolve.solvers.common.runner import computed_by


def caption(manifest: Mapping[str, Any]) -> str:
    """The provenance line printed under every chart and table of a sweep."""
    ident = manifest["identity"]
    p = ident["params"]
    esc = p.get("escalation")
    limit = (
        f"node limits doubling from {esc['first']:,} up to {esc['ceiling']:,} "
        "(only undecided deals go on)"
        if esc
        else f"node limit {p['node_limit']:,}"
    )
    if esc and esc.get("split"):
        limit += (
            f", then the deals still undecided split {esc['split']} turns deep, each child "
            f"searched with up to {esc['split_limit']:,} positions"
        )
        if esc.get("split_total"):
            limit += f" and a deal's children with up to {esc['split_total']:,} in all"
    return (
        f"All Is Bomb, {cards_words(p)}; {ident['n_cases'] // len(p['labels']):,} deals per configuration "
        f"(uniform shuffles, SeedSequence({ident['seed']}), chunks of {ident['chunk_size']}); perfect "
        f"play = exhaustive search, {limit}; {_players_text(p)} on "
        f"{_heuristic_text(p)}; rule options at defaults unless the label says otherwise; "
        f"bombsolve {manifest['versions']['bombsolve']} @ {computed_by(manifest)}"
    )


def _heuristic_text(params: Mapping[str, Any]) -> str:
    h = int(params["heuristic_deals"])
    if h == 0:
        return "no deals (--heuristic-deals 0)"
    if params.get("heuristic_spread"):
        return f"{h:,} deals per configuration spread evenly"
    return f"the first {h:,} deals"


def cards_words(params: Mapping[str, Any]) -> str:
    """Whose card texts a sweep used, per configuration and set (its `provenance` param;
    a study without one used only the shipped STAND-IN texts)."""
    prov = params.get("provenance")
    versions = sorted(
        {c.get("cards_version", UNVERSIONED_CARDS) for c in params.get("configs", [])}
    ) or [UNVERSIONED_CARDS]
    sets = f"stand-in set {', '.join(versions)}"
    if not prov:
        return f"STAND-IN card texts (bombsolve's own, not the printed cards), {sets}"
    texts = {label: provenance_words(by_set) for label, by_set in prov.items()}
    stand_in = any("STAND-IN" in t for t in texts.values())
    tail = f" ({sets})" if stand_in else ""
    if len(set(texts.values())) == 1:
        return f"cards {next(iter(texts.values()))}{tail}"
    return "cards " + "; ".join(f"{label}: {t}" for label, t in texts.items()) + tail


def _players_text(params: Mapping[str, Any]) -> str:
    look = params.get("players", {}).get("lookahead")
    if not look:
        return "greedy/random players"
    return (
        f"lookahead ({look['budget']['depth']} turns, <= {look['budget']['positions']} "
        "positions/move)/greedy/random players"
    )


__all__ = ["caption", "cards_words"]
