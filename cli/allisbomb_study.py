"""`bombsolve allisbomb sweep | report`: win-rate sweeps and their report.

Attached to the `allisbomb` group by `bombsolve.cli.main`.
"""

from __future__ import annotations

from pathlib import Path

import click

from bombsolve.cli.allisbomb import check_split_limit, game_options, split_limit_option
from bombsolve.cli.common import SEED, command_line, count_range, rule_option, study_options
from bombsolve.solvers.common.errors import BadInput


def _meets(config, name: str) -> bool:
    """Whether a game of `config` reads rule option `name` at all (as the reference engine,
    rules.State, reads them): the GIFTS condition only with GIFTS in play (rulebook G
    "Gifts"); the Clean-Up gift only with two players (rulebook F "Clean-Up"); who equips
    ALL only with ALL in play and two players (rulebook G "All"; alone, the one player
    equips it); which win conditions count in every game (rulebook G/H "Waking Up")."""
    if name == "gifts_distinct":
        return "gifts" in config.expansions
    if name == "give_optional":
        return config.players == 2
    if name == "all_any_player":
        return config.players == 2 and "all" in config.expansions
    return True


def _reading(config, name: str) -> bool:
    """The value rule option `name` has in `config` (waking_up_rules unset follows WAKING UP)."""
    return config.waking_up if name == "waking_up_rules" else bool(getattr(config, name))


def rules_played(pairs, games, command: str, shown):
    """Check the --rule NAME=VALUE texts of a command whose solver plays the fixed
    configurations `games` (it takes no rule option of its own): a value is taken when
    every game that reads the option already plays it so, or no game reads it (then the
    games play the same with either value).

    Return (`shown` with the values set, the four options as {name: value} in it, the
    values given that some game does not read and reads otherwise): the last make a study
    of its own (as `shown`'s label names them), though its games are the same.

    Raises BadInput (one line) on an unknown option or a bad value, and on a value some
    game reads otherwise: the command cannot play it, and does not pretend to.
    """
    from dataclasses import replace

    from bombsolve.solvers.allisbomb import RULE_OPTIONS
    from bombsolve.solvers.common.options import parse_rule_pairs

    values = parse_rule_pairs(pairs, {name: bool for name in RULE_OPTIONS})
    for name, value in values.items():
        read = {_reading(g, name) for g in games if _meets(g, name)}
        if len(read) > 1:
            raise BadInput(
                f"--rule {name}={str(value).lower()}: {command} sets it game by game "
                f"(rulebook H); expected no --rule {name}"
            )
        if read and read != {value}:
            plays = f"{name}={str(not value).lower()}"
            raise BadInput(
                f"--rule {name}={str(value).lower()}: {command} plays {plays} only; "
                f"expected {plays} or no --rule {name}"
            )
    config = replace(shown, **values)
    unread = {n: v for n, v in values.items() if any(_reading(g, n) != v for g in games)}
    return config, {name: _reading(config, name) for name in RULE_OPTIONS}, unread


@click.command(name="sweep")
@click.option("--deals", "-n", type=count_range(1), required=True, help="Deals per configuration.")
@click.option(
    "--seed",
    type=SEED,
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
@click.option(
    "--configs",
    default=None,
    metavar="LIST",
    help="Configurations by their report labels, comma-separated, e.g. "
    "base,base+mosquitos,base+all+hands,blitz,base/2p (--cards applies to each).",
)
@game_options(hands_flag="--hands/--no-hands")
@click.option(
    "--node-limit",
    type=count_range(1),
    default=None,
    help="Positions per deal before 'undecided' (default: the solver's; with --escalate, "
    "the ceiling, default 51,200,000). Given alone, one pass at this limit, also on a card "
    "file with the extended vocabulary.",
)
@click.option(
    "--escalate",
    is_flag=True,
    help="Decide each deal in passes: first at --first-limit positions, then the undecided "
    "ones again at doubled limits up to --node-limit (the same verdicts, fewer undecided). "
    "A card file with the extended vocabulary escalates by default, to 12,000,000, then "
    "splits what is left (at most 21,000,000 positions a deal).",
)
@click.option(
    "--first-limit",
    type=count_range(1),
    default=None,
    help="With --escalate: the node limit of the first pass (default 3,000,000, the "
    "one-pass sweep's limit).",
)
@click.option(
    "--split-depth",
    type=count_range(1),
    default=None,
    help="With --escalate: split the deals still undecided at the ceiling, deciding their "
    "turn's children one by one, each with a search and a table of its own, this many turns "
    "deep (a win behind a first move that leads into a huge loss; off by default, but a "
    "sweep of a card file with the extended vocabulary splits by itself).",
)
@split_limit_option
@click.option(
    "--heuristic-deals",
    type=count_range(0),
    default=0,
    show_default=True,
    help="Also play the lookahead, greedy and random players on this many deals per "
    "configuration, spread evenly over the deals (and so over the chunks).",
)
@click.option("--no-report", is_flag=True, help="Do not write tables and charts at the end.")
@study_options(default_chunk=1000)
def sweep(
    deals,
    seed,
    matrix,
    configs,
    game,
    node_limit,
    escalate,
    first_limit,
    split_depth,
    split_limit,
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
      bombsolve allisbomb sweep --deals 10000 --seed 42 --out runs/base
      bombsolve allisbomb sweep --matrix --deals 100000 --seed 1 --out runs/matrix
      bombsolve allisbomb sweep --configs base,base+mosquitos,blitz --deals 5000 --out runs/three
      bombsolve allisbomb sweep --matrix --deals 1000 --out runs/m --scheduler tcp://10.0.0.5:8786
      bombsolve allisbomb sweep --expansions gifts,all --deals 1000 --escalate --out runs/hard
      bombsolve allisbomb sweep --players 2 --deals 200 --escalate --split-depth 4 --out runs/2p
    """
    from dataclasses import replace

    from bombsolve.solvers.allisbomb import (
        SWEEP_NODE_LIMIT,
        cards_option,
        matrix_configs,
        parse_configs,
        sweep_study,
    )
    from bombsolve.solvers.common.runner import run_study

    if matrix and configs:
        raise BadInput("give --matrix or --configs, not both")
    configs_given = bool(matrix or configs)
    if configs:
        if game.rules_given():
            raise BadInput(
                "--configs names every configuration; drop --expansions, --hands, --blitz "
                "and --players (write them in the labels, e.g. base+mosquitos+hands/2p)"
            )
        configs = parse_configs(configs, game.cards_file)
    elif matrix:
        if game.rules_given():
            raise BadInput(
                "--matrix runs every standard configuration; drop --expansions, "
                "--hands, --blitz and --players"
            )
        configs = matrix_configs()
        if game.cards_file:
            configs = [replace(c, **cards_option(game.cards_file)) for c in configs]
    else:
        configs = [game.config()]  # (warned about as it was built)
    if configs_given:
        from bombsolve.cli.allisbomb import warn_nonstandard

        if game.allow_nonstandard:
            configs = [replace(c, allow_nonstandard=True) for c in configs]
        # each line once, though several configurations may share it
        seen: set[str] = set()
        configs = [warn_nonstandard(c, seen=seen) for c in configs]
    policy = None
    if escalate:
        from bombsolve.solvers.allisbomb import CEILING, FIRST_LIMIT, SPLIT_LIMIT, Escalation

        check_split_limit(split_depth, split_limit)
        policy = Escalation(
            first_limit or FIRST_LIMIT,
            node_limit or CEILING,
            split_depth or 0,
            split_limit or SPLIT_LIMIT,
        )
    elif first_limit is not None:
        raise BadInput("--first-limit is the first pass of --escalate; add --escalate")
    elif split_depth is not None or split_limit is not None:
        raise BadInput("--split-depth splits what the last pass of --escalate left; add --escalate")
    elif node_limit is None:
        policy = _rich_escalation(configs)
    study = sweep_study(
        configs,
        deals,
        seed,
        node_limit or SWEEP_NODE_LIMIT,
        heuristic_deals,
        chunk_size,
        escalation=policy,
    )
    from bombsolve.cli.warmup import ensure_extended, ensure_sweep

    ensure_sweep()  # once here, not in every worker
    ensure_extended(configs)
    click.echo(deals_line(seed, study.chunk_size, len(configs)))
    before = _rows_before(Path(out), study.identity_hash())
    rows = run_study(study, out, workers=workers, scheduler=scheduler, command=command_line())
    if (grew := _grown_line(Path(out), before)) is not None:
        click.echo(grew, err=True)
    if not no_report:
        _report(Path(out), rows)
    left = _undecided_left(rows, out, policy, int(study.params["node_limit"]))
    if left:
        click.echo(left, err=True)


def _rows_before(out: Path, ident: str):
    """The rows a sweep folder holds before a run that may grow it, and how often it has
    grown, for `_grown_line`; None for a new folder, a resume of the same study (identity
    hash `ident`: nothing is read) or a folder that is no study."""
    from bombsolve.solvers.common.runner import MANIFEST, load_manifest, load_study

    if not (out / MANIFEST).is_file():
        return None
    try:
        manifest = load_manifest(out)
        if manifest.get("identity_hash") == ident:
            return None
        return load_study(out, partial=True), len(manifest.get("grown", []))
    except BadInput:
        return None


def _grown_line(out: Path, before) -> str | None:
    """One line when the run grew the sweep in place and searched on its undecided deals
    (a higher ceiling or the split): how many decided rows it kept, how many it searched on."""
    from bombsolve.solvers.common.runner import load_manifest

    if before is None:
        return None
    rows, times = before
    grown = load_manifest(out).get("grown", [])
    if len(grown) <= times or not grown[-1].get("chunks_redone"):
        return None
    open_ = int((rows["outcome"] == "undecided").sum())
    return (
        f"grew {out} in place: kept the rows of the {len(rows) - open_:,} deals decided there, "
        f"searched on the {open_:,} undecided ones"
    )


def _rich_escalation(configs):
    """The escalation a sweep does by itself when one of `configs` has a card file with the
    extended vocabulary (CARDS.md, "Limits"), said on stderr; None for the others, whose
    one pass decides almost every deal."""
    from bombsolve.solvers.allisbomb import RICH_ESCALATION, compiled

    if not any(compiled(c).prog.extended for c in configs):
        return None
    policy = RICH_ESCALATION
    limits = " and then ".join(f"{x:,}" for x in policy.limits()[1:])
    click.echo(
        f"the card file uses the extended vocabulary: deals undecided at {policy.first:,} "
        f"positions are searched again at {limits}, then split {policy.split} turns deep "
        f"(each child with up to {policy.split_limit:,} positions, a deal's children with "
        f"up to {policy.split_total:,} in all; --node-limit N: one pass at N)",
        err=True,
    )
    return policy


#: Options of a sweep's command line that the command finishing it replaces (with their value).
_REPLACED = ("--node-limit", "--out", "--split-depth")
#: Undecided deals few enough for the sweep's last lines to name each one's re-solve.
FEW_LEFT = 10


def _undecided_left(rows, out, policy, node_limit: int) -> str | None:
    """How many deals the sweep left undecided, and the one command that decides them.

    A sweep without a split grows in place: the same command escalating (a one-pass
    sweep's `node_limit` as the first pass), with the ceiling raised to `escalate.CEILING`
    and the split (`--split-depth 4`), into the same folder. The runner keeps each chunk's
    rows, so its decided deals are kept as they are and only the undecided ones are
    searched on, from the limit they reached (`study.sweep_grows`, `Study.keeps_rows`).
    A sweep whose limit no escalation continues (a ceiling that is no doubling of its first
    pass, a one-pass limit whose table an escalation would enlarge) is made again in a
    folder of its own, escalated and split: a deal decided there is decided again at the
    same cost. A sweep already split names each deal's re-solve with a deeper split, or, when
    its split stopped at a bound on its positions, the study's split without the bound. With
    FEW_LEFT or fewer, a second line gives each one's re-solve alone (`--study DIR --case K
    --split-depth 4`, or the study's own split), which costs only that deal."""
    import shlex

    from bombsolve.solvers.allisbomb import CEILING, Escalation, continues_one_pass

    open_ = rows["outcome"] == "undecided"
    und = int(open_.sum())
    if und == 0:
        return None
    head = f"{und:,} of {len(rows):,} deals left undecided"

    def each_alone(*extra: str) -> str:
        """Each open deal's re-solve alone, `extra` options added."""
        return "; ".join(
            shlex.join(["bombsolve", "allisbomb", "--study", str(out), "--case", str(k), *extra])
            for k in rows.loc[open_, "case"].astype(int)
        )

    if policy is not None and policy.split_total:
        # the split stopped at its bound: the same split without it decides more
        text = (
            f"{head} after the escalation and the split (at most {policy.split_total:,} "
            "positions a deal); re-solve one with that split unbounded: "
            f"bombsolve allisbomb --study {shlex.quote(str(out))} --case K"
        )
        if und <= FEW_LEFT:
            text += "\nor, each alone: " + each_alone()
        return text
    if policy is not None and policy.split:
        return (
            f"{head} after the escalation and the split; re-solve one with a deeper split: "
            f"bombsolve allisbomb --study {shlex.quote(str(out))} --case K --split-depth "
            f"{policy.split + 2}"
        )
    if policy is not None:
        first, reached = policy.first, policy.ceiling
        in_place = reached in Escalation(first, max(CEILING, reached)).limits()
    else:  # one pass: the first pass of an escalation from its limit, if it is the same search
        first = reached = node_limit
        in_place = continues_one_pass(first)
    ceiling = max(CEILING, reached)
    # in place: the same --out; else a folder of its own, whose study keeps its identity
    replaced = ("--node-limit", "--split-depth", "--first-limit") if in_place else _REPLACED
    args, words = [], shlex.split(command_line())[1:]
    skip = False
    for w in words:
        if skip:
            skip = False
            continue
        name = w.split("=", 1)[0]
        if name in replaced:
            skip = "=" not in w
            continue
        args.append(w)
    if "--escalate" not in args:
        args.append("--escalate")
    if in_place:
        args += ["--first-limit", str(first), "--node-limit", str(ceiling), "--split-depth", "4"]
        text = (
            f"{head}; to decide them in place (the decided deals are kept, the undecided "
            f"ones searched on from {reached:,} positions up to {ceiling:,}, then "
            "split): " + shlex.join(["bombsolve", *args])
        )
    else:
        if policy is not None:
            args += ["--node-limit", str(ceiling)]
        args += ["--split-depth", "4", "--out", f"{str(out).rstrip('/')}-decided"]
        text = f"{head}; to decide them (the same deals, escalated and split): " + shlex.join(
            ["bombsolve", *args]
        )
    if und <= FEW_LEFT:
        alone = "each alone" if in_place else "without the sweep's decided deals again, each alone"
        text += f"\nor, {alone}: " + each_alone("--split-depth", "4")
    return text


def deals_line(seed: int, chunk_size: int, configs: int = 1) -> str:
    """Which deals a sweep or sensitivity study plays, and why the other command's differ.

    Case k's deal comes from its own seed, drawn from chunk k // chunk_size's child of
    SeedSequence(seed) (`runner.ChunkSpec.case_seeds`), so the chunk size is part of a
    deal's identity. It stays so: a seed per case independent of the chunk would change
    the deals of every committed study.
    """
    same = (
        "a sweep of one configuration and a sensitivity study with the same --seed and "
        "--chunk-size play the same deals"
        if configs == 1
        else "a sweep interleaves its configurations (case k is deal k // "
        f"{configs} of configuration k % {configs}), so their deals differ from a "
        "sensitivity study's"
    )
    return (
        f"deals: seed {seed}, chunks of {chunk_size:,} (case k is dealt from chunk "
        f"k // {chunk_size:,}'s seeds; the chunk size is part of a deal's identity, and "
        f"sweep's default is 1,000, sensitivity's 250 with perfect play): {same}; every row keeps its seed "
        "and rank to re-run it alone"
    )


@click.command(name="report")
@click.argument("study_dirs", nargs=-1, required=True, type=click.Path(file_okay=False))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder for the tables and charts (default: DIR/report; required for several DIRs).",
)
def report(study_dirs, out_dir) -> None:
    """Tables (CSV, Markdown) and charts (PNG, SVG) of finished sweeps, into DIR/report.

    Several DIRs are combined: one table and one set of charts over all their
    configurations (each configuration in one study only), each study's provenance in
    the caption.

    \b
    Examples:
      bombsolve allisbomb report runs/matrix
      bombsolve allisbomb report runs/base runs/hard --out runs/both
    """
    from bombsolve.solvers.common.runner import load_study

    if len(study_dirs) > 1 and out_dir is None:
        raise BadInput(f"{len(study_dirs)} study folders need --out FOLDER for the combined report")
    if len(study_dirs) == 1:
        d = Path(study_dirs[0])
        if _chunks_gone(d):
            _redraw(d, Path(out_dir) if out_dir else None)
            return
        _report(d, load_study(d), Path(out_dir) if out_dir else None)
        return
    _report_many([Path(d) for d in study_dirs], Path(out_dir), load_study)


def _chunks_gone(folder: Path) -> bool:
    """A finished sweep whose chunk files are not there (a committed study keeps its
    manifest and report, not its chunks) but whose report tables are."""
    from bombsolve.solvers.common.runner import CHUNK_DIR, load_manifest

    if not (folder / "report" / "summary.csv").exists():
        return False
    chunks = folder / CHUNK_DIR
    return load_manifest(folder).get("finished") is not None and not (
        chunks.is_dir() and any(chunks.glob("*.parquet"))
    )


def _redraw(folder: Path, report_dir: Path | None = None) -> None:
    """Report a sweep from its earlier report's tables (its chunks are gone)."""
    from bombsolve.solvers.allisbomb import caption, headline_table, redraw_report

    manifest = _sweep_manifest(folder)
    text = caption(manifest)
    target = report_dir or folder / "report"
    with _progress() as step:
        written, missing = redraw_report(folder / "report", text, target, step)
        step("index.html")
        _index_page(target, text, {str(folder): manifest}, skip=missing)
    click.echo(headline_table(_read_table(written["summary"])))
    click.echo(text)
    click.echo(
        f"{folder} keeps no chunks: redrawn from the tables of {folder / 'report'}"
        + (
            f"; not drawn, their per-deal counts are not there: {', '.join(missing)}"
            if missing
            else ""
        ),
        err=True,
    )
    click.echo(f"tables and charts: {target} (a page of them all: {target / 'index.html'})")


def _read_table(path: Path):
    import pandas as pd

    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def _sweep_manifest(folder: Path):
    from bombsolve.solvers.common.runner import load_manifest

    manifest = load_manifest(folder)
    if manifest["identity"]["study"] != "allisbomb.sweep":
        raise BadInput(
            f"{folder} holds a {manifest['identity']['study']} study; expected an All Is Bomb sweep"
        )
    return manifest


def _report(out: Path, rows, report_dir: Path | None = None) -> None:
    from bombsolve.solvers.allisbomb import caption, headline_table, summarize, write_report

    manifest = _sweep_manifest(out)
    labels = manifest["identity"]["params"]["labels"]
    text = caption(manifest)
    target = report_dir or out / "report"
    with _progress() as step:
        write_report(rows, target, text, order=labels, progress=step)
        step("index.html")
        _index_page(target, text, {str(out): manifest})
    click.echo(headline_table(summarize(rows, labels)))
    click.echo(text)
    click.echo(f"tables and charts: {target} (a page of them all: {target / 'index.html'})")


def _report_many(folders: list[Path], target: Path, load) -> None:
    """One report over several sweeps: their rows together, every caption kept."""
    import pandas as pd

    from bombsolve.solvers.allisbomb import caption, headline_table, summarize, write_report

    frames, labels, captions, where, manifests = [], [], [], {}, {}
    for folder in folders:
        manifest = _sweep_manifest(folder)
        manifests[str(folder)] = manifest
        for label in manifest["identity"]["params"]["labels"]:
            if label in where:
                raise BadInput(
                    f"configuration {label} is in both {where[label]} and {folder}; "
                    "expected each configuration in one study"
                )
            where[label] = folder
            labels.append(label)
        rows = load(folder)
        rows.insert(0, "study", str(folder))
        frames.append(rows)
        captions.append(f"{folder}: {caption(manifest)}")
    rows = pd.concat(frames, ignore_index=True)
    text = " | ".join(captions)
    with _progress() as step:
        write_report(rows, target, text, order=labels, progress=step)
        step("index.html")
        _index_page(target, text, manifests)
    click.echo(headline_table(summarize(rows, labels)))
    for line in captions:
        click.echo(line)
    click.echo(f"tables and charts: {target} (a page of them all: {target / 'index.html'})")


def _progress():
    """The report's progress: a bar of its steps on a terminal, a line every 10 s in logs."""
    from bombsolve.cli.progress import StepProgress
    from bombsolve.solvers.allisbomb import REPORT_STEPS

    return StepProgress("report", len(REPORT_STEPS) + 1)


def _index_page(target: Path, text: str, manifests, skip=()) -> None:
    from bombsolve.solvers.allisbomb import write_index_page

    write_index_page(target, text, manifests, skip)


#: Solvitaire's per-deal columns (seed, outcome, time, states searched) first, then ours.
EXPORT_FIRST = ("seed", "rank", "outcome", "seconds", "positions")


@click.command(name="export")
@click.argument("study_dir", type=click.Path(file_okay=False))
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    required=True,
    help="The CSV file to write (one row per deal).",
)
def export(study_dir, csv_path) -> None:
    """Write one CSV row per deal of a sweep: seed, rank, outcome, seconds, positions
    (Solvitaire's columns), then configuration, deal, case, the rest of the row and the
    command that solves the deal again (rerun: its rank with the configuration's options).

    \b
    Example:
      bombsolve allisbomb export runs/base --csv base.csv
    """
    from bombsolve.solvers.allisbomb import config_from_params, rerun_command
    from bombsolve.solvers.common.files import atomic_path
    from bombsolve.solvers.common.runner import load_study

    params = _sweep_manifest(Path(study_dir))["identity"]["params"]
    configs = {}
    for label, c in zip(params["labels"], params["configs"], strict=True):
        try:
            configs[label] = config_from_params(c)
        except BadInput:  # its card file is gone: the rows are exported, without commands
            configs[label] = None
    rows = load_study(study_dir).rename(columns={"nodes": "positions"})
    rows["seed"] = rows["seed"].astype("uint64")
    first = [c for c in EXPORT_FIRST if c in rows.columns]
    ours = ["config", "deal", "case"]
    rows = rows[first + ours + [c for c in rows.columns if c not in first + ours]]
    rows["rerun"] = [
        configs[label] and rerun_command(configs[label], r)
        for label, r in zip(rows["config"], rows["rank"], strict=True)
    ]
    try:
        with atomic_path(csv_path, "--csv", follow=True) as tmp:
            rows.to_csv(tmp, index=False, float_format="%.6g")
    except OSError as exc:
        raise BadInput(
            f"cannot write --csv {csv_path} ({exc.strerror}); expected a writable file"
        ) from None
    click.echo(f"{len(rows):,} deals -> {csv_path}")


@click.command(name="campaign")
@click.option(
    "--campaigns",
    type=count_range(1),
    required=True,
    help="Independent six-game campaigns to play.",
)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--players", type=click.IntRange(1, 2), default=1, show_default=True)
@click.option(
    "--node-limit",
    type=count_range(1),
    default=2_000_000,
    show_default=True,
    help="Positions per game before it counts as undecided.",
)
@click.option(
    "--cards",
    "cards_version",
    default=None,
    metavar="NAME",
    help="The stand-in set version to play: standin-v2 (the default) or standin-v1.",
)
@rule_option
@study_options(default_chunk=20)
def campaign(
    campaigns,
    seed,
    players,
    node_limit,
    cards_version,
    rule_pairs,
    out,
    workers,
    scheduler,
    chunk_size,
) -> None:
    """Monte Carlo of whole campaigns (rulebook H): score distribution and medal rates.

    --rule takes the rule options as the campaign's games play them: WAKING UP's win
    conditions from its game on (rulebook H), the other options at their defaults where a
    game reads them; give_optional and all_any_player take either value in the solo
    campaign (no game reads them: a study of its own, the same games).

    \b
    Example:
      bombsolve allisbomb campaign --campaigns 200 --seed 42 --out runs/campaign
    """
    from dataclasses import replace

    from bombsolve.solvers.allisbomb import (
        campaign_caption,
        campaign_study,
        cards_option,
        write_campaign_report,
    )
    from bombsolve.solvers.common.runner import check_study_folder, load_manifest, run_study

    fields = cards_option(cards_version)
    if fields["cards_file"] is not None:
        raise BadInput(
            f"--cards {cards_version}: Campaign Mode plays a shipped stand-in set; expected "
            "a set version (standin-v1, standin-v2), not a card file"
        )
    from bombsolve.solvers.allisbomb import EXPANSIONS, campaign_config

    games = [
        campaign_config(g, (), players, fields["cards_version"]) for g in range(len(EXPANSIONS))
    ]
    *_, unread = rules_played(rule_pairs, games, "the campaign", games[0])
    study = campaign_study(
        campaigns, seed, players, node_limit, chunk_size, fields["cards_version"]
    )
    if unread:  # values no game reads (`rules_played`): a study of its own
        study = replace(study, params={**study.params, "rules": unread})
    from bombsolve.cli.warmup import ensure_compiled

    check_study_folder(study, out)  # a wrong --out refused before the compile
    for part in ("solve", "keep-most"):  # once here, not in every worker
        ensure_compiled("allisbomb", part)
    rows = run_study(study, out, workers=workers, scheduler=scheduler, command=command_line())
    text = campaign_caption(
        load_manifest(out), f"{campaigns:,} campaigns", seed, players, node_limit
    )
    click.echo(write_campaign_report(rows, Path(out) / "report", text))
    click.echo(text)
