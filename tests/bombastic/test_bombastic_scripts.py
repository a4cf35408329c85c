"""scripts/results/bombastic_strength.py and bombastic_paired_decks.py: tiny runs, counted by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from bombsolve.solvers.bombastic.agents import make_agent, play_game
from bombsolve.solvers.bombastic.rules import Options
from bombsolve.solvers.common.readme import render_block
from tests.common.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


def test_strength_counts_both_seatings_on_the_same_deals(tmp_path):
    mod = load_script("bombastic_strength")
    mod.run("heuristic", "random", 6, 11, tmp_path, None)
    s = mod.summarize(tmp_path)
    assert s["deals_done_both_seatings"] == 6
    ax = mod.load_study(tmp_path / "a_x")
    ao = mod.load_study(tmp_path / "a_o")
    assert ax["seed"].tolist() == ao["seed"].tolist()  # the same deals
    # Replay every game by hand: A (heuristic) as X, then as O.
    wins_x = wins_o = 0
    for seed in ax["seed"]:
        wins_x += play_game(make_agent("heuristic"), make_agent("random"), int(seed)).winner == 0
        wins_o += play_game(make_agent("random"), make_agent("heuristic"), int(seed)).winner == 1
    t = s["table"].set_index("seating")
    assert t.loc["A as X (moves first)", "a_wins"] == wins_x
    assert t.loc["A as O", "a_wins"] == wins_o
    assert t.loc["both seatings", "a_wins"] == wins_x + wins_o
    assert t.loc["both seatings", "games"] == 12
    assert "| both seatings | 12 |" in mod.readme_block(s, None)


def test_strength_run_alternates_the_seatings_chunk_by_chunk(tmp_path, monkeypatch):
    """A run stopped early has played about as many deals in each seating."""
    from bombsolve.solvers.common import runner

    mod = load_script("bombastic_strength")
    checks = [0]
    calls = []
    real_run, real_match = mod.run_study, mod.match_study

    def spent(deadline):  # the budget lets exactly one chunk start per call
        checks[0] += 1
        return deadline is not None and checks[0] > 1

    def run_study(study, folder, **kw):
        checks[0] = 0
        df = real_run(study, folder, **kw)
        calls.append((folder.name, len(df), df.attrs["complete"]))
        return df

    monkeypatch.setattr(runner, "_spent", spent)
    monkeypatch.setattr(mod, "run_study", run_study)
    monkeypatch.setattr(mod, "match_study", lambda *a: real_match(*a, chunk_size=4))
    mod.run("heuristic", "random", 10, 3, tmp_path, None)
    assert calls == [
        ("a_x", 4, False),
        ("a_o", 4, False),
        ("a_x", 8, False),
        ("a_o", 8, False),
        ("a_x", 10, True),
        ("a_o", 10, True),
    ]
    assert mod.summarize(tmp_path)["deals_done_both_seatings"] == 10


def test_paired_decks_difference_is_over_the_same_cases(tmp_path):
    mod = load_script("bombastic_paired_decks")
    decks = ["base deck", "without ALARM"]
    mod.run("heuristic", decks, 30, 5, tmp_path)
    table, meta = mod.summarize(tmp_path, decks)
    base = mod.load_study(tmp_path / "base_deck")
    other = mod.load_study(tmp_path / "without_ALARM")
    assert base["seed"].tolist() == other["seed"].tolist()
    diff = ((other["winner"] == 0).astype(float) - (base["winner"] == 0).astype(float)).mean()
    row = table.set_index("deck").loc["without ALARM"]
    assert row["paired_games"] == 30
    assert row["diff_vs_base"] == pytest.approx(diff)
    assert row["diff_lo"] <= diff <= row["diff_hi"]
    # The same tiles per case in both decks (the setup shuffles the tiles first).
    from bombsolve.solvers.bombastic.rules import State

    for seed in base["seed"][:5]:
        a = State.new(int(seed), Options()).tiles
        b = State.new(int(seed), Options(alarms=False)).tiles
        assert a == b


@pytest.mark.parametrize(
    "script, block, reader, original",
    [
        ("bombastic_strength", "bombastic-strength", "strength", None),
        ("bombastic_strength", "bombastic-strength-greedy", "strength_greedy", None),
        ("bombastic_strength", "bombastic-strength-fresh", "strength_fresh", "strength"),
        ("bombastic_paired_decks", "bombastic-paired-decks", "paired", None),
        ("bombastic_paired_decks", "bombastic-first-player-ismcts", "paired_ismcts300", None),
        ("bombastic_paired_decks", "bombastic-first-player-2000", "first_player_2000", None),
    ],
)
def test_readme_blocks_are_the_scripts_output_on_the_committed_results(
    script, block, reader, original
):
    mod = load_script(script)
    if reader.startswith("strength"):
        out = ROOT / "results" / "bombastic" / reader
        s = mod.summarize(out)
        timing = (out / "timing.json").read_text() if (out / "timing.json").exists() else None
        import json

        orig = mod.summarize(ROOT / "results" / "bombastic" / original) if original else None
        body = mod.readme_block(s, json.loads(timing) if timing else None, orig)
    else:
        out = ROOT / "results" / "bombastic" / reader
        decks = sorted(
            (p.name.replace("_", " ") for p in out.iterdir() if p.is_dir()),
            key=lambda d: [n for n, _ in mod.card_variants()].index(d),
        )
        body = mod.readme_block(*mod.summarize(out, decks))
    readme = mod.README.read_text()  # the file the script writes the block into
    m = re.search(
        rf"<!-- generated:{block} sha=\w+ -->\n.*?<!-- /generated:{block} -->", readme, re.S
    )
    assert m, f"{mod.README} has no {block} block"
    assert m.group(0) == render_block(block, body)


def test_reference_readme_blocks_are_the_scripts_output_on_the_committed_results():
    """The ladder, first-player and cards blocks: bombastic_reference.py on the committed
    tables gives the README's text, and no pairing under the compared size reads plain."""
    mod = load_script("bombastic_reference")
    blocks = mod.readme_blocks(ROOT / "results" / "bombastic")
    assert set(blocks) == {"bombastic-ladder", "bombastic-first-player", "bombastic-cards"}
    assert set(mod.HOMES) == set(blocks)
    for name, body in blocks.items():
        readme = mod.HOMES[name].read_text()  # the file the script writes the block into
        m = re.search(
            rf"<!-- generated:{name} sha=\w+ -->\n.*?<!-- /generated:{name} -->", readme, re.S
        )
        assert m, f"{mod.HOMES[name]} has no {name} block"
        assert m.group(0) == render_block(name, body)
    import pandas as pd

    first = pd.read_csv(ROOT / "results" / "bombastic" / "first_player.csv")
    for r in first.itertuples():
        row = next(line for line in blocks["bombastic-first-player"].splitlines()
                   if line.startswith(f"| {r.pairing} |"))  # fmt: skip
        assert row.endswith("* |") == (r.games_per_seating < mod.COMPARED), row


def test_strength_with_two_workers_plays_the_same_games_as_one(tmp_path, monkeypatch):
    mod = load_script("bombastic_strength")
    real_match = mod.match_study
    monkeypatch.setattr(mod, "match_study", lambda *a: real_match(*a, chunk_size=3))
    mod.run("heuristic", "random", 9, 21, tmp_path / "one", None, workers=1)
    mod.run("heuristic", "random", 9, 21, tmp_path / "two", None, workers=2)
    for seating in ("a_x", "a_o"):
        one = mod.load_study(tmp_path / "one" / seating)
        two = mod.load_study(tmp_path / "two" / seating)
        assert len(one) == 9
        pd.testing.assert_frame_equal(one, two)
    manifest = mod.load_manifest(tmp_path / "two" / "a_x")
    assert any(r["executor"] == "processes x2" for r in manifest["runs"])
    s1, s2 = mod.summarize(tmp_path / "one"), mod.summarize(tmp_path / "two")
    pd.testing.assert_frame_equal(s1["table"], s2["table"])


def test_strength_refuses_a_worker_count_below_one(capsys, monkeypatch):
    mod = load_script("bombastic_strength")
    monkeypatch.setattr("sys.argv", ["bombastic_strength.py", "--workers", "0"])
    with pytest.raises(SystemExit) as e:
        mod.main()
    assert e.value.code == 2
    assert "--workers 0 is not positive" in capsys.readouterr().err


def test_strength_reproduction_says_whether_the_fresh_rate_lands_inside(tmp_path):
    mod = load_script("bombastic_strength")
    mod.run("heuristic", "random", 6, 11, tmp_path / "orig", None)
    mod.run("heuristic", "random", 6, 12, tmp_path / "fresh", None)
    orig, fresh = mod.summarize(tmp_path / "orig"), mod.summarize(tmp_path / "fresh")
    old = orig["table"].set_index("seating").loc["both seatings"]
    new = fresh["table"].set_index("seating").loc["both seatings"]
    inside = old["lo"] <= new["rate"] <= old["hi"]
    text = mod.reproduction(fresh, orig)
    assert f"of seed 11 (A won {mod._pct(old['rate'], old['lo'], old['hi'])} of 12 games)" in text
    assert f"on seed 12 A won {mod._pct(new['rate'], new['lo'], new['hi'])} of 12," in text
    assert text.endswith(("inside" if inside else "outside") + " the original interval.")
    # A rate pushed outside the original interval is called outside.
    far = dict(fresh, table=fresh["table"].assign(rate=old["hi"] + 0.01))
    assert mod.reproduction(far, orig).endswith("outside the original interval.")
    assert text in mod.readme_block(fresh, None, orig)
    with pytest.raises(ValueError, match="expected a fresh seed"):
        mod.reproduction(orig, orig)
    with pytest.raises(ValueError, match="cannot check"):
        mod.reproduction(dict(fresh, b="greedy"), orig)


def test_strength_reproduces_refuses_a_wrong_folder_before_running(tmp_path, capsys, monkeypatch):
    mod = load_script("bombastic_strength")
    mod.run("heuristic", "random", 3, 11, tmp_path / "orig", None)
    calls = []
    monkeypatch.setattr(mod, "run", lambda *a: calls.append(a))
    base = ["x.py", "--a", "heuristic", "--b", "random", "--out", str(tmp_path / "new")]
    for extra, message in (
        (["--reproduces", str(tmp_path / "none")], "holds no strength study"),
        (["--reproduces", str(tmp_path / "orig"), "--seed", "11"], "expected a fresh seed"),
        (["--reproduces", str(tmp_path / "orig"), "--b", "greedy"], "expected heuristic against"),
    ):
        monkeypatch.setattr("sys.argv", base + extra)
        with pytest.raises(SystemExit) as e:
            mod.main()
        assert e.value.code == 2
        assert message in capsys.readouterr().err
    assert not calls and not (tmp_path / "new").exists()


def test_paired_decks_stopped_early_says_how_far_and_resumes(tmp_path, monkeypatch):
    from bombsolve.solvers.common import runner

    mod = load_script("bombastic_paired_decks")
    real_match, real_spent = mod.match_study, runner._spent
    monkeypatch.setattr(mod, "match_study", lambda *a: real_match(*a, chunk_size=3))
    checks = [0]

    def spent(deadline):  # the budget lets exactly one chunk start
        checks[0] += 1
        return deadline is not None and checks[0] > 1

    monkeypatch.setattr(runner, "_spent", spent)
    mod.run("heuristic", [mod.BASE], 6, 5, tmp_path, minutes=30.0)
    table, meta = mod.summarize(tmp_path, [mod.BASE])
    assert table["games"].tolist() == [3]
    block = mod.readme_block(table, meta)
    assert block.endswith("Unfinished (the study resumes): base deck 3 of 6 planned games.")
    monkeypatch.setattr(runner, "_spent", real_spent)
    mod.run("heuristic", [mod.BASE], 6, 5, tmp_path)
    table, meta = mod.summarize(tmp_path, [mod.BASE])
    assert table["games"].tolist() == [6]
    assert "Unfinished" not in mod.readme_block(table, meta)


@pytest.mark.parametrize("reader", ["paired", "paired_ismcts300", "first_player_2000"])
def test_paired_decks_mark_the_effects_that_survive_holm(reader):
    """Each deck's p-value is the test its interval inverts (below 5% exactly when the
    interval excludes zero), and the marks are Holm's over the table's decks."""
    from bombsolve.solvers.common.multiplicity import holm

    mod = load_script("bombastic_paired_decks")
    out = ROOT / "results" / "bombastic" / reader
    decks = [n for n, _ in mod.card_variants() if (out / n.replace(" ", "_")).is_dir()]
    table, _ = mod.summarize(out, decks)
    effects = table[table["p_value"].notna()]
    assert len(effects) == len(decks) - 1
    for r in effects.to_dict("records"):
        excludes_zero = r["diff_lo"] > 0 or r["diff_hi"] < 0
        assert (r["p_value"] < 0.05) == excludes_zero, r
    assert list(effects["holm"]) == holm(list(effects["p_value"]))
    block = mod.readme_block(*mod.summarize(out, decks))
    assert block.count("**survives Holm**") == int(effects["holm"].sum()) + 1  # + the note
