"""The kernel-against-kernel measuring scripts: scripts/bench/compare_allisbomb_kernels.py shares
one set of tables between kernels of one layout, and scripts/bench/count_allisbomb_instructions.py
reads callgrind's dump files. Nothing is timed or run under valgrind here, and no kernel is
compiled (the tables' layout is read from plain-Python helpers)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.common.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


def test_memory_shares_one_set_per_layout_and_one_generation():
    cmp = load_script("compare_allisbomb_kernels")
    made = []

    def make():
        made.append(np.zeros(4))
        return made[-1]

    shared = cmp.Memory()
    a, b = shared.get(("x",), make), shared.get(("x",), make)
    c = shared.get(("y",), make)
    assert a is b and c is not a and len(made) == 2
    own = cmp.Memory(share=False)
    assert own.get(("x",), make) is not own.get(("x",), make)
    assert shared.gen == [1]  # one counter, handed to every runner


def test_same_or_merges_only_equal_arrays():
    cmp = load_script("compare_allisbomb_kernels")
    a = np.arange(5, dtype=np.int64)
    assert cmp.same_or(a.copy(), a) is a
    assert cmp.same_or(a.astype(np.int32), a) is not a  # another dtype stays its own
    assert cmp.same_or(a + 1, a) is not a


def test_huge_pages_of_an_array_are_read_from_smaps():
    cmp = load_script("compare_allisbomb_kernels")
    got = cmp.huge_kb(np.zeros(1 << 20))
    assert got is None or got >= 0


DUMP = """# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 7
cmd:  python count.py
part: {part}

desc: I1 cache:
desc: Timerange: Basic block 0 - 10
desc: Trigger: {trigger}

positions: instr
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
summary: {ir} 5 6 1 2 3 0 1 1 9 4 2 1

totals: {ir} 5 6 1 2 3 0 1 1 9 4 2 1
"""


def test_callgrind_dumps_are_read_per_side_and_repetition(tmp_path):
    count = load_script("count_allisbomb_instructions")
    for i, (trigger, ir) in enumerate(
        [
            ("Client Request: old 0", 1000),
            ("Client Request: new 0", 900),
            ("Client Request: old 1", 1001),
            ("Program termination", 5),
        ]
    ):
        (tmp_path / f"callgrind.out.7.{i + 1}").write_text(
            DUMP.format(part=i + 1, trigger=trigger, ir=ir)
        )
    got = count.parse_dumps(tmp_path)
    assert sorted(got) == ["new", "old"]
    assert [c["Ir"] for c in got["old"]] == [1000, 1001]
    assert got["new"][0]["Bcm"] == 4
    # Ir + 10 x (1 + 2 + 3) + 100 x (0 + 1 + 1) + 10 x (4 + 1)
    assert count.estimate(got["new"][0]) == 900 + 60 + 200 + 50
    assert count.estimate({"Ir": 3}) is None


def test_features_valgrind_does_not_show_are_turned_off():
    count = load_script("count_allisbomb_instructions")
    got, off = count.drop_unseen("+avx2,-avx512f,+gfni,+bmi2,+vaes", {"avx2", "bmi2", "sse2"})
    assert got == "+avx2,-avx512f,-gfni,+bmi2,-vaes"
    assert off == ["gfni", "vaes"]
    assert count.drop_unseen("+avx2", {"avx2"}) == ("+avx2", [])
