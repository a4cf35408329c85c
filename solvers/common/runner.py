"""The study runner shared by every game (DESIGN.md, "Truth of results", "Runs that last").

A study is a pure function over a chunk of cases. The runner

- splits ``n_cases`` into chunks of ``chunk_size`` and gives chunk *i* the child
  ``SeedSequence(seed, spawn_key=(i,))`` (the same child ``SeedSequence(seed).spawn(n)[i]``
  gives), so results are identical for any number of workers or machines;
- runs the chunks in this process (``workers=1``), on a local process pool, or on a Dask
  distributed cluster (``scheduler="tcp://host:port"``), waiting a bounded time for its
  scheduler to answer and for a worker (`scheduler_wait`): a cluster that fails stops the
  study with one line (`DaskUnavailable`), the finished chunks kept;
- writes each finished chunk atomically as Parquet (``chunks/chunk-000042.parquet``, with the
  study's identity in the file's metadata) and a ``manifest.json`` naming the command,
  parameters, input files and their hashes, versions, git commit and times;
- on a re-run with the same study resumes with only the missing chunks; a chunk file that is
  truncated, corrupt, edited (each chunk records a checksum of its rows, `data_checksum`) or
  belongs to another study is recomputed, never read as data; a different study pointed at
  the same folder is refused with `BadInput`, and so is a manifest that is not one
  (`validate_manifest`);
- writes nothing before the study can run: the folder is checked (`check_output_folder`),
  the scheduler reached and the first chunk computed before ``manifest.json`` appears;
- lets one study at a time run into a folder (`folder_lock`: a second one is refused at
  once, or waits with ``wait=True``), makes its chunk descriptors on demand (`ChunkPlan`:
  memory does not grow with the number of chunks), and ties its pool workers' lives to
  its own (`_worker_init`);
- with a ``time_budget`` stops starting chunks once the budget is spent, so a study too long
  for one sitting is computed over several runs (each run is recorded in the manifest);
  ``Study.order`` chooses which chunks go first (results do not depend on it), so that a
  partial study is a fair sample of every part of it, and ``load_study(..., partial=True)``
  reads what is done;
- grows a study in place when ``Study.grows`` accepts the new parameters (more cases, or
  a search given more room): full chunks are kept, and those ``Study.redo`` names are
  computed again, with their old rows handed to the chunk function
  (``ChunkSpec.prior``) when ``Study.keeps_rows`` says it keeps what still holds.

Example:

>>> import tempfile
>>> from bombsolve.solvers.common.toy import coin_chunk
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
import errno
import fcntl
import functools
import hashlib
import itertools
import json
import logging
import os
import platform
import re
import signal
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from multiprocessing import get_context, resource_tracker
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from bombsolve.solvers import __version__
from bombsolve.solvers.common import stopping
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.files import atomic_path, file_kind, read_input, write_text_atomic
from bombsolve.solvers.common.host import host_info
from bombsolve.solvers.common.progress import (
    ProgressFactory,
    StudyEnd,
    StudyStart,
    counting_cases,
    reporter,
    send_cases_to,
)

MANIFEST = "manifest.json"
CHUNK_DIR = "chunks"
#: The advisory lock file of a study folder: one study runs into a folder at a time.
LOCK = ".bombsolve.lock"
_META_KEY = b"bombsolve.chunk"
#: Seconds a Dask scheduler has to answer (connection and handshake) before a study gives up
#: on it, unless ``--scheduler-timeout`` says otherwise (`scheduler_wait`).
DASK_CONNECT_TIMEOUT = 10.0
#: Seconds a study waits for a first worker to join its scheduler, and for one to come back
#: when every worker has left mid-study, unless ``--scheduler-timeout`` says otherwise.
DASK_WORKER_TIMEOUT = 60.0
#: How often (seconds) a Dask study looks at its scheduler and workers while chunks run.
_DASK_POLL = 1.0

#: A time budget set by a command's ``--time-budget`` for every study it runs (`time_budget`).
_COMMAND_BUDGET: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "bombsolve_time_budget", default=None
)
#: Whether a study whose folder is locked by another is waited for (``--wait``).
_COMMAND_WAIT: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "bombsolve_lock_wait", default=False
)
#: The wait for a Dask scheduler and its workers set by ``--scheduler-timeout`` (seconds).
_COMMAND_SCHEDULER_WAIT: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "bombsolve_scheduler_wait", default=None
)
#: The folders this process has started writing studies into: while one of them still
#: holds its manifest, Ctrl-C can say "re-run to resume".
_STUDIES_STARTED: list[Path] = []


def study_started() -> bool:
    """True if this process has written a study folder that the same command resumes: one
    that is still there (a play command's games run in a temporary folder, removed on the
    way out, which no re-run finds)."""
    return any((folder / MANIFEST).is_file() for folder in _STUDIES_STARTED)


def forget_studies_started() -> None:
    """Start a new command's count of `study_started` (commands run in one process, as a
    test or a notebook runs them, each say only what their own studies resume)."""
    _STUDIES_STARTED.clear()


@contextlib.contextmanager
def lock_wait(wait: bool):
    """Make every `run_study` inside the block wait for a locked folder (for ``--wait``)."""
    token = _COMMAND_WAIT.set(wait)
    try:
        yield
    finally:
        _COMMAND_WAIT.reset(token)


@contextlib.contextmanager
def scheduler_wait(seconds: float | None):
    """Make every `run_study` inside the block wait at most `seconds` for its Dask scheduler
    to answer and for a worker to join it (for ``--scheduler-timeout``; None: the defaults,
    `DASK_CONNECT_TIMEOUT` and `DASK_WORKER_TIMEOUT`)."""
    token = _COMMAND_SCHEDULER_WAIT.set(seconds)
    try:
        yield
    finally:
        _COMMAND_SCHEDULER_WAIT.reset(token)


class DaskUnavailable(BadInput):
    """A Dask scheduler that does not answer, has no workers, or was lost mid-study.

    A `BadInput`, so the command line gives its one line and exit code 2: the user fixes the
    cluster (or the address) and re-runs the same command, which resumes the study."""


class StudyPaused(Exception):
    """A study stopped at a command's time budget before all its chunks were done."""

    def __init__(self, out_dir: Path, done: int, total: int) -> None:
        super().__init__(
            f"stopped at the time budget with {done} of {total} chunks of {out_dir} done; "
            "re-run the same command to resume"
        )


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
    #: The rows an earlier version of this study computed for the chunk, when the study
    #: keeps them (`Study.keeps_rows`) and its `redo` named the chunk: the chunk function
    #: may keep the ones still right and compute only the others. None otherwise.
    prior: pd.DataFrame | None = field(default=None, compare=False, repr=False)
    #: A part of chunk `index` (`parts`): the chunk's first case; None for a whole chunk.
    origin: int | None = None

    @property
    def seed_seq(self) -> np.random.SeedSequence:
        """The chunk's child of the study's root ``SeedSequence(seed)``."""
        return np.random.SeedSequence(self.seed, spawn_key=(self.index,))

    def rng(self) -> np.random.Generator:
        """A generator seeded from this chunk's ``SeedSequence`` child."""
        return np.random.default_rng(self.seed_seq)

    def case_seeds(self) -> np.ndarray:
        """One uint64 seed per case of the chunk (of the part: the chunk's seeds of its
        cases), in case order."""
        first = self.start if self.origin is None else self.origin
        n = self.stop - first
        # A grandchild sequence keeps these independent of whatever rng() draws; its
        # words do not depend on how many are asked for, so a part's are the chunk's.
        seq = np.random.SeedSequence(self.seed, spawn_key=(self.index, 0))
        return seq.generate_state(max(n, 1), dtype=np.uint64)[self.start - first : n]

    def parts(self, k: int) -> list[ChunkSpec]:
        """The chunk cut into `k` parts of consecutive cases (as near equal as can be), each
        with the chunk's seeds of its cases and the chunk's prior rows."""
        bounds = np.linspace(self.start, self.stop, k + 1).round().astype(int)
        return [
            replace(self, start=int(a), stop=int(b), origin=self.start)
            for a, b in itertools.pairwise(bounds)
            if b > a
        ]

    def __len__(self) -> int:
        return self.stop - self.start


class ChunkPlan(Sequence[ChunkSpec]):
    """The chunks of ``n_cases`` cases in chunks of ``chunk_size``, each `ChunkSpec` made
    when asked for, so that a study of 10**15 cases costs no more memory than one of 10."""

    def __init__(self, n_cases: int, chunk_size: int, seed: int) -> None:
        self.n_cases, self.chunk_size, self.seed = int(n_cases), int(chunk_size), int(seed)
        self._n = -(-self.n_cases // self.chunk_size)

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(f"chunk {i} of {self._n}")
        start = i * self.chunk_size
        return ChunkSpec(i, start, min(start + self.chunk_size, self.n_cases), self.seed)

    def __iter__(self) -> Iterator[ChunkSpec]:
        return (self[i] for i in range(self._n))


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
    #: When `grows` accepts a study with the same cases but parameters that change some rows
    #: (a search given more room), which chunks those are: given the identities of the study
    #: in the folder and of this one and a chunk's rows, True when that chunk is recomputed
    #: (every other chunk is kept as this study's).
    redo: Callable[[Mapping[str, Any], Mapping[str, Any], pd.DataFrame], bool] | None = field(
        default=None, compare=False
    )
    #: With `redo`: a chunk it names keeps its old rows beside it (`prior_path`) until it
    #: is computed again, and gets them as `ChunkSpec.prior`, so that its chunk function
    #: computes only the rows the new parameters change (a sweep: its undecided deals).
    keeps_rows: bool = field(default=False, compare=False)
    #: Words (option names) for the parameters, for refusals that say what differs.
    words: Mapping[str, str] = field(default_factory=dict, compare=False)
    #: Its chunk function computes any part of a chunk alone (`ChunkSpec.parts`: some of
    #: the chunk's cases, with the chunk's seeds and prior rows, never `ChunkSpec.rng`),
    #: and its parts' rows, in case order, are the chunk's: a run with fewer chunks to do
    #: than workers then runs parts of them side by side, and by default takes its rate
    #: on a part, not a whole chunk (`_run_parts`).
    splits: bool = field(default=False, compare=False)
    #: With `splits`: the fewest cases a part holds (a part's start costs its process
    #: the chunk function's set-up; cases that take seconds each can go one by one).
    least_part: int = field(default=32, compare=False)

    def chunks(self) -> ChunkPlan:
        """All chunks of the study, in order (built on demand: memory does not grow with
        the number of chunks)."""
        if self.n_cases < 0:
            raise BadInput(f"number of cases {self.n_cases} is negative; expected 0 or more")
        if self.chunk_size < 1:
            raise BadInput(f"chunk size {self.chunk_size} is not positive; expected 1 or more")
        return ChunkPlan(self.n_cases, self.chunk_size, self.seed)

    def identity(self) -> dict[str, Any]:
        """Everything that determines the results; two runs with equal identity agree."""
        return {
            "study": self.name,
            "params": _jsonable(dict(self.params)),
            "n_cases": int(self.n_cases),
            "seed": int(self.seed),
            "chunk_size": int(self.chunk_size),
            "chunk_fn": chunk_name(self.chunk_fn),
            "input_files": {str(Path(p).name): sha256_file(p) for p in self.input_files},
        }

    def identity_hash(self) -> str:
        """A short stable hash of `identity`."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def chunk_name(chunk_fn: Callable) -> str:
    """The chunk function's name in a study's identity: its `study_name` attribute when it
    has one (a function that moved keeps the name its studies recorded, so they still
    resume), else its module and qualified name, without the installed package's prefix."""
    name = getattr(chunk_fn, "study_name", None)
    if name is None:
        module = chunk_fn.__module__.removeprefix("bombsolve.")
        name = f"{module}.{chunk_fn.__qualname__}"
    return name


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
    from bombsolve.solvers.common.version import commit

    return commit()


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


def prior_path(out_dir: str | os.PathLike, index: int) -> Path:
    """Where chunk `index`'s rows wait while the chunk is computed again (`Study.keeps_rows`)."""
    return chunk_path(out_dir, index).with_name(f"chunk-{index:06d}.parquet.prior")


def _with_priors(out_dir: Path, todo: Iterable[ChunkSpec]) -> Iterator[ChunkSpec]:
    """`todo`'s chunks, each with its kept rows (`ChunkSpec.prior`) where it has them."""
    for chunk in todo:
        # a chunk file of the folder's earlier identity, renamed: its bounds and checksum
        # are checked, not the identity
        prior = _read_rows(prior_path(out_dir, chunk.index), chunk, None)
        yield chunk if prior is None else replace(chunk, prior=prior)


_PRIOR_NAME = re.compile(r"chunk-(\d{6,})\.parquet\.prior")


def _drop_spent_priors(out_dir: Path, done: Mapping[int, Any]) -> None:
    """Remove the kept rows of chunks already computed again (a run stopped between a
    chunk's file and the removal of its kept rows leaves them)."""
    folder = out_dir / CHUNK_DIR
    if not folder.is_dir():
        return
    for entry in os.scandir(folder):
        m = _PRIOR_NAME.fullmatch(entry.name)
        if m and int(m.group(1)) in done:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry.path)


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


def data_checksum(df: pd.DataFrame) -> str:
    """SHA-256 of a chunk's rows: column names, dtypes and every value, in order.

    Recorded in each chunk file's metadata and checked when the chunk is read back, so that
    rows edited inside an otherwise valid chunk are recomputed, never trusted.
    """
    h = hashlib.sha256()
    h.update(str(len(df)).encode())
    for name in df.columns:
        col = df[name]
        h.update(json.dumps([str(name), str(col.dtype)]).encode())
        try:
            h.update(pd.util.hash_pandas_object(col, index=False).to_numpy().tobytes())
        except TypeError:  # unhashable cells (lists, dicts): their JSON text instead
            h.update(json.dumps(col.tolist(), default=str, sort_keys=True).encode())
    return h.hexdigest()


def _write_chunk(out_dir: Path, chunk: ChunkSpec, df: pd.DataFrame, ident: str) -> None:
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[_META_KEY] = json.dumps(
        {
            "identity": ident,
            "index": chunk.index,
            "start": chunk.start,
            "stop": chunk.stop,
            "sha256": data_checksum(table.to_pandas()),
        }
    ).encode()
    table = table.replace_schema_metadata(meta)
    with atomic_path(chunk_path(out_dir, chunk.index), "chunk file", follow=False) as tmp:
        pq.write_table(table, tmp)


def _read_chunk(out_dir: Path, chunk: ChunkSpec, ident: str) -> pd.DataFrame | None:
    """Read a finished chunk, or None when it is missing, corrupt, or not this study's."""
    return _read_rows(chunk_path(out_dir, chunk.index), chunk, ident)


def _read_rows(path: Path, chunk: ChunkSpec, ident: str | None) -> pd.DataFrame | None:
    """The rows of `chunk` in the file `path`, or None when it is missing, corrupt, or
    written for another chunk or another study. With `ident` None (kept rows, written
    under the folder's earlier identity) any identity is taken, but only with a checksum."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):  # a link or a FIFO is never read
            return None
        table = pq.read_table(path)
        meta = json.loads((table.schema.metadata or {})[_META_KEY])
        checksum = meta.pop("sha256", None)
        if ident is None:
            ident = meta.get("identity")
            if checksum is None:
                return None
        if meta != {
            "identity": ident,
            "index": chunk.index,
            "start": chunk.start,
            "stop": chunk.stop,
        }:
            return None
        df = table.to_pandas()
        # Chunks written before checksums were recorded carry none; every chunk written
        # now does, and one whose rows no longer match it is recomputed.
        if checksum is not None and checksum != data_checksum(df):
            return None
        cases = np.unique(df["case"].to_numpy())
        if len(cases) != len(chunk) or (len(chunk) and cases[0] != chunk.start):
            return None
        return df
    except Exception:  # noqa: BLE001 - any unreadable file is recomputed, never trusted
        return None


_CHUNK_NAME = re.compile(r"chunk-(\d{6,})\.parquet")


def _done_chunks(out_dir: Path, plan: ChunkPlan, ident: str) -> dict[int, pd.DataFrame]:
    """Read every valid finished chunk of the folder (by listing it, not by trying every
    index, so a study of many chunks resumes in time proportional to what is done)."""
    done: dict[int, pd.DataFrame] = {}
    folder = out_dir / CHUNK_DIR
    if not folder.is_dir():
        return done
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        m = _CHUNK_NAME.fullmatch(entry.name)
        if not m or int(m.group(1)) >= len(plan):
            continue
        chunk = plan[int(m.group(1))]
        df = _read_chunk(out_dir, chunk, ident)
        if df is not None:
            done[chunk.index] = df
    return done


def _todo(plan: ChunkPlan, done: Mapping[int, Any], order) -> Iterator[ChunkSpec]:
    """The chunks still to compute, lazily in index order, or sorted by `order` (which then
    needs them all in memory)."""
    missing = (c for c in plan if c.index not in done)
    if order is None:
        return missing
    return iter(sorted(missing, key=order))


#: The fields every manifest holds, with their JSON types (`validate_manifest`).
_MANIFEST_FIELDS: dict[str, type | tuple[type, ...]] = {
    "identity": dict,
    "identity_hash": str,
    "runs": list,
}
#: The fields of a manifest's identity, with their JSON types.
_IDENTITY_FIELDS: dict[str, type | tuple[type, ...]] = {
    "study": str,
    "params": dict,
    "n_cases": int,
    "seed": int,
    "chunk_size": int,
    "chunk_fn": str,
    "input_files": dict,
}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__
    )


def _expect(where: str, value: Any, kind: type | tuple[type, ...]) -> None:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        names = {dict: "an object", list: "a list", str: "a string", int: "an integer"}
        want = " or ".join(names.get(k, k.__name__) for k in kinds)
        raise BadInput(f"{where} is {_json_type(value)}; expected {want}")


def validate_manifest(data: Any, path: str | os.PathLike) -> dict[str, Any]:
    """Check a manifest's structure and its identity's hash; return it or raise BadInput with
    one line naming the field that is wrong and what was expected."""
    where = f"{path}:"
    if not isinstance(data, dict):
        raise BadInput(f"{where} the manifest is {_json_type(data)}; expected a JSON object")
    for key, kind in _MANIFEST_FIELDS.items():
        if key not in data:
            raise BadInput(f"{where} field '{key}' is missing; expected a bombsolve study manifest")
        _expect(f"{where} field '{key}'", data[key], kind)
    identity = data["identity"]
    for key, kind in _IDENTITY_FIELDS.items():
        if key not in identity:
            raise BadInput(f"{where} field 'identity.{key}' is missing")
        _expect(f"{where} field 'identity.{key}'", identity[key], kind)
    if identity["n_cases"] < 0 or identity["chunk_size"] < 1:
        raise BadInput(
            f"{where} identity has n_cases {identity['n_cases']} and chunk_size "
            f"{identity['chunk_size']}; expected n_cases >= 0 and chunk_size >= 1"
        )
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    if hashlib.sha256(text.encode()).hexdigest()[:16] != data["identity_hash"]:
        raise BadInput(
            f"{where} field 'identity_hash' does not match the identity; expected the manifest "
            "as bombsolve wrote it (was it edited?)"
        )
    for i, run in enumerate(data["runs"]):
        _expect(f"{where} field 'runs[{i}]'", run, dict)
    return data


def _read_manifest_file(path: Path) -> Any:
    """The JSON of a manifest file, or BadInput naming what is wrong with the file (a
    folder, a link, a FIFO: `read_input`)."""
    raw = read_input(path, "manifest", "the study's manifest file", follow=False)
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadInput(f"{path} is not text; expected a JSON study manifest") from None
    except (ValueError, RecursionError) as exc:
        raise BadInput(f"{path} is not valid JSON ({str(exc)[:80]})") from None
    except OSError as exc:
        raise BadInput(f"cannot read {path} ({exc.strerror})") from None


def check_study_folder(study: Study, out_dir: str | os.PathLike) -> None:
    """Refuse, before any work, a folder `study` cannot run into (`check_output_folder`) or
    that holds another study it does not grow (`_check_manifest`); nothing is written.

    A command that compiles or prepares for long calls it first, so that a wrong --out is
    refused at once.
    """
    out = Path(out_dir)
    check_output_folder(out)
    _check_manifest(out, study, study.identity_hash(), dry=True)


def _check_manifest(
    out_dir: Path, study: Study, ident: str, dry: bool = False
) -> dict[str, Any] | None:
    path = out_dir / MANIFEST
    chunks = out_dir / CHUNK_DIR
    if chunks.exists() and not chunks.is_dir():
        raise BadInput(f"{chunks} is a file; expected the study's chunks folder (or nothing)")
    if not path.exists():
        if chunks.is_dir() and any(chunks.iterdir()):
            raise BadInput(
                f"output folder {out_dir} holds chunks but no {MANIFEST}; use an empty folder"
            )
        return None
    manifest = validate_manifest(_read_manifest_file(path), path)
    if manifest.get("identity_hash") != ident:
        return _grow_or_refuse(out_dir, study, manifest, ident, dry)
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
    out_dir: Path, study: Study, manifest: dict[str, Any], ident: str, dry: bool = False
) -> dict[str, Any]:
    """Grow the study in `out_dir` into `study` when `study.grows` says it extends it
    exactly (its full chunks are kept, relabelled as the larger study's; a partial last
    chunk, and a chunk `study.redo` names, is recomputed), else raise BadInput saying what
    differs, in words."""
    old, new = manifest["identity"], study.identity()
    detail = describe_difference(old, new, study.words)
    same_but_size = {k: v for k, v in old.items() if k not in ("n_cases", "params")} == {
        k: v for k, v in new.items() if k not in ("n_cases", "params")
    }
    same_size_grows = new["n_cases"] == old["n_cases"] and study.redo is not None
    why = ""
    if (
        study.grows is None
        or not same_but_size
        or (new["n_cases"] == old["n_cases"] and not same_size_grows)
    ):
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
    if dry:  # grown under the folder's lock only
        return manifest
    old_hash = manifest["identity_hash"]
    kept = redone = 0
    n, size = int(old["n_cases"]), int(old["chunk_size"])
    for i, start in enumerate(range(0, n, size)):
        chunk = ChunkSpec(i, start, min(start + size, n), int(old["seed"]))
        path = chunk_path(out_dir, chunk.index)
        if not path.is_file():
            continue
        df = _read_chunk(out_dir, chunk, old_hash)
        again = df is not None and study.redo is not None and study.redo(old, new, df)
        if df is not None and len(chunk) == study.chunk_size and not again:
            _write_chunk(out_dir, chunk, df, ident)
            kept += 1
        elif again and study.keeps_rows and len(chunk) == study.chunk_size:
            redone += 1
            os.replace(path, prior_path(out_dir, chunk.index))
        else:
            redone += bool(again)
            path.unlink()
    record = {
        "at": _now(),
        "from_cases": old["n_cases"],
        "to_cases": new["n_cases"],
        "chunks_kept": kept,
    }
    if study.redo is not None:
        record.update(chunks_redone=redone, change=detail)
    manifest.setdefault("grown", []).append(record)
    manifest["identity"], manifest["identity_hash"], manifest["finished"] = new, ident, None
    _write_manifest(out_dir, manifest)
    return manifest


def _write_manifest(out_dir: Path, manifest: dict[str, Any]) -> None:
    write_text_atomic(
        out_dir / MANIFEST,
        json.dumps(manifest, indent=2, sort_keys=True) + "\n",
        "manifest",
        follow=False,
    )


def _probe_writable(folder: Path) -> None:
    """Raise BadInput unless a file can be created in `folder` (tried, not guessed: the
    permission bits do not tell for root, read-only mounts or ACLs)."""
    try:
        fd, name = tempfile.mkstemp(prefix=".bombsolve-probe.", dir=folder)
    except OSError as exc:
        raise BadInput(
            f"cannot write into {folder} ({exc.strerror}); expected a writable folder"
        ) from None
    os.close(fd)
    os.unlink(name)


def check_output_folder(out_dir: str | os.PathLike) -> None:
    """Refuse, with one line, an output folder that cannot be used: it is a file, a parent
    of it is a file, or it (or the nearest existing parent) cannot be written. Nothing is
    created."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise BadInput(f"--out {out} is a file; expected a folder (new or a study's)")
    parent = out
    while not parent.exists():
        if parent.parent == parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        raise BadInput(f"--out {out}: {parent} is a file; expected a folder there")
    _probe_writable(parent)
    # The study's own files are looked at, never followed: a folder received from someone
    # else must not lead a study to write outside it.
    for name, want_dir in ((MANIFEST, False), (CHUNK_DIR, True), (LOCK, False)):
        p = out / name
        try:
            mode = os.lstat(p).st_mode
        except FileNotFoundError:
            continue
        except NotADirectoryError:
            break
        if (stat.S_ISDIR if want_dir else stat.S_ISREG)(mode):
            continue
        want = "folder" if want_dir else "regular file"
        raise BadInput(f"{p} is {file_kind(mode)}; expected the study's {name} {want} (or nothing)")
    chunks = out / CHUNK_DIR
    if chunks.is_dir():
        _probe_writable(chunks)
        for entry in os.scandir(chunks):
            if _CHUNK_NAME.fullmatch(entry.name) and not entry.is_file(follow_symlinks=False):
                kind = file_kind(entry.stat(follow_symlinks=False).st_mode)
                raise BadInput(
                    f"{entry.path} is {kind}; expected a chunk file (remove it to recompute)"
                )


class FolderLocked(BadInput):
    """Another study is running into the same folder."""


@contextlib.contextmanager
def folder_lock(out_dir: Path, wait: bool = False):
    """Hold the folder's advisory lock (``LOCK``, flock) while a study runs into it.

    A second study into the same folder is refused at once with `FolderLocked`, or with
    ``wait=True`` waits for the first to finish. The lock file is removed on release.
    """
    path = out_dir / LOCK
    while True:
        fd = _open_lock(path, os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                raise FolderLocked(
                    f"another study is running into {out_dir} (lock {path}); wait for it, "
                    "or pass --wait to start when it ends"
                ) from None
            raise
        # The holder before us may have removed the file on release: lock the file that
        # is there now, not an unlinked one.
        try:
            same = os.path.samestat(os.fstat(fd), os.lstat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.close(fd)


def _open_lock(path: Path, flags: int) -> int:
    """Open a folder's lock file without following a link, or refuse it (a lock that is a
    link to ``../victim.txt`` would be truncated and given our PID)."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        raise BadInput(
            f"{path} is a symbolic link; expected the study's lock file (bombsolve follows "
            "no link in a study folder: remove it)"
        ) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise BadInput(f"{path} is {file_kind(mode)}; expected the study's lock file (remove it)")
    return fd


def lock_holder(out_dir: str | os.PathLike) -> int | None:
    """The process id of the study running into `out_dir` now (it holds the folder's lock),
    or None when none is (0 when one is but its id is not readable)."""
    path = Path(out_dir) / LOCK
    try:
        fd = _open_lock(path, os.O_RDONLY)
    except (OSError, BadInput):
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            text = os.read(fd, 32).decode("ascii", "replace").strip()
            return int(text) if text.isdigit() else 0
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


#: The temporary files this runner's writers leave when killed (`atomic_path`'s names).
_STALE_TMP = re.compile(r"\.(?:chunk-\d{6,}\.parquet|manifest\.json)\.[A-Za-z0-9_]{6,}\.tmp")


def _remove_stale_temporaries(out: Path) -> None:
    """Remove the temporary files a killed run of a study left in its folder (called under
    the folder's lock: no other run is writing them). Only regular files of the runner's own
    naming are removed."""
    for folder in (out, out / CHUNK_DIR):
        if not folder.is_dir() or folder.is_symlink():
            continue
        for entry in os.scandir(folder):
            if _STALE_TMP.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)


def _remove_if_made(made: list[Path]) -> None:
    """Remove the folders a refused run created (deepest first), if they hold nothing."""
    for p in reversed(made):
        with contextlib.suppress(OSError):
            p.rmdir()


def _make_folder(out: Path) -> list[Path]:
    """Create `out` and its missing parents; return the folders created, outermost first."""
    missing = []
    p = out
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    out.mkdir(parents=True, exist_ok=True)
    return list(reversed(missing))


def run_study(
    study: Study,
    out_dir: str | os.PathLike,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: ProgressFactory | bool | None = None,
    command: str | None = None,
    time_budget: float | None = None,
    wait: bool | None = None,
    scheduler_timeout: float | None = None,
) -> pd.DataFrame:
    """Run (or resume) `study` into `out_dir` and return all its rows, sorted by case.

    ``workers=None`` uses every core; ``workers=1`` runs in this process. ``scheduler`` sends the
    chunks to a Dask distributed scheduler instead. ``time_budget`` (seconds): start no chunk
    after it is spent; chunks already running finish and are kept, and the rows of the chunks
    done so far are returned (``df.attrs["complete"]`` says whether that is all of them).
    ``wait``: when another study holds the folder's lock, wait for it instead of refusing.
    ``scheduler_timeout`` (seconds): how long the scheduler has to answer and a worker to
    join it, at the start and whenever every worker has left (default: `DASK_CONNECT_TIMEOUT`
    to answer, `DASK_WORKER_TIMEOUT` for a worker); past it, and when the scheduler is lost,
    the study stops with `DaskUnavailable`, keeping its finished chunks.
    ``progress``: the reporter factory told of each finished chunk and of the end
    (`bombsolve.solvers.common.progress`); None: the one a `report_progress` block gives, if any;
    False: none.

    Nothing is written until the study can run: the folder is checked, the scheduler
    reached and the first chunk computed before ``manifest.json`` appears; a run refused
    or failing before that leaves the folder as it was.
    Raises `BadInput` when `out_dir` holds a different study or cannot be used.
    """
    out = Path(out_dir)
    if scheduler_timeout is None:
        scheduler_timeout = _COMMAND_SCHEDULER_WAIT.get()
    from_command = time_budget is None and _COMMAND_BUDGET.get() is not None
    if from_command:
        # The command's deadline, shared by every study it runs.
        time_budget = max(0.0, _COMMAND_BUDGET.get() - time.monotonic())
    if wait is None:
        wait = _COMMAND_WAIT.get()
    chunks = study.chunks()
    ident = study.identity_hash()
    if time_budget is not None and time_budget < 0:
        raise BadInput(f"time budget {time_budget} is negative; expected seconds >= 0")
    if workers is not None and workers < 1:
        raise BadInput(f"--workers {workers} is not positive; expected 1 or more")
    check_study_folder(study, out)
    if scheduler_timeout is not None and not scheduler_timeout > 0:
        raise BadInput(
            f"scheduler timeout {scheduler_timeout} is not positive; expected seconds > 0"
        )
    client = _connect(scheduler, scheduler_timeout) if scheduler else None
    made = _make_folder(out)
    try:
        with folder_lock(out, wait=wait):
            # Read again under the lock: a study that held it may have changed the folder.
            old = _check_manifest(out, study, ident)
            _remove_stale_temporaries(out)
            try:
                return _run_locked(
                    study, out, chunks, ident, old, workers, scheduler, client, progress,
                    command, time_budget, from_command, made,
                )  # fmt: skip
            finally:
                # A stop signal can land between a temporary's creation and the clean-up
                # that guards it; the lock is still held, so no other run's file is taken.
                # (Never in place of the exception that ends the run.)
                with contextlib.suppress(OSError):
                    _remove_stale_temporaries(out)
    finally:
        if client is not None:
            client.close()
        _remove_if_made(made)


def _run_locked(
    study: Study,
    out: Path,
    chunks: ChunkPlan,
    ident: str,
    old: dict[str, Any] | None,
    workers: int | None,
    scheduler: str | None,
    client,
    progress: ProgressFactory | bool | None,
    command: str | None,
    time_budget: float | None,
    from_command: bool,
    made: list[Path],
) -> pd.DataFrame:
    done = _done_chunks(out, chunks, ident)
    todo = _todo(chunks, done, study.order)
    if study.keeps_rows:
        _drop_spent_priors(out, done)
        todo = _with_priors(out, todo)
    n_todo = len(chunks) - len(done)
    deadline = None if time_budget is None else time.monotonic() + time_budget

    n_workers = workers or _cores()
    run = {
        "started": _now(),
        "chunks_planned": n_todo,
        "chunks_computed": 0,
        "chunks_reused": len(done),
        # Each run's code version: a resumed study may mix chunks computed by several.
        "git_commit": _git_commit(),
        "executor": f"dask {scheduler}"
        if scheduler
        else f"processes x{min(n_workers, max(n_todo, 1))}",
    }
    manifest = old or {
        "identity": study.identity(),
        "identity_hash": ident,
        "started": run["started"],
        "runs": [],
    }
    if old is None or n_todo:
        # How the study is computed: a run that only reuses finished chunks (a report
        # rewritten by later code) computes nothing, so it leaves these as they were and
        # the captions keep naming the code that computed the rows.
        manifest.update(
            {
                "command": command
                if command is not None
                else " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
                "input_files": [
                    {"path": str(p), "sha256": sha256_file(p)} for p in study.input_files
                ],
                "versions": _versions(),
                "git_commit": _git_commit(),
                "host": host_info(),
                "finished": None,
            }
        )
    manifest.update({"chunks_total": len(chunks), "chunks_done": len(done)})
    manifest["runs"].append(run)
    # The manifest is written when the first chunk is done (before that chunk's file, so
    # that no folder holds chunks without a manifest) or when the run ends without error.
    written = [False]

    def write_manifest() -> None:
        _write_manifest(out, manifest)
        written[0] = True
        if out not in _STUDIES_STARTED:
            _STUDIES_STARTED.append(out)
        made.clear()  # the folder now holds a study: keep it

    with _stop_signals_blocked():
        # Started here, before a progress bar's lock would start it with SIGHUP fatal.
        resource_tracker.ensure_running()
    report = reporter(
        progress,
        StudyStart(
            study.name, len(chunks), len(done), study.n_cases, sum(len(df) for df in done.values())
        ),
    )

    def estimate() -> str:
        return study.progress_fn(pd.concat(list(done.values()), ignore_index=True))

    # Cases reported so far: those of the chunks finished, or more where the chunk
    # functions said cases done while their chunks ran (`progress.cases_done`).
    cases = _CaseCount(study.n_cases - sum(len(df) for df in done.values()))

    def show(chunks: int, estimate) -> None:
        more = cases.more()
        if chunks or more:
            report.update(chunks, more, estimate)

    cases.poll = lambda: show(0, None)

    def tick(k: int) -> None:
        # said from inside a chunk running in this process: shown at once (without the
        # estimate, which reads every row done), since the next may come minutes later
        cases.said += k
        show(0, None)

    def finish(chunk: ChunkSpec, df: pd.DataFrame) -> None:
        # Stop signals wait for the files to be written: a handler's exception raised
        # inside a library's finalizer (PyArrow's ParquetWriter.__del__ runs in every
        # write) is printed and dropped by Python, and the study would run on.
        with _signals_held():
            if not written[0]:
                write_manifest()
            _write_chunk(out, chunk, df, ident)
            if chunk.prior is not None:
                with contextlib.suppress(FileNotFoundError):
                    prior_path(out, chunk.index).unlink()
        done[chunk.index] = df
        run["chunks_computed"] += 1
        cases.finished += len(chunk)
        show(1, estimate if study.progress_fn is not None else None)
        # A stop whose exception a finalizer swallowed (in a chunk, in a pool's or Dask's
        # machinery) is raised here, once the chunk is kept.
        stopping.check()

    # A study whose chunk function computes parts of a chunk (`_run_parts`) runs parts of
    # its chunks side by side when it has fewer to do than workers (a sweep of 1,000 deals
    # is one chunk), and by default takes its rate on a part, not on a whole chunk.
    split = (
        study.splits
        and client is None
        and n_workers > 1
        and (workers is None or n_todo < n_workers)
    )

    ok = False
    try:
        stopping.check()
        if n_todo:
            if client is not None:
                _run_dask(study, todo, client, finish, deadline)
            else:
                with counting_cases(tick):
                    if split:
                        auto = workers is None
                        _run_parts(
                            study, todo, n_todo, n_workers, auto, finish, deadline, run, cases
                        )
                    elif workers is None and n_workers > 1 and n_todo > 1:
                        _run_auto(study, todo, n_todo, n_workers, finish, deadline, run, cases)
                    elif n_workers == 1 or n_todo == 1:
                        for chunk in todo:
                            if _spent(deadline):
                                break
                            finish(chunk, run_chunk(study.chunk_fn, study.params, chunk))
                    else:
                        _run_pool(study, todo, min(n_workers, n_todo), finish, deadline, cases)
        ok = True
    finally:
        ended = False
        try:
            run["finished"] = _now()
            manifest["chunks_done"] = len(done)
            if len(done) == len(chunks) and (n_todo or not manifest.get("finished")):
                manifest["finished"] = run["finished"]
            if written[0] or ok:
                write_manifest()
            ended = ok
        finally:
            report.close(
                StudyEnd(
                    str(out),
                    len(done) == len(chunks),
                    estimate if study.progress_fn is not None and done else None,
                )
                if ended
                else None
            )

    if from_command and len(done) < len(chunks):
        raise StudyPaused(out, len(done), len(chunks))
    df = _concat(done[c] for c in sorted(done))
    df.attrs["complete"] = len(done) == len(chunks)
    return df


def _connect(scheduler: str, timeout: float | None = None) -> _DaskSession:
    """A Dask client of `scheduler` with a worker, or `DaskUnavailable` naming the address
    and what was expected.

    The scheduler has `timeout` seconds (`DASK_CONNECT_TIMEOUT`) to answer and then as long
    (`DASK_WORKER_TIMEOUT`) to have a worker: Dask's own client bounds the connection but not
    the handshake, so an address that accepts and never answers would hold it for minutes."""
    from dask.utils import parse_timedelta
    from distributed import Client

    answer = timeout if timeout is not None else parse_timedelta(DASK_CONNECT_TIMEOUT)
    worker_wait = timeout if timeout is not None else DASK_WORKER_TIMEOUT
    _ask_scheduler(scheduler, answer)
    try:
        client = Client(scheduler, timeout=answer, set_as_default=False)
    except (OSError, ValueError, TypeError) as exc:
        raise _unreachable(scheduler, exc) from None
    session = _DaskSession(client, scheduler, worker_wait)
    try:
        client.wait_for_workers(1, timeout=worker_wait)
    except TimeoutError:
        session.close()
        raise DaskUnavailable(
            f"no worker joined the Dask scheduler {scheduler} within {worker_wait:g} s; "
            f"start workers with `dask worker {scheduler}` (or wait longer with "
            "--scheduler-timeout SECONDS)"
        ) from None
    except (OSError, CancelledError) as exc:
        # (the scheduler went away while the study waited for its workers)
        session.close()
        raise _unreachable(scheduler, exc) from None
    except BaseException:
        session.close()
        raise
    return session


def _unreachable(scheduler: str, exc: BaseException) -> DaskUnavailable:
    reason = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
    return DaskUnavailable(
        f"cannot reach Dask scheduler {scheduler!r} ({reason}); {_expected(scheduler)}"
    )


def _expected(scheduler: str) -> str:
    """What a scheduler address should be, in the scheme the user gave (tcp or tls)."""
    scheme = "tls" if scheduler.startswith("tls://") else "tcp"
    return f"expected {scheme}://HOST:PORT of a running scheduler"


def _ask_scheduler(scheduler: str, timeout: float) -> None:
    """Ask `scheduler` who it is, within `timeout` seconds all told; raise `DaskUnavailable`
    unless a Dask scheduler answers.

    Runs on its own thread and event loop, so that a caller's loop (a notebook's) is left
    alone and the wait stays bounded whatever the address does."""
    from distributed.comm import connect
    from distributed.security import Security

    # (the TLS settings of Dask's configuration, as its client would use them)
    tls = Security().get_connection_args("client")

    async def ask() -> Any:
        comm = await connect(scheduler, timeout=timeout, **tls)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    answer: list[Any] = []

    def run() -> None:
        import asyncio

        try:
            # Dask bounds the connection by `timeout` but not the handshake after it: the
            # margin lets a refused or unresolved address say so in Dask's own words.
            answer.append(asyncio.run(asyncio.wait_for(ask(), timeout + 1.0)))
        except BaseException as exc:  # handed to the caller's thread
            answer.append(exc)

    thread = threading.Thread(target=run, name="bombsolve-dask-probe", daemon=True)
    thread.start()
    # (the probe's own wait_for ends it; this margin covers a slow event-loop start)
    thread.join(timeout + 6.0)
    got = answer[0] if answer else TimeoutError()
    if isinstance(got, TimeoutError):
        raise DaskUnavailable(
            f"Dask scheduler {scheduler!r} did not answer within {timeout:g} s; "
            f"{_expected(scheduler)} (something there accepts connections but does not "
            "speak Dask)"
        )
    if isinstance(got, BaseException):
        if isinstance(got, (KeyboardInterrupt, SystemExit)):
            raise got
        raise _unreachable(scheduler, got)
    if not isinstance(got, Mapping) or got.get("type") != "Scheduler":
        kind = got.get("type") if isinstance(got, Mapping) else None
        raise DaskUnavailable(
            f"{scheduler!r} answered as {kind or 'something else'}, not a Dask scheduler; "
            f"{_expected(scheduler)}"
        )


#: The loggers of Dask's client side, quiet while a study uses it (`_DaskSession`).
_DASK_LOGGERS = ("distributed", "distributed.client")


class _DaskSession:
    """A connected Dask client, its scheduler's address and the wait for workers.

    While it is open, Dask's client logs only errors: a lost connection is logged at
    INFO with a traceback, which the study's own line replaces."""

    def __init__(self, client: Any, address: str, worker_wait: float) -> None:
        self.client = client
        self.address = address
        self.worker_wait = worker_wait
        self._workers = 1  # (`_connect` has waited for one)
        self._levels = {name: logging.getLogger(name).level for name in _DASK_LOGGERS}
        for name in _DASK_LOGGERS:
            log = logging.getLogger(name)
            log.setLevel(max(log.getEffectiveLevel(), logging.ERROR))

    def workers(self) -> int | None:
        """Running workers of the scheduler; None once the client has lost it."""
        # (asked only of a connected client: one reconnecting would wait on Dask's own
        # connection timeout; a call that fails keeps the last count, and Dask keeps its last
        # answer, so the client's state is read again after it)
        if self.gone():
            return None
        try:
            info = self.client.scheduler_info()  # (every worker's state)
            self._workers = sum(
                1 for w in info.get("workers", {}).values() if w.get("status") == "running"
            )
        except Exception:
            pass
        return None if self.lost(0.0) else self._workers

    def gone(self) -> bool:
        """True once the client has lost its scheduler (Dask then cancels every future)."""
        return self.client.status != "running"

    def lost(self, within: float = 5.0) -> bool:
        """True when the client loses its scheduler within `within` seconds: asked after a
        connection broke, which the client notices a moment later."""
        deadline = time.monotonic() + within
        while not self.gone():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)
        return True

    def close(self) -> None:
        # A client that lost its scheduler logs the reconnection that closing it ends as an
        # error with a traceback; the study's one line has said what happened.
        if self.gone():
            for name in _DASK_LOGGERS:
                logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            with contextlib.suppress(Exception):
                self.client.close(timeout=5)
        finally:
            for name, level in self._levels.items():
                logging.getLogger(name).setLevel(level)


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
    todo: Iterable[ChunkSpec],
    n_todo: int,
    n_workers: int,
    finish,
    deadline: float | None,
    run: dict[str, Any],
    cases: _CaseCount | None = None,
) -> None:
    """The default executor (``workers=None``): chunks run in this process while the rest
    would take less than `POOL_PAYS_AFTER` seconds at the rate so far; once more is left, a
    pool of `n_workers` processes takes the remaining chunks. A small study thus never
    pays for a pool, a large one gets every core."""
    t0 = time.perf_counter()
    queue = iter(todo)
    for k, chunk in enumerate(queue):
        if _spent(deadline):
            return
        left = n_todo - k
        if k and (time.perf_counter() - t0) / k * left > POOL_PAYS_AFTER and left > 1:
            run["executor"] = f"this process x{k} chunks, then processes x{min(n_workers, left)}"
            _run_pool(study, itertools.chain([chunk], queue), n_workers, finish, deadline, cases)
            return
        finish(chunk, run_chunk(study.chunk_fn, study.params, chunk))
    run["executor"] = "this process"


#: A chunk run in parts (`Study.splits`) is cut into about this many parts a worker, so
#: that parts of unequal cost still keep every worker busy to the end...
PARTS_PER_WORKER = 8
#: ...but none of fewer cases than the study's `Study.least_part`.


def _parts_per_chunk(cases: int, chunks: int, workers: int, least: int) -> int:
    """How many parts each of `chunks` chunks to do (this one of `cases` cases) is cut into
    when they are fewer than the `workers`, none of fewer than `least` cases."""
    return max(1, min(-(-PARTS_PER_WORKER * workers // chunks), cases // max(1, least)))


def _run_parts(
    study: Study,
    todo: Iterable[ChunkSpec],
    n_todo: int,
    n_workers: int,
    auto: bool,
    finish,
    deadline: float | None,
    run: dict[str, Any],
    cases: _CaseCount,
) -> None:
    """Run the chunks `todo` of a study whose chunk function computes parts of a chunk
    (`Study.splits`): each chunk is finished, as one, once all its cases are (its parts'
    rows in case order). Fewer chunks than workers are cut into `_parts_per_chunk` parts
    run side by side, all of a started chunk's parts past `deadline` too.

    With `auto` (no worker count given) the first `least_part` cases run in this process, and
    so do the rest, each chunk's as one part, if they would take less than
    `POOL_PAYS_AFTER` seconds at that rate; else a pool runs the parts (or the chunks)."""
    if _spent(deadline):
        return
    cut = n_todo < n_workers
    least = max(1, study.least_part)
    whole: dict[int, ChunkSpec] = {}
    left: dict[int, int] = {}
    rows: dict[int, list[tuple[int, pd.DataFrame]]] = {}

    def parts_of(chunk: ChunkSpec) -> list[ChunkSpec]:
        whole[chunk.index], left[chunk.index], rows[chunk.index] = chunk, len(chunk), []
        k = _parts_per_chunk(len(chunk), n_todo, n_workers, least) if cut else 1
        return chunk.parts(k)

    def finish_part(part: ChunkSpec, df: pd.DataFrame) -> None:
        rows[part.index].append((part.start, df))
        left[part.index] -= len(part)
        if left[part.index] == 0:
            got = sorted(rows.pop(part.index), key=lambda r: r[0])
            del left[part.index]
            finish(whole.pop(part.index), pd.concat([df for _, df in got], ignore_index=True))

    queue: Iterator[ChunkSpec] = (p for c in todo for p in parts_of(c))
    if auto:
        t0 = time.perf_counter()
        # the rate taken on a least part: a part that runs here holds up the pool
        first = next(queue)
        if len(first) > least:
            queue = itertools.chain([replace(first, start=first.start + least)], queue)
            first = replace(first, stop=first.start + least)
        finish_part(first, run_chunk(study.chunk_fn, study.params, first))
        rest = cases.total - len(first)
        if (time.perf_counter() - t0) / len(first) * rest <= POOL_PAYS_AFTER:
            run["executor"] = "this process"
            for index, same in itertools.groupby(queue, key=lambda p: p.index):
                mine = list(same)
                if not rows[index] and _spent(deadline):
                    break  # (a chunk not started yet, once the time budget is spent)
                part = replace(mine[0], stop=mine[-1].stop)
                finish_part(part, run_chunk(study.chunk_fn, study.params, part))
            return
    n = min(n_workers, n_todo * PARTS_PER_WORKER if cut else n_todo)
    here = "this process x1 part, then " if auto else ""
    run["executor"] = f"{here}processes x{n}{', in parts' if cut else ''}"
    # (a time budget stops no part of a chunk cut in parts once started)
    _run_pool(study, queue, n, finish_part, None if cut else deadline, cases)


class _CaseCount:
    """The cases of one run to report: those of its finished chunks, and those its chunk
    functions said done (`progress.cases_done`) while their chunks ran, in this process
    (`said`) and in its pool's workers (`shared`, a counter they add to). A chunk says
    each of its cases once, so the larger of the two is the cases done."""

    def __init__(self, total: int) -> None:
        self.total = total  # the cases this run computes
        self.finished = 0
        self.said = 0
        self.shared: Any = None
        self.shown = 0
        self.poll: Callable[[], None] = lambda: None  # report what `more` gives

    def more(self) -> int:
        """The cases done and not reported yet (now counted as reported)."""
        said = self.said + (0 if self.shared is None else int(self.shared.value))
        now = min(self.total, max(self.finished, said))
        more = max(0, now - self.shown)
        self.shown += more
        return more


def _drop_queued(pending: dict) -> None:
    """Cancel the chunks still waiting for a worker once the time budget is spent, so
    that the run stops within the time of the chunks already running."""
    for fut in [f for f in pending if f.cancel()]:
        del pending[fut]


def _worker_init(parent_pid: int, said: Any = None) -> None:
    """Set up a pool worker: it dies with its parent and leaves Ctrl-C, SIGTERM and SIGHUP
    (sent to the whole process group by a terminal or a job control) to the parent, which
    stops it (`_stop_pool`) after the same clean-up for each. The cases its chunks say done
    (`progress.cases_done`) are added to `said`, a shared counter the parent reads.

    A worker whose study was killed (SIGKILL of the main process) must not compute on:
    Linux's parent-death signal kills it at once, and a watcher thread checks the parent
    every second where that signal is missing (or the parent died before it was set).
    """
    for signum in _STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)  # (`_stop_signals_blocked`)
    with contextlib.suppress(Exception):
        import ctypes

        pr_set_pdeathsig = 1
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="bombsolve-parent-watch", daemon=True).start()
    if said is not None:
        send_cases_to(functools.partial(_add_shared, said))


def _add_shared(said: Any, k: int) -> None:
    with said.get_lock():
        said.value += k


#: The signals that stop a study (Ctrl-C, and SIGTERM and SIGHUP as the command line
#: handles them): a terminal or a job control sends them to the whole process group.
_STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


@contextlib.contextmanager
def _signals_held():
    """Hold back `_STOP_SIGNALS` for a short piece of work; one that came meanwhile is
    handled as the block ends, in this code.

    In the main thread, with handlers set from Python, the handlers are swapped for one
    that only notes the signal, and the signals noted are raised again once the handlers
    are back. Blocking them would not do there: a signal sent to the process goes to any
    thread that does not block it (PyArrow's pool threads, started with them open), and
    the main thread's handler then runs wherever that thread is, inside a finalizer too.
    Elsewhere the signals are blocked in this thread."""
    handlers = {s: signal.getsignal(s) for s in _STOP_SIGNALS}
    if threading.current_thread() is not threading.main_thread() or None in handlers.values():
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
        return
    came: list[int] = []

    def note(signum: int, frame: object) -> None:
        came.append(signum)

    for s in _STOP_SIGNALS:
        signal.signal(s, note)
    try:
        yield
    finally:
        for s, h in handlers.items():
            signal.signal(s, h)
        for s in dict.fromkeys(came):
            signal.raise_signal(s)


@contextlib.contextmanager
def _stop_signals_blocked():
    """Hold back `_STOP_SIGNALS` while this process starts helper processes: a signal sent
    to the whole group then waits until each has set its own handling (pool workers ignore
    them, `_worker_init`), and reaches this process when the block ends.

    SIGHUP is also ignored meanwhile (held back all the same, as it is blocked): an ignored
    signal stays ignored across exec, and multiprocessing's resource tracker, which sets
    SIGINT and SIGTERM to be ignored but not SIGHUP, would otherwise die of a hang-up and
    leave its successor a traceback."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        hup = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are the main thread's to handle
        hup = None
    try:
        yield
    finally:
        if hup is not None:
            signal.signal(signal.SIGHUP, hup)
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: cancel what waits and end the workers' running chunks (their rows
    would be thrown away), instead of waiting for them as ``shutdown`` does. SIGKILL: the
    workers ignore SIGTERM (`_worker_init`)."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.kill()
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.join(timeout=5)


#: Seconds between two looks at a stop signal a finalizer swallowed (`stopping`) while a
#: pool's workers compute.
_POOL_POLL = 0.5


def _run_pool(
    study: Study,
    todo: Iterable[ChunkSpec],
    n_workers: int,
    finish,
    deadline: float | None = None,
    cases: _CaseCount | None = None,
) -> None:
    # Spawned (not forked) workers: no inherited threads or Numba state; the cache makes
    # their first compile cheap.
    ctx = get_context("spawn")
    queue = iter(todo)
    said = None
    if cases is not None:
        said = cases.shared = ctx.Value("q", 0)
    pool = ProcessPoolExecutor(
        max_workers=n_workers,
        mp_context=ctx,
        initializer=_worker_init,
        initargs=(os.getpid(), said),
    )
    pending: dict = {}

    def top_up() -> None:
        # Two chunks per worker in flight: the workers never wait, and a time budget
        # leaves at most that much work running past it.
        while len(pending) < 2 * n_workers and not _spent(deadline):
            c = next(queue, None)
            if c is None:
                return
            pending[pool.submit(run_chunk, study.chunk_fn, study.params, c)] = c

    try:
        with _stop_signals_blocked():  # the workers start on the first submit
            top_up()
        while pending:
            finished, _ = wait(pending, timeout=_POOL_POLL, return_when=FIRST_COMPLETED)
            stopping.check()  # (as `finish` does, while the workers' chunks run on)
            for fut in finished:
                chunk = pending.pop(fut)
                finish(chunk, fut.result())
            if cases is not None:  # (every _POOL_POLL seconds at least)
                cases.poll()
            if _spent(deadline):
                _drop_queued(pending)
            top_up()
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _run_dask(
    study: Study,
    todo: Iterable[ChunkSpec],
    dask: _DaskSession,
    finish,
    deadline: float | None = None,
) -> None:
    """Run the chunks on a connected Dask session (`_connect`); its workers run under
    Dask's nanny, which ends them with their scheduler.

    A chunk whose worker dies runs again on another worker. When the scheduler is lost, or
    every worker has left and none joins within the session's wait, the study stops with
    `DaskUnavailable`; the chunks finished are kept for the re-run to resume."""
    from distributed import KilledWorker
    from distributed import wait as dask_wait

    client = dask.client
    ident = study.identity_hash()
    # Enough in flight to keep every worker busy; the rest wait here, so that a time
    # budget can stop them and the scheduler's queue stays short.
    width = 2 * max(1, dask.workers() or 0)
    queue = iter(todo)
    futures: dict = {}
    kept = 0
    alone_since: float | None = None

    def submit() -> bool:
        c = next(queue, None)
        if c is None:
            return False
        fut = client.submit(
            run_chunk,
            study.chunk_fn,
            study.params,
            c,
            key=f"{study.name}-{c.index}-{ident}",
            pure=False,
        )
        futures[fut] = c
        return True

    def stop(
        what: str,
        then: str = "start a scheduler and workers, then re-run the same command to resume",
    ) -> DaskUnavailable:
        with contextlib.suppress(Exception):
            client.cancel(list(futures))
        return DaskUnavailable(f"{what}; the chunks finished are kept ({kept} in this run): {then}")

    lost = f"lost the Dask scheduler {dask.address}"
    with client.as_current():
        while len(futures) < width and not _spent(deadline) and submit():
            pass
        while futures:
            try:
                done = dask_wait(list(futures), timeout=_DASK_POLL, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = None
            except (OSError, CancelledError):
                # Dask cancels every future of a client that lost its scheduler.
                if dask.lost():
                    raise stop(lost) from None
                raise
            for fut in done.done if done else ():
                try:
                    df = fut.result()
                except (OSError, CancelledError):
                    # (the result's connection may break before the client sees the loss)
                    if dask.lost():
                        raise stop(lost) from None
                    raise
                except KilledWorker:
                    # The scheduler gave up on the chunk: every worker that ran it died
                    # (out of memory, a crash), more often than Dask's allowed-failures.
                    # A worker running two chunks at once dies with both, so Dask names
                    # the one beside the culprit too: the line cannot say which it was.
                    raise stop(
                        f"chunk {futures[fut].index} was running on every Dask worker that "
                        "died with it (Dask's KilledWorker: out of memory or a crash, in this "
                        "chunk or in one beside it on the same worker; see the workers' logs)",
                        "give the workers more memory, or run this chunk locally (--workers "
                        "1), then re-run the same command to resume",
                    ) from None
                finish(futures.pop(fut), df)
                kept += 1
                if not _spent(deadline):
                    submit()
            stopping.check()  # (as `finish` does, for a poll in which nothing finished)
            if done:
                alone_since = None
                continue
            # Nothing finished for a while: is anyone still there to run the chunks?
            n = dask.workers()
            if n is None:
                raise stop(lost)
            if n:
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since >= dask.worker_wait:
                raise stop(
                    f"every worker left the Dask scheduler {dask.address} and none joined "
                    f"within {dask.worker_wait:g} s"
                )


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
    manifest = validate_manifest(_read_manifest_file(path), path)
    identity = manifest["identity"]
    plan = ChunkPlan(identity["n_cases"], identity["chunk_size"], identity["seed"])
    done = _done_chunks(out, plan, manifest["identity_hash"])
    if len(done) < len(plan) and not partial:
        first = next(i for i in range(len(plan)) if i not in done)
        if (pid := lock_holder(out)) is not None:
            who = f"process {pid}" if pid else "another process"
            raise BadInput(
                f"{out} is a study still running ({who}, {len(done)} of {len(plan)} chunks "
                "done); expected a finished study: wait for it to end"
            )
        raise BadInput(
            f"{out} is unfinished or damaged (chunk {first} missing or unreadable); "
            "re-run the same command to complete it"
        )
    df = _concat(done[i] for i in sorted(done))
    df.attrs["complete"] = len(done) == len(plan)
    return df


def computed_by(manifest: Mapping[str, Any]) -> str:
    """The git commits whose runs computed a study's chunks (a resumed study may have
    several), short form, oldest first: what a caption should name.

    A run without "finished" was stopped (killed) after the manifest was first written,
    which happens when its first chunk is done, before the count is raised: it computed
    chunks that its count (written then, 0) does not show."""
    commits = [
        r["git_commit"][:12]
        for r in manifest.get("runs", [])
        if r.get("chunks_computed") or "finished" not in r
    ]
    unique = list(dict.fromkeys(commits)) or [manifest["git_commit"][:12]]
    return ", ".join(unique)


def load_manifest(out_dir: str | os.PathLike) -> dict[str, Any]:
    """Return the manifest of a study folder."""
    path = Path(out_dir) / MANIFEST
    if not path.exists():
        raise BadInput(f"{out_dir} has no {MANIFEST}; expected a study folder")
    return validate_manifest(_read_manifest_file(path), path)
