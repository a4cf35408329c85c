"""scripts/ has two rooms (README.md, "Where things are"): scripts/results/ holds the commands
that regenerate what results/ holds, each cited by a results README, README.md or a manifest
as the command that made it; scripts/bench/ holds the benchmarks results/PERFORMANCE.md
quotes. A script in neither room, or a result builder nothing cites, is a one-off that
belongs in a commit message, not in the tree."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tracked(*paths: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", *paths], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [ROOT / line for line in out.splitlines()]


def _cited(name: str, texts: list[str]) -> bool:
    return any(name in t for t in texts)


def test_every_script_is_in_one_of_the_two_rooms():
    rooms = {p.relative_to(ROOT / "scripts").parts[0] for p in _tracked("scripts")}
    assert rooms <= {"results", "bench"}, rooms


def test_every_result_builder_is_cited_as_the_command_behind_a_result():
    docs = [ROOT / "README.md", *(p for p in _tracked("results") if p.suffix in {".md", ".json"})]
    texts = [p.read_text() for p in docs if p.name != "PERFORMANCE.md"]
    builders = _tracked("scripts/results")
    assert builders
    missing = [p.name for p in builders if not _cited(f"scripts/results/{p.name}", texts)]
    assert not missing, f"result builders no README or manifest cites: {missing}"


def test_every_benchmark_is_cited_by_the_performance_page():
    text = (ROOT / "results" / "PERFORMANCE.md").read_text()
    benches = _tracked("scripts/bench")
    assert benches
    # a benchmark's data (its card sets) is cited by its folder
    missing = [
        str(p.relative_to(ROOT))
        for p in benches
        if not _cited(str(p.relative_to(ROOT)), [text])
        and not (p.suffix != ".py" and _cited(f"{p.parent.relative_to(ROOT)}/", [text]))
    ]
    assert not missing, f"benchmarks PERFORMANCE.md does not cite: {missing}"
