"""`bombsolve bombastic`: Bombastic: exact odds, agents, tournaments and balance studies."""

from __future__ import annotations

import contextlib
import json
import tempfile
from fractions import Fraction
from pathlib import Path

import click

from bombsolve.cli.common import (
    MAX_WORKERS,
    SCHEDULER,
    SEED,
    WORKERS_HELP,
    count_range,
    finite_float,
    json_record,
    quiet_option,
    rule_option,
    scheduler_timeout_option,
    study_options,
)
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.options import parse_rule_pairs

#: Where the tiles and cards come from, in every --json (`bombsolve.cli.common.json_record`).
CARDS = "the rulebook's tiles and cards"


@click.group(name="bombastic")
def bombastic() -> None:
    """Bombastic: exact odds, agents, tournaments and balance studies.

    Tiles are numbered row by row: 0 1 2 / 3 4 5 / 6 7 8. Seat 1 (X) moves first.
    """


def _frac(p: Fraction) -> dict:
    return {"fraction": str(p), "decimal": float(p)}


def rules_record(options) -> dict:
    """Every rule option's value, defaults included, for the ``rules`` of a --json
    (cards taken out of the deck as their numbers, as in a study's manifest)."""
    from dataclasses import asdict

    record = asdict(options)
    record["removed"] = sorted(int(c) for c in options.removed)
    return record


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
@rule_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def odds(as_: str, events: str, rule_pairs, as_json: bool) -> None:
    """Print exact odds (fractions and decimals) for every line and every tile.

    \b
    Events, in the order they happened (tiles 0..8 row by row, values X O B):
      peek 4=X            I peeked at tile 4 and saw an X
      show 0=O            tile 0 was shown to both players (Go for It, show cards)
      not-bomb 4          my opponent peeked at 4 with "Peek at as many as you
                          want" and the game went on: 4 is not the bomb
      swap 1 2            tiles 1 and 2 swapped places in plain sight
      shuffle 3 4 5       tiles 3 4 5 were put back in an order I do not know
      place 0=B 1=X 2=O   I secretly arranged tiles 0 1 2 like this
      secret-swap 4       my opponent secretly swapped shown tile 4 with another
    Hidden choices of the opponent count as equally likely; what its choices
    might suggest (it stopped peeking, it went for a line) is not counted, only
    what the rules make certain (see beliefs.py).

    The odds are exact (no sampling, so no seed and no interval) and follow from
    the events alone: the tiles are always 4 X, 4 O and the bomb ("Components"),
    and no rule option changes them. A reading decides which event you write
    (with --rule shuffle=opponent the player who shuffled writes `place`, the
    other `shuffle`); --rule is checked and recorded in --json with the rest.

    \b
    Example:
      bombsolve bombastic odds --as X --events "peek 4=X; show 0=O; swap 0 8"
    """
    from bombsolve.solvers.bombastic import (
        LINE_NAMES,
        LINES,
        event_text,
        exact_belief,
        odds_lines,
        options_from_rules,
        parse_events,
    )

    mine = _symbol(as_)
    options = options_from_rules(rule_pairs)
    evs = parse_events(events)
    b = exact_belief(evs)
    lines = b.line_odds(mine)
    tiles = b.tile_odds()
    me = "XO"[mine]
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
        # Exact odds: no games, so no seed, n or rate.
        out.update(json_record(None, rules_record(options), CARDS))
        click.echo(json.dumps(out, indent=2))
        return

    for line in odds_lines(b, mine):
        click.echo(line)


# ----- Rule options shared by the game commands -------------------------------------------


def rule_options(fn):
    """Add the rule options (Options fields) to a command: ``--rule NAME=VALUE`` (as in
    every game) and the older flags, one per option."""
    fn = rule_option(fn)
    fn = click.option(
        "--turn-cap",
        type=count_range(1, 1_000_000),
        default=60,
        show_default=True,
        help="Stop a game after this many turns (reported as TURN_CAP, no winner).",
    )(fn)
    fn = click.option(
        "--deck-known/--deck-unknown",
        default=True,
        show_default=True,
        help="Do players remember the order of cards put under the deck?",
    )(fn)
    fn = click.option(
        "--second-swap",
        type=click.Choice(["distinct", "disjoint", "any"]),
        default="distinct",
        show_default=True,
        help='"May swap any other 2": a pair other than the first, no tile of it, or any pair.',
    )(fn)
    fn = click.option(
        "--shuffle",
        type=click.Choice(["chance", "opponent"]),
        default="chance",
        show_default=True,
        help='"Opponent shuffles them": a random order, or one the opponent picks.',
    )(fn)
    fn = click.option("--no-alarms", is_flag=True, help="Leave both ALARM cards out.")(fn)
    fn = click.option("--promos", is_flag=True, help="Add the two promo cards to the deck.")(fn)
    fn = click.option(
        "--without",
        "without",
        default="",
        metavar="CARD[,CARD]",
        help="Take these cards (by name, e.g. peek-many) out of the deck.",
    )(fn)
    return fn


def make_options(kw: dict):
    """Pop the rule options from a command's keyword arguments and build Options."""
    from bombsolve.solvers.bombastic import READINGS, Options, card_by_slug

    by_name = {r.name: r for r in READINGS}

    removed = tuple(int(card_by_slug(s.strip())) for s in kw.pop("without").split(",") if s.strip())
    fields = {
        "promos": kw.pop("promos"),
        "alarms": not kw.pop("no_alarms"),
        "second_swap": kw.pop("second_swap"),
        "deck_known": kw.pop("deck_known"),
        "turn_cap": kw.pop("turn_cap"),
        "shuffle": kw.pop("shuffle"),
    }
    defaults = Options()
    for name, value in parse_rule_pairs(
        kw.pop("rule_pairs"), {r.name: r.kind for r in READINGS}
    ).items():
        if fields[name] != getattr(defaults, name) and fields[name] != value:
            raise BadInput(
                f"--rule {name}={value} contradicts {by_name[name].flag}; expected one of them"
            )
        fields[name] = value
    return Options(**fields, removed=removed)


def options_flags(options) -> str:
    """The command-line flags that give these rule options (empty for the defaults)."""
    from bombsolve.solvers.bombastic import CARD_SLUG, Card, Options

    d = Options()
    flags = []
    if options.promos:
        flags.append("--promos")
    if not options.alarms:
        flags.append("--no-alarms")
    if options.second_swap != d.second_swap:
        flags.append(f"--second-swap {options.second_swap}")
    if not options.deck_known:
        flags.append("--deck-unknown")
    if options.shuffle != d.shuffle:
        flags.append(f"--shuffle {options.shuffle}")
    if options.turn_cap != d.turn_cap:
        flags.append(f"--turn-cap {options.turn_cap}")
    if options.removed:
        flags.append("--without " + ",".join(CARD_SLUG[Card(c)] for c in options.removed))
    return " ".join(flags)


#: The help of --workers on play and tournament: the runner's default, as in every study.
GAMES_WORKERS_HELP = (
    WORKERS_HELP + " Without --out the games still run on the study runner, in a temporary "
    "folder removed at the end; the results are the same for any number of workers."
)


def _check_out(out) -> None:
    """Refuse an --out that cannot be written, before any game is played."""
    from bombsolve.solvers.common.runner import check_output_folder

    if out is not None:
        check_output_folder(out)


@contextlib.contextmanager
def _games_folder(out, quiet: bool = False):
    """Yield (folder, progress) for the runner: --out (its progress as in every study), or
    a temporary folder removed at the end (a bar on a terminal, a line every 10 s off one;
    no summary line naming a folder that is gone). `quiet` drops the lines off a terminal."""
    from bombsolve.cli.progress import play_progress, study_progress

    if out is not None:
        yield out, study_progress(quiet) if quiet else None
        return
    with tempfile.TemporaryDirectory(prefix="bombsolve-bombastic-") as tmp:
        yield Path(tmp) / "games", play_progress(quiet)


_WINNER = {0: "X wins,", 1: "O wins,", -1: "no winner,"}


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


@bombastic.command()
@click.option("--x", "x", default="heuristic", show_default=True, help="Agent for X (moves first).")
@click.option("--o", "o", default="heuristic", show_default=True, help="Agent for O.")
@click.option(
    "--games",
    "-n",
    type=count_range(1),
    default=100,
    show_default=True,
    help="Games in the one cell (this pairing, this seating).",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Keep games here.")
@click.option(
    "--workers",
    type=count_range(1, MAX_WORKERS),
    default=None,
    help=GAMES_WORKERS_HELP,
)
@click.option("--scheduler", type=SCHEDULER, default=None, help="Dask scheduler.")
@scheduler_timeout_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--coach",
    is_flag=True,
    help="With a human seat: before each of your choices, the exact odds from your view.",
)
@quiet_option
@rule_options
def play(x, o, games, seed, out, workers, scheduler, as_json, coach, quiet, **kw) -> None:
    """Play GAMES games between two agents and report who wins, how, and how fast.

    Agents: random, heuristic, greedy[:THRESHOLD], ismcts[:ITERATIONS],
    ismcts-guarded[:ITERATIONS], ismcts-heuristic[:ITERATIONS],
    ismcts-heuristic-guarded[:ITERATIONS], omniscient; and `human` for one seat:
    you play one game (game 1 of --seed) against the other seat's agent, choosing by
    number at the terminal or from a pipe, one command a line (see the README).

    In --json, `rate`, `lo` and `hi` are X's (the first player's) win rate and its
    Wilson 95% interval over `n` games; `o_rate` and `o_ci` are O's. A game stopped
    by the turn cap is a win for neither. The last line names a game to look at (the
    first X did not win, numbered from 1) and the `replay` command that shows it.

    \b
    Example:
      bombsolve bombastic play --x greedy --o heuristic --games 200 --seed 42
      bombsolve bombastic play --x human --o ismcts-heuristic-guarded:2000 --coach
    """
    from bombsolve.solvers.bombastic import human_seat, match_study, summarize
    from bombsolve.solvers.common.runner import run_study

    if human_seat(x, o) is not None:
        from bombsolve.cli.bombastic_seat import play_human

        source = click.get_current_context().get_parameter_source("games")
        given = source is not None and source.name != "DEFAULT"
        refused = {f"--games {games}": given and games != 1, "--out": out is not None}
        refused.update({"--workers": workers is not None, "--scheduler": scheduler is not None})
        refused["--json"] = as_json
        play_human(x, o, seed, make_options(kw), coach, refused)
        return
    if coach:
        raise BadInput("--coach needs a human seat; expected --x human or --o human")
    _check_out(out)
    options = make_options(kw)
    study = match_study(x, o, games, seed, options)
    _announce_kernels([x, o])
    with _games_folder(out, quiet) as (folder, progress):
        df = run_study(study, folder, workers=workers, scheduler=scheduler, progress=progress)
    s = summarize(df)
    if as_json:
        # X's (the first player's) wins are the headline rate; O's keep their own keys.
        x_lo, x_hi = s.pop("x_ci")
        doc = {"x": x, "o": o, "n": games, "rate": s.pop("x_rate"), "lo": x_lo, "hi": x_hi}
        doc.update(s)
        doc.update(json_record(seed, rules_record(options), CARDS))
        click.echo(json.dumps(doc, indent=2, default=list))
        return
    click.echo(
        f"{x} (X, first) vs {o} (O): {games} games, seed {seed}; win rates with Wilson 95% "
        "intervals"
    )
    click.echo(
        f"  X wins {s['x_wins']:>6}  {_pct(s['x_rate'])} [{s['x_ci'][0]:.1%}, {s['x_ci'][1]:.1%}]"
    )
    click.echo(
        f"  O wins {s['o_wins']:>6}  {_pct(s['o_rate'])} [{s['o_ci'][0]:.1%}, {s['o_ci'][1]:.1%}]"
    )
    click.echo(f"  turn cap {s['turn_cap']:>4}")
    click.echo(f"  turns: mean {s['mean_turns']:.2f}, median {s['median_turns']:.0f}")
    click.echo("  endings:")
    for name, n in sorted(s["endings"].items(), key=lambda kv: -kv[1]):
        click.echo(f"    {name:<22} {n:>6}  {_pct(n / games)}")
    # Point at one game to look at: the first the first player did not win, else the first.
    lost = df[df["winner"] != 0]
    row = (lost if len(lost) else df).iloc[0]
    flags = options_flags(options)
    game = int(row["case"]) + 1  # games are numbered from 1
    click.echo(
        f"  replay game {game} ({_WINNER[int(row['winner'])]} {row['ending']}): "
        f"bombsolve bombastic replay "
        f"--seed {seed} --game {game} --x {x} --o {o}" + (f" {flags}" if flags else "")
    )


def _announce_kernels(specs) -> None:
    """Compile (saying so first) the ISMCTS playout kernels if an agent uses them."""
    if any(a.strip().startswith("ismcts") for a in specs):
        from bombsolve.cli.warmup import ensure_compiled

        ensure_compiled("bombastic", "ismcts")


@bombastic.command()
@click.option(
    "--agents",
    default="random,heuristic,greedy,omniscient",
    show_default=True,
    help="Comma-separated agent specs.",
)
@click.option(
    "--games",
    "-n",
    type=count_range(1),
    default=50,
    show_default=True,
    help="Games per cell (each pairing, each seating).",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), default=None, help="Keep games here.")
@click.option(
    "--workers",
    type=count_range(1, MAX_WORKERS),
    default=None,
    help=GAMES_WORKERS_HELP,
)
@click.option("--scheduler", type=SCHEDULER, default=None, help="Dask scheduler.")
@scheduler_timeout_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@rule_options
def tournament(agents, games, seed, out, workers, scheduler, as_json, **kw) -> None:
    """Every pair of agents, both seatings: win rates with Wilson 95% intervals, ratings
    with bootstrap 95% intervals.

    In --json each pairing's `rate`, `lo` and `hi` are X's (the first player's) win
    rate in it and its Wilson 95% interval over `n` games. Each rating's `lo` and `hi`
    are its bootstrap 95% interval: each pairing's games resampled with replacement
    (seeded with --seed), the ratings refitted, the 2.5th and 97.5th percentiles kept;
    `ratings_intervals` says so.

    \b
    Example:
      bombsolve bombastic tournament --agents random,heuristic,greedy --games 40 --seed 42
    """
    from bombsolve.solvers.bombastic import pairing_table, rating_intervals
    from bombsolve.solvers.bombastic import tournament as run_tournament

    _check_out(out)
    options = make_options(kw)
    _announce_kernels(agents.split(","))
    with _games_folder(out) as (folder, progress):
        df = run_tournament(
            agents.split(","), games, seed, options, folder, workers, scheduler, progress=progress
        )
    table = pairing_table(df)
    # The bootstrap is seeded with the run's seed: the same command, the same intervals.
    rt = rating_intervals(df, seed=seed)
    method = rt.attrs["bootstrap"]
    if as_json:
        rows = []
        for r in table.to_dict("records"):  # X's (the first player's) wins in that pairing
            rate = {"n": r["games"], "rate": r.pop("x_rate"), "lo": r.pop("x_lo")}
            rows.append({**rate, "hi": r.pop("x_hi"), **r})
        doc = {
            "pairings": rows,
            "ratings": rt.to_dict("records"),
            "ratings_intervals": method,
            "games_per_seating": games,
        }
        doc.update(json_record(seed, rules_record(options), CARDS))
        click.echo(json.dumps(doc, indent=2, default=str))
        return
    click.echo(f"{'X (first)':<14}{'O':<14}{'games':>6}{'X wins':>9}{'95% interval':>18}{'cap':>5}")
    for r in table.itertuples():
        ci = f"[{_pct(r.x_lo)}, {_pct(r.x_hi)}]"
        click.echo(f"{r.x:<14}{r.o:<14}{r.games:>6}{_pct(r.x_rate):>9}{ci:>18}{r.turn_cap:>5}")
    click.echo("")
    click.echo(
        f"{'agent':<14}{'rating':>8}{'95% interval':>16}{'score':>8}{'games':>7}"
        "   (Bradley-Terry, Elo scale)"
    )
    for r in rt.itertuples():
        ci = f"[{r.lo:.0f}, {r.hi:.0f}]"
        click.echo(f"{r.agent:<14}{r.rating:>8.0f}{ci:>16}{_pct(r.score):>8}{r.games:>7}")
    click.echo(f"  ratings: {method}, seeded with --seed {seed}")


@bombastic.command()
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="The game's seed; with --game, the seed of the `play` run.",
)
@click.option(
    "--game",
    type=count_range(1),
    default=None,
    help="Game N (from 1) of `play --seed SEED` with these agents and rules, as play's "
    "replay line numbers it.",
)
@click.option("--x", "x", default="heuristic", show_default=True, help="Agent for X (moves first).")
@click.option("--o", "o", default="heuristic", show_default=True, help="Agent for O.")
@click.option("--json", "as_json", is_flag=True, help="Print the game as JSON.")
@rule_options
def replay(seed, game, x, o, as_json, **kw) -> None:
    """Show one game turn by turn: the grid, every decision, and what each player knows.

    Give the game's own seed, or --game N with the seed of a `play` run to see its game
    N (the line `play` ends with gives that command).

    \b
    Examples:
      bombsolve bombastic replay --seed 42 --x greedy --o heuristic
      bombsolve bombastic replay --seed 42 --game 3 --x greedy --o heuristic
    """
    from bombsolve.solvers.bombastic import make_agent, match_game_seed, replay_lines, replay_record

    options = make_options(kw)
    make_agent(x), make_agent(o)  # one clear line on a bad name
    game_seed = seed if game is None else match_game_seed(seed, game)
    if as_json:
        doc = replay_record(x, o, game_seed, options)
        doc.update(game=game, game_seed=game_seed)
        doc.update(json_record(seed, rules_record(options), CARDS))
        click.echo(json.dumps(doc, indent=2))
        return
    if game is not None:
        click.echo(f"Game {game} of `bombastic play --seed {seed}` (its seed {game_seed})")
    for line in replay_lines(x, o, game_seed, options):
        click.echo(line)


@bombastic.command()
@click.option(
    "--depth",
    type=count_range(0, 16),
    default=1,
    show_default=True,
    help="Whole turns to look ahead.",
)
@click.option("--player", type=click.Choice(["X", "O", "both"]), default="both", show_default=True)
@click.option(
    "--engine",
    type=click.Choice(["numba", "python"]),
    default="numba",
    show_default=True,
    help="The Numba counter, or the plain-Python reference (same counts, far slower).",
)
@click.option(
    "--max-memo-gib",
    type=finite_float(0, min_open=True),
    default=4.0,
    show_default=True,
    help="Memory the Numba memo may grow to before the count gives up.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@rule_options
def infostates(depth, player, engine, max_memo_gib, as_json, **kw) -> None:
    """Count each player's distinct information states after 0..DEPTH turns (exhaustive).

    An information state is everything that player has seen (perfect recall); what
    they cannot see is merged, not counted twice. With the Numba engine depth 2 takes
    about 15 s (O) and 80 s (X) on one core, and a few GiB of memo; depth 3 is out of
    reach (see the README).

    \b
    Example:
      bombsolve bombastic infostates --depth 2 --player O
    """
    import math
    import time

    from bombsolve.solvers.bombastic import Memo, MemoFull, count_infostates, count_infostates_fast

    options = make_options(kw)
    players = {"X": [0], "O": [1], "both": [0, 1]}[player]
    if max_memo_gib <= 0:
        raise BadInput(f"--max-memo-gib {max_memo_gib} must be more than 0")
    max_log2 = max(10, int(math.log2(max_memo_gib * 2**30 / Memo.BYTES_PER_SLOT)))
    if engine != "python":
        from bombsolve.cli.warmup import ensure_compiled

        ensure_compiled("bombastic", "infostates")  # says so first when Numba must compile
    out = {}
    for p in players:
        t0 = time.perf_counter()
        if engine == "python":
            r = count_infostates(depth, p, options)
        else:
            try:
                r = count_infostates_fast(depth, p, options, max_log2_slots=max_log2)
            except MemoFull as e:
                raise click.ClickException(f"{e}; raise --max-memo-gib or lower --depth") from e
        out["XO"[p]] = {
            "by_depth": r.by_depth,
            "nodes_searched": r.nodes,
            "seconds": round(time.perf_counter() - t0, 2),
        }
    if as_json:
        doc = {"depth": depth, "engine": engine, "players": out}
        # An exact count: no games, so no seed, n or rate.
        doc.update(json_record(None, rules_record(options), CARDS))
        click.echo(json.dumps(doc, indent=2))
        return
    for name, r in out.items():
        click.echo(
            f"{name}: {r['nodes_searched']} knowledge states searched in {r['seconds']} s ({engine})"
        )
        for d, n in enumerate(r["by_depth"]):
            click.echo(f"  after {d} turn{'s' if d != 1 else ''}: {n:,} information states")


@bombastic.command()
@click.option(
    "--games",
    "-n",
    type=count_range(1),
    default=None,
    help="Games per seating for every pairing [default: per agent, the reference caps: "
    "3000 random/heuristic, 2000 greedy/omniscient/ismcts-heuristic-guarded:300, 200 "
    "ismcts:100 and ismcts-guarded:100, 60 any other; a pairing plays the smaller cap].",
)
@click.option(
    "--card-games", type=count_range(1), default=2000, show_default=True, help="Games per deck."
)
@click.option("--kernel-games", type=count_range(1), default=1_000_000, show_default=True)
@click.option("--seed", type=SEED, default=2026, show_default=True)
@click.option(
    "--agents",
    default="random,heuristic,greedy,ismcts:100,ismcts-guarded:100,"
    "ismcts-heuristic-guarded:300,omniscient",
    show_default=True,
    help="Agents of the tournament.",
)
@click.option("--card-agent", default="heuristic", show_default=True, help="Plays the card study.")
@click.option(
    "--infostate-depth",
    type=count_range(-1, 16),
    default=-1,
    show_default=True,
    help="Also count information states to this many turns (-1: skip; 1 takes minutes).",
)
@rule_option
@study_options(default_chunk=50)
def study(
    games,
    card_games,
    kernel_games,
    seed,
    agents,
    card_agent,
    infostate_depth,
    rule_pairs,
    out,
    workers,
    scheduler,
    chunk_size,
) -> None:
    """Run the balance study: tournament, first-player edge, card values, charts.

    Writes tables (CSV, Parquet), charts (PNG, SVG) and manifest.json into --out; each
    part's chunks live under --out/runs/ and a re-run resumes them. The committed
    reference in results/bombastic/ is this command with its defaults and --workers 2
    (scripts/results/bombastic_reference.py). --rule plays every part under other rule options
    (the card study's decks are then changed from those rules); the manifest records them.

    \b
    Example:
      bombsolve bombastic study --out /tmp/bombastic --games 20 --card-games 100 --seed 42
    """
    from bombsolve.solvers.bombastic import (
        REFERENCE_GAMES,
        make_agent,
        options_from_rules,
        reference_study,
    )

    options = options_from_rules(rule_pairs)
    names = [a.strip() for a in agents.split(",") if a.strip()]
    for a in names + [card_agent]:
        make_agent(a)
    from bombsolve.cli.warmup import ensure_compiled

    ensure_compiled("bombastic")  # says so first when Numba must compile
    per_seating = games if games is not None else {a: REFERENCE_GAMES.get(a, 60) for a in names}
    for name, n in (
        ("--games", 1 if games is None else games),
        ("--card-games", card_games),
        ("--kernel-games", kernel_games),
    ):
        if n < 1:
            raise BadInput(f"{name} {n} must be at least 1")
    m = reference_study(
        out,
        games=per_seating,
        card_games=card_games,
        kernel_games=kernel_games,
        seed=seed,
        agents=names,
        card_agent=card_agent,
        workers=workers,
        scheduler=scheduler,
        log=lambda s: click.echo(s, err=True),
        chunk_size=chunk_size,
        infostate_depth=infostate_depth,
        options=options,
    )
    click.echo(f"wrote {out}: manifest.json, tables, charts")
    for r in m["headline"]["ratings"]:
        click.echo(
            f"  {r['agent']:<14}{r['rating']:>7.0f}  95% [{r['lo']:.0f}, {r['hi']:.0f}]"
            f"  score {100 * r['score']:.1f}%"
        )
    click.echo(f"  ratings: {m['ratings_intervals']}")


@bombastic.command(name="rules")
@click.option("--json", "as_json", is_flag=True, help="Print the options as JSON.")
@rule_options
def rules_cmd(as_json, **kw) -> None:
    """Explain every rule option (the rulebook's open points and study variants).

    Each option quotes the rulebook sentence it reads and says what each value does; the
    default comes first, and * marks the value in effect (with --rule or the flags).

    \b
    Examples:
      bombsolve bombastic rules
      bombsolve bombastic rules --rule shuffle=opponent
    """

    from bombsolve.solvers.bombastic import READINGS, Options

    options = make_options(kw)
    defaults = Options()

    def text(value) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    rows = [
        {
            "name": r.name,
            "value": getattr(options, r.name),
            "default": getattr(defaults, r.name),
            "choices": list(r.choices) if r.kind is not int else None,
            "section": r.section,
            "quote": r.quote,
            "readings": dict(r.values),
            "flag": r.flag,
        }
        for r in READINGS
    ]
    if as_json:
        click.echo(json.dumps({"options": rows, "in_effect": rules_record(options)}, indent=2))
        return
    click.echo("Rule options of Bombastic (shared/rules/bombastic.txt), defaults first;")
    click.echo("set one with --rule NAME=VALUE (or its flag):")
    for r, row in zip(READINGS, rows, strict=True):
        changed = "   (changed)" if row["value"] != row["default"] else ""
        click.echo(f"\n  {r.name} = {text(row['value'])}{changed}   [flag {r.flag}]")
        if r.quote:
            click.echo(f'      {r.section}: "{r.quote}"')
        for value, words in r.values:
            mark = "*" if text(row["value"]) == value else " "
            default = " (default)" if value == text(row["default"]) else ""
            click.echo(f"    {mark} {value}{default}: {words}")
    if options.removed:
        from bombsolve.solvers.bombastic import CARD_SLUG, Card

        taken = ", ".join(CARD_SLUG[Card(c)] for c in options.removed)
        click.echo(f"\nCards taken out of the deck (--without): {taken}")
