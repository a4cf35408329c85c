"""Bombastic studies on the shared runner: matches, tournaments, card values, charts.

Every game is one case: its seed is the case's seed from the runner
(`ChunkSpec.case_seeds`), so any game can be replayed alone with
`bombsolve bombastic replay --seed SEED --x A --o B`. Chunk functions are module-level
and pure, as the runner requires.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bombsolve.solvers.bombastic import kernel as K
from bombsolve.solvers.bombastic.agents import make_agent, play_game
from bombsolve.solvers.bombastic.rules import CARD_SLUG, Card, Ending, Options
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.files import read_input
from bombsolve.solvers.common.progress import ProgressFactory, cases_done
from bombsolve.solvers.common.runner import ChunkPlan, ChunkSpec, Study, run_study
from bombsolve.solvers.common.seeds import child_seed
from bombsolve.solvers.common.stats import wilson

ENDING_NAMES = [e.name for e in Ending]


def options_to_params(options: Options) -> dict[str, Any]:
    """Return Options as JSON-friendly study parameters."""
    d = dataclasses.asdict(options)
    d["removed"] = sorted(int(c) for c in d["removed"])
    if d["shuffle"] == "chance":
        # Added after the reference study was run: left out at its default so that the
        # committed studies keep their identity (and resume).
        del d["shuffle"]
    return d


def options_from_params(d: Mapping[str, Any]) -> Options:
    """Rebuild Options from study parameters."""
    d = dict(d)
    d["removed"] = tuple(d.get("removed", ()))
    return Options(**d)


def games_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Play one game per case between params['x'] (seat 0) and params['o'] (seat 1)."""
    options = options_from_params(params["options"])
    rows = []
    for case, seed in zip(range(chunk.start, chunk.stop), chunk.case_seeds(), strict=True):
        # Fresh agents per game: no memory carried from one game to the next.
        r = play_game(make_agent(params["x"]), make_agent(params["o"]), int(seed), options)
        cases_done()  # a search-based agent's game can take seconds: say each one
        rows.append(
            {
                "case": case,
                "seed": int(seed),
                "x": params["x"],
                "o": params["o"],
                "winner": -1 if r.winner is None else r.winner,
                "ending": r.ending.name,
                "turns": r.turns,
                "decisions": r.decisions,
                "x_cards": _bits(r.cards_used[0]),
                "o_cards": _bits(r.cards_used[1]),
            }
        )
    df = pd.DataFrame(rows)
    df["seed"] = df["seed"].astype(np.uint64)
    return df


def kernel_random_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Random-versus-random games in the Numba kernel (seed = case number + params seed)."""
    cards, cap, second, shuffle_by = K.options_args(options_from_params(params["options"]))
    out = K.random_games(
        int(params["base"]) + chunk.start, len(chunk), cards, cap, second, shuffle_by
    )
    return pd.DataFrame(
        {
            "case": np.arange(chunk.start, chunk.stop, dtype=np.int64),
            "winner": out[:, 0],
            "ending": [ENDING_NAMES[e] for e in out[:, 1]],
            "turns": out[:, 2] - (out[:, 1] == ENDING_NAMES.index("TURN_CAP")),
            "decisions": out[:, 3],
        }
    )


def _bits(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def x_win_estimate(df: pd.DataFrame) -> str:
    """Running estimate for the progress bar: X's win rate and its Wilson interval."""
    n = len(df)
    k = int((df["winner"] == 0).sum())
    lo, hi = wilson(k, n)
    return f"X wins {k / n:.1%} [{lo:.1%}, {hi:.1%}]"


#: Games per chunk of a match (`match_study`): with the match's seed it fixes each game's seed.
MATCH_CHUNK = 50


def match_study(
    x: str, o: str, games: int, seed: int, options: Options, chunk_size: int = MATCH_CHUNK
) -> Study:
    """A Study of `games` games, agent `x` moving first."""
    make_agent(x), make_agent(o)  # fail early, with a clear line, on bad names
    if games < 1:
        raise BadInput(f"--games {games} must be at least 1")
    return Study(
        name="bombastic.match",
        params={"x": x, "o": o, "options": options_to_params(options)},
        n_cases=games,
        seed=seed,
        chunk_fn=games_chunk,
        chunk_size=chunk_size,
        progress_fn=x_win_estimate,
        splits=True,
        least_part=1,
    )


def match_game_seed(seed: int, game: int, chunk_size: int = MATCH_CHUNK) -> int:
    """Return the seed of game `game` (numbered from 1) of `match_study(..., seed, ...)`.

    A game's seed depends only on the match's seed, its number and the chunk size (each
    chunk draws its games' seeds in order from its own `SeedSequence` child), not on how
    many games the match plays, so it is the last game of a match of `game` games.

    >>> match_game_seed(42, 3) == int(match_study("random", "random", 5, 42, Options())
    ...     .chunks()[0].case_seeds()[2])
    True
    """
    if game < 1:
        raise BadInput(f"game {game} is not a game number; expected 1 or more")
    return int(ChunkPlan(game, chunk_size, seed)[-1].case_seeds()[-1])


def run_in_memory(study: Study) -> pd.DataFrame:
    """Run a study's chunks here without writing files (same rows as run_study)."""
    frames = [study.chunk_fn(study.params, c) for c in study.chunks()]
    return pd.concat(frames, ignore_index=True)


def summarize(df: pd.DataFrame) -> dict[str, Any]:
    """Wins, draws, Wilson 95% intervals, endings and game length of a set of games."""
    n = len(df)
    x = int((df["winner"] == 0).sum())
    o = int((df["winner"] == 1).sum())
    draws = n - x - o
    return {
        "games": n,
        "x_wins": x,
        "o_wins": o,
        "turn_cap": draws,
        "x_rate": x / n,
        "x_ci": wilson(x, n),
        "o_rate": o / n,
        "o_ci": wilson(o, n),
        "endings": df["ending"].value_counts().to_dict(),
        "mean_turns": float(df["turns"].mean()),
        "median_turns": float(df["turns"].median()),
    }


# ----- Tournaments ----------------------------------------------------------------------


def games_per_seating(x: str, o: str, games: int | Mapping[str, int]) -> int:
    """Games for the pairing x (first) against o: `games`, or the smaller of two caps.

    A mapping gives each agent spec a cap (its cost sets it: thousands of games for the
    cheap agents, tens for the slow searches), so the cheap pairings get the sample
    sizes that tell a first-player edge from 50% and the slow ones what time allows.

    >>> games_per_seating("random", "greedy", {"random": 3000, "greedy": 400})
    400
    """
    if isinstance(games, int):
        return games
    missing = [a for a in (x, o) if a not in games]
    if missing:
        raise BadInput(f"no game count for agent {missing[0]!r}; known: {sorted(games)}")
    return min(int(games[x]), int(games[o]))


def tournament(
    agents: Sequence[str],
    games: int | Mapping[str, int],
    seed: int,
    options: Options,
    out_dir: str | Path | None = None,
    workers: int | None = 1,
    scheduler: str | None = None,
    chunk_size: int = 50,
    progress: ProgressFactory | bool | None = None,
) -> pd.DataFrame:
    """Play every ordered pairing (both seatings, and each agent against itself).

    Each pairing is its own Study (seed derived from `seed` and the pairing's place), in
    `out_dir/pairs/X-vs-O/` when `out_dir` is given. `games` is the number per seating,
    or a cap per agent (`games_per_seating`). `progress` goes to the runner (`run_study`).
    Returns all games.
    """
    agents = list(dict.fromkeys(a.strip() for a in agents if a.strip()))
    if len(agents) < 2:
        raise BadInput(f"--agents needs at least 2 different agents, got {agents}")
    if len(agents) ** 2 > 1000:
        # Pairing k's root is seed * 1000 + k: more pairings would reuse seed + 1's roots.
        raise BadInput(f"{len(agents)} agents are more than 31; expected at most 31")
    frames = []
    for i, x in enumerate(agents):
        for j, o in enumerate(agents):
            n = games_per_seating(x, o, games)
            study = match_study(x, o, n, seed * 1000 + i * len(agents) + j, options, chunk_size)
            if out_dir is None:
                df = run_in_memory(study)
            else:
                folder = Path(out_dir) / "pairs" / f"{_safe(x)}-vs-{_safe(o)}"
                df = run_study(
                    study, folder, workers=workers, scheduler=scheduler, progress=progress
                )
            frames.append(df)
    return pd.concat(frames, ignore_index=True)


def _safe(name: str) -> str:
    return name.replace(":", "_")


def pairing_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (X agent, O agent): X's win rate with its Wilson interval, and more."""
    rows = []
    for (x, o), g in df.groupby(["x", "o"], sort=False):
        s = summarize(g)
        rows.append(
            {
                "x": x,
                "o": o,
                "games": s["games"],
                "x_wins": s["x_wins"],
                "o_wins": s["o_wins"],
                "turn_cap": s["turn_cap"],
                "x_rate": s["x_rate"],
                "x_lo": s["x_ci"][0],
                "x_hi": s["x_ci"][1],
                "mean_turns": s["mean_turns"],
            }
        )
    return pd.DataFrame(rows)


def ratings(df: pd.DataFrame, iterations: int = 500) -> pd.DataFrame:
    """Bradley-Terry ratings (Elo scale, mean 1500) and score rates from all games.

    A draw (turn cap) counts half a win each way. Fitted with Hunter's (2004) MM steps.
    Games an agent plays against itself are left out.
    """
    games = df[df["x"] != df["o"]]
    agents = sorted(set(games["x"]) | set(games["o"]))
    idx = {a: i for i, a in enumerate(agents)}
    n = len(agents)
    wins = np.zeros((n, n))
    for x, o, w in zip(games["x"], games["o"], games["winner"], strict=True):
        i, j = idx[x], idx[o]
        if w == 0:
            wins[i, j] += 1
        elif w == 1:
            wins[j, i] += 1
        else:
            wins[i, j] += 0.5
            wins[j, i] += 0.5
    # A tiny prior (one draw against a virtual average player) keeps perfect records finite.
    played = wins + wins.T
    strength = np.ones(n)
    for _ in range(iterations):
        new = np.empty(n)
        for i in range(n):
            denom = sum(played[i, j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            new[i] = (wins[i].sum() + 0.5) / (denom + 1.0 / (strength[i] + 1.0))
        strength = new / math.exp(np.log(new).mean())
    elo = 400 * np.log10(strength)
    elo = elo - elo.mean() + 1500
    score = [(wins[i].sum()) / max(played[i].sum(), 1) for i in range(n)]
    games_n = [int(played[i].sum()) for i in range(n)]
    out = pd.DataFrame({"agent": agents, "rating": elo, "score": score, "games": games_n})
    return out.sort_values("rating", ascending=False, ignore_index=True)


def rating_intervals(
    df: pd.DataFrame, reps: int = 200, seed: int = 0, iterations: int = 200
) -> pd.DataFrame:
    """`ratings` with bootstrap 95% intervals (``lo``, ``hi``): the games of each ordered
    pairing resampled with replacement `reps` times (generator ``default_rng(seed)``), the
    ratings refitted each time, and the 2.5th and 97.5th percentiles kept."""
    base = ratings(df)
    games = df[df["x"] != df["o"]].reset_index(drop=True)
    groups = [g.index.to_numpy() for _, g in games.groupby(["x", "o"])]
    rng = np.random.default_rng(seed)
    draws = {a: [] for a in base["agent"]}
    for _ in range(reps):
        pick = np.concatenate([rng.choice(ix, size=len(ix)) for ix in groups])
        r = ratings(games.iloc[pick], iterations=iterations)
        for a, v in zip(r["agent"], r["rating"], strict=True):
            draws[a].append(v)
    base["lo"] = [float(np.percentile(draws[a], 2.5)) for a in base["agent"]]
    base["hi"] = [float(np.percentile(draws[a], 97.5)) for a in base["agent"]]
    base.attrs["bootstrap"] = f"bootstrap 95% intervals, {reps} resamples of each pairing's games"
    return base


# ----- Card values ----------------------------------------------------------------------


def card_variants(base: Options | None = None) -> list[tuple[str, Options]]:
    """The deck variants of the card-value study: base, each card left out, promos, no ALARM.

    Each variant is `base` (default: the default rules) with its deck changed, so a study
    run under other rule options compares decks under those options.
    """
    base = Options() if base is None else base
    out = [("base deck", base)]
    for c in base.deck_cards():
        removed = tuple(sorted({*base.removed, int(c)}))
        out.append((f"without {CARD_SLUG[Card(c)]}", base.with_(removed=removed)))
    out.append(("with promos", base.with_(promos=True)))
    out.append(("without ALARM", base.with_(alarms=False)))
    return out


def card_usage(df: pd.DataFrame) -> pd.DataFrame:
    """For each card: how often a player used it, and that player's win rate when they did."""
    rows = []
    for c in Card:
        bit = 1 << int(c)
        used_x = (df["x_cards"] & bit) > 0
        used_o = (df["o_cards"] & bit) > 0
        n = int(used_x.sum() + used_o.sum())
        if n == 0:
            continue
        k = int(((df["winner"] == 0) & used_x).sum() + ((df["winner"] == 1) & used_o).sum())
        lo, hi = wilson(k, n)
        rows.append(
            {
                "card": CARD_SLUG[c],
                "users": n,
                "user_wins": k,
                "win_rate": k / n,
                "lo": lo,
                "hi": hi,
            }
        )
    return pd.DataFrame(rows)


# ----- The reference study --------------------------------------------------------------

REFERENCE_AGENTS = (
    "random",
    "heuristic",
    "greedy",
    "ismcts:100",
    "ismcts-guarded:100",
    "ismcts-heuristic-guarded:300",
    "omniscient",
)
# Games per seating each agent can afford in the reference study (2 workers, about an
# hour): a pairing plays the smaller of its two agents' caps. The agents the README
# compares in words (random, heuristic, greedy, omniscient, ismcts-heuristic-guarded:300)
# get at least 2,000 games per seating; the two plain ISMCTS agents, the slowest and the
# weakest, only what is left. Measured cost per game in self-play on an idle core:
# random 0.2 ms, heuristic 5 ms, omniscient 10 ms, greedy 0.16 s,
# ismcts-heuristic-guarded:300 0.17 s, ismcts:100 0.22 s, ismcts-guarded:100 0.31 s.
REFERENCE_GAMES = {
    "random": 3000,
    "heuristic": 3000,
    "greedy": 2000,
    "omniscient": 2000,
    "ismcts:100": 200,
    "ismcts-guarded:100": 200,
    "ismcts-heuristic-guarded:300": 2000,
}


def first_player_table(df: pd.DataFrame, kernel: pd.DataFrame | None = None) -> pd.DataFrame:
    """First player's win rate for each unordered pairing (both seatings pooled)."""
    rows = []
    agents = list(dict.fromkeys(list(df["x"]) + list(df["o"])))
    for i, a in enumerate(agents):
        for b in agents[i:]:
            g = df[((df["x"] == a) & (df["o"] == b)) | ((df["x"] == b) & (df["o"] == a))]
            if g.empty:
                continue
            n, k = len(g), int((g["winner"] == 0).sum())
            lo, hi = wilson(k, n)
            rows.append(
                {
                    "pairing": f"{a} / {b}",
                    "games": n,
                    "games_per_seating": n if a == b else n // 2,
                    "first_wins": k,
                    "rate": k / n,
                    "lo": lo,
                    "hi": hi,
                }
            )
    if kernel is not None:
        n, k = len(kernel), int((kernel["winner"] == 0).sum())
        lo, hi = wilson(k, n)
        rows.append(
            {
                "pairing": "random / random (kernel)",
                "games": n,
                "games_per_seating": n,
                "first_wins": k,
                "rate": k / n,
                "lo": lo,
                "hi": hi,
            }
        )
    return pd.DataFrame(rows)


def card_variant_table(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """For each deck variant: first player's win rate, game length, how games end."""
    rows = []
    for name, g in frames.items():
        s = summarize(g)
        row = {
            "variant": name,
            "games": s["games"],
            "x_wins": s["x_wins"],
            "o_wins": s["o_wins"],
            "turn_cap": s["turn_cap"],
            "x_rate": s["x_rate"],
            "x_lo": s["x_ci"][0],
            "x_hi": s["x_ci"][1],
            "mean_turns": s["mean_turns"],
        }
        for e in ENDING_NAMES:
            row[e] = int(s["endings"].get(e, 0))
        rows.append(row)
    return pd.DataFrame(rows)


def ending_table(df: pd.DataFrame) -> pd.DataFrame:
    """Games by pairing and ending."""
    t = df.groupby(["x", "o", "ending"], sort=False).size().unstack(fill_value=0)
    return t.reset_index()


def save_table(df: pd.DataFrame, out_dir: Path, stem: str) -> None:
    """Write a table as CSV and Parquet, atomically."""
    from bombsolve.solvers.common.files import atomic_path

    with atomic_path(out_dir / f"{stem}.csv") as tmp:
        df.to_csv(tmp, index=False, float_format="%.6g")
    with atomic_path(out_dir / f"{stem}.parquet") as tmp:
        df.to_parquet(tmp, index=False)


def card_variant_seed(seed: int, index: int) -> int:
    """The root seed of deck variant `index` of the card study of a run rooted at `seed`."""
    return child_seed(seed, 1, index)


def reference_study(
    out_dir: str | Path,
    games: int | Mapping[str, int] = REFERENCE_GAMES,
    card_games: int = 2000,
    kernel_games: int = 1_000_000,
    seed: int = 2026,
    agents: Sequence[str] = REFERENCE_AGENTS,
    card_agent: str = "heuristic",
    workers: int | None = 1,
    scheduler: str | None = None,
    log=print,
    chunk_size: int = 50,
    infostate_depth: int = -1,
    options: Options | None = None,
) -> dict[str, Any]:
    """Run the whole reference study into `out_dir`: tables, charts, and a manifest.

    Parts: a tournament (every ordered pairing of `agents`, `games` each); random games
    in the kernel (`kernel_games`); the card study (`card_agent` against itself,
    `card_games` per deck variant). Each part runs on the shared runner into its own
    folder under `out_dir/runs/` (so re-running resumes), then tables and charts are
    written at the top of `out_dir`. `chunk_size` is the tournament's games per chunk
    (the card study uses 100, the kernel 250,000). The information states of both
    players are counted to `infostate_depth` turns (-1: skip; the count is exact but
    not a runner study, as it has no random cases; `infostates.csv` is written only when
    it is counted, and the reference script leaves it to `scripts/results/bombastic_infostates.py`).
    Every part plays under the rule `options` (default: the default rules; the committed
    reference uses them), recorded in the manifest.
    """
    from bombsolve.solvers.bombastic import charts
    from bombsolve.solvers.common.files import write_text_atomic

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"
    base = Options() if options is None else options
    log(f"tournament: {len(agents)} agents, games per seating {games}")
    tour = tournament(
        agents, games, seed, base, runs / "tournament", workers, scheduler, chunk_size
    )
    if kernel_games > 10_000_000:
        # Game g's seed is seed * 10**7 + g: more games would replay those of seed + 1.
        raise BadInput(f"kernel games {kernel_games:,} pass 10,000,000; expected fewer")
    log(f"kernel: {kernel_games} random games")
    kstudy = Study(
        name="bombastic.kernel_random",
        params={"options": options_to_params(base), "base": seed * 10_000_000},
        n_cases=kernel_games,
        seed=seed,
        chunk_fn=kernel_random_chunk,
        chunk_size=max(1, min(250_000, kernel_games)),
    )
    kdf = run_study(kstudy, runs / "kernel_random", workers=workers, scheduler=scheduler)
    variant_frames = {}
    for i, (name, opts) in enumerate(card_variants(base)):
        log(f"cards: {name}")
        st = Study(
            name="bombastic.match",
            params={"x": card_agent, "o": card_agent, "options": options_to_params(opts)},
            n_cases=card_games,
            # Each deck its own root drawn from the run's SeedSequence: `seed + 100 + i`
            # made deck i of --seed s replay deck i - 1 of --seed s + 1.
            seed=card_variant_seed(seed, i),
            chunk_fn=games_chunk,
            chunk_size=100,
            progress_fn=x_win_estimate,
            splits=True,
            least_part=1,
        )
        folder = runs / "cards" / name.replace(" ", "_")
        variant_frames[name] = run_study(st, folder, workers=workers, scheduler=scheduler)

    info_rows = []
    if infostate_depth >= 0:
        import time

        from bombsolve.solvers.bombastic.infostates import count_infostates

        for p in (0, 1):
            log(f"infostates: {'XO'[p]}, depth {infostate_depth}")
            t0 = time.perf_counter()
            r = count_infostates(infostate_depth, p, base)
            secs = time.perf_counter() - t0
            for d, n in enumerate(r.by_depth):
                info_rows.append(
                    {
                        "player": "XO"[p],
                        "turns": d,
                        "information_states": str(n),
                        "knowledge_states_searched": r.nodes,
                        "seconds": round(secs, 1),
                    }
                )
    pairs = pairing_table(tour)
    rates = rating_intervals(tour)
    first = first_player_table(tour, kdf)
    variants = card_variant_table(variant_frames)
    usage = card_usage(variant_frames["base deck"])
    promo_usage = card_usage(variant_frames["with promos"])
    endings = ending_table(tour)
    lengths = tour.groupby(["x", "o", "turns"]).size().rename("games").reset_index()
    for df, stem in [
        (pairs, "pairings"),
        (rates, "ratings"),
        (first, "first_player"),
        (variants, "card_variants"),
        (usage, "card_usage"),
        (promo_usage, "card_usage_with_promos"),
        (endings, "endings"),
        (lengths, "game_lengths"),
        (charts.how_agents_win_and_lose(tour).reset_index(), "outcomes"),
    ]:
        save_table(df, out, stem)
    if info_rows:
        save_table(pd.DataFrame(info_rows), out, "infostates")

    mirror = {r.x: r for r in pairs.itertuples() if r.x == r.o}
    headline = {
        "ratings": rates.to_dict("records"),
        "first_player_random_kernel": first.iloc[-1].to_dict(),
        "first_player_mirrors": {
            a: {"x_rate": r.x_rate, "x_lo": r.x_lo, "x_hi": r.x_hi, "games": r.games}
            for a, r in mirror.items()
        },
        "infostates": info_rows,
        "card_variants": variants[
            ["variant", "games", "x_rate", "x_lo", "x_hi", "mean_turns"]
        ].to_dict("records"),
    }
    from bombsolve.solvers.common.version import commit

    manifest = {
        "study": "bombastic.reference",
        "command": "python scripts/results/bombastic_reference.py",
        "rulebook": RULEBOOK,
        "git_commit": commit(),
        "ratings_intervals": rates.attrs.get("bootstrap", ""),
        "seed": seed,
        "agents": list(agents),
        "games_per_seating": games if isinstance(games, int) else dict(games),
        "card_agent": card_agent,
        "card_games_per_variant": card_games,
        "kernel_games": kernel_games,
        "options": options_to_params(base),
        "runs": "runs/ holds each part's chunks and its own manifest.json (runner)",
        "headline": headline,
    }
    write_text_atomic(out / "manifest.json", json.dumps(manifest, indent=2, default=float))
    draw_reference_charts(out)
    return manifest


#: The rulebook the engine implements (its sections are cited in rules.py).
RULEBOOK = "shared/rules/bombastic.txt"


def _rules_words(opts: Mapping[str, Any]) -> str:
    removed = opts.get("removed") or []
    words = [
        f"second swap '{opts['second_swap']}'",
        "deck order remembered" if opts["deck_known"] else "deck order not remembered",
        f"shuffle by {opts.get('shuffle', 'chance')}",
        f"turn cap {opts['turn_cap']}",
        "promos" if opts["promos"] else "no promos unless stated",
    ]
    if not opts.get("alarms", True):
        words.append("no ALARM cards")
    if removed:
        words.append("without " + ", ".join(CARD_SLUG[Card(c)] for c in removed))
    return ", ".join(words)


def reference_caption(manifest: Mapping[str, Any], runs: Sequence[Mapping[str, Any]]) -> str:
    """The caption of every reference chart, read from the study's `manifest` and the
    runner manifests of its parts (`runs`): the rulebook and rule options, the agents and
    games per seating, the seeds and N of each part, and the commits that played the
    games (DESIGN.md, "Truth of results")."""
    games = manifest["games_per_seating"]
    agents = manifest["agents"]
    if isinstance(games, int):
        per_seating = f"{games} games per seating"
    else:
        per_seating = (
            "games per seating: the smaller cap of the two agents ("
            + ", ".join(f"{a} {games[a]}" for a in agents)
            + ")"
        )
    seed = manifest["seed"]
    card = manifest["card_agent"]
    commits = list(
        dict.fromkeys(
            r.get("git_commit", m.get("git_commit", "unknown"))[:12]
            for m in runs
            for r in m.get("runs", [])
            if r.get("chunks_computed")
        )
    ) or [str(manifest.get("git_commit", "unknown"))[:12]]
    default = manifest["options"] == options_to_params(Options())
    return (
        f"Bombastic, rules: {manifest.get('rulebook', RULEBOOK)}; "
        f"{'default rules' if default else 'rule options'} "
        f"({_rules_words(manifest['options'])}). Agents: {', '.join(agents)}. "
        f"Tournament: {per_seating}, seed {seed} (pairing k rooted at {seed} * 1000 + k); "
        f"kernel: {manifest['kernel_games']} random games; cards: {card} vs {card}, "
        f"{manifest['card_games_per_variant']} games per deck, each deck its own root drawn "
        f"from SeedSequence({seed}). Win rates with Wilson 95% intervals; ratings with "
        "bootstrap 95% intervals (games resampled within each pairing). Games played by "
        f"bombsolve @ {', '.join(commits)}."
    )


def draw_reference_charts(out_dir: str | Path) -> list[str]:
    """Draw the reference study's charts from the tables and manifests in `out_dir`
    (no game is replayed); return the chart names."""
    from bombsolve.solvers.bombastic import charts

    out = Path(out_dir)
    manifest = json.loads(read_input(out / "manifest.json", "manifest", follow=False))
    runs = [
        json.loads(read_input(p, "manifest")) for p in sorted((out / "runs").rglob("manifest.json"))
    ]
    caption = reference_caption(manifest, runs)
    table = {
        stem: pd.read_csv(out / f"{stem}.csv")
        for stem in (
            "first_player",
            "card_variants",
            "card_usage",
            "game_lengths",
            "outcomes",
            "pairings",
            "ratings",
        )
    }
    charts.first_player_chart(table["first_player"], out, caption)
    charts.card_value_chart(table["card_variants"], table["card_usage"], out, caption)
    charts.game_length_chart(
        table["game_lengths"],
        table["outcomes"],
        table["pairings"],
        out,
        caption,
        order=manifest["agents"],
    )
    rates = table["ratings"]
    if manifest.get("ratings_intervals"):
        rates.attrs["bootstrap"] = manifest["ratings_intervals"]
    charts.ladder_chart(rates, out, caption)
    return ["first_player", "card_values", "game_length", "ladder"]


#: The batch studies by name (solvers/common/game.py): one match between two agents, a
#: tournament of every pairing, and the whole reference study of results/bombastic/.
STUDIES = {"match": match_study, "tournament": tournament, "reference": reference_study}
