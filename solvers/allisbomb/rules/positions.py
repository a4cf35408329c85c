"""The one validator of position and saved-solution files (rulebook B "Setup", F "Two-Player
Game": the zones a position may use).

A position (`State.to_json`, the ``--state`` file, the ``position`` of a ``--save`` file)
and a saved solution are checked field by field before any of it is used: each refusal
names the field and what was expected. `check_position` checks the shape (types, ranges,
zones the player count has); `check_agrees` checks a built `State` against the labels the
file also gives, so a card listed in two places, or in a place its id does not put it, is
refused instead of silently dropped.

The notation (results/allisbomb/README.md, "Positions") lists both piles top first, as the
rulebook speaks of "the top card of the DISCARD PILE" and as transcripts print them; that
is ``"format": 2``, which every position bombsolve writes carries. `pile_format` tells the
files written before it (the DISCARD PILE bottom first) from the rest, and refuses to guess
the order of a hand-written pile that does not say.
"""

from __future__ import annotations

from typing import Any

from bombsolve.solvers.allisbomb.cards.config import DEFAULT_CARDS, UNVERSIONED_CARDS
from bombsolve.solvers.common.errors import BadInput, nearest
from bombsolve.solvers.common.jsonfile import check_json_value

#: The position notation `State.to_json` writes: piles top first. Format 1 (the notation
#: before it) lists the DISCARD PILE bottom first; the DECK is top first in both.
FORMAT = 2
FORMATS = (1, 2)
#: The sides a zone list may give after a card name, as transcripts print them
#: ("JOKER (ignited)").
SIDES = {"ignited": True, "passive": False}

#: Every field of a position, as `State.to_json` writes it.
POSITION_FIELDS = (
    "format",
    "config",
    "deck",
    "discard",
    "equipped",
    "out",
    "ignited",
    "ignited_ids",
    "deck_ids",
    "discard_ids",
    "zone_ids",
    "desired",
    "played",
    "gift_plays",
    "active",
    "turn",
    "next_card",
)
#: Every field of a position's ``config`` (`Options.to_dict`).
CONFIG_FIELDS = {
    "expansions": "list_str",
    "hands": "bool",
    "blitz": "bool",
    "players": "int",
    "cards_file": "str_or_null",
    "cards_version": "str",
    "gifts_distinct": "bool",
    "give_optional": "bool",
    "all_any_player": "bool",
    "waking_up_rules": "bool_or_null",
    "removed": "list_str",
    "extra_sets": "list_str",
    "label": "str",
    "allow_nonstandard": "bool",
}
#: Zone numbers of ``zone_ids`` (rules.DECK .. rules.PLAY): 1 and 2 are the players' equipped
#: cards, so a solo position may not use 2.
ZONES = 6
EQUIP1 = 2
#: A GIFT play count is kept in one byte by the kernel; a turn number in 31 bits.
MAX_GIFT_PLAYS = 255
MAX_TURN = 2**31 - 1
#: Choices of one move are option numbers; no step offers more options than this.
MAX_CHOICE = 2**16
MAX_TURNS_SAVED = 100_000


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value:g}"
    if isinstance(value, str):
        return f"the string {value[:30]!r}"
    return {dict: "an object", list: "a list"}.get(type(value), type(value).__name__)


def _int(where: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{where} is {_kind(value)}; expected an integer {lo}..{hi}")
    if not lo <= value <= hi:
        raise BadInput(f"{where} is {value}; expected an integer {lo}..{hi}")
    return value


def _list(where: str, value: Any) -> list:
    if not isinstance(value, list):
        raise BadInput(f"{where} is {_kind(value)}; expected a list")
    return value


def _strings(where: str, value: Any) -> list[str]:
    for i, x in enumerate(_list(where, value)):
        if not isinstance(x, str):
            raise BadInput(f"{where}[{i}] is {_kind(x)}; expected a card name (a string)")
    return value


def _ints(where: str, value: Any, hi: int) -> list[int]:
    for i, x in enumerate(_list(where, value)):
        _int(f"{where}[{i}]", x, 0, hi)
    return value


def _fields(where: str, data: dict, known) -> None:
    for key in data:
        if key not in known:
            raise BadInput(
                f"{where}: unknown field {key!r}{nearest(str(key), known)}; "
                f"expected some of: {', '.join(known)}"
            )


def check_config(c: Any, where: str = "position: config") -> int:
    """Check a position's ``config`` object; return its number of players."""
    if not isinstance(c, dict):
        raise BadInput(f"{where} is {_kind(c)}; expected an object")
    _fields(where, c, CONFIG_FIELDS)
    for key, kind in CONFIG_FIELDS.items():
        if key not in c:
            continue
        value, at = c[key], f"{where}.{key}"
        if kind == "list_str":
            for i, x in enumerate(_list(at, value)):
                if not isinstance(x, str):
                    raise BadInput(f"{at}[{i}] is {_kind(x)}; expected a name (a string)")
        elif kind == "int":
            _int(at, value, 1, 2)
        elif kind.startswith("bool") and not (
            isinstance(value, bool) or (value is None and kind == "bool_or_null")
        ):
            want = "true, false or null" if kind == "bool_or_null" else "true or false"
            raise BadInput(f"{at} is {_kind(value)}; expected {want}")
        elif kind.startswith("str") and not (
            isinstance(value, str) or (value is None and kind == "str_or_null")
        ):
            raise BadInput(f"{at} is {_kind(value)}; expected a string")
    return c.get("players", 1)


def check_position(data: Any, where: str = "position", players: int | None = None) -> dict:
    """Check the shape of a position: every field's type and range, and only zones the
    player count has (`players`, by default the position's ``config.players``). Returns
    `data`; raises BadInput naming the first bad field."""
    if not isinstance(data, dict):
        raise BadInput(f"{where} is {_kind(data)}; expected a JSON object")
    check_json_value(data, where)
    _fields(where, data, POSITION_FIELDS)
    in_file = check_config(data.get("config", {}), f"{where}: config")
    players = in_file if players is None else players
    for key in ("deck", "discard", "out", "ignited"):
        if key in data:
            _strings(f"{where}: {key}", data[key])
    if "equipped" in data:
        eq = _list(f"{where}: equipped", data["equipped"])
        if len(eq) > players:
            raise BadInput(
                f"{where}: equipped lists {len(eq)} players' cards; the game has {players} "
                f"player{'s' if players > 1 else ''} (config.players)"
            )
        for p, cards in enumerate(eq):
            _strings(f"{where}: equipped[{p}]", cards)
    for key in ("ignited_ids", "deck_ids", "discard_ids"):
        if key in data:
            _ints(f"{where}: {key}", data[key], 10_000)
    if "format" in data and (type(data["format"]) is not int or data["format"] not in FORMATS):
        raise BadInput(
            f"{where}: format is {_kind(data['format'])}; expected 2 (piles top first) or 1 "
            "(the DISCARD PILE bottom first, as written before format 2)"
        )
    if "played" in data:
        for i, x in enumerate(_list(f"{where}: played", data["played"])):
            if not isinstance(x, str):
                _int(f"{where}: played[{i}]", x, 0, 10_000)
    if "zone_ids" in data:
        top = ZONES - 1
        for c, z in enumerate(_list(f"{where}: zone_ids", data["zone_ids"])):
            _int(f"{where}: zone_ids[{c}]", z, 0, top)
            if z == EQUIP1 and players < 2:
                raise BadInput(
                    f"{where}: zone_ids[{c}] is 2 (equipped by player 2); the game has 1 "
                    "player (config.players), expected a zone 0, 1, 3, 4 or 5"
                )
    if data.get("desired") is not None and not isinstance(data["desired"], str):
        raise BadInput(
            f"{where}: desired is {_kind(data['desired'])}; expected a card name or null"
        )
    if "gift_plays" in data:
        _int(f"{where}: gift_plays", data["gift_plays"], 0, MAX_GIFT_PLAYS)
    if "active" in data:
        _int(f"{where}: active", data["active"], 0, players - 1)
    if "turn" in data:
        _int(f"{where}: turn", data["turn"], 0, MAX_TURN)
    return data


def check_agrees(data: dict, state, where: str = "position") -> None:
    """Check a built `State` against every field of `data` that it did not come from:
    card ids in range, and the labels of equipped, out of play and ignited cards."""
    cards = state.cards
    n = cards.n
    for key in ("ignited_ids", "deck_ids", "discard_ids", "played"):
        for i, c in enumerate(data.get(key, [])):
            if not isinstance(c, str) and c >= n:
                raise BadInput(f"{where}: {key}[{i}] is {c}; expected a card id 0..{n - 1}")
    if "zone_ids" in data and len(data["zone_ids"]) != n:
        raise BadInput(
            f"{where}: zone_ids has {len(data['zone_ids'])} entries; expected one per card ({n})"
        )
    lab = cards.labels

    def same(key: str, given: list[str], have: list[int]) -> None:
        if sorted(given) != sorted(lab[c] for c in have):
            extra = sorted(set(given) ^ {lab[c] for c in have}) or sorted(given)
            raise BadInput(
                f"{where}: {key} lists {', '.join(given) or 'nothing'} but the card ids put "
                f"{', '.join(lab[c] for c in have) or 'nothing'} there (check {extra[0]}: "
                "a card is in exactly one place)"
            )

    if "equipped" in data:
        for p in range(cards.config.players):
            given = data["equipped"][p] if p < len(data["equipped"]) else []
            same(f"equipped[{p}]", [card_name(x) for x in given], state.equipped(p))
    if "out" in data:
        out_zone = 4
        same(
            "out",
            [card_name(x) for x in data["out"]],
            [c for c in range(n) if state.zone[c] == out_zone],
        )
    if "ignited" in data and "ignited_ids" in data:
        # `State.to_json` names a card with several copies by copy (JOKER#1), as positions
        # must (CARDS.md, "Positions")
        have = sorted(state.copy_label(c) for c in range(n) if state.ignited[c])
        if sorted(data["ignited"]) != have:
            raise BadInput(
                f"{where}: ignited lists {', '.join(data['ignited']) or 'nothing'} but "
                f"ignited_ids ignite {', '.join(have) or 'nothing'}"
            )


def card_name(entry: str) -> str:
    """The card label of a zone list's entry: without its side ("JOKER (ignited)") or copy
    number ("JOKER#2")."""
    name = split_entry(entry)[0]
    base, sep, k = name.rpartition("#")
    return base if sep and k.isdigit() else name


def split_entry(entry: str) -> tuple[str, bool | None]:
    """A zone list's entry as (the card, as named: label or ``LABEL#k``; its side, True if
    ignited, or None if the entry names none): "JOKER#2 (ignited)" -> ("JOKER#2", True)."""
    head, sep, tail = entry.rpartition(" (")
    if sep and tail.endswith(")") and tail[:-1] in SIDES:
        return head, SIDES[tail[:-1]]
    return entry, None


def written_before_format2(data: dict) -> bool:
    """True for a position bombsolve wrote before format 2: no ``format``, and the card ids
    (``zone_ids``) or the ``config.label`` that only bombsolve writes."""
    config = data.get("config")
    return "format" not in data and (
        "zone_ids" in data or (isinstance(config, dict) and "label" in config)
    )


def pile_format(data: dict, where: str = "position") -> int:
    """The notation of a checked position: its ``format``; 1 for a file bombsolve wrote
    before format 2 (`written_before_format2`); else 2. A hand-written file without
    ``format`` whose DISCARD PILE holds two cards or more is refused: its order cannot be
    told, and reading it the wrong way round would silently change the game."""
    if "format" in data:
        return data["format"]
    if written_before_format2(data):
        return 1
    pile = data.get("discard", [])
    if len(pile) > 1:
        raise BadInput(
            f"{where}: discard lists {len(pile)} cards and the file has no format; add "
            '"format": 2 if the list is top first (as transcripts print the DISCARD PILE), '
            '"format": 1 if bottom first'
        )
    return FORMAT


def default_cards_version(config: dict) -> str:
    """The stand-in set a position's ``config`` without ``cards_version`` is read with: the
    version every configuration had before set versions existed (`UNVERSIONED_CARDS`) if
    bombsolve wrote it (it has the ``label`` `Options.to_dict` writes, and to_dict has
    named the version ever since), else the current default (`DEFAULT_CARDS`)."""
    return UNVERSIONED_CARDS if "label" in config else DEFAULT_CARDS


def cards_version_note(data: dict) -> str | None:
    """What a report says after the stand-in set's name when a checked position names none
    (no ``config.cards_version``): which set it was read with and why; None if it names
    one."""
    config = data.get("config", {})
    if "cards_version" in config:
        return None
    if default_cards_version(config) == DEFAULT_CARDS:
        return "the default: the position names no cards_version"
    return "the position names no cards_version and was written before set versions existed"


def check_solution(data: Any, where: str) -> list[list[int]]:
    """Check a saved solution's ``solution`` field: a list of moves, each a list of choice
    numbers. Returns it; raises BadInput naming the first bad entry."""
    moves = _list(f"{where}: solution", data)
    if len(moves) > MAX_TURNS_SAVED:
        raise BadInput(
            f"{where}: solution has {len(moves)} turns; expected at most {MAX_TURNS_SAVED:,}"
        )
    for i, move in enumerate(moves):
        at = f"{where}: solution turn {i + 1}"
        if not isinstance(move, list):
            raise BadInput(f"{at} is {_kind(move)}; expected a list of choice numbers")
        for j, x in enumerate(move):
            _int(f"{at} choice {j + 1}", x, 0, MAX_CHOICE)
    return moves
