"""All Is Bomb win-rate sweeps on the shared study runner.

A sweep decides N uniformly shuffled deals of each configuration under perfect play.
Case ``k`` of a sweep over configurations ``c_0 .. c_m-1`` is deal ``k // m`` of
configuration ``c_{k % m}`` (the configurations interleaved, `LAYOUT`: every chunk holds
every configuration, and a sweep with a larger N starts with the cases of a smaller one,
so a study grows by adding chunks; sweeps made before the interleaving, whose parameters
have no ``layout``, read case ``k`` as deal ``k % N`` of ``c_{k // N}``); its deck is
``rng.permutation(n)`` for a generator seeded with the case's own seed
(`ChunkSpec.case_seeds`), so any deal can be re-run alone from the ``seed`` or ``rank`` it
records (``bombsolve allisbomb --seed S`` or ``--rank R`` with the same options, or
``bombsolve allisbomb --study DIR --case K``).

One row per deal (`SWEEP_COLUMNS`): configuration, rank, outcome (``win``/``loss``/
``undecided``), nodes, seconds, solution length in turns, loss reason, the first equipped
cards, the starting position of key cards (``pos:LABEL``, 0 = top), and for
``heuristic_deals`` deals of each configuration, spread evenly over the deals
(`heuristic_deal`), whether the lookahead, the greedy and the random player won
(`bombsolve.solvers.allisbomb.search.agents`; the lookahead player's budget and weights are study
parameters). ``seconds`` is the one column that is not reproducible: the solve of one
deal, without the kernel's load (each process solves its first deal of a configuration
once untimed).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import (
    ALIASES,
    CARD_VERSIONS,
    DEFAULT_CARDS,
    EXPANSIONS,
    UNVERSIONED_CARDS,
    Options,
    cards_option,
)
from bombsolve.solvers.allisbomb.rules.deals import rank
from bombsolve.solvers.allisbomb.rules.rules import Ending, new_game
from bombsolve.solvers.allisbomb.search.agents import (
    DEFAULT_BUDGET,
    DEFAULT_WEIGHTS,
    Budget,
    Weights,
    play_greedy,
    play_lookahead,
    play_random,
)
from bombsolve.solvers.allisbomb.search.escalate import (
    Escalation,
    continues_one_pass,
    solve_escalating,
)
from bombsolve.solvers.allisbomb.search.solver import DEFAULT_NODE_LIMIT, solve_batch
from bombsolve.solvers.allisbomb.studies.sweep_caption import caption
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.progress import cases_done
from bombsolve.solvers.common.runner import ChunkSpec, Study
from bombsolve.solvers.common.stats import wilson_undecided

SWEEP_COLUMNS = (
    "case",
    "config",
    "deal",
    "seed",
    "rank",
    "outcome",
    "nodes",
    "seconds",
    "solution_len",
    "loss_reason",
    "equipped",
    "lookahead_win",
    "greedy_win",
    "random_win",
)
OUTCOME_OF_CODE = {1: "win", 0: "loss", 2: "undecided"}
KEY_CARDS = ("PRINCESS", "PROPHET", "CROISSANT", "EGGS", "PANCAKES", "THE JUICE", "THRONE")
#: Node limit of sweeps: a deal the search cannot decide within it is 'undecided'.
SWEEP_NODE_LIMIT = DEFAULT_NODE_LIMIT
#: How the cases of a sweep map to configurations and deals (recorded in its parameters).
LAYOUT = "interleaved"
#: Option names of the sweep's parameters, for refusals that say what differs.
PARAM_WORDS = {
    "deals": "--deals",
    "node_limit": "--node-limit",
    "heuristic_deals": "--heuristic-deals",
    "labels": "the configurations (--configs, --matrix or the game options)",
    "configs": "the configurations' options",
    "players": "the heuristic players' budget or weights",
    "escalation": "--escalate, --first-limit, --split-depth and --split-limit",
    "provenance": "the card texts' provenance (--cards)",
    "layout": "the case layout (a sweep made before configurations were interleaved)",
    "heuristic_spread": "how heuristic deals are chosen (a sweep made before they were spread)",
}


def matrix_configs() -> list[Options]:
    """Every standard configuration, each without and with HANDS.

    Base; base + each expansion alone; all expansions; Blitz; two players. Blitz has no
    HANDS variant: it "uses only the cards from the base set" (rulebook G, "Blitz").
    """
    bases = [Options()]
    bases += [Options(expansions=(e,)) for e in EXPANSIONS]
    bases += [Options(expansions=EXPANSIONS), Options(blitz=True), Options(players=2)]
    out: list[Options] = []
    for c in bases:
        out.append(c)
        if not c.blitz:
            out.append(replace(c, hands=True))
    return out


def config_to_params(c: Options) -> dict[str, Any]:
    """A configuration as JSON-ready study parameters (card file by path)."""
    d = c.to_dict()
    d.pop("label", None)
    return d


def config_from_params(d: Mapping[str, Any]) -> Options:
    """Inverse of `config_to_params`."""
    d = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}
    d.setdefault("cards_version", UNVERSIONED_CARDS)  # made before set versions existed
    if d.get("cards_file"):
        d["cards_file"] = Path(d["cards_file"])
    return Options(**d).validate()


def config_from_label(text: str, cards_file: str | Path | None = None) -> Options:
    """The configuration a report label names, e.g. 'base+mosquitos+hands', 'blitz',
    'base/2p', 'base+all+hands/give-optional' (the inverse of `Options.label`), and
    'base/cards=standin-v1' for a set version (which labels leave out). `cards_file`: the
    `--cards` value, a set version or a card file.

    Raises BadInput naming the part of the label it does not know.
    """
    from bombsolve.solvers.common.errors import unknown

    label = text.strip()
    head, *mods = label.split("/")
    sets = [x.strip().lower() for x in head.split("+")]
    if not sets or sets[0] not in ("base", "blitz"):
        raise BadInput(
            f"configuration {label!r} must start with 'base' or 'blitz'; "
            "expected e.g. base, base+mosquitos, base+all+hands, blitz, base/2p"
        )
    fields: dict[str, Any] = {"blitz": sets[0] == "blitz", **cards_option(cards_file)}
    exps = []
    for name in sets[1:]:
        if name == "hands":
            fields["hands"] = True
            continue
        name = ALIASES.get(name, name.replace("-", "_"))
        if name not in EXPANSIONS:
            raise unknown(f"expansion in configuration {label!r}:", name, (*EXPANSIONS, "hands"))
        exps.append(name)
    fields["expansions"] = tuple(e for e in EXPANSIONS if e in exps)
    flags = {
        "2p": ("players", 2),
        "gift-plays": ("gifts_distinct", False),
        "give-optional": ("give_optional", True),
        "all-own": ("all_any_player", False),
        "waking-up-rules": ("waking_up_rules", True),
        "base-rules": ("waking_up_rules", False),
    }
    for mod in mods:
        key = mod.strip().lower()
        if key.startswith("cards=") and key[6:] in CARD_VERSIONS:
            fields["cards_version"] = key[6:]
            continue
        if key not in flags:
            raise unknown(f"option in configuration {label!r}:", key, tuple(flags))
        name, value = flags[key]
        fields[name] = value
    return Options(**fields).validate()


def parse_configs(text: str, cards_file: str | Path | None = None) -> list[Options]:
    """Configurations from a comma-separated list of labels (``--configs``)."""
    configs = [config_from_label(t, cards_file) for t in text.split(",") if t.strip()]
    if not configs:
        raise BadInput(f"--configs {text!r} names no configuration; expected e.g. base,blitz")
    return configs


def heuristic_deal(deal: np.ndarray | int, deals: int, heuristic_deals: int) -> np.ndarray:
    """Whether each deal is one the heuristic players play: `heuristic_deals` of the
    `deals`, evenly spread (deal d when ``d * H mod N < H``: exactly H of them, every
    (N/H)-th, so they fall in every chunk and a sweep grown with the same ratio H/N keeps
    them)."""
    d = np.asarray(deal, dtype=np.int64)
    return (d * int(heuristic_deals)) % int(deals) < int(heuristic_deals)


def case_layout(params: Mapping[str, Any], cases: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(configuration index, deal) of each case of a sweep with these parameters."""
    m, n = len(params["configs"]), int(params["deals"])
    if params.get("layout") == LAYOUT:
        return cases % m, cases // m
    return cases // n, cases % n


def is_heuristic(params: Mapping[str, Any], deal: np.ndarray) -> np.ndarray:
    """Whether the heuristic players play each deal of a sweep with these parameters."""
    n_heur, n = int(params.get("heuristic_deals", 0)), int(params["deals"])
    if params.get("heuristic_spread"):
        return heuristic_deal(deal, n, n_heur)
    return np.asarray(deal) < n_heur  # sweeps made before the spread: the first H deals


def sweep_grows(old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """None when the sweep `new` (a study identity) extends `old` exactly: the same
    study but for more deals (chunks of equal bounds then hold equal rows); otherwise why
    not, in words."""
    po, pn = old["params"], new["params"]
    if pn.get("layout") != LAYOUT or po.get("layout") != LAYOUT:
        return "only sweeps with interleaved configurations grow"
    size = ("deals", "heuristic_deals", "node_limit", "escalation")
    if {k: v for k, v in po.items() if k not in size} != {
        k: v for k, v in pn.items() if k not in size
    }:
        return (
            "a sweep grows by --deals alone, with --heuristic-deals in proportion, or by a "
            "higher --node-limit with the same --escalate --first-limit"
        )
    if (reason := _ceiling_grows(po, pn)) is not None:
        return reason
    if int(pn["deals"]) < int(po["deals"]):
        return f"--deals {pn['deals']:,} is fewer than the {po['deals']:,} there"
    ho, hn, no, nn = (
        int(x) for x in (po["heuristic_deals"], pn["heuristic_deals"], po["deals"], pn["deals"])
    )
    if ho * nn != hn * no:
        keep = ho * nn / no
        hint = f"--heuristic-deals {keep:,.0f}" if keep == int(keep) else "a new --out"
        return (
            f"--heuristic-deals {hn:,} of {nn:,} deals would move the heuristic players' "
            f"deals ({ho:,} of {no:,} there); expected the same share, e.g. {hint}"
        )
    return None


def _ceiling_grows(po: Mapping[str, Any], pn: Mapping[str, Any]) -> str | None:
    """None when the node limits of sweep parameters `pn` are those of `po` or continue
    them: the same escalation's first pass, a ceiling whose doubling passes include the old
    ceiling (so every deal the old sweep decided is decided by the same passes, with the
    same counts); else why not, in words."""
    eo, en = po.get("escalation"), pn.get("escalation")
    if eo == en and po["node_limit"] == pn["node_limit"]:
        return None
    if not eo and en and en["first"] == po["node_limit"] and continues_one_pass(en["first"]):
        # a one-pass sweep is the first pass of an escalation from its limit (the same
        # search: that pass's table is the one-pass search's own)
        eo = {"first": en["first"], "ceiling": en["first"]}
    if not (eo and en):
        return (
            "only an escalating sweep (--escalate) takes a higher --node-limit in place, or "
            "a one-pass sweep given --escalate with --first-limit its --node-limit"
        )
    if eo["first"] != en["first"]:
        return f"--first-limit {en['first']:,} differs from the {eo['first']:,} there"
    if en["ceiling"] < eo["ceiling"]:
        return (
            f"--node-limit {en['ceiling']:,} is lower than the {eo['ceiling']:,} there; "
            "expected a higher one (a ceiling rises in place, it does not fall)"
        )
    if eo["ceiling"] not in Escalation(**en).limits():
        return (
            f"the passes there end at {eo['ceiling']:,}, which is not a doubling of "
            f"{eo['first']:,}, so no higher --node-limit continues them; expected a new --out"
        )
    split_o = (eo.get("split", 0), eo.get("split_limit"), eo.get("split_total", 0))
    split_n = (en.get("split", 0), en.get("split_limit"), en.get("split_total", 0))
    if split_o[0] and (split_n != split_o or en["ceiling"] != eo["ceiling"]):
        total = f" (at most {split_o[2]:,} positions a deal)" if split_o[2] else ""
        return (
            f"the deals there were split with --split-depth {split_o[0]} "
            f"--split-limit {split_o[1]:,}{total} after the ceiling {eo['ceiling']:,}; "
            "expected the same split and ceiling, or a new --out"
        )
    return None


def sweep_redo(old: Mapping[str, Any], new: Mapping[str, Any], rows: pd.DataFrame) -> bool:
    """Whether a chunk of the sweep `old` is decided again in the sweep `new` that grows it
    (`sweep_grows`): when the ceiling rose, the chunks with an undecided deal (the others'
    rows are what the new passes give), and every chunk when a split is added (its rows
    gain the split's column). The runner hands the chunk its rows (`Study.keeps_rows`):
    only the undecided deals are searched again."""
    eo, en = old["params"].get("escalation"), new["params"].get("escalation")
    if eo == en:
        return False
    gains_split = bool(en and en.get("split")) and "split_searches" not in rows.columns
    gains_passes = bool(en) and "decided_at" not in rows.columns  # one pass, now escalating
    return gains_split or gains_passes or bool((rows["outcome"] == "undecided").any())


def sweep_case(study_dir: str | Path, case: int) -> dict[str, Any]:
    """The configuration, deal number, seed and rank of case `case` of the sweep in
    `study_dir`, recomputed from its manifest exactly as the runner seeded it, and the
    case's row when its chunk is done (else None), and its escalation's split (or None)."""
    from bombsolve.solvers.common.runner import MANIFEST, load_manifest, load_study

    manifest = load_manifest(study_dir)
    ident = manifest["identity"]
    if ident.get("study") != "allisbomb.sweep":
        raise BadInput(
            f"{study_dir}/{MANIFEST} is a {ident.get('study')} study; expected an All Is Bomb sweep"
        )
    n, size, seed = int(ident["n_cases"]), int(ident["chunk_size"]), int(ident["seed"])
    if not 0 <= case < n:
        raise BadInput(f"--case {case} is outside the study's cases 0 to {n - 1}")
    params = ident["params"]
    ci, deal = (int(x[0]) for x in case_layout(params, np.array([case], dtype=np.int64)))
    config = config_from_params(params["configs"][ci])
    index = case // size
    chunk = ChunkSpec(index, index * size, min(index * size + size, n), seed)
    case_seed = int(chunk.case_seeds()[case - chunk.start])
    deck = np.random.default_rng(case_seed).permutation(load_cards(config).n)
    rows = load_study(study_dir, partial=True)
    row = rows[rows["case"] == case]
    return {
        "config": config,
        "deal": deal,
        "seed": case_seed,
        "rank": int(rank(deck)),
        "node_limit": int(params["node_limit"]),
        "split": _split_of(params.get("escalation") or {}),
        "row": None if row.empty else row.iloc[0].to_dict(),
    }


def _split_of(esc: Mapping[str, Any]) -> dict[str, int] | None:
    """The split of a sweep's escalation parameters ({'depth', 'limit'}), None if none."""
    return {"depth": esc["split"], "limit": esc["split_limit"]} if esc.get("split") else None


def reason_text(bits: int) -> str:
    """Loss-reason bits (`rules.Ending`) as text, e.g. 'DREW_TOO_MANY+CYCLE'."""
    return "+".join(e.name for e in Ending if e and bits & e)


def sweep_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Decide the deals of one chunk (the runner's chunk function; see module doc)."""
    configs = [config_from_params(d) for d in params["configs"]]
    node_limit = int(params["node_limit"])
    esc = params.get("escalation")
    policy = Escalation(**esc) if esc else None
    look = params.get("players", {}).get("lookahead")
    budget = Budget(**look["budget"]) if look else DEFAULT_BUDGET
    weights = Weights(**look["weights"]) if look else DEFAULT_WEIGHTS
    cases = np.arange(chunk.start, chunk.stop, dtype=np.int64)
    seeds = chunk.case_seeds()
    config_of, deal_of = case_layout(params, cases)
    frames = []
    for ci in np.unique(config_of):
        sel = config_of == ci
        config = configs[int(ci)]
        cs = load_cards(config)
        rngs = [np.random.default_rng(int(s)) for s in seeds[sel]]
        decks = np.stack([rng.permutation(cs.n).astype(np.int64) for rng in rngs])
        m = len(decks)
        code = np.zeros(m, np.int64)
        nodes = np.zeros(m, np.int64)
        turns = np.zeros(m, np.int64)
        reason = np.zeros(m, np.int64)
        secs = np.zeros(m)
        decided_at = np.zeros(m, np.int64)
        split = np.zeros(m, np.int64)
        kept = _kept_rows(chunk.prior, cases[sel], decks, policy) if policy is not None else []
        if len(kept) < m:
            _warm(config, decks[:1], node_limit, policy)
        for i in range(m):
            row = kept[i] if kept else None
            if row is not None and row["outcome"] != "undecided":
                # decided by a pass this policy runs too, with the same counts
                code[i], nodes[i] = _CODE[row["outcome"]], row["nodes"]
                turns[i] = max(0, int(row["solution_len"]))
                reason[i] = _reason_bits(row["loss_reason"])
                secs[i], decided_at[i] = row["seconds"], row["decided_at"]
                split[i] = row.get("split_searches", 0)
                cases_done()
                continue
            t0 = time.perf_counter()
            if policy is None:
                out = solve_batch(config, decks[i : i + 1], node_limit=node_limit)
            else:
                # an undecided kept row goes on from the ceiling its passes reached
                after = 0 if row is None else int(row["decided_at"])
                out = solve_escalating(config, decks[i : i + 1], policy, after=after)
                decided_at[i] = out["limit"][0]
                split[i] = out["split"][0]
            secs[i] = time.perf_counter() - t0
            code[i], nodes[i], turns[i], reason[i] = (
                out["code"][0],
                out["nodes"][0],
                out["turns"][0],
                out["reason"][0],
            )
            if row is not None:
                nodes[i] += int(row["nodes"])
                secs[i] += float(row["seconds"])
            cases_done()  # a deal of a rich card set can take minutes: say each one
        deal_idx = deal_of[sel]
        heuristic = is_heuristic(params, deal_idx)
        rec: dict[str, Any] = {
            "case": cases[sel],
            "config": config.label(),
            "deal": deal_idx,
            "seed": seeds[sel],
            "rank": [str(rank(d)) for d in decks],
            "outcome": [OUTCOME_OF_CODE[int(c)] for c in code],
            "nodes": nodes,
            "seconds": secs,
            "solution_len": np.where(code == 1, turns, -1),
            "loss_reason": [
                reason_text(int(r)) if c == 0 else "" for c, r in zip(code, reason, strict=True)
            ],
        }
        if policy is not None:  # the node limit of the pass that decided the deal
            rec["decided_at"] = decided_at
        if policy is not None and policy.split:  # children searched by the split (0: none)
            rec["split_searches"] = split
        lookahead = np.full(m, np.nan)
        greedy = np.full(m, np.nan)
        rand = np.full(m, np.nan)
        equipped = []
        for i, deck in enumerate(decks):
            start = new_game(cs, deck.tolist())
            hands = [start.equipped(p) for p in range(config.players)]
            equipped.append(" | ".join(",".join(cs.labels[c] for c in h) for h in hands))
            row = kept[i] if kept else None
            if heuristic[i] and row is not None:
                lookahead[i], greedy[i], rand[i] = (
                    row["lookahead_win"],
                    row["greedy_win"],
                    row["random_win"],
                )
            elif heuristic[i]:
                lookahead[i] = float(play_lookahead(start.copy(), budget, weights))
                greedy[i] = float(play_greedy(start.copy()))
                # The random player's generator continues the deal's own stream.
                rand[i] = float(play_random(start.copy(), rngs[i]))
        rec["equipped"] = equipped
        rec["lookahead_win"] = lookahead
        rec["greedy_win"] = greedy
        rec["random_win"] = rand
        frame = pd.DataFrame(rec)
        for label in dict.fromkeys(cs.labels):
            if label.startswith(KEY_CARDS):
                ids = [i for i, lab in enumerate(cs.labels) if lab == label]
                if len(ids) == 1:
                    frame[f"pos:{label}"] = np.argmax(decks == ids[0], axis=1)
        frames.append(frame)
    df = pd.concat(frames, ignore_index=True).sort_values("case", kind="stable")
    df = df.reset_index(drop=True)
    pos_cols = [c for c in df.columns if c.startswith("pos:")]
    df[pos_cols] = df[pos_cols].astype("Int64")
    return df


#: The kernel's verdict code of each outcome word (the inverse of OUTCOME_OF_CODE).
_CODE = {word: code for code, word in OUTCOME_OF_CODE.items()}


def _reason_bits(text: str) -> int:
    """Loss-reason bits from their text (the inverse of `reason_text`)."""
    return sum(int(Ending[name]) for name in text.split("+")) if text else 0


def _kept_rows(
    prior: pd.DataFrame | None, cases: np.ndarray, decks: np.ndarray, policy: Escalation
) -> list[dict[str, Any]]:
    """The rows of `prior` (the sweep's earlier rows of this chunk, handed on by the runner
    when a higher ceiling or a split grows it: `sweep_grows`) of `cases` dealt as `decks`,
    in their order; none unless every one is there with the same deal (the rank). Rows of
    a one-pass sweep (no `decided_at`) are those of `policy`'s first pass, which its limit
    is (`sweep_grows` allows no other)."""
    if prior is None:
        return []
    rows = {int(r["case"]): r for r in prior.to_dict("records")}
    out = []
    for case, deck in zip(cases, decks, strict=True):
        r = rows.get(int(case))
        if r is None or r["rank"] != str(rank(deck)):
            return []
        out.append(r if "decided_at" in r else {**r, "decided_at": policy.first})
    return out


# The name every study of it records (runner.chunk_name), from before the rooms.
sweep_chunk.study_name = "solvers.allisbomb.study.sweep_chunk"  # type: ignore[attr-defined]


_WARM: set[tuple[str, int, str]] = set()


def _warm(
    config: Options, deck: np.ndarray, node_limit: int, policy: Escalation | None = None
) -> None:
    """Solve one deal untimed the first time this process meets a configuration and node
    limit, so that no row's ``seconds`` holds the kernel's load or the table's allocation.
    With an escalation only its first pass: the warm-up loads the kernel, and a hard first
    deal would otherwise be decided twice, its later passes and split included."""
    key = (config.label(), node_limit, repr(policy))
    if key not in _WARM:
        solve_batch(config, deck, node_limit=node_limit if policy is None else policy.first)
        _WARM.add(key)


def sweep_estimate(df: pd.DataFrame) -> str:
    """The running estimate shown on the progress bar: the first configuration's win rate."""
    first = df["config"].iloc[0]
    g = df[df["config"] == first]
    wins = int((g["outcome"] == "win").sum())
    und = int((g["outcome"] == "undecided").sum())
    lo, hi = wilson_undecided(wins, und, len(g))
    return f"{first}: win {wins / len(g):.2%} [{lo:.2%}, {hi:.2%}] undecided {und}"


def sweep_study(
    configs: Sequence[Options],
    deals: int,
    seed: int,
    node_limit: int = SWEEP_NODE_LIMIT,
    heuristic_deals: int = 0,
    chunk_size: int = 2000,
    budget: Budget = DEFAULT_BUDGET,
    weights: Weights = DEFAULT_WEIGHTS,
    escalation: Escalation | None = None,
) -> Study:
    """Build the sweep study over `configs` (N deals each) for `runner.run_study`.

    escalation: decide each deal by `escalate.solve_escalating` (a first pass at
    escalation.first, the undecided again at doubled limits up to escalation.ceiling, which
    then is the study's node limit); rows get a `decided_at` column. None: one pass at
    `node_limit`.

    The lookahead player's `budget` and `weights` are part of the study's parameters, so
    a study made with another budget or other weights is a different study.
    """
    if deals < 1:
        raise BadInput(f"--deals {deals} is not positive; expected 1 or more")
    if not configs:
        raise BadInput("no configuration to sweep")
    labels = [c.validate().label() for c in configs]
    if len(set(labels)) != len(labels):
        raise BadInput(f"configuration listed twice: {labels}")
    files: list[Path] = []
    provenance: dict[str, dict] = {}
    for c, label in zip(configs, labels, strict=True):
        cs = load_cards(c)
        provenance[label] = cs.provenance_by_set()
        for f in cs.files:
            if f not in files:
                files.append(f)
    params = {
        "configs": [config_to_params(c) for c in configs],
        "labels": labels,
        "deals": int(deals),
        "node_limit": int(escalation.ceiling if escalation else node_limit),
        "heuristic_deals": int(min(heuristic_deals, deals)),
        "layout": LAYOUT,
        "heuristic_spread": True,
        # (only when escalating: the identity of a one-pass study stays what it was)
        **({"escalation": escalation.to_dict()} if escalation else {}),
        "players": {
            "perfect": "exhaustive DFS (solver.solve_batch)",
            "lookahead": {
                "play": "players.play_lookahead",
                "budget": asdict(budget),
                "weights": asdict(weights),
            },
            "greedy": "players.play_greedy",
            "random": "players.play_random",
        },
    }
    if any(set(p) != {"stand-in"} for by_set in provenance.values() for p in by_set.values()):
        # named per configuration and set; a stand-in-only study keeps its old identity
        params["provenance"] = provenance
    return Study(
        name="allisbomb.sweep",
        params=params,
        n_cases=len(configs) * deals,
        seed=int(seed),
        chunk_fn=sweep_chunk,
        chunk_size=int(chunk_size),
        input_files=files,
        progress_fn=sweep_estimate,
        grows=sweep_grows,
        redo=sweep_redo,
        keeps_rows=True,
        words=PARAM_WORDS,
        splits=True,
    )


__all__ = [
    "SWEEP_COLUMNS",
    "matrix_configs",
    "sweep_chunk",
    "sweep_study",
    "caption",
]


# --- campaign study ------------------------------------------------------


def campaign_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Play one chunk of whole six-game campaigns (rulebook H) under perfect play per game.

    Per game: ``game:<g>`` the outcome, ``best:<g>`` whether the win played was proven to
    keep the most cards (branch and bound finished; False for a lost or undecided game),
    ``stars_lost:<g>`` the star cards in its final DISCARD PILE (missing unless won).
    """
    from bombsolve.solvers.allisbomb.studies.campaign import play_campaign

    players, node_limit = int(params["players"]), int(params["node_limit"])
    cards_version = params.get("cards_version", UNVERSIONED_CARDS)
    key = ("campaign", players, str(node_limit), cards_version)
    if key not in _WARM:
        # one untimed campaign per process first, so that no row's ``seconds`` holds the
        # kernel's load or its tables' allocation (as `_warm` does for the sweep)
        play_campaign(
            np.random.default_rng(0),
            players=players,
            node_limit=node_limit,
            cards_version=cards_version,
        )
        _WARM.add(key)
    recs = []
    for case, s in zip(range(chunk.start, chunk.stop), chunk.case_seeds(), strict=True):
        t0 = time.perf_counter()
        r = play_campaign(
            np.random.default_rng(int(s)),
            players=players,
            node_limit=node_limit,
            cards_version=cards_version,
        )
        rec: dict[str, Any] = {
            "case": case,
            "seed": s,
            "points": r.points,
            "medal": r.medal,
            "kept_cards": r.kept_cards,
            "wins": sum(o == "win" for o in r.outcomes),
            "nodes": r.nodes,
            "seconds": time.perf_counter() - t0,
        }
        for game, outcome in zip(EXPANSIONS, r.outcomes, strict=True):
            rec[f"game:{game}"] = outcome
        for game, proven, lost in zip(EXPANSIONS, r.best, r.stars_lost, strict=True):
            rec[f"best:{game}"] = bool(proven)
            rec[f"stars_lost:{game}"] = lost
        recs.append(rec)
    df = pd.DataFrame(recs)
    lost_cols = [f"stars_lost:{g}" for g in EXPANSIONS]
    df[lost_cols] = df[lost_cols].astype("Int64")  # a lost game has none: a missing value
    return df


# The name every study of it records (runner.chunk_name), from before the rooms.
campaign_chunk.study_name = "solvers.allisbomb.study.campaign_chunk"  # type: ignore[attr-defined]


def campaign_study(
    campaigns: int,
    seed: int,
    players: int = 1,
    node_limit: int = 2_000_000,
    chunk_size: int = 50,
    cards_version: str = DEFAULT_CARDS,
) -> Study:
    """Build the campaign study: `campaigns` independent six-game campaigns with the shipped
    stand-in set `cards_version`."""
    from bombsolve.solvers.allisbomb.studies.campaign import campaign_config

    if campaigns < 1:
        raise BadInput(f"--campaigns {campaigns} is not positive; expected 1 or more")
    files: list[Path] = []
    for game in range(len(EXPANSIONS)):
        for f in load_cards(campaign_config(game, (), players, cards_version)).files:
            if f not in files:
                files.append(f)
    return Study(
        name="allisbomb.campaign",
        params={
            "players": int(players),
            "node_limit": int(node_limit),
            "cards_version": cards_version,
            "play": "perfect play per game (solver); of a game's wins the one leaving the "
            "fewest star cards in the DISCARD PILE, by branch and bound on prune.lower_bound "
            "(solve_state keep_most, bound); lost or undecided games remove every circle and "
            "star card (campaign.removals_pessimistic)",
        },
        n_cases=int(campaigns),
        seed=int(seed),
        chunk_fn=campaign_chunk,
        chunk_size=int(chunk_size),
        input_files=files,
    )
