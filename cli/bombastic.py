"""`bombsolve bombastic`: Bombastic: exact odds, agents, tournaments and balance studies."""

from __future__ import annotations

import json
from fractions import Fraction

import click

from solvers.common.errors import BadInput


@click.group(name="bombastic")
def bombastic() -> None:
    """Bombastic: exact odds, agents, tournaments and balance studies.

    Tiles are numbered row by row: 0 1 2 / 3 4 5 / 6 7 8. Seat 0 (X) moves first.
    """


def _frac(p: Fraction) -> dict:
    return {"fraction": str(p), "decimal": float(p)}


def _symbol(text: str) -> int:
    text = text.upper()
    if text not in ("X", "O"):
        raise BadInput(f"--as {text!r}: expected X or O")
    return "XO".index(text)


@bombastic.command()
@click.option("--as", "as_", default="X", show_default=True, help="Whose view: X or O.")
@click.option(
    "--events",
    default="",
    help="What this player saw, in order, separated by ';' (see below).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def odds(as_: str, events: str, as_json: bool) -> None:
    """Print exact odds (fractions and decimals) for every line and every tile.

    \b
    Events, in the order they happened (tiles 0..8 row by row, values X O B):
      peek 4=X            I peeked at tile 4 and saw an X
      show 0=O            tile 0 was shown to both players (Go for It, show cards)
      swap 1 2            tiles 1 and 2 swapped places in plain sight
      shuffle 3 4 5       tiles 3 4 5 were put back in an order I do not know
      place 0=B 1=X 2=O   I secretly arranged tiles 0 1 2 like this
      secret-swap 4       my opponent secretly swapped shown tile 4 with another
    Hidden choices of the opponent count as equally likely (see beliefs.py).

    \b
    Example:
      bombsolve bombastic odds --as X --events "peek 4=X; show 0=O; swap 0 8"
    """
    from solvers.bombastic.beliefs import event_text, exact_belief, parse_events
    from solvers.bombastic.tiles import LINE_NAMES, LINES

    mine = _symbol(as_)
    evs = parse_events(events)
    b = exact_belief(evs)
    lines = b.line_odds(mine)
    tiles = b.tile_odds()
    me, them = "XO"[mine], "XO"[1 - mine]
    if as_json:
        out = {
            "as": me,
            "events": [event_text(e) for e in evs],
            "possible_arrangements": b.support(),
            "lines": [
                {
                    "line": LINE_NAMES[k],
                    "tiles": list(LINES[k]),
                    "all_mine": _frac(lines[k][0]),
                    "all_opponents": _frac(lines[k][1]),
                    "bomb": _frac(lines[k][2]),
                }
                for k in range(len(LINES))
            ],
            "tiles": [
                {
                    "tile": t,
                    "X": _frac(tiles[t][0]),
                    "O": _frac(tiles[t][1]),
                    "B": _frac(tiles[t][2]),
                }
                for t in range(9)
            ],
        }
        click.echo(json.dumps(out, indent=2))
        return

    def cell(p: Fraction) -> str:
        return f"{str(p):>9} {float(p):6.4f}"

    click.echo(f"View of {me}; {b.support()} of 630 arrangements possible.")
    click.echo(
        f"{'line':<6}{'tiles':<7}{'all ' + me + ' (mine)':>17}{'all ' + them:>17}{'bomb':>17}"
    )
    for k in range(len(LINES)):
        a, o, bomb = lines[k]
        t = "".join(map(str, LINES[k]))
        click.echo(f"{LINE_NAMES[k]:<6}{t:<7}{cell(a):>17}{cell(o):>17}{cell(bomb):>17}")
    click.echo(f"{'tile':<13}{'X':>17}{'O':>17}{'B':>17}")
    for t in range(9):
        x, o, bomb = tiles[t]
        click.echo(f"{t:<13}{cell(x):>17}{cell(o):>17}{cell(bomb):>17}")
