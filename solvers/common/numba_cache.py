"""Whether Numba's on-disk cache already holds a kernel, so a command can say it must compile.

A dispatcher compiled with an on-disk cache keeps an index file (``*.nbi``) listing its
cached signatures; Numba empties the index when the source file changed since. An entry
point with a non-empty index loads in well under a second; one without compiles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


def is_cached(dispatcher, accept: Callable[[tuple], bool] | None = None) -> bool:
    """Return True if `dispatcher` is compiled in this process or has an on-disk cache entry
    for its current source; with `accept`, only for a signature (the tuple of argument
    types) that `accept` accepts. A damaged entry is a miss, repaired (with its notice)
    when the cache is a `numba_repair.RepairingCache`, so that it is said before the
    compile it causes."""

    def ok(sig) -> bool:
        return accept is None or accept(tuple(sig))

    if any(ok(sig) for sig in getattr(dispatcher, "signatures", None) or ()):
        return True
    cache = getattr(dispatcher, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    if cache_file is None:  # no on-disk cache: it compiles on every first call
        return False
    repair = getattr(cache, "repair", None)  # a numba_repair.RepairingCache's
    try:
        index = cache_file._load_index()
    except Exception:  # an unreadable index is a cache miss, as it is to Numba
        if repair is not None:
            repair()
        return False
    # the index's keys are (signature, target, ...) tuples
    found = False
    for key, name in index.items():
        if ok(key[0]):
            if repair is not None and not cache_file.sound(name):
                repair(key)
            else:
                found = True
    return found


def all_cached(entries: Iterable) -> bool:
    """Return True if every entry of `entries` is cached (see `is_cached`): an entry is a
    dispatcher (any signature of it) or a pair (dispatcher, accept) (a signature `accept`
    accepts: one compiled form of an entry point that has several)."""
    return all(is_cached(*_pair(e)) for e in entries)


def loaded(entry) -> bool:
    """Whether an entry (as `all_cached` takes it) is compiled or loaded from the disk cache
    in this process, not only on disk."""
    dispatcher, accept = _pair(entry)
    sigs = getattr(dispatcher, "signatures", None) or ()
    return any(accept is None or accept(tuple(sig)) for sig in sigs)


def argument_index(dispatcher, name: str) -> int:
    """The position of the argument called `name` in a dispatcher's signatures."""
    import inspect

    return list(inspect.signature(dispatcher.py_func).parameters).index(name)


def _pair(entry) -> tuple:
    return entry if isinstance(entry, tuple) else (entry, None)
