"""Compile a kernel's helpers with less LLVM optimisation: their own code is not the code
that runs.

Numba compiles each jitted function into a library of its own, optimised by LLVM at
`NUMBA_OPT` (3), and links a copy of every callee's optimised module into its caller's,
where LLVM optimises the whole again (numba.core.codegen, `CPUCodeLibrary.finalize`): a
helper compiled only to be linked into (and mostly inlined by) an entry point is optimised
once at every level of calls above it, and the searches run only the entry point's copy.
`linked_helper` compiles such a helper through a pipeline whose lowering pass runs at
`LEVEL` (the library's own optimisation; its copy in the caller is optimised at the
caller's level, so the entry point's code is optimised as thoroughly as before, once).
A helper called from Python (the tests call `prune.dead`) still works, its own machine
code then less optimised; it is built without the C-callable wrapper (`no_cfunc_wrapper`,
only for `cfunc` and first-class function use), which is compiled and optimised too.
Level 1, not 0: at 0 the unoptimised IR made the helpers' own code generation and the
caller's optimisation slower (All Is Bomb's solver: 24.2 CPU-s at 1, 25.8 at 0).

It relies on two things of Numba's: a jit option `pipeline_class` (the documented way to
customise the compiler) and `numba.core.config.OPT` being read when a library's pass
managers are built (numba.core.codegen, `CPUCodegen._pass_builder`), as in Numba 0.68;
`tests/common/test_numba_opt.py` checks the level seen and its restoring. Were a later
Numba to read it elsewhere, the helpers would only compile as slowly as before. Where this
Numba lacks one of them (`CPUCodegen._pass_builder`, before 0.61, for one), `linked_helper`
is `numba_jit.njit` (one notice, bombsolve.solvers.common.numba_notices): the same code runs, its helpers
optimised in full as well.
"""

from __future__ import annotations

from functools import cache

from bombsolve.solvers.common.numba_jit import njit

#: LLVM optimisation level of a linked helper's own library (see the module docstring).
LEVEL = 1


def nopython_pipeline_with(state, lowering: type) -> list:
    """Numba's nopython pipeline for `state` with the pass `lowering` in place of
    `NativeLowering` (a compiler's `define_pipelines`)."""
    from numba.core.compiler import DefaultPassBuilder
    from numba.core.typed_passes import NativeLowering

    pm = DefaultPassBuilder.define_nopython_pipeline(state)
    pm.passes = [(lowering if p is NativeLowering else p, desc) for p, desc in pm.passes]
    pm.finalize()
    return [pm]


@cache
def linked_compiler() -> type | None:
    """`LinkedCompiler`: Numba's nopython pipeline with `LinkedLowering` in place of
    `NativeLowering`; None (with one notice) where this Numba lacks what it relies on."""
    try:
        from numba.core import codegen, config
        from numba.core.compiler import CompilerBase, DefaultPassBuilder  # noqa: F401
        from numba.core.compiler_machinery import register_pass
        from numba.core.typed_passes import NativeLowering

        codegen.CPUCodegen._pass_builder  # noqa: B018 - reads config.OPT for each library
    except (ImportError, AttributeError) as exc:
        from bombsolve.solvers.common.numba_notices import lacking

        lacking("numba_opt", exc, "helpers are compiled and optimised in full (slower)")
        return None

    @register_pass(mutates_CFG=True, analysis_only=False)
    class LinkedLowering(NativeLowering):
        """Numba's lowering pass with `config.OPT` at `LEVEL` while it runs (it builds and
        optimises the function's library), restored after."""

        _name = "native_lowering_linked"

        def run_pass(self, state):
            saved = config.OPT
            config.OPT = type(saved)(min(LEVEL, int(saved)))
            try:
                return super().run_pass(state)
            finally:
                config.OPT = saved

    class LinkedCompiler(CompilerBase):
        """Numba's nopython pipeline with `LinkedLowering` in place of `NativeLowering`."""

        def define_pipelines(self):
            return nopython_pipeline_with(self.state, LinkedLowering)

    return LinkedCompiler


def linked_helper(**options):
    """`numba_jit.njit(**options)` compiling through `linked_compiler()` (without it, through
    Numba's own pipeline)."""
    compiler = linked_compiler()
    if compiler is None:
        return njit(**options)
    return njit(pipeline_class=compiler, no_cfunc_wrapper=True, **options)
