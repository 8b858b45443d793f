"""The soak benchmark (`bench/soak.py`): its memory verdict, and a short run end to end."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from bench.soak import Record, memory_lines, slope_per_minute
from tests.conftest import ROOT, SEEDS

SOAK = ROOT / "bench" / "soak.py"


def record_of(samples: list[tuple[float, float]]) -> Record:
    record = Record()
    record.rss = samples
    return record


def verdict(samples: list[tuple[float, float]]) -> str:
    return dict(memory_lines(record_of(samples), 25))["memory verdict"]


def test_slope_is_in_mb_per_minute() -> None:
    assert slope_per_minute([(t, 100 + t / 30) for t in range(0, 600, 5)]) == pytest.approx(2.0)
    assert slope_per_minute([(0.0, 5.0)]) == 0.0


def test_memory_verdicts() -> None:
    wobble = [(t, 100 + (5 if t % 10 else -5)) for t in range(0, 600, 5)]
    assert verdict(wobble).startswith("flat")
    leak = [(t, 100 + t / 10) for t in range(0, 600, 5)]  # 6 MB a minute, steadily
    assert verdict(leak).startswith("GROWING")
    warm = [(t, 100 + min(t, 120) / 2) for t in range(0, 600, 5)]  # 60 MB, then level
    assert verdict(warm).startswith("grew +")
    lines = dict(memory_lines(record_of(leak), 25))
    assert "RSS first minute" in lines and "RSS last minute" in lines


def test_a_short_run_compares_its_halves() -> None:
    level = [(float(t), 100.0) for t in range(0, 30, 2)]  # 28 s: halves of 14 s
    assert "RSS first 14 s" in dict(memory_lines(record_of(level), 25))
    assert verdict(level).startswith("flat")


@pytest.mark.slow
def test_soak_end_to_end(tmp_path) -> None:
    env = {**os.environ, "PAPERSCOPE_DATA_DIR": str(tmp_path / "user-data")}
    proc = subprocess.run(
        [sys.executable, str(SOAK), "--corpora", str(SEEDS), "--index-dir",
         str(tmp_path / "index"), "--minutes", "0.2", "--seed", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"^  errors\s+0$", proc.stdout, re.M), proc.stdout
    operations = re.search(r"^  operations\s+([\d,]+) ", proc.stdout, re.M)
    assert operations and int(operations.group(1).replace(",", "")) > 20, proc.stdout
    assert "query latency" in proc.stdout and "memory verdict" in proc.stdout
    assert re.search(r"^  garbage collections\s+generation 0: [\d,]+ \(p50", proc.stdout,
                     re.M), proc.stdout
    # The reading state went to the soak's own temporary folder, not the user's.
    assert not (tmp_path / "user-data").exists()
