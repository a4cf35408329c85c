"""Stand-in set versions loaded by name (CARDS.md, "The stand-in sets"): `--cards standin-v1`
and `--cards standin-v2`, the version recorded wherever a configuration is written."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb.cards.cards import (
    DATA_DIR,
    SET_FILES,
    load_cards,
    load_file,
    shipped_set,
)
from bombsolve.solvers.allisbomb.cards.config import (
    CARD_VERSIONS,
    DEFAULT_CARDS,
    EXPANSIONS,
    Options,
    cards_option,
)
from bombsolve.solvers.allisbomb.rules.rules import config_from_dict
from bombsolve.solvers.allisbomb.studies.study import (
    config_from_label,
    config_from_params,
    config_to_params,
)
from bombsolve.solvers.common.errors import BadInput

V1 = Options(cards_version="standin-v1")
V2 = Options(cards_version="standin-v2")


def _side(cs, label, side):
    return getattr(next(c for c in cs.cards if c.label == label), side)


def test_both_versions_load_by_name_and_differ():
    v1, v2 = load_cards(V1), load_cards(V2)
    assert v1.labels == v2.labels  # the rulebook fixes names and copies
    assert _side(v1, "CROISSANT", "passive").steps != _side(v2, "CROISSANT", "passive").steps
    assert v1.files == (DATA_DIR / SET_FILES["base"],)
    assert v2.files == (DATA_DIR / "standin-v2.toml",)
    assert all(c.provenance == "stand-in" for c in (*v1.cards, *v2.cards))


def test_version_1_is_exactly_the_shipped_set_files():
    every = Options(expansions=EXPANSIONS, hands=True, cards_version="standin-v1")
    cs = load_cards(every)
    for set_name in every.sets():
        mine = [c for c in dict.fromkeys(cs.cards) if c.expansion == set_name]
        shipped = list(load_file(DATA_DIR / SET_FILES[set_name]))
        kept = [c for c in shipped if not (set_name == "base" and c.name in ("PRINCESS", "KING"))]
        assert mine == kept, set_name


def test_version_2_takes_waking_up_from_version_1():
    path, cards = shipped_set("standin-v2", "waking_up")
    assert path == DATA_DIR / SET_FILES["waking_up"]
    assert "THRONE" in [c.label for c in cards]
    path, cards = shipped_set("standin-v2", "hands")
    assert path.name == "standin-v2.toml" and len(cards) == 2


@pytest.mark.parametrize("name", CARD_VERSIONS)
def test_cards_option_reads_a_version_name(name):
    assert cards_option(name) == {"cards_version": name, "cards_file": None}


def test_cards_option_reads_a_file_and_defaults(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text("")
    assert cards_option(str(f)) == {"cards_version": DEFAULT_CARDS, "cards_file": f}
    assert cards_option(None) == {"cards_version": DEFAULT_CARDS, "cards_file": None}
    # a missing .toml file is left to Options.validate ("not found")
    assert cards_option("nofile.toml")["cards_file"].name == "nofile.toml"


@pytest.mark.parametrize(
    ("typo", "nearest"), [("standin-v3", "standin-v2"), ("standin_v1", "standin-v1")]
)
def test_a_misspelt_version_is_refused_with_the_nearest(typo, nearest):
    with pytest.raises(
        BadInput, match=f"unknown card set '{typo}' \\(did you mean {nearest}\\?\\)"
    ):
        cards_option(typo)
    with pytest.raises(BadInput, match="unknown card set"):
        Options(cards_version=typo).validate()


def test_dict_names_the_version():
    other = next(v for v in CARD_VERSIONS if v != DEFAULT_CARDS)
    cfg = Options(expansions=("mosquitos",), cards_version=other)
    # the label names sets and rules only (studies made before versions keep theirs)
    assert cfg.label() == Options(expansions=("mosquitos",)).label() == "base+mosquitos"
    assert cfg.to_dict()["cards_version"] == other
    assert Options().to_dict()["cards_version"] == DEFAULT_CARDS
    assert config_from_label(f"base+mosquitos/cards={other}") == cfg
    with pytest.raises(BadInput, match="cards=standin-v7"):
        config_from_label("base/cards=standin-v7")
    assert config_from_label("base", other) == Options(cards_version=other)
    assert config_from_params(config_to_params(cfg)) == cfg
    assert config_from_dict(cfg.to_dict()) == cfg


def test_a_configuration_written_before_versions_is_version_1():
    old = config_to_params(Options())
    del old["cards_version"]
    assert config_from_params(old).cards_version == "standin-v1"
    d = Options().to_dict()
    del d["cards_version"]
    assert config_from_dict(d).cards_version == "standin-v1"


def test_cli_cards_by_name_and_typo():
    r = CliRunner().invoke(cli, ["allisbomb", "cards", "--cards", "standin-v1", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["config"]["cards_version"] == "standin-v1"
    assert data["files"] == [str(DATA_DIR / "base.toml")]
    r = CliRunner().invoke(cli, ["allisbomb", "cards", "--cards", "standin-v2"])
    assert r.exit_code == 0 and "stand-in set standin-v2" in r.output.splitlines()[0]
    r = CliRunner().invoke(cli, ["allisbomb", "cards", "--cards", "standin-v9"])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "did you mean standin-v" in lines[0] and "Traceback" not in r.output


def test_solve_json_records_the_version():
    args = ["allisbomb", "--blitz", "--seed", "3", "--json", "--cards"]
    for name in CARD_VERSIONS:
        r = CliRunner().invoke(cli, [*args, name])
        assert r.exit_code == 0, r.output
        data = json.loads(r.output)
        assert data["config"]["cards_version"] == name
        assert data["position"]["config"]["cards_version"] == name


def test_campaign_study_records_the_version_and_refuses_a_file(tmp_path):
    from bombsolve.solvers.allisbomb.studies.report import campaign_caption
    from bombsolve.solvers.allisbomb.studies.study import campaign_study

    for name in CARD_VERSIONS:
        s = campaign_study(2, 1, cards_version=name)
        assert s.params["cards_version"] == name
        manifest = {
            "identity": {"params": s.params},
            "versions": {"bombsolve": "x"},
            "git_commit": "0" * 40,
        }
        assert f"), set {name}; " in campaign_caption(manifest, "2 campaigns", 1, 1, 10)
    f = tmp_path / "mine.toml"
    f.write_text("")
    r = CliRunner().invoke(
        cli,
        [
            "allisbomb",
            "campaign",
            "--campaigns",
            "1",
            "--cards",
            str(f),
            "--out",
            str(tmp_path / "c"),
        ],
    )
    assert r.exit_code == 2 and "expected a set version" in r.output


def test_sweep_caption_names_the_version():
    from bombsolve.solvers.allisbomb.studies.sweep_caption import cards_words

    for name in CARD_VERSIONS:
        params = {"configs": [config_to_params(Options(cards_version=name))]}
        assert cards_words(params).endswith(f"stand-in set {name}")
    assert cards_words({"configs": [{"hands": False}]}).endswith("stand-in set standin-v1")
