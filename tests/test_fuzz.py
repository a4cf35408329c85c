"""The project's own fuzz suite: random input to every command's entry point.

Each case asserts what DESIGN.md promises for any input: exit code 0 (it worked), 2 (bad
input, one line) or 3 (a study paused at its time budget); no "Traceback"; and nothing
left behind after a refusal. Inputs: random option values, random JSON positions, random
saved solutions, random manifests and random damage to a study's chunks.

CI runs a few hundred cases in total. For a long run:

    BOMBSOLVE_FUZZ=deep python -m pytest -q tests/test_fuzz.py

(ten times the cases; ``BOMBSOLVE_FUZZ_EXAMPLES=N`` sets the per-test count directly).
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cli.main import cli
from solvers.allisbomb.rules import state_from_json
from solvers.common.errors import BadInput
from solvers.common.runner import MANIFEST, Study, chunk_path, load_study, run_study
from solvers.common.toy import coin_chunk
from tests.test_bad_input import EXACT, SOLO

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
        other = chunk_path(out, (index + 1) % 3)
        path.write_bytes(other.read_bytes())
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
