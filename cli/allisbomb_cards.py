"""`bombsolve allisbomb cards`: the card table, and checking a card file (`check`, `try`).

`cards` prints the cards of a game with their provenance; `cards check FILE` validates a
card file and prints each side's steps in words beside its text; `cards try FILE --card
NAME --side passive|ignited` plays one card side and prints every result of its action.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from bombsolve.cli.allisbomb import banner, game_options, warn_nonstandard
from bombsolve.solvers.common.errors import BadInput


@click.group(name="cards", invoke_without_command=True)
@game_options()
@click.option("--json", "as_json", is_flag=True, help="Print JSON rows.")
@click.pass_context
def cards(ctx, game, as_json) -> None:
    """Print the card table of a game, with each card's provenance.

    \b
    Examples:
      bombsolve allisbomb cards --expansions mosquitos,hands
      bombsolve allisbomb cards check mycards.toml
      bombsolve allisbomb cards try mycards.toml --card KING --side passive
    """
    if ctx.invoked_subcommand is not None:
        if game.given() or as_json:
            raise BadInput(
                f"give the options of '{ctx.invoked_subcommand}' after it, "
                f"not before: bombsolve allisbomb cards {ctx.invoked_subcommand} FILE ..."
            )
        return
    from bombsolve.solvers.allisbomb import card_table, load_cards

    config = game.config()
    cs = load_cards(config)
    rows = card_table(cs)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "config": config.to_dict(),
                    "provenance": cs.provenance_by_set(),
                    "cards": rows,
                    "files": [str(p) for p in cs.files],
                },
                indent=1,
            )
        )
        return
    click.echo(provenance_banner(cs))
    click.echo(f"{config.label()}: {cs.n} cards")
    for row in rows:
        prov = row["provenance"]
        head = f"{row['label']} x{row['copies']}"
        extra = ", ".join(
            x
            for x in (row["class"], row["set"], row["campaign"] and f"campaign {row['campaign']}")
            if x
        )
        click.echo(f"{head:<26} [{extra}] ({prov})")
        click.echo(f"    passive {row['passive']}")
        click.echo(f"    ignited {row['ignited']}")


def provenance_banner(cs) -> str:
    """The banner line naming the provenance of the cards in play, per set."""
    return banner(cs.is_stand_in(), cs.provenance_by_set(), cs.config.cards_version)


def _file_game(file: str, expansions: str | None, players: int, allow: bool):
    """The game a card file is checked in: the sets it defines, plus any --expansions."""
    from bombsolve.solvers.allisbomb import Options, load_card_file, parse_expansions

    cf = load_card_file(Path(file))
    sets = {c.expansion for c in cf.cards} | set(parse_expansions(expansions))
    config = Options(
        expansions=tuple(s for s in sets if s not in ("base", "hands")),
        hands="hands" in sets,
        players=players,
        cards_file=Path(file),
        allow_nonstandard=allow,
    ).validate()
    # the idle steps are `cards check`'s flags, and `cards try` prints them
    return warn_nonstandard(config, idle=False)


_FILE_OPTIONS = (
    click.argument("file", type=click.Path(dir_okay=False)),
    click.option(
        "--expansions",
        default=None,
        metavar="LIST",
        help="Sets to build the game with besides those the file defines.",
    ),
    click.option("--players", type=click.IntRange(1, 2), default=1, show_default=True),
    click.option(
        "--allow-nonstandard",
        is_flag=True,
        help="Check cards that break what the rulebook fixes, or whose steps cannot act as "
        "written (CARDS.md, 'Slips'), on purpose (warnings).",
    ),
    click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
)


def _file_options(fn):
    for deco in reversed(_FILE_OPTIONS):
        fn = deco(fn)
    return fn


@cards.command(name="check")
@_file_options
def check_cmd(file, expansions, players, allow_nonstandard, as_json) -> None:
    """Validate a card file; print each side's steps in words beside its text, with flags.

    Exit code 0 when the file loads (flags are things to look at, not errors), 2 on errors.

    \b
    Example:
      bombsolve allisbomb cards check mycards.toml
    """
    from bombsolve.solvers.allisbomb import check_report, load_cards, provenance_text

    config = _file_game(file, expansions, players, allow_nonstandard)
    cs = load_cards(config)
    source = str(Path(file).resolve())
    reports = check_report(cs, source)
    # the patch notes (the game's-size slips are the sides' flags)
    flagged = {f"{r.card.source}: {r.card.where()}[{r.side}]" for r in reports}
    notes = [w for w in cs.warnings if not any(w.startswith(f + "[step") for f in flagged)]
    n_flags = sum(len(r.flags) for r in reports) + len(notes)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "file": file,
                    "config": config.to_dict(),
                    "provenance": cs.provenance_by_set(),
                    "sides": [r.to_json() for r in reports],
                    "notes": notes,
                    "flags": n_flags,
                },
                indent=1,
            )
        )
        return
    click.echo(f"{file}: loads; {config.label()}: {cs.n} cards ({provenance_text(cs)})")
    click.echo(
        f"    checked in this {cs.n}-card game: what depends on the game's size is flagged for "
        "it (pass --expansions to check a larger game)"
    )
    for note in notes:
        click.echo(f"note: {note}")
    for r in reports:
        side = r.card.side(r.side == "ignited")
        kw = f" {side.keyword}" if side.keyword else ""
        click.echo(
            f"{r.card.where()} {r.card.label} [{r.card.expansion}, {r.card.provenance}]"
            f" {r.side} [{side.number}{kw}]"
        )
        click.echo(f"    text:  {r.text or '(none)'}")
        if not r.words:
            click.echo("    steps: (none: no action)")
        for j, words in enumerate(r.words):
            click.echo(f"    step {j + 1}: {words}")
        for flag in r.flags:
            click.echo(f"    flag: {flag}")
    click.echo(f"{n_flags} flag(s) to look at" if n_flags else "no flags")


@cards.command(name="try")
@_file_options
@click.option("--card", "card_name", required=True, help="The card (label or NAME) to play.")
@click.option("--side", type=click.Choice(["passive", "ignited"]), required=True)
@click.option(
    "--state",
    "state_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Play it from this position (JSON, as for `bombsolve allisbomb --state`) "
    "instead of the default one (CARDS.md).",
)
def try_cmd(file, expansions, players, allow_nonstandard, as_json, card_name, side, state_file):
    """Play one card side and print every result of its action, one block per choice sequence.

    \b
    Example:
      bombsolve allisbomb cards try mycards.toml --card RASCAL --side ignited
    """
    from bombsolve.solvers.allisbomb import (
        default_position,
        find_card,
        load_cards,
        state_from_json,
        try_card,
    )

    config = _file_game(file, expansions, players, allow_nonstandard)
    cs = load_cards(config)
    for line in cs.warnings:
        click.echo(f"warning: {line}", err=True)
    card = find_card(cs, card_name)
    if state_file is not None:
        from bombsolve.solvers.common.jsonfile import read_json_file

        data = read_json_file(state_file, "position file")
        if isinstance(data, dict) and "position" in data:
            data = data["position"]
        state = state_from_json(data, cs)
        copies = [c for c in range(cs.n) if cs.labels[c] == cs.labels[card]]
        mine = [c for c in copies if state.zone[c] == 1 + state.active]
        card = mine[0] if mine else card
        state.ignited[card] = side == "ignited"
    else:
        state = default_position(cs, card, side == "ignited")
    results, total = try_card(state, card)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "card": cs.labels[card],
                    "side": side,
                    "provenance": cs.cards[card].provenance,
                    "position": state.to_json(),
                    "results": results,
                    "total": total,
                },
                indent=1,
            )
        )
        return
    c = cs.cards[card]
    click.echo(
        f"{c.where()} {c.label}, {side} side ({c.provenance}): {c.side(side == 'ignited').text}"
    )
    click.echo(
        "position before (cards try's default, CARDS.md)"
        if state_file is None
        else f"position before (from {state_file})"
    )
    click.echo(
        "    DECK (top first): " + (", ".join(state.label(x) for x in state.deck) or "(empty)")
    )
    for p in range(config.players):
        click.echo(
            f"    equipped (player {p + 1}): "
            + (", ".join(state.label(x) for x in state.equipped(p)) or "(nothing)")
        )
    click.echo(
        "    DISCARD PILE (top first): "
        + (", ".join(state.label(x) for x in reversed(state.discard)) or "(empty)")
    )
    shown = "more than 100,000" if total < 0 else f"{total}"
    click.echo(
        f"{shown} way(s) to play it"
        + (f"; the first {len(results)} shown" if total != len(results) else "")
    )
    for i, r in enumerate(results):
        same = f" (same result as {r['same_as']})" if r["same_as"] else ""
        click.echo(f"{i + 1}. choices {r['choices']}{same}:")
        for line in r["turn"]:
            click.echo("    " + line.strip())
        if r["outcome"] != "ongoing":
            click.echo(f"    game over: {r['outcome'].upper()}")
        click.echo("    DECK (top first): " + (", ".join(r["deck"]) or "(empty)"))
        for p, eq in enumerate(r["equipped"]):
            click.echo(f"    equipped (player {p + 1}): " + (", ".join(eq) or "(nothing)"))
        click.echo("    DISCARD PILE (top first): " + (", ".join(r["discard"]) or "(empty)"))
        click.echo("    out of play: " + (", ".join(r["out"]) or "(nothing)"))
        if r["next_card"] is not None:
            click.echo(f"    waiting: {r['next_card_words']}")
