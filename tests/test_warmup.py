"""`bombsolve warmup` and the compile announcement (`bombsolve.cli.warmup.ensure_compiled`)."""

from __future__ import annotations

import inspect

import numba
from click.testing import CliRunner

from bombsolve.cli import warmup
from bombsolve.cli.main import cli
from bombsolve.solvers.common.game import Kernel
from bombsolve.solvers.common.numba_cache import all_cached, is_cached, loaded


def test_every_kernel_names_real_cached_entry_points():
    for k in warmup.KERNELS:
        assert k.game in warmup.GAMES
        entries = k.entries()
        assert entries, k
        for e in entries:
            # a dispatcher, or (dispatcher, accept): one compiled form of it
            d = e[0] if isinstance(e, tuple) else e
            assert isinstance(d, numba.core.registry.CPUDispatcher), (k, d)
            assert d._cache._cache_file is not None  # compiled with an on-disk cache


def test_a_cold_kernel_is_announced_on_stderr_before_it_compiles(monkeypatch, capsys):
    @numba.njit  # no on-disk cache: never "cached" before its first call
    def cold(x):
        return x + 1

    seen = []

    def warm():
        seen.append(capsys.readouterr().err)  # what was printed before compiling began
        cold(1)

    k = Kernel("bomber", "play", "test kernel", 7, lambda: [cold], warm)
    monkeypatch.setattr(warmup, "KERNELS", [k])
    assert not is_cached(cold)
    warmup.ensure_compiled("bomber")
    assert "compiling the test kernel once, about 7 s" in seen[0]
    assert "compiled the test kernel in" in capsys.readouterr().err
    assert all_cached([cold])  # compiled now: a second call is silent
    warmup.ensure_compiled("bomber")
    assert capsys.readouterr().err == ""


def test_warmup_refuses_an_unknown_game_with_the_nearest():
    r = CliRunner().invoke(cli, ["warmup", "dragn"])
    assert r.exit_code == 2
    assert "unknown game 'dragn' (did you mean dragon?)" in r.output


def test_warmup_compiles_a_game():
    r = CliRunner().invoke(cli, ["warmup", "bomber"])
    assert r.exit_code == 0, r.output
    assert "bomber play:" in r.stdout and "kernels ready" in r.stdout
    assert all_cached(warmup.kernels_of("bomber")[0].entries())


def test_each_all_is_bomb_warmup_part_compiles_all_its_entry_points():
    # (the search part once stopped before `kernel.shortest`: its deal was undecided)
    for k in warmup.kernels_of("allisbomb"):
        k.warm()
        # called in this process (compiled or loaded from the disk cache), not only on disk
        assert all(loaded(e) for e in k.entries()), k.part


def test_the_bombastic_ismcts_part_is_cached_once_its_agents_have_played():
    """The check before an ISMCTS game names the dispatchers those agents call: once each
    ISMCTS agent a command can name has played, it says cached (it once named the informed
    rollout and the casual playout, which no agent calls, and announced a compile on every
    run)."""
    from bombsolve.solvers.bombastic import QUICK_AGENTS, make_agent, play_game

    (k,) = warmup.kernels_of("bombastic", "ismcts")
    for spec in QUICK_AGENTS:
        if spec.startswith("ismcts"):
            play_game(make_agent(spec), make_agent("random"), 1)
    assert all(loaded(e) for e in k.entries())
    assert all_cached(k.entries())


def test_the_keep_most_part_is_the_bounded_form_of_the_solver():
    """The plain solve's kernel does not hold the keep-most bound (kernel._bound_at_root):
    the keep-most search is a compiled form of its own, which its part names."""
    from bombsolve.solvers.allisbomb import kernel_module as K

    at = list(inspect.signature(K.dfs.py_func).parameters).index("objective")
    seen = []
    for part, read_only in (("solve", False), ("keep-most", True)):
        k = warmup.kernels_of("allisbomb", part)[0]
        k.warm()
        (dfs_entry,) = [e for e in k.entries() if isinstance(e, tuple)]
        assert dfs_entry[0] is K.dfs
        sigs = [tuple(s) for s in K.dfs.signatures if dfs_entry[1](tuple(s))]
        assert sigs and all(s[at].mutable != read_only for s in sigs), part
        seen.append(set(sigs))
    assert not seen[0] & seen[1]


def test_a_kernel_built_on_another_estimates_more_while_that_one_is_cold(monkeypatch):
    @numba.njit  # no on-disk cache: never "cached" before its first call
    def below(x):
        return x + 1

    base = Kernel("bomber", "play", "base kernel", 7, lambda: [below], lambda: below(1))
    top = Kernel(
        "bomber", "top", "top kernel", 2, lambda: [], lambda: None, after="play", estimate_alone=9
    )
    monkeypatch.setattr(warmup, "KERNELS", [base, top])
    assert warmup.estimate_now(top) == 9 and warmup.estimate_now(base) == 7
    below(1)
    assert warmup.estimate_now(top) == 2


def test_the_exhaust_part_follows_the_sweep_it_builds_on():
    """`bombsolve warmup allisbomb` compiles the exhaust's shared-table search with the
    sweep's kernel cached already, and that with the solver's: the cases their estimates
    are for (`Kernel.after`); a command that compiles one first says the estimate alone."""
    parts = [k.part for k in warmup.kernels_of("allisbomb")]
    for part, below in (("exhaust", "sweep"), ("sweep", "solve")):
        (k,) = warmup.kernels_of("allisbomb", part)
        assert k.after == below and parts.index(below) < parts.index(part)
        assert k.estimate < k.estimate_alone
    (k,) = warmup.kernels_of("allisbomb", "exhaust")
    from bombsolve.solvers.allisbomb import exhaust_kernel

    assert exhaust_kernel.solve_shared in k.entries()
