"""Small and odd card sets for the kernel-versus-reference differential tests.

`random_card_file` writes a random, nonstandard (`custom`) card file of 3 to 7 cards that
uses the whole effect vocabulary; `differential` solves seeded deals of such files with the
kernel (plain and portfolio searches, one call and the batch) and the reference search and
returns the cases that disagree. Run as a script (`python tests/allisbomb/odd_sets.py DIR`)
it prints one line `ok N` or the disagreements, for a subprocess under NUMBA_BOUNDSCHECK=1.
Given a first seed and a number of files (`... DIR 200000 400`: 4,000 deals, some ten
minutes of one core) it searches fresh files beyond the tests' seeds; each disagreement
names its file in DIR, which stays for the re-run.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("PRINCESS", "PROPHET", "EGGS", "KING", "JOKER", "RASCAL", "MENDER")


def _next_step(rng) -> str:
    """A random `next` step (CARDS.md, "Effects on the next card")."""
    effect = rng.choice(["ignited", "no_action", "add"])
    if effect == "add":
        return f'{{op = "next", add = {int(rng.choice([-2, -1, 1, 2]))}}}'
    return f'{{op = "next", effect = "{effect}"}}'


def _step(rng, names: list[str], lasting: bool = False) -> str:
    if lasting and rng.random() < 0.15:
        return _next_step(rng)
    op = rng.choice(
        ["move", "ignite", "flip_back", "swap", "reorder", "prophecy", "equip_win", "turn_over"]
        + ["exchange", "reverse", "draw"]
    )
    may = ", may = true" if rng.random() < 0.4 else ""
    if op == "swap":
        return '{op = "swap"' + may + "}"
    if op == "reorder":
        zone = ', zone = "discard"' if rng.random() < 0.3 else ""
        return f'{{op = "reorder", n = {int(rng.integers(2, 5))}{zone}}}'
    if op == "draw":
        if rng.random() < 0.5:
            return f'{{op = "draw", add = {int(rng.integers(-1, 3))}}}'
        key = rng.choice(["add", "number"])
        return f'{{op = "draw", {key} = {{side = "ignited", zone = "deck"}}}}'
    if op == "reverse":
        zone = ', zone = "discard"' if rng.random() < 0.4 else ""
        return f'{{op = "reverse", n = {int(rng.integers(2, 7))}{zone}}}'
    if op == "prophecy":
        return f'{{op = "prophecy", dish = "{rng.choice(names)}"}}'
    if op == "equip_win":
        target = "desired" if rng.random() < 0.7 else rng.choice(names)
        zone = rng.choice(["deck", "drawn"])
        return f'{{op = "equip_win", target = "{target}", zone = "{zone}"' + may + "}"
    zone = str(rng.choice(["deck", "discard", "equipped", "play", "anywhere"]))
    if op == "exchange":
        zone = str(rng.choice(["deck", "discard", "equipped", "anywhere"]))
    picks = {"deck": ["top", "bottom", "nth", "any", "name", "class"], "play": ["self"]}
    picks["discard"] = picks["deck"]
    picks["equipped"] = ["any", "name", "class"]
    picks["anywhere"] = picks["equipped"]
    picks["deck"] = [*picks["deck"], "above", "below"]
    pick = str(rng.choice(picks[zone]))
    if op == "exchange" and pick in ("above", "below"):
        pick = "top"
    out = f'{{op = "{op}", zone = "{zone}", pick = "{pick}"'
    if pick == "nth":
        out += f", n = {int(rng.integers(1, 4))}"
    if pick == "name":
        out += f', name = "{rng.choice(names)}"'
    if pick == "class":
        out += ', class = "COURT"'
    if pick in ("above", "below"):
        out += f', of = "{rng.choice([*SINGLES[0], "self"])}"'
    if pick in ("any", "name", "class") and zone in ("deck", "discard") and rng.random() < 0.3:
        out += f", within = {int(rng.integers(1, 4))}"
    every = op != "exchange" and pick in ("any", "name", "class") and rng.random() < 0.3
    if every:
        out += ", all = true"
    elif op != "exchange" and pick != "self" and rng.random() < 0.3:
        out += f", count = {int(rng.integers(1, 4))}"
    elif op != "exchange" and pick != "self" and rng.random() < 0.1:
        out += ', count = {class = "COURT", zone = "equipped"}'
    if rng.random() < 0.3:
        out += f', side = "{rng.choice(["passive", "ignited"])}"'
    if op == "exchange" and rng.random() < 0.5:
        out += ', taken = "equipped"'
    if op == "move":
        dests = ["deck_top", "deck_bottom", "equipped", "discard", "out", "deck_place"]
        dests += ["deck_above", "deck_below", "partner"]
        dests = [d for d in dests if d != zone]
        dest = str(rng.choice(dests))
        out += f', to = "{dest}"'
        if dest == "deck_place":
            out += f", place = {int(rng.integers(1, 5))}"
            out += ", from_bottom = true" if rng.random() < 0.4 else ""
        if dest in ("deck_above", "deck_below"):
            out += f', next_to = "{rng.choice([*SINGLES[0], "self"])}"'
    return out + may + "}"


SELECTING = ("move", "ignite", "flip_back", "turn_over")
#: The names of the file being written that have one copy (set by random_card_file).
SINGLES: list[list[str]] = [[]]


def _cond(rng, names: list[str]) -> str:
    """A random condition (CARDS.md, "Conditions")."""
    parts = []
    who = rng.choice(["card", "self", "class", "any"])
    if who == "card":
        parts.append(f'card = "{rng.choice(names)}"')
    elif who == "self":
        parts.append('card = "self"')
    elif who == "class":
        parts.append('class = "COURT"')
    if rng.random() < 0.6:
        parts.append(f'zone = "{rng.choice(["deck", "equipped", "discard", "out", "play"])}"')
    if rng.random() < 0.5:
        parts.append(f'side = "{rng.choice(["passive", "ignited"])}"')
    if who in ("class", "any") and rng.random() < 0.6:
        lo = int(rng.integers(0, 4))
        parts.append(f"at_least = {lo}")
        if rng.random() < 0.4:
            parts.append(f"at_most = {lo + int(rng.integers(0, 3))}")
    if rng.random() < 0.3:
        parts.append("not = true")
    return "{" + ", ".join(parts) + "}"


def _steps(rng, names: list[str], k: int, depth: int = 0, lasting: bool = False) -> list[str]:
    """k random steps: some with a condition, some in groups, some "if you do" (with
    `lasting`, some `next` steps too)."""
    out: list[str] = []
    for i in range(k):
        if depth == 0 and rng.random() < 0.15:
            inner = _steps(rng, names, int(rng.integers(1, 3)), depth + 1, lasting)
            st = '{op = "group", steps = [' + ", ".join(inner) + "]"
            if rng.random() < 0.7:
                st += ", may = true"
            st += "}"
        elif depth == 0 and rng.random() < 0.1:
            inner = _steps(rng, names, int(rng.integers(2, 4)), depth + 1, lasting)
            inner = [x.replace(", if_done = true", "") for x in inner]  # options stand alone
            st = '{op = "choose", steps = [' + ", ".join(inner) + "]"
            if rng.random() < 0.4:
                st += ", may = true"
            st += "}"
        else:
            st = _step(rng, names, lasting)
            if depth > 0 and st.startswith('{op = "draw"'):
                st = '{op = "reverse", n = 2}'  # a draw step stands on its own (CARDS.md)
        if rng.random() < 0.2:
            st = st[:-1] + ", if = " + _cond(rng, names) + "}"
        prev = out[-1] if out else ""
        if st.startswith('{op = "draw"'):
            pass
        elif i > 0 and any(prev.startswith(f'{{op = "{op}"') for op in SELECTING):
            if rng.random() < 0.4:
                st = st[:-1] + ", if_done = true}"
        out.append(st)
    return out


def _one_copy_of_dishes(text: str) -> str:
    """The file with every PROPHECY naming a card of one copy: a PROPHECY that named a card
    of two copies names the last single card instead (the loader refuses two: "the DESIRED
    DISH" is one card, CARDS.md). No random draw is spent and no card count changes, so a
    seed keeps its file otherwise."""
    copies = dict(re.findall(r'name = "([^"]+)"\ncopies = (\d)', text))
    single = [n for n, c in copies.items() if c == "1"]
    for dish in set(re.findall(r'op = "prophecy", dish = "([^"]+)"', text)):
        if copies.get(dish) != "1" and single:
            text = text.replace(
                f'op = "prophecy", dish = "{dish}"', f'op = "prophecy", dish = "{single[-1]}"'
            )
    return text


def random_card_file(rng, path: Path, n_cards: int, lasting: bool = False) -> Path:
    """Write a random custom base set of `n_cards` cards (copies included) to `path`; with
    `lasting`, its steps include `next` steps (effects on the next card played). Without it,
    a seed draws the file it drew before `next` existed (tests chose seeds against them)."""
    kinds: list[tuple[str, int]] = []
    left = n_cards
    for name in NAMES:
        if left == 0:
            break
        copies = 1 if left == 1 or rng.random() < 0.7 else 2
        if name == "PRINCESS":
            # one PRINCESS, as in every real set: with two, the kernel's win check takes
            # the first one's id for "the PRINCESS" and the engine any card of that name
            # (prune.INFO_PRINCESS_WINS = 2 assumes nothing for such files)
            copies = 1
        kinds.append((name, copies))
        left -= copies
    names = [k for k, _ in kinds]
    SINGLES[0] = [k for k, c in kinds if c == 1]  # what `of` and `next_to` may name
    lines = ['[set]\nname = "base"\nprovenance = "custom"']
    for name, copies in kinds:
        lines.append(f'[[card]]\nname = "{name}"\ncopies = {copies}')
        if name in ("PRINCESS", "KING", "JOKER"):
            lines.append('class = ["COURT"]')
        for side in ("passive", "ignited"):
            kw = rng.choice(["", "", "", "URGENT", "ROYAL"])
            number = int(rng.integers(0, min(3, n_cards - 1) + 1))
            steps = _steps(rng, names, int(rng.integers(0, 4)), lasting=lasting)
            if name == "PRINCESS" and side == "ignited":
                steps.append('{op = "equip_win", target = "desired", zone = "drawn"}')
            if name == "PROPHET" and side == "ignited":
                steps.insert(0, f'{{op = "prophecy", dish = "{names[-1]}"}}')
            lines.append(f"[card.{side}]\nnumber = {number}")
            if kw:
                lines.append(f'keyword = "{kw}"')
            lines.append("steps = [" + ", ".join(steps) + "]")
    path.write_text(_one_copy_of_dishes("\n".join(lines) + "\n"))
    return path


def _step_first(rng, names: list[str]) -> str:
    op = rng.choice(["move", "ignite", "flip_back", "swap", "reorder", "prophecy", "equip_win"])
    may = ", may = true" if rng.random() < 0.4 else ""
    if op == "swap":
        return '{op = "swap"' + may + "}"
    if op == "reorder":
        return f'{{op = "reorder", n = {int(rng.integers(2, 5))}}}'
    if op == "prophecy":
        return f'{{op = "prophecy", dish = "{rng.choice(names)}"}}'
    if op == "equip_win":
        target = "desired" if rng.random() < 0.7 else rng.choice(names)
        zone = rng.choice(["deck", "drawn"])
        return f'{{op = "equip_win", target = "{target}", zone = "{zone}"' + may + "}"
    zone = str(rng.choice(["deck", "discard", "equipped", "play"]))
    picks = {"deck": ["top", "bottom", "nth", "any", "name", "class"], "play": ["self"]}
    picks["discard"] = picks["deck"]
    picks["equipped"] = ["any", "name", "class"]
    pick = str(rng.choice(picks[zone]))
    out = f'{{op = "{op}", zone = "{zone}", pick = "{pick}"'
    if pick == "nth":
        out += f", n = {int(rng.integers(1, 4))}"
    if pick == "name":
        out += f', name = "{rng.choice(names)}"'
    if pick == "class":
        out += ', class = "COURT"'
    if pick in ("any", "name", "class") and zone != "equipped" and rng.random() < 0.3:
        out += f", within = {int(rng.integers(1, 4))}"
    if pick != "self" and rng.random() < 0.3:
        out += f", count = {int(rng.integers(1, 4))}"
    if op == "move":
        dests = ["deck_top", "deck_bottom", "equipped", "discard", "out"]
        dests = [d for d in dests if d != zone]
        out += f', to = "{rng.choice(dests)}"'
    return out + may + "}"


def first_vocabulary_card_file(rng, path: Path, n_cards: int) -> Path:
    """`random_card_file` as it was before the vocabulary grew (the first seven ops, the
    same random draws): tests whose seeds were chosen against it keep their files."""
    kinds: list[tuple[str, int]] = []
    left = n_cards
    for name in NAMES:
        if left == 0:
            break
        copies = 1 if left == 1 or rng.random() < 0.7 else 2
        kinds.append((name, copies))
        left -= copies
    names = [k for k, _ in kinds]
    lines = ['[set]\nname = "base"\nprovenance = "custom"']
    for name, copies in kinds:
        lines.append(f'[[card]]\nname = "{name}"\ncopies = {copies}')
        if name in ("PRINCESS", "KING", "JOKER"):
            lines.append('class = ["COURT"]')
        for side in ("passive", "ignited"):
            kw = rng.choice(["", "", "", "URGENT", "ROYAL"])
            number = int(rng.integers(0, min(3, n_cards - 1) + 1))
            steps = [_step_first(rng, names) for _ in range(int(rng.integers(0, 3)))]
            if name == "PRINCESS" and side == "ignited":
                steps.append('{op = "equip_win", target = "desired", zone = "drawn"}')
            if name == "PROPHET" and side == "ignited":
                steps.insert(0, f'{{op = "prophecy", dish = "{names[-1]}"}}')
            lines.append(f"[card.{side}]\nnumber = {number}")
            if kw:
                lines.append(f'keyword = "{kw}"')
            lines.append("steps = [" + ", ".join(steps) + "]")
    path.write_text(_one_copy_of_dishes("\n".join(lines) + "\n"))
    return path


def random_game(folder: Path, name: str, seed: int, i: int, most_cards: int):
    """The i-th random game of a test, as the random-file tests play it: its generator
    (seed + i), a one- or (every 4th) two-player game of a `random_card_file` of up to
    `most_cards` - 1 cards in folder/name{i}.toml, and its card set."""
    from bombsolve.solvers.allisbomb.cards.cards import load_cards
    from bombsolve.solvers.allisbomb.cards.config import Options

    rng = np.random.default_rng(seed + i)
    players = 2 if i % 4 == 3 else 1
    n_cards = int(rng.integers(5 if players == 2 else 4, most_cards))
    path = random_card_file(rng, folder / f"{name}{i}.toml", n_cards, lasting=True)
    cfg = Options(cards_file=path, allow_nonstandard=True, players=players)
    return rng, cfg, load_cards(cfg)


def random_positions(cs, rng, deals: int, turns: int = 25) -> list:
    """The positions of `deals` random playouts of the card set `cs` (uniform moves, at
    most `turns` turns each; a playout ends at a position with too many moves)."""
    from bombsolve.solvers.allisbomb.rules.rules import TooManyMoves, new_game

    out = []
    for _ in range(deals):
        s = new_game(cs, list(rng.permutation(cs.n)))
        while not s.is_over() and s.turn < turns:
            try:
                moves = s.legal_moves()
            except TooManyMoves:
                break
            s = s.copy().apply(moves[rng.integers(len(moves))])
            if not s.is_over():
                out.append(s)
    return out


def differential(
    folder: Path,
    files: int = 12,
    deals: int = 4,
    limit: int = 3000,
    seed0: int = 1000,
    outcomes: dict[str, int] | None = None,
    lasting: bool = True,
) -> list[str]:
    """Solve seeded deals of random small files (`random_card_file`, with `next` steps
    unless `lasting` is False) with both engines; return disagreements (and count the
    reference's verdicts in `outcomes`, if given)."""
    from bombsolve.solvers.allisbomb.cards.cards import load_cards
    from bombsolve.solvers.allisbomb.cards.config import Options
    from bombsolve.solvers.allisbomb.rules.rules import new_game
    from bombsolve.solvers.allisbomb.search.search import reference_search
    from bombsolve.solvers.allisbomb.search.solver import solve, solve_batch

    bad = []
    for i in range(files):
        rng = np.random.default_rng(seed0 + i)
        players = 2 if i % 3 == 2 else 1
        n_cards = int(rng.integers(5 if players == 2 else 3, 8))
        path = random_card_file(rng, folder / f"odd{i}.toml", n_cards, lasting)
        cfg = Options(cards_file=path, allow_nonstandard=True, players=players)
        n = load_cards(cfg).n
        decks = np.stack([rng.permutation(n) for _ in range(deals)])
        batch = solve_batch(cfg, decks, node_limit=limit)
        for j, deck in enumerate(decks):
            a = solve(cfg, deck, node_limit=limit, portfolio=False)
            b = reference_search(new_game(cfg, deck), node_limit=limit)
            if outcomes is not None:
                outcomes[b.outcome] = outcomes.get(b.outcome, 0) + 1
            if (a.outcome, a.nodes, a.loss_reason, a.solution) != (
                b.outcome,
                b.nodes,
                b.loss_reason,
                b.solution,
            ):
                bad.append(
                    f"{path.name} deal {j}: kernel {a.outcome}/{a.nodes}, "
                    f"reference {b.outcome}/{b.nodes}"
                )
            pf = solve(cfg, deck, node_limit=limit, portfolio=True)
            decided = {"win", "loss"}
            if a.outcome in decided and pf.outcome in decided and pf.outcome != a.outcome:
                bad.append(f"{path.name} deal {j}: portfolio {pf.outcome}, plain {a.outcome}")
            code = {1: "win", 0: "loss", 2: "undecided"}[int(batch["code"][j])]
            if code != pf.outcome or int(batch["nodes"][j]) != pf.nodes:
                bad.append(f"{path.name} deal {j}: batch {code}, single {pf.outcome}")
    return bad


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    folder = Path(sys.argv[1])
    seed0 = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    files = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    found = differential(folder, files=files, seed0=seed0)
    print("\n".join(found) if found else f"ok {len(list(folder.glob('odd*.toml')))}")
