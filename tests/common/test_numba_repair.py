"""bombsolve.solvers.common.numba_repair: a damaged on-disk cache is met by one line, dropped and compiled
again, and the command goes on; a cache folder that cannot be written is replaced by a
temporary one. Each run is a fresh process on a small module cached in a temporary folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bombsolve.solvers.common import numba_repair

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("trunc_index", "garble_index", "empty_index", "trunc_data", "garble_data")
NAMES += ("empty_data", "unsealed_data", "plain_index")

_MODULE = "from bombsolve.solvers.common.numba_jit import njit\n" + "".join(
    f"\n\n@njit(cache=True)\ndef {name}(x):\n    return x + {i}\n" for i, name in enumerate(NAMES)
)

_RUN = textwrap.dedent(
    """
    import json, sys
    from bombsolve.cli.warmup import show_numba_notices

    show_numba_notices()
    import mod

    out = {}
    for name in mod.__all__:
        f = getattr(mod, name)
        out[name] = [f(1), sum(f.stats.cache_hits.values()), sum(f.stats.cache_misses.values())]
    print(json.dumps(out))
    """
)


def _run(folder: Path, cache: Path | None, **more: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=f"{folder}{os.pathsep}{ROOT}", **more)
    env.pop("NUMBA_CACHE_DIR", None)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    return subprocess.run(
        [sys.executable, "-c", _RUN], cwd=folder, env=env, capture_output=True, text=True
    )


def _module(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mod.py").write_text(_MODULE + f"\n__all__ = {list(NAMES)!r}\n")


def _files(cache: Path, name: str) -> tuple[Path, Path]:
    (index,) = cache.rglob(f"mod.{name}-*.nbi")
    (data,) = cache.rglob(f"mod.{name}-*.nbc")
    return index, data


def _garble(path: Path) -> None:
    raw = bytearray(path.read_bytes())
    middle = len(raw) // 2
    raw[middle : middle + 40] = bytes((b + 97) % 256 for b in raw[middle : middle + 40])
    path.write_bytes(bytes(raw))


def _damage(cache: Path) -> None:
    for name in NAMES:
        index, data = _files(cache, name)
        if name == "trunc_index":
            index.write_bytes(index.read_bytes()[:50])
        elif name == "garble_index":
            _garble(index)
        elif name == "empty_index":
            index.write_bytes(b"")
        elif name == "trunc_data":
            data.write_bytes(data.read_bytes()[:100])
        elif name == "garble_data":
            _garble(data)  # the middle of the pickled object code: LLVM aborted on such
        elif name == "empty_data":
            data.write_bytes(b"")
        elif name == "unsealed_data":
            data.write_bytes(data.read_bytes()[: -numba_repair.SEAL_LENGTH])
        elif name == "plain_index":  # as plain Numba writes it: a miss, not damage
            index.write_bytes(index.read_bytes()[: -numba_repair.SEAL_LENGTH])


def _damaged_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "was damaged" in line]


def test_every_kind_of_damage_is_said_once_dropped_and_compiled_again(tmp_path):
    _module(tmp_path / "src")
    cache = tmp_path / "cache"
    first = _run(tmp_path / "src", cache)
    assert first.returncode == 0, first.stderr[-2000:]
    assert all(v == [1 + i, 0, 1] for i, v in enumerate(json.loads(first.stdout).values()))
    second = _run(tmp_path / "src", cache)  # loaded: the seals are read back
    assert all(v[1:] == [1, 0] for v in json.loads(second.stdout).values()), second.stdout

    _damage(cache)
    damaged = _run(tmp_path / "src", cache)
    assert damaged.returncode == 0, damaged.stderr[-2000:]
    out = json.loads(damaged.stdout)
    assert all(out[name] == [1 + i, 0, 1] for i, name in enumerate(NAMES)), out
    lines = _damaged_lines(damaged.stderr)
    assert sorted(lines) == sorted(
        f"bombsolve: the compiled-code cache for mod.{name} was damaged; compiling it again"
        for name in NAMES
        if name != "plain_index"
    ), damaged.stderr
    assert "Traceback" not in damaged.stderr

    healed = _run(tmp_path / "src", cache)
    assert healed.returncode == 0 and not _damaged_lines(healed.stderr), healed.stderr
    assert all(v[1:] == [1, 0] for v in json.loads(healed.stdout).values()), healed.stdout
    for name in NAMES:  # one index and one data file each, as before the damage
        _files(cache, name)


def test_an_unwritable_cache_folder_falls_back_to_a_temporary_one(tmp_path):
    _module(tmp_path / "src")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    wanted = blocker / "cache"  # cannot be created, whoever runs the test
    run = _run(tmp_path / "src", wanted)
    assert run.returncode == 0, run.stderr[-2000:]
    assert all(v[0] == 1 + i for i, v in enumerate(json.loads(run.stdout).values()))
    (line,) = [line for line in run.stderr.splitlines() if line.startswith("bombsolve:")]
    assert line.startswith(f"bombsolve: the compiled-code cache folder {wanted} cannot be written")
    temporary = line.split("temporary folder ")[1].split(" ")[0]
    assert "bombsolve-numba-cache-" in temporary
    assert not Path(temporary).exists()  # removed when the run ended
    assert not (tmp_path / "src" / "__pycache__").exists() or not list(
        (tmp_path / "src" / "__pycache__").glob("*.nbi")
    )  # not beside the sources either, where Numba alone would have gone


def test_with_no_writable_cache_folder_at_all_a_temporary_one(tmp_path):
    # Numba alone refuses to define the function ("cannot cache function ...: no locator
    # available") when neither the source's __pycache__ nor the user's cache can be written
    _module(tmp_path / "src")
    (tmp_path / "src" / "__pycache__").write_text("a file where the folder would be\n")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    run = _run(
        tmp_path / "src",
        None,
        HOME=str(blocker / "home"),
        XDG_CACHE_HOME=str(blocker / "cache"),
        PYTHONDONTWRITEBYTECODE="1",
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert all(v[0] == 1 + i for i, v in enumerate(json.loads(run.stdout).values()))
    notices = [line for line in run.stderr.splitlines() if line.startswith("bombsolve:")]
    assert len(notices) == 1, run.stderr
    assert notices[0].startswith("bombsolve: no compiled-code cache folder can be written; ")
    assert "temporary folder" in notices[0]


def test_a_read_only_cache_folder_falls_back_to_a_temporary_one(tmp_path):
    _module(tmp_path / "src")
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    immutable = False
    try:
        if numba_repair.writable(str(folder)):  # permission bits do not bind root
            if (
                shutil.which("chattr") is None
                or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode
            ):
                pytest.skip("running as root without chattr: no folder is read-only to us")
            immutable = True
        assert not numba_repair.writable(str(folder))
        run = _run(tmp_path / "src", folder)
        assert run.returncode == 0, run.stderr[-2000:]
        assert all(v[0] == 1 + i for i, v in enumerate(json.loads(run.stdout).values()))
        notices = [line for line in run.stderr.splitlines() if line.startswith("bombsolve:")]
        assert len(notices) == 1 and f"folder {folder} cannot be written" in notices[0]
        assert "temporary folder" in notices[0]
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


def test_seal_round_trip_and_mismatch():
    body = b"compiled code"
    assert numba_repair.unseal(numba_repair.seal(body)) == body
    assert numba_repair.unseal(body) is None
    sealed = bytearray(numba_repair.seal(body))
    sealed[0] ^= 1
    with pytest.raises(numba_repair.DamagedEntry):
        numba_repair.unseal(bytes(sealed))


def test_a_command_with_a_damaged_kernel_cache_says_one_line_and_goes_on(tmp_path):
    """`bombsolve` end to end: the Catch the Bomber kernel (the quickest to compile)."""
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(cache))
    command = [sys.executable, "-m", "bombsolve.cli.main", "bomber", "play", "--players", "5"]
    command += ["--agents", "random", "--games", "50", "--seed", "1"]

    def run() -> subprocess.CompletedProcess:
        return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)

    first = run()
    assert first.returncode == 0, first.stderr[-2000:]
    (data,) = cache.rglob("kernel.play_random_games-*.nbc")
    _garble(data)
    again = run()
    assert again.returncode == 0, again.stderr[-2000:]
    assert "Traceback" not in again.stderr and "aborted" not in again.stderr
    said = again.stderr.splitlines()
    damaged = [line for line in said if "was damaged" in line]
    assert damaged == [
        "bombsolve: the compiled-code cache for bombsolve.solvers.bomber.kernel.play_random_games was "
        "damaged; compiling it again"
    ]
    # said before the compile it causes, which is announced as on a first run
    assert said.index(damaged[0]) < next(i for i, s in enumerate(said) if "compiling the" in s)

    def table(out: str) -> list[str]:  # the first line ends with the time taken
        return out.splitlines()[1:]

    assert table(again.stdout) == table(first.stdout)
    healed = run()
    assert healed.returncode == 0 and "bombsolve:" not in healed.stderr, healed.stderr


def test_a_failed_save_is_a_notice_and_the_function_runs(tmp_path, monkeypatch):
    import errno
    import importlib

    from numba.core import config

    from bombsolve.solvers.common.numba_notices import NumbaNotice

    # (not through the environment: a changed NUMBA_* variable makes Numba's next compile
    # reload its whole configuration, new objects for the later tests)
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    assert numba_repair.cache_class() is not None
    (tmp_path / "full_disk_mod.py").write_text(
        "from bombsolve.solvers.common.numba_jit import njit\n\n\n@njit(cache=True)\ndef f(x):\n"
        "    return x * 2\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("full_disk_mod")

    def full(self, name, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(type(mod.f._cache._cache_file), "_save_data", full)
    with pytest.warns(NumbaNotice, match=r"could not save compiled code in .*No space left"):
        assert mod.f(21) == 42
