"""Generated README blocks refuse to overwrite hand edits, and live where their writers write."""

import re
from pathlib import Path

import pytest

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.readme import render_block, update_block
from tests.common.scripts import load_script


def test_insert_update_and_refuse_hand_edits(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# T\n\n## Results\n\nprose\n")
    assert update_block(readme, "r", "| a |\n", anchor="## Results")
    text = readme.read_text()
    assert "## Results\n\n<!-- generated:r sha=" in text and "| a |\n<!-- /generated:r -->" in text
    assert text.endswith("prose\n")
    assert not update_block(readme, "r", "| a |\n")
    assert update_block(readme, "r", "| b |\n")
    assert "| b |" in readme.read_text() and "| a |" not in readme.read_text()
    readme.write_text(readme.read_text().replace("| b |", "| typed by hand |"))
    with pytest.raises(BadInput, match="edited by hand"):
        update_block(readme, "r", "| c |\n")
    assert "typed by hand" in readme.read_text()


ROOT = Path(__file__).resolve().parents[2]


#: Each generated block of the repository and the file its writer's default puts it in.
WRITERS = {
    "allisbomb-results-v2": lambda: load_script("allisbomb_results").block_home(
        "allisbomb-results-v2"
    ),
    "allisbomb-results": lambda: load_script("allisbomb_results").block_home("allisbomb-results"),
    "allisbomb-players": lambda: load_script("allisbomb_players").README,
    "allisbomb-sensitivity": lambda: load_script("allisbomb_sensitivity_readme").README,
    "allisbomb-standin-targets": lambda: load_script("allisbomb_sensitivity_readme").README,
    "allisbomb-seeds": lambda: load_script("allisbomb_seeds").README,
    "bombastic-ladder": lambda: load_script("bombastic_reference").HOMES["bombastic-ladder"],
    "bombastic-first-player": lambda: load_script("bombastic_reference").HOMES[
        "bombastic-first-player"
    ],
    "bombastic-cards": lambda: load_script("bombastic_reference").HOMES["bombastic-cards"],
    "bombastic-strength": lambda: load_script("bombastic_strength").README,
    "bombastic-strength-greedy": lambda: load_script("bombastic_strength").README,
    "bombastic-strength-fresh": lambda: load_script("bombastic_strength").README,
    "bombastic-paired-decks": lambda: load_script("bombastic_paired_decks").README,
    "bombastic-first-player-ismcts": lambda: load_script("bombastic_paired_decks").README,
    "bombastic-first-player-2000": lambda: load_script("bombastic_paired_decks").README,
    "dragon-ladder": lambda: load_script("dragon_results").README,
    "dragon-preset": lambda: load_script("dragon_preset_results").README,
    "bomber-results": lambda: load_script("bomber_results").README,
}


def _blocks() -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    pat = re.compile(
        r"<!-- generated:([\w-]+) sha=([0-9a-f]+) -->\n(.*?)<!-- /generated:\1 -->", re.S
    )
    for path in [ROOT / "README.md", *sorted((ROOT / "results").rglob("*.md"))]:
        for m in pat.finditer(path.read_text()):
            assert render_block(m.group(1), m.group(3)) == m.group(0), (
                f"{path}: block {m.group(1)} was edited by hand (its text no longer has its sha)"
            )
            found.setdefault(m.group(1), []).append(path)
    return found


def test_every_block_lives_in_one_file_the_one_its_writer_writes():
    found = _blocks()
    assert set(WRITERS) <= set(found), f"blocks missing: {set(WRITERS) - set(found)}"
    for name, paths in found.items():
        assert len(paths) == 1, f"block {name} is in {len(paths)} places: {paths}"
        if name in WRITERS:  # (a block added later without an entry here is not refused)
            assert paths[0] == WRITERS[name](), (
                f"{name} is in {paths[0]}, its writer writes {WRITERS[name]()}"
            )
