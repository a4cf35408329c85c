"""`bombsolve allisbomb play` through a pipe (one command a line), and the session under it
(solvers/allisbomb/search/session.py); `replay FILE --turn K`. The same session in a real
pseudo-terminal: test_allisbomb_play_pty.py.

Seed 0 of the base game is a WIN its reference search decides in a few hundred positions,
seed 42 a LOSS: both are decided without the kernel, so these tests compile nothing."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb import Options, Session, compiled, deals, prepare

HINT = re.compile(r"^hint: (\d+(?:\.\d+)?): ")


def _session(commands: list[str], *args: str) -> list[str]:
    r = CliRunner().invoke(
        cli,
        ["allisbomb", "play", *(args or ("--seed", "0"))],
        input="".join(c + "\n" for c in commands),
    )
    assert r.exit_code == 0, r.output
    return r.stdout.splitlines()


def _after(lines: list[str], command: str, nth: int = 0) -> list[str]:
    """What the session printed after the nth `command` it read, up to the next command."""
    at = [i for i, line in enumerate(lines) if line == f"> {command}"][nth]
    end = next(
        (
            i
            for i in range(at + 1, len(lines))
            if lines[i].startswith("> ") or "session ended" in lines[i]
        ),
        len(lines),
    )
    return lines[at + 1 : end]


def _shown(lines: list[str]) -> list[str]:
    """A position as shown, without the line on how long its search took."""
    return [line for line in lines if not line.startswith("(verdicts of ")]


def _start(seed: int = 0):
    config = Options().validate()
    return prepare(compiled(config).cards, deals.deal_from_seed(config, seed))


def test_the_start_shows_the_position_its_verdict_and_grouped_moves():
    lines = _session([])
    assert lines[2] == "turn 1"
    assert lines[3].startswith("DECK (top first): PROPHET OF CROISSANT (passive), PRINCESS")
    assert lines[4] == "EQUIPPED CARDS: JOKER (passive), JOKER (passive), GUARDIAN (passive)"
    assert lines[5] == "DISCARD PILE (top first): (empty)"
    assert lines[6].startswith("(verdicts of 6 moves: ") and "the reference search" in lines[6]
    assert lines[7] == "verdict: WIN in 12 turns (hint: 1.2)"
    assert lines[8] == "moves:"
    # two cards to play, each with three choices of the card to discard: one line a card
    assert lines[9].startswith("  1. play JOKER (passive), number 2: URGENT.")
    assert lines[9].endswith("-> 3 ways: 2 WIN (the best in 12 turns), 1 LOSS (type 1 to see them)")
    assert lines[-1] == "end of input: session ended"


def test_a_card_opens_its_choices_each_with_its_verdict():
    out = _after(_session(["2"]), "2")
    assert out[1] == "its choices:"
    assert out[2:5] == [
        "  2.1. move PRINCESS (passive) to discard -> LOSS",
        "  2.2. move JOKER (passive) to discard -> WIN in 12 turns",
        "  2.3. move GUARDIAN (passive) to discard -> WIN in 16 turns",
    ]


def test_many_choices_are_paged(monkeypatch):
    import bombsolve.cli.allisbomb_play as play

    monkeypatch.setattr(play, "PAGE", 2)
    lines = _session(["2", "more", "more", "3"])
    first, second = _after(lines, "2"), _after(lines, "more")
    assert first[1] == "its choices, 1-2 of 3:" and len(first) == 5
    assert second[1] == "its choices, 3-3 of 3:"
    assert second[2].startswith("  2.3. move GUARDIAN (passive) to discard")
    assert _after(lines, "more", 1) == ["error: no more choices: this is the last page"]
    # a number among the open card's choices plays that choice
    assert _after(lines, "3")[0].startswith("played: play JOKER (passive)")
    assert "move GUARDIAN (passive) to discard" in _after(lines, "3")[0]


def test_playing_the_hint_from_a_win_ends_in_a_win():
    played: list[str] = []
    for _ in range(40):
        out = _after(_session([*played, "hint"]), "hint")
        if out[0].startswith("hint: no move wins here"):
            break
        played.append(HINT.match(out[0]).group(1))
        lines = _session(played)
        if "the game is over: WIN" in lines:
            break
    else:
        pytest.fail("40 turns of hints without the game ending")
    assert "the game is over: WIN" in lines
    assert len(played) == 12  # the verdict at the start: WIN in 12 turns


def test_the_session_following_its_hints_shortens_the_win_every_turn():
    s = Session(_start())
    turns = None
    while not s.state.is_over():
        v = s.position_verdict(s.move_verdicts())
        assert v.outcome == "win"
        assert turns is None or v.turns == turns - 1
        turns = v.turns
        s.play(v.line[0])
    assert s.state.result() == "win"


def test_undo_restores_the_previous_position_exactly():
    s = Session(_start())
    before = s.state.to_json()
    s.play(s.legal()[3][0])
    assert s.state.to_json() != before
    assert s.undo() and s.state.to_json() == before
    lines = _session(["2.3", "undo", "redo"])
    start = _shown(lines[2 : lines.index("> 2.3")])
    assert _shown(_after(lines, "undo"))[1:] == start  # "undone", then the same screen
    assert _after(lines, "undo")[0] == "undone"
    assert _shown(_after(lines, "redo"))[1:] == _shown(_after(lines, "2.3"))[1:]


def test_undo_answers_from_the_cache():
    s = Session(_start())
    s.move_verdicts()
    s.play(s.legal()[0][0])
    s.move_verdicts()
    searched = s.searches
    s.undo()
    s.move_verdicts()
    assert s.searches == searched


def test_a_saved_position_read_back_by_state_gives_the_same_verdict(tmp_path):
    saved = tmp_path / "turn2.json"
    lines = _session(["2.3", f"save {saved}"])
    assert _after(lines, f"save {saved}") == [
        f"saved the position to {saved} (bombsolve allisbomb --state {saved})"
    ]
    verdict = next(line for line in _after(lines, "2.3") if line.startswith("verdict: "))
    assert verdict == "verdict: WIN in 15 turns (hint: 1)"
    r = CliRunner().invoke(cli, ["allisbomb", "--state", str(saved), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["outcome"] == "win"
    again = _session([], "--state", str(saved))
    assert verdict in again
    assert _shown(again[2:])[:-1] == _shown(_after(lines, "2.3"))[1:]


def test_a_lost_deal_has_no_hint_and_no_line():
    lines = _session(["hint", "line"], "--seed", "42")
    assert "verdict: LOSS (every move loses)" in lines
    assert _after(lines, "hint") == ["hint: no move wins here (every move loses)"]
    assert _after(lines, "line") == ["line: no winning line from here (no move is known to win)"]


def test_line_prints_the_winning_line_from_here():
    out = _after(_session(["2.2", "line"]), "line")
    assert out[0] == "winning line from here, 11 turns:"
    assert out[1].startswith("turn 2: play PRINCESS (passive)")
    assert out[-1].startswith("    DISCARD PILE") or out[-1].startswith("    out of play")
    assert any(line.strip() == "the game ends with every win condition met: WIN" for line in out)


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (
            "hnit",
            "error: unknown command 'hnit'; did you mean 'hint'? (a move's number, a card's name, or 'help')",
        ),
        ("9", "error: no card number 9; expected 1..2"),
        ("2.7", "error: no choice 2.7; expected 2.1..2.3"),
        ("KING", "error: no move plays KING here (the moves list the cards to play)"),
        ("joker", "error: 2 cards named JOKER: pick 1, 2"),
        ("undo", "error: nothing to undo: this is where the session started"),
        ("redo", "error: nothing to redo"),
        ("more", "error: 'more' pages a card's choices: pick a card first"),
        ("save", "error: save needs a file name: save FILE"),
        ("save /dev/null/p.json", None),
    ],
)
def test_a_bad_command_gets_one_line_and_the_session_goes_on(command, said):
    lines = _session([command, "hint"])
    out = _after(lines, command)
    assert len(out) == 1 and out[0].startswith("error: ")
    if said is not None:
        assert out == [said]
    assert _after(lines, "hint")[0].startswith("hint: 1.2: play JOKER (passive)")


def test_end_of_input_and_quit_end_cleanly():
    assert _session([])[-1] == "end of input: session ended"
    lines = _session(["quit", "hint"])
    assert lines[-1] == "session ended" and "> hint" not in lines


def test_ctrl_c_stops_a_search_and_the_session_goes_on(monkeypatch):
    import bombsolve.solvers.allisbomb.search.session as session

    real, calls = session.solve_first, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(session, "solve_first", interrupted)
    lines = _session(["show"])
    assert "search interrupted: the moves not searched say so; 'show' searches them again" in lines
    assert "verdict: not known (a move was not searched)" in lines
    assert any("not searched" in line for line in lines if line.startswith("  1. "))
    # 'show' searches what the interruption left, and the session goes on
    assert "verdict: WIN in 12 turns (hint: 1.2)" in _after(lines, "show")


def test_play_takes_the_solve_commands_start_options_and_their_checks():
    r = CliRunner().invoke(cli, ["allisbomb", "play", "--expansions", "al", "--seed", "1"])
    assert r.exit_code == 2 and "al" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(cli, ["allisbomb", "play"])
    assert r.exit_code == 2 and "give one of --seed, --rank, --deck, --state" in r.output
    r = CliRunner().invoke(cli, ["allisbomb", "--seed", "0", "--json"])
    listed = json.loads(r.stdout)["deck_string"]
    assert _shown(_session([], "--deck", listed)) == _shown(_session([]))


def test_replay_turn_shows_and_saves_the_position_before_that_turn(tmp_path):
    solved, saved = tmp_path / "deal0.json", tmp_path / "turn3.json"
    r = CliRunner().invoke(cli, ["allisbomb", "--seed", "0", "--save", str(solved)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(
        cli, ["allisbomb", "replay", str(solved), "--turn", "3", "--save-position", str(saved)]
    )
    assert r.exit_code == 0, r.output
    shown = r.stdout.splitlines()
    assert shown[0] == f"{solved}: the position before turn 3 of its line of 12 turns"
    assert shown[1] == "turn 3"
    assert shown[-1] == f"saved to {saved} (bombsolve allisbomb --state {saved})"
    # the saved position is the one shown, and the one two turns of the line lead to
    s = Session(_start())
    line = json.loads(solved.read_text())["solution"]
    for move in line[:2]:
        s.play(tuple(move))
    assert json.loads(saved.read_text()) == s.state.to_json()
    played = _session([], "--state", str(saved))
    assert played[2:6] == shown[1:5]
    # ... and the solve from it wins in the rest of the line
    r = CliRunner().invoke(cli, ["allisbomb", "--state", str(saved), "--json"])
    assert json.loads(r.stdout)["outcome"] == "win"


def test_replay_turn_opens_play_there(tmp_path):
    solved = tmp_path / "deal0.json"
    CliRunner().invoke(cli, ["allisbomb", "--seed", "0", "--save", str(solved)])
    r = CliRunner().invoke(
        cli, ["allisbomb", "replay", str(solved), "--turn", "11", "--play"], input="hint\n"
    )
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].endswith("deal0.json: the position before turn 11 of its line of 12 turns")
    assert lines[3] == "turn 11" and lines.count("turn 11") == 1
    assert "verdict: WIN in 2 turns (hint: 2.2)" in lines
    why = "    why: it wins in 2 turns, the fewest of the 1 move of 3 that win"
    assert _after(lines, "hint")[1] == why
    assert lines[-1] == "end of input: session ended"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--turn", "14"], "has a line of 12 turns; expected 1..13"),
        (["--play"], "--save-position and --play need --turn K"),
        (["--turn", "0"], "0"),
    ],
)
def test_replay_turn_refuses_a_turn_off_the_line(tmp_path, args, said):
    solved = tmp_path / "deal0.json"
    CliRunner().invoke(cli, ["allisbomb", "--seed", "0", "--save", str(solved)])
    r = CliRunner().invoke(cli, ["allisbomb", "replay", str(solved), *args])
    assert r.exit_code == 2 and said in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_the_readme_play_transcript_is_what_the_session_prints():
    """README.md, "At the table": the quoted pipe session is printed as quoted (a line with
    '...' elides, the seconds aside), in order, with its own commands."""
    from pathlib import Path

    seconds = re.compile(r"in \d+\.\d+ s,")
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    at = text.index("```text\n", text.index("### At the table")) + len("```text\n")
    quoted = text[at : text.index("```", at)].splitlines()
    typed = re.match(r"\$ printf '(.*)' \| bombsolve allisbomb play --seed 0$", quoted[0])
    commands = typed.group(1).split("\\n")[:-1]
    printed = [seconds.sub("in S s,", line) for line in _session(commands)]
    shown = [seconds.sub("in S s,", line) for line in quoted[1:] if "..." not in line]
    assert len(shown) > 20
    rest = iter(printed)
    missing = [line for line in shown if not any(line == p for p in rest)]
    assert not missing, f"README.md quotes lines the session does not print: {missing[:3]}"
    assert printed[-1] == "session ended"


@pytest.mark.slow  # loads (on a fresh clone: compiles) the kernel's solve form
def test_the_kernel_answers_past_the_reference_budget_with_the_same_verdicts(monkeypatch):
    import functools

    import bombsolve.solvers.allisbomb.search.session as session

    by_reference = [m.verdict for m in Session(_start()).move_verdicts()]
    # a budget of 10 positions: every move but the quickest goes on to the kernel
    monkeypatch.setattr(session, "solve_first", functools.partial(session.solve_first, budget=10))
    lines = _session([])
    searched = next(line for line in lines if line.startswith("(verdicts of 6 moves: "))
    assert "by the Numba kernel" in searched
    s = Session(_start())
    by_kernel = [m.verdict for m in s.move_verdicts()]
    assert s.engines.get("kernel", 0) >= 1
    assert [v.outcome for v in by_kernel] == [v.outcome for v in by_reference]
    assert "verdict: WIN in 12 turns (hint: 1.2)" in lines
