"""Random 18-card base sets drawn from the whole effect vocabulary, for benchmarks.

`random_set(seed)` gives the TOML text of a base set with the rulebook's names, copies,
classes, NUMBERs where fixed (GUARDIAN 3), the ROYAL PRINCESS who wins on her ignited
side and one PROPHET per BREAKFAST (CARDS.md, "Game checks"); every other side gets 1 to
3 random steps of any op of the vocabulary (CARDS.md, "Effect vocabulary"): moves to
every destination, IGNITE, turn-overs, flip-backs, swaps, exchanges, reorders and
reversals of the DECK and the DISCARD PILE, draw changes with counting numbers, `next`
effects, groups, choices, conditions and "if you do". Random steps may say what no
printed card means (CARDS.md, "Slips"), so these sets are played with
`allow_nonstandard`. Provenance "custom": invented, never the printed cards.

    python scripts/bench/random_sets.py SEED > FILE.toml
"""

from __future__ import annotations

import sys

import numpy as np

#: The base set (CARDS.md, "Game checks"): label, NAME, copies, classes.
BASE = (
    ("PRINCESS", "PRINCESS", 1, ["COURT"]),
    ("KING", "KING", 1, ["COURT"]),
    ("JOKER", "JOKER", 2, ["COURT"]),
    ("MENDER", "MENDER", 2, []),
    ("RASCAL", "RASCAL", 2, []),
    ("LIBRARIAN", "LIBRARIAN", 2, []),
    ("GUARDIAN", "GUARDIAN", 2, []),
    ("PROPHET OF CROISSANT", "PROPHET", 1, []),
    ("PROPHET OF EGGS", "PROPHET", 1, []),
    ("PROPHET OF PANCAKES", "PROPHET", 1, []),
    ("CROISSANT", "CROISSANT", 1, ["BREAKFAST"]),
    ("EGGS", "EGGS", 1, ["BREAKFAST"]),
    ("PANCAKES", "PANCAKES", 1, ["BREAKFAST"]),
)
NAMES = ["PRINCESS", "KING", "JOKER", "MENDER", "RASCAL", "LIBRARIAN", "GUARDIAN"]
NAMES += ["PROPHET", "CROISSANT", "EGGS", "PANCAKES"]
#: Cards of one copy: what `of` and `next_to` may name (CARDS.md, "Selection").
SINGLES = ["PRINCESS", "KING", "CROISSANT", "EGGS", "PANCAKES"]
CLASSES = ["COURT", "BREAKFAST"]
DESTS = ["deck_top", "deck_bottom", "equipped", "discard", "out", "deck_place"]
DESTS += ["deck_above", "deck_below"]
SELECTING = ("move", "ignite", "flip_back", "turn_over")


def _pick(x: list) -> str:
    return str(x[int(_rng.integers(len(x)))])


_rng = np.random.default_rng(0)


def _match() -> str:
    """The keys of a condition or counting number (CARDS.md, "Conditions")."""
    parts = []
    who = _rng.integers(3)
    if who == 0:
        parts.append(f'card = "{_pick(NAMES)}"')
    elif who == 1:
        parts.append(f'class = "{_pick(CLASSES)}"')
    parts.append(f'zone = "{_pick(["deck", "equipped", "discard", "out"])}"')
    if _rng.random() < 0.5:
        parts.append(f'side = "{_pick(["passive", "ignited"])}"')
    return ", ".join(parts)


def _cond() -> str:
    out = _match()
    if _rng.random() < 0.4:
        out += f", at_least = {int(_rng.integers(1, 4))}"
    if _rng.random() < 0.2:
        out += ", not = true"
    return "{" + out + "}"


def _select(op: str) -> str:
    zone = _pick(["deck", "deck", "discard", "equipped", "anywhere"])
    picks = {
        "deck": ["top", "bottom", "nth", "any", "name", "class", "above", "below"],
        "discard": ["top", "bottom", "nth", "any", "name", "class"],
        "equipped": ["any", "name", "class"],
        "anywhere": ["any", "name", "class"],
    }[zone]
    if op == "exchange":
        picks = [p for p in picks if p not in ("above", "below")]
    pick = _pick(picks)
    out = f'zone = "{zone}", pick = "{pick}"'
    if pick == "nth":
        out += f", n = {int(_rng.integers(1, 5))}"
    elif pick == "name":
        out += f', name = "{_pick(NAMES)}"'
    elif pick == "class":
        out += f', class = "{_pick(CLASSES)}"'
    elif pick in ("above", "below"):
        out += f', of = "{_pick(SINGLES)}"'
    if pick in ("any", "name", "class") and zone in ("deck", "discard") and _rng.random() < 0.5:
        out += f", within = {int(_rng.integers(2, 5))}"
    if op != "exchange" and pick not in ("above", "below"):
        r = _rng.random()
        if r < 0.25:
            out += f", count = {int(_rng.integers(2, 4))}"
        elif r < 0.4:
            out += ", count = {" + _match() + "}"
    if _rng.random() < 0.25:
        out += f', side = "{_pick(["passive", "ignited"])}"'
    return out, zone


def _step() -> str:
    op = _pick(
        ["move", "move", "ignite", "turn_over", "flip_back", "swap", "exchange"]
        + ["reorder", "reverse", "draw", "next"]
    )
    may = ", may = true" if _rng.random() < 0.3 else ""
    if op == "swap":
        return '{op = "swap"' + may + "}"
    if op in ("reorder", "reverse"):
        zone = ', zone = "discard"' if _rng.random() < 0.4 else ""
        return f'{{op = "{op}", n = {int(_rng.integers(2, 5))}{zone}}}'
    if op == "draw":
        if _rng.random() < 0.5:
            return f'{{op = "draw", add = {_pick([-1, 1, 2])}}}'
        return f'{{op = "draw", {_pick(["add", "number"])} = {{{_match()}}}}}'
    if op == "next":
        if _rng.random() < 0.4:
            return f'{{op = "next", add = {_pick([-1, 1, 2])}}}'
        return f'{{op = "next", effect = "{_pick(["ignited", "no_action"])}"}}'
    sel, zone = _select(op)
    out = f'{{op = "{op}", {sel}'
    if op == "exchange" and _rng.random() < 0.4:
        out += ', taken = "equipped"'
    if op == "move":
        dest = _pick([d for d in DESTS if d != zone])
        out += f', to = "{dest}"'
        if dest == "deck_place":
            out += f", place = {int(_rng.integers(2, 5))}"
            out += ", from_bottom = true" if _rng.random() < 0.4 else ""
        elif dest in ("deck_above", "deck_below"):
            out += f', next_to = "{_pick(SINGLES)}"'
    return out + may + "}"


def _steps(k: int) -> list[str]:
    out: list[str] = []
    for i in range(k):
        r = _rng.random()
        if r < 0.1:
            st = '{op = "choose", steps = [' + ", ".join(_plain(2)) + "]}"
        elif r < 0.2:
            st = '{op = "group", steps = [' + ", ".join(_plain(2)) + "], may = true}"
        else:
            st = _step()
        if not st.startswith('{op = "draw"') and _rng.random() < 0.3:
            st = st[:-1] + ", if = " + _cond() + "}"
        prev = out[-1] if out else ""
        chained = any(prev.startswith(f'{{op = "{op}"') for op in SELECTING)
        if i > 0 and chained and not st.startswith('{op = "draw"') and _rng.random() < 0.3:
            st = st[:-1] + ", if_done = true}"
        out.append(st)
    return out


def _plain(k: int) -> list[str]:
    """k steps that may stand in a group or a choice (no draw step: CARDS.md, `draw`)."""
    out = []
    while len(out) < k:
        st = _step()
        if not st.startswith('{op = "draw"'):
            out.append(st)
    return out


def random_set(seed: int) -> str:
    """The TOML text of random base set number `seed` (module docstring)."""
    global _rng
    _rng = np.random.default_rng(seed)
    lines = [
        f"# Benchmark data, not real cards: random base set {seed} of scripts/bench/random_sets.py",
        '[set]\nname = "base"\nprovenance = "custom"',
    ]
    for label, name, copies, classes in BASE:
        lines.append(f'\n[[card]]\nname = "{name}"\nlabel = "{label}"\ncopies = {copies}')
        lines.append("class = [" + ", ".join(f'"{c}"' for c in classes) + "]")
        for side in ("passive", "ignited"):
            number = 3 if name == "GUARDIAN" else int(_rng.choice([1, 1, 2, 2, 2, 3]))
            steps = _steps(int(_rng.integers(1, 4)))
            kw = _pick(["", "", "", "URGENT"])
            if name == "PRINCESS":
                kw = "ROYAL"
                if side == "ignited":
                    steps = ['{op = "equip_win", zone = "drawn", target = "desired"}']
            if name == "PROPHET" and side == "ignited":
                steps = [f'{{op = "prophecy", dish = "{label.split()[-1]}"}}']
            lines.append(f"[card.{side}]\nnumber = {number}")
            if kw:
                lines.append(f'keyword = "{kw}"')
            lines.append("steps = [" + ", ".join(steps) + "]")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(random_set(int(sys.argv[1])))
