"""The product cites what a text means (a rulebook section, a document section, a commit),
never the log of how it was made: no issue or pass numbers in code, scripts, tests or the
texts the studies write (STYLE: docstrings cite the rulebook or a document section)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ORDINALS = "second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
#: "issue 5", "Issue section 2", "session 7", "pass 9", "the seventh pass". Not "the first
#: pass" (an escalation's first node limit) nor "pass 10,000,000", "pass 2**63" (a count exceeded).
LOG_REFERENCE = re.compile(
    r"\b(issue|session)( section)? ?\d+\b|\bpass \d+\b(?![,.]\d|\*\*)|\b(" + ORDINALS + r") pass\b",
    re.IGNORECASE,
)
#: What the studies write and the code that writes it; results/**/*.json are their outputs.
CHECKED = ("cli", "solvers", "scripts", "tests", "results")
SUFFIXES = {".py", ".json", ".toml"}


def _tracked(folders=CHECKED, suffixes=SUFFIXES) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "--", *folders], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [ROOT / p for p in out.splitlines() if Path(p).suffix in suffixes]


def test_the_pattern_finds_what_it_must_and_nothing_else():
    for text in ("(issue 5)", "Issue section 2.", "session 7's machine", "ninth pass", "pass 9"):
        assert LOG_REFERENCE.search(text), text
    for text in ("the first pass at 3,000,000", "kernel games 20,000,000 pass 10,000,000",
                 "deeper counts pass 2**63", "--pass"):  # fmt: skip
        assert not LOG_REFERENCE.search(text), text


def test_no_issue_or_pass_numbers_in_code_or_outputs():
    here = Path(__file__).resolve()
    found = []
    for path in _tracked():
        if path == here or not path.is_file():
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if LOG_REFERENCE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


#: A citation of a document section in code: `results/PERFORMANCE.md, "Heading"` (the
#: quoted text may wrap onto the next comment line).
CITATION = re.compile(r'(results/[\w/]+\.md), "([^"]+)"')


def test_cited_document_sections_exist():
    missing = []
    for path in _tracked(("README.md", "cli", "solvers", "scripts"), {".py", ".md"}):
        if not path.is_file():
            continue
        text = re.sub(r"\n\s*(#:?|\s)\s*", " ", path.read_text(errors="replace"))
        for doc, heading in CITATION.findall(text):
            target = ROOT / doc
            headings = {
                line.lstrip("#").strip()
                for line in (target.read_text().splitlines() if target.is_file() else [])
                if line.startswith("#")
            }
            # a heading may add a parenthesis the citation leaves out
            if not any(h == heading or h.startswith(heading + " (") for h in headings):
                missing.append(f"{path.relative_to(ROOT)}: {doc}, {heading!r}")
    assert not missing, "\n".join(missing)
