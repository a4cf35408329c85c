"""A person's seat at Bombastic (`bombastic play --x human`), driven through a pipe.

Each session is the command line fed one command a line (click's runner, and once a real
pipe to a subprocess); what it printed is checked screen by screen against the same game
played in-process by `Session` with the same choices.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.bombastic import (
    HUMAN,
    Options,
    Session,
    exact_belief,
    human_seat,
    match_game_seed,
)

PROMPT = re.compile(r"Your choice \(1-(\d+), help, view, quit\): ")


def play(*args: str, commands: list[str]):
    text = "".join(c + "\n" for c in commands)
    return CliRunner().invoke(cli, ["bombastic", "play", *args], input=text)


def screens(output: str) -> list[str]:
    """What was printed before each prompt (the last item: after the last one)."""
    return PROMPT.split(output)[::2]


def session_views(seat: int, opponent: str, seed: int, numbers: list[int], options=None):
    """The person's view at each of their decisions, the game played in-process."""
    s = Session(seat, opponent, match_game_seed(seed, 1), options or Options())
    views = []
    for n in numbers:
        while not s.over() and not s.person_to_move():
            s.step()
        if s.over():
            break
        views.append(s.view())
        s.choose(n)
    while not s.over() and not s.person_to_move():
        s.step()
    return s, views


def grid_known(screen: str) -> dict[int, str]:
    """The tiles a screen's grid names (not '?'): {tile: 'X' | 'O' | 'B'}."""
    rows = screen.split("  you know", 1)[1].splitlines()[1:4]
    cells = [c for row in rows for c in row.split()[:3]]
    return {t: c for t, c in enumerate(cells) if c != "?"}


def certain(view) -> dict[int, str]:
    belief = exact_belief([ev for ev in view.observations if ev[0] != "move"])
    out = {}
    for t, odds in enumerate(belief.tile_odds()):
        for c, p in zip("XOB", odds, strict=True):
            if p == 1:
                out[t] = c
    return out


# A strategy a test can script: the first card, then the first choice of each step.
FIRSTS = ["1"] * 300


@pytest.mark.parametrize(
    "seat, args, seed",
    [(0, ["--x", HUMAN, "--o", "random"], 9), (1, ["--x", "random", "--o", HUMAN], 7)],
)
def test_the_screen_names_only_tiles_the_view_holds(seat, args, seed):
    r = play(*args, "--seed", str(seed), commands=FIRSTS)
    assert r.exit_code == 0, r.output
    before_reveal = r.output.split("The whole game, revealed")[0]
    shown = screens(before_reveal)  # one before each prompt, then what came after
    _, views = session_views(seat, "random", seed, [1] * 300)
    assert len(shown) - 1 == len(views) >= 9
    assert sum("  you know" in screen for screen in shown) >= 5
    peeked = re.compile(r"you peek at tile (\d): (X|O|Bomb)\b")
    shown_ = re.compile(r"tile (\d) is shown: (X|O|Bomb)\b")
    for screen, view in zip(shown, views, strict=False):
        # the grid: only what the person's exact belief is certain of, and all of it
        if "  you know" in screen:  # (within a card, an unchanged grid is not printed again)
            assert grid_known(screen) == certain(view)
        # each sentence naming a tile's value is one of the person's own observations
        for kind, pattern in (("peek", peeked), ("show", shown_)):
            for t, v in pattern.findall(screen):
                assert (kind, int(t), "XOB".index(v[0])) in view.observations, screen


def test_a_tile_never_peeked_nor_shown_is_never_named():
    # Turn 1 as X: nothing seen, so the grid is nine '?', though the bomb lies somewhere.
    r = play("--x", HUMAN, "--o", "heuristic", "--seed", "42", commands=[])
    first = screens(r.output)[0]
    assert grid_known(first) == {}
    s = Session(0, "heuristic", match_game_seed(42, 1), Options())
    assert 2 in s.state.tiles  # the bomb is in the game, and not on the screen
    body = first.split("  you know", 1)[1]
    assert not re.search(r"\b(Bomb|B)\b", body) and not re.search(r": (X|O)\b", body)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_scripted_game_finishes_and_is_revealed_as_replay_shows_it(seat):
    args = ["--x", HUMAN, "--o", "heuristic"] if seat == 0 else ["--x", "heuristic", "--o", HUMAN]
    r = play(*args, "--seed", "4", commands=FIRSTS)
    assert r.exit_code == 0, r.output
    s, views = session_views(seat, "heuristic", 4, [1] * 300)
    assert len(views) >= 19
    assert s.over()
    assert s.result_line() in r.output
    head, reveal = r.output.split(
        "The whole game, revealed (as `bombsolve bombastic replay` shows it):\n"
    )
    assert reveal.splitlines() == s.reveal_lines()
    # The reveal is the replay's own text: the grid of every turn and both players' knowledge.
    assert reveal.startswith(f"Bombastic, seed {match_game_seed(4, 1)}: ")
    assert "Game over:" in reveal.splitlines()[-1]


def test_the_reveal_is_the_replay_of_the_same_decisions():
    # Two agents through the replay command and the same game through `history_record`:
    # the seat's reveal is the replay's text for the decisions taken.
    from bombsolve.solvers.bombastic import make_agent, play_game, replay_lines
    from bombsolve.solvers.bombastic.replay import history_record, record_lines

    g = play_game(make_agent("heuristic"), make_agent("random"), 11, Options())
    rec = history_record("heuristic", "random", 11, Options(), g.state.history)
    assert record_lines(rec) == replay_lines("heuristic", "random", 11, Options())


def _coach_blocks(output: str):
    """Each coach block: its `odds` command's events and its table lines."""
    out = []
    for m in re.finditer(
        r"Coach: exact odds from your view \(the same as: bombsolve bombastic odds --as (X|O)"
        r'(?: --events "([^"]*)")?\)\n((?:.+\n)+?)(?=   1\. )',
        output,
    ):
        out.append((m.group(1), m.group(2) or "", m.group(3).splitlines()))
    return out


@pytest.mark.parametrize("seat", [0, 1])
def test_coach_prints_the_odds_command_table_for_that_view(seat):
    args = ["--x", HUMAN, "--o", "heuristic"] if seat == 0 else ["--x", "heuristic", "--o", HUMAN]
    r = play(*args, "--seed", "8", "--coach", commands=["1", "1", "2", "1", "1", "1", "1", "1"])
    assert r.exit_code == 0, r.output
    blocks = _coach_blocks(r.output)
    assert len(blocks) >= 4
    assert any(events for _, events, _ in blocks)  # the person saw something on the way
    for me, events, table in blocks:
        odds = CliRunner().invoke(cli, ["bombastic", "odds", "--as", me, "--events", events])
        assert odds.exit_code == 0, odds.output
        assert table == odds.output.splitlines()


@pytest.mark.parametrize(
    "command, words",
    [
        ("hlep", "unknown command 'hlep' (did you mean help?); expected a number 1..10"),
        ("qiut", "(did you mean quit?)"),
        ("99", "no choice 99; expected a number 1..10"),
        ("0", "no choice 0; expected a number 1..10"),
        ("", "expected a number 1..10, help, view or quit"),
        ("go for it", "unknown command 'go for it'"),
    ],
)
def test_a_bad_command_gets_one_line_and_the_prompt_again(command, words):
    r = play("--x", HUMAN, "--o", "heuristic", "--seed", "42", commands=[command, "1"])
    assert r.exit_code == 0, r.output
    parts = screens(r.output)
    # after the bad command: its echo, one line, and the same prompt (1-10) again
    echo, said = parts[1].splitlines()
    assert echo == command and words in said
    assert PROMPT.findall(r.output)[:2] == ["10", "10"]
    # and the game goes on: "1" used the first face-up card
    assert "you use card:" in parts[2]


def test_help_and_view_answer_and_the_game_goes_on():
    r = play("--x", HUMAN, "--o", "random", "--seed", "42", commands=["help", "view", "1"])
    parts = screens(r.output)
    assert "'quit' leaves the game" in parts[1] and len(parts[1].splitlines()) == 2
    assert "  you know" in parts[2] and "   1. use card:" in parts[2]
    assert "you use card:" in parts[3]


@pytest.mark.parametrize("commands", [[], ["1", "1"]])
def test_end_of_input_abandons_the_game_cleanly(commands):
    r = play("--x", HUMAN, "--o", "heuristic", "--seed", "42", commands=commands)
    assert r.exit_code == 0
    assert r.output.rstrip().endswith("Game abandoned (end of input).")
    assert "Traceback" not in r.output and "revealed" not in r.output


def test_quit_abandons_the_game():
    r = play("--x", "random", "--o", HUMAN, "--seed", "1", commands=["quit"])
    assert r.exit_code == 0
    assert r.output.rstrip().endswith("Game abandoned.")


@pytest.mark.parametrize(
    "args, words",
    [
        (["--x", HUMAN, "--o", HUMAN], "both seats are human; expected one human"),
        (["--x", HUMAN, "--games", "5"], "--games 5 with a human seat"),
        (["--x", HUMAN, "-n", "2"], "expected --games 1 or no --games"),
        (["--x", HUMAN, "--json"], "--json with a human seat"),
        (["--x", HUMAN, "--out", "somewhere"], "--out with a human seat"),
        (["--x", "humna"], "unknown agent 'humna' (did you mean human?)"),
        (["--x", "grandmaster"], "human, ismcts"),
        (["--x", "human:3"], "human takes no parameter"),
        (["--coach"], "--coach needs a human seat"),
    ],
)
def test_bad_seats_are_one_line_exit_2(args, words):
    r = play(*args, commands=["1"])
    assert r.exit_code == 2, r.output
    assert words in r.output
    assert len(r.output.strip().splitlines()) == 1, r.output


def test_games_1_is_allowed_with_a_human_seat():
    r = play("--x", HUMAN, "--games", "1", commands=["quit"])
    assert r.exit_code == 0 and "Game abandoned." in r.output


def test_help_names_the_human_seat():
    r = CliRunner().invoke(cli, ["bombastic", "play", "--help"])
    assert "`human` for one seat" in r.output and "--coach" in r.output


def test_human_seat_names_the_person():
    assert human_seat("human", "heuristic") == 0
    assert human_seat("ismcts:4", " human") == 1
    assert human_seat("random", "heuristic") is None


def test_a_real_pipe():
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "bombsolve.cli",
            "bombastic",
            "play",
            "--x",
            HUMAN,
            "--o",
            "heuristic",
        ]
        + ["--seed", "5"],
        input="1\nfoo\n" + "1\n" * 300,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert "unknown command 'foo'" in p.stdout
    assert "Game over:" in p.stdout and "The whole game, revealed" in p.stdout
    assert "\x1b" not in p.stdout and "thinking" not in p.stdout  # plain text off a terminal


def _readme_transcript() -> tuple[str, list[str], list[str]]:
    """The README's worked example of the seat: its input, arguments and printed lines."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = text[text.index("\n### Play against an agent\n") :]
    block = section[section.index("```text\n") + 8 :]
    lines = block[: block.index("```")].splitlines()
    m = re.fullmatch(r"\$ printf '([^']*)' \| bombsolve (.*)", lines[0])
    assert m, lines[0]
    return m.group(1).replace("\\n", "\n"), shlex.split(m.group(2)), lines[1:]


def _matches_with_cuts(shown: list[str], printed: list[str]) -> bool:
    """Whether `shown` is `printed` with runs of lines cut to one '...' line."""
    parts, at = [], []
    for line in shown:
        if line == "...":
            parts.append(at)
            at = []
        else:
            at.append(line)
    parts.append(at)
    pos = 0
    for i, part in enumerate(parts):
        starts = [pos] if i == 0 else range(pos, len(printed) - len(part) + 1)
        found = next((s for s in starts if printed[s : s + len(part)] == part), None)
        if found is None:
            return False
        pos = found + len(part)
    return pos == len(printed)


def test_the_readme_transcript_is_what_the_pipe_prints():
    given, args, shown = _readme_transcript()
    r = CliRunner().invoke(cli, args, input=given)
    assert r.exit_code == 0, r.output
    printed = [line.rstrip() for line in r.output.splitlines()]
    assert _matches_with_cuts(shown, printed), "\n".join(printed)
    assert shown.count("...") < len(shown) // 4  # mostly shown, a few cuts
    # the check can fail: a line changed in the README is caught
    assert not _matches_with_cuts([*shown[:-1], "Game over: O wins (GO_FOR_IT_WIN)"], printed)


def test_every_decision_of_every_card_has_its_own_words():
    # Promos and the opponent's shuffle too: every phase a person can meet, in either seat.
    import random

    met, rng = set(), random.Random(0)
    for seed in range(24):
        options = Options(promos=True, shuffle="opponent" if seed % 2 else "chance")
        s = Session(seed % 2, "random", seed, options)
        while not s.over():
            if not s.person_to_move():
                s.step()
                continue
            view = s.view()
            labels = [c.label for c in s.choices()]
            assert len(set(labels)) == len(labels), labels
            if len(labels) < len(view.legal):  # only orders of tiles alike are merged
                assert view.phase.name == "ARRANGE", labels
            met.add(view.phase.name)
            if view.phase.name in ("TURN", "SHUFFLE"):  # (exact odds: tens of ms each)
                coach = s.coach_lines()
                assert coach[1].startswith(f"View of {'XO'[s.human]}")
                # after choosing the order of O's shuffle, no `odds` command says that view
                own_order = any(ev[0] == "move" for ev in view.observations)
                assert ("has no `odds` word" in coach[0]) == own_order
                if own_order:
                    met.add("own order")
            first_card = view.phase.name == "TURN" and rng.random() < 0.9
            s.choose(rng.randint(1, 2) if first_card else rng.randint(1, len(labels)))
        s.news()
        assert s.reveal_lines()[-1].startswith("Game over:")
    assert {"OPP_SHOW", "SHUFFLE", "ARRANGE", "SECRET_SWAP", "L_SHAPE", "GO"} <= met
    assert len(met) == 20  # every phase but OVER, and a coach after choosing an order
