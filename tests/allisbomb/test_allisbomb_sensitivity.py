"""All Is Bomb card sensitivity: edits, card files read back, paired deals, known effects, CLI."""

from __future__ import annotations

import shlex
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.cards import BLITZ_PAIRS, load_cards
from bombsolve.solvers.allisbomb.cards.config import (
    DEFAULT_CARDS,
    EXPANSIONS,
    Options,
    cards_option,
)
from bombsolve.solvers.allisbomb.kernel.program import compile_program
from bombsolve.solvers.allisbomb.studies.edits import (
    Edit,
    all_edits,
    card_file_text,
    edited_cards,
    edited_config,
    pair_deck,
    source_kinds,
    write_card_file,
)
from bombsolve.solvers.allisbomb.studies.sensitivity import (
    BASE_CARDS_FILE,
    effects,
    flips,
    needs_whole_file,
    sensitivity_study,
    write_report,
)
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.runner import load_manifest, run_study
from bombsolve.solvers.common.stats import wilson

DATA = Path(__file__).parent / "data"
KNOWN = DATA / "sensitivity_known.toml"
INERT = "LIBRARIAN/passive/drop-step-2"  # the hand-made file's step that can never act
NO_WIN = "PRINCESS/ignited/drop-step-1"  # the only step that can win the game


@pytest.fixture(autouse=True)
def _edit_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BOMBSOLVE_EDIT_DIR", str(tmp_path / "edits"))


@pytest.mark.parametrize(
    "config",
    [Options(), Options(blitz=True), Options(expansions=EXPANSIONS, hands=True)],
    ids=["base", "blitz", "all"],
)
def test_card_file_text_reads_back_to_the_same_program(config):
    cs = load_cards(config)
    path = write_card_file(card_file_text(source_kinds(config), "round trip"))
    back = load_cards(replace(config, cards_file=path))
    assert back.labels == cs.labels
    assert [c.provenance for c in back.cards] == [c.provenance for c in cs.cards]
    a, b = compile_program(cs), compile_program(back)
    for field in ("number", "keyword", "step_start", "step_count", "steps", "info"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field


def test_edits_cover_copies_numbers_and_steps_within_the_format():
    cs = load_cards(Options())
    edits = all_edits(cs)
    copies = {e.label for e in edits if e.kind == "copies"}
    assert copies == set(BLITZ_PAIRS)  # the base game's only duplicated cards
    kinds = {(c.label, s) for c in dict.fromkeys(cs.cards) for s in ("passive", "ignited")}
    numbers = {(e.label, e.side) for e in edits if e.kind == "number"}
    assert numbers == kinds  # every side's NUMBER can move at least one way
    steps = sum(len(c.passive.steps) + len(c.ignited.steps) for c in dict.fromkeys(cs.cards))
    assert sum(e.kind == "step" for e in edits) == steps
    assert len({e.key for e in edits}) == len(edits)
    # Blitz keeps one copy of each pair: no copy can go.
    assert not [e for e in all_edits(load_cards(Options(blitz=True))) if e.kind == "copies"]


def test_an_edit_changes_exactly_what_it_says():
    config = Options()
    cs = load_cards(config)
    up = load_cards(edited_config(config, Edit("number", "GUARDIAN", "passive", delta=1)))
    g = [c for c in up.cards if c.label == "GUARDIAN"][0]
    assert g.passive.number == 4 and g.ignited.number == 3
    fewer = load_cards(edited_config(config, Edit("copies", "JOKER", delta=-1)))
    assert fewer.n == cs.n - 1 and fewer.labels.count("JOKER") == 1
    dropped = load_cards(edited_config(config, Edit("step", "RASCAL", "passive", step=0)))
    assert [c for c in dropped.cards if c.label == "RASCAL"][0].passive.steps == ()
    assert dropped.labels == cs.labels


def test_pair_deck_keeps_every_card_in_place_and_inserts_uniformly():
    config = Options()
    base = load_cards(config)
    fewer = load_cards(edited_config(config, Edit("copies", "JOKER", delta=-1)))
    deck = np.random.default_rng(3).permutation(base.n)
    carried = pair_deck(base, fewer, deck, np.random.default_rng(0))
    kept = [base.labels[c] for c in deck]
    kept.reverse()
    kept.remove("JOKER")  # the second JOKER (by card id) is the one that goes
    kept.reverse()
    assert [fewer.labels[c] for c in carried] == kept
    assert sorted(carried.tolist()) == list(range(fewer.n))
    # The other way round a card is added: its position is uniform over the 18 places.
    rng = np.random.default_rng(5)
    second_joker = [i for i, lab in enumerate(base.labels) if lab == "JOKER"][1]
    places = np.zeros(base.n, int)
    for _ in range(3600):
        out = pair_deck(fewer, base, rng.permutation(fewer.n), rng)
        places[int(np.flatnonzero(out == second_joker)[0])] += 1
    expected = 3600 / base.n
    chi2 = float(((places - expected) ** 2 / expected).sum())
    assert chi2 < 40.8  # 17 degrees of freedom, p = 0.001


def _study(tmp_path, config, only=(), variant=None, player="perfect", deals=30):
    study = sensitivity_study(config, deals, seed=11, player=player, only=only, variant=variant)
    out = tmp_path / "study"
    rows = run_study(study, out, workers=1, progress=False)
    return out, rows, load_manifest(out)


def test_known_effects_on_a_hand_made_card_file(tmp_path):
    config = Options(cards_file=KNOWN)
    out, rows, manifest = _study(tmp_path, config, only=(INERT, NO_WIN))
    eff = effects(rows, manifest["identity"]["params"]).set_index("edit")
    n = 30
    base_wins = int(round(eff.at[INERT, "base_rate"] * n))
    assert 0 < base_wins < n  # a sample with both wins and losses, so the test can fail
    # Dropping a step that can never act changes no verdict: zero difference, and the
    # interval is the Wilson bound for 0 of 30 discordant deals.
    assert eff.at[INERT, "diff"] == 0
    assert eff.at[INERT, "to_win"] == eff.at[INERT, "to_loss"] == 0
    assert eff.at[INERT, "hi"] == pytest.approx(wilson(0, n)[1])
    # Without the PRINCESS's winning step no deal can be won: every win flips to a loss.
    assert eff.at[NO_WIN, "edited_rate"] == 0
    assert eff.at[NO_WIN, "to_loss"] == base_wins
    assert eff.at[NO_WIN, "diff"] == pytest.approx(-base_wins / n)
    assert eff.at[NO_WIN, "hi"] < 0 < eff.at[INERT, "hi"]
    fl = flips(rows, manifest["identity"]["params"])
    assert set(fl["edit"]) == {NO_WIN} and len(fl) == base_wins
    assert (fl["base"] == "win").all() and (fl["edited"] == "loss").all()


def test_variant_file_with_an_inert_change_agrees_deal_by_deal(tmp_path):
    # The hand-made file differs from the stand-in base set version 1 only by the inert step.
    v1 = Options(cards_version="standin-v1")
    out, rows, manifest = _study(tmp_path, v1, variant=KNOWN)
    eff = effects(rows, manifest["identity"]["params"])
    assert len(eff) == 1 and eff.at[0, "kind"] == "file"
    assert eff.at[0, "diff"] == 0 and eff.at[0, "to_win"] == eff.at[0, "to_loss"] == 0
    wide = rows.pivot(index="case", columns="edit", values="outcome")
    assert (wide.iloc[:, 0] == wide.iloc[:, 1]).all()


def test_greedy_player_sees_the_same_known_effect(tmp_path):
    config = Options(cards_file=KNOWN)
    out, rows, manifest = _study(tmp_path, config, only=(INERT, NO_WIN), player="greedy", deals=40)
    eff = effects(rows, manifest["identity"]["params"]).set_index("edit")
    assert eff.at[NO_WIN, "edited_rate"] == 0
    assert eff.at[INERT, "to_win"] == eff.at[INERT, "to_loss"] == 0


def test_copy_edit_pairs_deals_and_the_report_opens_every_flip(tmp_path):
    only = ("JOKER/copies-1", "GUARDIAN/passive/number+1")
    out, rows, manifest = _study(tmp_path, Options(), only=only, deals=40)
    written = write_report(rows, manifest, out / "report", top=5)
    for name in (
        "effects.csv",
        "effects.parquet",
        "effects.md",
        "flips.csv",
        "tornado.png",
        "tornado.svg",
    ):
        assert (out / "report" / name).stat().st_size > 0, name
    eff = pd.read_parquet(out / "report" / "effects.parquet")
    assert list(eff["edit"]) == list(only)
    fl = pd.read_csv(out / "report" / "flips.csv", dtype=str)
    assert len(fl) > 0
    for _, f in fl.iterrows():
        # Run the recorded command in DIR/report: the verdict the study recorded.
        assert "--allow-nonstandard" in f["open_edited"]  # an edit is nonstandard
        words = shlex.split(f["open_edited"])
        assert words[:2] == ["bombsolve", "allisbomb"]
        i = words.index("--cards")
        words[i + 1] = str(out / "report" / words[i + 1])
        res = CliRunner().invoke(cli, [*words[1:], "--json"])
        assert res.exit_code == 0, res.output
        assert f'"{f["edited"]}"' in res.output, (f["edit"], res.output[:300])
    assert "STAND-IN" in (out / "report" / "effects.md").read_text()
    assert written["tornado"].suffix == ".png"


def test_resume_gives_the_same_rows(tmp_path):
    only = ("KING/passive/number+1",)
    study = sensitivity_study(Options(blitz=True), 24, seed=2, only=only, chunk_size=8)
    out = tmp_path / "s"
    whole = run_study(study, out, workers=1, progress=False)
    (out / "chunks" / "chunk-000001.parquet").unlink()
    again = run_study(study, out, workers=1, progress=False)
    pd.testing.assert_frame_equal(whole.reset_index(drop=True), again.reset_index(drop=True))


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    r = CliRunner()
    res = r.invoke(
        cli,
        [
            "allisbomb",
            "sensitivity",
            "--deals",
            "5",
            "--edit",
            "GUARDIAN/passive/numbr+1",
            "--out",
            str(tmp_path / "a"),
        ],
    )
    assert res.exit_code == 2 and "GUARDIAN/passive/number+1" in res.output
    assert "Traceback" not in res.output
    res = r.invoke(
        cli,
        [
            "allisbomb",
            "sensitivity",
            "--deals",
            "5",
            "--variant",
            str(tmp_path / "nope.toml"),
            "--out",
            str(tmp_path / "b"),
        ],
    )
    assert res.exit_code == 2 and "nope.toml" in res.output
    assert not (tmp_path / "b").exists()
    with pytest.raises(BadInput):
        sensitivity_study(Options(), 5, 0, player="random")


def test_lookahead_player_is_paired_and_deterministic(tmp_path):
    config = Options(cards_file=KNOWN)
    out, rows, manifest = _study(tmp_path, config, only=(INERT,), player="lookahead", deals=6)
    eff = effects(rows, manifest["identity"]["params"]).set_index("edit")
    # The lookahead player is deterministic and the dropped step never acts: same games.
    assert eff.at[INERT, "to_win"] == eff.at[INERT, "to_loss"] == 0
    assert "lookahead" in manifest["identity"]["params"]


def test_undecided_deals_widen_the_interval_instead_of_counting_as_losses(tmp_path):
    # A node limit this small leaves some deals undecided under both card sets.
    study = sensitivity_study(
        Options(), 40, seed=4, node_limit=300, only=("LIBRARIAN/passive/drop-step-1",)
    )
    rows = run_study(study, tmp_path / "u", workers=1, progress=False)
    eff = effects(rows, study.params).iloc[0]
    assert eff["base_undecided"] > 0 and eff["edited_undecided"] > 0
    decided_only = rows.replace({"outcome": {2: 0}})  # what folding undecided into losses gives
    folded = effects(decided_only, study.params).iloc[0]
    assert folded["diff"] == eff["diff"]  # the point estimate counts undecided as not won
    assert eff["lo"] < folded["lo"] and eff["hi"] > folded["hi"]


def _program(config):
    return compile_program(load_cards(config))


def _same_program(a, b) -> bool:
    fields = ("number", "keyword", "step_start", "step_count", "steps", "info")
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in fields)


def test_variant_on_another_set_version_opens_with_the_cards_it_was_played_with(tmp_path):
    # A variant file that defines the base set only, played on version 1 with the HANDS:
    # the HANDS come from version 1. `--cards` names a version or a file, not both, so the
    # report's commands must name a file that holds every set.
    v1 = Options(cards_version="standin-v1")
    base_only = load_cards(v1)
    step = next(e for e in all_edits(base_only) if e.kind == "step" and e.label == "MENDER")
    variant = tmp_path / "mine.toml"
    variant.write_text(card_file_text(edited_cards(base_only, step), "MENDER without a step"))
    config = replace(v1, hands=True)
    out, rows, manifest = _study(tmp_path, config, variant=variant, deals=2)
    params = manifest["identity"]["params"]
    played = edited_config(config, Edit(**params["edits"][0]["edit"]))
    assert needs_whole_file(played) and not needs_whole_file(config)
    # the version matters: the same file on the default version is another game
    other = replace(played, cards_version=DEFAULT_CARDS)
    assert not _same_program(_program(played), _program(other))
    # one deal whose verdict flipped (the rows as the study wrote them, outcome changed)
    key = params["edits"][0]["key"]
    rows = rows[rows["case"] == rows["case"].min()].copy()
    rows["outcome"] = np.where(rows["edit"] == key, 0, 1)
    report = out / "report"
    write_report(rows, manifest, report, top=1)
    fl = pd.read_csv(report / "flips.csv", dtype=str)
    assert len(fl) == 1
    assert not (report / "cards" / BASE_CARDS_FILE).exists()  # the base names its version
    for column, want in (("open_base", config), ("open_edited", played)):
        words = shlex.split(fl.at[0, column])
        assert words[:3] == ["bombsolve", "allisbomb", "--rank"] and "--hands" in words
        value = words[words.index("--cards") + 1]
        if column == "open_edited":
            assert value == "cards/variant-mine.toml"
            value = str(report / value)  # the commands run in DIR/report
        else:
            assert value == "standin-v1"
        opened = replace(Options(hands=True), **cards_option(value))
        assert _same_program(_program(opened), _program(want)), column


def test_variant_on_the_default_set_opens_with_the_file_itself(tmp_path):
    out, rows, manifest = _study(tmp_path, Options(), variant=KNOWN, deals=2)
    key = manifest["identity"]["params"]["edits"][0]["key"]
    rows = rows[rows["case"] == rows["case"].min()].copy()
    rows["outcome"] = np.where(rows["edit"] == key, 0, 1)
    fl = flips(rows, manifest["identity"]["params"])
    words = shlex.split(fl.at[0, "open_edited"])
    assert Path(words[words.index("--cards") + 1]) == KNOWN.resolve()
    assert "--cards" not in shlex.split(fl.at[0, "open_base"])


def test_a_tornado_title_counts_what_it_shows_in_words():
    from bombsolve.solvers.allisbomb.studies.sensitivity import _shown

    assert _shown(20, 83) == "the 20 largest of 83"
    assert _shown(3, 3) == "all 3 edits"
    assert _shown(1, 1) == "the one edit"
