"""`bombsolve warmup` and the compile announcement (`cli.warmup.ensure_compiled`)."""

from __future__ import annotations

import numba
from click.testing import CliRunner

from cli import warmup
from cli.main import cli
from solvers.common.numba_cache import all_cached, is_cached


def test_every_kernel_names_real_cached_entry_points():
    for k in warmup.KERNELS:
        assert k.game in warmup.GAMES
        entries = k.entries()
        assert entries, k
        for d in entries:
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

    k = warmup.Kernel("bomber", "play", "test kernel", 7, lambda: [cold], warm)
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
        assert all(d.signatures for d in k.entries()), k.part
