"""`bombsolve allisbomb sensitivity`: which card edit moves the win rate, on paired deals.

Attached to the `allisbomb` group by `bombsolve.cli.main`; the study is `bombsolve.solvers.allisbomb.studies.sensitivity`.
"""

from __future__ import annotations

from pathlib import Path

import click

from bombsolve.cli.allisbomb import game_options
from bombsolve.cli.common import SEED, command_line, count_range, study_options


@click.command(name="sensitivity")
@click.option("--deals", "-n", type=count_range(1), required=True, help="Deals to play.")
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Root of the study's SeedSequence.",
)
@click.option(
    "--player",
    type=click.Choice(["perfect", "lookahead", "greedy"]),
    default="perfect",
    show_default=True,
    help="Who plays every deal: the solver, or the lookahead or greedy player.",
)
@game_options()
@click.option(
    "--variant",
    type=click.Path(dir_okay=False),
    default=None,
    help="Compare this card file (read like --cards) with the base cards, instead of "
    "trying every single edit.",
)
@click.option(
    "--edit",
    "only",
    multiple=True,
    metavar="KEY",
    help="Try only this edit (repeatable), e.g. 'GUARDIAN/passive/number+1' "
    "(keys as in effects.csv).",
)
@click.option(
    "--node-limit",
    type=count_range(1),
    default=None,
    help="Perfect play: positions per deal before 'undecided' (default: the solver's).",
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Edits shown in the tornado chart and the Markdown table.",
)
@click.option("--no-report", is_flag=True, help="Do not write tables and charts at the end.")
@study_options(default_chunk=None)
def sensitivity(
    deals,
    seed,
    player,
    game,
    variant,
    only,
    node_limit,
    top,
    no_report,
    out,
    workers,
    scheduler,
    chunk_size,
) -> None:
    """For every card: the win-rate change when one copy goes, a NUMBER moves by one or a
    step is dropped, each paired on the same deals with a 95% interval; resumable.

    Writes DIR/report: effects.csv/.parquet/.md (one row per edit), flips.csv (every deal
    whose verdict flipped, with the commands that open it, to be run in DIR/report), cards/
    (each edit's card file) and tornado.png/.svg. The interval is Tango's score interval for
    paired proportions; undecided deals count against the claim at each end. With many
    edits tried at once some intervals exclude 0 by chance: each edit's p-value says whether
    it survives Holm's correction (family-wise error 5%; marked in the tables, solid in the
    tornado) and Benjamini-Hochberg's (false discovery rate 5%; in effects.csv).

    \b
    Examples:
      bombsolve allisbomb sensitivity --deals 2000 --seed 42 --out runs/sens-base
      bombsolve allisbomb sensitivity --deals 300 --player lookahead --blitz --out runs/sb
      bombsolve allisbomb sensitivity --deals 2000 --variant mine.toml --out runs/mine
    """
    from bombsolve.solvers.allisbomb import DEFAULT_NODE_LIMIT
    from bombsolve.solvers.allisbomb import sensitivity as sens
    from bombsolve.solvers.common.errors import BadInput
    from bombsolve.solvers.common.runner import run_study

    if variant and only:
        raise BadInput("--edit chooses among the single edits; drop it with --variant")
    config = game.config()
    study = sens.sensitivity_study(
        config,
        deals,
        seed,
        player=player,
        node_limit=node_limit or DEFAULT_NODE_LIMIT,
        variant=Path(variant) if variant else None,
        chunk_size=chunk_size,
        only=only,
    )
    if player == "perfect":  # (the lookahead and greedy players run the reference engine)
        from bombsolve.cli.warmup import ensure_extended, ensure_sweep
        from bombsolve.solvers.allisbomb import Edit, edited_config

        configs = [config]
        if variant:
            configs.append(edited_config(config, Edit("file", path=str(Path(variant).resolve()))))
        # once here, not in every worker: the sweep's kernel decides every deal (in its form
        # for card files with extended rows too, when the cards or the variant have them)
        ensure_sweep()
        ensure_extended(configs)
    from bombsolve.cli.allisbomb_study import deals_line

    click.echo(deals_line(seed, study.chunk_size))
    rows = run_study(study, out, workers=workers, scheduler=scheduler, command=command_line())
    if not no_report:
        report(Path(out), rows, top)


def report(out: Path, rows, top: int = 20) -> None:
    """Write DIR/report and print the largest effects."""
    from bombsolve.solvers.allisbomb import sensitivity as sens
    from bombsolve.solvers.common.runner import load_manifest

    manifest = load_manifest(out)
    written = sens.write_report(rows, manifest, out / "report", top)
    click.echo(sens.headline(sens.effects(rows, manifest["identity"]["params"])))
    click.echo(sens.caption(manifest))
    click.echo(f"tables and charts: {written['tornado'].parent}")
