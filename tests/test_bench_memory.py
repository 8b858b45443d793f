"""The benchmarks' memory figures are those of the process measured, not of the
benchmark that started it (`bench/rss.py`): a benchmark holds corpora and indexes of its
own, and `ru_maxrss` gave its children its peak."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.builds import timed_paperscope_build
from bench.reader_probe import reader_memory
from tests.conftest import ROOT, write_list

BALLAST_MB = 400
"""What the benchmark's own process holds while it measures: far more than any of the
small processes measured here."""


@pytest.fixture(scope="module")
def ballast() -> Iterator[bytes]:
    """BALLAST_MB resident in this process (written, so every page is there)."""
    held = b"\1" * (BALLAST_MB * 2**20)
    yield held
    del held


def small_lists(folder: Path) -> Path:
    lists = folder / "lists"
    lists.mkdir()
    abstracts = [f"We study sparse coding {n}. Our method, Gecko{n}, is fast." for n in range(40)]
    write_list(lists, "a.txt", "Small list\n\n" + "\n\n".join(abstracts) + "\n")
    return lists


def test_a_child_s_peak_is_its_own(ballast: bytes) -> None:
    out = subprocess.run([sys.executable, "-c", "from bench.rss import peak_rss_mb; "
                          "print(peak_rss_mb())"], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert 0 < float(out.stdout) < BALLAST_MB / 4


def test_the_reader_s_memory_is_the_reader_s(ballast: bytes, tmp_path: Path) -> None:
    papers, peak_mb = reader_memory(str(small_lists(tmp_path)), str(tmp_path / "index"))
    assert papers == 40
    assert 0 < peak_mb < BALLAST_MB / 2


def test_a_build_s_largest_process_is_the_build_s(ballast: bytes, tmp_path: Path) -> None:
    timed = timed_paperscope_build([small_lists(tmp_path)], tmp_path / "index")
    assert timed.output.split()[-1] == "40"
    assert 0 < timed.largest_kb < BALLAST_MB * 1024 / 2
    assert timed.tree_peak_kb < BALLAST_MB * 1024 / 2
