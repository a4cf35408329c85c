"""`bombsolve bombastic play --x human`: a person plays Bombastic against an agent.

The loop reads one command a line, from a terminal or a pipe (the same commands, plain
text), and prints what the person sees (`bombsolve.solvers.bombastic.Session`). A command
it cannot take gets one line and the prompt again; the end of the input or `quit`
abandons the game (exit 0); at the end of a game the whole game is shown revealed.
"""

from __future__ import annotations

import sys

import click

from bombsolve.solvers.common.errors import BadInput, nearest

#: The words a person may type besides a choice's number.
COMMANDS = ("help", "view", "quit")

HELP = (
    "Type the number of a choice to take it; 'view' shows your view and choices again; "
    "'help' shows this; 'quit' leaves the game (abandoned)."
)


def _say(lines) -> None:
    for line in lines:
        click.echo(line)


def _show_turn(session, coach: bool, last: list[str] | None = None) -> list[str]:
    """Print the person's view, the coach's odds, and the numbered choices; return the
    view printed. Within the person's card, a view whose grid is the one they saw last
    (`last`, None after the agent moved) is cut to the card in play ('view' prints it
    whole)."""
    click.echo("")
    view = session.view_lines()
    if last is not None and session.view().card >= 0 and view[1:5] == last[1:5]:
        _say(line for line in view if line.startswith("  card in play:"))
    else:
        _say(view)
    if coach:
        _say(session.coach_lines())
    for n, choice in enumerate(session.choices(), 1):
        click.echo(f"  {n:>2}. {choice.label}")
    return view


def _read(prompt: str) -> str | None:
    """One line of input, None at its end; off a terminal the line is echoed, so that a
    transcript reads as the session did."""
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        click.echo("")
        return None
    if not sys.stdin.isatty():
        click.echo(line.rstrip("\n"))
    return line.strip()


def _agent_step(session, who: str) -> None:
    """Let the agent decide; on a terminal a short line says it is thinking meanwhile."""
    tty = sys.stdout.isatty()
    if tty:
        click.echo(f"{who} is thinking...", nl=False)
    session.step()
    if tty:
        click.echo("\r\x1b[K", nl=False)


def run_session(session, coach: bool, deal: str) -> None:
    """Play the game to its end or until the person leaves; `deal` says which game it is."""
    me = "XO"[session.human]
    them = "XO"[1 - session.human]
    click.echo(
        f"Bombastic: you play {me} ({'first' if me == 'X' else 'second'}) against "
        f"{session.opponent} ({them}); {deal}."
    )
    click.echo("Tiles are numbered 0 1 2 / 3 4 5 / 6 7 8. Type 'help' for the commands.")
    shown, last = False, None
    try:
        while True:
            _say(f"  * {line}" for line in session.news())
            if session.over():
                break
            if not session.person_to_move():
                _agent_step(session, them)
                shown, last = False, None
                continue
            if not shown:
                last = _show_turn(session, coach, last)
                shown = True
            n = len(session.choices())
            text = _read(f"Your choice (1-{n}, help, view, quit): ")
            if text is None:
                click.echo("Game abandoned (end of input).")
                return
            if text.isdigit():
                try:
                    session.choose(int(text))
                except BadInput as e:
                    click.echo(str(e))
                    continue
                shown = False
            elif text == "quit":
                click.echo("Game abandoned.")
                return
            elif text == "help":
                click.echo(HELP)
            elif text == "view":
                last = _show_turn(session, coach)
            elif not text:
                click.echo(f"expected a number 1..{n}, help, view or quit")
            else:
                click.echo(
                    f"unknown command {text!r}{nearest(text, COMMANDS)}; "
                    f"expected a number 1..{n}, help, view or quit"
                )
    except KeyboardInterrupt:
        click.echo("\nGame abandoned.")
        raise
    click.echo("")
    click.echo(session.result_line())
    click.echo("")
    click.echo("The whole game, revealed (as `bombsolve bombastic replay` shows it):")
    _say(session.reveal_lines())


def play_human(x: str, o: str, seed: int, options, coach: bool, refused: dict[str, bool]) -> None:
    """`bombastic play` with a human seat: one game, game 1 of ``play --seed SEED``.

    `refused` names the options of a run of many games that were given (``--games`` other
    than 1, ``--out``, ...): each is one line and exit 2 before the game starts.
    """
    from bombsolve.solvers.bombastic import HUMAN, Session, human_seat, match_game_seed

    for flag, given in refused.items():
        if given:
            raise BadInput(
                f"{flag} with a {HUMAN} seat: a person plays one game at a time; "
                f"expected {'--games 1 or no --games' if flag.startswith('--games') else 'no ' + flag}"
            )
    seat = human_seat(x, o)
    opponent = (o if seat == 0 else x).strip()
    session = Session(seat, opponent, match_game_seed(seed, 1), options)
    if opponent.startswith("ismcts"):
        from bombsolve.cli.warmup import ensure_compiled

        ensure_compiled("bombastic", "ismcts")
    run_session(session, coach, f"the deal of game 1 of `bombastic play --seed {seed}`")
