"""Generated README blocks refuse to overwrite hand edits."""

import pytest

from solvers.common.errors import BadInput
from solvers.common.readme import update_block


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
