"""The relevance benchmark: its metrics by hand, and `bench/relevance.py` end to end.

No test here asserts a score threshold: the figures are the engine's business, the
benchmark's job is to measure them exactly as `../shared/qrels/README.md` defines.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.metrics import (
    evaluate, ndcg_at, percentile, read_qrels, read_queries, read_references, recall_at,
)
from tests.conftest import ROOT
from tests.material import external, needs

BENCH = ROOT / "bench" / "relevance.py"
LOG2_3 = math.log2(3)

# A tiny hand-made collection: qid -> {position: grade}.
QRELS = {
    "q1": {0: 3, 2: 1, 5: 2},
    "q2": {1: 1},
    "q3": {4: 0},          # judged, but nothing relevant: not averaged
}
RUN = {
    "q1": [2, 4, 0, 7],
    "q2": [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 1],  # the relevant one at rank 11
    "q3": [4],
    "q9": [3],             # no judgments at all: not averaged
}
# By hand:
# q1: DCG@10  = 1/log2(2) + 0/log2(3) + 3/log2(4) + 0/log2(5) = 1 + 0 + 1.5 + 0 = 2.5
#     IDCG@10 = grades of all judged docs, best first [3, 2, 1] (doc 5 was never
#               retrieved but counts): 3/1 + 2/log2(3) + 1/log2(4)
#             = 3 + 1.2618595 + 0.5 = 4.7618595
#     nDCG@10 = 2.5 / 4.7618595 = 0.5250050
#     Recall@100: relevant {0, 2, 5}, retrieved {0, 2} -> 2/3 = 0.6666667
# q2: the only relevant doc is at rank 11 -> nDCG@10 = 0; Recall@100 = 1/1 = 1
# q3 (all grade 0) and q9 (unjudged) are left out of the averages.
# Mean nDCG@10    = (0.5250050 + 0) / 2 = 0.2625025
# Mean Recall@100 = (0.6666667 + 1) / 2 = 0.8333333
Q1_NDCG = 2.5 / (3 + 2 / LOG2_3 + 0.5)


def test_ndcg_by_hand() -> None:
    assert ndcg_at(RUN["q1"], QRELS["q1"]) == pytest.approx(0.5250050, abs=1e-7)
    assert ndcg_at(RUN["q1"], QRELS["q1"]) == pytest.approx(Q1_NDCG)
    assert ndcg_at(RUN["q2"], QRELS["q2"]) == 0.0
    assert ndcg_at(RUN["q2"], QRELS["q2"], k=11) == pytest.approx(1 / math.log2(12))
    # The perfect order scores 1; linear gains: the grade-3 doc second costs more than
    # the grade-1 doc second (DCG 1 + 3/log2(3) + 2/2 vs 3 + 1/log2(3) + 2/2).
    assert ndcg_at([0, 5, 2], QRELS["q1"]) == pytest.approx(1.0)
    assert ndcg_at([2, 0, 5], QRELS["q1"]) == pytest.approx(
        (1 + 3 / LOG2_3 + 1) / (3 + 2 / LOG2_3 + 0.5))


def test_ndcg_ideal_is_cut_at_k() -> None:
    # 12 relevant docs of grade 1, the first 10 retrieved first: perfect at 10 (an ideal
    # DCG over all 12 would give less than 1).
    judgments = {d: 1 for d in range(12)}
    assert ndcg_at(list(range(10)), judgments) == pytest.approx(1.0)
    assert ndcg_at(list(range(9)), judgments) < 1.0


def test_repeated_documents_count_once() -> None:
    # [2, 2, 0] is read as [2, 0]: DCG = 1 + 3/log2(3) = 2.8927893.
    assert ndcg_at([2, 2, 0], QRELS["q1"]) == pytest.approx(
        (1 + 3 / LOG2_3) / (3 + 2 / LOG2_3 + 0.5))
    assert ndcg_at([2, 2, 0], QRELS["q1"]) == pytest.approx(0.6074915, abs=1e-7)
    assert recall_at([2, 2, 2], QRELS["q1"]) == pytest.approx(1 / 3)


def test_recall_by_hand() -> None:
    assert recall_at(RUN["q1"], QRELS["q1"]) == pytest.approx(2 / 3)
    assert recall_at(RUN["q2"], QRELS["q2"]) == 1.0
    assert recall_at([], QRELS["q2"]) == 0.0
    # The cut is at 100: the relevant doc at rank 101 does not count, at rank 100 it does.
    filler = list(range(100, 199))  # 99 unjudged docs
    assert recall_at(filler + [1], QRELS["q2"]) == 1.0
    assert recall_at(filler + [200, 1], QRELS["q2"]) == 0.0
    # Grade 0 is judged but not relevant.
    assert recall_at([7], {7: 0, 8: 2}) == 0.0


def test_undefined_for_queries_without_relevant_documents() -> None:
    with pytest.raises(ValueError):
        ndcg_at([4], QRELS["q3"])
    with pytest.raises(ValueError):
        recall_at([4], {})


def test_evaluate_averages_over_judged_queries() -> None:
    scores = evaluate(RUN, QRELS)
    assert scores.judged == 2
    assert sorted(scores.per_query) == ["q1", "q2"]
    assert sorted(scores.skipped) == ["q3", "q9"]
    assert scores.ndcg == pytest.approx(0.2625025, abs=1e-7)
    assert scores.recall == pytest.approx(0.8333333, abs=1e-7)
    assert math.isnan(evaluate({"q9": [1]}, QRELS).ndcg)


def test_percentile() -> None:
    assert percentile([5.0, 1.0, 3.0], 0.5) == 3.0
    assert percentile(list(map(float, range(1, 101))), 0.95) == 95.0
    assert percentile([2.0], 0.95) == 2.0


def test_files_are_read_as_written(tmp_path: Path) -> None:
    (tmp_path / "queries.tsv").write_text(
        "1\twhat is (x)?  \n2\tjet -dash flow .\n\n", encoding="utf-8")
    (tmp_path / "qrels.tsv").write_text("1\t4\t2\n1\t0\t1\n2\t3\t1\n", encoding="utf-8")
    # The query text is kept byte for byte: the benchmark must not clean it up.
    assert read_queries(tmp_path / "queries.tsv") == {"1": "what is (x)?  ",
                                                      "2": "jet -dash flow ."}
    assert read_qrels(tmp_path / "qrels.tsv") == {"1": {4: 2, 0: 1}, "2": {3: 1}}


README_TABLE = """# Collections

| collection | docs | judged queries | reference BM25 nDCG@10 | reference Recall@100 |
|---|---|---|---|---|
| alpha (something, 1960s) | 1,398 | 225 | 0.3568 | 0.7274 |
| beta | 10 | 3 | 0.5000 | 0.2500 |

Text after the table | with a bar.
"""


def test_read_references(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(README_TABLE, encoding="utf-8")
    refs = read_references(tmp_path / "README.md")
    assert sorted(refs) == ["alpha", "beta"]
    assert (refs["alpha"].docs, refs["alpha"].queries) == (1398, 225)
    assert (refs["alpha"].ndcg, refs["alpha"].recall) == (0.3568, 0.7274)
    assert (refs["beta"].ndcg, refs["beta"].recall) == (0.5, 0.25)
    assert read_references(tmp_path / "missing.md") == {}


@needs("qrels", "README.md", why="the relevance collections' reference figures")
def test_real_readme_gives_the_issue_figures() -> None:
    refs = read_references(external("qrels", "README.md"))
    assert (refs["cranfield"].ndcg, refs["cranfield"].recall) == (0.3568, 0.7274)
    assert (refs["cisi"].ndcg, refs["cisi"].recall) == (0.3450, 0.4124)
    assert (refs["cranfield"].docs, refs["cranfield"].queries) == (1398, 225)
    assert (refs["cisi"].docs, refs["cisi"].queries) == (1460, 76)


# --- end to end ------------------------------------------------------------------------

DOCS = [
    "Gradient descent converges for convex objectives with a suitable step size.",
    "Stochastic gradient methods with momentum train deep networks faster.",
    "A survey of library classification schemes such as Dewey and UDC.",
    "Boundary layer flow over a flat plate at supersonic speed.",
    "Heat transfer in a turbulent boundary layer with suction.",
    "Automatic indexing of documents by term frequency for retrieval.",
    "Citation analysis of journals in information science.",
    "Shock waves and heat transfer on blunt bodies at hypersonic speed.",
    "Convex optimization with proximal gradient methods and their convergence.",
    "Users of online catalogs and their search behaviour in a library.",
]
# As typed: query 1 ends in a word still being typed (the search treats it as a prefix),
# query 3 has the punctuation of a question.
QUERIES = {
    "1": "proximal gradient methods conv",
    "2": "heat transfer in boundary layers at high speed",
    "3": "What about library catalogs (and classification)?",
    "4": "a query nobody judged",
}
# Some judgments no word of the query leads to, so the figures are not all 1.
JUDGMENTS = [("1", 0, 2), ("1", 8, 1), ("1", 1, 1), ("1", 6, 1), ("2", 4, 2), ("2", 7, 1),
             ("2", 3, 1), ("3", 2, 1), ("3", 9, 2), ("3", 5, 2)]


def make_collection(root: Path, name: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "docs.txt").write_text("Tiny Relevance Collection\n\n" + "\n\n".join(DOCS) + "\n",
                                     encoding="utf-8")
    (folder / "queries.tsv").write_text("".join(f"{q}\t{t}\n" for q, t in QUERIES.items()),
                                        encoding="utf-8")
    (folder / "qrels.tsv").write_text("".join(f"{q}\t{p}\t{g}\n" for q, p, g in JUDGMENTS),
                                      encoding="utf-8")
    return folder


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=240)


NUM = r"(\d\.\d{4})"
SIGNED = r"([+-]\d\.\d{4}|n/a)"
ROW = re.compile(rf"^(\S+)\s+(\d+)\s+(\d+)\s+{NUM}\s+(\S+)\s+{SIGNED}\s+{NUM}\s+(\S+)\s+{SIGNED}"
                 rf"\s+(\d+\.\d) ms\s+(\d+\.\d) ms$")


def rows(stdout: str) -> dict[str, re.Match[str]]:
    found = {}
    for line in stdout.splitlines():
        m = ROW.match(line)
        if m:
            found[m.group(1)] = m
    return found


def expected_run(folder: Path, index_dir: Path) -> dict[str, list[int]]:
    """The rankings computed here, in process, with the product's search and defaults."""
    from tui.core.index.library import open_library
    from tui.core.search.search import search

    queries, qrels = read_queries(folder / "queries.tsv"), read_qrels(folder / "qrels.tsv")
    with open_library([str(folder / "docs.txt")], index_dir=str(index_dir)) as library:
        assert len(library) == len(DOCS)
        return {q: [h.paper.position for h in search(library, t, limit=100).hits]
                for q, t in queries.items() if q in qrels}


def read_run(path: Path) -> dict[str, list[int]]:
    """collection/qid -> positions in rank order, from a TREC run file."""
    run: dict[str, list[tuple[int, int]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        qid, q0, position, rank, score, tag = line.split()
        assert (q0, tag) == ("Q0", "paperscope")
        float(score)
        run.setdefault(qid, []).append((int(rank), int(position)))
    return {q: [p for _, p in sorted(hits)] for q, hits in run.items()}


def test_benchmark_end_to_end(tmp_path: Path) -> None:
    qrels_dir = tmp_path / "qrels"
    folder = make_collection(qrels_dir, "tinycoll")
    proc = run_bench("--qrels", str(qrels_dir), "--run", str(tmp_path / "run.txt"))
    assert proc.returncode == 0, proc.stderr
    assert "collection" in proc.stdout and "nDCG@10" in proc.stdout and "R@100" in proc.stdout
    table = rows(proc.stdout)
    assert list(table) == ["tinycoll"], proc.stdout
    row = table["tinycoll"]
    assert row.group(2) == str(len(DOCS))
    assert row.group(3) == "3"  # query 4 has no judgments: not run, not averaged
    ndcg, recall = float(row.group(4)), float(row.group(7))
    assert 0.0 <= ndcg <= 1.0 and 0.0 <= recall <= 1.0
    # No README: the reference and difference columns say so.
    assert (row.group(5), row.group(6), row.group(8), row.group(9)) == ("n/a",) * 4
    assert re.search(r"^mean difference over 0 collection\(s\).*nDCG@10 n/a, Recall@100 n/a$",
                     proc.stdout, re.M), proc.stdout
    # The benchmark measures exactly what the product's search returns for the queries
    # as written (query 3's `?` and parentheses included): the same rankings as the
    # search called here in process, and the figures those rankings give.
    want = expected_run(folder, tmp_path / "index")
    assert read_run(tmp_path / "run.txt") == {f"tinycoll/{q}": r for q, r in want.items()}
    scores = evaluate(want, read_qrels(folder / "qrels.tsv"))
    assert ndcg == pytest.approx(scores.ndcg, abs=5e-5)
    assert recall == pytest.approx(scores.recall, abs=5e-5)


def test_benchmark_references_and_selection(tmp_path: Path) -> None:
    qrels_dir = tmp_path / "qrels"
    make_collection(qrels_dir, "tinycoll")
    make_collection(qrels_dir, "other")
    (qrels_dir / "README.md").write_text(
        "| collection | docs | judged queries | reference BM25 nDCG@10 | "
        "reference Recall@100 |\n|---|---|---|---|---|\n"
        "| tinycoll (made up) | 10 | 3 | 0.2500 | 0.7500 |\n", encoding="utf-8")
    proc = run_bench("--qrels", str(qrels_dir), "--collection", "tinycoll")
    assert proc.returncode == 0, proc.stderr
    table = rows(proc.stdout)
    assert list(table) == ["tinycoll"], proc.stdout
    row = table["tinycoll"]
    assert (row.group(5), row.group(8)) == ("0.2500", "0.7500")
    d_ndcg, d_recall = float(row.group(6)), float(row.group(9))
    assert d_ndcg == pytest.approx(float(row.group(4)) - 0.25, abs=1.5e-4)
    assert d_recall == pytest.approx(float(row.group(7)) - 0.75, abs=1.5e-4)
    mean = re.search(r"^mean difference over 1 collection\(s\) with references: "
                     rf"nDCG@10 {SIGNED}, Recall@100 {SIGNED}$", proc.stdout, re.M)
    assert mean is not None, proc.stdout
    assert (mean.group(1), mean.group(2)) == (row.group(6), row.group(9))
    assert "warning" not in proc.stdout  # docs and judged-query counts match the README

    proc = run_bench("--qrels", str(qrels_dir), "--collection", "nosuch")
    assert proc.returncode == 2
    assert "nosuch" in proc.stderr and "tinycoll" in proc.stderr
