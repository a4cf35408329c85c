"""Bomb the Dragon: the open rule points in words, and the named presets.

Each `Reading` names one field of `rules.Options`, quotes the rulebook sentence it reads
(shared/rules/bomb-the-dragon.txt), and says in words what each value does, the default
first. `bombsolve dragon rules` prints them; `rules.Options` takes its choices from here,
so the words and the engine cannot drift apart (tests/dragon/test_dragon_readings.py).

A `Preset` sets every option the way one published edition plays, each value with where
it comes from. `gamepark` is Game Park's digital edition (its rules engine is public, in
TypeScript: github.com/gamepark/dragon-bomb, folder rules/src).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """One open point: the option's name, the sentence it reads, and its values in words."""

    name: str
    section: str
    quote: str
    values: tuple[tuple[str, str], ...]  # (value, what it means); the default first
    kind: str = "reading"  # "reading" (an open point), "knob" (a study knob), "safeguard"

    @property
    def choices(self) -> tuple[str, ...]:
        """Return the values as text, the default first."""
        return tuple(v for v, _ in self.values)


READINGS: tuple[Reading, ...] = (
    Reading(
        "placement",
        "2. Place Firecracker Cards",
        "Then, in ascending order, each player places their Firecracker card from left to right.",
        (
            (
                "fixed",
                "the k-th card placed goes under the k-th slot of the row as it stood at the "
                "reveal, even if an earlier slot exploded this turn (it then waits under the "
                "empty slot for the body drawn at step 3).",
            ),
            (
                "close_up",
                "a taken body leaves the row at once, so the k-th card goes under the k-th "
                "body still there; a card with no body left goes to the discard pile.",
            ),
        ),
    ),
    Reading(
        "rocket_timing",
        "Special Firecracker Cards, 2 Rocket",
        "When you play this card, place it last under any Dragon Body card.",
        (
            ("last", "Rockets are placed after all other cards, several by ascending lanterns."),
            (
                "in_order",
                "a Rocket is placed at its own turn in the power order (power 2), under any "
                "body, taking no slot of the row.",
            ),
        ),
    ),
    Reading(
        "rocket_empty_slot",
        "Special Firecracker Cards, 2 Rocket",
        "place it last under any Dragon Body card.",
        (
            ("false", "a Rocket goes only under a slot that still holds a body."),
            (
                "true",
                "a Rocket may also go under a slot whose body exploded this turn; it then "
                "waits for the body drawn at step 3.",
            ),
        ),
    ),
    Reading(
        "double_when",
        "Special Firecracker Cards, 3 Double Firecracker",
        "When you play this card, if the Vitality threshold is reached: Take the Dragon "
        "Body card. Double its Victory Points.",
        (
            (
                "placer",
                "the points double only when the Double is the card whose placement reaches "
                "the vitality.",
            ),
            (
                "under",
                "a Double lying under the body, from this turn or an earlier one, doubles the "
                "points of whoever takes it (once, however many Doubles lie there).",
            ),
        ),
    ),
    Reading(
        "double_card",
        "Special Firecracker Cards, 3 Double Firecracker",
        "Place this card face down in front of you to track the doubled points at the end "
        "of the round.",
        (
            (
                "kept",
                "a Double that doubled stays face down in front of its owner, out of the deck, "
                "until the round ends.",
            ),
            ("discard", "it goes to the discard pile with the other cards under the body."),
        ),
    ),
    Reading(
        "string_card",
        "Special Firecracker Cards, 1 String of Firecrackers",
        "draw 1 Firecracker card from the deck and add its value to the total Power.",
        (
            ("slot", "the drawn card stays under the same body, its power with it."),
            ("discard", "the drawn card counts for this placement only, then is discarded."),
        ),
    ),
    Reading(
        "string_reshuffle",
        "Special Firecracker Cards, 1 String of Firecrackers",
        "When you play this card, draw 1 Firecracker card from the deck",
        (
            (
                "true",
                "with the deck empty, the String first shuffles the discard pile into a new "
                "deck, as step 4 does.",
            ),
            ("false", "with the deck empty, the String draws nothing."),
        ),
    ),
    Reading(
        "reshuffle_when",
        "4. Draw Cards",
        "If the Firecracker deck is empty, shuffle the discard pile to form a new deck.",
        (
            (
                "draw",
                "the discard pile becomes the new deck when a draw finds the deck empty (step "
                "4 or a String), so cards discarded in between join that new deck.",
            ),
            (
                "empty",
                "the deck is never empty while the discard pile is not: the moment the deck "
                "runs out (say, by the last draw of step 4), or cards reach the discard pile "
                "while it is empty, the discard pile is shuffled into the new deck.",
            ),
        ),
    ),
    Reading(
        "equal_vitality",
        "3. Complete the Dragon",
        "Rearrange the cards in ascending order.",
        (
            (
                "slot",
                "bodies of equal vitality keep the order of their slots, so a body drawn into "
                "a slot on the left goes ahead of an equal body to its right.",
            ),
            (
                "row_first",
                "bodies already in the row (and the firecrackers under them) stay ahead of "
                "newly drawn bodies of equal vitality. The rulebook's example (\"4 first, "
                'shifting the other cards, and 12 at the far right") fits both readings.',
            ),
        ),
    ),
    Reading(
        "round_end",
        "End of Round",
        "If there are not enough Dragon Body cards to fill the empty spaces, the round ends "
        "immediately.",
        (
            ("short", "the round ends only when the Dragon deck cannot fill the gaps."),
            (
                "empty",
                'it also ends once step 3 leaves the Dragon deck empty ("If the Dragon deck '
                'is empty, see End of Round").',
            ),
        ),
    ),
    Reading(
        "partial_refill",
        "End of Round",
        "the round ends immediately.",
        (
            (
                "false",
                "when the round ends mid-refill no body is drawn. Step 4 is skipped in both "
                "readings; only the last table of the round differs.",
            ),
            ("true", "the gaps are filled as far as the Dragon deck goes, then the round ends."),
        ),
    ),
    Reading(
        "new_round",
        "End of Round",
        "Set up a new round following the initial setup.",
        (
            (
                "rebuild",
                "both decks are rebuilt from all cards and reshuffled, hands dealt afresh.",
            ),
            (
                "continue",
                "the Dragon deck is rebuilt, but hands, firecracker deck and discard pile carry "
                "on (cards under the row and kept Doubles go to the discard pile); hands are "
                "drawn up to the limit.",
            ),
        ),
    ),
    Reading(
        "tiebreak",
        "End of Game",
        "In case of a tie, the player with the fewest Dragon Body cards wins.",
        (
            ("game", "counts the bodies taken over the whole game."),
            ("round", "counts the bodies held at the end of the last round."),
        ),
    ),
    Reading(
        "two_player_deal",
        "2-Player Rules",
        "The hand limit is 4 cards.",
        (
            ("4", "with two players each hand is dealt up to the hand limit, 4 cards."),
            (
                "3",
                'with two players each hand is dealt 3 cards, as Setup says ("Deal 3 '
                'Firecracker cards to each player").',
            ),
        ),
    ),
    Reading(
        "thirteen_bonus",
        "Special Dragon Body Cards, 13",
        "Taking this card increases your hand limit by 1 until the end of the round.",
        (("1", "as printed; 0 to 5: the extra hand cards the 13 gives, for studies."),),
        kind="knob",
    ),
    Reading(
        "bad_luck",
        "Special Dragon Body Cards, 4",
        "Taking this card causes you to lose 3 points.",
        (
            ("true", "as printed: the 4 scores -3."),
            ("false", "the 4 scores +3 like the other small bodies (a study knob)."),
        ),
        kind="knob",
    ),
    Reading(
        "target",
        "End of Game",
        "The game ends when a player reaches 50 points or more at the end of a round.",
        (("50", "as printed; any positive integer for studies."),),
        kind="knob",
    ),
    Reading(
        "max_turns",
        "(none: a safeguard)",
        "",
        (("300", "a round that reaches this many turns ends as if the Dragon deck ran short."),),
        kind="safeguard",
    ),
    Reading(
        "max_rounds",
        "(none: a safeguard)",
        "",
        (("60", "a game that reaches this many rounds ends."),),
        kind="safeguard",
    ),
)

#: The readings by option name.
BY_NAME: dict[str, Reading] = {r.name: r for r in READINGS}


@dataclass(frozen=True)
class Preset:
    """Every option set the way one edition plays it, each with where that comes from."""

    name: str
    title: str
    source: str
    settings: tuple[tuple[str, str, str], ...]  # (option, value as text, where it comes from)
    notes: tuple[str, ...] = ()

    def text(self) -> str:
        """Return the preset as name=value,... (every option, changed or not)."""
        return ",".join(f"{k}={v}" for k, v, _ in self.settings)


_GP = "rules/src/"
PRESETS: dict[str, Preset] = {
    "gamepark": Preset(
        "gamepark",
        "Game Park's digital edition of Dragon Bomb",
        "its rules engine, github.com/gamepark/dragon-bomb (TypeScript, " + _GP + ")",
        (
            (
                "placement",
                "fixed",
                f"{_GP}rules/ChooseFirecrackerRule.ts memorises the slot order at the reveal; "
                "the k-th card goes to the k-th slot of it",
            ),
            (
                "rocket_timing",
                "last",
                f"{_GP}rules/ChooseFirecrackerRule.ts sets Rockets aside, placed after the "
                "others in card order (ascending lanterns)",
            ),
            (
                "rocket_empty_slot",
                "false",
                f"{_GP}rules/PlaceRocketRule.ts offers only the bodies still in the row",
            ),
            (
                "double_when",
                "placer",
                f"{_GP}rules/ExplosionRule.ts doubles only when the last card placed (not a "
                "String's draw) is the Double",
            ),
            (
                "double_card",
                "discard",
                f"{_GP}rules/ExplosionRule.ts sends every card under the body, the Double too, "
                "to the discard pile; the x2 is only remembered for display",
            ),
            (
                "string_card",
                "slot",
                f"{_GP}rules/DistributeRule.ts deals the drawn card onto the same slot",
            ),
            (
                "string_reshuffle",
                "true",
                f"{_GP}rules/DistributeRule.ts reshuffles the discard pile when the String "
                "finds the deck empty",
            ),
            (
                "reshuffle_when",
                "empty",
                f"{_GP}DragonBombRules.ts keeps the firecracker deck never empty while the "
                "discard pile is not, after every firecracker move",
            ),
            (
                "equal_vitality",
                "row_first",
                f"{_GP}material/DragonRowStrategy.ts re-sorts the row by vitality as each body "
                "is dealt in, the cards already there ahead of the new one (a stable sort)",
            ),
            (
                "round_end",
                "short",
                f"{_GP}rules/CompleteDragonRowRule.ts ends the round when the Dragon deck holds "
                "fewer cards than the gaps",
            ),
            (
                "partial_refill",
                "true",
                f"{_GP}rules/CompleteDragonRowRule.ts still deals the last bodies into the row, "
                "then ends the round (step 4 skipped)",
            ),
            (
                "new_round",
                "rebuild",
                f"{_GP}rules/EndOfRoundRule.ts returns every card to its deck, reshuffles "
                "and deals anew",
            ),
            (
                "tiebreak",
                "round",
                f"{_GP}DragonBombRules.ts breaks ties by captured Dragon cards, which go back "
                "to the Dragon deck at each round's end",
            ),
            (
                "two_player_deal",
                "4",
                f"{_GP}DragonBombSetup.ts deals each player the hand limit, 4 with two players",
            ),
            ("thirteen_bonus", "1", f"{_GP}material/DragonCard.ts: the 13 gives +1 hand card"),
            ("bad_luck", "true", f"{_GP}material/DragonCard.ts: the 4s score -3"),
            ("target", "50", f"{_GP}rules/EndOfRoundRule.ts: 50 points end the game"),
            ("max_turns", "300", "a safeguard of bombsolve's; Game Park has none"),
            ("max_rounds", "60", "a safeguard of bombsolve's; Game Park has none"),
        ),
        (
            "Not reproduced: with two bodies of equal vitality, Game Park orders the ones "
            "already in the row by its internal card number (18a before 18b), and only the last "
            "body dealt at step 3 goes after its equals; row_first keeps bodies already in the "
            "row in their order and puts every new one after them. The copies are identical "
            "cards, so this only moves which stack of firecrackers sits where.",
        ),
    ),
}
