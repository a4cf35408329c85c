"""Load the Bomb the Dragon card lists (rulebook "Components"; data: shared/data/dragon-bomb.md).

The data file `cards.toml` lists the 45 Firecracker cards and the 19 Dragon Body cards.
Cards are numbered densely: firecracker ids 0..44 and body ids 0..18, in file order, so
the reference engine and the Numba kernel can share one numbering.

>>> cards = load_cards()
>>> len(cards.firecrackers), len(cards.bodies)
(45, 19)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from bombsolve.solvers.common.errors import BadInput

CARDS_PATH = Path(__file__).with_name("cards.toml")

#: Special effects of firecrackers (rulebook "Special Firecracker Cards").
FIRE_SPECIALS = ("none", "string", "rocket", "double")
#: Special effects of Dragon Body cards (rulebook "Special Dragon Body Cards").
BODY_SPECIALS = ("none", "bad_luck", "hand_limit")

NONE, STRING, ROCKET, DOUBLE = range(4)
BAD_LUCK, HAND_LIMIT = 1, 2


@dataclass(frozen=True)
class Firecracker:
    """One Firecracker card: its power value, lanterns (tie-break) and special effect."""

    id: int
    power: int
    lanterns: int
    special: str

    @property
    def order(self) -> tuple[int, int]:
        """Return the placement key: lowest power first, fewer lanterns on ties."""
        return (self.power, self.lanterns)

    def __str__(self) -> str:
        tag = {"none": "", "string": " String", "rocket": " Rocket", "double": " Double"}
        return f"{self.power}{'*' * self.lanterns}{tag[self.special]}"


@dataclass(frozen=True)
class Body:
    """One Dragon Body card: its vitality, victory points and special effect."""

    id: int
    vitality: int
    points: int
    special: str

    def __str__(self) -> str:
        return f"[{self.vitality}:{self.points:+d}]"


@dataclass(frozen=True)
class Cards:
    """All the cards of one game, with flat arrays for the kernel."""

    firecrackers: tuple[Firecracker, ...]
    bodies: tuple[Body, ...]

    def arrays(self) -> dict[str, np.ndarray]:
        """Return the card attributes as int64 arrays indexed by card id."""
        fc, bd = self.firecrackers, self.bodies
        return {
            "fc_power": np.array([c.power for c in fc], dtype=np.int64),
            "fc_lanterns": np.array([c.lanterns for c in fc], dtype=np.int64),
            "fc_special": np.array([FIRE_SPECIALS.index(c.special) for c in fc], dtype=np.int64),
            "body_vitality": np.array([b.vitality for b in bd], dtype=np.int64),
            "body_points": np.array([b.points for b in bd], dtype=np.int64),
            "body_special": np.array([BODY_SPECIALS.index(b.special) for b in bd], dtype=np.int64),
        }


def _int(table: dict, key: str, where: str, lo: int, hi: int) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise BadInput(f"{where}[{key}] must be an integer in {lo}..{hi}, got {value!r}")
    return value


def _choice(table: dict, key: str, where: str, choices: tuple[str, ...]) -> str:
    value = table.get(key, "none")
    if value not in choices:
        raise BadInput(f"{where}[{key}] must be one of {', '.join(choices)}, got {value!r}")
    return value


def parse_cards(data: dict) -> Cards:
    """Build `Cards` from a parsed TOML table; raise BadInput naming the bad key's path."""
    fires: list[Firecracker] = []
    for i, kind in enumerate(data.get("firecracker", [])):
        where = f"[firecracker {i}]"
        power = _int(kind, "power", where, 0, 99)
        special = _choice(kind, "special", where, FIRE_SPECIALS)
        lanterns = kind.get("lanterns")
        if not isinstance(lanterns, list) or not lanterns:
            raise BadInput(f"{where}[lanterns] must be a non-empty list of integers")
        for lan in lanterns:
            if not isinstance(lan, int) or isinstance(lan, bool) or lan < 0:
                raise BadInput(f"{where}[lanterns] must hold integers >= 0, got {lan!r}")
            fires.append(Firecracker(len(fires), power, lan, special))
    bodies: list[Body] = []
    for i, kind in enumerate(data.get("body", [])):
        where = f"[body {i}]"
        vitality = _int(kind, "vitality", where, 1, 999)
        count = _int(kind, "count", where, 1, 99)
        points = _int(kind, "points", where, -99, 99)
        special = _choice(kind, "special", where, BODY_SPECIALS)
        for _ in range(count):
            bodies.append(Body(len(bodies), vitality, points, special))
    if not fires or not bodies:
        raise BadInput("card data must list at least one [[firecracker]] and one [[body]]")
    orders = [c.order for c in fires]
    if len(set(orders)) != len(orders):
        raise BadInput("every firecracker (power, lanterns) pair must be unique")
    return Cards(tuple(fires), tuple(bodies))


@lru_cache(maxsize=8)
def load_cards(path: str | Path | None = None) -> Cards:
    """Load and validate a card file (default: the published Dragon Bomb lists)."""
    path = Path(path) if path is not None else CARDS_PATH
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError as exc:
        raise BadInput(f"card file {str(path)!r} not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"card file {str(path)!r} is not valid TOML: {exc}") from exc
    return parse_cards(data)
