"""`allisbomb report` writes index.html; real headless Chromium renders every image and
table of it, the page makes no request outside itself, and it reads as a reader wants it:
the headline table first, then the charts, then the detail tables folded; percents and
readable column names; nothing wider than a 1,280-pixel window or a 375-pixel phone."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from tests.common.browser import load_page, require_chromium
from tests.common.svg import svg_text, words

PROBE = """JSON.stringify({
  images: [...document.images].map(i => ({complete: i.complete, w: i.naturalWidth,
                                           h: i.naturalHeight, shown: i.width})),
  tables: [...document.querySelectorAll('table')].map(t => ({rows: t.rows.length,
                                                            height: t.offsetHeight})),
  text: document.body.innerText
})"""


@pytest.fixture(scope="module")
def report_page(tmp_path_factory):
    root = tmp_path_factory.mktemp("page")
    common = ["--deals", "10", "--seed", "6", "--chunk-size", "5", "--workers", "1", "--no-report"]
    common += ["--cards", "standin-v1"]  # the page names version 1's card file, base.toml
    for name, configs, extra in (("a", "blitz", ["--heuristic-deals", "5"]), ("b", "base", [])):
        r = CliRunner().invoke(
            cli,
            [
                "allisbomb",
                "sweep",
                "--configs",
                configs,
                *common,
                *extra,
                "--out",
                str(root / name),
            ],
        )
        assert r.exit_code == 0, r.output
    r = CliRunner().invoke(
        cli, ["allisbomb", "report", str(root / "a"), str(root / "b"), "--out", str(root / "rep")]
    )
    assert r.exit_code == 0, r.output
    return root / "rep"


def test_report_page_renders_in_headless_chromium_and_stays_offline(report_page):
    require_chromium()
    page = report_page / "index.html"
    value, requests = load_page(page, PROBE)
    seen = json.loads(value)
    pngs = sorted(report_page.glob("*.png"))
    assert len(seen["images"]) == len(pngs) >= 4
    for img in seen["images"]:
        assert img["complete"] and img["w"] > 100 and img["h"] > 100 and img["shown"] > 0
    assert len(seen["tables"]) >= 3
    for table in seen["tables"]:
        assert table["rows"] >= 2 and table["height"] > 0
    # the manifest's provenance: both studies, their seeds, cards and version
    text = seen["text"]
    assert "SeedSequence(6)" in text and "base.toml" in text and "bombsolve" in text
    assert str(report_page.parent / "a") in text and str(report_page.parent / "b") in text
    # the page itself is the only request: nothing leaves it
    assert requests and all(u.startswith(("file:", "data:")) for u in requests), requests
    assert not any(
        tag in page.read_text() for tag in ("<script", "<link", "http://", "https://", "@import")
    )


LAYOUT = """JSON.stringify((() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const vw = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    // a table scrolls inside its own box: the box must fit, not what it scrolls
    if (el.parentElement.closest('.scroll')) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1) wide.push(el.tagName + ':' + Math.round(r.right));
  }
  const at = sel => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().top + scrollY : null; };
  return {vw, inner: innerWidth, scroll: document.documentElement.scrollWidth, wide,
          headline: at('table'), figure: at('figure'), details: at('details'),
          headers: [...document.querySelectorAll('th')].map(t => t.textContent),
          cells: [...document.querySelectorAll('td')].map(t => t.textContent),
          firstHeaders: [...document.querySelector('table').querySelectorAll('th')]
                          .map(t => t.textContent)};
})())"""


@pytest.mark.parametrize("width", [1280, 375])
def test_report_page_reads_in_order_and_fits_a_window_and_a_phone(report_page, width):
    require_chromium()
    value, _ = load_page(report_page / "index.html", LAYOUT, width=width)
    seen = json.loads(value)
    assert seen["inner"] == width  # the window; vw is its width less a scroll bar
    assert seen["scroll"] <= seen["vw"] and not seen["wide"], seen["wide"]
    # the README's headline table first, then the charts, then the folded detail tables
    assert seen["headline"] < seen["figure"] < seen["details"]
    assert "perfect-play win rate [95% CI]" in seen["firstHeaders"]
    machine = {"win_lo", "win_hi", "win_rate", "half_width_pp", "nodes_p99", "config"}
    assert not machine & set(seen["headers"]), machine & set(seen["headers"])
    assert not [h for h in seen["headers"] if "_" in h]
    # percents, not fractions; no scientific notation
    assert any(re.fullmatch(r"\d+\.\d\d% \[\d+\.\d\d, \d+\.\d\d\]", c) for c in seen["cells"])
    assert not [c for c in seen["cells"] if re.fullmatch(r"0\.\d{3,}", c)]
    assert not [c for c in seen["cells"] if re.search(r"\de[+-]\d", c)]


def test_a_sweep_without_heuristic_deals_draws_no_skill_gap(report_page, tmp_path):
    b = report_page.parent / "b"
    r = CliRunner().invoke(cli, ["allisbomb", "report", str(b), "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert not list(tmp_path.glob("skill_gap.*"))
    assert (tmp_path / "win_rate_by_config.png").exists()
    page = (tmp_path / "index.html").read_text()
    # neither its table's title nor its chart (whose caption names its data file)
    assert "Skill gap:" not in page and "skill_gap.csv" not in page
    # the combined report has both, its table and its chart, of the configuration whose
    # deals the heuristic players played alone (a's blitz, not b's base)
    assert (report_page / "skill_gap.png").exists()
    assert (report_page / "skill_gap.csv").read_text().splitlines()[1].startswith("blitz,")
    assert len((report_page / "skill_gap.csv").read_text().splitlines()) == 2
    both = (report_page / "index.html").read_text()
    assert "Skill gap:" in both and "skill_gap.csv" in both


def test_every_sweep_chart_carries_its_studies_caption_and_its_data(report_page):
    from bombsolve.solvers.allisbomb.studies.study import caption
    from bombsolve.solvers.common.runner import load_manifest

    captions = [caption(load_manifest(report_page.parent / name)) for name in ("a", "b")]
    manifest = load_manifest(report_page.parent / "a")
    assert "SeedSequence(6)" in captions[0] and "10 deals per configuration" in captions[0]
    assert f"node limit {manifest['identity']['params']['node_limit']:,}" in captions[0]
    kinds = {p.stem for p in report_page.glob("*.svg")}
    assert kinds >= {
        "win_rate_by_config", "difficulty_cdf", "solution_length_hist", "position_heatmap",
        "skill_gap",
    }  # fmt: skip
    for svg in report_page.glob("*.svg"):
        text = words(svg_text(svg))
        for c in captions:
            assert words(c) in text, svg.name
        assert (report_page / f"{svg.stem}.csv").stat().st_size > 0, svg.name


def test_campaign_charts_carry_the_campaign_caption(tmp_path):
    from bombsolve.solvers.common.runner import load_manifest

    r = CliRunner().invoke(
        cli,
        ["allisbomb", "campaign", "--campaigns", "3", "--seed", "5", "--node-limit", "20000",
         "--workers", "1", "--out", str(tmp_path)],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    printed = r.stdout.strip().splitlines()[-1]
    ident = load_manifest(tmp_path)["identity"]
    assert f"seed {ident['seed']}" in printed or f"SeedSequence({ident['seed']})" in printed
    assert "3 campaigns" in printed
    for stem in ("campaign_scores", "campaign_games"):
        assert words(printed) in words(svg_text(tmp_path / "report" / f"{stem}.svg"))
        assert (tmp_path / "report" / f"{stem}.csv").exists()
