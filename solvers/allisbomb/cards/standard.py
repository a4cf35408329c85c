"""What the rulebook fixes about the cards of a game, checked against a built game.

The printed card texts are unknown (data note), but the rulebook fixes some facts about the
cards (rulebook B, C, D.1, D.2, E, G; FAQ). `breaches` lists, one line each, every fact a
game's cards break: a transcription that breaks one is almost surely mistyped. A designer
who builds another deck on purpose passes `--allow-nonstandard` (`Options.allow_nonstandard`)
and gets the same lines as warnings.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from bombsolve.solvers.common.errors import nearest

if TYPE_CHECKING:
    from bombsolve.solvers.allisbomb.cards.cards import Card
    from bombsolve.solvers.allisbomb.cards.config import Options

#: Rulebook G "Blitz", E.1, data note: the base game's 18 cards by NAME.
BASE_COPIES: dict[str, int] = {
    "PRINCESS": 1,
    "KING": 1,
    "JOKER": 2,
    "MENDER": 2,
    "RASCAL": 2,
    "LIBRARIAN": 2,
    "GUARDIAN": 2,
    "PROPHET": 3,
    "CROISSANT": 1,
    "EGGS": 1,
    "PANCAKES": 1,
}
#: Rulebook E.1 and G "Gifts": classes of named base cards.
BASE_CLASSES: dict[str, str] = {
    "PRINCESS": "COURT",
    "KING": "COURT",
    "JOKER": "COURT",
    "CROISSANT": "BREAKFAST",
    "EGGS": "BREAKFAST",
    "PANCAKES": "BREAKFAST",
}
BREAKFASTS = ("CROISSANT", "EGGS", "PANCAKES")
#: Rulebook G: each expansion's number of cards.
SET_SIZES: dict[str, int] = {
    "hands": 2,
    "mosquitos": 2,
    "dream_guide": 5,
    "gifts": 4,
    "the_juice": 3,
    "waking_up": 6,
    "all": 1,
}
#: Rulebook G: the cards each expansion names, with their copies.
SET_NAMES: dict[str, dict[str, int]] = {
    "mosquitos": {"MOSQUITO": 2},
    "dream_guide": {"DREAM GUIDE": 1, "QUEEN": 1, "PRINCE": 1},
    "the_juice": {"THE JUICE": 1},
    "waking_up": {"PRINCESS": 1, "KING": 1, "THRONE": 1},
    "all": {"ALL": 1},
}
#: Rulebook G "Gifts": the GIFTS cards are GIFT cards; "Dream Guide": QUEEN and PRINCE are COURT.
SET_CLASSES: dict[str, dict[str, str]] = {
    "dream_guide": {"QUEEN": "COURT", "PRINCE": "COURT"},
    "waking_up": {"PRINCESS": "COURT", "KING": "COURT"},
}


def _where(cards: list[Card], set_name: str) -> str:
    files = sorted({c.source for c in cards if c.expansion == set_name})
    return f"{', '.join(files) or set_name}: set {set_name}"


def breaches(kinds: list[Card], config: Options) -> list[str]:
    """One line per fact of the rulebook that the game's card kinds break (empty: standard).

    `kinds` are the card kinds of every set in play, before WAKING UP's replacement, Blitz
    and campaign removals (those are the engine's, not the file's).
    """
    out: list[str] = []
    by_set: dict[str, list[Card]] = {}
    for k in kinds:
        by_set.setdefault(k.expansion, []).append(k)
    base = by_set.get("base", [])
    # a file for a WAKING UP game may leave out the base cards WAKING UP replaces (rulebook G)
    replaced = {r for k in kinds if k.expansion != "base" for r in k.replaces}
    have = {k.name for k in base}
    want = {k: v for k, v in BASE_COPIES.items() if k in have or k not in replaced}
    out += _copies(base, want, _where(kinds, "base"), exact=True)
    out += _classes(base, BASE_CLASSES, _where(kinds, "base"))
    where = _where(kinds, "base")
    royal = [k.name for k in base if "ROYAL" in (k.passive.keyword, k.ignited.keyword)]
    if "PRINCESS" not in royal and any(k.name == "PRINCESS" for k in base):
        out.append(f"{where}: the PRINCESS has no ROYAL side (rulebook D.1: she is ROYAL)")
    if [r for r in royal if r != "PRINCESS"]:
        others = sorted({r for r in royal if r != "PRINCESS"})
        verb = "is" if len(others) == 1 else "are"
        out.append(
            f"{where}: {', '.join(others)} {verb} ROYAL (rulebook D.1: the PRINCESS is the "
            "only ROYAL base card)"
        )
    for k in base:
        if k.name == "GUARDIAN" and 3 not in (k.passive.number, k.ignited.number):
            out.append(f"{where}: {k.where()} has no NUMBER 3 (rulebook D.2's example)")
    prophets = [k for k in base if k.name == "PROPHET"]
    dishes: list[str] = []
    for k in prophets:
        named = [s.dish for s in k.ignited.all_steps() if s.op == "prophecy"]
        if not named:
            out.append(f"{where}: {k.where()}'s ignited side makes no PROPHECY (rulebook E.1)")
        dishes += named * k.copies
    if prophets and sorted(dishes) != sorted(BREAKFASTS) and dishes:
        out.append(
            f"{where}: the PROPHETs name {', '.join(sorted(dishes))}; the rulebook (E.1) has "
            f"one for each BREAKFAST: {', '.join(BREAKFASTS)}"
        )
    for set_name in config.sets():
        if set_name == "base":
            continue
        cards = by_set.get(set_name, [])
        w = _where(kinds, set_name)
        size = sum(k.copies for k in cards)
        if size != SET_SIZES[set_name]:
            out.append(f"{w}: {size} cards; the rulebook (G) gives it {SET_SIZES[set_name]}")
        out += _copies(cards, SET_NAMES.get(set_name, {}), w, exact=False)
        out += _classes(cards, SET_CLASSES.get(set_name, {}), w)
        if set_name == "gifts":
            gifts = sum(k.copies for k in cards if "GIFT" in k.classes)
            if gifts != SET_SIZES["gifts"]:
                out.append(f"{w}: {gifts} GIFT cards; the rulebook (G) has 4")
        if set_name == "waking_up":
            for name in ("PRINCESS", "KING"):
                if any(k.name == name and name not in k.replaces for k in cards):
                    out.append(
                        f"{w}: its {name} does not replace the base {name} "
                        f'(rulebook G: add replaces = ["{name}"])'
                    )
    replaced = {r for k in kinds for r in k.replaces}
    kept = [k for k in kinds if not (k.name in replaced and not k.replaces)]
    princesses = [k for k in kept if k.name == "PRINCESS"]
    for k in princesses:
        if not any(s.op == "equip_win" for s in k.ignited.all_steps()):
            out.append(
                f"{k.source}: {k.where()}'s ignited side has no equip_win step: the game "
                "could never be won (rulebook E.3)"
            )
    return out


def _copies(cards: list[Card], want: dict[str, int], where: str, exact: bool) -> list[str]:
    have = Counter()
    for k in cards:
        have[k.name] += k.copies
    out = []
    for name, n in want.items():
        if have[name] != n:
            got = f"{have[name]} {name} card{'s' if have[name] != 1 else ''}"
            out.append(f"{where}: {got}; the rulebook has {n}")
    if exact:
        for name in sorted(set(have) - set(want)):
            out.append(f"{where}: {name} is not a base card of the rulebook{nearest(name, want)}")
    return out


def _classes(cards: list[Card], want: dict[str, str], where: str) -> list[str]:
    return [
        f"{where}: {k.where()} lacks class {cls} (the rulebook's {k.name} is {cls})"
        for k in cards
        for name, cls in want.items()
        if k.name == name and cls not in k.classes
    ]
