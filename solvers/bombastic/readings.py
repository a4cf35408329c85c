"""Bombastic: the rule options in words, one `Reading` per settable field of `rules.Options`.

Each reading names the field, quotes the rulebook sentence it reads (shared/rules/
bombastic.txt; empty for a study variant the rulebook does not raise) and says in words what
each value does, the default first. `bombsolve bombastic rules` prints them and `--rule
NAME=VALUE` sets them; the values and defaults are checked against `rules.Options`
(tests/bombastic/test_bombastic_readings.py), so the words and the engine cannot drift apart.
Cards taken out of the deck (`Options.removed`) are set with `--without`, not here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """One rule option: the field's name, the sentence it reads, and its values in words."""

    name: str
    kind: type  # bool, int or str (one of the values below)
    section: str
    quote: str
    values: tuple[tuple[str, str], ...]  # (value, what it means); the default first
    flag: str  # the older flag that sets it too

    @property
    def choices(self) -> tuple[str, ...]:
        """Return the values as text, the default first."""
        return tuple(v for v, _ in self.values)


READINGS: tuple[Reading, ...] = (
    Reading(
        "second_swap",
        str,
        "Regular Action Card List",
        "Peek at 1. Swap any 2. May swap any other 2.",
        (
            ("distinct", "the second swap is any pair except the pair just swapped."),
            ("disjoint", "the second swap uses two tiles both different from the first two."),
            ("any", "any pair, even the same one again (undoing the first swap)."),
        ),
        "--second-swap",
    ),
    Reading(
        "shuffle",
        str,
        "Regular Action Card List",
        "Then, your opponent shuffles their positions randomly.",
        (
            ("chance", 'a uniformly random order that no one sees (the card says "randomly").'),
            ("opponent", "the opponent chooses the order, face down, and knows where each went."),
        ),
        "--shuffle",
    ),
    Reading(
        "deck_known",
        bool,
        "Use an Action Card",
        "Place the card face down under the deck and reveal the top card.",
        (
            (
                "true",
                "players remember the order of the cards put under the deck, so once "
                "the deck has cycled its order is known and agents may use it.",
            ),
            ("false", "players forget that order: every unseen card is equally likely next."),
        ),
        "--deck-known/--deck-unknown",
    ),
    Reading(
        "alarms",
        bool,
        "Components",
        "9 action cards (7 regular, 2 ALARM)",
        (
            ("true", "both ALARM cards are in the action deck, as the box comes."),
            ("false", "a study variant: both ALARM cards are left out."),
        ),
        "--no-alarms",
    ),
    Reading(
        "promos",
        bool,
        "Promo Pack Card List",
        "",
        (
            ("false", "the action deck has the 9 cards of the box."),
            ("true", "the two promo cards join the action deck."),
        ),
        "--promos",
    ),
    Reading(
        "turn_cap",
        int,
        "",
        "",
        (
            (
                "60",
                "a safeguard, not a rule: a game still going after 60 turns stops and is "
                "reported as TURN_CAP, with no winner. Any whole number 1 or more.",
            ),
        ),
        "--turn-cap",
    ),
)

#: The readings by name.
BY_NAME = {r.name: r for r in READINGS}
