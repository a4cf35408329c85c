"""The seats chart of the Bomb the Dragon studies (solvers/dragon/charts.py)."""

from __future__ import annotations

import pandas as pd
import pytest

from bombsolve.solvers.dragon import charts


def _seats(counts: list[int]) -> pd.DataFrame:
    rows = [
        {
            "players": p,
            "strategy": "random",
            "seat": s,
            "games": 100,
            "wins": 100 // p,
            "win_rate": 1 / p,
            "lo": 0.5 / p,
            "hi": 1.5 / p,
            "mean_score": 40.0,
        }
        for p in counts
        for s in range(1, p + 1)
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("counts", "seats"), [([4, 5], 5), ([2, 3], 3), ([2, 3, 4, 5, 6], 6)])
def test_seats_legend_lists_only_the_seats_that_exist(counts, seats, monkeypatch, tmp_path):
    drawn = {}

    def keep(fig, out_dir, name, caption):
        drawn["fig"] = fig
        return []

    monkeypatch.setattr(charts, "save_chart", keep)
    charts.seats_chart(_seats(counts), tmp_path, "caption")
    legend = drawn["fig"].axes[-1].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == [f"seat {i}" for i in range(1, seats + 1)]
