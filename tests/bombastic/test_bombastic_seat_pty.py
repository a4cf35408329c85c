"""A person's seat at Bombastic in a real pseudo-terminal (pexpect): what the screen shows
after each command, the agent's "thinking..." line, and Ctrl-D ending the game."""

from __future__ import annotations

import sys

import pexpect  # a test dependency (pyproject's [test] extra): never skipped
import pytest

PROMPT = r"Your choice \(1-(\d+), help, view, quit\): "


def spawn(*args: str):
    return pexpect.spawn(
        sys.executable,
        ["-m", "bombsolve.cli", "bombastic", "play", *args],
        encoding="utf-8",
        timeout=120,
        dimensions=(60, 200),
    )


def test_a_session_at_the_terminal():
    child = spawn("--x", "human", "--o", "heuristic", "--seed", "42")
    child.expect(PROMPT)
    screen = child.before
    assert "Turn 1: you are X (first); your turn." in screen
    assert "? ? ?     0 1 2" in screen and "   1. use card:" in screen
    assert child.match.group(1) == "10"
    child.sendline("hlep")
    child.expect(PROMPT)
    assert "unknown command 'hlep' (did you mean help?)" in child.before
    assert "you know" not in child.before  # one line, not the view again
    child.sendline("1")
    child.expect(PROMPT)
    assert "* you use card:" in child.before and "card in play:" in child.before
    child.sendline("77")
    child.expect(PROMPT)
    assert "no choice 77" in child.before
    child.sendeof()
    child.expect("Game abandoned \\(end of input\\)\\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_whole_game_against_a_search_agent_in_the_o_seat():
    child = spawn("--x", "ismcts-heuristic:50", "--o", "human", "--seed", "7")
    # X moves first: the search shows that it works, then the person's first screen.
    child.expect("X is thinking\\.\\.\\.")
    child.expect(PROMPT)
    assert "Turn 2: you are O (second); your turn." in child.before
    assert "* X " in child.before  # what X did in public, as it happened
    child.sendline("1")
    for _ in range(300):
        i = child.expect([PROMPT, "The whole game, revealed"])
        if i == 1:
            break
        child.sendline("1")
    else:
        pytest.fail("the game did not end")
    child.expect(pexpect.EOF)
    assert "Game over:" in child.before
    child.close()
    assert child.exitstatus == 0
