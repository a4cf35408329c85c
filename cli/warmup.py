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
from collections.abc import Callable
from dataclasses import dataclass

import click

from solvers.bombastic import KERNELS as BOMBASTIC_KERNELS
from solvers.common.errors import unknown
from solvers.common.numba_cache import all_cached, argument_index
from solvers.common.progress import progress_bar, wants_progress


@dataclass(frozen=True)
class Kernel:
    """One kernel of a game: what it is, its compile estimate, its entry points and a
    call that compiles them (a tiny run)."""

    game: str
    part: str
    title: str
    #: Cold-compile seconds on the 2-core AMD EPYC machine, empty cache, rounded up
    #: (results/PERFORMANCE.md, "Cold compile of each kernel").
    estimate: float
    entries: Callable[[], list]
    warm: Callable[..., None]
    #: The part of the same game whose kernel this one builds on (its callees compiled
    #: already), and the estimate when that part is not cached yet.
    after: str | None = None
    estimate_alone: float | None = None

    def estimate_now(self) -> float:
        """The estimate for this process (`estimate_now`)."""
        return estimate_now(self)


def estimate_now(kernel) -> float:
    """The estimate of a kernel record for this process: `estimate_alone` while the part
    it is built `after` is not cached."""
    if kernel.after is not None and kernel.estimate_alone is not None:
        if not all(all_cached(k.entries()) for k in kernels_of(kernel.game, kernel.after)):
            return kernel.estimate_alone
    return kernel.estimate


def _allisbomb_solve(node_limit: int = 1) -> None:
    from solvers.allisbomb.config import GameConfig
    from solvers.allisbomb.solver import solve, table_bits_for

    # also allocates the transposition table the solve will use
    solve(
        GameConfig(blitz=True),
        list(range(13)),
        node_limit=1,
        check=False,
        table_bits=table_bits_for(node_limit),
    )


def _dfs_form(bounded: bool = False) -> tuple:
    """`kernel.dfs` in one of its compiled forms, as an entry (dispatcher, accept): for the
    bounded keep-most search or any other (a read-only `objective`:
    kernel._bound_at_root)."""
    from solvers.allisbomb import kernel as K

    objective = argument_index(K.dfs, "objective")

    def accept(sig: tuple) -> bool:
        return (not sig[objective].mutable) == bounded

    return (K.dfs, accept)


def _allisbomb_solve_entries() -> list:
    from solvers.allisbomb import kernel as K

    return [K.setup, _dfs_form()]


def _allisbomb_shortest() -> None:
    from solvers.allisbomb.config import GameConfig
    from solvers.allisbomb.rules import new_game
    from solvers.allisbomb.solver import compiled, solve_shortest

    cs = compiled(GameConfig(blitz=True)).cards
    # a Blitz deal won within 50 positions: the shortest search runs only after a win
    # (on an undecided deal it returned before `kernel.shortest` was ever compiled)
    won = new_game(cs, [9, 1, 3, 12, 7, 2, 10, 4, 6, 0, 11, 5, 8])
    solve_shortest(won, 50, None, check=False)


def _allisbomb_shortest_entries() -> list:
    from solvers.allisbomb import kernel as K

    return [K.shortest]


def _allisbomb_keep_most(node_limit: int = 1) -> None:
    from solvers.allisbomb.config import GameConfig
    from solvers.allisbomb.rules import new_game
    from solvers.allisbomb.solver import compiled, solve_state, table_bits_for

    cs = compiled(GameConfig(blitz=True)).cards
    # also allocates the transposition table the search will use
    solve_state(
        new_game(cs, list(range(13))),
        node_limit=1,
        check=False,
        keep_most=True,
        table_bits=table_bits_for(node_limit),
    )


def _allisbomb_keep_most_entries() -> list:
    return [_dfs_form(bounded=True)]


def _allisbomb_extended() -> None:
    """Compile the extended vocabulary's two entry points, which the solver calls through
    their addresses in a program with extended rows (kernel.extended_entries)."""
    from solvers.allisbomb import kernel as K
    from solvers.common.numba_call import address_of

    address_of(K._ext_step, K.EXT_STEP_ARGS)
    address_of(K._draw_number, K.EXT_DRAW_ARGS)


def _allisbomb_extended_entries() -> list:
    from solvers.allisbomb import kernel as K

    return [
        (K._ext_step, lambda sig: tuple(sig) == K.EXT_STEP_ARGS),
        (K._draw_number, lambda sig: tuple(sig) == K.EXT_DRAW_ARGS),
    ]


def _allisbomb_sweep() -> None:
    import numpy as np

    from solvers.allisbomb.config import GameConfig
    from solvers.allisbomb.solver import solve_batch

    solve_batch(GameConfig(blitz=True), np.arange(13, dtype=np.int64)[None, :], node_limit=1)


def _allisbomb_sweep_entries() -> list:
    from solvers.allisbomb import kernel as K

    return [K.solve_many]


def _allisbomb_exhaust() -> None:
    """Decide one Blitz deal with the whole count's shared-table search
    (exhaust.decide_shared), its decks built as the exhaust builds them (by rank and by
    group). Deal 0 of group 0 is lost in 4 positions, well within the search's node limit:
    no deal goes on to the escalation (the `sweep` part's kernel)."""
    import numpy as np

    from solvers.allisbomb import exhaust as E
    from solvers.allisbomb.blitz_ranks import decks_of_ranks, group_decks

    decks_of_ranks(np.zeros(1, np.int64))
    decks, _ = group_decks(np.zeros(1, np.int64))
    E.decide_shared(decks[:1], E.SharedTable())


def _allisbomb_exhaust_entries() -> list:
    from solvers.allisbomb import blitz_ranks, exhaust_kernel

    return [
        exhaust_kernel.solve_shared,
        exhaust_kernel.new_frames,
        blitz_ranks._fill_decks,
        blitz_ranks._fill_group_decks,
    ]


def _dragon() -> None:
    import numpy as np

    from solvers.dragon import kernel
    from solvers.dragon.agents import CODES

    kernel.run_games(2, np.arange(1, dtype=np.uint64), [CODES["random"]] * 2)


def _dragon_entries() -> list:
    from solvers.dragon import kernel

    return [kernel.play_many]


def _dragon_montecarlo() -> None:
    import numpy as np

    from solvers.dragon import kernel
    from solvers.dragon.agents import CODES

    kernel.run_games(2, np.arange(1, dtype=np.uint64), [CODES["montecarlo"], CODES["random"]])


def _dragon_montecarlo_entries() -> list:
    from solvers.dragon import kernel

    return [kernel.play_many_mc]


def _bomber() -> None:
    import numpy as np

    from solvers.bomber import kernel

    kernel.run_random_games(np.arange(1, dtype=np.uint64), 3)


def _bomber_entries() -> list:
    from solvers.bomber import kernel

    return [kernel.play_random_games]


#: The estimates below are cold-compile CPU seconds on the 2-core AMD EPYC machine, one
#: process each into an empty cache, idle, rounded up (results/PERFORMANCE.md, "Cold
#: compile of each kernel"; Numba's call typing answered from a table,
#: solvers.common.numba_typing).
#: The extended vocabulary's steps (card files with extended rows only), compiled after the
#: solver's part: 6.1-6.4 CPU-s (7.9 alone).
EXTENDED_ESTIMATE = 10
#: The keep-most search, after the solver or alone (a keep-most solve compiles it alone):
#: 6.9 and 17.4-17.5.
KEEP_MOST_ESTIMATE, KEEP_MOST_ESTIMATE_ALONE = 8, 20
#: The exhaust's shared-table search (`exhaust_kernel.solve_shared` and the Blitz deal
#: builders), after the sweep's kernel (as `exhaust` compiles it) or alone: 8.2 and 19.4-20.1.
EXHAUST_ESTIMATE, EXHAUST_ESTIMATE_ALONE = 10, 22
#: The sweep's kernel after the solver's (as `sweep`, `sensitivity` and `exhaust` compile
#: it, `ensure_sweep`) or alone: 7.3-7.5 and 22.9 (before its copies became internal to
#: it, solvers.common.numba_entry, which added about 1.3 after the solver).
SWEEP_ESTIMATE, SWEEP_ESTIMATE_ALONE = 9, 25

KERNELS: list[Kernel] = [
    Kernel(
        "allisbomb",
        "solve",
        "All Is Bomb solver",
        18,  # 15.6-16.0
        _allisbomb_solve_entries,
        _allisbomb_solve,
    ),
    Kernel(
        "allisbomb",
        "shortest",
        "All Is Bomb shortest search",
        5,  # 3.8 after the solver
        _allisbomb_shortest_entries,
        _allisbomb_shortest,
    ),
    Kernel(
        "allisbomb",
        "keep-most",
        "All Is Bomb keep-most search",
        KEEP_MOST_ESTIMATE,
        _allisbomb_keep_most_entries,
        _allisbomb_keep_most,
        after="solve",
        estimate_alone=KEEP_MOST_ESTIMATE_ALONE,
    ),
    Kernel(
        "allisbomb",
        "extended",
        "All Is Bomb extended steps",
        EXTENDED_ESTIMATE,
        _allisbomb_extended_entries,
        _allisbomb_extended,
    ),
    Kernel(
        "allisbomb",
        "sweep",
        "All Is Bomb sweep solver",
        SWEEP_ESTIMATE,
        _allisbomb_sweep_entries,
        _allisbomb_sweep,
        after="solve",
        estimate_alone=SWEEP_ESTIMATE_ALONE,
    ),
    Kernel(
        "allisbomb",
        "exhaust",
        "All Is Bomb exhaust search",
        EXHAUST_ESTIMATE,
        _allisbomb_exhaust_entries,
        _allisbomb_exhaust,
        after="sweep",
        estimate_alone=EXHAUST_ESTIMATE_ALONE,
    ),
    *BOMBASTIC_KERNELS,
    Kernel("dragon", "play", "Bomb the Dragon kernel", 14, _dragon_entries, _dragon),  # 10.8-11.3
    Kernel(
        "dragon",
        "montecarlo",
        "Bomb the Dragon Monte Carlo strategy",
        14,  # 10.8
        _dragon_montecarlo_entries,
        _dragon_montecarlo,
    ),
    Kernel("bomber", "play", "Catch the Bomber kernel", 9, _bomber_entries, _bomber),  # 6.6
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
    """Show the Numba layer's notices (solvers.common.numba_notices: a damaged cache compiled
    again, a temporary cache folder, a Numba internal missing) as one `bombsolve: ...` line
    each on stderr; other warnings as Python shows them."""
    from solvers.common.numba_notices import NumbaNotice

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
    """Compile the extended vocabulary's steps (the `extended` part) when one of `configs`
    has a card file with extended rows, saying so on stderr first when they are not
    cached; return the seconds (0 when none has them). Called once before a sweep's
    workers start; the sweep's own kernel serves every card file."""
    from solvers.allisbomb.solver import compiled

    if not any(compiled(c).prog.extended for c in configs):
        return 0.0
    return ensure_compiled("allisbomb", "extended")


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
