"""Entry points that run their own copies of the functions they call.

Numba compiles each jitted function into a library of its own and links into a caller a
copy of every callee's module, its functions marked `linkonce_odr` (numba.core.codegen,
`CPUCodeLibrary._get_module_for_linking`), and LLVM optimises the caller with those
copies. A copy LLVM does not inline stays a call by name, and in machine code a
`linkonce_odr` definition is a weak symbol: when the process has loaded the callee's own
library too (its strong definition of the same name), the JIT's linker binds the call to
that one. So which code a search runs depended on what the process had loaded before:

- All Is Bomb's sweep kernel (`solve_many`) calls `dfs`. A sweep's process loads the
  solver's own `dfs` first (the solver's part is compiled or checked before the sweep's,
  bombsolve.cli.warmup.ensure_sweep), and `solve_many` then ran that `dfs`, not its own copy, which
  LLVM had optimised inside it: 14-22% more time on the same 20,000 base deals
  (commit da01b52).
- A helper compiled through `numba_opt.linked_helper` has its own library optimised at a
  lower level (its copies are optimised at the caller's level): a call to it that the
  caller does not inline could bind to that less optimised code.

`entry_point(**options)` is `njit(**options)` compiling through `EntryCompiler`, whose
library gives every function it linked in from another library *internal* linkage before
LLVM optimises it (`EntryLibrary`), renamed after the library's own functions: the calls
bind to these copies, whatever else is loaded, and LLVM may also inline or specialise them
knowing every caller. The function's own definitions (the function, its wrappers) keep
their linkage. A caller that links an entry point in turn gets a copy in which the entry's
internal functions stay internal.

It relies on Numba internals present from 0.60 to 0.68 (`NativeLowering` creating
`state.library` only when none is set; `CPUCodeLibrary.add_llvm_module` and
`_optimize_final_module`); `tests/common/test_numba_entry.py` checks the linkages of a
compiled entry point. Where this Numba lacks one of them, `entry_point` is `numba_jit.njit`
(one notice, bombsolve.solvers.common.numba_notices): the same results, at the speed of whichever
copies the calls bind to.
"""

from __future__ import annotations

import hashlib
from functools import cache

from bombsolve.solvers.common.numba_jit import njit


@cache
def entry_classes() -> tuple[type, type] | None:
    """(`EntryLibrary`, `EntryCompiler`) for this Numba; None (with one notice) where it
    lacks what they rely on."""
    try:
        from llvmlite import binding as ll
        from numba.core.codegen import JITCodeLibrary
        from numba.core.compiler import CompilerBase
        from numba.core.compiler_machinery import register_pass
        from numba.core.typed_passes import NativeLowering

        for name in ("add_llvm_module", "_optimize_final_module", "enable_object_caching"):
            getattr(JITCodeLibrary, name)
        if "library" not in NativeLowering.run_pass.__code__.co_names:
            raise AttributeError(name="library", obj=NativeLowering)
    except (ImportError, AttributeError) as exc:
        from bombsolve.solvers.common.numba_notices import lacking

        lacking("numba_entry", exc, "entry points compile as plain Numba functions")
        return None
    from bombsolve.solvers.common.numba_opt import nopython_pipeline_with

    class EntryLibrary(JITCodeLibrary):
        """A code library whose linked-in functions are internal to it (module docstring)."""

        def __init__(self, codegen, name):
            super().__init__(codegen, name)
            #: the functions this library defines itself (not linked in)
            self.own: set[str] = set()

        def add_llvm_module(self, ll_module):
            self.own.update(f.name for f in ll_module.functions if not f.is_declaration)
            super().add_llvm_module(ll_module)

        def _optimize_final_module(self):
            # Renamed as well: LLVM changes an internal function's calling convention and
            # arguments freely, and the JIT still records the names a module defines
            # (numba.core.codegen, `JitEngine._load_defined_symbols`), so a copy keeping its
            # name would be found by another library that asks for it (a crash, measured).
            tag = hashlib.sha1(" ".join(sorted(self.own)).encode()).hexdigest()[:16]
            for fn in self._final_module.functions:
                if (
                    not fn.is_declaration
                    and fn.name not in self.own
                    and fn.linkage == ll.Linkage.linkonce_odr
                ):
                    fn.linkage = ll.Linkage.internal
                    fn.name = f"{fn.name}.in.{tag}"
            super()._optimize_final_module()

    @register_pass(mutates_CFG=True, analysis_only=False)
    class EntryLowering(NativeLowering):
        """Numba's lowering pass, into an `EntryLibrary`."""

        _name = "native_lowering_entry"

        def run_pass(self, state):
            if state.library is None:
                codegen = state.targetctx.codegen()
                state.library = EntryLibrary(codegen, state.func_id.func_qualname)
                # as NativeLowering does for the library it creates: the cache saves object code
                state.library.enable_object_caching()
            return super().run_pass(state)

    class EntryCompiler(CompilerBase):
        """Numba's nopython pipeline with `EntryLowering` in place of `NativeLowering`."""

        def define_pipelines(self):
            return nopython_pipeline_with(self.state, EntryLowering)

    return EntryLibrary, EntryCompiler


def entry_point(**options):
    """`numba_jit.njit(**options)` compiling through `EntryCompiler` (without it, through
    Numba's own pipeline)."""
    classes = entry_classes()
    if classes is None:
        return njit(**options)
    return njit(pipeline_class=classes[1], **options)
