"""Bad input on every command: one line naming the value and what was expected, exit code 2,
no traceback, nothing left behind (DESIGN.md, "Command line").

Each row is one input that once gave a traceback, a wrong exit code or a leftover file.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli

SOLO = {
    "config": {"blitz": True, "players": 1},
    "deck": [
        "MENDER",
        "RASCAL",
        "LIBRARIAN",
        "GUARDIAN",
        "PROPHET OF CROISSANT",
        "PROPHET OF EGGS",
        "PROPHET OF PANCAKES",
        "CROISSANT",
        "EGGS",
        "PANCAKES",
    ],
    "discard": [],
    "equipped": [["PRINCESS", "KING", "JOKER"]],
    "out": [],
    "ignited": [],
    "desired": None,
    "played": [],
    "gift_plays": 0,
    "active": 0,
    "turn": 0,
}
EXACT = {
    **SOLO,
    "ignited_ids": [],
    "deck_ids": list(range(3, 13)),
    "discard_ids": [],
    "zone_ids": [1, 1, 1] + [0] * 10,
}


def with_(base: dict, **changes) -> dict:
    return {**base, **changes}


def run(args: list[str], cwd: Path | None = None):
    """Invoke the CLI in-process; return (exit code, combined output)."""
    runner = CliRunner()
    result = runner.invoke(cli, args, catch_exceptions=True)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        raise AssertionError(f"{args}: uncaught {type(exc).__name__}: {exc}") from exc
    return result.exit_code, result.output


def run_err(args: list[str]):
    result = CliRunner().invoke(cli, args, catch_exceptions=True)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        raise AssertionError(f"{args}: uncaught {type(exc).__name__}: {exc}") from exc
    return result.exit_code, result.output, result.stderr


def assert_refused(args: list[str], *words: str) -> str:
    code, out, err = run_err(args)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2, f"{args}: exit {code}\n{out}"
    assert "Traceback" not in out
    assert len(lines) == 1, f"{args}: expected one line, got\n{out}"
    for w in words:
        assert w.lower() in lines[0].lower(), f"{args}: {w!r} not in {lines[0]!r}"
    return lines[0]


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# --- positions (--state) and saved solutions (replay) --------------------------------------

POSITIONS = [
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", ["binary"]),
    ("deep", b"[" * 100_000 + b"]" * 100_000, ["nested"]),
    ("gift-negative", json.dumps(with_(SOLO, gift_plays=-1)).encode(), ["gift_plays", "-1"]),
    ("turn-negative", json.dumps(with_(SOLO, turn=-1)).encode(), ["turn", "-1"]),
    (
        "turn-huge",
        json.dumps(SOLO).replace('"turn": 0', '"turn": 1e400').encode(),
        ["turn", "1e400"],
    ),
    (
        "active-nan",
        json.dumps(SOLO).replace('"active": 0', '"active": NaN').encode(),
        ["active", "NaN"],
    ),
    ("active-float", json.dumps(with_(SOLO, active=0.5)).encode(), ["active", "0.5"]),
    ("active-bool", json.dumps(with_(SOLO, active=True)).encode(), ["active", "true/false"]),
    (
        "removed-null",
        json.dumps(with_(SOLO, config={"blitz": True, "removed": None})).encode(),
        ["config.removed", "null", "list"],
    ),
    (
        "player-2-equipped-solo",
        json.dumps(with_(SOLO, equipped=[["PRINCESS", "KING"], ["JOKER"]])).encode(),
        ["equipped", "1 player"],
    ),
    (
        "player-2-zone-solo",
        json.dumps(with_(EXACT, zone_ids=[1, 1, 2] + [0] * 10)).encode(),
        ["zone_ids[2]", "player 2"],
    ),
    (
        "card-twice-labels",
        json.dumps(with_(SOLO, discard=["KING"])).encode(),
        ["KING"],
    ),
    (
        "card-twice-ids",
        json.dumps(with_(EXACT, equipped=[["PRINCESS", "KING", "JOKER", "MENDER"]])).encode(),
        ["equipped[0]", "MENDER"],
    ),
    ("not-object", b"[1, 2, 3]", ["position", "object"]),
    ("typo-field", json.dumps(with_(SOLO, discrad=[])).encode(), ["discrad", "discard"]),
    ("missing", None, ["not found"]),
    ("folder", "dir", ["pos.json", "director"]),
    ("not-json", b"{oops", ["not valid JSON"]),
    ("deck-not-list", json.dumps(with_(SOLO, deck="KING")).encode(), ["deck", "list"]),
    ("config-players-3", json.dumps(with_(SOLO, config={"players": 3})).encode(), ["players"]),
]


def _position_file(tmp_path: Path, content) -> Path:
    path = tmp_path / "pos.json"
    if content == "dir":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    return path


@pytest.mark.parametrize("name,content,words", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_bad_state_file(tmp_path, name, content, words):
    path = _position_file(tmp_path, content)
    before = listing(tmp_path)
    assert_refused(["allisbomb", "--state", str(path)], *words)
    assert listing(tmp_path) == before


@pytest.mark.parametrize("name,content,words", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_bad_position_in_solution_file(tmp_path, name, content, words):
    if name in ("binary", "missing", "folder"):
        path = _position_file(tmp_path, content)
    else:
        path = tmp_path / "sol.json"
        path.write_bytes(b'{"solution": [], "position": ' + content + b"}")
    assert_refused(["allisbomb", "replay", str(path)], *words)


@pytest.mark.parametrize(
    "solution,words",
    [
        (5, ["solution", "integer 5", "list"]),
        ([5], ["turn 1", "list"]),
        ([[0, -1]], ["turn 1 choice 2", "-1"]),
        ([["a"]], ["turn 1 choice 1", "'a'"]),
        ([[0.5]], ["choice 1", "0.5"]),
        ([[99]], ["illegal move"]),
    ],
)
def test_bad_saved_solution(tmp_path, solution, words):
    path = tmp_path / "sol.json"
    path.write_text(json.dumps({"position": EXACT, "solution": solution}))
    line = assert_refused(["allisbomb", "replay", str(path)], *words)
    assert "Traceback" not in line


def test_good_position_is_read_and_only_the_line_refused(tmp_path):
    # the position is accepted; a line of no turns does not win, so the file is refused
    # for that alone, in one line
    path = tmp_path / "sol.json"
    path.write_text(json.dumps({"position": EXACT, "solution": []}))
    line = assert_refused(["allisbomb", "replay", str(path)])
    assert line == (
        f"bombsolve: {path}: the saved solution does not win: it has no turns, and the game "
        "has not been won"
    )


# --- options ---------------------------------------------------------------------------------

OPTIONS = [
    (["allisbomb", "--seed", "-1"], ["--seed", "-1", "0..18446744073709551615"]),
    (["allisbomb", "--seed", str(2**64)], ["--seed", str(2**64)]),
    (["allisbomb", "--seed", "x"], ["--seed", "'x'"]),
    (["bombastic", "play", "--seed", "-1"], ["--seed", "-1", "0..18446744073709551615"]),
    (["bombastic", "replay", "--seed", "-5"], ["--seed", "-5"]),
    (["bombastic", "tournament", "--seed", "-5"], ["--seed", "-5"]),
    (["dragon", "play", "--seed", "-1"], ["--seed", "-1", "0..18446744073709551615"]),
    (["dragon", "replay", "--seed", "-1"], ["--seed"]),
    (["bomber", "play", "--seed", "-1"], ["--seed", "0..18446744073709551615"]),
    (["bomber", "replay", "--seed", "-1"], ["--seed"]),
    (["allisbomb", "--seed", "1", "--node-limit", str(2**63)], ["--node-limit", str(2**63)]),
    (["allisbomb", "--seed", "1", "--node-limit", "0"], ["--node-limit"]),
    (["allisbomb", "--seed", "1", "--time-limit", "nan"], ["--time-limit", "nan", "finite"]),
    (["allisbomb", "--seed", "1", "--time-limit", "inf"], ["--time-limit", "finite"]),
    (["allisbomb", "--seed", "1", "--time-limit", "0"], ["--time-limit"]),
    (["bombastic", "play", "--x", "ismcts:1000000000000"], ["iterations", "1000000000000"]),
    (["bombastic", "play", "--x", "greedy:nan"], ["threshold"]),
    (["bombastic", "play", "--games", "0"], ["--games"]),
    (["bombastic", "play", "--games", "-3"], ["--games"]),
    (["bombastic", "play", "--turn-cap", "0"], ["--turn-cap"]),
    (
        ["bombastic", "play", "--workers", "2", "--scheduler", "tcp://127.0.0.1:9"],
        ["tcp://127.0.0.1:9", "cannot reach"],
    ),
    (["bombastic", "play", "--workers", "0"], ["--workers", "0"]),
    (["bombastic", "play", "--workers", "100000"], ["--workers", "100000"]),
    (["bombastic", "play", "--scheduler", "not a url"], ["--scheduler", "not a url", "tcp://"]),
    (["bombastic", "infostates", "--max-memo-gib", "nan"], ["--max-memo-gib"]),
    (["bombastic", "infostates", "--depth", "-1"], ["--depth"]),
    (["dragon", "play", "--players", "7"], ["player count 7"]),
    (["dragon", "play", "--games", "0"], ["--games"]),
    (["bomber", "play", "--players", "2"], ["player count 2"]),
    (["bomber", "play", "--games", "-1"], ["--games -1 is not positive"]),
]


@pytest.mark.parametrize("args,words", OPTIONS, ids=[" ".join(a) for a, _ in OPTIONS])
def test_bad_option(args, words):
    assert_refused(args, *words)


def test_one_seed_range_for_every_game():
    """The largest seed is taken by every game's --seed (here: where it runs quickly)."""
    top = str(2**64 - 1)
    code, out = run(["bombastic", "replay", "--seed", top, "--x", "random", "--o", "random"])
    assert code == 0, out
    code, out = run(["dragon", "replay", "--seed", top])
    assert code == 0, out
    code, out = run(["bomber", "replay", "--seed", top])
    assert code == 0, out


# --- study options (they must refuse before anything is written) ---------------------------

STUDY_OPTIONS = [
    (["--node-limit", str(2**63)], ["--node-limit"]),
    (["--scheduler", "not a url"], ["--scheduler", "tcp://HOST:PORT"]),
    (["--scheduler", "tcp://127.0.0.1:99999"], ["--scheduler"]),
    (["--time-budget", "nan"], ["--time-budget", "finite"]),
    (["--chunk-size", "0"], ["--chunk-size"]),
    (["--seed", "-1"], ["--seed"]),
    (["--deals", "0"], ["--deals"]),
    (["--workers", "100000"], ["--workers"]),
]


@pytest.mark.parametrize("extra,words", STUDY_OPTIONS, ids=[" ".join(e) for e, _ in STUDY_OPTIONS])
def test_bad_sweep_option_leaves_nothing(tmp_path, extra, words):
    out = tmp_path / "study"
    args = ["allisbomb", "sweep", "--deals", "3", "--blitz", "--out", str(out), "--workers", "1"]
    assert_refused([*args, *extra], *words)
    assert not out.exists()
    assert listing(tmp_path) == []


def test_unreachable_scheduler_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr("bombsolve.solvers.common.runner.DASK_CONNECT_TIMEOUT", "1s")
    out = tmp_path / "study"
    assert_refused(
        ["bomber", "study", "--games", "20", "--out", str(out), "--scheduler", "tcp://127.0.0.1:9"],
        "tcp://127.0.0.1:9",
        "scheduler",
    )
    assert listing(tmp_path) == []


# --- output paths ----------------------------------------------------------------------------


def _unwritable(tmp_path: Path) -> Path:
    """A folder this process cannot write into: a read-only folder, or for root (whom
    permission bits do not stop) sysfs, which refuses new files to everyone."""
    if os.geteuid() == 0:
        return Path("/sys")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    return ro


def test_save_under_a_file_is_refused(tmp_path):
    (tmp_path / "f").write_text("x")
    assert_refused(["allisbomb", "--seed", "1", "--save", str(tmp_path / "f" / "x.json")], "f")
    assert listing(tmp_path) == ["f"]


def test_save_into_unwritable_folder_is_refused(tmp_path):
    target = _unwritable(tmp_path) / "bombsolve-x.json"
    assert_refused(["allisbomb", "--seed", "1", "--save", str(target)], "cannot write")
    assert not target.exists()


def test_save_onto_a_folder_is_refused(tmp_path):
    assert_refused(["allisbomb", "--seed", "1", "--save", str(tmp_path)], "folder")


@pytest.mark.parametrize(
    "command",
    [
        ["allisbomb", "sweep", "--deals", "3", "--blitz"],
        ["bomber", "study", "--games", "20"],
        ["bombastic", "play", "--games", "2"],
    ],
    ids=["sweep", "bomber-study", "bombastic-play"],
)
def test_out_under_a_file_or_unwritable_is_refused(tmp_path, command):
    (tmp_path / "f").write_text("x")
    assert_refused([*command, "--out", str(tmp_path / "f" / "sub")], "is a file")
    assert_refused([*command, "--out", str(tmp_path / "f")], "is a file")
    target = _unwritable(tmp_path) / "bombsolve-study"
    assert_refused([*command, "--out", str(target)], "cannot write")
    assert not target.exists()
    assert listing(tmp_path) in (["f"], ["f", "ro"])


def test_outputs_get_the_umask_modes(tmp_path):
    old = os.umask(0o022)
    try:
        save = tmp_path / "deal.json"
        code, out = run(["allisbomb", "--seed", "3", "--blitz", "--save", str(save)])
        assert code == 0, out
        assert stat.S_IMODE(save.stat().st_mode) == 0o644
        os.umask(0o027)
        code, out = run(
            ["bomber", "study", "--games", "12", "--out", str(tmp_path / "s"), "--workers", "1"]
        )
        assert code == 0, out
        files = [p for p in (tmp_path / "s").rglob("*") if p.is_file()]
        assert files and {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o640}
    finally:
        os.umask(old)
