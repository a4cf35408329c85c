"""The campaign study: whole campaigns on the runner, scored by rulebook H."""

from __future__ import annotations

import pandas as pd
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS
from bombsolve.solvers.allisbomb.studies.campaign import score
from bombsolve.solvers.common.runner import load_study


def test_campaign_command_scores_each_campaign(tmp_path):
    """Rows score by rulebook H and say, per game, whether the win was proven best."""
    out = tmp_path / "camp"
    args = [
        "allisbomb",
        "campaign",
        "--campaigns",
        "3",
        "--seed",
        "4",
        "--node-limit",
        "30000",
        "--workers",
        "1",
        "--chunk-size",
        "2",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    rows = load_study(out)
    assert len(rows) == 3
    for _, r in rows.iterrows():
        outcomes = [r[f"game:{g}"] for g in EXPANSIONS]
        assert set(outcomes) <= {"win", "loss", "undecided"}
        assert r["wins"] == sum(o == "win" for o in outcomes)
        # undecided games score as losses: a lower bound, said in the report
        assert (r["points"], r["medal"]) == score(
            int(r["kept_cards"]), [o == "win" for o in outcomes]
        )
        for g, o in zip(EXPANSIONS, outcomes, strict=True):
            # per game: proven best (branch and bound finished) and the stars it lost
            assert r[f"best:{g}"] in (True, False)
            assert pd.isna(r[f"stars_lost:{g}"]) == (o != "win")
            if o != "win":
                assert not r[f"best:{g}"]
    assert rows[[f"best:{g}" for g in EXPANSIONS]].to_numpy().any()
    assert "STAND-IN" in result.output and "lower bounds" in result.output
    assert "proven to keep the most cards" in result.output
    for name in ("campaign_scores.png", "campaign_scores.svg", "campaign_games.png", "campaign.md"):
        assert (out / "report" / name).exists()
