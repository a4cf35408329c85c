"""`bombsolve allisbomb exhaust --blitz`: decide every Blitz deal once (or a uniform sample).

Attached to the `allisbomb` group by `bombsolve.cli.main`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import click

from bombsolve.cli.common import SEED, command_line, count_range, rule_option, study_options
from bombsolve.solvers.common.errors import BadInput


@click.command(name="exhaust")
@click.option(
    "--blitz",
    is_flag=True,
    required=True,
    help="The Blitz variant (13 cards; the only one whose every deal is within reach).",
)
@click.option(
    "--ranks",
    default=None,
    metavar="A:B",
    help="Only the deals of ranks A (included) to B (excluded); default: all 1,037,836,800.",
)
@click.option(
    "--groups",
    default=None,
    metavar="A:B",
    help="Only groups A to B - 1 of the whole count's order (deals sharing their bottom 5 "
    "cards, 6,720 a group; 154,440 groups), searched as the whole count searches them.",
)
@click.option(
    "--sample",
    type=count_range(1),
    default=None,
    help="Decide this many uniform random deals instead (an estimate with its interval).",
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="With --sample: root of its SeedSequence (default 0).",
)
@rule_option
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@study_options(default_chunk=None)
def exhaust(
    blitz, ranks, groups, sample, seed, rule_pairs, as_json, out, workers, scheduler, chunk_size
) -> None:
    """Decide every Blitz deal once and count the winnable ones exactly; resumable.

    A deal is a shuffle with its three EQUIPPED cards taken as a set (their order does not
    matter, rulebook B), so 13!/3! deals stand for all 13! shuffles. Deals are numbered in
    lexicographic order; chunks of ranks run on local processes or a Dask scheduler, and
    the same command re-run resumes. Writes DIR/summary.json when done.

    --rule takes the rule options a Blitz game meets as the count plays them: a solo game
    of base cards meets no GIFT or ALL win condition and no Clean-Up gift (rulebook F, G),
    so gifts_distinct, give_optional and all_any_player take either value (a study of its
    own, the same count); waking_up_rules only as Blitz plays it (false).

    \b
    Examples:
      bombsolve allisbomb exhaust --blitz --out runs/blitz-all
      bombsolve allisbomb exhaust --blitz --ranks 0:1000000 --out runs/blitz-first
      bombsolve allisbomb exhaust --blitz --groups 0:45 --out runs/blitz-groups
      bombsolve allisbomb exhaust --blitz --sample 1000000 --seed 1 --out runs/blitz-sample
    """
    from bombsolve.solvers.allisbomb import exhaust as E
    from bombsolve.solvers.common.files import write_text_atomic
    from bombsolve.solvers.common.runner import run_study

    if not blitz:
        raise BadInput("exhaust decides Blitz deals only; add --blitz")
    from bombsolve.cli.allisbomb_study import rules_played

    config, rules, _ = rules_played(rule_pairs, [E.BLITZ], "exhaust", E.BLITZ)
    chunk = chunk_size or E.DEFAULT_CHUNK
    if groups is not None and (ranks is not None or sample is not None):
        raise BadInput("--groups is a part of the whole count; drop --ranks and --sample")
    if sample is not None:
        if ranks is not None:
            raise BadInput("--sample draws from every deal; drop --ranks or --sample")
        study = E.sample_study(sample, seed or 0, chunk)
        total = sample
    elif seed is not None:
        raise BadInput("--seed is for --sample (the exhaustive count has no randomness)")
    elif groups is not None:
        g0, g1 = E.parse_groups(groups)
        study = E.group_study(chunk, groups=(g0, g1))
        total = (g1 - g0) * E.group_size()
    else:
        first, stop = E.parse_ranks(ranks)
        study = E.exhaust_study(first, stop, chunk)
        total = stop - first
    if config.label() != E.BLITZ.label():  # another reading: a study of its own
        study = replace(study, params={**study.params, "config": config.label()})
    from bombsolve.cli.warmup import ensure_compiled, ensure_sweep

    # once here, not in every worker: the kernel of `decide` and of the escalation, then
    # the shared-table search of the whole count and of --groups
    ensure_sweep()
    if study.chunk_fn is E.group_chunk:
        ensure_compiled("allisbomb", "exhaust")
    rows = run_study(study, out, workers=workers, scheduler=scheduler, command=command_line())
    summary = E.summarize(rows, total, sampled=sample is not None)
    summary["config"] = config.label()
    summary["ranks"] = None if sample is not None or groups is not None else [first, stop]
    summary["groups"] = None if groups is None else [g0, g1]
    if summary.get("hardest"):
        summary["hardest"]["rerun"] = E.rerun_of_rank(config, summary["hardest"]["rank"])
    summary.update(_json_keys(summary, None if sample is None else seed or 0, rules))
    write_text_atomic(Path(out) / "summary.json", json.dumps(summary, indent=1) + "\n")
    if as_json:
        click.echo(json.dumps(summary, indent=1))
        return
    click.echo(_text(summary))


def _json_keys(s: dict, seed: int | None, rules: dict) -> dict:
    """The keys every --json carries (`bombsolve.cli.common.json_record`): `n` deals decided, the win
    `rate` with its interval `lo`..`hi`, the seed (None for a count: nothing is drawn), the
    rules, the cards (the stand-in set version; `provenance` names each set's texts) and
    the code version. A sample's interval is Wilson's at 95%; a count's is exact, from the
    deals won to the deals won or undecided (lo == hi == rate when none is undecided)."""
    from bombsolve.cli.common import json_record

    n = s["deals"]
    out = {"n": n, "rate": s.get("rate"), "lo": s.get("lo"), "hi": s.get("hi")}
    if seed is None and n:
        out["rate"] = out["lo"] = s["wins"] / n
        out["hi"] = (s["wins"] + s["undecided"]) / n
    return {**out, **json_record(seed, rules, s["cards"])}


def _text(s: dict) -> str:
    what = f"{s['deals']:,} Blitz deals (cards {s['provenance']}, set {s['cards']})"
    cost = f"{s['us_per_deal']} us of CPU per deal, {s['positions']:,} positions"
    if s["seed"] is not None:  # a sample (its seed is never None); a count draws nothing
        head = (
            f"{what}, uniform sample: win {s['rate']:.4%} [{s['lo']:.4%}, {s['hi']:.4%}] "
            f"(Wilson 95%), {s['undecided']} undecided"
        )
    elif "fraction" in s:
        reduced = "" if s["fraction_reduced"] == s["fraction"] else f"{s['fraction_reduced']} = "
        head = f"{what}: {s['fraction']} winnable ({reduced}{s['rate']:.6%})"
    else:
        head = f"{what}: {s['wins']:,} won, {s['losses']:,} lost, {s['undecided']:,} undecided"
    hard = s.get("hardest")
    tail = (
        f"; hardest deal: rank {hard['rank']} of the count's deals ({hard['positions']:,} "
        f"positions in the count's search, whose table is shared across deals; alone, as a "
        f"shuffle of its own rank: {hard['rerun']})"
        if hard
        else ""
    )
    return f"{head}\n{cost}{tail}"
