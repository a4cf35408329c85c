"""Card sensitivity of All Is Bomb: which card moves the win rate (rulebook C, D, E).

The study deals N uniform shuffles of a game and decides every deal under the game's cards
and under each single edit of them (`edits.all_edits`: one copy fewer, a NUMBER one up or
one down, one step of a CARD ACTION dropped), or under one edited card file
(``--variant``). Because every edit is played on the same deals, the win-rate change is a
paired difference: its 95% interval (`bombsolve.solvers.common.paired`, Tango's score interval) only
pays for the deals whose verdict changed, and a designer can open each of them.

Case ``k`` is one deal: ``np.random.default_rng(seed_k).permutation(n)`` with the case's
own seed (`ChunkSpec.case_seeds`), the same deal a sweep with that seed plays (``bombsolve
allisbomb --seed S`` opens it). An edit that removes or adds cards carries the deal over
with `edits.pair_deck`, drawing any insertion from ``default_rng([seed_k, j])`` for edit
``j`` (1-based). Players: ``perfect`` (the solver; undecided at the node limit), or the
deterministic ``lookahead`` and ``greedy`` players of `bombsolve.solvers.allisbomb.search.agents`.

Rows (`ROW_COLUMNS`): one per deal and card set (``edit`` = ``base`` or an edit's key):
outcome code (1 win, 0 loss, 2 undecided), positions searched, and the deal's permutation
rank under that card set (kept for the base and wherever the verdict differs from it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import DEFAULT_CARDS, UNVERSIONED_CARDS, Options
from bombsolve.solvers.allisbomb.rules.commands import rerun_command
from bombsolve.solvers.allisbomb.rules.deals import rank
from bombsolve.solvers.allisbomb.rules.rules import new_game
from bombsolve.solvers.allisbomb.search.agents import (
    DEFAULT_BUDGET,
    DEFAULT_WEIGHTS,
    Budget,
    Weights,
    play_greedy,
    play_lookahead,
)
from bombsolve.solvers.allisbomb.search.solver import DEFAULT_NODE_LIMIT, solve_batch
from bombsolve.solvers.allisbomb.studies.edits import (
    Edit,
    all_edits,
    card_file_text,
    describe,
    edited_cards,
    edited_config,
    pair_deck,
    source_kinds,
    touches_rulebook,
)
from bombsolve.solvers.allisbomb.studies.study import config_from_params, config_to_params
from bombsolve.solvers.common.errors import BadInput, unknown
from bombsolve.solvers.common.multiplicity import ALPHA, benjamini_hochberg, holm, survivors_note
from bombsolve.solvers.common.paired import METHOD, paired_difference, paired_p_value
from bombsolve.solvers.common.runner import ChunkSpec, Study, computed_by
from bombsolve.solvers.common.stats import wilson_undecided

PLAYERS = ("perfect", "lookahead", "greedy")
BASE = "base"
ROW_COLUMNS = ("case", "seed", "edit", "outcome", "nodes", "rank")
OUTCOME_NAME = {1: "win", 0: "loss", 2: "undecided"}
#: Deals per chunk by player: a chunk of the perfect player is a few seconds of solving.
CHUNK_SIZE = {"perfect": 250, "greedy": 50, "lookahead": 5}


def _play(
    player: str, config: Options, decks: np.ndarray, params: Mapping[str, Any]
) -> tuple[np.ndarray, np.ndarray]:
    """Return (outcome codes, positions searched) of `player` on each deal of `config`."""
    if player == "perfect":
        out = solve_batch(config, decks, node_limit=int(params["node_limit"]))
        return out["code"].copy(), out["nodes"].copy()
    cs = load_cards(config)
    codes = np.zeros(len(decks), np.int64)
    if player == "lookahead":
        look = params["lookahead"]
        budget, weights = Budget(**look["budget"]), Weights(**look["weights"])
        for i, deck in enumerate(decks):
            codes[i] = play_lookahead(new_game(cs, deck.tolist()), budget, weights)
    else:
        for i, deck in enumerate(decks):
            codes[i] = play_greedy(new_game(cs, deck.tolist()))
    return codes, np.full(len(decks), -1, np.int64)


def sensitivity_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Decide the chunk's deals under the base cards and every edit (the runner's chunk fn)."""
    config = config_from_params(params["config"])
    base = load_cards(config)
    player = params["player"]
    seeds = chunk.case_seeds()
    cases = np.arange(chunk.start, chunk.stop, dtype=np.int64)
    decks = np.stack([np.random.default_rng(int(s)).permutation(base.n) for s in seeds])
    base_code, base_nodes = _play(player, config, decks, params)
    frames = [
        pd.DataFrame(
            {
                "case": cases,
                "seed": seeds,
                "edit": BASE,
                "outcome": base_code,
                "nodes": base_nodes,
                "rank": [str(rank(d)) for d in decks],
            }
        )
    ]
    for j, entry in enumerate(params["edits"], start=1):
        edit = Edit(**entry["edit"])
        other_config = edited_config(config, edit)
        other = load_cards(other_config)
        same = other.labels == base.labels
        other_decks = (
            decks
            if same
            else np.stack(
                [
                    pair_deck(base, other, d, np.random.default_rng([int(s), j]))
                    for d, s in zip(decks, seeds, strict=True)
                ]
            )
        )
        code, nodes = _play(player, other_config, other_decks, params)
        ranks = [
            str(rank(d)) if c != b else ""
            for d, c, b in zip(other_decks, code, base_code, strict=True)
        ]
        frames.append(
            pd.DataFrame(
                {
                    "case": cases,
                    "seed": seeds,
                    "edit": entry["key"],
                    "outcome": code,
                    "nodes": nodes,
                    "rank": ranks,
                }
            )
        )
    df = pd.concat(frames, ignore_index=True)
    df["outcome"] = df["outcome"].astype("int8")
    return df


# The name every study of it records (runner.chunk_name), from before the rooms.
sensitivity_chunk.study_name = "solvers.allisbomb.sensitivity.sensitivity_chunk"  # type: ignore[attr-defined]


def sensitivity_estimate(df: pd.DataFrame) -> str:
    """The running estimate on the progress bar: the base game's win rate so far."""
    b = df[df["edit"] == BASE]
    wins, und = int((b["outcome"] == 1).sum()), int((b["outcome"] == 2).sum())
    lo, hi = wilson_undecided(wins, und, len(b))
    return f"base win {wins / len(b):.1%} [{lo:.1%}, {hi:.1%}] on {len(b)} deals"


def sensitivity_study(
    config: Options,
    deals: int,
    seed: int,
    player: str = "perfect",
    node_limit: int = DEFAULT_NODE_LIMIT,
    variant: Path | None = None,
    chunk_size: int | None = None,
    budget: Budget = DEFAULT_BUDGET,
    weights: Weights = DEFAULT_WEIGHTS,
    only: Sequence[str] = (),
) -> Study:
    """Build the sensitivity study of `config`'s cards for `runner.run_study` (module doc).

    With `variant` (a card file read like ``--cards``) the study compares that card set with
    the base one instead of trying every single edit; `only` keeps the edits with these keys
    (`edits.Edit.key`, e.g. 'GUARDIAN/passive/number+1'), refusing an unknown one. Every edited card file is written and
    read back before the study starts, so a bad edit is refused before any deal is solved.
    """
    if player not in PLAYERS:
        raise unknown("player", player, PLAYERS)
    if deals < 1:
        raise BadInput(f"--deals {deals} is not positive; expected 1 or more")
    config = config.validate()
    if config.removed or config.extra_sets:
        raise BadInput("sensitivity studies one game, not a campaign game; drop removed cards")
    cs = load_cards(config)
    if variant is not None:
        edits = [Edit("file", path=str(Path(variant).resolve()))]
    else:
        edits = all_edits(cs)
    if only:
        keys = {e.key: e for e in edits}
        for key in only:
            if key not in keys:
                raise unknown("edit", key, keys)
        edits = [e for e in edits if e.key in set(only)]
    entries = []
    for edit in edits:
        load_cards(edited_config(config, edit))  # refuses a card set the loader refuses
        entries.append(
            {
                "edit": edit.to_dict(),
                "key": edit.key,
                "what": describe(edit, cs),
                "rulebook_fact": touches_rulebook(edit, cs),
            }
        )
    files = list(cs.files)
    if variant is not None:
        files.append(Path(variant))
    params: dict[str, Any] = {
        "config": config_to_params(config),
        "label": config.label(),
        "stand_in": cs.is_stand_in(),
        "deals": int(deals),
        "player": player,
        "edits": entries,
        "interval": METHOD,
    }
    if player == "perfect":
        params["node_limit"] = int(node_limit)
    if player == "lookahead":
        params["lookahead"] = {"budget": asdict(budget), "weights": asdict(weights)}
    return Study(
        name="allisbomb.sensitivity",
        params=params,
        n_cases=int(deals),
        seed=int(seed),
        chunk_fn=sensitivity_chunk,
        chunk_size=int(chunk_size or CHUNK_SIZE[player]),
        input_files=files,
        progress_fn=sensitivity_estimate,
    )


# --- tables ---------------------------------------------------------------------------------


def _outcomes(rows: pd.DataFrame) -> pd.DataFrame:
    """Outcome codes as a table: one row per case, one column per card set."""
    return rows.pivot(index="case", columns="edit", values="outcome")


def effects(rows: pd.DataFrame, params: Mapping[str, Any]) -> pd.DataFrame:
    """One row per edit: both win rates, the paired difference and its interval, the flips.

    `diff` = edited - base win rate; `lo`/`hi` its 95% interval (`params['interval']`),
    undecided deals counted against the claim at each end; `to_win`/`to_loss` the decided
    deals whose verdict flipped; `p_value` the two-sided p-value of no change that interval
    inverts, and whether the edit survives a correction for trying every edit at once
    (`bombsolve.solvers.common.multiplicity`): `holm` (family-wise error 5%) and `bh`
    (Benjamini-Hochberg, false discovery rate 5%). Sorted as the study lists its edits.
    """
    wide = _outcomes(rows)
    base = wide[BASE].to_numpy()
    recs = []
    for entry in params["edits"]:
        other = wide[entry["key"]].to_numpy()
        table = [[int(((base == x) & (other == y)).sum()) for y in (0, 1, 2)] for x in (0, 1, 2)]
        pdiff = paired_difference(table)
        p_value = paired_p_value(table)
        e = entry["edit"]
        recs.append(
            {
                "edit": entry["key"],
                "what": entry["what"],
                "kind": e["kind"],
                "card": e["label"],
                "side": e["side"],
                "rulebook_fact": bool(entry["rulebook_fact"]),
                "deals": pdiff.n,
                "base_rate": pdiff.first_wins / pdiff.n,
                "edited_rate": pdiff.second_wins / pdiff.n,
                "diff": pdiff.diff,
                "lo": pdiff.lo,
                "hi": pdiff.hi,
                "to_win": pdiff.lost_to_won,
                "to_loss": pdiff.won_to_lost,
                "base_undecided": pdiff.first_undecided,
                "edited_undecided": pdiff.second_undecided,
                "p_value": p_value,
            }
        )
    df = pd.DataFrame(recs)
    if len(df):
        df["holm"] = holm(df["p_value"])
        df["bh"] = benjamini_hochberg(df["p_value"])
    return df


def correction_note(effects_df: pd.DataFrame) -> str:
    """The words on the multiplicity correction under every table or chart of the effects:
    how many survive Holm's and Benjamini-Hochberg's, over all the edits tried."""
    n = len(effects_df)
    if "holm" not in effects_df.columns or n < 2:
        return ""  # one comparison (a --variant file) needs no correction
    holm_kept = int(effects_df["holm"].sum())
    bh_kept = int(effects_df["bh"].sum())
    raw = int((effects_df["p_value"] < ALPHA).sum())
    return (
        f"{n:,} edits tried at once, so about {ALPHA * n:.1f} of their 95% intervals exclude 0 "
        f"by chance alone ({raw:,} do); marked: {survivors_note(holm_kept, n)}; "
        f"{survivors_note(bh_kept, n, 'bh')}"
    )


def pp(value: float) -> str:
    """A difference of rates in percentage points, with the decimals a 1-in-2,000 flip
    needs: 0.0005 -> '+0.05'."""
    return f"{100 * value:+.2f}"


def effects_table(effects_df: pd.DataFrame) -> pd.DataFrame:
    """The effects as a reader's table: percents, the change in points with its interval,
    and whether it survives Holm's correction (the largest changes first)."""
    df = effects_df.assign(size=effects_df["diff"].abs()).sort_values(
        ["size", "edit"], ascending=[False, True], kind="stable"
    )
    holm_mark = df["holm"] if "holm" in df.columns else pd.Series(False, index=df.index)
    return pd.DataFrame(
        {
            "edit": [
                w + (" *" if r else "")
                for w, r in zip(df["what"], df["rulebook_fact"], strict=True)
            ],
            "base win rate": [f"{100 * v:.2f}%" for v in df["base_rate"]],
            "edited win rate": [f"{100 * v:.2f}%" for v in df["edited_rate"]],
            "change, points [95% CI]": [
                f"{pp(d)} [{pp(lo)}, {pp(hi)}]"
                for d, lo, hi in zip(df["diff"], df["lo"], df["hi"], strict=True)
            ],
            "p": [_p_text(p) for p in df["p_value"]] if "p_value" in df.columns else "",
            "survives Holm (5%)": ["yes" if k else "" for k in holm_mark],
            "deals to win": df["to_win"].to_numpy(),
            "deals to loss": df["to_loss"].to_numpy(),
            "edited undecided": df["edited_undecided"].to_numpy(),
        }
    )


def _p_text(p: float) -> str:
    """A p-value without scientific notation: '0.0312', '< 0.0001'."""
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def card_file_name(key: str) -> str:
    """A file name for an edit's card file, e.g. 'GUARDIAN_passive_number+1.toml'."""
    return key.replace("/", "_").replace(" ", "-").replace(":", "-") + ".toml"


#: The card file, in the report's cards/ folder, holding every set of the base game whole.
BASE_CARDS_FILE = "base-cards.toml"


def variant_file_name(edit: Edit) -> str:
    """The name of a `--variant` file made whole (every set of the game) in cards/."""
    return f"variant-{Path(edit.path).stem}.toml"


def needs_whole_file(config: Options) -> bool:
    """True if no single ``--cards`` value opens `config`'s cards.

    A card file defines some sets and the game's set version (`Options.cards_version`)
    gives the others; ``--cards`` takes a version or a file, so a file played on a version
    other than the default one can only be opened from a file holding every set.
    """
    return config.cards_file is not None and config.cards_version != DEFAULT_CARDS


def whole_card_file(config: Options, title: str) -> str:
    """`config`'s cards as one card file defining every set in play (opens with ``--cards``)."""
    return card_file_text(source_kinds(config), title)


def _cards_value(config: Options, cards_dir: str, whole_name: str) -> str:
    """The ``--cards`` value that opens `config`'s cards ('' for the default set)."""
    if config.cards_file is None:
        return "" if config.cards_version == DEFAULT_CARDS else config.cards_version
    if needs_whole_file(config):
        return f"{cards_dir}/{whole_name}"
    return str(config.cards_file)


def _open(config: Options, rank_text: str, cards: str) -> str:
    """The command that opens one deal: `bombsolve allisbomb --rank R [flags] [--cards F]`."""
    command = rerun_command(config, rank_text, cards=cards)
    if command is None:  # a sensitivity study plays no campaign game
        raise BadInput(f"no command line plays {config.label()}")
    return command


def flips(rows: pd.DataFrame, params: Mapping[str, Any], cards_dir: str = "cards") -> pd.DataFrame:
    """Every deal whose decided verdict flipped under an edit, with the commands that open it.

    `open_edited` names the edit's card file in `cards_dir` (written by `write_report`), or
    the `--variant` file itself; a card file played on a set version other than the default
    one is opened from its cards made whole (`needs_whole_file`), also in `cards_dir`.
    """
    config = config_from_params(params["config"])
    base_cards = _cards_value(config, cards_dir, BASE_CARDS_FILE)
    b = rows[rows["edit"] == BASE].set_index("case")
    out = []
    for entry in params["edits"]:
        e = rows[rows["edit"] == entry["key"]].set_index("case")
        bo, eo = b["outcome"], e["outcome"].reindex(b.index)
        hit = (bo != eo) & (bo != 2) & (eo != 2)
        edit = Edit(**entry["edit"])
        cards = (
            _cards_value(
                replace(config, cards_file=Path(edit.path)), cards_dir, variant_file_name(edit)
            )
            if edit.kind == "file"
            else f"{cards_dir}/{card_file_name(entry['key'])}"
        )
        # A single edit is played as nonstandard (edits.edited_config); so is its opening.
        edited = config if edit.kind == "file" else replace(config, allow_nonstandard=True)
        for case in b.index[hit.to_numpy()]:
            out.append(
                {
                    "edit": entry["key"],
                    "case": int(case),
                    "seed": int(b.at[case, "seed"]),
                    "base": OUTCOME_NAME[int(bo[case])],
                    "edited": OUTCOME_NAME[int(eo[case])],
                    "base_rank": b.at[case, "rank"],
                    "edited_rank": e.at[case, "rank"],
                    "open_base": _open(config, b.at[case, "rank"], base_cards),
                    "open_edited": _open(edited, e.at[case, "rank"], cards),
                }
            )
    columns = [
        "edit",
        "case",
        "seed",
        "base",
        "edited",
        "base_rank",
        "edited_rank",
        "open_base",
        "open_edited",
    ]
    return pd.DataFrame(out, columns=columns)


def caption(manifest: Mapping[str, Any]) -> str:
    """The provenance line under the tornado chart and its tables."""
    ident = manifest["identity"]
    p = ident["params"]
    version = p["config"].get("cards_version", UNVERSIONED_CARDS)
    cards = (
        f"STAND-IN card texts (bombsolve's own, not the printed cards), set {version}"
        if p["stand_in"]
        else "card texts from the user's card file"
    )
    player = {
        "perfect": f"perfect play (exhaustive search, node limit {p.get('node_limit', 0):,})",
        "greedy": "the greedy player",
        "lookahead": "the lookahead player"
        + (
            f" ({p['lookahead']['budget']['depth']} turns, <= "
            f"{p['lookahead']['budget']['positions']} positions/move)"
            if "lookahead" in p
            else ""
        ),
    }[p["player"]]
    what = (
        f"each decided under the base cards and under each of {len(p['edits'])} single edits"
        if p["edits"] and p["edits"][0]["edit"]["kind"] != "file"
        else "each decided under the base cards and under the variant card file"
    )
    return (
        f"All Is Bomb, {cards}; {p['label']}; {ident['n_cases']:,} deals (uniform shuffles, "
        f"SeedSequence({ident['seed']}), chunks of {ident['chunk_size']}), {what}; {player}; "
        f"paired difference edited - base with {p['interval']}, 95%, undecided deals counted "
        f"against the claim at each end; rule options at defaults unless the label says "
        f"otherwise; bombsolve {manifest['versions']['bombsolve']} @ {computed_by(manifest)}"
    )


# --- chart and report ---------------------------------------------------------------------

#: Okabe-Ito colours (distinguishable with every common colour-vision deficiency), by edit.
EDIT_COLOURS = {
    "copies": ("#0072B2", "one copy fewer"),
    "number+": ("#E69F00", "NUMBER one up"),
    "number-": ("#56B4E9", "NUMBER one down"),
    "step": ("#CC79A7", "a step dropped"),
    "file": ("#009E73", "variant card file"),
}


def _colour_key(row: pd.Series) -> str:
    if row["kind"] == "number":
        return "number+" if row["edit"].endswith("+1") else "number-"
    return row["kind"]


def _shown(shown: int, of: int) -> str:
    """Which edits a tornado shows, in words: 'the 10 largest of 83', 'all 3 edits',
    'the one edit'."""
    if shown == of:
        return "the one edit" if of == 1 else f"all {of} edits"
    return f"the {shown} largest of {of}"


def _tornado_span(df: pd.DataFrame) -> tuple[float, np.ndarray]:
    """The half-width of the tornado's x axis in points, and which rows run past it.

    The axis covers every interval unless one or two edits dwarf the rest (more than three
    times the next largest reach): then it covers the others, so their bars stay readable.
    """
    if not len(df):
        return 1.0, np.zeros(0, dtype=bool)
    reach = np.abs(df[["lo", "hi"]].to_numpy()).max(axis=1) * 100
    ordered = np.sort(reach)[::-1]
    span = max(float(ordered[0]), 1.0)
    for k in (1, 2):
        if len(ordered) > k and ordered[k] > 0 and ordered[k - 1] > 3 * ordered[k]:
            span = max(float(ordered[k]) * 1.15, 1.0)
            break
    return span, reach > span * 1.08


def tornado(effects_df: pd.DataFrame, out_dir: Path, text: str, top: int = 20) -> list[Path]:
    """Draw the `top` largest win-rate changes as a tornado chart (PNG and SVG)."""
    from bombsolve.solvers.common.plots import new_figure, save_chart

    df = effects_df.assign(size=effects_df["diff"].abs()).sort_values(
        ["size", "edit"], ascending=[False, True], kind="stable"
    )
    df = df.head(top).iloc[::-1]
    labels = [w + (" *" if r else "") for w, r in zip(df["what"], df["rulebook_fact"], strict=True)]
    # An edit's name can run to 80 characters: the figure widens with the longest, so the
    # bars keep about 5 inches whatever the labels take.
    longest = max((len(label) for label in labels), default=0)
    fig, ax = new_figure(max(9.0, 7.0 + 0.065 * longest), 1.4 + 0.32 * max(len(df), 1))
    y = np.arange(len(df))
    keys = [_colour_key(r) for _, r in df.iterrows()]
    colours = [EDIT_COLOURS[k][0] for k in keys]
    diff = df["diff"].to_numpy() * 100
    err = [
        np.maximum(diff - df["lo"].to_numpy() * 100, 0),
        np.maximum(df["hi"].to_numpy() * 100 - diff, 0),
    ]
    kept = (
        df["holm"].to_numpy(dtype=bool)
        if correction_note(effects_df)
        else np.ones(len(df), dtype=bool)
    )
    bars = ax.barh(
        y, diff, color=colours, xerr=err, capsize=2.5, error_kw={"lw": 0.9, "ecolor": "#333"}
    )
    for bar, k in zip(bars, kept, strict=True):
        if not k:
            # not a finding once every edit tried is counted: drawn as an outline
            bar.set_alpha(0.35)
            bar.set_hatch("////")
    ax.axvline(0, color="#333", lw=0.8)
    ax.set_yticks(y, labels, fontsize=8)
    span, clipped = _tornado_span(df)
    ax.set_xlim(-span * 1.08, span * 1.08)
    for yi in np.flatnonzero(clipped):
        # A bar past the axis runs off it; its figure is in the value column.
        left = diff[yi] < 0
        ax.text(
            -span * 1.06 if left else span * 1.06,
            yi,
            "\u25c0 off scale" if left else "off scale \u25b6",
            ha="left" if left else "right",
            va="center",
            fontsize=7,
            color="white",
            fontweight="bold",
        )
    # Values in a column right of the axes, clear of bars, whiskers and card names.
    for yi, d, lo, hi, k in zip(y, diff, df["lo"] * 100, df["hi"] * 100, kept, strict=True):
        ax.text(
            1.01,
            yi,
            f"{d:+.2f} [{lo:+.2f}, {hi:+.2f}]" + (" \u2713" if k else ""),
            va="center",
            fontsize=7,
            transform=ax.get_yaxis_transform(),
        )
    ax.grid(axis="x", alpha=0.3)
    ax.grid(axis="y", visible=False)
    base = effects_df["base_rate"].iloc[0] if len(effects_df) else math.nan
    note = correction_note(effects_df)
    ax.set_xlabel(
        "win-rate change, percentage points (edited - base), 95% interval"
        + (
            f"\nsolid, \u2713: survives Holm's correction over all {len(effects_df)} edits "
            "(family-wise error 5%); hatched: does not"
            if note
            else ""
        )
    )
    ax.set_title(
        f"Which card edit moves the win rate most: {_shown(len(df), len(effects_df))} "
        f"(base {base:.1%}; * edits a fact the rulebook fixes)",
        fontsize=9,
        pad=22,
    )
    from matplotlib.patches import Patch

    used = list(dict.fromkeys(keys))
    ax.legend(
        handles=[Patch(color=EDIT_COLOURS[k][0], label=EDIT_COLOURS[k][1]) for k in used],
        fontsize=7,
        loc="lower left",
        bbox_to_anchor=(0.0, 1.0),
        ncol=len(used),
        frameon=False,
    )
    return save_chart(fig, out_dir, "tornado", text)


def write_report(
    rows: pd.DataFrame, manifest: Mapping[str, Any], out_dir: str | Path, top: int = 20
) -> dict[str, Path]:
    """Write the effects table (CSV, Parquet, Markdown), the flips, the edited card files and
    the tornado chart into `out_dir`; return the paths by name."""
    from bombsolve.solvers.allisbomb.studies.report import to_markdown
    from bombsolve.solvers.common.files import atomic_path, write_text_atomic

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    params = manifest["identity"]["params"]
    text = caption(manifest)
    eff = effects(rows, params)
    written: dict[str, Path] = {}
    write_text_atomic(out / "effects.csv", eff.to_csv(index=False))
    with atomic_path(out / "effects.parquet") as tmp:
        eff.to_parquet(tmp, index=False)
    ranked = eff.assign(size=eff["diff"].abs()).sort_values(
        ["size", "edit"], ascending=[False, True]
    )
    shown = ranked.head(top)
    md = (
        f"<!-- {text} -->\n\n"
        + to_markdown(effects_table(shown))
        + "\n"
        + f"Largest {len(shown):,} of {len(eff):,} edits; change in percentage points, "
        "edited - base; * edits a fact the rulebook fixes. " + correction_note(eff) + ".\n"
    )
    write_text_atomic(out / "effects.md", md)
    fl = flips(rows, params)
    write_text_atomic(out / "flips.csv", fl.to_csv(index=False))
    config = config_from_params(params["config"])
    cs = load_cards(config)
    whole = "Written by bombsolve's sensitivity study (solvers/allisbomb/studies/sensitivity.py)."
    if needs_whole_file(config):
        write_text_atomic(
            out / "cards" / BASE_CARDS_FILE,
            whole_card_file(
                config, f"{config.label()}, every set, set {config.cards_version}\n{whole}"
            ),
        )
    for entry in params["edits"]:
        edit = Edit(**entry["edit"])
        if edit.kind == "file":
            variant = replace(config, cards_file=Path(edit.path))
            if needs_whole_file(variant):
                write_text_atomic(
                    out / "cards" / variant_file_name(edit),
                    whole_card_file(
                        variant,
                        f"{config.label()}: {Path(edit.path).name} on set {config.cards_version}, "
                        f"every set\n{whole}",
                    ),
                )
            continue
        write_text_atomic(
            out / "cards" / card_file_name(entry["key"]),
            card_file_text(
                edited_cards(cs, edit),
                f"{config.label()} with one edit: {entry['what']}\n"
                "Written by bombsolve's sensitivity study (solvers/allisbomb/studies/edits.py).",
            ),
        )
    written.update(effects=out / "effects.csv", flips=out / "flips.csv", table=out / "effects.md")
    paths = tornado(eff, out, text, top)
    written["tornado"] = paths[0]
    return written


def headline(effects_df: pd.DataFrame, top: int = 10) -> str:
    """A short text table of the largest effects (for the terminal)."""
    df = effects_df.assign(size=effects_df["diff"].abs()).sort_values(
        ["size", "edit"], ascending=[False, True]
    )
    lines = [
        f"base win rate {effects_df['base_rate'].iloc[0]:.2%} on {effects_df['deals'].iloc[0]:,} deals"
    ]
    for _, r in df.head(top).iterrows():
        mark = "  \u2713 survives Holm" if r.get("holm", False) else ""
        lines.append(
            f"{r['diff'] * 100:+6.2f} pp [{r['lo'] * 100:+.2f}, {r['hi'] * 100:+.2f}]  {r['what']}"
            f"  ({r['to_win']} to win, {r['to_loss']} to loss){mark}"
        )
    note = correction_note(effects_df)
    if note:
        lines.append(note[0].upper() + note[1:] + ".")
    return "\n".join(lines)


__all__: Sequence[str] = [
    "PLAYERS",
    "sensitivity_chunk",
    "sensitivity_study",
    "effects",
    "effects_table",
    "correction_note",
    "flips",
    "caption",
    "tornado",
    "write_report",
    "headline",
]
