"""Repair Numba's on-disk cache: a damaged entry is dropped and compiled again, and a cache
folder that cannot be written is replaced by a temporary one.

Numba's on-disk cache (the jit option `cache`) keeps, per function, an index file
(``*.nbi``: the cached signatures and their data files) and a data file per signature
(``*.nbc``: the pickled compiled code). Numba trusts their content: a truncated or
garbled file raised an unpickling error on that run and every later one until the user
deleted it, and garbled machine code inside an intact pickle crashed the process (LLVM
aborts while loading it, measured). Every project function cached on disk (defined through
`bombsolve.solvers.common.numba_jit.njit`, nothing else in the process) uses `RepairingCache`:

- Every file it writes ends with a seal, the SHA-256 of what precedes it (`seal`). Pickle
  ignores bytes after a pickle's end, so plain Numba still reads these files. An entry is
  loaded only when its index and its data file carry matching seals.
- An index without a seal that reads as plain Numba's (written before the seals, or by plain
  Numba) is a miss: the function compiles again and its new entry is sealed.
- Anything else that fails while reading or rebuilding an entry (a seal that does not match,
  a data file without one, an unpickling error) is damage: one notice names the function
  ("the compiled-code cache for X was damaged; compiling it again"), the damaged entry is
  dropped (a damaged index with all its data files, a damaged data file with its line in
  the index) and Numba compiles the function as if it had never been cached.
- When NUMBA_CACHE_DIR cannot be written (Numba would silently cache beside the sources
  instead), or no folder Numba tries can be (Numba refuses to define the function), the
  process and the processes it starts cache in a temporary folder, removed at exit, with one
  notice. A save that fails (a full disk) is a notice too: the command goes on.

It relies on Numba internals present from 0.60 to 0.68 (a dispatcher's `_cache`, as
`Dispatcher.enable_caching` sets it; `FunctionCache` and its `_load_overload`, `_index_key`, `_impl`; `IndexDataCacheFile` and
its `_load_index`, `_save_index`, `_load_data`, `_save_data`, `_open_for_write`, `_dump`);
where one is missing, Numba's cache is left as it is, with one notice.
"""

from __future__ import annotations

import atexit
import hashlib
import io
import os
import pickle
import shutil
import tempfile

from bombsolve.solvers.common.numba_notices import lacking, say

#: What precedes the SHA-256 digest at the end of a sealed cache file.
SEAL_MARK = b"\nbombsolve-sha256:"
SEAL_LENGTH = len(SEAL_MARK) + 32


class DamagedEntry(Exception):
    """A cache file that cannot be what Numba wrote (truncated, garbled, unsealed data)."""


def seal(body: bytes) -> bytes:
    """`body` followed by its seal."""
    return body + SEAL_MARK + hashlib.sha256(body).digest()


def unseal(raw: bytes) -> bytes | None:
    """The body of a sealed file; None when `raw` has no seal. Raises DamagedEntry when the
    seal does not match the body."""
    if len(raw) < SEAL_LENGTH or not raw[-SEAL_LENGTH:].startswith(SEAL_MARK):
        return None
    body = raw[:-SEAL_LENGTH]
    if hashlib.sha256(body).digest() != raw[-32:]:
        raise DamagedEntry("its seal does not match its content")
    return body


def writable(folder: str) -> bool:
    """Whether a file can be created in `folder` (created if missing), as Numba checks."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


#: The temporary cache folder of this process, once one was needed.
_TEMPORARY: str | None = None


def _remove_temporary(folder: str, pid: int) -> None:
    if os.getpid() == pid:  # not in a forked child, which inherits the exit handlers
        shutil.rmtree(folder, ignore_errors=True)


def use_temporary_folder(reason: str) -> str:
    """Cache in a temporary folder from now on, in this process and those it starts (through
    NUMBA_CACHE_DIR), saying `reason` and where; the folder is removed when this process
    exits. Returns the folder."""
    global _TEMPORARY
    from numba.core import config

    if _TEMPORARY is None:
        _TEMPORARY = tempfile.mkdtemp(prefix="bombsolve-numba-cache-")
        atexit.register(_remove_temporary, _TEMPORARY, os.getpid())
    config.CACHE_DIR = _TEMPORARY
    os.environ["NUMBA_CACHE_DIR"] = _TEMPORARY
    say(
        f"{reason}; caching compiled code in the temporary folder {_TEMPORARY} for this run "
        "(set NUMBA_CACHE_DIR to a writable folder to keep it)",
        key="temporary folder",
    )
    return _TEMPORARY


#: The NUMBA_CACHE_DIR values found writable in this process.
_WRITABLE: set[str] = set()


def _check_cache_dir() -> None:
    """Replace an unwritable NUMBA_CACHE_DIR by a temporary folder (module docstring)."""
    from numba.core import config

    chosen = config.CACHE_DIR
    if not chosen or chosen in _WRITABLE or chosen == _TEMPORARY:
        return
    if writable(chosen):
        _WRITABLE.add(chosen)
    else:
        use_temporary_folder(f"the compiled-code cache folder {chosen} cannot be written")


def _unlink(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def _build() -> type:
    """The cache class, built on Numba's (raises ImportError or AttributeError where an
    internal it relies on is missing)."""
    from numba.core.caching import FunctionCache, IndexDataCacheFile
    from numba.core.dispatcher import Dispatcher

    if "_cache" not in Dispatcher.enable_caching.__code__.co_names:
        raise AttributeError(name="_cache", obj=Dispatcher)
    for cls, names in (
        (FunctionCache, ("_load_overload", "_index_key", "save_overload")),
        (IndexDataCacheFile, ("load", "_load_index", "_save_index", "_load_data")),
        (IndexDataCacheFile, ("_save_data", "_open_for_write", "_dump", "_data_path")),
    ):
        for name in names:
            getattr(cls, name)

    class CheckedCacheFile(IndexDataCacheFile):
        """Numba's index and data files, sealed (module docstring)."""

        def _read_index(self, raw: bytes) -> dict:
            stream = io.BytesIO(raw)
            version = pickle.load(stream)
            if version != self._version:  # another Numba's: not ours to read, as in Numba
                return {}
            stamp, overloads = pickle.loads(stream.read())
            if not isinstance(overloads, dict):
                raise DamagedEntry("its index is not a table")
            return overloads if stamp == self._source_stamp else {}

        def _load_index(self):
            try:
                with open(self._index_path, "rb") as f:
                    raw = f.read()
            except FileNotFoundError:
                return {}
            body = unseal(raw)
            if body is None:
                self._read_index(raw)  # raises if unreadable: damaged, not plain Numba's
                return {}
            return self._read_index(body)

        def _save_index(self, overloads):
            body = pickle.dumps(self._version, protocol=-1)
            body += self._dump((self._source_stamp, overloads))
            with self._open_for_write(self._index_path) as f:
                f.write(seal(body))

        def _load_data(self, name):
            with open(self._data_path(name), "rb") as f:
                raw = f.read()
            body = unseal(raw)
            if body is None:  # its index is sealed, so this file was sealed when written
                raise DamagedEntry(f"{name} has no seal")
            return pickle.loads(body)

        def sound(self, name: str) -> bool:
            """Whether the data file `name` carries a matching seal (a missing file is
            sound: Numba compiles again without a word, as when it finds none)."""
            try:
                with open(self._data_path(name), "rb") as f:
                    return unseal(f.read()) is not None
            except FileNotFoundError:
                return True
            except (OSError, DamagedEntry):
                return False

        def _save_data(self, name, data):
            with self._open_for_write(self._data_path(name)) as f:
                f.write(seal(self._dump(data)))

        def drop(self, key) -> None:
            """Remove the entry `key`: its data file and its line in the index, or the
            index and every data file of the function when the index is damaged."""
            try:
                overloads = self._load_index()
            except Exception:
                _unlink(self._index_path)
                prefix = self._index_name[: -len("nbi")]
                for name in os.listdir(self._cache_path):
                    if name.startswith(prefix) and name.endswith(".nbc"):
                        _unlink(os.path.join(self._cache_path, name))
                return
            name = overloads.pop(key, None)
            if name is not None:
                _unlink(self._data_path(name))
                self._save_index(overloads)

    class RepairingCache(FunctionCache):
        """Numba's per-function cache with sealed files, damage repaired (module docstring)."""

        def __init__(self, py_func):
            _check_cache_dir()
            try:
                super().__init__(py_func)
            except RuntimeError as exc:
                if "no locator available" not in str(exc):
                    raise
                # no folder Numba tries (NUMBA_CACHE_DIR, beside the source, the user's
                # cache folder) can be written
                use_temporary_folder("no compiled-code cache folder can be written")
                super().__init__(py_func)
            self._title = f"{py_func.__module__}.{py_func.__qualname__}"
            self._cache_file = CheckedCacheFile(
                cache_path=self._cache_path,
                filename_base=self._impl.filename_base,
                source_stamp=self._impl.locator.get_source_stamp(),
            )

        def _load_overload(self, sig, target_context):
            if not self._enabled:
                return None
            key = self._index_key(sig, target_context.codegen())
            try:
                data = self._cache_file.load(key)
                return None if data is None else self._impl.rebuild(target_context, data)
            except MemoryError:  # not the entry's fault
                raise
            except Exception:  # anything else reading or rebuilding it: the entry is damaged
                self.repair(key)
                return None

        def repair(self, key=None) -> None:
            """Say that this function's cache was damaged (once) and drop the entry `key`
            (any entry when the index is damaged)."""
            say(
                f"the compiled-code cache for {self._title} was damaged; compiling it again",
                key=("damaged", self._title),
            )
            try:
                self._cache_file.drop(key)
            except OSError:  # the save after compiling says it if the folder is unwritable
                pass

        def save_overload(self, sig, data):
            try:
                super().save_overload(sig, data)
            except OSError as exc:
                say(
                    f"could not save compiled code in {self._cache_path} "
                    f"({exc.strerror or exc}); it compiles again on the next run",
                    key=("save", self._cache_path),
                )

    return RepairingCache


#: The cache class once built (None: this Numba lacks an internal it relies on).
_CACHE_CLASS: list[type | None] = []


def cache_class() -> type | None:
    """`RepairingCache` for this Numba, or None (with one notice) where it cannot be built."""
    if not _CACHE_CLASS:
        try:
            _CACHE_CLASS.append(_build())
        except (ImportError, AttributeError) as exc:
            lacking(
                "numba_repair",
                exc,
                "its compiled-code cache is used as it is, not checked or repaired",
            )
            _CACHE_CLASS.append(None)
    return _CACHE_CLASS[0]
