"""Catch the Bomber balance studies on the shared runner (`bombsolve.solvers.common.runner`).

A study plays many seeded games over a list of *conditions* (player count, extra
characters, rule reading); case i plays condition ``i % len(conditions)`` with the
case's own seed, so every condition gets the same number of games and any one game can
be replayed alone (`bombsolve bomber replay --seed`). All-random agents run in the Numba
kernel, any other agents in the reference engine (same games for the same seed).

Parts (what question each answers):

- ``players``: outcome rates by player count, 3 to 6 (extras drawn at random).
- ``extras``: outcome rates by which extra characters are in play (4, 5, 6 players).
- ``readings``: the effect of each open rule reading, one flipped at a time (5 players).

The parts ``players`` and ``extras`` play every row under the default readings, or
under the readings given (`make_study`'s ``rules``; each row's label then names them).
`play_chunk` plays the games of `bombsolve bomber play` with the seeds that command
gives them.

Tables: `summarise` gives, per condition, each outcome's rate with its Wilson 95%
interval, and `achievements` splits the Bomber's victories by which achievements he
unlocked (Chaos, Escape, Bombing).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from bombsolve.solvers.bomber import rules as R
from bombsolve.solvers.bomber.agents import agents_label, parse_agents, play_game
from bombsolve.solvers.bomber.charts import ACHIEVEMENT_SETS, OUTCOME_KEYS
from bombsolve.solvers.bomber.kernel import COLUMNS, run_random_games
from bombsolve.solvers.common.errors import BadInput, unknown
from bombsolve.solvers.common.files import read_input
from bombsolve.solvers.common.multiplicity import holm
from bombsolve.solvers.common.runner import ChunkSpec, Study
from bombsolve.solvers.common.seeds import run_seeds
from bombsolve.solvers.common.stats import two_sample_score_p, wilson

PARTS = ("players", "extras", "readings")
EXTRA_KEYS = {R.Card.YOUNG_LADY: "YL", R.Card.HOLY_WARRIOR: "HW", R.Card.SUSPICIOUS_PERSON: "SP"}
READING_FLIPS = {
    "default": {},
    "dog=forbid": {"dog": "forbid"},
    "warrior_bombing=false": {"warrior_bombing": False},
    "stuck_bomber=assess": {"stuck_bomber": "assess"},
    "move_optional=false": {"move_optional": False},
}


def extras_label(mask: int) -> str:
    """Return 'YL+HW' for an extras bit mask (bit 0 Young Lady, 1 Holy Warrior, 2 SP).

    >>> extras_label(0b011), extras_label(-1)
    ('YL+HW', 'none')
    """
    names = [EXTRA_KEYS[c] for i, c in enumerate(R.EXTRAS) if mask >= 0 and mask >> i & 1]
    return "+".join(names) if names else "none"


def conditions(
    part: str, players: int | None = None, rules: R.Options | None = None
) -> list[dict[str, Any]]:
    """Return the conditions of a study part, each a JSON-serialisable dict.

    `rules` (parts players and extras) plays every row under those readings; each label
    then names the readings that differ from the defaults (``4p dog=forbid``).
    Raises BadInput for an unknown part, and for `rules` with part readings (it plays
    every reading).
    """
    default = R.Options().as_dict()
    given = (rules or R.Options()).as_dict()
    changed = " ".join(f"{k}={R.value_text(v)}" for k, v in given.items() if default[k] != v)
    suffix = f" {changed}" if changed else ""
    if part == "players":
        counts = [players] if players else [3, 4, 5, 6]
        return [
            {"players": p, "extras": -1, "rules": given, "label": f"{p}p{suffix}"} for p in counts
        ]
    if part == "extras":
        out = []
        for p in [players] if players else [4, 5, 6]:
            for combo in itertools.combinations(range(3), p - 3):
                mask = sum(1 << i for i in combo)
                label = f"{p}p {extras_label(mask)}{suffix}"
                out.append({"players": p, "extras": mask, "rules": given, "label": label})
        return out
    if part == "readings":
        if changed:
            raise BadInput(
                "--rule does not apply to the readings part (it plays every reading); "
                "expected part players or extras"
            )
        p = players or 5
        return [
            {"players": p, "extras": -1, "rules": {**default, **flip}, "label": name}
            for name, flip in READING_FLIPS.items()
        ]
    raise unknown("study part", part, PARTS)


def _extras_tuple(mask: int) -> tuple[R.Card, ...] | None:
    if mask < 0:
        return None
    return tuple(c for i, c in enumerate(R.EXTRAS) if mask >> i & 1)


def result_row(game: R.State) -> tuple[int, ...]:
    """The row of a finished reference game in the kernel's `COLUMNS` order (what the
    kernel returns for the same game)."""
    r = game.result
    extras = sum(1 << (c - R.Card.YOUNG_LADY) for c in game.characters if c in R.EXTRAS)
    return (
        int(r.outcome),
        int(r.chaos),
        int(r.escape),
        int(r.bombing),
        int(r.survival),
        int(r.termination == "bomber_stuck"),
        r.chaos_locations,
        len(game.history),
        len(game.eliminations),
        extras,
        game.bomber_player(),
    )


def play_games(
    cond: Mapping[str, Any], agents_spec: str, seeds: np.ndarray, engine: str | None = None
) -> pd.DataFrame:
    """Play one game per seed under a condition; return one row per game (kernel COLUMNS).

    ``engine=None``: all-random agents use the kernel; otherwise the reference engine and
    `play_game`. "kernel" or "reference" chooses (the kernel plays random agents only; both
    play the same games for the same seeds).
    """
    rules = R.Options(**cond["rules"])
    players, mask = int(cond["players"]), int(cond["extras"])
    by_role = parse_agents(agents_spec)
    all_random = set(by_role.values()) == {"random"}
    if engine not in (None, "kernel", "reference"):
        raise BadInput(f"unknown engine {engine!r}; expected kernel or reference")
    if engine == "kernel" and not all_random:
        raise BadInput(f"the kernel plays random agents only; got agents {agents_spec!r}")
    if engine == "kernel" or (engine is None and all_random):
        rows = run_random_games(seeds, players, rules, mask)
        return pd.DataFrame(rows, columns=list(COLUMNS))
    out = [
        result_row(play_game(players, int(s), rules, by_role, _extras_tuple(mask))) for s in seeds
    ]
    return pd.DataFrame(out, columns=list(COLUMNS)).astype("int32")


def games_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Chunk function: case i plays condition i % K with the case's own seed.

    The 64-bit seeds are not stored (they would double the committed tables); `case_game`
    recomputes any case's seed from the study's manifest.
    """
    conds = params["conditions"]
    seeds = chunk.case_seeds()
    cases = np.arange(chunk.start, chunk.stop)
    which = cases % len(conds)
    frames = []
    for k, cond in enumerate(conds):
        sel = which == k
        if not sel.any():
            continue
        df = play_games(cond, params["agents"], seeds[sel])
        df.insert(0, "case", cases[sel])
        df.insert(1, "condition", cond["label"])
        frames.append(df)
    df = pd.concat(frames, ignore_index=True).sort_values("case", kind="stable")
    df["extras"] = [extras_label(int(m)) for m in df["extras"]]
    return df.reset_index(drop=True)


def play_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Play the games [start, stop) of a `bombsolve bomber play` run (`play_study`): game i
    with seed i of ``game_seeds(seed, games)``, whatever the chunk size, so the results are
    those of one process for any number of workers. One row per game (kernel COLUMNS)."""
    seeds = run_seeds(chunk.seed, chunk.start, chunk.stop)
    df = play_games(params["condition"], params["agents"], seeds, params["engine"])
    df.insert(0, "case", np.arange(chunk.start, chunk.stop))
    return df


def play_study(cond: Mapping[str, Any], agents: str, games: int, seed: int, engine: str) -> Study:
    """Build the runner `Study` of a `play` run: `games` games of one condition (players,
    extras mask, rules) with `agents` in `engine` ("kernel" or "reference")."""
    return Study(
        name="bomber.play",
        params={"condition": dict(cond), "agents": agents, "engine": engine},
        n_cases=games,
        seed=seed,
        chunk_fn=play_chunk,
        # kernel games are ~1000x cheaper; the chunk size never changes a result
        chunk_size=50_000 if engine == "kernel" else 100,
        progress_fn=bomber_rate_text,
    )


def case_game(out_dir, case: int) -> dict[str, Any]:
    """Return the seed, condition and agents of one case of a study folder.

    Raises BadInput when the folder is not a bomber study or the case is out of range.

    The seed is recomputed exactly as the runner gave it (`ChunkSpec.case_seeds`), so
    `bombsolve bomber replay --study DIR --case N` shows the very game behind row N.
    """
    from pathlib import Path

    from bombsolve.solvers.common.runner import MANIFEST, load_manifest

    path = Path(out_dir) / MANIFEST
    if not path.exists():
        raise BadInput(f"{out_dir} has no {MANIFEST}; expected a bomber study folder")
    ident = load_manifest(out_dir)["identity"]
    try:
        params, n = ident["params"], int(ident["n_cases"])
        size, seed = int(ident["chunk_size"]), int(ident["seed"])
        conds = params["conditions"]
    except (ValueError, KeyError, TypeError) as exc:
        raise BadInput(f"{path} is not a bomber study manifest ({exc})") from None
    if not str(ident.get("study", "")).startswith("bomber."):
        raise BadInput(f"{out_dir} holds study {ident.get('study')!r}; expected a bomber study")
    if not 0 <= case < n:
        raise BadInput(f"case {case} out of range; expected 0 to {n - 1}")
    index = case // size
    chunk = ChunkSpec(index, index * size, min(index * size + size, n), seed)
    return {
        "seed": int(chunk.case_seeds()[case - chunk.start]),
        "condition": conds[case % len(conds)],
        "agents": params["agents"],
    }


def bomber_rate_text(df: pd.DataFrame) -> str:
    """Progress text: the running Bomber's victory rate and its interval."""
    k, n = int((df["outcome"] == 0).sum()), len(df)
    lo, hi = wilson(k, n)
    return f"Bomber {k / max(n, 1):.1%} [{lo:.1%}, {hi:.1%}]"


def make_study(
    part: str,
    agents: str,
    games: int,
    seed: int,
    chunk_size: int | None = None,
    players: int | None = None,
    rules: R.Options | None = None,
) -> Study:
    """Build the runner `Study` for a part; `games` is the total over all conditions,
    `rules` the readings of every row (parts players and extras; see `conditions`).

    Raises BadInput for an unknown part or agent, a non-positive game count, an
    impossible player count, or `rules` with part readings.
    """
    if games < 1:
        raise BadInput(f"game count {games} is not positive; expected 1 or more")
    if players is not None:
        R.check_setup(players, None)
        if part == "extras" and players == 3:
            raise BadInput("3 players have no extra characters; expected 4 to 6 for part extras")
    by_role = parse_agents(agents)
    label = agents_label(by_role)
    conds = conditions(part, players, rules)
    fast = set(by_role.values()) == {"random"}
    if chunk_size is None:
        chunk_size = 50_000 if fast else 500
    return Study(
        name=f"bomber.{part}",
        params={"part": part, "agents": label, "conditions": conds},
        n_cases=games,
        seed=seed,
        chunk_fn=games_chunk,
        chunk_size=chunk_size,
        progress_fn=bomber_rate_text,
    )


def against_default(summary: pd.DataFrame) -> pd.DataFrame:
    """Each reading's outcome shares against the default row of the same agents, tested
    all at once (DESIGN.md, "Truth of results"): one two-sample score test per reading
    and outcome (`two_sample_score_p`: each row plays games of its own seeds, so the rows
    are unpaired), Holm's correction over every test of the table
    (`bombsolve.solvers.common.multiplicity.holm`, family-wise 5%).

    `summary` is a readings part's summary (`summarise`: agents, condition, games and a
    share per `OUTCOME_KEYS`), each agents' set with a ``default`` row. Columns: agents,
    condition, outcome, share, default_share, p_value, holm.
    """
    rows = []
    for agents, group in summary.groupby("agents", sort=False):
        base = group[group["condition"] == "default"]
        if base.empty:
            raise BadInput(f"readings of agents {agents} have no default row to compare with")
        d = base.iloc[0]
        n0 = int(d["games"])
        for _, r in group[group["condition"] != "default"].iterrows():
            n1 = int(r["games"])
            for key in OUTCOME_KEYS:
                x1, x0 = round(r[key] * n1), round(d[key] * n0)
                rows.append(
                    {
                        "agents": agents,
                        "condition": r["condition"],
                        "outcome": key,
                        "share": x1 / n1,
                        "default_share": x0 / n0,
                        "p_value": two_sample_score_p(x1, n1, x0, n0),
                    }
                )
    out = pd.DataFrame(rows)
    out["holm"] = holm(list(out["p_value"])) if len(out) else []
    return out


def summarise(df: pd.DataFrame) -> pd.DataFrame:
    """Return per condition: games, each outcome's rate with Wilson 95% interval, etc."""
    rows = []
    for cond, g in df.groupby("condition", sort=False):
        n = len(g)
        row: dict[str, Any] = {"condition": cond, "games": n}
        for code, key in enumerate(OUTCOME_KEYS):
            k = int((g["outcome"] == code).sum())
            lo, hi = wilson(k, n)
            row[f"{key}"] = k / n
            row[f"{key}_lo"] = lo
            row[f"{key}_hi"] = hi
        for col in ("chaos", "escape", "bombing", "survival", "bomber_stuck"):
            row[f"{col}_rate"] = float(g[col].mean())
        row["mean_eliminated"] = float(g["eliminated"].mean())
        rows.append(row)
    return pd.DataFrame(rows)


def achievement_set(chaos: int, escape: int, bombing: int) -> str:
    """Name the set of unlocked achievements, e.g. 'Chaos+Escape'."""
    names = [n for n, f in (("Chaos", chaos), ("Escape", escape), ("Bombing", bombing)) if f]
    if len(names) == 3:
        return "all three"
    return "+".join(names) if names else "none"


def achievements(df: pd.DataFrame) -> pd.DataFrame:
    """Return, per condition, the share of the Bomber's victories by achievement set.

    Also the share of his victories each single achievement is part of (chaos_any...).
    """
    rows = []
    for cond, g in df.groupby("condition", sort=False):
        wins = g[g["outcome"] == 0]
        n = len(wins)
        row: dict[str, Any] = {"condition": cond, "bomber_wins": n}
        flags = zip(wins["chaos"], wins["escape"], wins["bombing"], strict=True)
        sets = [achievement_set(*t) for t in flags]
        counts = pd.Series(sets, dtype="object").value_counts()
        for name in ACHIEVEMENT_SETS:
            row[name] = float(counts.get(name, 0)) / n if n else 0.0
        for col in ("chaos", "escape", "bombing"):
            row[f"{col}_in_wins"] = float(wins[col].mean()) if n else 0.0
        rows.append(row)
    return pd.DataFrame(rows)


# --- one part, end to end -------------------------------------------------------------------


RULEBOOK = "shared/rules/catch-the-bomber.txt"


def _rules_words(rules: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in rules.items())


def caption(part: str, manifests: Mapping[str, Mapping[str, Any]]) -> str:
    """Return a chart footer naming the rules, rule readings, agents, seeds and N, read from
    the runner `manifests` of the studies drawn (agents label -> manifest)."""
    if not manifests:
        raise ValueError("a chart needs the manifests of the studies it draws")
    idents = {a: m["identity"] for a, m in manifests.items()}
    conds = [c for i in idents.values() for c in i["params"]["conditions"]]
    readings = list(dict.fromkeys(_rules_words(c["rules"]) for c in conds))
    if len(readings) == 1:
        rules = f"rule readings {readings[0]} in every row"
    else:
        rows_by_label = list({c["label"]: c for c in conds}.values())
        base = rows_by_label[0]
        diffs = [
            f"{c['label']}: "
            + _rules_words({k: v for k, v in c["rules"].items() if base["rules"].get(k) != v})
            for c in rows_by_label[1:]
        ]
        rules = (
            f"rule readings {_rules_words(base['rules'])} in row {base['label']}, the other "
            f"rows differing only in {'; '.join(diffs)}"
        )
    rows = len({c["label"] for c in conds})
    runs = "; ".join(
        f"agents {a}{'' if '=' in a else ' (all roles)'}: N={i['n_cases']:,} games over "
        f"{len(i['params']['conditions'])} rows, seed {i['seed']}"
        for a, i in idents.items()
    )
    commits = list(
        dict.fromkeys(
            r.get("git_commit") or m["git_commit"][:12]
            for m in manifests.values()
            for r in m.get("runs", [])
            if r.get("chunks_computed")
        )
    ) or list(dict.fromkeys(m["git_commit"][:12] for m in manifests.values()))
    return (
        f"Catch the Bomber, rules: {RULEBOOK}; bombsolve bomber study --part {part}, "
        f"{rows} rows; {rules}; extra characters drawn at random unless the row names them. "
        f"{runs}; games split evenly over the rows (N per row on the chart), case seeds from "
        "SeedSequence children; "
        f"Wilson 95% intervals. bombsolve solvers/bomber @ {', '.join(c[:12] for c in commits)}."
    )


def collect_part(out_dir, part: str) -> tuple[dict[str, pd.DataFrame], dict[str, dict[str, Any]]]:
    """Load every finished study of `part` under `out_dir` (one sub-folder per agents label).

    Returns ({agents label: rows}, {agents label: runner manifest}), random agents first.
    """
    from pathlib import Path

    from bombsolve.solvers.common.runner import MANIFEST, load_manifest, load_study

    frames, manifests = {}, {}
    out = Path(out_dir)
    subs = sorted(p for p in out.iterdir() if (p / MANIFEST).exists()) if out.is_dir() else []
    subs.sort(key=lambda p: (p.name != "random", p.name != "heuristic", p.name))
    for sub in subs:
        manifest = load_manifest(sub)
        ident = manifest["identity"]
        if ident.get("study") != f"bomber.{part}" or not manifest.get("finished"):
            continue
        label = ident["params"]["agents"]
        frames[label] = load_study(sub)
        manifests[label] = manifest
    return frames, manifests


# What `write_part` writes into a part folder (besides one study sub-folder per agents).
PART_FILES = frozenset(
    f"{stem}.{ext}"
    for stem, exts in (
        ("summary", ("csv", "parquet")),
        ("achievements", ("csv", "parquet", "png", "svg")),
        ("outcomes", ("png", "svg")),
        ("bomber_rate", ("png", "svg")),
    )
    for ext in exts
)


def check_part_folder(out_dir, part: str) -> None:
    """Raise BadInput unless `out_dir` is new, empty, or a folder of `part` studies.

    `bombsolve bomber study --out DIR` writes tables and charts into DIR and each study
    into DIR/<agents>; pointing it at another study's folder (another part, another game,
    or a study sub-folder itself) would overwrite that study's files, so it is refused
    before anything is written.

    >>> check_part_folder("no/such/folder", "players")
    """
    import json
    from pathlib import Path

    from bombsolve.solvers.common.runner import CHUNK_DIR, MANIFEST

    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise BadInput(f"--out {out} is a file; expected a folder for the bomber.{part} study")
    if not out.is_dir():
        return
    if (out / MANIFEST).exists():
        raise BadInput(
            f"--out {out} is itself a study folder (it holds {MANIFEST}); expected a new "
            f"folder or one written by `bombsolve bomber study --part {part}`"
        )
    for item in sorted(out.iterdir()):
        if item.is_file() and item.name in PART_FILES:
            continue
        if item.is_dir() and (item / MANIFEST).exists():
            try:
                study = json.loads(read_input(item / MANIFEST, "manifest"))["identity"]["study"]
            except (ValueError, KeyError, TypeError):
                study = None
            if study == f"bomber.{part}":
                continue
            raise BadInput(
                f"--out {out} holds another study ({study or 'unreadable manifest'} in "
                f"{item.name}); expected a new folder or one of bomber.{part} studies"
            )
        if item.is_dir() and {c.name for c in item.iterdir()} <= {CHUNK_DIR}:
            continue  # a study interrupted before its manifest; the runner vets it
        raise BadInput(
            f"--out {out} holds {item.name}, which no bomber.{part} study writes; "
            "expected a new folder or one written by this command"
        )


def write_part(
    out_dir,
    part: str,
    frames: Mapping[str, pd.DataFrame],
    manifests: Mapping[str, Mapping[str, Any]],
) -> dict:
    """Write a part's tables (CSV and Parquet) and charts (PNG and SVG) into `out_dir`.

    `frames` maps an agents label to the study's rows, `manifests` to its runner
    manifest (the captions are read from it). Returns the summary tables.
    """
    from pathlib import Path

    from bombsolve.solvers.bomber import charts
    from bombsolve.solvers.common.files import atomic_path
    from bombsolve.solvers.common.plots import save_chart

    out = Path(out_dir)
    summaries = {a: summarise(df) for a, df in frames.items()}
    ach = {a: achievements(df) for a, df in frames.items()}
    for name, tabs in (("summary", summaries), ("achievements", ach)):
        table = pd.concat([t.assign(agents=a) for a, t in tabs.items()], ignore_index=True)
        table.insert(0, "agents", table.pop("agents"))
        with atomic_path(out / f"{name}.csv") as tmp:
            table.to_csv(tmp, index=False, float_format="%.6f")
        with atomic_path(out / f"{name}.parquet") as tmp:
            table.to_parquet(tmp, index=False)
    cap = caption(part, {a: manifests[a] for a in frames})
    titles = {
        "players": "Catch the Bomber: who wins, by player count",
        "extras": "Catch the Bomber: who wins, by the extra characters in play",
        "readings": "Catch the Bomber (5 players): who wins under each rule reading",
    }
    save_chart(charts.chart_outcomes(summaries, titles[part]), out, "outcomes", cap)
    save_chart(
        charts.chart_achievements(ach, "Which achievements carry the Bomber's victories"),
        out,
        "achievements",
        cap,
    )
    save_chart(
        charts.chart_rate(
            summaries, "bomber", titles[part].replace("who wins", "the Bomber's victory")
        ),
        out,
        "bomber_rate",
        cap,
    )
    return summaries


#: The batch studies by name (the runner names them ``bomber.<name>``), each a function
#: that builds its `Study`: the parts (``make_study`` with the part given) and the one cell
#: of ``bombsolve bomber play`` (`play_study`).
STUDIES = {
    **{part: functools.partial(make_study, part) for part in PARTS},
    "play": play_study,
}
