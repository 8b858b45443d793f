"""The interests benchmark: its metrics on hand-computed cases, its choice of topics and
star sets on a made list, its table and goals, and `bench/interests.py` end to end on
two tiny made lists (those parts need scikit-learn, the anchor's, and skip without it).
No figure of quality is asserted: only that the protocol is the one its docstring says."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bench.interests import (
    STARS, RankedList, Score, Trial, ap_at, chosen_files, family_of, goal_lines, main,
    precision_at, quality_table, read_titles, sample_topics, title_words, topic_words, trials,
)
from tests.conftest import ROOT, write_list

NEEDS_SKLEARN = ("the anchor (a tf-idf linear-SVM recommender) is scikit-learn's:"
                 " pip install -e '.[bench]'")
# CI installs the bench extra and runs these beside the shared material (.ci/run).
bench_extra = pytest.mark.bench_extra


def test_average_precision_by_hand() -> None:
    # Relevant at ranks 1 and 3: (1/1 + 2/3) / 2.
    assert ap_at([1, 2, 3, 4], {1, 3}) == pytest.approx((1 + 2 / 3) / 2)
    # One of three relevant found, at rank 2: (1/2) / 3.
    assert ap_at([5, 1], {1, 2, 3}) == pytest.approx(1 / 6)
    # Only the first k count, and the sum is over min(relevant, k).
    assert ap_at([9, 1], {1}, k=1) == 0.0
    assert ap_at([1, 2, 3], {1, 2, 3}, k=2) == pytest.approx(1.0)
    assert ap_at([4, 1, 2, 3], {1, 2, 3}, k=2) == pytest.approx((1 / 2) / 2)
    # A repeated document counts once: [1, 2], not 1/1 + 2/2 + 3/3.
    assert ap_at([1, 1, 2], {1, 2}) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        ap_at([1, 2], set())


def test_precision_by_hand() -> None:
    assert precision_at([1, 2, 3, 4], {2, 4}, k=4) == 0.5
    assert precision_at([1, 2, 3, 4], {2, 4}, k=2) == 0.5
    # A ranking shorter than k misses the rest; the default cut is 20.
    assert precision_at([1], {1}) == pytest.approx(1 / 20)
    assert precision_at([1, 1, 1, 1], {1}, k=4) == 0.25
    assert precision_at([], {1}) == 0.0


TOPIC_TITLES = (
    ["Kernel methods for kernel-based regression"] * 8  # 8 titles (twice in one: once)
    + ["Graph cuts"] * 7                                # 7: too few
    + ["Learning to learn"] * 10                        # 10 of 60 > 15%: too common
    + ["Contextual bandit"] * 9                         # 9 of 60 = 15%: kept
    + ["Through the GAN"] * 8                           # a stop word, and 3 letters
    + [f"Item {n}" for n in range(18)]                  # "item": in every title
)


def made_list(folder: Path, name: str, titles: list[str]) -> Path:
    """A paragraph list (an abstract per title) and its titles sidecar; the list's path."""
    abstracts = [f"We study {t.lower()} in paper {n} of {Path(name).stem}."
                 for n, t in enumerate(titles)]
    path = write_list(folder, name, f"List {name}\n\n" + "\n\n".join(abstracts) + "\n")
    lines = [json.dumps({"i": n, "title": t}) for n, t in enumerate(titles)]
    (folder / f"{path.stem}.titles.jsonl").write_text(
        "\n".join(lines + ['{"i": 99, "title": " "}']) + "\n", encoding="utf-8")
    return path


def test_title_words_are_lower_case_alphabetic_and_four_letters_or_more() -> None:
    assert title_words("Kernel-based GANs in 3D: Schrödinger's cat") == {
        "kernel", "based", "gans", "schrödinger"}


def test_topics_are_held_by_eight_titles_and_at_most_fifteen_percent(tmp_path: Path) -> None:
    path = made_list(tmp_path, "neurips2000.txt", TOPIC_TITLES)
    titles = read_titles(tmp_path / "neurips2000.titles.jsonl")
    assert len(titles) == 60  # the blank title is left out
    words = topic_words(titles.values(), stop_words={"through"})
    assert words == ["bandit", "based", "contextual", "kernel", "methods", "regression"]
    assert sample_topics(words, 9, seed=7, file=path.name) == sample_topics(
        words, 9, seed=7, file=path.name)
    assert sorted(sample_topics(words, 9, seed=7, file=path.name)) == words
    two = sample_topics(words, 2, seed=7, file=path.name)
    assert len(set(two)) == 2 and set(two) <= set(words)
    assert two == random.Random(f"7:{path.name}").sample(words, 2)


def test_a_trial_stars_five_of_the_topic_s_papers_and_the_others_are_relevant() -> None:
    docnums = list(range(100, 100 + len(TOPIC_TITLES)))
    ranked = RankedList("neurips2000.txt", docnums, dict(zip(docnums, TOPIC_TITLES)),
                        [""] * len(docnums))
    kernel = set(range(100, 108))
    made = trials(ranked, ["kernel", "bandit"], count=3, seed=7)
    assert [(t.topic, t.number) for t in made] == [("kernel", 0), ("kernel", 1), ("kernel", 2),
                                                   ("bandit", 0), ("bandit", 1), ("bandit", 2)]
    for trial in made[:3]:
        assert len(set(trial.starred)) == STARS and set(trial.starred) <= kernel
        assert trial.relevant == kernel - set(trial.starred)
    assert made == trials(ranked, ["kernel", "bandit"], count=3, seed=7)
    assert made != trials(ranked, ["kernel", "bandit"], count=3, seed=8)


def test_lists_are_chosen_by_name_or_glob(tmp_path: Path) -> None:
    for name in ("aistats2001.txt", "cvpr2013.txt", "cvpr2014.txt"):
        made_list(tmp_path, name, ["A title"])
    write_list(tmp_path, "iccv2013.txt", "No sidecar\n\nAn abstract.\n")
    assert [p.name for p in chosen_files(tmp_path, None)] == [
        "aistats2001.txt", "cvpr2013.txt", "cvpr2014.txt"]
    assert [p.name for p in chosen_files(tmp_path, "cvpr*, aistats2001.txt,cvpr2014.txt")] == [
        "cvpr2013.txt", "cvpr2014.txt", "aistats2001.txt"]
    with pytest.raises(SystemExit, match="iccv"):
        chosen_files(tmp_path, "iccv*")
    assert family_of("neurips2017.txt") == "neurips" and family_of("ICCV2019.txt") == "iccv"


def _score(ranker: str, file: str, ap: float, precision: float) -> Score:
    trial = Trial(file, "kernel", 0, (1, 2, 3, 4, 5), frozenset({6}))
    return Score(ranker, trial, ap, precision, short=False)


def test_the_table_and_the_goals_are_means_over_all_and_per_family() -> None:
    scores = [_score(name, file, ap, p) for name, file, ap, p in (
        ("paperscope", "cvpr2013.txt", 0.3, 0.2), ("paperscope", "neurips2000.txt", 0.5, 0.1),
        ("anchor", "cvpr2013.txt", 0.2, 0.1), ("anchor", "neurips2000.txt", 0.2, 0.2),
        ("rocchio", "cvpr2013.txt", 0.0, 0.0), ("rocchio", "neurips2000.txt", 0.0, 0.0),
        ("random", "cvpr2013.txt", 0.1, 0.05), ("random", "neurips2000.txt", 0.1, 0.05))]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in quality_table(scores)]
    assert cells[0] == ["ranker", "AP@100 all", "P@20 all", "AP@100 cvpr", "P@20 cvpr",
                        "AP@100 neurips", "P@20 neurips"]
    assert cells[2] == ["paperscope", "0.400", "0.150", "0.300", "0.200", "0.500", "0.100"]
    assert cells[3] == ["anchor", "0.200", "0.150", "0.200", "0.100", "0.200", "0.200"]
    assert [row[0] for row in cells[2:]] == ["paperscope", "anchor", "rocchio", "random"]
    assert goal_lines(scores) == [
        "- AP@100 ≥ 1.15× the anchor's: 0.400 vs 0.200: 2.00×: met",
        "- P@20 ≥ 1.1× the anchor's: 0.150 vs 0.150: 1.00×: NOT met"]


def test_missing_corpora_is_one_line_and_status_2(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--corpora", str(tmp_path / "nowhere"), "--no-scale"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip().count("\n") == 0


def test_an_index_or_workdir_inside_the_checkout_is_refused(tmp_path: Path) -> None:
    made_list(tmp_path, "cvpr2013.txt", ["A title"])
    for flag in ("--index-dir", "--workdir"):
        with pytest.raises(SystemExit) as exit_:
            main(["--corpora", str(tmp_path), flag, str(ROOT / "bench-out")])
        assert exit_.value.code == 2
    assert not (ROOT / "bench-out").exists()


@bench_extra
def test_the_anchor_s_vectorizer_falls_back_to_min_df_1_and_says_so(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sklearn", reason=NEEDS_SKLEARN)
    from bench.interests import list_rows

    ranked = RankedList("tiny.txt", [0, 1, 2, 3], {}, [
        "kernel regression", "graph cuts", "bandit feedback", "kernel bandit"])
    rows = list_rows(ranked)
    assert rows.shape[0] == 4 and rows.shape[1] > 0
    assert capsys.readouterr().err.count("tiny.txt: tf-idf with min_df 5 failed") == 1


@bench_extra
def test_the_centroid_and_the_best_rows_by_hand() -> None:
    pytest.importorskip("sklearn", reason=NEEDS_SKLEARN)
    from scipy.sparse import csr_matrix

    from bench.interests import best_rows, centroid_scores

    rows = csr_matrix([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [0.8, 0.6]])
    # Centroid of rows 0 and 1: (0.5, 0.5), normalized (0.707, 0.707).
    assert centroid_scores(rows, [0, 1]).tolist() == pytest.approx(
        [0.7071, 0.7071, 0.9899, 0.9899], abs=1e-4)
    scores = centroid_scores(rows, [0])
    assert best_rows(scores, {0}) == [3, 2, 1]  # best first, the starred left out
    assert best_rows(scores, {0}, k=1) == [3]
    # Ties keep row order.
    assert best_rows(centroid_scores(rows, [0, 1]), {0, 1}) == [2, 3]


@bench_extra
def test_end_to_end_on_two_made_lists(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sklearn", reason=NEEDS_SKLEARN)
    corpora = tmp_path / "corpora"
    corpora.mkdir()
    for name in ("aistats2000.txt", "cvpr2000.txt"):
        made_list(corpora, name, TOPIC_TITLES)
    assert main(["--corpora", str(corpora), "--no-scale", "--trials", "2",
                 "--index-dir", str(tmp_path / "index")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("run: python bench/interests.py --corpora ")
    assert "load average" in out.splitlines()[1]
    assert "topics (rankings) per column: all 10 (20), aistats 5 (10), cvpr 5 (10)" in out
    table = [line for line in out.splitlines() if line.startswith("| ")]
    assert [line.split("|")[1].strip() for line in table[2:]] == [
        "paperscope", "anchor", "rocchio", "random"]
    goals = [line for line in out.splitlines() if line.startswith("- ")]
    assert len(goals) == 2
    assert all(re.fullmatch(r"- (AP@100 ≥ 1\.15|P@20 ≥ 1\.1)× the anchor's: "
                            r"\d\.\d{3} vs \d\.\d{3}: (\d+\.\d\d|inf)×: (met|NOT met)", g)
               for g in goals)
    assert "re-rank at" not in out


def test_the_reader_s_for_you_row_is_judged_against_the_median_budget(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bench import interests_reader, reader_actions, reader_probe

    p95s = iter([[10.0] * 20, [30.0] * 20, [20.0] * 20])  # median p95 20: budget 30 ms
    monkeypatch.setattr(reader_probe, "keystrokes_in_child",
                        lambda seeds, index, queries: (next(p95s), [], []))
    per_size = {"100": 25.0, "1000": 35.0}

    def actions(seeds: str, index: str, rounds: int):
        ms = per_size[seeds.rsplit("-", 1)[1]]
        figures = {name: [ms] * rounds for name in reader_actions.action_names()}
        return figures, []

    monkeypatch.setattr(reader_actions, "actions_in_child", actions)
    lines = interests_reader.reader_lines(tmp_path, [1000, 100], rounds=2, runs=3)
    assert lines[0] == ("reader keystroke p95 at 100 (3 readers): 10.0, 30.0, 20.0 ms; "
                        "budget 1.5× their median = 30.0 ms")
    assert "reader for you at 1,000: p95 35.0 ms, median 35.0 ms (12 presses)" in lines
    assert lines[-2:] == [
        "- reader for-you p95 at 1,000 within the keystroke budget (30.0 ms): 35.0 ms: not met",
        "- reader for-you p95 at 100 within the keystroke budget (30.0 ms): 25.0 ms: met"]
