"""The scale benchmark: its made corpora (seeded, of real sentences) and `bench/scale.py`
end to end on a tiny size (its output's shape; no timing is asserted; the reader is
left out there, its measuring code being `bench/reader.py`'s)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.corpus import corpus_sentences, made_abstracts, read_abstracts, write_paragraph_lists
from bench.reader_actions import action_names, kind_of
from bench.reader_probe import Startup, percentile
from bench.scale import Size, goals, key_p95, short_typed, table, typed_prefixes
from tests.conftest import ROOT, write_list
from tests.material import conference_lists

BENCH = ROOT / "bench" / "scale.py"

SENTENCES_A = ["We study sparse coding.", "Our method, Gecko, is fast!", "Results improve.",
               "Is it robust?", "We prove a bound.", "Experiments confirm it."]
SENTENCES_B = ["Graphs are everywhere.", "A kernel helps here.", "The code is public.",
               "Transformers attend.", "Diffusion models denoise.", "Bayes rules."]


def small_corpora(folder: Path) -> Path:
    """Two lists whose abstracts are three sentences each."""
    corpora = folder / "corpora"
    corpora.mkdir()
    for name, sentences in (("a.txt", SENTENCES_A), ("b.txt", SENTENCES_B)):
        abstracts = [" ".join(sentences[i:i + 3]) for i in (0, 3)]
        write_list(corpora, name, f"List {name}\n\n" + "\n\n".join(abstracts) + "\n")
    return corpora


def test_the_sentences_are_the_corpora_s_own(tmp_path: Path) -> None:
    assert corpus_sentences(small_corpora(tmp_path)) == SENTENCES_A + SENTENCES_B


def test_the_same_seed_makes_the_same_corpus(tmp_path: Path) -> None:
    sentences = corpus_sentences(small_corpora(tmp_path))
    first = list(made_abstracts(sentences, 40, seed=5))
    assert first == list(made_abstracts(sentences, 40, seed=5))
    assert first != list(made_abstracts(sentences, 40, seed=6))
    # A smaller corpus of the same seed is the start of a larger one (the base size).
    assert list(made_abstracts(sentences, 15, seed=5)) == first[:15]


def test_a_made_abstract_joins_six_to_ten_of_the_sentences(tmp_path: Path) -> None:
    sentences = corpus_sentences(small_corpora(tmp_path))
    splitter = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
    counts = set()
    for abstract in made_abstracts(sentences, 200, seed=1):
        parts = splitter.split(abstract)
        assert set(parts) <= set(sentences)
        counts.add(len(parts))
    assert counts == set(range(6, 11))


def test_the_lists_hold_the_abstracts_in_order(tmp_path: Path) -> None:
    sentences = corpus_sentences(small_corpora(tmp_path))
    abstracts = list(made_abstracts(sentences, 25, seed=2))
    files = write_paragraph_lists(iter(abstracts), tmp_path / "lists", per_list=10)
    assert [len(list(read_abstracts([f]))) for f in files] == [10, 10, 5]
    assert list(read_abstracts(files)) == abstracts
    # Written identically twice: a rerun measures the same files.
    again = write_paragraph_lists(iter(abstracts), tmp_path / "again", per_list=10)
    assert [f.read_bytes() for f in files] == [f.read_bytes() for f in again]


def test_typed_prefixes_are_every_keystroke() -> None:
    assert typed_prefixes(["ab c", "x"]) == ["a", "ab", "ab ", "ab c", "x"]


def _size(papers: int, scale: float) -> Size:
    """A measured size with figures `scale` times some made ones."""
    ms = [scale * x for x in (1.0, 2.0, 3.0, 10.0)]
    peer = {"build_s": 1.0, "typed": ms, "whole": ms, "disk_mb": None}
    # Each sort step takes `ms`, each filter step 2× it, the similar papers 5×, for you 4×.
    times = {"sort": 1.0, "filter": 2.0, "similar": 5.0, "for you": 4.0}
    actions = {name: [times[kind_of(name)] * x for x in ms] for name in action_names()}
    return Size(papers, build_s=10 * scale, tree_peak_mb=100 * scale, largest_mb=80 * scale,
                disk_mb=50 * scale, typed=ms, whole=ms, cold=[300.0], bare=[50.0],
                peers={"FTS5": peer}, keystroke=ms, keystroke_search=ms,
                startup=Startup(1.0, 1.1, 1.2 * scale, 2.0, 1.2 * scale, 2.0), reader_mb=90 * scale, actions=actions)


def test_the_table_shows_each_measure_at_both_sizes_with_its_growth() -> None:
    lines = table(_size(100, 1.0), _size(1000, 3.0))
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    assert cells[0] == ["measure", "paperscope 100", "paperscope 1,000", "growth",
                        "FTS5 100", "FTS5 1,000"]
    assert all(len(row) == len(cells[0]) for row in cells)
    rows = {row[0]: row[1:] for row in cells[2:]}
    assert rows["build, s (papers/s)"][:3] == ["10.0 (10/s)", "30.0 (33/s)", "3.00×"]
    assert rows["cold `paperscope search kernel`, s (× `python -c pass`)"][:2] == [
        "0.30 (6.00×)", "0.30 (6.00×)"]
    assert rows["index on disk, MB"][3:] == ["in memory", "in memory"]
    # A start-up row is a ratio to the minimal app; its growth is that ratio's.
    assert rows["reader: first frame with rows, × a minimal Textual app"][:3] == [
        "1.20×", "3.60×", "3.00×"]
    typed = next(v for k, v in rows.items() if k.startswith("per query, typed"))
    assert typed[:3] == ["2.5 / 10.0", "7.5 / 30.0", "3.00×"]
    # One row per kind of reader action, over all its steps; its growth is the p95's.
    assert rows["reader: sort (S): key → painted list, p50 / p95 ms"][:3] == [
        "2.5 / 10.0", "7.5 / 30.0", "3.00×"]
    assert rows["reader: filter (f): key → painted list, p50 / p95 ms"][:3] == [
        "5.0 / 20.0", "15.0 / 60.0", "3.00×"]
    assert rows["reader: similar (r, Esc back): key → painted list, p50 / p95 ms"][:3] == [
        "12.5 / 50.0", "37.5 / 150.0", "3.00×"]


def test_the_goals_say_met_or_not_with_the_figures() -> None:
    out = goals(_size(100, 1.0), _size(1000, 3.0))
    assert out[0] == "- per query (typed prefixes, median) at 1,000 ≤ 2× at 100: 3.00×: NOT met"
    assert any(line.endswith("memory of an open reader at 1,000 ≤ 500 MB: 270 MB: met")
               for line in out)
    assert all(line.endswith((": met", ": NOT met")) for line in out)


def test_the_first_frame_is_judged_at_both_sizes() -> None:
    # First frame with rows: 1.2× the minimal app at scale 1, 0.6× at scale 0.5.
    small, large = _size(100, 1.0), _size(1000, 0.5)
    assert "- first frame with rows at 100 ≤ 1.2× a minimal app: 1.20×: met" in goals(small, large)
    assert "- first frame with rows at 1,000 ≤ 1.2× a minimal app: 0.60×: met" in goals(small, large)
    slow = _size(100, 1.1)
    assert "- first frame with rows at 100 ≤ 1.2× a minimal app: 1.32×: NOT met" in goals(slow, large)


def test_each_reader_action_kind_has_a_goal_within_the_keystroke_budget() -> None:
    base, top = _size(100, 1.0), _size(1000, 0.5)
    budget = "within the keystroke budget (1.5× the keystroke p95 at 100, 15.0 ms)"
    out = goals(base, top)
    assert f"- reader sort p95 at 1,000 {budget}: 5.0 ms: met" in out
    assert f"- reader filter p95 at 1,000 {budget}: 10.0 ms: met" in out
    assert f"- reader similar p95 at 1,000 {budget}: 25.0 ms: NOT met" in out
    # An action whose list was never repainted misses its goal, however fast the rest.
    top.actions_timed_out = ["filter: starred, query"]
    assert f"- reader filter p95 at 1,000 {budget}: 10.0 ms (1 timed out): NOT met" in goals(
        base, top)


def _corpora() -> str:
    """A folder of conference lists whose sentences the benchmark draws from."""
    return str(conference_lists((100, 100))[0].parent)


@pytest.mark.shared_material
def test_the_benchmark_runs_end_to_end_on_a_tiny_size(tmp_path: Path) -> None:
    workdir = tmp_path / "work"
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--size", "300", "--base", "100", "--per-list", "50",
         "--queries", "1", "--runs", "1", "--repeat", "1", "--no-reader",
         "--workdir", str(workdir), "--corpora", _corpora()],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    table_lines = [line for line in proc.stdout.splitlines() if line.startswith("|")]
    assert table_lines[0].startswith("| measure | paperscope 100 | paperscope 300 | growth |")
    assert len(table_lines) == 18  # head, rule, sixteen measures
    assert all(line.count("|") == table_lines[0].count("|") for line in table_lines)
    assert sum("| not measured | not measured |" in line for line in table_lines) == 9
    assert not re.search(r"^- reader ", proc.stdout, re.M)  # no reader goals either
    assert len(list((workdir / "lists-300").glob("*.txt"))) == 6
    assert re.search(r"^- per query .* at 300 ≤ 2× at 100: [\d.]+×: (met|NOT met)$",
                     proc.stdout, re.M)


@pytest.mark.shared_material
def test_build_only_builds_both_sizes_and_checks_the_build_goals_alone(tmp_path: Path) -> None:
    """`--build-only` (for 1M, where the rest takes an hour): builds, no queries, no
    table, and the two goals a build alone can check."""
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--size", "300", "--base", "100", "--per-list", "50",
         "--build-only", "--workdir", str(tmp_path / "work"), "--corpora", _corpora()],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert len(re.findall(r"^  paperscope: built in [\d.]+ s \([\d,]+/s\), peak \d+ MB",
                          proc.stdout, re.M)) == 2
    goal_lines = [line for line in proc.stdout.splitlines() if line.startswith("- ")]
    assert len(goal_lines) == 2, goal_lines
    assert goal_lines[0].startswith("- peak memory while indexing 300 ≤ 600 MB: ")
    assert goal_lines[1].startswith("- papers/s at 300 no less than at 100: ")
    assert not any(line.startswith("|") for line in proc.stdout.splitlines())
    assert "FTS5" not in proc.stdout


def test_the_benchmark_refuses_a_workdir_in_the_checkout() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--size", "20", "--base", "10",
                           "--workdir", str(ROOT / "index" / "scale"), "--corpora", _corpora()],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"scale.py: --workdir must be outside the checkout ({ROOT})"]
    assert not (ROOT / "index" / "scale").exists()


def test_short_typed_keeps_one_word_of_one_or_two_letters_in_every_round() -> None:
    typed = typed_prefixes(["tree", "a b"])  # t tr tre tree a "a " "a b"
    values = [float(i) for i in range(2 * len(typed))]  # two rounds
    assert short_typed(values, typed) == [0.0, 1.0, 4.0, 7.0, 8.0, 11.0]


def test_the_keystroke_goal_takes_the_median_of_the_runs_p95s() -> None:
    """One reader's p95 moves by a third between quiet runs: the goal takes the median of
    several runs' p95s, so one slow run does not decide it (nor one fast base run)."""
    base, top = _size(100, 1.0), _size(1000, 1.0)
    base.keystroke_p95s = [10.0, 30.0, 11.0]  # one slow run: the median is 11
    top.keystroke_p95s = [16.0, 16.5, 2.0]
    assert key_p95(base) == 11.0
    assert "- reader keystroke p95 at 1,000 ≤ 1.5× at 100: 1.45×: met" in goals(base, top)
    top.keystroke_p95s = [17.0, 17.0, 2.0]
    assert "- reader keystroke p95 at 1,000 ≤ 1.5× at 100: 1.55×: NOT met" in goals(base, top)
    budget = "within the keystroke budget (1.5× the keystroke p95 at 100, 16.5 ms)"
    assert any(line.startswith(f"- reader sort p95 at 1,000 {budget}") for line in goals(base, top))
    # Without runs (older figures), the p95 of every keystroke.
    assert key_p95(_size(100, 1.0)) == percentile(_size(100, 1.0).keystroke, 0.95)
