"""The project's own fuzz suite: random input to every command's entry point.

Each case asserts what DESIGN.md promises for any input: exit code 0 (it worked), 2 (bad
input, one line) or 3 (a study paused at its time budget); no "Traceback"; and nothing
left behind after a refusal. Inputs: random option values, random JSON positions, random
saved solutions, random manifests and random damage to a study's chunks; FIFOs, private
device nodes, links and folders where a command reads or writes a file, or in a study
folder; a full disk (a 1 MiB tmpfs, where the test runs as root), a full and a closed
standard output; SIGTERM and SIGHUP during a study; a study read while it runs.

CI runs a few hundred cases in total. For a long run:

    BOMBSOLVE_FUZZ=deep python -m pytest -q tests/test_fuzz.py

(ten times the cases; ``BOMBSOLVE_FUZZ_EXAMPLES=N`` sets the per-test count directly).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pandas as pd
import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb import state_from_json
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.runner import (
    LOCK,
    MANIFEST,
    Study,
    chunk_path,
    folder_lock,
    load_study,
    run_study,
)
from bombsolve.solvers.common.toy import coin_chunk
from tests.test_bad_input import EXACT, SOLO

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

_DEEP = os.environ.get("BOMBSOLVE_FUZZ") == "deep"


def fuzz(n: int):
    """Hypothesis settings for a test of `n` cases in CI (ten times that with ``deep``)."""
    count = os.environ.get("BOMBSOLVE_FUZZ_EXAMPLES")
    return settings(
        max_examples=int(count) if count else n * (10 if _DEEP else 1),
        deadline=None,
        database=None,
        derandomize=not _DEEP,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def invoke(args: list[str]) -> tuple[int, str]:
    """Run the CLI in-process and check the promise every command keeps."""
    result = CliRunner().invoke(cli, args, catch_exceptions=True)
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), (
        f"{args}: uncaught {type(exc).__name__}: {exc}"
    )
    assert result.exit_code in (0, 2, 3), f"{args}: exit {result.exit_code}\n{result.output}"
    assert "Traceback" not in result.output, args
    event(f"exit {result.exit_code}")
    if result.exit_code == 2:
        lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("bombsolve: "), (args, result.stderr)
    return result.exit_code, result.output


# --- random option values --------------------------------------------------------------------

_NUMBERS = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["nan", "inf", "-inf", "1e400", "1.5", "0x10", "", " ", "1_000", "٣"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(max_size=12),
)
#: Valid values small enough to run in a blink, or anything at all.
_SMALL = st.one_of(st.integers(-3, 6).map(str), _NUMBERS)
_SEEDS = st.one_of(st.integers(0, 2**64 - 1).map(str), _NUMBERS)


def _agent():
    iters = st.one_of(st.integers(max_value=0), st.integers(10**7 + 1, 10**15), st.integers(1, 8))
    return st.one_of(
        st.sampled_from(["random", "heuristic", "greedy", "omniscient", "grandmaster", ""]),
        st.builds(lambda n: f"ismcts:{n}", iters),
        st.builds(lambda n: f"ismcts-heuristic:{n}", iters),
        st.builds(lambda t: f"greedy:{t}", _NUMBERS),
        st.text(max_size=15),
    )


#: One cheap command each, and the options fuzzed on it.
COMMANDS = {
    "allisbomb-rank": (["allisbomb"], {"--rank": _NUMBERS, "--seed": _SEEDS}),
    "allisbomb-cards": (["allisbomb", "cards"], {"--expansions": st.text(max_size=20)}),
    "bombastic-odds": (
        ["bombastic", "odds"],
        {"--as": st.text(max_size=3), "--events": st.text(max_size=30)},
    ),
    "bombastic-replay": (
        ["bombastic", "replay", "--x", "random", "--o", "random"],
        {"--seed": _SEEDS, "--turn-cap": _SMALL, "--without": st.text(max_size=15)},
    ),
    "bombastic-play": (
        ["bombastic", "play", "--o", "random"],
        {
            "--games": _SMALL,
            "--seed": _SEEDS,
            "--x": _agent(),
            "--workers": _SMALL,
            "--scheduler": st.text(max_size=20),
        },
    ),
    "dragon-replay": (
        ["dragon", "replay"],
        {"--seed": _SEEDS, "--players": _SMALL, "--rules": st.text(max_size=20)},
    ),
    "dragon-play": (
        ["dragon", "play", "--engine", "reference"],
        {"--games": _SMALL, "--seed": _SEEDS, "--players": _SMALL},
    ),
    "bomber-replay": (["bomber", "replay"], {"--seed": _SEEDS, "--players": _SMALL}),
    "bomber-play": (
        ["bomber", "play", "--engine", "reference"],
        {
            "--games": _SMALL,
            "--seed": _SEEDS,
            "--players": _SMALL,
            "--extras": st.text(max_size=12),
        },
    ),
    "infostates": (
        ["bombastic", "infostates", "--depth", "0"],
        {"--max-memo-gib": _NUMBERS, "--player": st.text(max_size=3)},
    ),
}


@st.composite
def command_lines(draw):
    name = draw(st.sampled_from(sorted(COMMANDS)))
    base, options = COMMANDS[name]
    chosen = draw(st.lists(st.sampled_from(sorted(options)), unique=True, min_size=1, max_size=2))
    args = list(base)
    for opt in chosen:
        value = draw(options[opt])
        if "\x00" in value:
            value = value.replace("\x00", "")
        args += [opt, value]
    return args


@fuzz(150)
@given(command_lines())
def test_fuzz_options(args):
    invoke(args)


# --- random JSON positions and saved solutions -------------------------------------------------

_JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=10),
        st.sampled_from(["KING", "JOKER", "PRINCESS", "MENDER", "EGGS"]),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)


@st.composite
def positions(draw):
    """A valid position with a few fields replaced, removed or added, or any JSON at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(_JSON)
    pos = copy.deepcopy(draw(st.sampled_from([SOLO, EXACT])))
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["replace", "remove", "add", "config", "item"]))
        key = draw(st.sampled_from(sorted(pos) or ["deck"]))
        if action == "replace":
            pos[key] = draw(_JSON)
        elif action == "remove":
            pos.pop(key, None)
        elif action == "add":
            pos[draw(st.text(max_size=8))] = draw(_JSON)
        elif action == "config":
            cfg = dict(pos.get("config") or {}) if isinstance(pos.get("config"), dict) else {}
            cfg[draw(st.sampled_from(["players", "blitz", "removed", "expansions", "hands"]))] = (
                draw(_JSON)
            )
            pos["config"] = cfg
        elif isinstance(pos.get(key), list) and pos[key]:
            i = draw(st.integers(0, len(pos[key]) - 1))
            pos[key][i] = draw(_JSON)
    return pos


@fuzz(120)
@given(positions())
def test_fuzz_positions_through_replay(pos):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sol.json"
        path.write_text(json.dumps({"position": pos, "solution": []}))
        invoke(["allisbomb", "replay", str(path)])
        assert sorted(os.listdir(tmp)) == ["sol.json"]


@fuzz(100)
@given(positions())
def test_fuzz_positions_through_the_engine(pos):
    try:
        state = state_from_json(pos)
    except BadInput as exc:
        assert "\n" not in str(exc)
        return
    assert state.to_json()["turn"] == pos.get("turn", 0)


@fuzz(60)
@given(
    st.one_of(
        _JSON,
        st.lists(st.lists(st.integers(-3, 40), max_size=4), max_size=6),
        st.lists(st.lists(st.integers(0, 3), max_size=3), max_size=12),
    )
)
def test_fuzz_saved_solutions(solution):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sol.json"
        path.write_text(json.dumps({"position": EXACT, "solution": solution}))
        invoke(["allisbomb", "replay", str(path)])


@fuzz(25)
@given(st.binary(max_size=200))
def test_fuzz_raw_bytes_as_position_files(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pos.json"
        path.write_bytes(data)
        invoke(["allisbomb", "replay", str(path)])


# --- random manifests and chunk damage ---------------------------------------------------------


def _study() -> Study:
    return Study("toy.coin", {"p": 0.3}, 30, 7, coin_chunk, 10)


@pytest.fixture(scope="module")
def clean_study(tmp_path_factory):
    out = tmp_path_factory.mktemp("fuzz-study") / "s"
    df = run_study(_study(), out, workers=1, progress=False)
    return out, df


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _set(value, path, new):
    if not path:
        return new
    value[path[0]] = _set(value[path[0]], path[1:], new)
    return value


@fuzz(40)
@given(data=st.data())
def test_fuzz_manifests(clean_study, data):
    src, clean = clean_study
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "s"
        shutil.copytree(src, out)
        manifest = json.loads((out / MANIFEST).read_text())
        for _ in range(data.draw(st.integers(1, 3))):
            paths = list(_paths(manifest))
            where = data.draw(st.sampled_from(paths))
            if where and data.draw(st.booleans()):
                parent = manifest
                for k in where[:-1]:
                    parent = parent[k]
                del parent[where[-1]]
            else:
                manifest = _set(manifest, where, data.draw(_JSON))
            if not isinstance(manifest, (dict, list)):
                break
        (out / MANIFEST).write_text(json.dumps(manifest))
        for call in (
            lambda: load_study(out),
            lambda: run_study(_study(), out, workers=1, progress=False),
        ):
            try:
                df = call()
            except BadInput as exc:
                assert "\n" not in str(exc)
            else:
                pd.testing.assert_frame_equal(df, clean)


_DAMAGE = ["truncate", "flip", "garbage", "delete", "folder", "edit", "swap", "empty"]


def _damage(out: Path, index: int, how: str, data) -> None:
    path = chunk_path(out, index)
    raw = path.read_bytes()
    if how == "truncate":
        path.write_bytes(raw[: data.draw(st.integers(0, len(raw) - 1))])
    elif how == "flip":
        i = data.draw(st.integers(0, len(raw) - 1))
        path.write_bytes(raw[:i] + bytes([raw[i] ^ data.draw(st.integers(1, 255))]) + raw[i + 1 :])
    elif how == "garbage":
        path.write_bytes(data.draw(st.binary(max_size=300)))
    elif how == "delete":
        path.unlink()
    elif how == "folder":
        path.unlink()
        path.mkdir()
    elif how == "edit":
        table = pq.read_table(path)
        df = table.to_pandas()
        row = data.draw(st.integers(0, len(df) - 1))
        df.loc[row, "u"] = data.draw(st.floats(0, 1))
        df.loc[row, "win"] = not df.loc[row, "win"]
        pq.write_table(
            pa.Table.from_pandas(df, preserve_index=False).replace_schema_metadata(
                table.schema.metadata
            ),
            path,
        )
    elif how == "swap":
        other = chunk_path(out, (index + 1) % 3)  # possibly damaged or gone already
        path.write_bytes(other.read_bytes() if other.is_file() else b"")
    else:
        path.write_bytes(b"")


@fuzz(40)
@given(data=st.data())
def test_fuzz_chunk_damage(clean_study, data):
    """Any damage to any chunks: the study either loads the same rows or says it is
    unfinished, and a re-run recomputes exactly the damaged chunks."""
    src, clean = clean_study
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "s"
        shutil.copytree(src, out)
        hits = data.draw(st.dictionaries(st.integers(0, 2), st.sampled_from(_DAMAGE), min_size=1))
        for index, how in hits.items():
            if chunk_path(out, index).is_file():
                _damage(out, index, how, data)
        try:
            df = load_study(out)
        except BadInput as exc:
            assert "\n" not in str(exc)
        else:
            pd.testing.assert_frame_equal(df, clean)
        for index in hits:
            if chunk_path(out, index).is_dir():
                chunk_path(out, index).rmdir()  # the refusal says to remove it
        again = run_study(_study(), out, workers=1, progress=False)
        pd.testing.assert_frame_equal(again, clean)
        assert not list(out.rglob("*.tmp"))


# --- study commands: a refusal leaves no folder ------------------------------------------------


_MOSTLY_VALID = st.one_of(st.integers(1, 8).map(str), st.integers(1, 8).map(str), _NUMBERS)


@fuzz(12)
@given(
    games=_MOSTLY_VALID,
    chunk=_MOSTLY_VALID,
    seed=_SEEDS,
    budget=st.one_of(st.none(), st.none(), _NUMBERS),
    scheduler=st.one_of(st.none(), st.none(), st.none(), st.text(max_size=12)),
)
def test_fuzz_study_options_leave_nothing_after_a_refusal(games, chunk, seed, budget, scheduler):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "study"
        args = ["bomber", "study", "--part", "players", "--players", "3", "--workers", "1"]
        args += ["--out", str(out), "--games", games, "--chunk-size", chunk, "--seed", seed]
        if budget is not None:
            args += ["--time-budget", budget]
        if scheduler is not None:
            args += ["--scheduler", scheduler.replace("\x00", "")]
        code, _ = invoke(args)
        if code == 2:
            assert not out.exists(), args


# --- special files, full disks and signals -----------------------------------------------------
# Private device nodes, FIFOs and links in temporary folders only: a test never touches the
# machine's /dev (reading that /dev/full exists, or sending stdout to it, writes nothing).

_ROOT = Path(__file__).resolve().parents[1]
_ENV = {**os.environ, "PYTHONPATH": str(_ROOT)}
_IS_ROOT = os.geteuid() == 0
#: Kinds of output path and what each gets (`bombsolve.solvers.common.files.output_target`).
_KINDS = ["fifo", "null-device", "link-to-file", "link-to-nothing", "link-to-fifo", "folder"]


def _make(path: Path, kind: str) -> None:
    """Make a file of `kind` at `path` (device nodes need root: the test is then skipped)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind in ("null-device", "zero-device"):
        if not _IS_ROOT:
            pytest.skip("making a device node needs root (os.mknod)")
        minor = 3 if kind == "null-device" else 5
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, minor))
    elif kind == "link-to-file":
        (path.parent / "target.txt").write_text("the target\n")
        path.symlink_to("target.txt")
    elif kind == "link-to-nothing":
        path.symlink_to("nothing-here")
    elif kind == "link-to-fifo":
        os.mkfifo(path.parent / "target.fifo")
        path.symlink_to("target.fifo")
    elif kind == "folder":
        path.mkdir()
    elif kind == "large":
        with open(path, "wb") as fh:  # sparse: 65 MiB claimed, nothing on disk
            fh.truncate(65 * 2**20)


def _snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry of `folder`, by name: its kind, device numbers and (for files) bytes."""
    out = {}
    for p in sorted(folder.rglob("*")):
        st_ = os.lstat(p)
        body = p.read_bytes() if stat.S_ISREG(st_.st_mode) and st_.st_size < 2**20 else None
        out[str(p.relative_to(folder))] = (stat.S_IFMT(st_.st_mode), st_.st_rdev, body)
    return out


def _run_ok(args: list[str]) -> str:
    """Run the CLI in-process, expecting exit code 0; return its output."""
    result = CliRunner().invoke(cli, args, catch_exceptions=True)
    assert result.exit_code == 0, (args, result.output)
    return result.output or "(no output)"


def _refused_in_one_line(args: list[str], *words: str) -> str:
    result = CliRunner().invoke(cli, args, catch_exceptions=True)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert result.exit_code == 2, (args, result.exit_code, result.output)
    assert len(lines) == 1 and lines[0].startswith("bombsolve: "), (args, result.stderr)
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


@pytest.mark.parametrize("kind", _KINDS)
def test_save_never_replaces_what_is_not_a_regular_file(tmp_path, kind):
    path = tmp_path / "out.json"
    _make(path, kind)
    before = _snapshot(tmp_path)
    args = ["allisbomb", "--seed", "0", "--save", str(path)]
    if kind == "link-to-file":
        assert _run_ok(args)
        assert path.is_symlink(), "the link was replaced, not written through"
        assert json.loads((tmp_path / "target.txt").read_text())["outcome"] == "win"
        return
    line = _refused_in_one_line(args, str(path))
    assert "expected a regular file" in line or kind == "folder"  # (click says "directory")
    assert _snapshot(tmp_path) == before, "nothing made, removed or replaced"


@pytest.mark.parametrize("target", ["-", "/dev/stdout"])
def test_save_to_standard_output_streams_it(target):
    proc = subprocess.run(
        [sys.executable, "-m", "bombsolve.cli.main", "allisbomb", "--seed", "0", "--json", "--save", target],
        cwd=_ROOT, env=_ENV, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    saved, printed = json.JSONDecoder().raw_decode(proc.stdout)[0], proc.stdout
    assert saved["outcome"] == "win" and printed.count('"outcome"') == 2


def _with_timeout(fn, seconds: float, fifos: list[Path]):
    """Run `fn` in a thread; if it has not returned in `seconds`, open the `fifos` for
    writing (which ends a read blocked on them) and fail: a FIFO made it hang."""
    box: dict = {}

    def run() -> None:
        try:
            box["r"] = fn()
        except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
            box["e"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        for f in fifos:
            with contextlib.suppress(OSError):
                os.close(os.open(f, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"blocked over {seconds} s on a FIFO")
    if "e" in box:
        raise box["e"]
    return box["r"]


_INPUTS = {
    "--state": lambda p: ["allisbomb", "--state", p],
    "replay": lambda p: ["allisbomb", "replay", p],
    "cards check": lambda p: ["allisbomb", "cards", "check", p],
    "--cards": lambda p: ["allisbomb", "--seed", "1", "--cards", p],
}


@fuzz(20)
@given(
    site=st.sampled_from(sorted(_INPUTS)),
    kind=st.sampled_from(["fifo", "link-to-fifo", "zero-device", "folder", "large"]),
)
def test_fuzz_special_files_as_input_are_refused_at_once(site, kind):
    if kind == "zero-device" and not _IS_ROOT:
        event("skipped: a device node needs root")
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input"
        _make(path, kind)
        result = _with_timeout(
            lambda: CliRunner().invoke(cli, _INPUTS[site](str(path))),
            60,
            [path, Path(tmp) / "target.fifo"],
        )
        lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
        assert result.exit_code == 2, (site, kind, result.output)
        assert len(lines) == 1 and "Traceback" not in result.output, result.output
        want = {"large": ["larger than 64 MiB"], "folder": ["folder", "directory"]}
        words = want.get(kind, ["device"] if kind == "zero-device" else ["FIFO"])
        assert any(w in lines[0] for w in words), lines[0]
        assert "not found" not in lines[0] and "out of memory" not in lines[0]


def test_position_from_standard_input(tmp_path):
    saved = tmp_path / "s.json"
    assert _run_ok(["allisbomb", "--seed", "0", "--save", str(saved)])
    result = CliRunner().invoke(cli, ["allisbomb", "replay", "-"], input=saved.read_bytes())
    assert result.exit_code == 0 and "win" in result.output, result.output


# --- a study folder never leads a study outside it ---------------------------------------------

_FOLDER_TRAPS = ["lock-link", "lock-fifo", "manifest-link", "manifest-fifo", "chunks-link",
                 "chunk-link", "chunk-fifo"]  # fmt: skip


@pytest.mark.parametrize("trap", _FOLDER_TRAPS)
def test_study_folder_files_are_never_followed(clean_study, tmp_path, trap):
    src, clean = clean_study
    out = tmp_path / "s"
    shutil.copytree(src, out)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    where, how = trap.split("-")
    path = {"lock": out / LOCK, "manifest": out / MANIFEST, "chunks": out / "chunks",
            "chunk": chunk_path(out, 1)}[where]  # fmt: skip
    if path.is_dir():
        shutil.move(path, tmp_path / "elsewhere")
    elif path.exists():
        path.unlink()
    if how == "link":
        path.symlink_to(tmp_path / "elsewhere" if where == "chunks" else victim)
    else:
        os.mkfifo(path)
    before = _snapshot(tmp_path)
    with pytest.raises(BadInput, match="expected") as exc:
        _with_timeout(lambda: run_study(_study(), out, workers=1, progress=False), 60, [path])
    assert "\n" not in str(exc.value) and str(path) in str(exc.value)
    assert victim.read_text() == "precious\n"
    assert _snapshot(tmp_path) == before


def test_lock_link_through_the_command_line(tmp_path):
    out = tmp_path / "s"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (out / LOCK).symlink_to("../victim.txt")
    args = ["bomber", "study", "--part", "players", "--players", "3", "--games", "2"]
    _refused_in_one_line([*args, "--workers", "1", "--out", str(out)], "symbolic link")
    assert victim.read_text() == "precious\n" and (out / LOCK).is_symlink()


def test_resume_removes_its_own_stale_temporaries_only(clean_study, tmp_path):
    src, clean = clean_study
    out = tmp_path / "s"
    shutil.copytree(src, out)
    chunk_path(out, 2).unlink()
    stale = [
        out / "chunks" / ".chunk-000002.parquet.k3_9xq2a.tmp",
        out / ".manifest.json.ab12cd34.tmp",
    ]
    kept = [
        out / "notes.tmp",
        out / "chunks" / ".chunk-000002.parquet.tmp",
        out / ".mine.x1y2z3a4.tmp",
    ]
    for p in stale + kept:
        p.write_text("left by a killed run\n")
    df = run_study(_study(), out, workers=1, progress=False)
    pd.testing.assert_frame_equal(df, clean)
    assert not any(p.exists() for p in stale)
    assert all(p.exists() for p in kept)


def test_a_stop_signal_during_a_chunk_write_is_not_lost_in_a_finalizer(tmp_path, monkeypatch):
    # The signal lands while PyArrow's ParquetWriter.__del__ runs (it does in every write):
    # an exception raised there is printed and dropped by Python, and the study ran on.
    def stop(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, stop)
    real_del = pq.ParquetWriter.__del__

    def finalizer(self):
        os.kill(os.getpid(), signal.SIGTERM)
        real_del(self)

    monkeypatch.setattr(pq.ParquetWriter, "__del__", finalizer)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_study(_study(), tmp_path / "s", workers=1, progress=False)
    finally:
        signal.signal(signal.SIGTERM, old)
    assert not list((tmp_path / "s").rglob("*.tmp"))


class _SignalsInFinalizer:
    """Sends `signum` to this process from its finalizer, where Python prints and drops
    the exception the command line's handler raises."""

    def __init__(self, signum: int) -> None:
        self.signum = signum

    def __del__(self) -> None:
        os.kill(os.getpid(), self.signum)


def _chunk_with_a_swallowed_stop(params, chunk):
    if chunk.index == 1:
        _SignalsInFinalizer(params["signum"])  # dropped at once: its finalizer runs here
    return coin_chunk(params, chunk)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
# (the exception the finalizer drops is the point: Python reports it as unraisable)
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_stop_signal_whose_exception_a_finalizer_swallowed_still_stops_the_study(
    tmp_path, signum
):
    # The command line's handlers raise where the main thread is; inside a finalizer (a
    # library's, a future's) the exception is lost, and the study ran all its chunks.
    from bombsolve.cli.main import _handle_stop_signals, _restore_signals
    from bombsolve.solvers.common import stopping

    study = Study(
        "toy.coin", {"p": 0.3, "signum": int(signum)}, 30, 7, _chunk_with_a_swallowed_stop, 5
    )
    # the handlers replace only a default: under nohup SIGHUP comes in ignored, and stays so
    kept = None if signum == signal.SIGINT else signal.signal(signum, signal.SIG_DFL)
    replaced = _handle_stop_signals()
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            run_study(study, tmp_path / "s", workers=1, progress=False)
    finally:
        _restore_signals(replaced)
        if kept is not None:
            signal.signal(signum, kept)
    assert getattr(caught.value, "signum", signal.SIGINT) == signum
    # It stopped after the chunk that met the signal, which is kept for the re-run.
    assert sorted(p.name for p in (tmp_path / "s" / "chunks").glob("*.parquet")) == [
        "chunk-000000.parquet",
        "chunk-000001.parquet",
    ]
    assert stopping.pending() is None  # the command is over: the next starts afresh


def test_a_swallowed_stop_ends_a_pool_study_while_its_chunks_still_run(tmp_path):
    # Recorded and lost while the pool's workers compute chunks of half a minute: the
    # study stops at its next look, not when a chunk ends.
    from bombsolve.solvers.common import stopping

    study = Study("toy.coin", {"p": 0.3, "sleep": 30.0}, 30, 7, coin_chunk, 10)
    timer = threading.Timer(0.5, stopping.request, args=(signal.SIGTERM,))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(stopping.Stopped):
            run_study(study, tmp_path / "s", workers=2, progress=False)
    finally:
        timer.cancel()
        stopping.clear()
    assert time.monotonic() - start < 20
    assert not list((tmp_path / "s").rglob("*.parquet"))


def test_a_stop_the_instant_a_chunk_file_is_made_leaves_no_temporary(tmp_path, monkeypatch):
    # The stop lands after the temporary exists and before its writer could know its name:
    # only the study's own clean-up on the way out can find it.
    real = tempfile.mkstemp
    made = []

    def made_then_stopped(*args, **kwargs):
        fd, name = real(*args, **kwargs)
        made.append(name)
        if ".chunk-" in Path(name).name:
            raise KeyboardInterrupt
        return fd, name

    monkeypatch.setattr("bombsolve.solvers.common.files.tempfile.mkstemp", made_then_stopped)
    out = tmp_path / "s"
    with pytest.raises(KeyboardInterrupt):
        run_study(_study(), out, workers=1, progress=False)
    assert any(".chunk-" in name for name in made)
    assert not list(out.rglob("*.tmp"))


# --- full disks and full or closed standard output ---------------------------------------------


@pytest.fixture
def small_disk(tmp_path):
    """A folder on a 1 MiB tmpfs of its own (root only, where mounts are allowed)."""
    folder = tmp_path / "small"
    folder.mkdir()
    if not _IS_ROOT:
        pytest.skip("a size-limited folder needs root (mount -t tmpfs)")
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True
    )
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.decode().strip()[:120]}")
    yield folder
    subprocess.run(["umount", str(folder)], check=False)


def _fill(folder: Path) -> Path:
    """Fill `folder`'s file system up; return the filler file (remove it to make room)."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as fh:
        with contextlib.suppress(OSError):
            while True:
                fh.write(b"\0" * 4096)
    return filler


def _run_cli(args: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bombsolve.cli.main", *args],
        cwd=_ROOT, env=_ENV, capture_output=True, text=True, timeout=600, **kw,
    )  # fmt: skip


def _one_io_error_line(proc: subprocess.CompletedProcess, *words: str) -> None:
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("bombsolve: ") and
             "compil" not in ln]  # fmt: skip
    assert proc.returncode == 74, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr and len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[-1], lines[-1]


def test_full_disk_save_says_so_and_leaves_nothing(small_disk):
    _fill(small_disk)
    before = _snapshot(small_disk)
    proc = _run_cli(["allisbomb", "--seed", "0", "--save", str(small_disk / "s.json")])
    _one_io_error_line(proc, str(small_disk / "s.json"), "No space left on device")
    assert _snapshot(small_disk) == before


def test_full_disk_study_says_so_and_resumes(small_disk):
    out = small_disk / "study"
    filler = _fill(small_disk)
    os.truncate(filler, max(0, filler.stat().st_size - 64 * 1024))  # room for a few chunks
    args = ["bomber", "study", "--part", "players", "--players", "3", "--games", "400",
            "--chunk-size", "10", "--workers", "1", "--out", str(out)]  # fmt: skip
    first = _run_cli(args)
    _one_io_error_line(first, "No space left on device", "re-run the same command to resume")
    kept = {p.name: p.read_bytes() for p in out.rglob("chunk-*.parquet")}
    assert 0 < len(kept) < 40, len(kept)
    assert not list(small_disk.rglob("*.tmp"))
    filler.unlink()
    proc = _run_cli(args)
    assert proc.returncode == 0, proc.stderr
    chunks = {p.name: p.read_bytes() for p in out.rglob("chunk-*.parquet")}
    assert len(chunks) == 40 and all(chunks[name] == body for name, body in kept.items())
    assert not list(small_disk.rglob("*.tmp"))


def test_full_standard_output_exits_74_in_one_line():
    if not os.path.exists("/dev/full"):
        pytest.skip("this system has no /dev/full")
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "bombsolve.cli.main", "allisbomb", "--seed", "0", "--json"],
            cwd=_ROOT, env=_ENV, stdout=full, stderr=subprocess.PIPE, text=True, timeout=300,
        )  # fmt: skip
    _one_io_error_line(proc, "standard output", "No space left on device")


def test_closed_standard_output_exits_74_in_one_line():
    proc = subprocess.run(
        ["bash", "-c", f"{sys.executable} -m bombsolve.cli.main allisbomb --seed 0 >&-"],
        cwd=_ROOT, env=_ENV, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    _one_io_error_line(proc, "standard output is closed")


# --- SIGTERM and SIGHUP as Ctrl-C ---------------------------------------------------------------


def _signals_as_a_terminal_leaves_them() -> None:
    # A test run under nohup would hand the command an ignored SIGHUP, which it rightly
    # keeps ignoring (nohup's promise); the command meets a hang-up as a shell gives it.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


@pytest.mark.parametrize(("signum", "group"), [(signal.SIGTERM, False), (signal.SIGHUP, True)])
def test_stop_signals_exit_like_ctrl_c_and_leave_nothing(tmp_path, signum, group):
    out = tmp_path / "s"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bombsolve.cli.main", "bomber", "study", "--games", str(10**9),
         "--chunk-size", "50", "--workers", "2", "--out", str(out)],
        cwd=_ROOT, env=_ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=_signals_as_a_terminal_leaves_them,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 900
        while proc.poll() is None and not any(out.rglob("chunk-*.parquet")):
            assert time.monotonic() < deadline, "no chunk in 900 s"
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()[1]
        workers = psutil.Process(proc.pid).children(recursive=True)
        (os.killpg if group else os.kill)(proc.pid, signum)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 128 + signum, err
    assert "Traceback" not in err
    name = signal.Signals(signum).name
    assert err.strip().splitlines()[-1] == (
        f"bombsolve: stopped by {name}; re-run the same command to resume"
    )
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, [p.cmdline()[:3] for p in alive]
    assert not list(out.rglob("*.tmp"))


# --- a running study, and a campaign into another study's folder -------------------------------


def test_report_and_export_of_a_running_study_say_it_runs(sweep_folder, tmp_path):
    out = tmp_path / "s"
    shutil.copytree(sweep_folder, out)
    chunk_path(out, 2).unlink()  # not done yet
    with folder_lock(out):
        for args in (["allisbomb", "report", str(out)],
                     ["allisbomb", "export", str(out), "--csv", str(tmp_path / "x.csv")]):  # fmt: skip
            _refused_in_one_line(args, "still running", f"process {os.getpid()}")
    line = _refused_in_one_line(["allisbomb", "report", str(out)], "unfinished")
    assert "running" not in line
    assert not (tmp_path / "x.csv").exists()


def test_campaign_into_another_study_refused_before_compiling(clean_study, monkeypatch):
    import bombsolve.cli.warmup

    def no_compile(*args, **kw):
        raise AssertionError("compiled before checking --out")

    monkeypatch.setattr(bombsolve.cli.warmup, "ensure_compiled", no_compile)
    src, _ = clean_study
    args = ["allisbomb", "campaign", "--campaigns", "2", "--workers", "1", "--out", str(src)]
    _refused_in_one_line(args, "holds a different study")


@pytest.fixture(scope="module")
def sweep_folder(tmp_path_factory):
    """A finished sweep of 3 deals, one chunk each."""
    out = tmp_path_factory.mktemp("fuzz-sweep") / "s"
    args = ["allisbomb", "sweep", "--deals", "3", "--seed", "2", "--workers", "1",
            "--chunk-size", "1", "--no-report", "--out", str(out)]  # fmt: skip
    assert _run_ok(args)
    return out


@pytest.mark.parametrize("kind", ["fifo", "null-device", "link-to-fifo", "folder"])
def test_export_csv_never_replaces_what_is_not_a_regular_file(sweep_folder, tmp_path, kind):
    path = tmp_path / "x.csv"
    _make(path, kind)
    before = _snapshot(tmp_path)
    _refused_in_one_line(["allisbomb", "export", str(sweep_folder), "--csv", str(path)], "--csv")
    assert _snapshot(tmp_path) == before


def test_a_file_written_into_a_folder_never_follows_a_link(tmp_path):
    """A report's or study's file that is a link (a folder received from someone else) is
    refused; only a file named on the command line is written through its link."""
    from bombsolve.solvers.common.files import write_text_atomic

    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / "report").mkdir()
    link = tmp_path / "report" / "table.csv"
    link.symlink_to(victim)
    with pytest.raises(BadInput, match="symbolic link"):
        write_text_atomic(link, "a,b\n")
    assert victim.read_text() == "precious\n" and link.is_symlink()
    write_text_atomic(link, "a,b\n", "--csv", follow=True)
    assert victim.read_text() == "a,b\n" and link.is_symlink()
