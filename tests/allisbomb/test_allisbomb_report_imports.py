"""The report step reads a finished sweep: it must not load the solver (Numba, the
kernels, the search), whose imports were most of its start-up, nor pyplot, whose figure
managers a chart saved and closed does not need (results/PERFORMANCE.md, "The report
step")."""

from __future__ import annotations

import subprocess
import sys

HEAVY = (
    "numba",
    "bombsolve.solvers.allisbomb.kernel",
    "bombsolve.solvers.allisbomb.search",
    "matplotlib.pyplot",
)


def test_the_report_modules_load_no_solver() -> None:
    code = (
        "import sys\n"
        "from bombsolve.solvers.allisbomb import caption, headline_table, redraw_report, "
        "summarize, write_report\n"
        "from bombsolve.solvers.allisbomb.studies import charts, report\n"
        "assert report.losing_ends_text('NO_CARD_TO_PLAY+NO_WIN_REACHABLE')\n"
        f"print(sorted(m for m in sys.modules if m.startswith({HEAVY!r})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]", out
