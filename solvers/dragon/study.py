"""Bomb the Dragon balance studies on the shared study runner (DESIGN.md, "Runs that last").

One chunk function, `games_chunk`, plays a batch of seeded games (in the kernel, or in
the reference engine when a strategy has no kernel version) and returns one row per
game; `play_chunk` plays the games of `bombsolve dragon play` the same way, with the
seeds that command gives them. The studies are tables over those rows:

- `seats`: every seat plays the same strategy; win rate by seat with Wilson intervals.
- `ladder`: one seat plays strategy X against a field of Y, the seat rotating game by game
  so seat advantage cancels; the win rate of X against each field.
- `lengths`: rounds and turns per game, final scores (from the seats games).
- `cards`: points per play for each firecracker kind and special (from the seats games).
- `readings`: each rule reading's effect on balance (game length, seat spread).

A shared victory counts as a win for each tied player (rulebook "End of Game": "all tied
players share the victory"), so the rates of one game can add up to more than 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.files import read_input
from bombsolve.solvers.common.multiplicity import holm
from bombsolve.solvers.common.progress import ProgressFactory
from bombsolve.solvers.common.runner import ChunkSpec, Study, run_study
from bombsolve.solvers.common.seeds import run_seeds
from bombsolve.solvers.common.stats import score_test_p, two_sample_score_p, wilson
from bombsolve.solvers.dragon import kernel
from bombsolve.solvers.dragon.agents import (
    CODES,
    KERNEL_STRATEGIES,
    MonteCarloStrategy,
    make_agents,
    resolve_name,
)
from bombsolve.solvers.dragon.cards import CARDS_PATH, load_cards
from bombsolve.solvers.dragon.rules import Options, play_game

#: Firecracker kinds in power order, named for tables and charts.
KIND_NAMES = {
    1: "1 String",
    2: "2 Rocket",
    3: "3 Double",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
}
KINDS = sorted(KIND_NAMES)


def seat_strategies(strategies: list[str], rotation: int) -> list[str]:
    """Return the seat assignment of a game: `strategies` rotated right by `rotation`."""
    n = len(strategies)
    r = rotation % n
    return strategies[n - r :] + strategies[: n - r] if r else list(strategies)


def games_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Play the games [start, stop) of a study, each with its case seed
    (`ChunkSpec.case_seeds`); one row per game.

    params: players, strategies (one name per seat, before rotation), rotate (bool: game
    i rotates the seats by i), options (rule options as name=value text), engine
    ("kernel" or "reference"). Columns: case, seed, rounds, turns, stalled, focus_seat
    (where strategies[0] sat), score_s, win_s, took13_s and took4_s (how many 13s and
    bad-luck 4s seat s took) for each seat s, and for each firecracker
    kind k (its power): pts_k, takes_k, plays_k summed over the players.
    """
    return _play(params, np.arange(chunk.start, chunk.stop), chunk.case_seeds())


def play_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Play the games [start, stop) of a `bombsolve dragon play` run (`play_study`): game
    i with seed i of ``game_seeds(seed, games)``, whatever the chunk size, so the results
    are those of one process for any number of workers. Params as `games_chunk`; the
    columns are those `play` reports and its progress text reads: case, seed, rounds,
    turns, focus_seat, score_s and win_s.
    """
    seeds = run_seeds(chunk.seed, chunk.start, chunk.stop)
    df = _play(params, np.arange(chunk.start, chunk.stop), seeds)
    seats = range(int(params["players"]))
    keep = ["case", "seed", "rounds", "turns", "focus_seat"]
    return df[keep + [f"score_{s}" for s in seats] + [f"win_{s}" for s in seats]]


def play_study(
    players: int,
    strategies: list[str],
    n_games: int,
    seed: int,
    options: Options,
    engine: str,
    chunk_size: int,
) -> Study:
    """Build the runner `Study` of a `play` run: `n_games` games of `strategies` (one
    name per seat) under `options` in `engine` ("kernel" or "reference")."""
    return Study(
        name="dragon.play",
        params={
            "players": players,
            "strategies": [resolve_name(s) for s in strategies],
            "rotate": False,
            "options": options.describe() if options.changed() else "",
            "engine": engine,
        },
        n_cases=n_games,
        seed=seed,
        chunk_fn=play_chunk,
        chunk_size=chunk_size,
        input_files=[CARDS_PATH],
        progress_fn=_progress,
    )


def _play(params: Mapping[str, Any], cases: np.ndarray, seeds: np.ndarray) -> pd.DataFrame:
    """Play game `cases[i]` with seed `seeds[i]` for every i (see `games_chunk`)."""
    n = int(params["players"])
    names = [resolve_name(x) for x in params["strategies"]]
    options = Options.parse(params.get("options", ""))
    rotate = bool(params.get("rotate", False))
    engine = params.get("engine", "kernel")
    cards = load_cards()
    power = np.array([c.power for c in cards.firecrackers])
    rows: dict[str, Any] = {"case": cases, "seed": seeds.astype(np.uint64)}
    g = len(cases)
    scores = np.zeros((g, n), dtype=np.int64)
    wins = np.zeros((g, n), dtype=np.int64)
    rounds = np.zeros(g, dtype=np.int64)
    turns = np.zeros(g, dtype=np.int64)
    stalled = np.zeros(g, dtype=np.int64)
    card = np.zeros((g, 3, len(power)), dtype=np.int64)
    took = np.zeros((g, 2, n), dtype=np.int64)
    focus = np.array([(c % n) if rotate else 0 for c in cases], dtype=np.int64)
    if engine == "kernel":
        groups: dict[int, list[int]] = {}
        for i, c in enumerate(cases):
            groups.setdefault(int(c % n) if rotate else 0, []).append(i)
        for rot, idx in groups.items():
            seats = seat_strategies(names, rot)
            out = kernel.run_games(n, seeds[idx], [CODES[s] for s in seats], options)
            scores[idx] = out["scores"]
            wins[idx] = out["winners"]
            rounds[idx] = out["rounds"]
            turns[idx] = out["turns"]
            stalled[idx] = out["stalled"]
            card[idx, 0] = out["card_points"]
            card[idx, 1] = out["card_takes"]
            card[idx, 2] = out["card_plays"]
            took[idx, 0] = out["took_13"]
            took[idx, 1] = out["took_4"]
    elif engine == "reference":
        for i, c in enumerate(cases):
            seats = seat_strategies(names, int(c % n) if rotate else 0)
            game = play_game(n, make_agents(seats), int(seeds[i]), options)
            scores[i] = game.scores
            for w in game.winners():
                wins[i, w] = 1
            rounds[i], turns[i], stalled[i] = game.round, game.turns_total, game.stalled_rounds
            for _, _, by_player, body, x2, by in game.captures:
                pts = game.body_points(body) * (2 if x2 else 1)
                card[i, 0, by] += pts
                card[i, 1, by] += 1
                special = cards.bodies[body].special
                if special == "hand_limit":
                    took[i, 0, by_player] += 1
                elif special == "bad_luck":
                    took[i, 1, by_player] += 1
            card[i, 2] = game.plays
    else:
        raise BadInput(f"unknown engine {engine!r}; expected kernel or reference")
    rows.update(rounds=rounds, turns=turns, stalled=stalled, focus_seat=focus)
    for s in range(n):
        rows[f"score_{s}"] = scores[:, s]
        rows[f"win_{s}"] = wins[:, s]
        rows[f"took13_{s}"] = took[:, 0, s]
        rows[f"took4_{s}"] = took[:, 1, s]
    for k in KINDS:
        sel = power == k
        rows[f"pts_{k}"] = card[:, 0, sel].sum(axis=1)
        rows[f"takes_{k}"] = card[:, 1, sel].sum(axis=1)
        rows[f"plays_{k}"] = card[:, 2, sel].sum(axis=1)
    return pd.DataFrame(rows)


def engine_for(strategies: list[str]) -> str:
    """Return "kernel" if every strategy has a kernel version, else "reference"."""
    return (
        "kernel" if all(resolve_name(s) in KERNEL_STRATEGIES for s in strategies) else "reference"
    )


def make_study(
    name: str,
    players: int,
    strategies: list[str],
    n_games: int,
    seed: int,
    options: str = "",
    rotate: bool = False,
    chunk_size: int = 1000,
) -> Study:
    """Build a runner `Study` of n_games games (validates the players and strategies)."""
    if not 2 <= players <= 6:
        raise BadInput(f"player count must be 2 to 6, got {players}")
    names = [resolve_name(s) for s in strategies]
    if len(names) != players:
        raise BadInput(f"need {players} strategies (one per player), got {len(names)}")
    opts = Options.parse(options)
    params = {
        "players": players,
        "strategies": names,
        "rotate": rotate,
        "options": opts.describe() if opts.changed() else "",
        "engine": engine_for(names),
    }
    return Study(
        name=name,
        params=params,
        n_cases=n_games,
        seed=seed,
        chunk_fn=games_chunk,
        chunk_size=chunk_size,
        input_files=[CARDS_PATH],
        progress_fn=_progress,
    )


def _progress(df: pd.DataFrame) -> str:
    """The running estimate: the focus seat's win rate (seat 1, or the one X of a ladder
    cell, whose seat rotates: seat 1's rate there would only show the fair share)."""
    focus = df["focus_seat"].to_numpy()
    seats = sum(c.startswith("score_") for c in df.columns)
    wins = df[[f"win_{s}" for s in range(seats)]].to_numpy()
    k = int(wins[np.arange(len(df)), focus].sum())
    lo, hi = wilson(k, len(df))
    who = "seat 1" if not focus.any() else "the one seat of X"
    return f"{who} wins {k / len(df):.1%} [{lo:.1%}, {hi:.1%}]"


# --- tables ----------------------------------------------------------------------------


def seat_table(df: pd.DataFrame, players: int) -> pd.DataFrame:
    """Return the win rate of each seat with its Wilson 95% interval and mean score."""
    rows = []
    n = len(df)
    for s in range(players):
        k = int(df[f"win_{s}"].sum())
        lo, hi = wilson(k, n)
        rows.append(
            {
                "seat": s + 1,
                "games": n,
                "wins": k,
                "win_rate": k / n if n else 0.0,
                "lo": lo,
                "hi": hi,
                "mean_score": float(df[f"score_{s}"].mean()),
            }
        )
    return pd.DataFrame(rows)


def focus_table(df: pd.DataFrame, players: int) -> dict[str, float]:
    """Return the win rate of the focus strategy (strategies[0]) with its interval."""
    won = np.array([df[f"win_{s}"].to_numpy()[i] for i, s in enumerate(df["focus_seat"])])
    score = np.array([df[f"score_{s}"].to_numpy()[i] for i, s in enumerate(df["focus_seat"])])
    k, n = int(won.sum()), len(df)
    lo, hi = wilson(k, n)
    return {
        "games": n,
        "wins": k,
        "win_rate": k / n if n else 0.0,
        "lo": lo,
        "hi": hi,
        "mean_score": float(score.mean()) if n else 0.0,
        "fair_share": 1.0 / players,
    }


def card_table(df: pd.DataFrame) -> pd.DataFrame:
    """Return per firecracker kind: games, plays, bodies taken, points, points per play
    and its 95% interval (`ppp_lo`, `ppp_hi`).

    Plays within a game are not independent, so the interval treats each game as one
    observation: the ratio estimator (total points over total plays) with its
    delta-method standard error over games (Cochran, Sampling Techniques, 3rd ed., 6.9).
    """
    rows = []
    n = len(df)
    for k in KINDS:
        plays_g = df[f"plays_{k}"].to_numpy(dtype=float)
        pts_g = df[f"pts_{k}"].to_numpy(dtype=float)
        plays, pts = int(plays_g.sum()), int(pts_g.sum())
        takes = int(df[f"takes_{k}"].sum())
        ratio = pts / plays if plays else 0.0
        half = 0.0
        if plays and n > 1:
            resid = pts_g - ratio * plays_g
            se = np.sqrt((resid**2).sum() / (n * (n - 1))) / plays_g.mean()
            half = 1.96 * float(se)
        rows.append(
            {
                "kind": KIND_NAMES[k],
                "power": k,
                "games": n,
                "plays": plays,
                "takes": takes,
                "points": pts,
                "take_rate": takes / plays if plays else 0.0,
                "points_per_play": ratio,
                "ppp_lo": ratio - half,
                "ppp_hi": ratio + half,
            }
        )
    return pd.DataFrame(rows)


def specials_table(df: pd.DataFrame, players: int) -> pd.DataFrame:
    """Return win rates of players by how many 13s (0, 1+) and bad-luck 4s (0, 1, 2+) they took.

    Each (game, player) is one observation; with random strategies who takes which body
    is luck, so the gap between the rows estimates what the card is worth in wins.
    """
    rows = []
    won = np.concatenate([df[f"win_{s}"].to_numpy() for s in range(players)])
    for body, col, groups in (
        ("13 (hand limit +1)", "took13", [(0, 0, "none"), (1, 99, "1 or more")]),
        ("4 (bad luck, -3)", "took4", [(0, 0, "none"), (1, 1, "one"), (2, 99, "2 or more")]),
    ):
        took = np.concatenate([df[f"{col}_{s}"].to_numpy() for s in range(players)])
        for lo_k, hi_k, label in groups:
            sel = (took >= lo_k) & (took <= hi_k)
            n, k = int(sel.sum()), int(won[sel].sum())
            lo, hi = wilson(k, n)
            rows.append(
                {
                    "body": body,
                    "taken in the game": label,
                    "player_games": n,
                    "wins": k,
                    "win_rate": k / n if n else 0.0,
                    "lo": lo,
                    "hi": hi,
                }
            )
    return pd.DataFrame(rows)


def score_table(df: pd.DataFrame, players: int) -> pd.DataFrame:
    """Return the distribution of final scores: how many games end with the winner on each
    score, and how many player-games end on each score."""
    cols = [f"score_{s}" for s in range(players)]
    top = df[cols].max(axis=1).value_counts()
    every = pd.Series(df[cols].to_numpy().ravel()).value_counts()
    index = sorted(set(top.index) | set(every.index))
    return pd.DataFrame(
        {
            "score": index,
            "winners": [int(top.get(i, 0)) for i in index],
            "all_players": [int(every.get(i, 0)) for i in index],
        }
    )


def length_table(df: pd.DataFrame) -> dict[str, float]:
    """Return mean and quantiles of rounds and turns per game and of the winning score."""
    n = len(df)
    score_cols = [c for c in df.columns if c.startswith("score_")]
    top = df[score_cols].max(axis=1)
    return {
        "games": n,
        "rounds_mean": float(df["rounds"].mean()),
        "rounds_p10": float(df["rounds"].quantile(0.1)),
        "rounds_p90": float(df["rounds"].quantile(0.9)),
        "turns_mean": float(df["turns"].mean()),
        "turns_p10": float(df["turns"].quantile(0.1)),
        "turns_p90": float(df["turns"].quantile(0.9)),
        "winning_score_mean": float(top.mean()),
        "stalled_rounds": int(df["stalled"].sum()),
    }


def seat_spread(df: pd.DataFrame, players: int) -> dict[str, float]:
    """Return the best and worst seat win rates and a chi-square statistic of equality."""
    t = seat_table(df, players)
    expected = t["wins"].mean()
    chi2 = float(((t["wins"] - expected) ** 2 / expected).sum()) if expected else 0.0
    return {
        "best_seat": int(t.loc[t["win_rate"].idxmax(), "seat"]),
        "best_rate": float(t["win_rate"].max()),
        "worst_seat": int(t.loc[t["win_rate"].idxmin(), "seat"]),
        "worst_rate": float(t["win_rate"].min()),
        "chi2": chi2,
    }


# --- the study suites --------------------------------------------------------------------

#: The non-default reading of each open point (and the two study knobs), for `readings`.
READINGS: dict[str, str] = {
    "default rules": "",
    "placement=close_up": "placement=close_up",
    "rocket_timing=in_order": "rocket_timing=in_order",
    "rocket_empty_slot=true": "rocket_empty_slot=true",
    "double_when=under": "double_when=under",
    "double_card=discard": "double_card=discard",
    "string_card=discard": "string_card=discard",
    "string_reshuffle=false": "string_reshuffle=false",
    "round_end=empty": "round_end=empty",
    "partial_refill=true": "partial_refill=true",
    "new_round=continue": "new_round=continue",
    "tiebreak=round": "tiebreak=round",
    "reshuffle_when=empty": "reshuffle_when=empty",
    "equal_vitality=row_first": "equal_vitality=row_first",
    "thirteen_bonus=0 (no 13 bonus)": "thirteen_bonus=0",
    "bad_luck=false (the 4 scores +3)": "bad_luck=false",
}


def _run(study: Study, out_dir, workers, scheduler, progress) -> pd.DataFrame:
    return run_study(study, out_dir, workers=workers, scheduler=scheduler, progress=progress)


def _with_dirs(table: pd.DataFrame, dirs: list[Path]) -> pd.DataFrame:
    """Note on `table` the study folders it was made from (`manifests_of` reads them)."""
    table.attrs["study_dirs"] = [str(d) for d in dirs]
    return table


def manifests_of(table: pd.DataFrame) -> list[dict[str, Any]]:
    """Return the runner manifests of the studies a `run_*` table was made from (only
    those: an --out folder may also hold studies of earlier, different commands)."""
    from bombsolve.solvers.common.runner import load_manifest

    return [load_manifest(d) for d in table.attrs["study_dirs"]]


def run_seats(
    out_dir,
    players: list[int],
    strategies: list[str],
    n_games: int,
    seed: int,
    options: str = "",
    workers: int | None = 1,
    scheduler: str | None = None,
    progress: ProgressFactory | bool | None = None,
    chunk_size: int = 2000,
) -> dict[str, pd.DataFrame]:
    """Run the seat study for each player count and strategy (all seats alike).

    Returns the tables seats (win rate by seat), lengths (summary), turns (histogram of
    turns per game) and cards, each with columns players and strategy.
    """
    seats, lengths, turns, cards, specials, scores = [], [], [], [], [], []
    dirs = []
    for p in players:
        for s in strategies:
            name = resolve_name(s)
            study = make_study(
                "dragon.seats", p, [s] * p, n_games, seed, options, chunk_size=chunk_size
            )
            dirs.append(Path(out_dir) / f"p{p}-{name}")
            df = _run(study, dirs[-1], workers, scheduler, progress)
            t = seat_table(df, p)
            t.insert(0, "strategy", name)
            t.insert(0, "players", p)
            seats.append(t)
            lengths.append({"players": p, "strategy": name, **length_table(df)})
            counts = df["turns"].value_counts().sort_index()
            turns.append(
                pd.DataFrame(
                    {"players": p, "strategy": name, "turns": counts.index, "games": counts.values}
                )
            )
            c = card_table(df)
            c.insert(0, "strategy", name)
            c.insert(0, "players", p)
            cards.append(c)
            scores.append(score_table(df, p).assign(players=p, strategy=name))
            sp = specials_table(df, p)
            sp.insert(0, "strategy", name)
            sp.insert(0, "players", p)
            specials.append(sp)
    tables = {
        "seats": pd.concat(seats, ignore_index=True),
        "lengths": pd.DataFrame(lengths),
        "turns": pd.concat(turns, ignore_index=True),
        "cards": pd.concat(cards, ignore_index=True),
        "specials": pd.concat(specials, ignore_index=True),
        "scores": pd.concat(scores, ignore_index=True)[
            ["players", "strategy", "score", "winners", "all_players"]
        ],
    }
    tables["seats"].attrs["study_dirs"] = [str(d) for d in dirs]
    return tables


def run_ladder(
    out_dir,
    players: list[int],
    strategies: list[str],
    n_games: int,
    seed: int,
    options: str = "",
    workers: int | None = 1,
    scheduler: str | None = None,
    progress: ProgressFactory | bool | None = None,
    chunk_size: int = 2000,
    mc_games: int | None = None,
) -> pd.DataFrame:
    """Run one seat of X against P - 1 seats of Y, for every X and Y, at each player count.

    The seats rotate game by game (game i puts X in seat i mod P), so every seat is played
    equally often. Cells with montecarlo play `mc_games` games (default n_games). Returns
    one row per (players, strategy, field).
    """
    rows, dirs = [], []
    names = [resolve_name(s) for s in strategies]
    for p in players:
        for x in names:
            for y in names:
                mc = "montecarlo" in (x, y)
                study = make_study(
                    "dragon.ladder",
                    p,
                    [x] + [y] * (p - 1),
                    (mc_games or n_games) if mc else n_games,
                    seed,
                    options,
                    rotate=True,
                    chunk_size=chunk_size,
                )
                dirs.append(Path(out_dir) / f"p{p}-{x}-vs-{y}")
                df = _run(study, dirs[-1], workers, scheduler, progress)
                rows.append({"players": p, "strategy": x, "field": y, **focus_table(df, p)})
    return _with_dirs(pd.DataFrame(rows), dirs)


def run_readings(
    out_dir,
    players: int,
    strategy: str,
    n_games: int,
    seed: int,
    readings: Mapping[str, str] | None = None,
    workers: int | None = 1,
    scheduler: str | None = None,
    progress: ProgressFactory | bool | None = None,
    chunk_size: int = 2000,
) -> pd.DataFrame:
    """Play the same seeded games under each rule reading; return balance figures per reading."""
    rows, dirs = [], []
    for label, opts in (readings or READINGS).items():
        study = make_study(
            "dragon.readings",
            players,
            [strategy] * players,
            n_games,
            seed,
            opts,
            chunk_size=chunk_size,
        )
        tag = opts.replace("=", "-").replace(",", "+") or "default"
        dirs.append(Path(out_dir) / tag)
        df = _run(study, dirs[-1], workers, scheduler, progress)
        first = seat_table(df, players).iloc[0]
        ct = card_table(df).set_index("power")["points_per_play"]
        rows.append(
            {
                "reading": label,
                "options": opts,
                **length_table(df),
                **seat_spread(df, players),
                "seat1_rate": float(first["win_rate"]),
                "seat1_lo": float(first["lo"]),
                "seat1_hi": float(first["hi"]),
                "fair_share": 1.0 / players,
                "string_points_per_play": float(ct[1]),
                "rocket_points_per_play": float(ct[2]),
                "double_points_per_play": float(ct[3]),
            }
        )
    return _with_dirs(pd.DataFrame(rows), dirs)


#: Sizes of the committed reference study (about 15 minutes of one core). The ladder's
#: cells play 16,000 games: at 4,000 a cell's half-width (1.2 points at 6 players) let
#: chance move a cell as far as fresh seeds showed.
REFERENCE_SIZES = {
    "seats_games": 20_000,
    "ladder_games": 16_000,
    "mc_games": 1_000,
    "readings_games": 10_000,
}


RULEBOOK = "shared/rules/bomb-the-dragon.txt"


def study_manifests(folder: str | Path) -> list[dict[str, Any]]:
    """Return the runner manifests under `folder` (one per study, any depth), by path.

    A folder of copied manifests (``manifests/<study>.json``, as the committed results
    keep them) reads as well as a tree of study folders.
    """
    import json

    from bombsolve.solvers.common.runner import MANIFEST, validate_manifest

    root = Path(folder)
    paths = sorted(root.rglob(MANIFEST)) or sorted(root.glob("*.json"))
    return [
        validate_manifest(json.loads(read_input(f, "manifest", follow=False)), f) for f in paths
    ]


def select(manifests: list[dict[str, Any]], study: str, **params: Any) -> list[dict[str, Any]]:
    """The manifests of runner study `study` whose params have the given values; a param
    given as a callable is a test of the value (``strategies=lambda s: ...``)."""
    out = []
    for m in manifests:
        ident = m["identity"]
        if ident["study"] != study:
            continue
        ok = True
        for key, want in params.items():
            have = ident["params"].get(key)
            ok = ok and (want(have) if callable(want) else have == want)
        if ok:
            out.append(m)
    return out


def _strategy_words(name: str) -> str:
    if name == "montecarlo":
        return f"montecarlo ({MonteCarloStrategy().samples} samples per decision)"
    return name


def _games_words(idents: list[Mapping[str, Any]]) -> str:
    """N per cell; when cells differ, which strategy the smaller cells have in common."""
    by_n: dict[int, list[Mapping[str, Any]]] = {}
    for ident in idents:
        by_n.setdefault(int(ident["n_cases"]), []).append(ident)
    parts = []
    for n in sorted(by_n, reverse=True):
        cells = by_n[n]
        words = f"{n:,} games in each of {len(cells)} cell{'s' if len(cells) > 1 else ''}"
        if len(by_n) > 1:
            common = set.intersection(*(set(c["params"]["strategies"]) for c in cells))
            others = [c for c in idents if int(c["n_cases"]) != n]
            mark = sorted(
                s for s in common if not all(s in c["params"]["strategies"] for c in others)
            )
            if mark:
                words += f" (those with {', '.join(mark)})"
        parts.append(words)
    return "; ".join(parts)


def manifest_caption(manifests: list[dict[str, Any]], what: str) -> str:
    """Return the caption of a chart drawn from the runner studies whose `manifests` are
    given: the rules and options, the cards file and its hash, the strategies, player
    counts, seeds, games per cell and the commits that computed them, all read from the
    manifests (DESIGN.md, "Truth of results"). `what` says what one observation is.
    """
    if not manifests:
        raise ValueError("a chart needs the manifests of the studies it draws")
    idents = [m["identity"] for m in manifests]
    options = list(dict.fromkeys(i["params"]["options"] or "default rules" for i in idents))
    cards = list(
        dict.fromkeys(
            f"{name} (sha256 {digest[:12]})"
            for i in idents
            for name, digest in sorted(i["input_files"].items())
        )
    )
    strategies = list(dict.fromkeys(s for i in idents for s in i["params"]["strategies"]))
    players = sorted({int(i["params"]["players"]) for i in idents})
    seeds = sorted({int(i["seed"]) for i in idents})
    # the commits whose runs computed chunks (older manifests name one per study)
    commits = list(
        dict.fromkeys(
            r.get("git_commit", m["git_commit"])[:12]
            for m in manifests
            for r in m.get("runs", [{"chunks_computed": 1}])
            if r.get("chunks_computed")
        )
    )
    seed_words = (
        f"seed {seeds[0]}" if len(seeds) == 1 else "seeds " + ", ".join(map(str, seeds))
    ) + " (SeedSequence, one child per chunk of games)"
    return (
        f"Bomb the Dragon (Dragon Bomb), rules: {RULEBOOK}; options: {' | '.join(options)}; "
        f"cards: solvers/dragon/{', '.join(cards)}; {what}; strategies: "
        f"{', '.join(_strategy_words(s) for s in strategies)}; players: "
        f"{', '.join(map(str, players))}; {seed_words}; N = {_games_words(idents)}. bombsolve solvers/dragon @ {', '.join(commits)}."
    )


#: The tables `draw_seat_charts` and `draw_reference_charts` read (CSV beside the charts).
SEAT_TABLES = ("seats", "lengths", "turns", "cards", "specials", "scores")


def draw_seat_charts(
    tables: Mapping[str, pd.DataFrame],
    manifests: list[dict[str, Any]],
    out: Path,
    specials_strategy: str,
) -> None:
    """Draw the charts of a seat study (seats, lengths, scores, cards at every player
    count, specials of `specials_strategy`), each captioned from the manifests it draws on."""
    from bombsolve.solvers.dragon import charts

    seats = select(manifests, "dragon.seats")
    alike = "all seats alike; one game is one observation"
    charts.seats_chart(tables["seats"], out, manifest_caption(seats, alike))
    charts.lengths_chart(tables["turns"], tables["lengths"], out, manifest_caption(seats, alike))
    charts.scores_chart(tables["scores"], out, manifest_caption(seats, alike))
    charts.cards_chart(
        tables["cards"],
        out,
        manifest_caption(seats, "all seats alike; one game is one observation"),
    )
    sp = tables["specials"]
    charts.specials_chart(
        sp[sp["strategy"] == specials_strategy],
        out,
        manifest_caption(
            select(seats, "dragon.seats", strategies=lambda s: set(s) == {specials_strategy}),
            "all seats alike; each player in each game is one observation",
        ),
    )


def draw_ladder_chart(ladder: pd.DataFrame, manifests: list[dict[str, Any]], out: Path) -> None:
    """Draw the strategy ladder, captioned from its studies' manifests."""
    from bombsolve.solvers.dragon import charts

    charts.ladder_chart(
        ladder,
        out,
        manifest_caption(
            select(manifests, "dragon.ladder"),
            "one seat of X against a field of Y, seats rotated game by game",
        ),
    )


def draw_readings_chart(readings: pd.DataFrame, manifests: list[dict[str, Any]], out: Path) -> None:
    """Draw the rule-readings chart, captioned from its studies' manifests."""
    from bombsolve.solvers.dragon import charts

    ms = select(manifests, "dragon.readings")
    players = ms[0]["identity"]["params"]["players"] if ms else "?"
    charts.readings_chart(
        readings,
        out,
        manifest_caption(ms, f"{players} players, each reading alone on the same seeded games"),
    )


def draw_reference_charts(out_dir: str | Path) -> None:
    """Redraw every chart of a reference study folder from what it keeps: its CSV tables
    and its runner manifests (``manifests/``); nothing is played again."""
    out = Path(out_dir)
    tables = {
        name: pd.read_csv(out / f"{name}.csv", keep_default_na=False, na_values=[""])
        for name in (*SEAT_TABLES, "ladder", "readings")
    }
    tables["readings"]["options"] = tables["readings"]["options"].fillna("")
    manifests = study_manifests(out / "manifests")
    draw_seat_charts(tables, manifests, out, "random")
    draw_ladder_chart(tables["ladder"], manifests, out)
    draw_readings_chart(tables["readings"], manifests, out)


def build_reference(
    out_dir,
    work_dir,
    seed: int = 2026,
    sizes: Mapping[str, int] | None = None,
    workers: int | None = 1,
    scheduler: str | None = None,
    progress: ProgressFactory | bool | None = None,
) -> dict[str, pd.DataFrame]:
    """Run every study and write the tables (CSV), charts (PNG, SVG) and a manifest.

    The runner's per-chunk Parquet files and manifests go to `work_dir/<study>/...`; the
    tables and charts go to `out_dir`. Re-running resumes from `work_dir`.
    """
    import json

    from bombsolve.solvers.common.files import write_text_atomic

    sizes = {**REFERENCE_SIZES, **(sizes or {})}
    out, work = Path(out_dir), Path(work_dir)
    out.mkdir(parents=True, exist_ok=True)
    kw = {"workers": workers, "scheduler": scheduler, "progress": progress}
    players = [2, 3, 4, 5, 6]
    seats = run_seats(
        work / "seats", players, ["random", "greedy"], sizes["seats_games"], seed, **kw
    )
    ladder = run_ladder(
        work / "ladder",
        players,
        ["random", "greedy", "position", "montecarlo"],
        sizes["ladder_games"],
        seed,
        mc_games=sizes["mc_games"],
        **kw,
    )
    readings = run_readings(work / "readings", 4, "greedy", sizes["readings_games"], seed, **kw)
    tables = {**seats, "ladder": ladder, "readings": readings}
    for name, table in tables.items():
        write_text_atomic(out / f"{name}.csv", table.to_csv(index=False, float_format="%.6g"))
    from bombsolve.solvers.common.runner import _git_commit, _versions

    manifest = {
        "what": "Bomb the Dragon reference study",
        "seed": seed,
        "sizes": sizes,
        "tables": sorted(f"{n}.csv" for n in tables),
        "charts": sorted(
            f"{n}.{e}"
            for n in ("seats", "lengths", "scores", "cards", "specials", "ladder", "readings")
            for e in ("png", "svg")
        ),
        "runs": "per-study runner manifests in manifests/ (chunk files are not committed)",
        "options_default": Options().describe(),
        "readings": READINGS,
        "cards": str(CARDS_PATH.name),
        "git_commit": _git_commit(),
        "versions": _versions(),
    }
    write_text_atomic(out / "manifest.json", json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    # Keep each runner study's own manifest (seed, N, options, hashes) beside the tables.
    for old in (out / "manifests").glob("*.json"):
        old.unlink()
    for m in sorted(
        m for d in ("seats", "ladder", "readings") for m in (work / d).rglob("manifest.json")
    ):
        rel = m.parent.relative_to(work).as_posix().replace("/", "__")
        write_text_atomic(out / "manifests" / f"{rel}.json", m.read_text())
    draw_reference_charts(out)
    return tables


def self_play_tests(ladder: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Each self-play cell of the ladder (one seat of X in a field of X) against the fair
    share, and whether it differs from it after Holm's correction over all of them
    (`bombsolve.solvers.common.multiplicity`, family-wise 5%).

    A shared victory counts for every tied winner, so the fair share is not quite 1/P:
    where the seat study played X at P players it is the seat study's wins / (P games),
    compared with the cell by the two-sample score test (`two_sample_score_p`, the seat
    study's P seats of a game taken as P trials); elsewhere it is 1/P, by the score test
    the cell's Wilson interval inverts (`score_test_p`), a little in favour of finding a
    cell above it. Columns: players, strategy, games, wins, win_rate, fair_share,
    fair_from ("seat study" or "1/P"), p_value, holm.
    """
    rows = []
    for r in ladder[ladder["strategy"] == ladder["field"]].itertuples():
        same = seats[(seats["players"] == r.players) & (seats["strategy"] == r.strategy)]
        if len(same):
            wins, trials = int(same["wins"].sum()), int(r.players * same["games"].iloc[0])
            fair, source = wins / trials, "seat study"
            p = two_sample_score_p(int(r.wins), int(r.games), wins, trials)
        else:
            fair, source = 1.0 / r.players, "1/P"
            p = score_test_p(int(r.wins), int(r.games), fair)
        rows.append(
            {
                "players": int(r.players),
                "strategy": r.strategy,
                "games": int(r.games),
                "wins": int(r.wins),
                "win_rate": float(r.win_rate),
                "fair_share": fair,
                "fair_from": source,
                "p_value": p,
            }
        )
    out = pd.DataFrame(rows)
    out["holm"] = holm(list(out["p_value"])) if len(out) else []
    return out


#: The mark of a self-play cell that differs from the fair share after Holm's correction.
UNFAIR_MARK = "†"


def ladder_markdown(ladder: pd.DataFrame, seats: pd.DataFrame | None = None) -> str:
    """Return the ladder as a Markdown table: win % [Wilson 95%] of one seat against a
    field. With the seat study's table (`seats`), the self-play cells are tested against
    the fair share (`self_play_tests`): those that differ from it after Holm's correction
    carry `UNFAIR_MARK`, and the caption says the correction and how many do."""
    fields = list(dict.fromkeys(ladder["field"]))
    tests = self_play_tests(ladder, seats) if seats is not None else None
    unfair = (
        set()
        if tests is None
        else {(int(t.players), t.strategy) for t in tests.itertuples() if t.holm}
    )
    lines = [
        "| players | one seat plays | " + " | ".join(f"vs {f} field" for f in fields) + " |",
        "|---|---|" + "---|" * len(fields),
    ]
    for (p, x), g in ladder.groupby(["players", "strategy"], sort=False):
        cells = []
        for f in fields:
            r = g[g["field"] == f]
            if r.empty:
                cells.append("")
                continue
            r = r.iloc[0]
            cell = f"{r.win_rate:.1%} [{r.lo:.1%}, {r.hi:.1%}]".replace("%", "")
            if f == x and (int(p), x) in unfair:
                cell += f" {UNFAIR_MARK}"
            cells.append(cell)
        lines.append(f"| {p} | {x} | " + " | ".join(cells) + " |")
    n = ", ".join(f"{k:,}" for k in sorted(set(ladder["games"]), reverse=True))
    lines.append("")
    if tests is None:
        lines.append(f"Win % with Wilson 95% interval; games per cell: {n}; fair share 1/P.")
        return "\n".join(lines) + "\n"
    seat_study = sorted(set(tests.loc[tests["fair_from"] == "seat study", "strategy"]))
    others = sorted(set(tests.loc[tests["fair_from"] == "1/P", "strategy"]))
    lines.append(
        f"Win % with Wilson 95% interval; games per cell: {n}. Self-play cells (X against "
        f"a field of X) against the fair share: for {' and '.join(seat_study)} the seat "
        "study's wins / (P games), a shared victory counting for every tied winner "
        "(two-sample score test)"
        + (
            f"; for {' and '.join(others)} 1/P (the score test the interval inverts)"
            if others
            else ""
        )
        + f"; Holm's correction over the {len(tests)} (family-wise 5%): "
        f"{int(tests['holm'].sum())} differ from the fair share"
        + (f", marked {UNFAIR_MARK}." if unfair else ".")
    )
    return "\n".join(lines) + "\n"
