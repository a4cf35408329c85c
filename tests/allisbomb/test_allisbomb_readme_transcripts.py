"""The transcripts the READMEs quote are what the command prints today (the seconds aside):
the worked example in README.md and the two transcripts in results/allisbomb/README.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
SECONDS = re.compile(r"in \d+\.\d+ s ")


def _block_after(text: str, marker: str) -> list[str]:
    start = text.index("```text\n", text.index(marker)) + len("```text\n")
    return text[start : text.index("```", start)].splitlines()


def _printed(seed: int) -> list[str]:
    r = CliRunner().invoke(cli, ["allisbomb", "--seed", str(seed)])
    assert r.exit_code == 0, r.output
    return [SECONDS.sub("in S s ", line) for line in r.stdout.splitlines()]


@pytest.mark.parametrize(
    ("readme", "marker", "seed"),
    [
        ("README.md", "**Worked example.**", 0),
        ("results/allisbomb/README.md", "<details><summary>seed 0: WIN", 0),
        ("results/allisbomb/README.md", "A lost deal explains itself", 42),
    ],
)
def test_a_quoted_transcript_is_what_the_command_prints(readme, marker, seed):
    quoted = [
        SECONDS.sub("in S s ", line) for line in _block_after((ROOT / readme).read_text(), marker)
    ]
    printed = _printed(seed)
    # A quote may cut the transcript ("..." alone on a line) and elide inside a line: up to
    # the cut, every line it shows whole is printed, in the same order.
    cut = next((i for i, line in enumerate(quoted) if line.strip() == "..."), len(quoted))
    shown = [line for line in quoted[:cut] if "..." not in line]
    assert len(shown) > 5
    rest = iter(printed)
    missing = [line for line in shown if not any(line == p for p in rest)]
    assert not missing, (
        f"{readme} quotes lines the command does not print (in order): {missing[:3]}"
    )
