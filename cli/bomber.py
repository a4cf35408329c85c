"""`bombsolve bomber`: Catch the Bomber: simulator, hidden-role agents and balance studies."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from bombsolve.cli.common import (
    MAX_WORKERS,
    SEED,
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
from bombsolve.solvers.common.errors import BadInput, unknown
from bombsolve.solvers.common.seeds import SEEDING, game_seeds, run_seeds

AGENT_HELP = (
    "Agents by role: one name for every role (random, heuristic) and/or role=name "
    "overrides (bomber, police, young-lady, holy-warrior, suspicious-person), "
    "e.g. 'random,bomber=heuristic'."
)
RULES_HELP = (
    "Rule readings as key=value,... in one text (the same as one --rule per reading): "
    "dog=caught|forbid, warrior_bombing=true|false, "
    "stuck_bomber=loses|assess, move_optional=true|false (see `bombsolve bomber rules`)."
)
EXTRAS_HELP = (
    "Extra characters, comma-separated (young-lady, holy-warrior, suspicious-person); "
    "default: drawn at random. 'none' for 3 players."
)


def _players_option(fn):
    return click.option(
        "--players",
        "-p",
        type=int,
        default=5,
        show_default=True,
        help="Number of players, 3 to 6.",
    )(fn)


def _parse_extras(spec: str | None, players: int):
    from bombsolve.solvers.bomber import EXTRA_NAMES, check_setup

    check_setup(players, None)
    if spec is None:
        return None
    names = [s.strip() for s in spec.split(",") if s.strip() and s.strip() != "none"]
    extras = []
    for name in names:
        if name not in EXTRA_NAMES:
            raise unknown("extra character", name, EXTRA_NAMES)
        extras.append(EXTRA_NAMES[name])
    extras = tuple(sorted(extras))
    check_setup(players, extras)
    return extras


MAX_PLAY_GAMES = 50_000_000  # one in-memory table; larger runs belong to `study`
#: Where the cards of every --json come from.
CARDS = "the rulebook's character cards"


def _check_seed(seed: int) -> int:
    if not 0 <= seed < 2**64:
        raise BadInput(f"seed {seed} out of range; expected 0 to 2**64-1")
    return seed


@click.group(name="bomber")
def bomber() -> None:
    """Catch the Bomber: simulator, hidden-role agents and balance studies.

    \b
    Example:
      bombsolve bomber play --players 5 --agents heuristic --games 1000 --seed 42
    """


@bomber.command()
@rule_option
@click.option("--json", "as_json", is_flag=True, help="Print the options as JSON.")
def rules(rule_pairs, as_json) -> None:
    """Explain every rule option (the rulebook's open points), its readings and the cards.

    Each option quotes the rulebook sentence it reads and says what each value does; the
    default comes first, and * marks the value in effect (with --rule). The readings the
    engine fixes and the cards by player count follow.

    \b
    Examples:
      bombsolve bomber rules
      bombsolve bomber rules --rule dog=forbid
    """
    from bombsolve.solvers.bomber import (
        FIXED_READINGS,
        OPEN_READINGS,
        Options,
        parse_rules,
        value_text,
    )

    in_effect = parse_rules(rules_text(None, rule_pairs))
    values, defaults = in_effect.as_dict(), Options().as_dict()
    rows = [
        {
            "name": r.name,
            "kind": "reading",
            "value": values[r.name],
            "default": defaults[r.name],
            "choices": list(r.choices),
            "section": r.section,
            "quote": r.quote,
            "readings": dict(r.values),
        }
        for r in OPEN_READINGS
    ]
    cards = []
    for p in range(3, 7):
        citizens = 16 if p == 4 else 18
        cards.append(
            {
                "players": p,
                "Bomber": 1,
                "Police": 2,
                "extras": p - 3,
                "Police Dog": 2,
                "Bomb": 4,
                "Bomb Squad": 6,
                "Citizen": citizens,
                "hand": (12 + citizens) // p + 1,
            }
        )
    if as_json:
        doc = {"options": rows, "fixed": list(FIXED_READINGS), "cards": cards}
        click.echo(json.dumps(doc, indent=2))
        return
    wrap = _wrapper()
    click.echo("Open points of the rulebook (shared/rules/catch-the-bomber.txt), defaults first:")
    for r, row in zip(OPEN_READINGS, rows, strict=True):
        value, default = value_text(row["value"]), value_text(row["default"])
        changed = "   (changed)" if value != default else ""
        click.echo(f"  {r.name} = {value}{changed}")
        click.echo(wrap(f'{r.section}: "{r.quote}"', "      "))
        for choice, words in r.values:
            mark = "*" if choice == value else " "
            tag = " (default)" if choice == default else ""
            click.echo(wrap(f"{mark} {choice}{tag}: {words}", "    ", "      "))
    click.echo("\nFixed readings:")
    for text in FIXED_READINGS:
        click.echo(wrap(f"- {text}", "  ", "    "))
    click.echo("\nCards by player count (Preparation):")
    for c in cards:
        click.echo(
            f"  {c['players']} players: Bomber 1, Police 2, extras {c['extras']}; Police Dog 2, "
            f"Bomb 4, Bomb Squad 6, Citizen {c['Citizen']}; hand {c['hand']} cards"
        )
    if rule_pairs:
        click.echo(f"\nIn effect: {in_effect.text()}")


def _wrapper():
    import shutil
    import textwrap

    width = min(100, shutil.get_terminal_size((100, 24)).columns)

    def wrap(line: str, first: str, rest: str | None = None) -> str:
        return textwrap.fill(
            line, width, initial_indent=first, subsequent_indent=rest or first + "  "
        )

    return wrap


@bomber.command()
@_players_option
@click.option("--agents", default="random", show_default=True, help=AGENT_HELP)
@click.option(
    "--games",
    "-n",
    type=int,
    default=1000,
    show_default=True,
    help="Games in the one cell (these agents at this player count).",
)
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Root of one SeedSequence; every game draws its own seed from it, so two roots "
    "share no game.",
)
@click.option("--rules", "rules_spec", default=None, help=RULES_HELP)
@rule_option
@click.option("--extras", default=None, help=EXTRAS_HELP)
@click.option(
    "--engine",
    type=click.Choice(["auto", "kernel", "reference"]),
    default="auto",
    show_default=True,
    help="auto: the Numba kernel when every agent is random, else the reference engine.",
)
@click.option(
    "--workers",
    type=count_range(1, MAX_WORKERS),
    default=None,
    help=WORKERS_HELP + " Every game keeps its own seed, so any --workers gives the same results.",
)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@quiet_option
def play(
    players, agents, games, seed, rules_spec, rule_pairs, extras, engine, workers, as_json, quiet
) -> None:
    """Play GAMES seeded games and print outcome rates with Wilson 95% intervals.

    \b
    Example:
      bombsolve bomber play --players 4 --agents random,bomber=heuristic --games 500 --seed 42
      bombsolve bomber play --players 5 --rule dog=forbid --rule move_optional=false --games 500
    """
    from bombsolve.solvers.bomber import (
        CARD_NAMES,
        EXTRAS,
        achievements,
        agents_label,
        parse_agents,
        parse_rules,
        play_study,
        summarise,
    )

    extras_t = _parse_extras(extras, players)
    rules_obj = parse_rules(rules_text(rules_spec, rule_pairs))
    by_role = parse_agents(agents)
    _check_seed(seed)
    if games < 1:
        raise BadInput(f"--games {games} is not positive; expected 1 or more")
    all_random = set(by_role.values()) == {"random"}
    if engine == "kernel" and not all_random:
        raise BadInput(f"--engine kernel plays random agents only; got --agents {agents!r}")
    use_kernel = engine == "kernel" or (engine == "auto" and all_random)
    if games > MAX_PLAY_GAMES:
        raise BadInput(
            f"--games {games:,} is too many for play; expected at most {MAX_PLAY_GAMES:,} "
            "(use `bombsolve bomber study` for longer runs)"
        )
    if use_kernel:
        from bombsolve.cli.warmup import ensure_compiled

        ensure_compiled("bomber")  # says so first when Numba must compile
    mask = -1 if extras_t is None else sum(1 << EXTRAS.index(c) for c in extras_t)
    cond = {"players": players, "extras": mask, "rules": rules_obj.as_dict()}
    study = play_study(cond, agents, games, seed, "kernel" if use_kernel else "reference")
    t0 = time.perf_counter()
    df = run_play_games(study, workers, "bomber", quiet)
    elapsed = time.perf_counter() - t0
    df["condition"] = f"{players}p"
    summ = summarise(df).iloc[0]
    ach = achievements(df).iloc[0]
    report = {
        "players": players,
        "agents": agents_label(by_role),
        "rules": rules_obj.as_dict(),
        "extras": "random" if extras_t is None else [CARD_NAMES[c] for c in extras_t],
        "games": games,
        "seed": seed,
        "seeding": SEEDING,
        "first_game_seed": int(game_seeds(seed, 1)[0]),
        "engine": "kernel" if use_kernel else "reference",
        "seconds": round(elapsed, 3),
        "outcomes": {
            k: {"rate": summ[k], "lo": summ[f"{k}_lo"], "hi": summ[f"{k}_hi"]}
            for k in ("bomber", "police", "draw", "sole")
        },
        "achievement_rates": {k: summ[f"{k}_rate"] for k in ("chaos", "escape", "bombing")},
        "bomber_wins_with": {k: ach[f"{k}_in_wins"] for k in ("chaos", "escape", "bombing")},
        "bomber_stuck_rate": summ["bomber_stuck_rate"],
    }
    if as_json:
        for v in report["outcomes"].values():
            v["n"] = games
        report.update(json_record(seed, report["rules"], CARDS))
        click.echo(json.dumps(report, indent=2, default=float))
        return
    from bombsolve.solvers.bomber import OUTCOME_LABELS, OUTCOME_NAMES

    click.echo(
        f"Catch the Bomber, {players} players, agents {report['agents']}, "
        f"{games:,} games (seed {seed}: each game its own SeedSequence draw), {report['engine']} "
        f"engine, {elapsed:.2f}s"
    )
    click.echo(f"rules: {rules_obj.text()}")
    for k, label in OUTCOME_LABELS.items():
        o = report["outcomes"][k]
        click.echo(f"  {label:<30} {o['rate']:6.1%} [{o['lo']:.1%}, {o['hi']:.1%}]")
    rates = report["achievement_rates"]
    click.echo(
        "  achievements unlocked: "
        + ", ".join(f"{k.capitalize()} {v:.1%}" for k, v in rates.items())
    )
    wins = report["bomber_wins_with"]
    click.echo(
        "  the Bomber's victories include: "
        + ", ".join(f"{k.capitalize()} {v:.1%}" for k, v in wins.items())
    )
    # One game to look at, as the other games' play does: the first the Bomber did not
    # win, else the first.
    outcomes = df.sort_values("case")["outcome"].to_numpy() if "case" in df else df["outcome"]
    lost = [i for i, o in enumerate(outcomes) if int(o) != 0]
    k = lost[0] if lost else 0
    click.echo(
        f"  replay game {k + 1} ({OUTCOME_NAMES[int(outcomes[k])]}): "
        + _replay_command(seed, k + 1, players, agents, rules_obj, extras)
    )


def _replay_command(seed: int, game: int, players: int, agents: str, rules, extras) -> str:
    """The `replay` command line that shows game `game` of this `play` run: its seed, game
    number, players, agents, the rules that differ from the defaults, and the extras."""
    import shlex

    from bombsolve.solvers.bomber import rules_of

    words = ["bombsolve", "bomber", "replay", "--seed", str(seed), "--game", str(game)]
    words += ["-p", str(players), "--agents", agents]
    if changed := rules_of(rules):
        words += ["--rules", ",".join(changed)]
    if extras:
        words += ["--extras", extras]
    return shlex.join(words)


@bomber.command()
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="The game's seed; with --game, the seed of the `play` run.",
)
@click.option(
    "--game",
    type=count_range(1, MAX_PLAY_GAMES),
    default=None,
    help="Game N (from 1) of `play --seed SEED` with these players, agents, rules and extras, "
    "as play's replay line numbers it.",
)
@_players_option
@click.option("--agents", default="random", show_default=True, help=AGENT_HELP)
@click.option("--rules", "rules_spec", default=None, help=RULES_HELP)
@rule_option
@click.option("--extras", default=None, help=EXTRAS_HELP)
@click.option(
    "--study",
    "study_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Replay a case of this study folder (e.g. results/bomber/players/heuristic).",
)
@click.option("--case", type=count_range(0), default=None, help="The case to replay, with --study.")
@click.option("--json", "as_json", is_flag=True, help="Print the game as JSON.")
def replay(
    seed, game, players, agents, rules_spec, rule_pairs, extras, study_dir, case, as_json
) -> None:
    """Print one game: the deal, then each location's line after every turn, then the end.

    Face-down cards show in brackets with their owner's seat, e.g. [BMR]2. Give the game's
    own --seed (with --players, --agents, ...), or --game N with the seed of a `play` run to
    see its game N (the line `play` ends with gives that command), or --study and --case to
    replay one row of a study.

    \b
    Examples:
      bombsolve bomber replay --seed 42 --players 5 --agents heuristic
      bombsolve bomber replay --seed 42 --game 3 --players 5 --agents heuristic
      bombsolve bomber replay --study results/bomber/players/heuristic --case 17
    """
    from bombsolve.solvers.bomber import (
        CARD_NAMES,
        CARD_SHORT,
        EXTRA_NAMES,
        EXTRAS,
        LOCATION_NAMES,
        OUTCOME_NAMES,
        Card,
        action_text,
        decode,
        line_text,
        parse_agents,
        parse_rules,
        play_game,
        prepare,
        winners,
    )

    if study_dir is not None or case is not None:
        if study_dir is None or case is None or seed is not None or game is not None:
            raise BadInput("--study and --case go together, without --seed or --game")
        if rule_pairs or rules_spec:
            raise BadInput("--study and --case replay the study's rules; expected no --rule")
        from bombsolve.solvers.bomber import case_game

        row = case_game(study_dir, case)
        seed, agents = row["seed"], row["agents"]
        cond = row["condition"]
        players = int(cond["players"])
        rules_spec = ",".join(f"{k}={v}" for k, v in cond["rules"].items())
        mask = int(cond["extras"])
        extras = (
            None
            if mask < 0
            else ",".join(name for name, c in EXTRA_NAMES.items() if mask >> EXTRAS.index(c) & 1)
            or "none"
        )
    if seed is None:
        raise BadInput("missing --seed (or --study and --case); expected the game's seed")
    play_seed = None
    if game is not None:
        # game N of `play --seed SEED` is word N-1 of game_seeds(SEED, ...), whatever its --games
        _check_seed(seed)
        play_seed, seed = seed, int(run_seeds(seed, game - 1, game)[0])
    extras_t = _parse_extras(extras, players)
    rules_obj = parse_rules(rules_text(rules_spec, rule_pairs))
    by_role = parse_agents(agents)
    _check_seed(seed)
    turns = []

    def on_turn(state, player, action):
        move = action_text(action)
        a = decode(action)
        if a.kind == "move":  # the moved card now ends its new line: name it
            moved = CARD_NAMES[state.lines[a.dst][-1].card]
            move = move.replace(f"card {a.index + 1} ", f"{moved} (card {a.index + 1}) ")
        turns.append(
            {
                "turn": len(turns) + 1,
                "seat": player + 1,
                "action": action,
                "move": move,
                "lines": [line_text(line) for line in state.lines],
                "eliminated": [p + 1 for p in state.eliminations],
            }
        )

    deal = prepare(players, seed, rules_obj, extras_t)
    g = play_game(players, seed, rules_obj, by_role, extras_t, on_turn=on_turn)
    r = g.result
    end = {
        "outcome": OUTCOME_NAMES[r.outcome],
        "termination": r.termination,
        "chaos": r.chaos,
        "chaos_locations": r.chaos_locations,
        "escape": r.escape,
        "bombing": r.bombing,
        "survival": r.survival,
        "killed": [CARD_NAMES[c] for c in r.killed],
        "winners": [p + 1 for p in winners(g)],
    }
    if as_json:
        click.echo(
            json.dumps(
                {
                    "seed": seed,
                    "game": game,
                    "play_seed": play_seed,
                    "players": players,
                    "rules": rules_obj.as_dict(),
                    "characters": [CARD_NAMES[c] for c in deal.characters],
                    "hands": [
                        {CARD_NAMES[c]: n for c, n in zip(Card, h, strict=True) if n}
                        for h in deal.hands
                    ],
                    "turns": turns,
                    "end": end,
                    **json_record(seed, rules_obj.as_dict(), CARDS),
                },
                indent=2,
            )
        )
        return
    if game is not None:
        click.echo(f"Game {game} of `bomber play --seed {play_seed}` (its seed {seed})")
    click.echo(f"Catch the Bomber, seed {seed}, {players} players, agents {agents}")
    click.echo(f"rules: {rules_obj.text()}")
    for p in range(players):
        hand = ", ".join(
            f"{CARD_SHORT[c]}x{n}" for c, n in zip(Card, deal.hands[p], strict=True) if n
        )
        click.echo(f"  seat {p + 1}: {CARD_NAMES[deal.characters[p]]:<18} hand {hand}")
    seen_out: set[int] = set()
    for t in turns:
        click.echo(f"\nturn {t['turn']}: seat {t['seat']} {t['move']}")
        for loc, text in enumerate(t["lines"]):
            click.echo(f"  {LOCATION_NAMES[loc]:<7}{text}")
        for p in t["eliminated"]:
            if p not in seen_out:
                seen_out.add(p)
                click.echo(f"  seat {p} has no possible action: loses and leaves play")
    click.echo(f"\nend ({r.termination}): {end['outcome']}")
    click.echo(
        f"  Chaos {'unlocked' if r.chaos else 'failed'} ({r.chaos_locations} locations "
        f"with a face up Citizen); Escape {'unlocked' if r.escape else 'failed'}; "
        f"Bombing {'unlocked' if r.bombing else 'failed'}; "
        f"Survival {'yes' if r.survival else 'no'}"
    )
    won = ", ".join(str(w) for w in end["winners"]) or "none"
    click.echo(f"  killed: {', '.join(end['killed']) or 'nobody'}; winners: seats {won}")


@bomber.command()
@click.option(
    "--part",
    default="players",
    show_default=True,
    help="players (by player count), extras (by extra characters), readings (rule readings).",
)
@click.option("--agents", default="random", show_default=True, help=AGENT_HELP)
@click.option(
    "--games",
    "-n",
    type=int,
    default=5000,
    show_default=True,
    help="Games per cell (per row: player count, extras or reading).",
)
@click.option("--seed", type=SEED, default=1, show_default=True, help="Root seed.")
@click.option("--players", type=int, default=None, help="Only this player count.")
@rule_option
@click.option("--json", "as_json", is_flag=True, help="Print the summary table as JSON.")
@study_options(default_chunk=500)
def study(
    part, agents, games, seed, players, rule_pairs, as_json, out, workers, scheduler, chunk_size
):
    """Run a balance study on the shared runner; write tables and charts into --out.

    Outcome rates (Bomber, Police, draw, sole victory) with Wilson 95% intervals per
    row, and which achievements carry the Bomber's victories. Re-run the same command
    into the same folder to resume. --rule plays every row of the parts players and
    extras under that reading (each row's label names it); the part readings plays
    every reading and takes no --rule.

    \b
    Examples:
      bombsolve bomber study --part extras --agents heuristic --games 400 --seed 42 --out ex
      bombsolve bomber study --part players --rule dog=forbid --games 400 --seed 42 --out dog
    """
    from bombsolve.solvers.bomber import (
        PARTS,
        agents_label,
        check_part_folder,
        collect_part,
        conditions,
        make_study,
        parse_agents,
        parse_rules,
        write_part,
    )
    from bombsolve.solvers.common.runner import load_manifest, run_study

    if part not in PARTS:
        raise unknown("study part", part, PARTS)
    rules_obj = parse_rules(rules_text(None, rule_pairs))
    conds = conditions(part, players, rules_obj)  # refuses --rule with part readings
    _check_seed(seed)
    label = agents_label(parse_agents(agents))
    if games < 1:
        raise BadInput(f"--games {games} is not positive; expected 1 or more")
    # --games is per cell; the study (and its identity) counts the games over all rows
    st = make_study(part, agents, games * len(conds), seed, chunk_size, players, rules_obj)
    from bombsolve.cli.warmup import ensure_compiled

    ensure_compiled("bomber")  # once here, not in every worker; says so first when cold
    check_part_folder(out, part)  # before anything is written
    df = run_study(st, Path(out) / label, workers=workers, scheduler=scheduler,
                   command=command_line())  # fmt: skip
    # Rows of other agents' studies of this part in the same folder join the charts.
    frames, manifests = collect_part(out, part)
    frames[label], manifests[label] = df, load_manifest(Path(out) / label)
    summaries = write_part(out, part, frames, manifests)
    table = summaries[label]
    if as_json:
        rows = json.loads(table.to_json(orient="records"))
        for r in rows:  # the Bomber's victories, as in the text table
            r.update(n=r["games"], rate=r["bomber"], lo=r["bomber_lo"], hi=r["bomber_hi"])
        rules = {c["label"]: c["rules"] for c in conds}
        doc = {"part": part, "agents": label, "games_per_cell": games, "rows": rows}
        doc.update(json_record(seed, rules, CARDS))
        click.echo(json.dumps(doc, indent=2))
        return
    click.echo(f"bomber.{part}: agents {label}, {games:,} games per cell, seed {seed} -> {out}")
    for _, r in table.iterrows():
        click.echo(
            f"  {r['condition']:<24} N={r['games']:>7,}  Bomber {r['bomber']:6.1%} "
            f"[{r['bomber_lo']:.1%}, {r['bomber_hi']:.1%}]  Police {r['police']:6.1%}  "
            f"draw {r['draw']:5.1%}  sole {r['sole']:5.1%}"
        )


# The shared --chunk-size option has one fixed default; here it depends on the engine
# (kernel games are ~1000x cheaper), so let the study choose when the user does not.
for _param in study.params:
    if _param.name == "chunk_size":
        _param.default = None
        _param.show_default = False
        _param.help = (
            "Cases per chunk (part of the study's identity); default 50,000 when every "
            "agent is random (kernel), else 500."
        )
