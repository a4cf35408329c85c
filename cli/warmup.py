"""Compile the Numba kernels before they are needed, and say so when a command must compile.

Numba compiles a kernel on its first call and caches it on disk (DESIGN.md, "Speed"): the
first run of a fresh install spends seconds to a minute compiling, later runs load the
cache in about a second. `ensure_compiled` is called by every command just before its
first kernel call: when the cache is cold it prints one line on stderr first, with an
estimate (and a spinner on a terminal), then the time it took. `bombsolve warmup [GAME ...]`
compiles every kernel of the games named (all by default) with a progress bar. What the
Numba layer repairs or works around on the way is one `bombsolve: ...` line each
(`show_numba_notices`).
"""

from __future__ import annotations

import itertools
import sys
import threading
import time
import warnings

import click

from bombsolve.cli.progress import progress_bar, wants_progress
from bombsolve.solvers.allisbomb import KERNELS as ALLISBOMB_KERNELS
from bombsolve.solvers.bombastic import KERNELS as BOMBASTIC_KERNELS
from bombsolve.solvers.bomber import KERNELS as BOMBER_KERNELS
from bombsolve.solvers.common.errors import unknown
from bombsolve.solvers.common.game import Kernel
from bombsolve.solvers.common.numba_cache import all_cached
from bombsolve.solvers.dragon import KERNELS as DRAGON_KERNELS


def estimate_now(k: Kernel) -> float:
    """The compile estimate of `k` for this process: `estimate_alone` while the part it
    builds on (`after`) is not cached."""
    if k.after is not None and k.estimate_alone is not None:
        if not all(all_cached(b.entries()) for b in kernels_of(k.game, k.after)):
            return k.estimate_alone
    return k.estimate


KERNELS: list[Kernel] = [
    *ALLISBOMB_KERNELS,
    *BOMBASTIC_KERNELS,
    *DRAGON_KERNELS,
    *BOMBER_KERNELS,
]

GAMES = ("allisbomb", "bombastic", "dragon", "bomber")


def kernels_of(game: str, part: str | None = None) -> list[Kernel]:
    """The kernels of `game` (one `part` of it if given)."""
    return [k for k in KERNELS if k.game == game and (part is None or k.part == part)]


def _spinner(message: str, stop: threading.Event) -> None:
    t0 = time.perf_counter()
    for ch in itertools.cycle("|/-\\"):
        if stop.wait(0.25):
            break
        sys.stderr.write(f"\r{ch} {message} ({time.perf_counter() - t0:.0f} s)")
        sys.stderr.flush()
    sys.stderr.write("\r" + " " * (len(message) + 16) + "\r")
    sys.stderr.flush()


def show_numba_notices() -> None:
    """Show the Numba layer's notices (bombsolve.solvers.common.numba_notices: a damaged cache compiled
    again, a temporary cache folder, a Numba internal missing) as one `bombsolve: ...` line
    each on stderr; other warnings as Python shows them."""
    from bombsolve.solvers.common.numba_notices import NumbaNotice

    shown = warnings.showwarning
    if getattr(shown, "numba_notices", False):
        return

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, NumbaNotice):
            click.echo(f"bombsolve: {message}", err=True)
        else:
            shown(message, category, filename, lineno, file, line)

    show.numba_notices = True
    warnings.showwarning = show


def ensure_compiled(game: str, part: str | None = None, **warm_args) -> float:
    """Compile (or load from the on-disk cache) the kernels of `game`; return the seconds.

    When a kernel is not cached yet, one line on stderr says so before compiling, with
    its estimate; a spinner turns while it compiles if stderr is a terminal; a last line
    gives the time it took. A cached kernel loads silently.
    """
    t0 = time.perf_counter()
    for k in kernels_of(game, part):
        if all_cached(k.entries()):
            k.warm(**warm_args)
            continue
        click.echo(
            f"bombsolve: compiling the {k.title} once, about {estimate_now(k):.0f} s on an idle "
            "core; later runs start in about a second (`bombsolve warmup` compiles every "
            "kernel ahead)",
            err=True,
        )
        stop = threading.Event()
        spin = None
        if wants_progress():
            spin = threading.Thread(target=_spinner, args=(f"compiling {k.title}", stop))
            spin.daemon = True
            spin.start()
        t1 = time.perf_counter()
        try:
            k.warm(**warm_args)
        finally:
            stop.set()
            if spin is not None:
                spin.join()
        click.echo(
            f"bombsolve: compiled the {k.title} in {time.perf_counter() - t1:.0f} s "
            "(cached for later runs)",
            err=True,
        )
    return time.perf_counter() - t0


def ensure_sweep() -> float:
    """Compile the sweep's kernel (`kernel.solve_many`) after the solver's, each said on
    stderr first when it is not cached; return the seconds. The solver's part (its helpers
    and `dfs`) then serves a later single solve as well, and the sweep's own part costs
    the linking of `dfs` into its loop (results/PERFORMANCE.md, "Cold compile of each
    kernel": 15.2-16.0 then 7.3-7.5 CPU-s, against about 23-24 for the sweep's kernel
    alone)."""
    return ensure_compiled("allisbomb", "solve") + ensure_compiled("allisbomb", "sweep")


def ensure_extended(configs) -> float:
    """Compile the extended vocabulary's steps (the `extended` part) and the shortest
    search, which deepens the deals widening leaves open on such card files
    (solver.deepen_search), when one of `configs` has a card file with extended rows,
    each said on stderr first when not cached; return the seconds (0 when none has
    them). Called once before a sweep's workers start; the sweep's own kernel serves
    every card file."""
    from bombsolve.solvers.allisbomb import compiled

    if not any(compiled(c).prog.extended for c in configs):
        return 0.0
    return ensure_compiled("allisbomb", "shortest") + ensure_compiled("allisbomb", "extended")


@click.command(name="warmup")
@click.argument("games", nargs=-1, metavar="[GAME ...]")
def warmup(games: tuple[str, ...]) -> None:
    """Compile every Numba kernel of the games named (default: all four) into the cache.

    Later commands then start in about a second. Each kernel compiles once per install
    (and again after an upgrade); a kernel already cached loads in a moment.

    \b
    Examples:
      bombsolve warmup
      bombsolve warmup allisbomb dragon
    """
    for g in games:
        if g not in GAMES:
            raise unknown("game", g, GAMES)
    chosen = [k for k in KERNELS if k.game in (games or GAMES)]
    total = 0.0
    with progress_bar(len(chosen), "compiling kernels", unit="kernel") as bar:
        for k in chosen:
            bar.set_postfix_str(k.title)
            cached = all_cached(k.entries())
            t0 = time.perf_counter()
            k.warm()
            spent = time.perf_counter() - t0
            total += spent
            bar.update(1)
            click.echo(
                f"{k.game} {k.part}: {'loaded from cache' if cached else 'compiled'} "
                f"in {spent:.1f} s"
            )
    click.echo(f"all {len(chosen)} kernels ready in {total:.1f} s")
