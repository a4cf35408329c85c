"""Every example runs: each `bombsolve` line of every --help and of the README's code blocks.

The examples are collected from the command tree and README.md as they stand (a new
example is tested without touching this file), sizes are made small where a flag allows
(`SMALL`), output paths go to a temporary folder, and each must exit 0 or the code its
line documents in a comment ("# exits 10: ...").

An example written twice (in a --help and in the README, or twice in the README) runs
once: every later copy with the same arguments checks the first one's exit code.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli.main import cli

ROOT = Path(__file__).resolve().parents[1]

#: Flags whose value is a size: the example runs with this small value instead.
SMALL = {
    "--games": "2",
    "-n": "2",
    "--deals": "4",
    "--campaigns": "2",
    "--card-games": "4",
    "--kernel-games": "4",
    "--heuristic-deals": "2",
    "--sample": "4",
    "--ranks": "0:4",
}
#: Commands that would run for hours without a size flag get one (the full Blitz count).
SIZED = {("allisbomb", "exhaust"): (("--ranks", "--sample"), ["--ranks", "0:4"])}
#: Flags made smaller only when larger (a depth beyond this takes minutes).
AT_MOST = {"--depth": 1, "--node-limit": 200_000, "--time-limit": 5}
#: Flags dropped with their value (a Dask scheduler address of the docs is not running).
DROP = {"--scheduler"}
#: An example's documented exit code, in its comment: "bombsolve ... # exits 10: a loss".
EXITS = re.compile(r"#.*\bexits (\d+)\b")


def _walk(cmd: click.Command, path: list[str]):
    yield path, cmd
    if isinstance(cmd, click.Group):
        for sub in cmd.commands.values():  # (definition order: a sweep before its report)
            yield from _walk(sub, [*path, sub.name])


def _commands(line: str) -> list[tuple[str, int]]:
    """The bombsolve commands of one example line (`a && b` is two; comments dropped),
    each with the exit code its comment documents (0 if none)."""
    m = EXITS.search(line)
    code = int(m.group(1)) if m else 0
    line = re.sub(r"\s+#\s.*$", "", line.strip()).removeprefix("$ ")
    parts = [p.strip() for p in line.split("&&") if p.strip().startswith("bombsolve ")]
    return [(p, code if i == len(parts) - 1 else 0) for i, p in enumerate(parts)]


def help_examples() -> list[tuple[str, str, int]]:
    """(where, command, exit code) for every `bombsolve` line in the help of every command."""
    out = []
    for path, cmd in _walk(cli, ["bombsolve"]):
        for line in (cmd.help or "").splitlines():
            for c, code in _commands(line):
                out.append((" ".join(path) + " --help", c, code))
    return out


def readme_examples() -> list[tuple[str, str, int]]:
    """(where, command, exit code) for every `bombsolve` line in a code block of README.md."""
    out, fenced = [], False
    for i, line in enumerate((ROOT / "README.md").read_text().splitlines(), 1):
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            # (a `pip install ... && bombsolve ...` line keeps its bombsolve part)
            for c, code in _commands(line):
                out.append((f"README.md:{i}", c, code))
    return out


def shrink(command: str) -> list[str]:
    """The arguments of `command` (after `bombsolve`) with small sizes substituted."""
    args = shlex.split(command)[1:]
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        flag, eq, val = a.partition("=")
        has_value = bool(eq) or (i + 1 < len(args) and flag in {*SMALL, *AT_MOST, *DROP})
        if flag in DROP:
            i += 1 if eq else 2
            continue
        if has_value and (flag in SMALL or flag in AT_MOST):
            value = val if eq else args[i + 1]
            if flag in SMALL:
                value = SMALL[flag]
            elif float(value) > AT_MOST[flag]:
                value = str(AT_MOST[flag])
            out += [flag, value]
            i += 1 if eq else 2
            continue
        out.append(a)
        i += 1
    for (game, command), (flags, extra) in SIZED.items():
        if out[:2] == [game, command] and not any(f in out for f in flags):
            out += extra
    return out


def _writes_study(command: str) -> bool:
    return "--out" in shlex.split(command)


#: Examples that write a folder (`--out`) run before those that read one (`report DIR`,
#: `export DIR`, `--study DIR`), in their order of appearance otherwise.
EXAMPLES = sorted(help_examples() + readme_examples(), key=lambda e: not _writes_study(e[1]))


def test_examples_are_found():
    assert len(help_examples()) >= 20
    assert len(readme_examples()) >= 10
    for where, c, _code in EXAMPLES:
        assert "..." not in c, f"{where}: an example must run as written: {c}"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder to run the examples in: results/ of the repository reachable, and the
    files the examples read (a mid-game position, card files) present."""
    d = tmp_path_factory.mktemp("examples")
    (d / "results").symlink_to(ROOT / "results")
    r = CliRunner().invoke(cli, ["allisbomb", "--seed", "42", "--json"])
    position = json.loads(r.stdout)["position"]
    (d / "position.json").write_text(json.dumps(position))
    # a card owner's transcription (`cards check mycards.toml`) and an edited variant
    # (`sensitivity --variant mine.toml`): copies of the shipped base set
    base = ROOT / "solvers" / "allisbomb" / "data" / "base.toml"
    for name in ("mycards.toml", "mine.toml"):
        shutil.copy(base, d / name)
    return d


#: Exit code and output of each example run so far, by its arguments (as run).
RUNS: dict[tuple[str, ...], tuple[int, str]] = {}


@pytest.mark.parametrize(
    ("where", "command", "want"), EXAMPLES, ids=[f"{w}: {c}" for w, c, _ in EXAMPLES]
)
def test_example_runs(where, command, want, workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    args = shrink(command)
    key = tuple(args)
    if key not in RUNS:
        for i, a in enumerate(args[:-1]):
            if a == "--out":  # inside the work folder (an absolute path too), and empty: the
                # same folder may hold another example's study, which the runner would refuse
                out = workdir / args[i + 1].lstrip("/")
                shutil.rmtree(out, ignore_errors=True)
                args[i + 1] = str(out)
        r = CliRunner().invoke(cli, args)
        RUNS[key] = (r.exit_code, r.output)
    code, output = RUNS[key]
    assert code == want, f"{where}: {command!r} ran as {args}:\n{output}"
