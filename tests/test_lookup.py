"""The lookup benchmark: its metrics and peers by hand, and `bench/lookup.py` end to end.

No test here asserts a score threshold: the figures are the engine's business; the
benchmark's job is to measure them as its docstring defines.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from bench.lookup import content_words, keystrokes
from bench.metrics import first_rank, lookup_scores
from bench.peers import Fts5, PlainBM25
from tests.conftest import ROOT

BENCH = ROOT / "bench" / "lookup.py"


def test_first_rank() -> None:
    assert first_rank([5, 3, 9], {9}) == 3
    assert first_rank([5, 3, 9], {3, 9}) == 2   # a copy in another list counts
    assert first_rank([5, 3], {9}) is None
    assert first_rank([], {9}) is None


def test_lookup_scores_by_hand() -> None:
    # Ranks 1, 3, not found, 12: success@1 = 1/4; success@10 = 2/4;
    # MRR@10 = (1/1 + 1/3 + 0 + 0) / 4 (rank 12 is past the cut).
    s = lookup_scores([1, 3, None, 12])
    assert s.queries == 4
    assert s.success_at_1 == pytest.approx(0.25)
    assert s.success_at_10 == pytest.approx(0.5)
    assert s.mrr_at_10 == pytest.approx((1 + 1 / 3) / 4)
    assert math.isnan(lookup_scores([]).mrr_at_10)


def test_plain_bm25_by_hand() -> None:
    bm25 = PlainBM25(["alpha beta", "alpha gammas gamma"])
    # "gamma" (gammas stems to it) is in document 1 only: df 1 of N 2, so
    # idf = ln(1 + (2 - 1 + .5) / (1 + .5)) = ln 2. Document 1 has 3 tokens, the
    # average is 2.5: norm = 1.2 × (0.25 + 0.75 × 3 / 2.5) = 1.38, tf = 2:
    # score = ln 2 × 2 × 2.2 / (2 + 1.38) = 0.902322.
    assert bm25.scores("gamma") == {1: pytest.approx(math.log(2) * 4.4 / 3.38)}
    assert bm25.scores("gamma")[1] == pytest.approx(0.902322, abs=1e-6)
    assert bm25.search("alpha gamma") == [1, 0]
    assert bm25.search("delta") == []


def test_fts5_ors_the_words_and_prefixes_the_last() -> None:
    fts5 = Fts5(["spiking neurons fire", "kernel methods", "spectral kernels"])
    assert set(fts5.search("spiking kernel")) == {0, 1, 2}
    assert fts5.search("spec", prefix=True) == [2]
    assert fts5.search("spec") == []


def test_content_words() -> None:
    assert content_words("A Bayesian Model for Sparse Graphs via the EM") == [
        "Bayesian", "Model", "Sparse", "Graphs"]


def test_keystrokes_count_typed_characters_and_skip_spaces() -> None:
    seen: list[str] = []

    def engine(query: str) -> list[int]:
        seen.append(query)
        return [7] if len(query) >= 4 else [1]

    # "abc def": a, ab, abc, then "abc " adds no word and is not searched, "abc d" is.
    assert keystrokes(engine, "abc def", frozenset({7})) == 5
    assert "abc " not in seen
    assert keystrokes(lambda q: [1], "abc", frozenset({7})) is None


ABSTRACTS = [
    "We propose Gecko, a vision language model for long videos with sparse memory.",
    "A spiking neural network learns temporal codes with surrogate gradients.",
    "Kernel methods for two sample testing with maximum mean discrepancy.",
    "We study loop closure in lidar odometry with learned place recognition.",
    "Butterworth filters fuse multi scale features in a fusion network for segmentation.",
    "Differential privacy for federated learning with client sampling.",
]
TITLES = [
    "Gecko: Sparse Memory for Long Video Understanding",
    "Surrogate Gradients for Spiking Neural Networks",
    "Kernel Two Sample Tests",
    "Learned Place Recognition for Loop Closure",
    "ABFNet: Butterworth Fusion Networks",
    "Private Federated Learning with Client Sampling",
]


def tiny_corpora(folder: Path) -> Path:
    folder.mkdir()
    for half, name in ((slice(0, 3), "venue2020"), (slice(3, 6), "venue2021")):
        (folder / f"{name}.txt").write_text(
            f"{name} Papers\n\n" + "\n\n".join(ABSTRACTS[half]) + "\n", encoding="utf-8")
        (folder / f"{name}.titles.jsonl").write_text("".join(
            json.dumps({"i": i, "title": t}) + "\n" for i, t in enumerate(TITLES[half])),
            encoding="utf-8")
    return folder


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_the_benchmark_prints_its_tables(tmp_path: Path) -> None:
    corpora = tiny_corpora(tmp_path / "corpora")
    proc = run("--corpora", str(corpora), "--samples", "6", "--typed", "2",
               "--index-dir", str(tmp_path / "index"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("lookup: 6 titles of 6 abstracts")
    vague = sum(len(content_words(t)) >= 3 for t in TITLES)
    for kind, queries in (("full", 6), ("vague", vague)):
        for engine in ("paperscope", "plain BM25", "SQLite FTS5"):
            start = f"{kind:<6} {engine:<12}"
            row = [line for line in lines if line.startswith(start)]
            assert len(row) == 1, (start, proc.stdout)
            count, *figures = row[0][len(start):].split()
            assert int(count) == queries
            assert len(figures) == 3 and all(0.0 <= float(f) <= 1.0 for f in figures), row
    at = lines.index(next(line for line in lines if line.startswith("typed,")))
    typed = {line.split("  ")[0].strip(): line.split()[-5:] for line in lines[at + 3:] if line}
    assert set(typed) == {"paperscope", "SQLite FTS5"}, proc.stdout
    for titles, found, median, mean, share in typed.values():
        assert int(titles) == 2
        assert 0.0 <= float(found) <= 1.0 and 0.0 <= float(share) <= 1.0
        assert float(median) >= 1 and float(mean) >= 1


def test_the_same_seed_prints_the_same_figures(tmp_path: Path) -> None:
    corpora = tiny_corpora(tmp_path / "corpora")
    args = ("--corpora", str(corpora), "--samples", "4", "--typed", "1",
            "--index-dir", str(tmp_path / "index"))
    assert run(*args).stdout == run(*args).stdout


def test_corpora_without_titles_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("A\n\nsome abstract here\n", encoding="utf-8")
    proc = run("--corpora", str(tmp_path))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "titles" in proc.stderr
