"""`bombsolve allisbomb play` in a real pseudo-terminal (the standard library's pty): the
prompt, what the screen shows after each command, Ctrl-C during a search, Ctrl-D. The same
commands through a pipe: test_allisbomb_play.py."""

from __future__ import annotations

import os
import re
import select
import signal
import sys
import time

import pytest

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX")

PROMPT = "play> "
HINT = re.compile(r"hint: (\d+(?:\.\d+)?): ")
#: Runs the command line with the first search of a session slowed to 60 s, so that a Ctrl-C
#: surely lands in a search (the harness's, not the product's: a real search is too quick
#: or needs the kernel compiled).
SLOW_FIRST_SEARCH = """
import time
import bombsolve.solvers.allisbomb.search.session as session
real, calls = session.solve_first, []
def slow(*args, **kwargs):
    calls.append(1)
    if len(calls) == 1:
        # in short naps, as a Python search runs: a Ctrl-C that the kernel hands to another
        # thread of the process interrupts no long sleep, but is seen between two naps
        for _ in range(600):
            time.sleep(0.1)
    return real(*args, **kwargs)
session.solve_first = slow
from bombsolve.cli.main import cli
cli(prog_name="bombsolve")
"""


class Terminal:
    """A program on a pseudo-terminal: what it has written so far, and keys to type."""

    def __init__(self, argv: list[str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: its stdin, stdout and stderr are the terminal
            # Ctrl-C as a terminal's shell gives it: a test run started in the background
            # of a non-interactive shell inherits an ignored SIGINT, which Python keeps.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            env = dict(os.environ, TERM="dumb", COLUMNS="200")
            env.pop("CI", None)
            os.execvpe(argv[0], argv, env)
        self.screen, self.pos = "", 0

    def read_until(self, text: str, timeout: float = 60.0) -> str:
        """Everything written since the last read, up to and including `text`."""
        end = time.monotonic() + timeout
        while text not in self.screen[self.pos :]:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {text!r} in {timeout} s:\n{self.screen[self.pos :]}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the program ended: the terminal is closed
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"ended before {text!r}:\n{self.screen[self.pos :]}")
                self.screen += chunk.decode(errors="replace").replace("\r\n", "\n")
        at = self.screen.index(text, self.pos) + len(text)
        out, self.pos = self.screen[self.pos : at], at
        return out

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def command(self, line: str) -> list[str]:
        """Type a command and return the lines it printed (after the echoed line, before
        the next prompt)."""
        self.type(line + "\n")
        return self.read_until(PROMPT).splitlines()[1:-1]

    def wait(self, timeout: float = 30.0) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                os.read(self.fd, 65536)
            except OSError:
                pass
            time.sleep(0.05)
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError("the program did not end")

    def close(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


@pytest.fixture
def term():
    made = []

    def start(*args: str, code: str | None = None) -> Terminal:
        head = [sys.executable, "-c", code] if code else [sys.executable, "-m", "bombsolve.cli"]
        t = Terminal([*head, "allisbomb", "play", *args])
        made.append(t)
        return t

    yield start
    for t in made:
        t.close()


def test_a_terminal_session_follows_the_hints_to_a_win(term):
    t = term("--seed", "0")
    first = t.read_until(PROMPT)
    assert "verdict: WIN in 12 turns (hint: 1.2)" in first
    assert "(type a move's number, 'hint', 'help' or 'quit')" in first
    for _ in range(12):
        said = t.command("hint")
        number = HINT.match(said[0]).group(1)
        shown = t.command(number)
        assert shown[0].startswith("played: ")
    assert "the game is over: WIN" in shown
    assert t.command("hint") == ["hint: no move wins here (none is known to win)"]
    t.type("\x04")  # Ctrl-D: the end of input
    assert "end of input: session ended" in t.read_until("session ended")
    assert t.wait() == 0


def test_a_terminal_session_answers_each_command(term):
    t = term("--seed", "0")
    start = t.read_until(PROMPT).splitlines()
    board = [line for line in start if line.startswith(("turn ", "DECK", "EQUIPPED", "DISCARD"))]
    assert board[0] == "turn 1" and len(board) == 4
    assert t.command("hnit") == [
        "error: unknown command 'hnit'; did you mean 'hint'? (a move's number, a card's name, or 'help')"
    ]
    opened = t.command("2")
    assert opened[1] == "its choices:" and opened[4].startswith("  2.3. move GUARDIAN")
    assert t.command("7") == ["error: no choice 2.7; expected 2.1..2.3"]
    played = t.command("3")
    assert played[0].startswith("played: ") and "turn 2" in played
    undone = t.command("undo")
    assert undone[0] == "undone"
    assert [line for line in undone if line in board] == board
    redone = t.command("redo")
    assert "turn 2" in redone and redone[0] == "redone"
    t.type("quit\n")
    assert "session ended" in t.read_until("session ended")
    assert t.wait() == 0


def test_ctrl_c_in_a_terminal_stops_the_search_not_the_session():
    # Driven by pexpect: through the stdlib harness above, a Ctrl-C typed mid-search was
    # at times not seen by the program (cause not found); pexpect's terminal sees it.
    import pexpect

    env = dict(os.environ, TERM="dumb", COLUMNS="200")
    env.pop("CI", None)
    args = ["-c", SLOW_FIRST_SEARCH, "allisbomb", "play", "--seed", "0"]
    t = pexpect.spawn(sys.executable, args, encoding="utf-8", timeout=60, env=env)
    try:
        t.expect_exact("searching the verdicts: move 1 of 6")
        time.sleep(1.0)  # well inside the slowed search
        t.sendcontrol("c")
        t.expect_exact(PROMPT)
        shown = t.before.replace("\r\n", "\n")
        assert (
            "search interrupted: the moves not searched say so; 'show' searches them again" in shown
        )
        assert "verdict: not known (a move was not searched)" in shown
        t.sendline("show")
        t.expect_exact(PROMPT)
        assert "verdict: WIN in 12 turns (hint: 1.2)" in t.before
        t.sendcontrol("c")  # at the prompt: the session goes on
        t.expect_exact(PROMPT)
        assert "(Ctrl-C stops a search; 'quit' ends the session)" in t.before
        t.sendline("quit")
        t.expect_exact("session ended")
        t.expect(pexpect.EOF)
        t.close()
        assert t.exitstatus == 0
    finally:
        t.close(force=True)
