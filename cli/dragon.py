"""`bombsolve dragon`: Bomb the Dragon (Dragon Bomb): simulator, strategies and balance studies."""

from __future__ import annotations

import json
import time

import click
import numpy as np

from bombsolve.cli.common import (
    MAX_WORKERS,
    SEED,
    SEED_MAX,
    WORKERS_HELP,
    command_line,
    count_range,
    json_record,
    quiet_option,
    rule_option,
    rules_text,
    run_play_games,
    study_options,
)
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.options import value_text
from bombsolve.solvers.common.seeds import SEEDING, game_seeds, run_seeds
from bombsolve.solvers.common.stats import wilson


@click.group(name="dragon")
def dragon() -> None:
    """Bomb the Dragon (Dragon Bomb): simulator, strategies and balance studies.

    \b
    Examples:
      bombsolve dragon play --players 4 --strategies greedy,random,random,random --games 1000 --seed 42
      bombsolve dragon replay --seed 42 --game 3
      bombsolve dragon study seats --players 4 --games 5000 --seed 42 --out runs/seats
      bombsolve dragon rules
    """


def _players(value: int) -> int:
    if not 2 <= value <= 6:
        raise BadInput(
            f"player count {value} is outside 2 to 6; Bomb the Dragon is for 2 to 6 players"
        )
    return value


def _ensure_kernel(names: list[str]) -> None:
    """Compile (or load) the kernel entries that games among the strategies `names` play
    with, saying so first when cold: games with a montecarlo seat run an entry of their own
    (the one that compiles the Monte Carlo strategy), the others never compile it."""
    from bombsolve.cli.warmup import ensure_compiled

    if any(n != "montecarlo" for n in names):
        ensure_compiled("dragon", "play")
    if "montecarlo" in names:
        ensure_compiled("dragon", "montecarlo")


def _strategies(text: str, players: int) -> list[str]:
    from bombsolve.solvers.dragon import resolve_name

    names = [resolve_name(s) for s in text.split(",") if s.strip()]
    if not names:
        raise BadInput("--strategies is empty; expected names such as greedy,random")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise BadInput(
            f"--strategies lists {len(names)} names for {players} players; "
            "give one name (every seat) or one per seat"
        )
    return names


def _positive(value: int, what: str) -> int:
    if value < 1:
        raise BadInput(f"{what} {value} is not positive; expected 1 or more")
    return value


def _seed(value: int, games: int = 1) -> int:
    # Every game's seed is drawn from SeedSequence(value) (bombsolve.solvers.common.seeds), so any
    # root in range serves any number of games; `games` is kept for the callers.
    del games
    if not 0 <= value <= SEED_MAX:
        raise BadInput(f"seed {value} is outside 0 to {SEED_MAX}; expected a smaller --seed")
    return value


#: The most games one `play` holds in memory; larger runs belong to `study`.
MAX_PLAY_GAMES = 10_000_000

RULES_HELP = (
    "Rule options as name=value,... in one text (the same as one --rule per option; see "
    "`bombsolve dragon rules`)."
)
PRESET_HELP = (
    "Set every option the way an edition plays: gamepark (Game Park's digital edition); "
    "--rule / --rules then change single options. See `bombsolve dragon rules`."
)


def _preset_option(f):
    return click.option("--preset", default=None, metavar="NAME", help=PRESET_HELP)(f)


#: Where the cards of every --json come from.
CARDS = "published card faces (solvers/dragon/cards.toml)"


def _rules_text(options, preset: str | None) -> str:
    """Return the rules of a run as text: the preset's name (if any) and the changed options
    (``default rules`` when none is), each as ``name=value`` the way ``--rule`` takes it."""
    from bombsolve.solvers.dragon import rules_of

    desc = ",".join(rules_of(options)) or "default rules"
    return f"preset {preset} ({desc})" if preset else desc


def _options(text: str, preset: str | None):
    """The rule options of a command: `options_from_rules` of its joined ``--rules`` and
    ``--rule`` texts, after the preset's."""
    from bombsolve.solvers.dragon import options_from_rules

    return options_from_rules([p for p in text.split(",") if p.strip()], preset)


def _rules_values(options) -> dict:
    """Return every rule option's value, defaults included (the ``rules`` of a --json)."""
    import dataclasses

    return dataclasses.asdict(options)


@dragon.command()
@click.option("--players", "-p", type=int, default=4, show_default=True, help="2 to 6.")
@click.option(
    "--strategies",
    "-s",
    default="random",
    show_default=True,
    help="One name for every seat, or one per seat: random, greedy, position, montecarlo.",
)
@click.option(
    "--games",
    "-n",
    type=int,
    default=1000,
    show_default=True,
    help="Games in the one cell (these strategies in these seats).",
)
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Root of one SeedSequence; every game draws its own seed from it, so two roots "
    "share no game.",
)
@click.option("--rules", default="", help=RULES_HELP)
@rule_option
@_preset_option
@click.option(
    "--engine",
    type=click.Choice(["auto", "kernel", "reference"]),
    default="auto",
    show_default=True,
    help="auto: the Numba kernel; reference: the plain-Python engine (same results, slower).",
)
@click.option(
    "--workers",
    type=count_range(1, MAX_WORKERS),
    default=None,
    help=WORKERS_HELP + " Every game keeps its own seed, so any --workers gives the same results.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@quiet_option
def play(
    players, strategies, games, seed, rules, rule_pairs, preset, engine, workers, as_json, quiet
):
    """Play seeded games and report each seat's wins with Wilson 95% intervals.

    \b
    Example:
      bombsolve dragon play --players 4 --strategies greedy,random,random,random --games 2000 --seed 42
      bombsolve dragon play --players 3 --strategies greedy --rule placement=close_up --games 500
    """
    from bombsolve.solvers.dragon import KERNEL_STRATEGIES, play_study

    players = _players(players)
    names = _strategies(strategies, players)
    games = _positive(games, "--games")
    if games > MAX_PLAY_GAMES:
        raise BadInput(
            f"--games {games:,} is too many for play; expected at most {MAX_PLAY_GAMES:,} "
            "(use `bombsolve dragon study` for longer runs)"
        )
    seed = _seed(seed, games)
    options = _options(rules_text(rules, rule_pairs), preset)
    if engine == "auto":
        engine = "kernel" if all(n in KERNEL_STRATEGIES for n in names) else "reference"
    if engine == "kernel":
        # one game plays every seat's strategy: a montecarlo seat makes it a montecarlo game
        _ensure_kernel(["montecarlo"] if "montecarlo" in names else names)
    # chunks small enough to share among workers soon; the chunk size never changes a result
    slow = engine == "reference" or "montecarlo" in names
    study = play_study(players, names, games, seed, options, engine, 100 if slow else 1000)
    t0 = time.perf_counter()
    df = run_play_games(study, workers, "dragon", quiet)
    elapsed = time.perf_counter() - t0
    scores = df[[f"score_{p}" for p in range(players)]].to_numpy()
    wins = df[[f"win_{p}" for p in range(players)]].to_numpy()
    turns, rounds = df["turns"].to_numpy(), df["rounds"].to_numpy()
    seats = []
    for p in range(players):
        k = int(wins[:, p].sum())
        lo, hi = wilson(k, games)
        seats.append(
            {
                "seat": p + 1,
                "strategy": names[p],
                "wins": k,
                "n": games,
                "rate": k / games,
                "lo": lo,
                "hi": hi,
                "mean_score": float(scores[:, p].mean()),
            }
        )
    result = {
        "players": players,
        "games": games,
        "seed": seed,
        "seeding": SEEDING,
        "first_game_seed": int(game_seeds(seed, 1)[0]),
        "rules": _rules_values(options),
        "preset": preset,
        "engine": engine,
        "seats": seats,
        "mean_turns": float(turns.mean()),
        "mean_rounds": float(rounds.mean()),
        "seconds": elapsed,
    }
    if as_json:
        result.update(json_record(seed, result["rules"], CARDS))
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(
        f"Bomb the Dragon, {players} players, {games} games (seed {seed}: each game its own "
        "SeedSequence draw), "
        f"rules: {_rules_text(options, preset)}, engine: {engine}"
    )
    click.echo(
        f"{'seat':>4}  {'strategy':<11}{'wins':>7}  {'win rate [Wilson 95%]':<24}{'mean score':>10}"
    )
    for r in seats:
        interval = _interval(r["rate"], r["lo"], r["hi"], 6)
        click.echo(
            f"{r['seat']:>4}  {r['strategy']:<11}{r['wins']:>7}  {interval:<24}{r['mean_score']:>10.1f}"
        )
    click.echo(
        f"mean game: {result['mean_turns']:.1f} turns, {result['mean_rounds']:.2f} rounds; "
        f"shared victories count for every tied winner; {elapsed:.2f} s"
    )
    # Point at one game to look at, as Bombastic's play does: the first seat 1 did not win,
    # else the first.
    lost = np.flatnonzero(wins[:, 0] == 0)
    k = int(lost[0]) if len(lost) else 0
    won = ", ".join(f"p{p + 1}" for p in np.flatnonzero(wins[k]))
    click.echo(
        f"replay game {k + 1} (winner(s) {won}): "
        + _replay_command(
            seed, k + 1, players, names, rules_text(rules, rule_pairs), preset, options
        )
    )


def _replay_command(
    seed: int, game: int, players: int, names: list[str], rules: str, preset: str | None, options
) -> str:
    """The `replay` command line that shows game `game` of this `play` run: its seed, game
    number, players, strategies (one name when every seat plays it) and rules (the preset
    and the options given after it, else every changed option)."""
    import shlex

    from bombsolve.solvers.dragon import rules_of

    strategies = names[0] if len(set(names)) == 1 else ",".join(names)
    words = ["bombsolve", "dragon", "replay", "--seed", str(seed), "--game", str(game)]
    words += ["-p", str(players), "-s", strategies]
    if preset:
        words += ["--preset", preset] + (["--rules", rules] if rules else [])
    elif changed := rules_of(options):
        words += ["--rules", ",".join(changed)]
    return shlex.join(words)


@dragon.command()
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="The game's seed; with --game, the seed of the `play` run.",
)
@click.option(
    "--game",
    type=count_range(1, MAX_PLAY_GAMES),
    default=None,
    help="Game N (from 1) of `play --seed SEED` with these players, strategies and rules, "
    "as play's replay line numbers it.",
)
@click.option("--players", "-p", type=int, default=4, show_default=True, help="2 to 6.")
@click.option("--strategies", "-s", default="random", show_default=True, help="As for play.")
@click.option("--rules", default="", help=RULES_HELP)
@rule_option
@_preset_option
@click.option("--json", "as_json", is_flag=True, help="Print the log and the result as JSON.")
def replay(seed, game, players, strategies, rules, rule_pairs, preset, as_json):
    """Print one game turn by turn: the row, every hand, each card placed and what it took.

    Give the game's own seed, or --game N with the seed of a `play` run to see its game
    N (the line `play` ends with gives that command). Cards print as power, one * per
    lantern and the special; bodies as [vitality:points].

    \b
    Examples:
      bombsolve dragon replay --seed 42 --players 3 --strategies greedy,position,random
      bombsolve dragon replay --seed 42 --game 3 --players 3 --strategies greedy,position,random
    """
    from bombsolve.solvers.dragon import make_agents, play_game

    players = _players(players)
    names = _strategies(strategies, players)
    options = _options(rules_text(rules, rule_pairs), preset)
    # game N of `play --seed SEED` is word N-1 of game_seeds(SEED, ...), whatever its --games
    game_seed = _seed(seed) if game is None else int(run_seeds(seed, game - 1, game)[0])
    record = play_game(players, make_agents(names), game_seed, options, record=True)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "seed": seed,
                    "game": game,
                    "game_seed": game_seed,
                    "players": players,
                    "strategies": names,
                    "preset": preset,
                    "log": record.log,
                    "scores": record.scores,
                    "winners": [w + 1 for w in record.winners()],
                    **json_record(seed, _rules_values(options), CARDS),
                },
                indent=2,
            )
        )
        return
    if game is not None:
        click.echo(f"Game {game} of `dragon play --seed {seed}` (its seed {game_seed})")
    click.echo(
        f"Bomb the Dragon, seed {game_seed}, {players} players (seats p1..p{players}: "
        f"{', '.join(names)}), rules: {_rules_text(options, preset)}"
    )
    for line in record.log:
        click.echo(line)
    click.echo(
        f"final scores {record.scores}; winner(s): "
        + ", ".join(f"p{w + 1} ({names[w]})" for w in record.winners())
    )


@dragon.command()
@click.argument("kind", type=click.Choice(["seats", "ladder", "readings", "reference"]))
@click.option(
    "--players",
    "-p",
    default="2,3,4,5,6",
    show_default=True,
    help="Player counts, comma-separated.",
)
@click.option(
    "--strategies",
    "-s",
    default="random,greedy",
    show_default=True,
    help="seats: one study per name; ladder: every pair; readings: the first name.",
)
@click.option(
    "--games", "-n", type=int, default=2000, show_default=True, help="Games per study cell."
)
@click.option("--seed", type=SEED, default=2026, show_default=True)
@click.option("--rules", default="", help=RULES_HELP + " (seats and ladder)")
@rule_option
@click.option("--preset", default=None, metavar="NAME", help=PRESET_HELP + " (seats and ladder)")
@click.option("--json", "as_json", is_flag=True, help="Print the tables as JSON.")
@study_options(default_chunk=2000)
def study(
    kind,
    players,
    strategies,
    games,
    seed,
    rules,
    rule_pairs,
    preset,
    as_json,
    out,
    workers,
    scheduler,
    chunk_size,
):
    """Run a balance study on the shared runner; write CSV tables and PNG/SVG charts to --out.

    \b
    seats     win rate by seat (all seats alike), game lengths, points per card kind
    ladder    one seat of X against a field of Y, seats rotated
    readings  every rule reading against the defaults (first player count)
    reference the whole committed study (as scripts/results/dragon_results.py; --games ignored)
    Re-running the same command into the same --out resumes it.
    \b
    Example:
      bombsolve dragon study seats --players 4,5 --strategies greedy --games 5000 --seed 42 --out runs/seats
    """
    from pathlib import Path

    from bombsolve.solvers.common.files import write_text_atomic
    from bombsolve.solvers.dragon import (
        build_reference,
        draw_ladder_chart,
        draw_readings_chart,
        draw_seat_charts,
        manifests_of,
        run_ladder,
        run_readings,
        run_seats,
    )

    counts = []
    for piece in players.split(","):
        try:
            value = int(piece)
        except ValueError:
            raise BadInput(f"--players {piece!r} is not a number; expected e.g. 2,3,4") from None
        counts.append(_players(value))
    names = [n for n in _strategies(strategies, len(strategies.split(",")))]
    games = _positive(games, "--games")
    seed = _seed(seed, games)
    rules = rules_text(rules, rule_pairs)
    options = _options(rules, preset)
    if preset:
        # the study records the effective options, whatever preset spelled them
        rules = options.describe() if options.changed() else ""
    kw = {"workers": workers, "scheduler": scheduler, "chunk_size": chunk_size}
    outp = Path(out)
    # once here, not in every worker; says so first when cold (seats and ladder play games
    # of each strategy named, readings of the first, reference of all four)
    _ensure_kernel({"readings": names[:1], "reference": ["greedy", "montecarlo"]}.get(kind, names))
    if kind == "seats":
        t = run_seats(outp / "runs", counts, names, games, seed, rules, **kw)
        for name, table in t.items():
            write_text_atomic(outp / f"{name}.csv", table.to_csv(index=False, float_format="%.6g"))
        draw_seat_charts(t, manifests_of(t["seats"]), outp, names[0])
        tables, shown = t, t["seats"]
    elif kind == "ladder":
        t = run_ladder(outp / "runs", counts, names, games, seed, rules, **kw)
        write_text_atomic(outp / "ladder.csv", t.to_csv(index=False, float_format="%.6g"))
        draw_ladder_chart(t, manifests_of(t), outp)
        tables, shown = {"ladder": t}, t
    elif kind == "readings":
        if rules or preset:
            raise BadInput(
                "--rule / --rules / --preset does not apply to the readings study (it runs every reading)"
            )
        t = run_readings(outp / "runs", counts[0], names[0], games, seed, **kw)
        write_text_atomic(outp / "readings.csv", t.to_csv(index=False, float_format="%.6g"))
        draw_readings_chart(t, manifests_of(t), outp)
        tables = {"readings": t}
        shown = t[["reading", "turns_mean", "rounds_mean", "best_rate", "worst_rate", "chi2"]]
    else:
        tables = build_reference(
            outp, outp / "runs", seed=seed, workers=workers, scheduler=scheduler
        )
        shown = tables["seats"]
    if as_json:
        doc = {name: json.loads(tb.to_json(orient="records")) for name, tb in tables.items()}
        for rows in doc.values():  # a row with a win rate names it rate, over n games
            for r in rows:
                if "win_rate" in r and "games" in r:
                    r.update(n=r["games"], rate=r.pop("win_rate"))
        doc.update(kind=kind, games_per_cell=games, preset=preset)
        # readings: each row names its own options; these are the rules of every other row
        doc.update(json_record(seed, _rules_values(options), CARDS))
        click.echo(json.dumps(doc, indent=1))
        return
    click.echo(_shares_table(shown).to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    click.echo(f"tables and charts in {outp} ({command_line()})")


def _interval(rate: float, lo: float, hi: float, width: int = 0) -> str:
    """A win rate and its Wilson 95% interval as `play` prints them: ``25.1% [24.5%, 25.8%]``
    (the rate right-aligned in `width` characters)."""
    return f"{rate:{width}.1%} [{lo:.1%}, {hi:.1%}]"


#: Columns of the study tables that hold a share of games (printed as percents; the CSV
#: files and --json keep fractions).
_SHARES = ("win_rate", "lo", "hi", "fair_share", "best_rate", "worst_rate")


def _shares_table(table):
    """Return a study table as the terminal shows it: each win rate with its interval in one
    column the way `play` prints them, every other share of games as a percent."""
    shown = table.copy()
    if {"win_rate", "lo", "hi"} <= set(shown.columns):
        text = [_interval(*r) for r in shown[["win_rate", "lo", "hi"]].itertuples(index=False)]
        at = list(shown.columns).index("win_rate")
        shown = shown.drop(columns=["win_rate", "lo", "hi"])
        shown.insert(at, "win rate [Wilson 95%]", text)
    for col in _SHARES:
        if col in shown.columns:
            shown[col] = [f"{x:.1%}" for x in shown[col]]
    return shown


@dragon.command()
@click.option("--json", "as_json", is_flag=True, help="Print the options as JSON.")
@click.option("--rules", default="", help="Show the effective rules of these options.")
@rule_option
@_preset_option
def rules(as_json, rules, rule_pairs, preset):
    """Explain every rule option (the rulebook's open points), its readings and the presets.

    Each option quotes the rulebook sentence it reads and says what each value does; the
    default comes first, and * marks the value in effect (with --rule / --preset).

    \b
    Examples:
      bombsolve dragon rules
      bombsolve dragon rules --preset gamepark
      bombsolve dragon rules --rule placement=close_up
    """
    from bombsolve.solvers.dragon import PRESETS, READINGS, Options

    rules = rules_text(rules, rule_pairs)
    opts = _options(rules, preset)
    defaults = Options()

    text = value_text
    rows = []
    for r in READINGS:
        rows.append(
            {
                "name": r.name,
                "kind": r.kind,
                "value": getattr(opts, r.name),
                "default": getattr(defaults, r.name),
                "choices": list(r.choices),
                "section": r.section,
                "quote": r.quote,
                "readings": dict(r.values),
            }
        )
    if as_json:
        click.echo(
            json.dumps(
                {
                    "options": rows,
                    "presets": {
                        p.name: {
                            "title": p.title,
                            "source": p.source,
                            "settings": [
                                {"name": k, "value": v, "where": w} for k, v, w in p.settings
                            ],
                            "notes": list(p.notes),
                        }
                        for p in PRESETS.values()
                    },
                },
                indent=2,
            )
        )
        return
    wrap = _wrapper()
    heads = {
        "reading": "Open points of the rulebook (shared/rules/bomb-the-dragon.txt), defaults first:",
        "knob": "Study knobs (printed values first):",
        "safeguard": "Safeguards (not rules):",
    }
    shown = None
    for r, row in zip(READINGS, rows, strict=True):
        if r.kind != shown:
            click.echo(("" if shown is None else "\n") + heads[r.kind])
            shown = r.kind
        changed = "   (changed)" if row["value"] != row["default"] else ""
        click.echo(f"  {r.name} = {text(row['value'])}{changed}")
        if r.quote:
            click.echo(wrap(f'{r.section}: "{r.quote}"', "      "))
        for value, words in r.values:
            mark = "*" if text(row["value"]) == value else " "
            default = " (default)" if value == text(row["default"]) else ""
            click.echo(wrap(f"{mark} {value}{default}: {words}", "    ", "      "))
    click.echo("\nPresets (--preset NAME; --rule NAME=VALUE then changes single options):")
    for p in PRESETS.values():
        click.echo(f"  {p.name}: {p.title}; source: {p.source}")
        ordered = sorted(p.settings, key=lambda s: text(getattr(defaults, s[0])) == s[1])
        for k, v, where in ordered:
            note = " (not the default)" if text(getattr(defaults, k)) != v else ""
            click.echo(wrap(f"{k}={v}{note}: {where}", "    ", "      "))
        for note in p.notes:
            click.echo(wrap(note, "    ", "      "))
    if preset:
        click.echo(f"\nIn effect: preset {preset}" + (f", then {rules}" if rules else ""))


def _wrapper():
    import shutil
    import textwrap

    width = min(100, shutil.get_terminal_size((100, 24)).columns)

    def wrap(line: str, first: str, rest: str | None = None) -> str:
        return textwrap.fill(
            line, width, initial_indent=first, subsequent_indent=rest or first + "  "
        )

    return wrap


@dragon.command()
@click.option("--json", "as_json", is_flag=True, help="Print the cards as JSON.")
def cards(as_json):
    """Print the 45 firecrackers and 19 Dragon Body cards (shared/data/dragon-bomb.md).

    \b
    Example:
      bombsolve dragon cards
    """
    from bombsolve.solvers.dragon import load_cards

    c = load_cards()
    if as_json:
        click.echo(
            json.dumps(
                {
                    "firecrackers": [vars(f) for f in c.firecrackers],
                    "bodies": [vars(b) for b in c.bodies],
                },
                indent=2,
            )
        )
        return
    click.echo("Firecrackers (power*lanterns special):")
    click.echo("  " + " ".join(str(f) for f in c.firecrackers))
    click.echo("Dragon Body cards [vitality:points]:")
    click.echo("  " + " ".join(f"{b}{'!' if b.special != 'none' else ''}" for b in c.bodies))
    click.echo("  ! = special: the 4s lose 3 points; the 13 raises the hand limit by 1 this round")
