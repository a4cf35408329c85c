"""Slips in card files: steps valid field by field that cannot act as written are refused
(exit 2, one line naming file, card, side, step, field and why; --allow-nonstandard makes
each a warning) or, when they depend on the game's size, flagged by `cards check` and warned
on every command that builds the game (CARDS.md, "Slips: steps that cannot act as written").

Each case patches the base set's RASCAL (two copies, so the game keeps 18 cards: a DECK holds
at most 17 during a card's action) with one side's steps written as a transcriber might.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import Options

PATCH = """[set]
name = "base"
mode = "patch"
provenance = "printed"

[[card]]
name = "RASCAL"
copies = 2
[card.passive]
number = 2
text = "{text}"
steps = [{steps}]
[card.ignited]
number = 2
steps = [{{op = "ignite", zone = "deck", pick = "top"}}]
"""

SELF_PLAY = "during its own action this card is in the PLAY AREA"
NO_KEYS = "names no card, class, zone or side"
AT_MOST_17 = "the DECK holds at most 17 cards"

# (id, steps of RASCAL's passive side, "refused" or "warned", the step's path and field, needle)
CASES = [
    # conditions on this card during its own action (it is in the PLAY AREA)
    ("if self equipped", '{op = "move", zone = "deck", pick = "top", to = "discard", if = {card = "self", zone = "equipped"}}', "refused", "[step 1][if]", SELF_PLAY),
    ("if self in the DECK", '{op = "ignite", zone = "deck", pick = "top", if = {card = "self", zone = "deck"}}', "refused", "[step 1][if]", "never holds"),
    ("if not self in discard", '{op = "ignite", zone = "deck", pick = "top", if = {card = "self", zone = "discard", not = true}}', "refused", "[step 1][if]", "always holds"),
    ("if self ignited, on the passive side", '{op = "turn_over", zone = "deck", pick = "top", if = {card = "self", side = "ignited"}}', "refused", "[step 1][if]", "passive side up"),
    ("if self at least 2", '{op = "ignite", zone = "deck", pick = "top", if = {card = "self", zone = "play", at_least = 2}}', "refused", "[step 1][if]", "'self' is one card"),
    ("if self out of play on equip_win", '{op = "equip_win", target = "desired", zone = "deck", if = {card = "self", zone = "out"}}', "refused", "[step 1][if]", SELF_PLAY),
    ("if self equipped on exchange", '{op = "exchange", zone = "discard", pick = "any", taken = "equipped", if = {card = "self", zone = "equipped"}}', "refused", "[step 1][if]", SELF_PLAY),
    ("if self in the DECK on a draw after a move", '{op = "move", zone = "play", pick = "self", to = "deck_top"}, {op = "draw", add = 1, if = {card = "self", zone = "deck"}}', "refused", "[step 2][if]", SELF_PLAY),
    # conditions and counting numbers that name nothing (a constant of the game)
    ("if {} on swap", '{op = "swap", if = {}}', "refused", "[step 1][if]", NO_KEYS),
    ("if not on reorder", '{op = "reorder", n = 3, if = {not = true}}', "refused", "[step 1][if]", "never holds"),
    ("if at_least on a group", '{op = "group", may = true, steps = [{op = "ignite", zone = "deck", pick = "top"}], if = {at_least = 3}}', "refused", "[step 1][if]", NO_KEYS),
    ("if {} on next", '{op = "next", effect = "ignited", if = {}}', "refused", "[step 1][if]", NO_KEYS),
    ("if {} on an if-you-do step", '{op = "move", zone = "deck", pick = "top", to = "deck_bottom", may = true}, {op = "ignite", zone = "deck", pick = "top", if_done = true, if = {}}', "refused", "[step 2][if]", NO_KEYS),
    ("count {}", '{op = "ignite", zone = "deck", pick = "top", count = {}}', "refused", "[step 1][count]", "write the number"),
    ("draw add {}", '{op = "draw", add = {}}', "refused", "[step 1][add]", NO_KEYS),
    ("draw number of self in the DECK", '{op = "draw", number = {card = "self", zone = "deck"}}', "refused", "[step 1][number]", "always counts 0"),
    ("turn_over count of self equipped", '{op = "turn_over", zone = "deck", pick = "top", count = {card = "self", zone = "equipped"}}', "refused", "[step 1][count]", "always counts 0"),
    # ops that never act, or ignore a field
    ("flip_back passive", '{op = "flip_back", zone = "deck", pick = "top", side = "passive"}', "refused", "[step 1][side]", "never acts"),
    ("flip_back all passive", '{op = "flip_back", zone = "equipped", pick = "any", all = true, side = "passive"}', "refused", "[step 1][side]", "expected side = 'ignited'"),
    ("below self not in the DECK", '{op = "ignite", zone = "deck", pick = "below", of = "self"}', "refused", "[step 1][of]", "not in the DECK"),
    ("above self, flip_back", '{op = "flip_back", zone = "deck", pick = "above", of = "self"}', "refused", "[step 1][of]", "the step never acts"),
    ("deck_above next_to self", '{op = "move", zone = "deck", pick = "top", to = "deck_above", next_to = "self"}', "refused", "[step 1][next_to]", "the card is never moved"),
    ("below self inside a group", '{op = "group", steps = [{op = "turn_over", zone = "deck", pick = "below", of = "self"}]}', "refused", "[step 1][step 1][of]", "not in the DECK"),
    ("below the PRINCESS count 2", '{op = "ignite", zone = "deck", pick = "below", of = "PRINCESS", count = 2}', "refused", "[step 1][count]", "count = 2 is ignored"),
    ("above the KING, a counting number", '{op = "move", zone = "deck", pick = "above", of = "KING", to = "discard", count = {zone = "deck"}}', "refused", "[step 1][count]", "count = a counting number is ignored"),
    ("prophecy on RASCAL", '{op = "prophecy", dish = "EGGS"}', "refused", "[step 1][op]", "not a PROPHET"),
    ("prophecy in a choose", '{op = "choose", steps = [{op = "prophecy", dish = "EGGS"}, {op = "swap"}]}', "refused", "[step 1][step 1][op]", "rulebook E.1"),
    # what the game's size decides (warned: a larger game may hold it)
    ("nth beyond the DECK", '{op = "move", zone = "deck", pick = "nth", n = 20, to = "discard"}', "warned", "[step 1][n]", AT_MOST_17),
    ("nth beyond the DISCARD PILE", '{op = "ignite", zone = "discard", pick = "nth", n = 18}', "warned", "[step 1][n]", "the DISCARD PILE holds at most 17"),
    ("turn_over nth 19, may", '{op = "turn_over", zone = "deck", pick = "nth", n = 19, may = true}', "warned", "[step 1][n]", "the step never acts"),
    ("within beyond the DECK", '{op = "move", zone = "deck", pick = "any", within = 30, to = "equipped"}', "warned", "[step 1][within]", "it limits nothing"),
    ("within on exchange", '{op = "exchange", zone = "discard", pick = "class", class = "COURT", within = 40}', "warned", "[step 1][within]", "it limits nothing"),
    ("place beyond the DECK", '{op = "move", zone = "discard", pick = "top", to = "deck_place", place = 25}', "warned", "[step 1][place]", "always goes to the bottom"),
    ("place from the bottom", '{op = "move", zone = "equipped", pick = "any", to = "deck_place", place = 25, from_bottom = true}', "warned", "[step 1][place]", "always goes to the top"),
    ("reverse beyond the DECK", '{op = "reverse", n = 30}', "warned", "[step 1][n]", "reverses the whole pile"),
    ("reverse beyond the DISCARD PILE", '{op = "reverse", n = 20, zone = "discard"}', "warned", "[step 1][n]", "n = 62: the whole pile"),
    ("more COURT cards than the game", '{op = "ignite", zone = "deck", pick = "top", if = {class = "COURT", zone = "discard", at_least = 5}}', "warned", "[step 1][if]", "at most 4 COURT cards"),
    ("three JOKERs", '{op = "move", zone = "deck", pick = "top", to = "discard", if = {card = "JOKER", zone = "deck", at_least = 3}}', "warned", "[step 1][if]", "at most 2 JOKERs"),
    ("two cards in the PLAY AREA", '{op = "swap", if = {zone = "play", at_least = 2}}', "warned", "[step 1][if]", "at most 1 card in the PLAY AREA"),
    ("COURT cards, at_least 0", '{op = "ignite", zone = "deck", pick = "top", if = {class = "COURT", zone = "deck", at_least = 0}}', "refused", "[step 1][if]", "every count passes"),
    ("self at most 1", '{op = "swap", if = {card = "self", at_most = 1}}', "refused", "[step 1][if]", "'self' is one card, so it always holds"),
    ("draw add 0", '{op = "draw", add = 0, if = {class = "COURT", zone = "equipped"}}', "refused", "[step 1][add]", "add = 0 changes nothing"),
    ("draw number = NUMBER", '{op = "draw", number = 2}', "refused", "[step 1][number]", "for more cards: add = 2"),
    ("equip_win a JOKER", '{op = "equip_win", target = "JOKER", zone = "deck", may = true}', "refused", "[step 1][target]", "JOKER has 2 copies"),
    ("below the KING, next to the KING", '{op = "move", zone = "deck", pick = "name", name = "KING", to = "deck_below", next_to = "KING"}', "refused", "[step 1][next_to]", "never put next to itself"),
    ("at most 5 BREAKFASTs", '{op = "ignite", zone = "deck", pick = "top", if = {class = "BREAKFAST", at_most = 5}}', "warned", "[step 1][if]", "at most 3 BREAKFAST cards, so this condition always holds"),
    ("self back to passive, on the passive side", '{op = "reorder", n = 2}, {op = "flip_back", zone = "play", pick = "self"}', "warned", "[step 2][op]", "passive side up during its own action"),
    ("IGNITE self if ignited, on the passive side", '{op = "ignite", zone = "play", pick = "self", side = "ignited"}', "warned", "[step 1][side]", "it never acts"),
    ("the KING in the PLAY AREA", '{op = "ignite", zone = "deck", pick = "top", if = {card = "KING", zone = "play"}}', "refused", "[step 1][if]", "only if an exchange before this step puts it there"),
    ("two KINGs by name", '{op = "ignite", zone = "deck", pick = "name", name = "KING", count = 2}', "warned", "[step 1][count]", "has 1 KING, so it takes at most 1"),
    ("not four BREAKFASTs", '{op = "ignite", zone = "anywhere", pick = "any", if = {class = "BREAKFAST", at_least = 4, not = true}}', "warned", "[step 1][if]", "always holds"),
]  # fmt: skip


def _write(tmp_path, steps: str, text: str = "") -> str:
    # one file per text: the loader caches a file by path and modification time
    path = tmp_path / f"slip{len(list(tmp_path.glob('slip*.toml')))}.toml"
    path.write_text(PATCH.format(steps=steps, text=text))
    return str(path)


def run(*args: str):
    return CliRunner().invoke(cli, ["allisbomb", *args])


def test_there_are_thirty_slips_over_every_op():
    assert len(CASES) >= 30
    ops = {"move", "ignite", "flip_back", "turn_over", "swap", "reorder", "reverse", "draw"}
    ops |= {"next", "prophecy", "choose", "exchange", "group", "equip_win"}
    for op in ops:
        assert any(f'op = "{op}"' in steps for _, steps, *_ in CASES), op
    from bombsolve.solvers.allisbomb.cards.cards import STEP_KEYS

    for key in STEP_KEYS:  # every option of a step is in some slip
        assert any(f"{key} = " in steps for _, steps, *_ in CASES), key


@pytest.mark.parametrize("name,steps,outcome,path,needle", CASES, ids=[c[0] for c in CASES])
def test_slip(name, steps, outcome, path, needle, tmp_path):
    file = _write(tmp_path, steps)
    where = f"card 1 (RASCAL)[passive]{path}: "
    r = run("cards", "check", file)
    if outcome == "refused":
        assert r.exit_code == 2, r.output
        assert "Traceback" not in r.output
        line = next(x for x in r.output.splitlines() if where in x)
        assert needle in line and "--allow-nonstandard" in line, line
        # a designer who means it: one warning line, and the flag under the side
        r = run("cards", "check", file, "--allow-nonstandard")
        assert r.exit_code == 0, r.output
        assert any(x.startswith("warning: ") and where in x for x in r.output.splitlines())
    else:
        assert r.exit_code == 0, r.output
    parts = path.strip("[]").split("][")
    flag = "step " + ".".join(p.split()[1] for p in parts[:-1]) + f" [{parts[-1]}]"
    flags = [x.strip() for x in r.output.splitlines() if x.strip().startswith("flag: ")]
    assert any(x.startswith(f"flag: {flag}: ") and needle in x for x in flags), flags
    assert "no flags" not in r.output
    if outcome == "warned" and "side" not in name:  # what the game's size decides
        assert any("18-card game" in x for x in flags), flags
        # every command that builds the game warns, once per slip, and goes on
        r = run("cards", "--cards", file)
        assert r.exit_code == 0, r.output
        warnings = [x for x in r.output.splitlines() if x.startswith("warning: ")]
        assert len(warnings) == 1 and where in warnings[0] and needle in warnings[0], warnings


# (id, steps that read right: no flag at all)
SOUND = [
    ("(t) below self after moving it", '{op = "move", zone = "play", pick = "self", to = "deck_top"}, {op = "ignite", zone = "deck", pick = "below", of = "self"}'),
    ("next to self after moving it", '{op = "move", zone = "play", pick = "self", to = "deck_bottom"}, {op = "move", zone = "deck", pick = "top", to = "deck_above", next_to = "self"}'),
    ("self in the PLAY AREA", '{op = "ignite", zone = "deck", pick = "top", if = {card = "self", zone = "play"}}'),
    ("self in the DISCARD PILE after discarding it", '{op = "move", zone = "play", pick = "self", to = "discard"}, {op = "ignite", zone = "deck", pick = "top", if = {card = "self", zone = "discard"}}'),
    ("self ignited after igniting it", '{op = "ignite", zone = "play", pick = "self"}, {op = "swap", if = {card = "self", side = "ignited"}}'),
    ("self in the DECK after an exchange", '{op = "exchange", zone = "deck", pick = "top"}, {op = "ignite", zone = "deck", pick = "below", of = "self"}'),
    ("reverse the whole DECK in any game", '{op = "reverse", n = 62}'),
    ("a full DECK's place", '{op = "move", zone = "discard", pick = "top", to = "deck_place", place = 17}'),
    ("a DECK of at least 5", '{op = "ignite", zone = "deck", pick = "top", if = {zone = "deck", at_least = 5}}'),
    ("every COURT card", '{op = "ignite", zone = "deck", pick = "top", if = {class = "COURT", zone = "discard", at_least = 4}}'),
    ("above a single card, count 1", '{op = "ignite", zone = "deck", pick = "above", of = "KING", count = 1}'),
    ("flip_back ignited", '{op = "flip_back", zone = "deck", pick = "top", side = "ignited"}'),
    ("the KING in the PLAY AREA after an exchange", '{op = "exchange", zone = "deck", pick = "name", name = "KING"}, {op = "ignite", zone = "deck", pick = "top", if = {card = "KING", zone = "play"}}'),
    ("two JOKERs by name", '{op = "move", zone = "discard", pick = "name", name = "JOKER", count = 2, to = "deck_top"}'),
    ("draw number after an add", '{op = "draw", add = 1, if = {card = "PRINCESS", side = "ignited"}}, {op = "draw", number = 2, if = {class = "COURT", zone = "discard", at_least = 2}}'),
    ("equip_win the KING", '{op = "equip_win", target = "KING", zone = "deck"}'),
]  # fmt: skip


@pytest.mark.parametrize("name,steps", SOUND, ids=[c[0] for c in SOUND])
def test_sound_steps_are_not_flagged(name, steps, tmp_path):
    file = _write(tmp_path, steps)
    r = run("cards", "check", file)
    assert r.exit_code == 0, r.output
    assert r.output.rstrip().endswith("no flags"), r.output
    cs = load_cards(Options(cards_file=Path(file)))
    assert cs.warnings == () and cs.nonstandard == ()


def test_a_larger_game_clears_a_warning_of_the_games_size(tmp_path):
    """Five COURT cards: never in the base game (4), possible with DREAM GUIDE (QUEEN, PRINCE)."""
    file = _write(tmp_path, CASES[[c[0] for c in CASES].index("more COURT cards than the game")][1])
    r = run("cards", "check", file)
    assert "at most 4 COURT cards" in r.output
    r = run("cards", "check", file, "--expansions", "dream_guide")
    assert r.exit_code == 0 and r.output.rstrip().endswith("no flags"), r.output


def test_a_solve_prints_the_warning_and_solves(tmp_path):
    file = _write(tmp_path, '{op = "move", zone = "deck", pick = "nth", n = 20, to = "discard"}')
    r = run("--seed", "0", "--cards", file, "--node-limit", "200", "--json")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("warning: ") and "[passive][step 1][n]: n = 20" in lines[0]
    assert json.loads("\n".join(lines[1:]))["outcome"] in ("win", "loss", "undecided")


def test_shipped_sets_have_no_slip_in_any_configuration():
    from itertools import combinations

    from bombsolve.solvers.allisbomb.cards.config import CARD_VERSIONS, EXPANSIONS

    for version in CARD_VERSIONS:
        for k in range(len(EXPANSIONS) + 1):
            for sets in combinations(EXPANSIONS, k):
                for hands in (False, True):
                    cs = load_cards(Options(expansions=sets, hands=hands, cards_version=version))
                    assert cs.warnings == () and cs.nonstandard == (), (sets, cs.warnings)
        cs = load_cards(Options(blitz=True, cards_version=version))
        assert cs.warnings == () and cs.nonstandard == ()


# --- patch mode -------------------------------------------------------------------------------

PROPHET = """[set]
name = "base"
mode = "patch"
[[card]]
name = "PROPHET"{label}
[card.passive]
number = 1
[card.ignited]
number = 1
steps = [{{op = "prophecy", dish = "EGGS"}}]
"""


def test_a_patched_prophet_without_its_label_says_so(tmp_path):
    path = tmp_path / "prophet.toml"
    path.write_text(PROPHET.format(label=""))
    r = run("cards", "check", str(path))
    assert r.exit_code == 2
    first = r.output.splitlines()[0]
    assert (
        "card 1 (PROPHET)[label]: label 'PROPHET' matches no card of the shipped base set" in first
    )
    assert "'PROPHET OF EGGS'" in first and "4 PROPHET cards" in r.output
    path.write_text(PROPHET.format(label='\nlabel = "PROPHET OF EGGS"'))
    r = run("cards", "check", str(path))
    assert r.exit_code == 0 and r.output.rstrip().endswith("no flags"), r.output


def test_a_patch_does_not_carry_copies(tmp_path):
    path = tmp_path / "joker.toml"
    path.write_text(
        '[set]\nname = "base"\nmode = "patch"\n[[card]]\nname = "JOKER"\nclass = ["COURT"]\n'
        "[card.passive]\nnumber = 2\n[card.ignited]\nnumber = 2\n"
    )
    r = run("cards", "check", str(path))
    assert r.exit_code == 2
    assert "card 1 (JOKER)[copies]: 1 copy; the shipped base JOKER it replaces has 2" in r.output
    assert "write copies = 2" in r.output and "1 JOKER card" in r.output
    r = run("cards", "check", str(path), "--allow-nonstandard")
    assert r.exit_code == 0 and "note: " in r.output and "write copies = 2" in r.output


# --- messages and words -----------------------------------------------------------------------


def test_a_draw_with_a_field_it_lacks_does_not_offer_if_done(tmp_path):
    r = run("cards", "check", _write(tmp_path, '{op = "draw", n = 2}'))
    assert r.exit_code == 2
    assert "op 'draw' takes no field 'n' (it takes add, if, number)" in r.output


def test_names_in_counting_numbers_of_and_next_to_are_used(tmp_path):
    steps = (
        '{op = "ignite", zone = "deck", pick = "top", count = {class = "COURT", zone = "equipped"}}, '
        '{op = "ignite", zone = "deck", pick = "below", of = "KING"}, '
        '{op = "move", zone = "deck", pick = "top", to = "deck_above", next_to = "PRINCESS"}, '
        '{op = "draw", add = {card = "GUARDIAN", zone = "discard"}}'
    )
    text = (
        "IGNITE as many cards as you have COURT cards, and the card below the KING; put the "
        "top card above the PRINCESS; draw one more card for each GUARDIAN discarded."
    )
    r = run("cards", "check", _write(tmp_path, steps, text))
    assert r.exit_code == 0, r.output
    assert "which no step uses" not in r.output, r.output


def test_words_for_self_counts_and_reverse(tmp_path):
    from bombsolve.solvers.allisbomb.cards.cards import Cond, Step
    from bombsolve.solvers.allisbomb.rules.transcribe import step_words

    words = step_words(
        Step("ignite", zone="deck", pick="top", amount=Cond(card="self", zone="discard"))
    )
    assert "the this card" not in words
    assert "as many as this card counts: 1 if it is in the DISCARD PILE, else 0" in words
    file = _write(tmp_path, '{op = "reverse", n = 5}')
    r = run("cards", "try", file, "--card", "RASCAL", "--side", "passive")
    assert r.exit_code == 0, r.output
    assert "reverse the order of the top 5 cards of the DECK" in r.output
    assert "of the \n" not in r.output + "\n"


def test_try_says_when_the_played_card_left_the_play_area(tmp_path):
    file = _write(tmp_path, '{op = "move", zone = "play", pick = "self", to = "deck_top"}')
    r = run("cards", "try", file, "--card", "RASCAL", "--side", "passive")
    assert r.exit_code == 0, r.output
    assert "ignite, clean-up: nothing (the played card left the PLAY AREA" in r.output
    # a card that stays in the PLAY AREA is ignited as usual, with no such line
    r = run(
        "cards", "try", _write(tmp_path, '{op = "swap"}'), "--card", "RASCAL", "--side", "passive"
    )
    assert "ignite: turn RASCAL" in r.output and "left the PLAY AREA" not in r.output


def test_the_banner_of_a_patched_game_does_not_ask_for_a_card_file(tmp_path):
    r = run("cards", "--cards", _write(tmp_path, '{op = "swap"}'))
    first = r.output.splitlines()[0]
    assert "pass --cards FILE" not in first and "your card file does not give" in first
    r = run("cards")
    assert "pass --cards FILE" in r.output.splitlines()[0]


def test_allow_nonstandard_does_not_label_a_standard_file(tmp_path):
    r = run("cards", "--cards", _write(tmp_path, '{op = "swap"}'), "--allow-nonstandard", "--json")
    assert r.exit_code == 0, r.output
    assert "/nonstandard" not in json.loads(r.output)["config"]["label"]
    file = _write(tmp_path, '{op = "prophecy", dish = "EGGS"}')
    r = run("cards", "--cards", file)
    assert r.exit_code == 2
    r = run("cards", "--cards", file, "--allow-nonstandard", "--json")
    lines = [x for x in r.output.splitlines() if not x.startswith("warning: ")]
    assert json.loads("\n".join(lines))["config"]["label"].endswith("/nonstandard")


def test_discarding_all_in_the_players_order(tmp_path):
    """CARDS.md, `all = true`: one fixed order (card id); a counting number of your EQUIPPED
    CARDS with pick any lets the player choose it (3 cards: 3! orders)."""
    fixed = '{op = "move", zone = "equipped", pick = "any", all = true, to = "discard"}'
    chosen = '{op = "move", zone = "equipped", pick = "any", count = {zone = "equipped"}, to = "discard"}'
    orders = []
    for steps in (fixed, chosen):
        r = run(
            "cards",
            "try",
            _write(tmp_path, steps),
            "--card",
            "RASCAL",
            "--side",
            "passive",
            "--json",
        )
        assert r.exit_code == 0, r.output
        results = json.loads(r.output)["results"]
        orders.append({tuple(x["discard"]) for x in results})
    assert len(orders[0]) == 1 and len(orders[1]) == 6 and orders[0] <= orders[1]


def test_equip_win_on_a_side_that_draws_nothing(tmp_path):
    """NUMBER 0 and no draw step: "the card EQUIPPED in this turn's Draw & Equip phase" is no
    card, unless some card makes the next card draw more."""
    step = '{op = "equip_win", target = "desired", zone = "drawn"}'
    text = PATCH.format(steps=step, text="").replace("number = 2\ntext", "number = 0\ntext")
    path = tmp_path / "zero.toml"
    path.write_text(text)
    r = run("cards", "check", str(path))
    assert r.exit_code == 0
    assert "flag: step 1 [zone]: this side has NUMBER 0 and no draw step" in r.output
    path = tmp_path / "zero_next.toml"
    path.write_text(
        text.replace(
            'steps = [{op = "ignite", zone = "deck", pick = "top"}]',
            'steps = [{op = "next", add = 1}]',
        )
    )
    r = run("cards", "check", str(path))
    assert r.exit_code == 0 and r.output.rstrip().endswith("no flags"), r.output


KING = """[set]
name = "base"
mode = "patch"
[[card]]
name = "KING"
class = ["COURT"]
[card.passive]
number = 2
steps = [{steps}]
[card.ignited]
number = 2
steps = [{{op = "ignite", zone = "deck", pick = "top"}}]
"""


@pytest.mark.parametrize(
    "steps,path,needle",
    [
        ('{op = "swap", if = {card = "KING", zone = "equipped"}}', "[step 1][if]", SELF_PLAY),
        (
            '{op = "swap", if = {card = "KING", side = "ignited"}}',
            "[step 1][if]",
            "passive side up",
        ),
        (
            '{op = "ignite", zone = "deck", pick = "below", of = "KING"}',
            "[step 1][of]",
            "not in the DECK",
        ),
    ],
)
def test_a_card_naming_itself_is_this_card(steps, path, needle, tmp_path):
    """The KING (one copy) naming the KING in its own action means this card."""
    file = tmp_path / "king.toml"
    file.write_text(KING.format(steps=steps))
    r = run("cards", "check", str(file))
    assert r.exit_code == 2, r.output
    assert f"card 1 (KING)[passive]{path}: " in r.output and needle in r.output


def test_a_prophecy_on_a_prophets_passive_side(tmp_path):
    file = tmp_path / "prophet.toml"
    file.write_text(
        PROPHET.format(label='\nlabel = "PROPHET OF EGGS"').replace(
            "[card.passive]\nnumber = 1\n",
            '[card.passive]\nnumber = 1\nsteps = [{op = "prophecy", dish = "EGGS"}]\n',
        )
    )
    r = run("cards", "check", str(file))
    assert r.exit_code == 2, r.output
    assert (
        "card 1 (PROPHET)[passive][step 1][op]: a PROPHECY on a PROPHET's passive side" in r.output
    )


def test_conditions_called_constant_are_constant_in_play(tmp_path, monkeypatch):
    """A condition `slips` calls always or never holding does so in random play of random
    card files (odd_sets.random_card_file; the reference engine's `_holds` recorded)."""
    import numpy as np

    from bombsolve.solvers.allisbomb.cards.cards import MAX_CARDS
    from bombsolve.solvers.allisbomb.cards.slips import slips
    from bombsolve.solvers.allisbomb.rules import rules
    from tests.allisbomb.odd_sets import random_card_file

    seen: dict[tuple[int, int], set[bool]] = {}
    holds = rules._holds

    def recorded(s, card, cond):
        value = holds(s, card, cond)
        seen.setdefault((card, id(cond)), set()).add(value)
        return value

    monkeypatch.setattr(rules, "_holds", recorded)
    checked = 0
    for i in range(40):
        rng = np.random.default_rng(i)
        path = random_card_file(rng, tmp_path / f"odd{i}.toml", int(rng.integers(5, 8)), True)
        config = Options(cards_file=path, allow_nonstandard=True, players=1 + i % 2)
        cs = load_cards(config)
        said = []
        for slip in slips(cs.cards, "odd", MAX_CARDS):
            if not slip.path.endswith("[if]") or "holds" not in slip.reason:
                continue
            steps = getattr(slip.card, slip.side).steps
            for part in slip.path.strip("[]").split("][")[:-1]:
                step = steps[int(part.split()[1]) - 1]
                steps = step.steps
            said.append((slip.card, step.cond, "always holds" in slip.reason))
        seen.clear()
        for _ in range(15):
            s = rules.new_game(config, list(rng.permutation(cs.n)))
            for _ in range(20):
                kids = [] if s.is_over() else s.children()
                if not kids:
                    break
                s = kids[int(rng.integers(len(kids)))][1]
        for card, cond, always in said:
            for cid in (i for i, c in enumerate(cs.cards) if c is card):
                if (cid, id(cond)) in seen:
                    checked += 1
                    assert seen[(cid, id(cond))] == {always}, (path.name, card.name, cond)
    assert checked >= 20  # the random files do reach such conditions
