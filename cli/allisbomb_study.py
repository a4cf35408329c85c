"""`bombsolve allisbomb sweep | report`: win-rate sweeps and their report (issue 3).

Attached to the `allisbomb` group by `cli.main`.
"""

from __future__ import annotations

from pathlib import Path

import click

from cli.allisbomb import game_options
from cli.common import command_line, study_options
from solvers.common.errors import BadInput


@click.command(name="sweep")
@click.option("--deals", type=click.IntRange(min=1), required=True, help="Deals per configuration.")
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Root of the study's SeedSequence.",
)
@click.option(
    "--matrix",
    is_flag=True,
    help="Every standard configuration: base, base + each expansion, all expansions, "
    "Blitz, two players, each with and without HANDS.",
)
@game_options(hands_flag="--hands/--no-hands")
@click.option(
    "--node-limit",
    type=click.IntRange(min=1),
    default=None,
    help="Positions per deal before 'undecided' (default: the solver's; with --escalate, "
    "the ceiling, default 51,200,000).",
)
@click.option(
    "--escalate",
    is_flag=True,
    help="Decide each deal in passes: first at --first-limit positions, then the undecided "
    "ones again at doubled limits up to --node-limit (the same verdicts, fewer undecided).",
)
@click.option(
    "--first-limit",
    type=click.IntRange(min=1),
    default=200_000,
    show_default=True,
    help="With --escalate: the node limit of the first pass.",
)
@click.option(
    "--heuristic-deals",
    type=click.IntRange(min=0),
    default=1000,
    show_default=True,
    help="Also play the lookahead, greedy and random players on this many deals per configuration.",
)
@click.option("--no-report", is_flag=True, help="Do not write tables and charts at the end.")
@study_options(default_chunk=1000)
def sweep(
    deals,
    seed,
    matrix,
    game,
    node_limit,
    escalate,
    first_limit,
    heuristic_deals,
    no_report,
    out,
    workers,
    scheduler,
    chunk_size,
) -> None:
    """Decide N shuffles per configuration under perfect play; resumable.

    \b
    Examples:
      bombsolve allisbomb sweep --deals 10000 --seed 1 --out runs/base
      bombsolve allisbomb sweep --matrix --deals 100000 --seed 1 --out runs/matrix
      bombsolve allisbomb sweep --matrix --deals 1000 --out runs/m --scheduler tcp://10.0.0.5:8786
      bombsolve allisbomb sweep --expansions gifts,all --deals 1000 --escalate --out runs/hard
    """
    from dataclasses import replace

    from solvers.allisbomb.study import SWEEP_NODE_LIMIT, matrix_configs, sweep_study
    from solvers.common.runner import run_study

    if matrix:
        if game.rules_given():
            raise BadInput(
                "--matrix runs every standard configuration; drop --expansions, "
                "--hands, --blitz and --players"
            )
        configs = matrix_configs()
        if game.cards_file:
            configs = [replace(c, cards_file=Path(game.cards_file)) for c in configs]
    else:
        configs = [game.config()]
    policy = None
    if escalate:
        from solvers.allisbomb.escalate import CEILING, Escalation

        policy = Escalation(first_limit, node_limit or CEILING)
    elif first_limit != 200_000:
        raise BadInput("--first-limit is the first pass of --escalate; add --escalate")
    study = sweep_study(
        configs,
        deals,
        seed,
        node_limit or SWEEP_NODE_LIMIT,
        heuristic_deals,
        chunk_size,
        escalation=policy,
    )
    from cli.warmup import ensure_compiled

    ensure_compiled("allisbomb", "sweep")  # once here, not in every worker
    rows = run_study(study, out, workers=workers, scheduler=scheduler, command=command_line())
    if not no_report:
        _report(Path(out), rows)


@click.command(name="report")
@click.argument("study_dir", type=click.Path(file_okay=False))
def report(study_dir) -> None:
    """Tables (CSV, Markdown) and charts (PNG, SVG) of a finished sweep, into DIR/report.

    \b
    Example:
      bombsolve allisbomb report runs/matrix
    """
    from solvers.common.runner import load_study

    _report(Path(study_dir), load_study(study_dir))


def _report(out: Path, rows) -> None:
    from solvers.allisbomb.report import headline_table, summarize, write_report
    from solvers.allisbomb.study import caption
    from solvers.common.runner import load_manifest

    manifest = load_manifest(out)
    if manifest["identity"]["study"] != "allisbomb.sweep":
        raise BadInput(
            f"{out} holds a {manifest['identity']['study']} study; expected an All Is Bomb sweep"
        )
    labels = manifest["identity"]["params"]["labels"]
    text = caption(manifest)
    write_report(rows, out / "report", text, order=labels)
    click.echo(headline_table(summarize(rows, labels)))
    click.echo(text)
    click.echo(f"tables and charts: {out / 'report'}")


@click.command(name="campaign")
@click.option(
    "--campaigns",
    type=click.IntRange(min=1),
    required=True,
    help="Independent six-game campaigns to play.",
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--players", type=click.IntRange(1, 2), default=1, show_default=True)
@click.option(
    "--node-limit",
    type=click.IntRange(min=1),
    default=2_000_000,
    show_default=True,
    help="Positions per game before it counts as undecided.",
)
@study_options(default_chunk=20)
def campaign(campaigns, seed, players, node_limit, out, workers, scheduler, chunk_size) -> None:
    """Monte Carlo of whole campaigns (rulebook H): score distribution and medal rates.

    \b
    Example:
      bombsolve allisbomb campaign --campaigns 200 --seed 1 --out runs/campaign
    """
    from solvers.allisbomb.report import campaign_caption, write_campaign_report
    from solvers.allisbomb.study import campaign_study
    from solvers.common.runner import load_manifest, run_study

    study = campaign_study(campaigns, seed, players, node_limit, chunk_size)
    from cli.warmup import ensure_compiled

    for part in ("solve", "search"):  # once here, not in every worker
        ensure_compiled("allisbomb", part)
    rows = run_study(study, out, workers=workers, scheduler=scheduler, command=command_line())
    text = campaign_caption(
        load_manifest(out), f"{campaigns:,} campaigns", seed, players, node_limit
    )
    click.echo(write_campaign_report(rows, Path(out) / "report", text))
    click.echo(text)
