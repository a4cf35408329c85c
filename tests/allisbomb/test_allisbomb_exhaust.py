"""Every Blitz deal (exhaust.py, `allisbomb exhaust --blitz`): deal ranks, counts, resume, Dask."""

from __future__ import annotations

import itertools
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.kernel import kernel as K
from bombsolve.solvers.allisbomb.rules import blitz_ranks as R
from bombsolve.solvers.allisbomb.search import exhaust as E
from bombsolve.solvers.allisbomb.search.solver import compiled, solve_batch
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.runner import load_manifest, load_study, run_study

ROOT = Path(__file__).resolve().parents[2]


def stable(df: pd.DataFrame) -> pd.DataFrame:
    """Every column but the CPU-time one."""
    return df.drop(columns=["cpu_seconds"])


def test_deal_count_is_13_factorial_over_3_factorial():
    assert E.N_DEALS == 1_037_836_800 == math.comb(13, 3) * math.factorial(10)
    assert compiled(E.BLITZ).cards.n == E.N_CARDS


def test_ranks_number_the_canonical_shuffles_in_lexicographic_order():
    # a small deck (5 cards, 3 equipped): every shuffle with increasing first three, once
    n, k = 5, 3
    fact, binom = R._tables(n, k)
    out = np.zeros((20, n), np.int64)
    R._fill_decks(np.arange(20, dtype=np.int64), n, k, fact, binom, out)
    canon = [p for p in itertools.permutations(range(n)) if p[0] < p[1] < p[2]]
    assert [tuple(r) for r in out] == canon  # itertools yields them in lexicographic order


def test_rank_round_trip_and_any_equipped_order():
    ranks = np.random.default_rng(3).integers(0, E.N_DEALS, 500)
    for r, deck in zip(ranks, E.decks_of_ranks(ranks), strict=True):
        assert E.deal_rank(deck) == r and E.deal_of_rank(r) == deck.tolist()
        assert list(deck[:3]) == sorted(deck[:3])
        assert E.deal_rank([deck[2], deck[0], deck[1], *deck[3:]]) == r
    with pytest.raises(BadInput, match="out of range"):
        E.deal_of_rank(E.N_DEALS)


def test_the_order_of_the_equipped_cards_is_not_part_of_the_game():
    """Rulebook B: the three cards drawn at setup are EQUIPPED, a set: the same position."""
    c = compiled(E.BLITZ)
    rows = []
    for deck in E.decks_of_ranks(np.array([0, 12345, 987654321])):
        for first in itertools.permutations(deck[:3]):
            s = np.zeros(K.state_len(c.cards.n), np.uint64)
            K.setup(np.array([*first, *deck[3:]], np.int64), c.cards.n, 1, s)
            rows.append(s)
        assert all((r == rows[-1]).all() for r in rows[-6:])


def test_counts_match_the_plain_search_deal_by_deal(tmp_path):
    ranks = np.arange(700_000, 700_600)
    res = E.decide(ranks)
    plain = solve_batch(E.BLITZ, E.decks_of_ranks(ranks), node_limit=10**6, portfolio=False)
    assert (plain["code"] != K.CODE_UNDECIDED).all()
    assert (res["code"] == plain["code"]).all()
    df = run_study(E.exhaust_study(700_000, 700_600, chunk_size=250), tmp_path, progress=False)
    assert list(df["deals"]) == [250, 250, 100]
    assert df["wins"].sum() == (plain["code"] == K.CODE_WIN).sum()
    assert df["losses"].sum() == (plain["code"] == K.CODE_LOSS).sum()
    assert df["undecided"].sum() == 0 and df["first_rank"].iloc[-1] == 700_500


def _args(out: Path, ranks: str = "0:40000", chunk: str = "2000") -> list[str]:
    return ["allisbomb", "exhaust", "--blitz", "--ranks", ranks, "--chunk-size", chunk] + [
        "--workers",
        "1",
        "--out",
        str(out),
    ]


def test_exhaust_killed_then_rerun_matches_uninterrupted(tmp_path):
    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bombsolve.cli.main", *_args(killed)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    chunks = killed / "chunks"
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if chunks.exists() and len(list(chunks.glob("*.parquet"))) >= 2:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    n_before = len(list(chunks.glob("*.parquet")))
    assert 1 <= n_before < 20, f"the kill must land mid-run ({n_before} chunks)"
    assert not (killed / "summary.json").exists()
    result = CliRunner().invoke(cli, _args(killed))
    assert result.exit_code == 0, result.output
    clean = tmp_path / "clean"
    assert CliRunner().invoke(cli, _args(clean)).exit_code == 0
    pd.testing.assert_frame_equal(stable(load_study(killed)), stable(load_study(clean)))
    assert load_manifest(killed)["runs"][-1]["chunks_computed"] == 20 - n_before
    a = json.loads((killed / "summary.json").read_text())
    b = json.loads((clean / "summary.json").read_text())
    for key in ("deals", "wins", "losses", "undecided", "positions", "fraction", "hardest"):
        assert a[key] == b[key]
    assert a["deals"] == 40000 and a["complete"] and "winnable" in result.output


def test_local_processes_and_dask_agree(tmp_path, dask_cluster):
    study = E.exhaust_study(5_000_000, 5_003_000, chunk_size=500)
    a = run_study(study, tmp_path / "a", workers=1, progress=False)
    b = run_study(study, tmp_path / "b", workers=2, progress=False)
    c = run_study(study, tmp_path / "c", scheduler=dask_cluster.address, progress=False)
    pd.testing.assert_frame_equal(stable(a), stable(b))
    pd.testing.assert_frame_equal(stable(a), stable(c))
    assert a["deals"].sum() == 3000 and len(a) == 6


def test_sample_is_reproducible_and_reports_an_interval(tmp_path):
    study = E.sample_study(900, 7, chunk_size=300)
    a = run_study(study, tmp_path / "a", workers=1, progress=False)
    b = run_study(study, tmp_path / "b", workers=2, progress=False)
    pd.testing.assert_frame_equal(stable(a), stable(b))
    assert list(a["deals"]) == [300, 300, 300]
    s = E.summarize(a, 900, sampled=True)
    assert s["deals"] == 900 and s["lo"] <= s["rate"] <= s["hi"] and "fraction" not in s
    assert (s["cards"], s["provenance"]) == ("standin-v2", "base: STAND-IN")
    assert E.progress_text(a).startswith(f"{s['wins']:,}/900 won")
    other = run_study(E.sample_study(900, 8, chunk_size=300), tmp_path / "c", progress=False)
    assert not stable(other).equals(stable(a))  # another seed, other deals


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--ranks", "9:3"], "expected 0 <= A < B"),
        (["--ranks", "x:3"], "expected A:B"),
        (["--ranks", "0:2000000000"], "expected 0 <= A < B"),
        (["--sample", "10", "--ranks", "0:5"], "drop --ranks or --sample"),
        (["--seed", "3"], "--seed is for --sample"),
        (["--groups", "5:2"], "expected 0 <= A < B"),
        (["--groups", "0:154441"], "expected 0 <= A < B"),
        (["--groups", "a"], "expected A:B"),
        (["--groups", "0:2", "--ranks", "0:5"], "drop --ranks and --sample"),
    ],
)
def test_bad_input_one_line_exit_2(tmp_path, extra, message):
    res = CliRunner().invoke(
        cli, ["allisbomb", "exhaust", "--blitz", *extra, "--out", str(tmp_path / "o")]
    )
    assert res.exit_code == 2 and message in res.output
    assert not (tmp_path / "o").exists()


def test_blitz_is_required(tmp_path):
    res = CliRunner().invoke(cli, ["allisbomb", "exhaust", "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "--blitz" in res.output


def test_groups_option_runs_a_part_of_the_whole_count(tmp_path):
    # groups 17 and 18 (the second and third of the run): the cases start at A, and the
    # counts are those of the search that keeps nothing from one deal to the next
    out = tmp_path / "g"
    args = ["allisbomb", "exhaust", "--blitz", "--groups", "17:19", "--json", "--out", str(out)]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    s = json.loads(res.stdout)  # the progress line goes to stderr
    decks, ranks = R.group_decks(np.array([17, 18]))
    want = solve_batch(E.BLITZ, decks, node_limit=E.ESCALATION.ceiling)["code"]
    assert s["deals"] == s["of"] == 2 * R.group_size() and s["groups"] == [17, 19]
    assert s["wins"] == (want == K.CODE_WIN).sum() and s["losses"] == (want == K.CODE_LOSS).sum()
    assert s["fraction"] == f"{s['wins']}/{s['deals']}" and s["ranks"] is None
    rows = load_study(out)
    assert rows["first_group"].min() == 17 and rows["stop_group"].max() == 19
    assert rows["hardest_rank"].isin(ranks).all()
