"""`bombsolve allisbomb play`: follow an All Is Bomb game turn by turn, told after every turn
which moves still win.

The session (solvers/allisbomb/search/session.py) holds the position, the verdicts and the
history; this module reads the commands and prints. It reads one command a line, from a
terminal (with a prompt) or a pipe (each command echoed after '> ', so a piped transcript
reads like a typed one), and prints plain text.
"""

from __future__ import annotations

import difflib
import json
import sys
import time

import click

from bombsolve.cli.allisbomb import allisbomb, banner, game_options, kernel_parts, start_position
from bombsolve.solvers.common import stopping
from bombsolve.solvers.common.errors import BadInput

#: The commands besides a move, with what `help` says of them.
COMMANDS = {
    "show": "print the position and its moves again (searching any verdict not known yet)",
    "hint": "a best move: the one that wins in the fewest turns, and why",
    "line": "the whole winning line from here, turn by turn",
    "undo": "take back the last turn",
    "redo": "play again the turn last taken back",
    "save": "save FILE: write the position as a position file (read back by --state FILE)",
    "more": "the next page of a card's choices",
    "back": "leave a card's choices for the list of cards",
    "help": "this list",
    "quit": "end the session (end of input ends it too)",
}
#: Choices of one card shown at a time.
PAGE = 12
#: Seconds between two "still searching" lines when stderr is no terminal.
QUIET_EVERY = 10.0


class _Loop:
    """One session on the command line: what is shown, and the command being read."""

    def __init__(self, session, tty: bool) -> None:
        self.s = session
        self.tty = tty
        self.group: int | None = None  # the card whose choices are listed (index in groups)
        self.page = 0
        self.verdicts: list = []
        self.groups: list = []

    # --- showing ---------------------------------------------------------------------------

    def search(self) -> None:
        """The verdicts of the current position's moves; Ctrl-C stops the search and
        keeps those found so far."""
        before = (self.s.searches, self.s.nodes, dict(self.s.engines))
        t0 = last = time.monotonic()
        err_tty = sys.stderr.isatty()

        def progress(done: int, total: int) -> None:
            nonlocal last
            now = time.monotonic()
            if err_tty:
                click.echo(
                    f"\rsearching the verdicts: move {done + 1} of {total} ", nl=False, err=True
                )
            elif now - last >= QUIET_EVERY:
                click.echo(
                    f"still searching the verdicts: move {done + 1} of {total}, "
                    f"{now - t0:.0f} s so far (Ctrl-C stops)",
                    err=True,
                )
                last = now

        try:
            self.verdicts = self.s.move_verdicts(progress=progress)
        except KeyboardInterrupt as exc:
            stopping.handled(exc)
            self.verdicts = self.s.move_verdicts(search=False)
            click.echo("", err=True)
            click.echo(
                "search interrupted: the moves not searched say so; 'show' searches them again"
            )
        finally:
            if err_tty:
                click.echo("\r" + " " * 60 + "\r", nl=False, err=True)
        self.groups = self.s.groups(self.verdicts)
        searches, nodes = self.s.searches - before[0], self.s.nodes - before[1]
        if searches:
            engines = [
                (e, k - before[2].get(e, 0))
                for e, k in self.s.engines.items()
                if k > before[2].get(e, 0)
            ]
            names = {"reference": "the reference search", "kernel": "the Numba kernel"}
            how = (
                names.get(engines[0][0], engines[0][0])
                if len(engines) == 1
                else ", ".join(f"{k} by {names.get(e, e)}" for e, k in engines)
            )
            click.echo(
                f"(verdicts of {searches} move{'s' * (searches != 1)}: {nodes:,} positions "
                f"searched in {time.monotonic() - t0:.2f} s, {how})"
            )

    def show(self) -> None:
        """The position, its verdict and its moves grouped by card."""
        from bombsolve.solvers.allisbomb import position_lines

        self.group, self.page = None, 0
        for line in position_lines(self.s.state):
            click.echo(line)
        if self.s.state.is_over():
            click.echo("('undo' goes back)")
            self.verdicts, self.groups = [], []
            return
        self.search()
        v = self.s.position_verdict(self.verdicts)
        if v is None:
            click.echo("verdict: not known (a move was not searched)")
        elif v.outcome == "win":
            best = self._number_of(v.line[0])
            click.echo(f"verdict: {v.words()}{self._not_fewest(v)} (hint: {best})")
        elif v.outcome == "loss":
            click.echo("verdict: LOSS (every move loses)")
        else:
            click.echo("verdict: UNDECIDED within the limits (no move is known to win)")
        click.echo("moves:")
        for i, g in enumerate(self.groups, 1):
            more = "" if len(g.moves) == 1 else f" (type {i} to see them)"
            click.echo(f"  {i}. {g.heading} -> {g.summary()}{more}")

    def _not_fewest(self, v) -> str:
        return "" if not self.s.shortest or v.shortest else " (the fewest not proven)"

    def show_group(self) -> None:
        """One page of the choices of the card picked."""
        i = self.group
        g = self.groups[i]
        start = self.page * PAGE
        end = min(start + PAGE, len(g.moves))
        click.echo(f"{i + 1}. {g.heading}")
        page = f", {start + 1}-{end} of {len(g.moves)}" if len(g.moves) > PAGE else ""
        click.echo(f"its choices{page}:")
        for k in range(start, end):
            v = g.moves[k].turn_verdict()
            words = "not searched" if v is None else v.words()
            click.echo(f"  {i + 1}.{k + 1}. {g.choices[k]} -> {words}")
        tail = "'more' for the next ones, " if end < len(g.moves) else ""
        click.echo(f"({tail}a number picks one, 'back' the list of cards)")

    def _number_of(self, move) -> str:
        for i, g in enumerate(self.groups, 1):
            for k, m in enumerate(g.moves, 1):
                if m.move == move:
                    return str(i) if len(g.moves) == 1 else f"{i}.{k}"
        return "?"

    # --- commands --------------------------------------------------------------------------

    def play(self, m) -> None:
        click.echo("played: " + "; ".join(line.strip() for line in m.steps))
        self.s.play(m.move)
        self.show()

    def pick(self, text: str) -> None:
        """A move by its number ('2', '2.3', or '3' among a card's choices)."""
        parts = text.split(".")
        if self.group is not None and len(parts) == 1:
            parts = [str(self.group + 1), parts[0]]
        try:
            nums = [int(p) for p in parts]
        except ValueError:
            raise BadInput(f"{text!r} is no move number; expected e.g. 2 or 2.1") from None
        if len(nums) > 2:
            raise BadInput(f"{text!r} is no move number; expected e.g. 2 or 2.1")
        if not self.groups:
            raise BadInput("no move to play: the game is over ('undo' goes back)")
        if not 1 <= nums[0] <= len(self.groups):
            raise BadInput(f"no card number {nums[0]}; expected 1..{len(self.groups)}")
        g = self.groups[nums[0] - 1]
        if len(nums) == 1:
            if len(g.moves) == 1:
                return self.play(g.moves[0])
            self.group, self.page = nums[0] - 1, 0
            return self.show_group()
        if not 1 <= nums[1] <= len(g.moves):
            raise BadInput(
                f"no choice {nums[0]}.{nums[1]}; expected {nums[0]}.1..{nums[0]}.{len(g.moves)}"
            )
        return self.play(g.moves[nums[1] - 1])

    def card(self, text: str) -> bool:
        """A move by the card's name; False if no card of the moves has that name."""
        labels = self.s.state.cards.labels
        hits = [i for i, g in enumerate(self.groups) if labels[g.card].lower() == text.lower()]
        if not hits:
            return False
        if len(hits) > 1:
            nums = ", ".join(str(i + 1) for i in hits)
            raise BadInput(
                f"{len(hits)} cards named {labels[self.groups[hits[0]].card]}: pick {nums}"
            )
        self.pick(str(hits[0] + 1))
        return True

    def hint(self) -> None:
        from bombsolve.solvers.allisbomb import best_move

        best = best_move(self.verdicts)
        if best is None:
            v = self.s.position_verdict(self.verdicts)
            why = (
                "every move loses"
                if v is not None and v.outcome == "loss"
                else "none is known to win"
            )
            click.echo(f"hint: no move wins here ({why})")
            return
        v = best.turn_verdict()
        wins = sum(1 for m in self.verdicts if m.verdict is not None and m.verdict.outcome == "win")
        unknown = sum(1 for m in self.verdicts if m.verdict is None)
        click.echo(
            f"hint: {self._number_of(best.move)}: " + "; ".join(line.strip() for line in best.steps)
        )
        click.echo(
            f"    why: it wins in {v.turns} turn{'s' * (v.turns != 1)}{self._not_fewest(v)}, "
            f"the fewest of the {wins} move{'s' * (wins != 1)} of {len(self.verdicts)} that win"
            + (f" ({unknown} not searched)" if unknown else "")
        )

    def line(self) -> None:
        from bombsolve.solvers.allisbomb import render_turns, transcript

        v = self.s.position_verdict(self.verdicts) if not self.s.state.is_over() else None
        if v is None or v.outcome != "win":
            words = "the game is over" if self.s.state.is_over() else "no move is known to win"
            click.echo(f"line: no winning line from here ({words})")
            return
        turns, _ = transcript(self.s.state, list(v.line))
        first = self.s.state.turn
        for t in turns:
            t["turn"] += first
        click.echo(f"winning line from here, {v.turns} turns{self._not_fewest(v)}:")
        for text in render_turns(turns):
            click.echo(text)

    def save(self, rest: str) -> None:
        from bombsolve.solvers.common.files import check_output_file, write_text_atomic

        if not rest:
            raise BadInput("save needs a file name: save FILE")
        data = self.s.position_json()
        check_output_file(rest, "save")
        write_text_atomic(rest, json.dumps(data, indent=1) + "\n", "save", follow=True)
        click.echo(f"saved the position to {rest} (bombsolve allisbomb --state {rest})")

    def unknown(self, word: str) -> None:
        if word.upper() in self.s.state.cards.labels:
            raise BadInput(f"no move plays {word.upper()} here (the moves list the cards to play)")
        labels = sorted({self.s.state.cards.labels[g.card].lower() for g in self.groups})
        near = difflib.get_close_matches(word.lower(), [*COMMANDS, "exit", *labels], n=1)
        hint = f"; did you mean '{near[0]}'?" if near else ""
        raise BadInput(
            f"unknown command {word!r}{hint} (a move's number, a card's name, or 'help')"
        )

    def run_one(self, text: str) -> bool:
        """Do one command; False when the session ends."""
        word, _, rest = text.strip().partition(" ")
        low = word.lower()
        if not low:
            return True
        if low in ("quit", "exit"):
            return False
        if low[0].isdigit():
            self.pick(text.strip().replace(" ", "."))
        elif low == "help":
            for name, what in COMMANDS.items():
                click.echo(f"  {name:5} {what}")
            click.echo(
                "  a move: its number (2, or 2.1 for a card's first choice) or its card's name"
            )
        elif low == "show":
            self.show()
        elif low == "hint":
            self.hint()
        elif low == "line":
            self.line()
        elif low == "undo":
            if not self.s.undo():
                raise BadInput("nothing to undo: this is where the session started")
            click.echo("undone")
            self.show()
        elif low == "redo":
            if not self.s.redo():
                raise BadInput("nothing to redo")
            click.echo("redone")
            self.show()
        elif low == "save":
            self.save(rest.strip())
        elif low == "more":
            if self.group is None:
                raise BadInput("'more' pages a card's choices: pick a card first")
            if (self.page + 1) * PAGE >= len(self.groups[self.group].moves):
                raise BadInput("no more choices: this is the last page")
            self.page += 1
            self.show_group()
        elif low == "back":
            if self.group is None:
                raise BadInput(
                    "'back' leaves a card's choices: none is open ('undo' takes back a turn)"
                )
            self.show()
        elif not self.card(text.strip()):
            self.unknown(text.strip())
        return True


def run_session(session) -> None:
    """Follow the game of `session` until 'quit' or the end of input."""
    stdin = sys.stdin  # (the runner of the tests puts its input here too)
    tty = stdin.isatty()
    loop = _Loop(session, tty)
    loop.show()
    if tty:
        click.echo("(type a move's number, 'hint', 'help' or 'quit')")
    while True:
        try:
            if tty:
                text = input("play> ")
            else:
                text = stdin.readline()
                if not text:
                    raise EOFError
                text = text.rstrip("\n")
                click.echo(f"> {text}")
        except EOFError:
            click.echo("end of input: session ended")
            return
        except KeyboardInterrupt as exc:
            stopping.handled(exc)
            click.echo("\n(Ctrl-C stops a search; 'quit' ends the session)")
            continue
        try:
            if not loop.run_one(text):
                click.echo("session ended")
                return
        except BadInput as exc:
            click.echo(f"error: {exc}")


def kernel_loader(config, node_limit: int, shortest: bool):
    """The `before_kernel` of a session: load (or compile, announced on stderr, as the
    solve command does) the kernel's parts once, before its first search."""
    done = []

    def load() -> None:
        if done:
            return
        from bombsolve.cli.warmup import ensure_compiled
        from bombsolve.solvers.allisbomb import compiled

        extended = compiled(config).prog.extended
        for part in kernel_parts(extended, "shortest" if shortest else None):
            sized = {"node_limit": node_limit} if part == "solve" else {}
            ensure_compiled("allisbomb", part, **sized)
        done.append(True)

    return load


def open_session(state, node_limit: int, time_limit: float | None, shortest: bool) -> None:
    """Print the banner and follow the game from `state`."""
    from bombsolve.solvers.allisbomb import Session

    cs = state.cards
    version = cs.config.cards_version
    click.echo(banner(cs.is_stand_in(), cs.provenance_by_set(), version))
    click.echo(f"game: {state.config.label()}")
    loader = kernel_loader(state.config, node_limit, shortest)
    run_session(Session(state, node_limit, time_limit, shortest, before_kernel=loader))


def replay_turn(data, file: str, turn: int, save_position: str | None, then_play: bool) -> None:
    """`replay FILE --turn K`: the position before turn K of the file's line; with
    `save_position`, written as a position file; with `then_play`, a session from there."""
    from bombsolve.solvers.allisbomb import line_of_file, position_before, position_lines
    from bombsolve.solvers.common.files import check_output_file, write_text_atomic

    start, line = line_of_file(data, file)
    state = position_before(start, line, turn, file)
    if save_position is not None:
        check_output_file(save_position, "--save-position")
    click.echo(f"{file}: the position before turn {turn} of its line of {len(line)} turns")
    if not then_play:  # the session shows it
        for text in position_lines(state):
            click.echo(text)
    if save_position is not None:
        data = state.to_json()
        write_text_atomic(save_position, json.dumps(data, indent=1) + "\n", "--save-position")
        click.echo(f"saved to {save_position} (bombsolve allisbomb --state {save_position})")
    if then_play:
        from bombsolve.solvers.allisbomb import DEFAULT_NODE_LIMIT

        open_session(state, DEFAULT_NODE_LIMIT, None, False)


#: The solve command's options the session takes as they are (their parsing and checks).
_SHARED = ("seed", "rank_", "deck", "state_file", "node_limit", "time_limit", "shortest")


@click.command(name="play")
@game_options()
def play(game, **start) -> None:
    """Follow a game turn by turn: the position, every legal move with its verdict under
    perfect play (WIN in N turns, LOSS, UNDECIDED within the limits), grouped by the card
    played; pick a move by its number or its card's name. Commands: hint, line, undo, redo,
    save FILE, show, help, quit. Reads a command a line from a terminal or a pipe.

    \b
    Examples:
      bombsolve allisbomb play --seed 42
      bombsolve allisbomb play --blitz --deck "KING,CROISSANT,PROPHET OF CROISSANT,PROPHET OF PANCAKES,PANCAKES,RASCAL,LIBRARIAN,PROPHET OF EGGS,PRINCESS,JOKER,EGGS,GUARDIAN,MENDER"
      bombsolve allisbomb play --state position.json
      printf 'hint\\n1\\nundo\\nquit\\n' | bombsolve allisbomb play --seed 42

    \b
    Exit codes: 0 the session ended (quit or end of input), 2 bad input (a bad option).
    """
    sources = [start[k] for k in ("seed", "rank_", "deck", "state_file") if start[k] is not None]
    if len(sources) != 1:
        raise BadInput("give one of --seed, --rank, --deck, --state")
    state, _, _ = start_position(
        start["seed"], start["rank_"], start["deck"], start["state_file"], game
    )
    open_session(state, start["node_limit"], start["time_limit"], start["shortest"])


play.params[:0] = [p for p in allisbomb.params if p.name in _SHARED]
