"""Single edits of a card set, written back as card files (CARDS.md; rulebook C, "Cards").

A designer's question "what if this card were different?" is answered by solving the same
deals under the card set and under an edited copy of it. An `Edit` changes one thing of
one card kind (all its copies): drop one copy, raise or lower one side's NUMBER by one, or
drop one step of one side's CARD ACTION. `all_edits` lists every edit the card format
allows for a game; `edited_cards` applies one; `card_file_text` writes any list of card
kinds as a card file that `cards.load_cards` reads back to the same cards, so an edited
set runs through the unchanged solver, players and manifests (`--cards FILE`).

`pair_deck` carries a deal of one card set over to another: each card keeps its place,
cards the other set lacks are taken out, cards it adds are put in at uniformly random
places, so a deal of an edited set is "the same shuffle" wherever that makes sense.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import numpy as np

from bombsolve.solvers.allisbomb.cards.cards import (
    Card,
    CardSet,
    Cond,
    Side,
    Step,
    _set_kinds,
    load_cards,
)
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.common.errors import BadInput

#: The loader's NUMBER range (cards.py `_parse_side`): edits stay inside it.
NUMBER_MIN, NUMBER_MAX = 0, 9
KINDS = ("copies", "number", "step", "file")
SIDES = ("passive", "ignited")


@dataclass(frozen=True)
class Edit:
    """One change to one card kind (by label); `kind` is one of `KINDS`.

    copies: one copy fewer (`delta` = -1); number: `side`'s NUMBER + `delta`; step: drop
    step `step` (0-based) of `side`; file: the whole card set of file `path`.
    """

    kind: str
    label: str = ""
    side: str = ""
    step: int = -1
    delta: int = 0
    path: str = ""

    @property
    def key(self) -> str:
        """A short stable name, e.g. 'GUARDIAN/passive/number+1' (table rows, file names)."""
        if self.kind == "copies":
            return f"{self.label}/copies-1"
        if self.kind == "number":
            return f"{self.label}/{self.side}/number{self.delta:+d}"
        if self.kind == "step":
            return f"{self.label}/{self.side}/drop-step-{self.step + 1}"
        return f"file:{Path(self.path).name}"

    def to_dict(self) -> dict:
        """JSON-ready fields (study parameters)."""
        return asdict(self)


def _kinds(cs: CardSet) -> list[Card]:
    return list(dict.fromkeys(cs.cards))


def source_kinds(config: Options) -> list[Card]:
    """Every card kind of `config`'s sets as the files give them, in load order, including the
    base cards WAKING UP replaces (the loader removes them again when the file is read back)."""
    return list(_set_kinds(config)[0])


def describe(edit: Edit, cs: CardSet) -> str:
    """The edit in words, e.g. 'GUARDIAN passive NUMBER 3 -> 4'."""
    if edit.kind == "file":
        return f"card file {Path(edit.path).name}"
    card = _kind(cs, edit.label)
    if edit.kind == "copies":
        n = cs.labels.count(edit.label)
        return f"{edit.label} copies {n} -> {n - 1}"
    side = getattr(card, edit.side)
    if edit.kind == "number":
        return f"{edit.label} {edit.side} NUMBER {side.number} -> {side.number + edit.delta}"
    st = side.steps[edit.step]
    return f"{edit.label} {edit.side} without step {edit.step + 1} ({step_words(st)})"


def step_words(st: Step) -> str:
    """A few words naming a step, e.g. 'move deck top -> deck_bottom'."""
    parts = [st.op]
    if st.zone:
        parts.append(st.zone)
    if st.pick:
        what = st.name or st.cls or (str(st.n) if st.pick == "nth" else "")
        parts.append(f"{st.pick} {what}".strip())
    if st.count > 1:
        parts.append(f"x{st.count}")
    if st.to:
        parts.append(f"-> {st.to}")
    if st.dish or st.target:
        parts.append(st.dish or st.target)
    if st.op == "reorder":
        parts.append(str(st.n))
    if st.may:
        parts.append("(may)")
    return " ".join(parts)


def touches_rulebook(edit: Edit, cs: CardSet) -> bool:
    """True if the edit changes a field the rulebook fixes for that card (its `rulebook` list).

    Such an edit is still a fair designer's question, but its card set is no longer a
    possible reading of the real game.
    """
    if edit.kind in ("file", "step"):
        return False
    facts = _kind(cs, edit.label).rulebook
    if edit.kind == "copies":
        return "copies" in facts
    return any(f.startswith("number") for f in facts)


def _kind(cs: CardSet, label: str) -> Card:
    for card in cs.cards:
        if card.label == label:
            return card
    raise BadInput(f"no card labelled {label!r} in {cs.config.label()}")


def all_edits(cs: CardSet) -> list[Edit]:
    """Every single edit of the game's cards that the card format allows, in card order.

    One copy fewer where the game has two or more (a card's last copy is never removed:
    rules and actions name it); each side's NUMBER one up and one down within 0..9; each
    step of each side dropped.
    """
    out: list[Edit] = []
    for card in _kinds(cs):
        if cs.labels.count(card.label) >= 2:
            out.append(Edit("copies", card.label, delta=-1))
        for side_name in SIDES:
            side: Side = getattr(card, side_name)
            for delta in (+1, -1):
                if NUMBER_MIN <= side.number + delta <= NUMBER_MAX:
                    out.append(Edit("number", card.label, side_name, delta=delta))
            for i in range(len(side.steps)):
                out.append(Edit("step", card.label, side_name, step=i))
    return out


def edited_cards(cs: CardSet, edit: Edit) -> list[Card]:
    """Return the card kinds of `cs`'s sets with `edit` applied (copies as in the files)."""
    kinds = source_kinds(cs.config)
    target = _kind(cs, edit.label)
    out = []
    for card in kinds:
        if card != target:
            out.append(card)
            continue
        if edit.kind == "copies":
            # The game's copies (after Blitz) minus one; the file's copies field says so.
            card = replace(card, copies=cs.labels.count(card.label) - 1)
        elif edit.kind == "number":
            side = getattr(card, edit.side)
            card = replace(card, **{edit.side: replace(side, number=side.number + edit.delta)})
        elif edit.kind == "step":
            side = getattr(card, edit.side)
            steps = side.steps[: edit.step] + side.steps[edit.step + 1 :]
            card = replace(card, **{edit.side: replace(side, steps=steps)})
        else:
            raise BadInput(f"edit kind {edit.kind!r} does not edit one card")
        out.append(card)
    return out


# --- card files ---------------------------------------------------------------------------


def _toml(value: object) -> str:
    # TOML basic strings accept JSON's escapes; ints, bools and arrays read the same.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


_STEP_DEFAULTS = {f.name: f.default for f in fields(Step)}


def _step_toml(st: Step) -> str:
    items = [f"op = {_toml(st.op)}"]
    for f in fields(Step):
        if f.name == "op":
            continue
        value = getattr(st, f.name)
        if value == _STEP_DEFAULTS[f.name]:
            continue
        if f.name == "steps":
            items.append("steps = [" + ", ".join(_step_toml(x) for x in value) + "]")
        elif f.name == "cond":
            items.append(f"if = {_cond_toml(value)}")
        else:
            key = "class" if f.name == "cls" else f.name
            items.append(f"{key} = {_toml(value)}")
    return "{" + ", ".join(items) + "}"


_COND_KEYS = {"cls": "class", "negate": "not"}


def _cond_toml(c: Cond) -> str:
    items = [
        f"{_COND_KEYS.get(f.name, f.name)} = {_toml(getattr(c, f.name))}"
        for f in fields(Cond)
        if getattr(c, f.name) != f.default
    ]
    if c.at_least == 1 and c.at_most >= 0:
        items.append("at_least = 1")  # (at_most alone reads as at_least 0)
    return "{" + ", ".join(items) + "}"


def card_file_text(cards: Sequence[Card], title: str) -> str:
    """Write card kinds as one card file (CARDS.md) defining every set they come from.

    Each card carries its own `expansion` and `provenance`, so the file read back with
    `--cards` gives the same cards in the same order (tests check the compiled program).
    """
    lines = [f"# {line}" for line in title.splitlines()]
    provs = sorted({c.provenance for c in cards})
    lines += [
        "",
        "[set]",
        f"name = {_toml(cards[0].expansion if cards else 'base')}",
        f"provenance = {_toml(provs[0] if len(provs) == 1 else 'stand-in')}",
    ]
    for c in cards:
        if not 1 <= c.copies <= 4:
            raise BadInput(f"card {c.label}: {c.copies} copies; the card format takes 1..4")
        lines += [
            "",
            "[[card]]",
            f"name = {_toml(c.name)}",
            f"label = {_toml(c.label)}",
            f"expansion = {_toml(c.expansion)}",
            f"copies = {c.copies}",
            f"class = {_toml(list(c.classes))}",
            f"campaign = {_toml(c.campaign)}",
            f"provenance = {_toml(c.provenance)}",
            f"rulebook = {_toml(list(c.rulebook))}",
            f"replaces = {_toml(list(c.replaces))}",
        ]
        for side_name in SIDES:
            side: Side = getattr(c, side_name)
            lines += [
                f"[card.{side_name}]",
                f"number = {side.number}",
                f"keyword = {_toml(side.keyword)}",
                f"text = {_toml(side.text)}",
                "steps = [" + ", ".join(_step_toml(st) for st in side.steps) + "]",
            ]
    return "\n".join(lines) + "\n"


def edit_cache_dir() -> Path:
    """Where edited card files are written for the solver to read (one file per content)."""
    return Path(
        os.environ.get("BOMBSOLVE_EDIT_DIR", Path(tempfile.gettempdir()) / "bombsolve-edits")
    )


def write_card_file(text: str, directory: Path | None = None) -> Path:
    """Write a card file named by its content's hash (an existing one is reused); return it."""
    directory = Path(directory or edit_cache_dir())
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"cards-{hashlib.sha256(text.encode()).hexdigest()[:16]}.toml"
    if not path.is_file() or path.read_text() != text:
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    return path


def edited_config(config: Options, edit: Edit, directory: Path | None = None) -> Options:
    """The game of `config` with `edit` applied: its cards as a card file (`--cards`).

    A single edit may break what the rulebook fixes (one JOKER fewer, a PRINCESS who cannot
    win): that is the designer's question, so the edited game is played as nonstandard
    (`Options.allow_nonstandard`, the loader warns instead of refusing). A `--variant`
    file keeps the base game's setting.
    """
    if edit.kind == "file":
        return replace(config, cards_file=Path(edit.path)).validate()
    cs = load_cards(config)
    text = card_file_text(
        edited_cards(cs, edit),
        f"{config.label()} with one edit: {describe(edit, cs)}\n"
        "Written by bombsolve's sensitivity study (solvers/allisbomb/studies/edits.py).",
    )
    path = write_card_file(text, directory)
    return replace(config, cards_file=path, allow_nonstandard=True).validate()


def pair_deck(
    base: CardSet, other: CardSet, deck: Sequence[int], rng: np.random.Generator
) -> np.ndarray:
    """Carry `deck` (card ids of `base`, top first) over to the cards of `other` (module doc).

    Cards are matched by label and copy number (the k-th JOKER to the k-th JOKER). Cards of
    `other` with no match are inserted one by one at a position drawn uniformly with `rng`,
    which keeps a uniform deal uniform.
    """
    slots: dict[tuple[str, int], int] = {}
    seen: dict[str, int] = {}
    for cid, label in enumerate(other.labels):
        k = seen.get(label, 0)
        seen[label] = k + 1
        slots[(label, k)] = cid
    seen = {}
    out: list[int] = []
    for cid in deck:
        label = base.labels[int(cid)]
        k = seen.get(label, 0)
        seen[label] = k + 1
        match = slots.pop((label, k), None)
        if match is not None:
            out.append(match)
    for cid in sorted(slots.values()):
        out.insert(int(rng.integers(0, len(out) + 1)), cid)
    return np.asarray(out, dtype=np.int64)


__all__ = [
    "Edit",
    "KINDS",
    "all_edits",
    "card_file_text",
    "describe",
    "edited_cards",
    "edited_config",
    "pair_deck",
    "touches_rulebook",
    "write_card_file",
]
