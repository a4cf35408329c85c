"""The study runner shared by every game (DESIGN.md, "Truth of results", "Runs that last").

A study is a pure function over a chunk of cases. The runner

- splits ``n_cases`` into chunks of ``chunk_size`` and gives chunk *i* the child
  ``SeedSequence(seed, spawn_key=(i,))`` (the same child ``SeedSequence(seed).spawn(n)[i]``
  gives), so results are identical for any number of workers or machines;
- runs the chunks in this process (``workers=1``), on a local process pool, or on a Dask
  distributed cluster (``scheduler="tcp://host:port"``);
- writes each finished chunk atomically as Parquet (``chunks/chunk-000042.parquet``, with the
  study's identity in the file's metadata) and a ``manifest.json`` naming the command,
  parameters, input files and their hashes, versions, git commit and times;
- on a re-run with the same study resumes with only the missing chunks; a chunk file that is
  truncated, corrupt or belongs to another study is recomputed, never read as data; a
  different study pointed at the same folder is refused with `BadInput`;
- with a ``time_budget`` stops starting chunks once the budget is spent, so a study too long
  for one sitting is computed over several runs (each run is recorded in the manifest);
  ``Study.order`` chooses which chunks go first (results do not depend on it), so that a
  partial study is a fair sample of every part of it, and ``load_study(..., partial=True)``
  reads what is done.

Example:

>>> import tempfile
>>> from solvers.common.toy import coin_chunk
>>> study = Study("toy.coin", {"p": 0.5}, n_cases=10, seed=1, chunk_fn=coin_chunk, chunk_size=4)
>>> with tempfile.TemporaryDirectory() as out:
...     df = run_study(study, out, workers=1, progress=False)
>>> list(df["case"])
[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as _dt
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from solvers import __version__
from solvers.common.errors import BadInput
from solvers.common.files import atomic_path, write_text_atomic
from solvers.common.host import host_info
from solvers.common.progress import ProgressLog, progress_bar, wants_progress

MANIFEST = "manifest.json"
CHUNK_DIR = "chunks"
_META_KEY = b"bombsolve.chunk"
DASK_CONNECT_TIMEOUT = "10s"

#: A time budget set by a command's ``--time-budget`` for every study it runs (`time_budget`).
_COMMAND_BUDGET: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "bombsolve_time_budget", default=None
)


class StudyPaused(Exception):
    """A study stopped at a command's time budget before all its chunks were done."""

    def __init__(self, out_dir: Path, done: int, total: int) -> None:
        super().__init__(
            f"stopped at the time budget with {done} of {total} chunks of {out_dir} done; "
            "re-run the same command to resume"
        )


#: Whether a command's studies print no progress lines in logs (``--quiet``).
_COMMAND_QUIET: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "bombsolve_quiet", default=False
)


@contextlib.contextmanager
def quiet_progress(quiet: bool):
    """Make every `run_study` inside the block print no progress lines (``--quiet``); the
    one-line summary at the end of each study is still printed."""
    token = _COMMAND_QUIET.set(quiet)
    try:
        yield
    finally:
        _COMMAND_QUIET.reset(token)


@contextlib.contextmanager
def time_budget(seconds: float | None):
    """Give the `run_study` calls inside the block this time budget, together (for
    ``--time-budget``): the clock starts here, so a command that runs several studies
    stops within the budget, not within one budget per study.

    A study left unfinished there raises `StudyPaused` instead of returning part of its rows,
    so that no command builds a report from a partial study by accident.
    """
    token = _COMMAND_BUDGET.set(None if seconds is None else time.monotonic() + seconds)
    try:
        yield
    finally:
        _COMMAND_BUDGET.reset(token)


ChunkFn = Callable[[Mapping[str, Any], "ChunkSpec"], pd.DataFrame]


@dataclass(frozen=True)
class ChunkSpec:
    """One chunk of a study: cases ``[start, stop)`` and the seed material for them."""

    index: int
    start: int
    stop: int
    seed: int

    @property
    def seed_seq(self) -> np.random.SeedSequence:
        """The chunk's child of the study's root ``SeedSequence(seed)``."""
        return np.random.SeedSequence(self.seed, spawn_key=(self.index,))

    def rng(self) -> np.random.Generator:
        """A generator seeded from this chunk's ``SeedSequence`` child."""
        return np.random.default_rng(self.seed_seq)

    def case_seeds(self) -> np.ndarray:
        """One uint64 seed per case of the chunk, in case order."""
        n = self.stop - self.start
        # A grandchild sequence keeps these independent of whatever rng() draws.
        seq = np.random.SeedSequence(self.seed, spawn_key=(self.index, 0))
        return seq.generate_state(max(n, 1), dtype=np.uint64)[:n]

    def __len__(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True)
class Study:
    """What to run: a named, parametrised chunk function over ``n_cases`` cases."""

    name: str
    params: Mapping[str, Any]
    n_cases: int
    seed: int
    chunk_fn: ChunkFn
    chunk_size: int = 1000
    input_files: Sequence[str | os.PathLike] = ()
    progress_fn: Callable[[pd.DataFrame], str] | None = field(default=None, compare=False)
    #: Sort key for the order in which missing chunks are computed (default: by index). It
    #: never changes a result, only which chunks a partial run has.
    order: Callable[[ChunkSpec], Any] | None = field(default=None, compare=False)
    #: Given the identities of the study in a folder and of this one, None when this one
    #: extends that one exactly (more cases; chunks of equal bounds hold equal rows), so
    #: that the same command with more cases grows the folder; else why not, in words.
    grows: Callable[[Mapping[str, Any], Mapping[str, Any]], str | None] | None = field(
        default=None, compare=False
    )
    #: Words (option names) for the parameters, for refusals that say what differs.
    words: Mapping[str, str] = field(default_factory=dict, compare=False)

    def chunks(self) -> list[ChunkSpec]:
        """All chunks of the study, in order."""
        if self.n_cases < 0:
            raise BadInput(f"number of cases {self.n_cases} is negative; expected 0 or more")
        if self.chunk_size < 1:
            raise BadInput(f"chunk size {self.chunk_size} is not positive; expected 1 or more")
        return [
            ChunkSpec(i, start, min(start + self.chunk_size, self.n_cases), self.seed)
            for i, start in enumerate(range(0, self.n_cases, self.chunk_size))
        ]

    def identity(self) -> dict[str, Any]:
        """Everything that determines the results; two runs with equal identity agree."""
        return {
            "study": self.name,
            "params": _jsonable(dict(self.params)),
            "n_cases": int(self.n_cases),
            "seed": int(self.seed),
            "chunk_size": int(self.chunk_size),
            "chunk_fn": f"{self.chunk_fn.__module__}.{self.chunk_fn.__qualname__}",
            "input_files": {str(Path(p).name): sha256_file(p) for p in self.input_files},
        }

    def identity_hash(self) -> str:
        """A short stable hash of `identity`."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def sha256_file(path: str | os.PathLike) -> str:
    """Return the SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _jsonable(value: Any) -> Any:
    """Normalise tuples, paths and NumPy scalars so identities compare as JSON."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, os.PathLike):
        return str(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def _git_commit() -> str:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        return out + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _versions() -> dict[str, str]:
    import numba

    versions = {
        "bombsolve": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pandas": pd.__version__,
        "pyarrow": pa.__version__,
    }
    try:
        import distributed

        versions["distributed"] = distributed.__version__
    except ImportError:  # pragma: no cover - dask is a declared dependency
        pass
    return versions


def _cores() -> int:
    """Cores this process may run on (the affinity mask, not the machine's total)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def chunk_path(out_dir: str | os.PathLike, index: int) -> Path:
    """The file that holds chunk `index` of the study in `out_dir`."""
    return Path(out_dir) / CHUNK_DIR / f"chunk-{index:06d}.parquet"


def run_chunk(chunk_fn: ChunkFn, params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Run one chunk and check that it returned exactly its cases (worker side)."""
    df = chunk_fn(params, chunk)
    if not isinstance(df, pd.DataFrame) or "case" not in df.columns:
        raise TypeError(
            f"chunk function {chunk_fn.__qualname__} must return a DataFrame with 'case'"
        )
    cases = np.unique(df["case"].to_numpy())
    if len(cases) != len(chunk) or (
        len(chunk) and (cases[0] != chunk.start or cases[-1] != chunk.stop - 1)
    ):
        raise ValueError(
            f"chunk {chunk.index} returned cases {cases[:3]}..., expected {chunk.start}..{chunk.stop - 1}"
        )
    return df.reset_index(drop=True)


def _write_chunk(out_dir: Path, chunk: ChunkSpec, df: pd.DataFrame, ident: str) -> None:
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[_META_KEY] = json.dumps(
        {"identity": ident, "index": chunk.index, "start": chunk.start, "stop": chunk.stop}
    ).encode()
    table = table.replace_schema_metadata(meta)
    with atomic_path(chunk_path(out_dir, chunk.index)) as tmp:
        pq.write_table(table, tmp)


def _read_chunk(out_dir: Path, chunk: ChunkSpec, ident: str) -> pd.DataFrame | None:
    """Read a finished chunk, or None when it is missing, corrupt, or not this study's."""
    path = chunk_path(out_dir, chunk.index)
    if not path.exists():
        return None
    try:
        table = pq.read_table(path)
        meta = json.loads((table.schema.metadata or {})[_META_KEY])
        if meta != {
            "identity": ident,
            "index": chunk.index,
            "start": chunk.start,
            "stop": chunk.stop,
        }:
            return None
        df = table.to_pandas()
        cases = np.unique(df["case"].to_numpy())
        if len(cases) != len(chunk) or (len(chunk) and cases[0] != chunk.start):
            return None
        return df
    except Exception:  # noqa: BLE001 - any unreadable file is recomputed, never trusted
        return None


def _check_manifest(out_dir: Path, study: Study, ident: str) -> dict[str, Any] | None:
    path = out_dir / MANIFEST
    if not path.exists():
        if (out_dir / CHUNK_DIR).exists() and any((out_dir / CHUNK_DIR).iterdir()):
            raise BadInput(
                f"output folder {out_dir} holds chunks but no {MANIFEST}; use an empty folder"
            )
        return None
    try:
        manifest = json.loads(path.read_text())
        if not isinstance(manifest["identity"], dict):
            raise ValueError("its identity is not an object")
    except (ValueError, KeyError) as exc:
        raise BadInput(
            f"{path} is not a bombsolve study manifest ({exc}); use another --out"
        ) from None
    if manifest.get("identity_hash") != ident:
        return _grow_or_refuse(out_dir, study, manifest, ident)
    return manifest


_IDENTITY_WORDS = {
    "study": "the kind of study",
    "n_cases": "the number of cases",
    "seed": "--seed",
    "chunk_size": "--chunk-size",
    "chunk_fn": "the chunk function (another version of bombsolve)",
    "input_files": "the input files (a card or data file changed)",
}


def _leaf_diffs(old: Any, new: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple, Any, Any]]:
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        out = []
        for k in sorted(set(old) | set(new), key=str):
            out += _leaf_diffs(old.get(k), new.get(k), (*path, str(k)))
        return out
    return [] if old == new else [(path, old, new)]


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return ", ".join(str(v) for v in value) or "none"
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def describe_difference(
    old: Mapping[str, Any], new: Mapping[str, Any], words: Mapping[str, str] | None = None
) -> str:
    """What differs between two study identities, in words: the option or parameter named
    as the user gives it (`Study.words`), its value there and now; e.g. "--node-limit is
    200,000 there and 100,000 now"."""
    words = dict(words or {})
    parts, seen = [], set()
    for path, a, b in _leaf_diffs(old, new):
        if path[0] == "params" and len(path) > 1:
            name = words.get(path[1], f"the parameter {'.'.join(path[1:])}")
            key = path[1]
            if len(path) > 2 and key not in words:
                key = ".".join(path[1:])
            if key in seen:
                continue
            seen.add(key)
            if len(path) > 2:
                a, b = old["params"].get(path[1]), new["params"].get(path[1])
        else:
            name = _IDENTITY_WORDS.get(path[0], path[0])
            if path[0] in seen:
                continue
            seen.add(path[0])
            if path[0] == "input_files":
                a_files, b_files = old.get("input_files") or {}, new.get("input_files") or {}
                names = [
                    f
                    for f in sorted(set(a_files) | set(b_files))
                    if a_files.get(f) != b_files.get(f)
                ]
                parts.append(f"the input file {', '.join(names)} differs (its content or presence)")
                continue
            a, b = old.get(path[0]), new.get(path[0])
        parts.append(f"{name} is {_show(a)} there and {_show(b)} now")
    return "; ".join(parts[:3]) + ("; ..." if len(parts) > 3 else "") or "its identity differs"


def _grow_or_refuse(
    out_dir: Path, study: Study, manifest: dict[str, Any], ident: str
) -> dict[str, Any]:
    """Grow the study in `out_dir` into `study` when `study.grows` says it extends it
    exactly (its full chunks are kept, relabelled as the larger study's; a partial last
    chunk is recomputed), else raise BadInput saying what differs, in words."""
    old, new = manifest["identity"], study.identity()
    detail = describe_difference(old, new, study.words)
    same_but_size = {k: v for k, v in old.items() if k not in ("n_cases", "params")} == {
        k: v for k, v in new.items() if k not in ("n_cases", "params")
    }
    why = ""
    if study.grows is None or not same_but_size or new["n_cases"] == old["n_cases"]:
        why = ""
    elif new["n_cases"] < old["n_cases"]:
        why = " (a study grows, it does not shrink)"
    elif (reason := study.grows(old, new)) is not None:
        why = f" ({reason})"
    else:
        why = None
    if why is not None:
        raise BadInput(
            f"output folder {out_dir} holds a different study: {detail}{why}; "
            "expected the same arguments to resume (or more cases, to grow it), or a new --out"
        )
    old_hash = manifest["identity_hash"]
    kept = 0
    n, size = int(old["n_cases"]), int(old["chunk_size"])
    for i, start in enumerate(range(0, n, size)):
        chunk = ChunkSpec(i, start, min(start + size, n), int(old["seed"]))
        path = chunk_path(out_dir, chunk.index)
        if not path.is_file():
            continue
        df = _read_chunk(out_dir, chunk, old_hash)
        if df is not None and len(chunk) == study.chunk_size:
            _write_chunk(out_dir, chunk, df, ident)
            kept += 1
        else:
            path.unlink()
    manifest.setdefault("grown", []).append(
        {
            "at": _now(),
            "from_cases": old["n_cases"],
            "to_cases": new["n_cases"],
            "chunks_kept": kept,
        }
    )
    manifest["identity"], manifest["identity_hash"], manifest["finished"] = new, ident, None
    _write_manifest(out_dir, manifest)
    return manifest


def _write_manifest(out_dir: Path, manifest: dict[str, Any]) -> None:
    write_text_atomic(out_dir / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def run_study(
    study: Study,
    out_dir: str | os.PathLike,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    command: str | None = None,
    time_budget: float | None = None,
) -> pd.DataFrame:
    """Run (or resume) `study` into `out_dir` and return all its rows, sorted by case.

    ``workers=None`` uses every core; ``workers=1`` runs in this process. ``scheduler`` sends the
    chunks to a Dask distributed scheduler instead. ``time_budget`` (seconds): start no chunk
    after it is spent; chunks already running finish and are kept, and the rows of the chunks
    done so far are returned (``df.attrs["complete"]`` says whether that is all of them).
    Raises `BadInput` when `out_dir` holds a different study.
    """
    out = Path(out_dir)
    from_command = time_budget is None and _COMMAND_BUDGET.get() is not None
    if from_command:
        # The command's deadline, shared by every study it runs.
        time_budget = max(0.0, _COMMAND_BUDGET.get() - time.monotonic())
    chunks = study.chunks()
    ident = study.identity_hash()
    old = _check_manifest(out, study, ident)
    out.mkdir(parents=True, exist_ok=True)
    (out / CHUNK_DIR).mkdir(exist_ok=True)

    done: dict[int, pd.DataFrame] = {}
    for chunk in chunks:
        df = _read_chunk(out, chunk, ident)
        if df is not None:
            done[chunk.index] = df
    todo = [c for c in chunks if c.index not in done]
    if study.order is not None:
        todo.sort(key=study.order)
    if time_budget is not None and time_budget < 0:
        raise BadInput(f"time budget {time_budget} is negative; expected seconds >= 0")
    deadline = None if time_budget is None else time.monotonic() + time_budget

    if workers is not None and workers < 1:
        raise BadInput(f"--workers {workers} is not positive; expected 1 or more")
    n_workers = workers or _cores()
    run = {
        "started": _now(),
        "chunks_planned": len(todo),
        "chunks_computed": 0,
        "chunks_reused": len(done),
        # Each run's code version: a resumed study may mix chunks computed by several.
        "git_commit": _git_commit(),
        "executor": f"dask {scheduler}"
        if scheduler
        else f"processes x{min(n_workers, max(len(todo), 1))}",
    }
    manifest = old or {
        "identity": study.identity(),
        "identity_hash": ident,
        "started": run["started"],
        "runs": [],
    }
    manifest.update(
        {
            "command": command
            if command is not None
            else " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
            "input_files": [{"path": str(p), "sha256": sha256_file(p)} for p in study.input_files],
            "versions": _versions(),
            "git_commit": _git_commit(),
            "host": host_info(),
            "finished": None,
            "chunks_total": len(chunks),
            "chunks_done": len(done),
        }
    )
    manifest["runs"].append(run)
    _write_manifest(out, manifest)

    bar = progress_bar(
        len(chunks),
        study.name,
        unit="chunk",
        enabled=progress if progress is not None else wants_progress(),
    )
    bar.update(len(done))
    t0 = time.perf_counter()
    cases_run = 0
    log = ProgressLog(
        study.name,
        study.n_cases,
        sum(len(df) for df in done.values()),
        enabled=progress is None and bar.disable,
        quiet=_COMMAND_QUIET.get(),
    )

    def estimate() -> str:
        return study.progress_fn(pd.concat(list(done.values()), ignore_index=True))

    def finish(chunk: ChunkSpec, df: pd.DataFrame) -> None:
        nonlocal cases_run
        _write_chunk(out, chunk, df, ident)
        done[chunk.index] = df
        run["chunks_computed"] += 1
        cases_run += len(chunk)
        log.update(len(chunk), estimate if study.progress_fn is not None else None)
        bar.update(1)
        if not bar.disable:
            rate = cases_run / max(time.perf_counter() - t0, 1e-9)
            text = f"{rate:,.0f} cases/s"
            if study.progress_fn is not None:
                text += " | " + study.progress_fn(pd.concat(list(done.values()), ignore_index=True))
            bar.set_postfix_str(text)

    try:
        if todo:
            if scheduler:
                _run_dask(study, todo, scheduler, finish, deadline)
            elif workers is None and n_workers > 1 and len(todo) > 1:
                _run_auto(study, todo, n_workers, finish, deadline, run)
            elif n_workers == 1 or len(todo) == 1:
                for chunk in todo:
                    if _spent(deadline):
                        break
                    finish(chunk, run_chunk(study.chunk_fn, study.params, chunk))
            else:
                _run_pool(study, todo, n_workers, finish, deadline)
    finally:
        bar.close()
        run["finished"] = _now()
        manifest["chunks_done"] = len(done)
        if len(done) == len(chunks):
            manifest["finished"] = run["finished"]
        _write_manifest(out, manifest)

    if progress is None:
        print(
            log.summary(
                str(out),
                len(done) == len(chunks),
                estimate if study.progress_fn is not None and done else None,
            ),
            file=sys.stderr,
            flush=True,
        )
    if from_command and len(done) < len(chunks):
        raise StudyPaused(out, len(done), len(chunks))
    df = _concat(done[c.index] for c in chunks if c.index in done)
    df.attrs["complete"] = len(done) == len(chunks)
    return df


def _spent(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def _concat(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    frames = list(frames)
    if not frames:
        return pd.DataFrame({"case": pd.Series([], dtype="int64")})
    df = pd.concat(frames, ignore_index=True)
    return df.sort_values("case", kind="stable").reset_index(drop=True)


#: Seconds of work left after which a process pool pays for its start-up (each spawned
#: worker imports NumPy, pandas and Numba and loads the kernels from the cache: about 2.5 s
#: of CPU each, measured with `allisbomb sweep --deals 4000 --chunk-size 1000` on 2 cores,
#: where 2 workers took 22 s and one 11 s). Twice that, as a margin for a loaded machine.
POOL_PAYS_AFTER = 10.0


def _run_auto(
    study: Study,
    todo: list[ChunkSpec],
    n_workers: int,
    finish,
    deadline: float | None,
    run: dict[str, Any],
) -> None:
    """The default executor (``workers=None``): chunks run in this process while the rest
    would take less than `POOL_PAYS_AFTER` seconds at the rate so far; once more is left, a
    pool of `n_workers` processes takes the remaining chunks. A small study thus never
    pays for a pool, a large one gets every core."""
    t0 = time.perf_counter()
    for k, chunk in enumerate(todo):
        if _spent(deadline):
            return
        left = todo[k:]
        if k and (time.perf_counter() - t0) / k * len(left) > POOL_PAYS_AFTER and len(left) > 1:
            run["executor"] = (
                f"this process x{k} chunks, then processes x{min(n_workers, len(left))}"
            )
            _run_pool(study, left, n_workers, finish, deadline)
            return
        finish(chunk, run_chunk(study.chunk_fn, study.params, chunk))
    run["executor"] = "this process"


def _drop_queued(pending: dict) -> None:
    """Cancel the chunks still waiting for a worker once the time budget is spent, so
    that the run stops within the time of the chunks already running."""
    for fut in [f for f in pending if f.cancel()]:
        del pending[fut]


def _run_pool(
    study: Study, todo: list[ChunkSpec], n_workers: int, finish, deadline: float | None = None
) -> None:
    # Spawned (not forked) workers: no inherited threads or Numba state; the cache makes
    # their first compile cheap.
    ctx = get_context("spawn")
    n_workers = min(n_workers, len(todo))
    queue = list(reversed(todo))
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=ctx) as pool:
        pending: dict = {}

        def top_up() -> None:
            # Two chunks per worker in flight: the workers never wait, and a time budget
            # leaves at most that much work running past it.
            while queue and len(pending) < 2 * n_workers and not _spent(deadline):
                c = queue.pop()
                pending[pool.submit(run_chunk, study.chunk_fn, study.params, c)] = c

        top_up()
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    chunk = pending.pop(fut)
                    finish(chunk, fut.result())
                if _spent(deadline):
                    _drop_queued(pending)
                top_up()
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise


def _run_dask(
    study: Study, todo: list[ChunkSpec], scheduler: str, finish, deadline: float | None = None
) -> None:
    from distributed import Client, as_completed

    try:
        client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
    except OSError as exc:
        raise BadInput(
            f"cannot reach Dask scheduler {scheduler!r} ({exc}); expected tcp://HOST:PORT"
        ) from None
    try:
        ident = study.identity_hash()
        # Enough in flight to keep every worker busy; the rest wait here, so that a time
        # budget can stop them and the scheduler's queue stays short.
        width = 2 * max(1, len(client.scheduler_info().get("workers", {})))
        queue = list(reversed(todo))
        futures = {}

        def submit() -> None:
            c = queue.pop()
            fut = client.submit(
                run_chunk,
                study.chunk_fn,
                study.params,
                c,
                key=f"{study.name}-{c.index}-{ident}",
                pure=False,
            )
            futures[fut] = c
            running.add(fut)

        running = as_completed([])
        while queue and len(futures) < width and not _spent(deadline):
            submit()
        for fut in running:
            finish(futures.pop(fut), fut.result())
            if queue and not _spent(deadline):
                submit()
    finally:
        client.close()


def load_study(out_dir: str | os.PathLike, partial: bool = False) -> pd.DataFrame:
    """Return every row of a finished study folder, sorted by case.

    Raises `BadInput` when the folder is not a finished study. ``partial=True`` returns the
    rows of the chunks that are done instead (``df.attrs["complete"]`` says if that is all).
    """
    out = Path(out_dir)
    path = out / MANIFEST
    if not path.exists():
        raise BadInput(
            f"{out} has no {MANIFEST}; expected a study folder made by a bombsolve study"
        )
    try:
        manifest = json.loads(path.read_text())
        ident = manifest["identity_hash"]
        identity = manifest["identity"]
    except (ValueError, KeyError) as exc:
        raise BadInput(f"{path} is not a bombsolve study manifest ({exc})") from None
    n, size, seed = identity["n_cases"], identity["chunk_size"], identity["seed"]
    frames = []
    for i, start in enumerate(range(0, n, size)):
        chunk = ChunkSpec(i, start, min(start + size, n), seed)
        df = _read_chunk(out, chunk, ident)
        if df is None and partial:
            continue
        if df is None:
            raise BadInput(
                f"{out} is unfinished or damaged (chunk {i} missing or unreadable); "
                "re-run the same command to complete it"
            )
        frames.append(df)
    df = _concat(frames)
    df.attrs["complete"] = len(frames) == len(range(0, n, size))
    return df


def computed_by(manifest: Mapping[str, Any]) -> str:
    """The git commits whose runs computed a study's chunks (a resumed study may have
    several), short form, oldest first: what a caption should name."""
    commits = [r["git_commit"][:12] for r in manifest.get("runs", []) if r.get("chunks_computed")]
    unique = list(dict.fromkeys(commits)) or [manifest["git_commit"][:12]]
    return ", ".join(unique)


def load_manifest(out_dir: str | os.PathLike) -> dict[str, Any]:
    """Return the manifest of a study folder."""
    path = Path(out_dir) / MANIFEST
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise BadInput(f"{out_dir} has no {MANIFEST}; expected a study folder") from None
    except ValueError as exc:
        raise BadInput(f"{path} is not valid JSON ({exc})") from None
