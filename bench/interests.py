"""Interests benchmark: a list ranked by the papers the reader starred, against
the tf-idf linear-SVM recommender that paper-recommendation sites ship (the anchor).

    python bench/interests.py [--corpora ../shared/corpora] [--lists GLOB|A.txt,B.txt]
                              [--topics-per-list 5] [--trials 3] [--seed 7]
                              [--index-dir DIR] [--scale 25000,250000 | --no-scale]
                              [--repeat 5] [--reader-rounds 3] [--reader-runs 3]
                              [--workdir DIR]

Quality. Every list of `--corpora` (`--lists`: name globs, comma-separated) is indexed
once, all in one library, and each is ranked on its own (`among=` its docnums). A list's
topics are words of its real titles (the `<name>.titles.jsonl` sidecars): lower-case
alphabetic words of 4 letters or more, not English stop words (scikit-learn's), held
by at least 8 of its titles and at most 15% of them; at most `--topics-per-list` are
drawn (seeded per list). Per topic and trial (seeded), 5 papers whose title holds the
word are starred, the list's other papers are ranked, and the relevant ones are the
topic's other papers. Measured: AP@100 (precision at each relevant hit of the top 100,
summed, over min(relevant, 100)) and P@20, means over topics and trials, over all
lists and per venue family (the file name's letters: aistats, cvpr, iccv, neurips).
The rankers:

- paperscope: `for_you(library, starred, limit=100, among=the list)`;
- anchor: the SVM recommender as it ships: its tf-idf (fitted on the
  list's abstracts; min_df 1 where 5 leaves no words, said once per list) and a
  LinearSVC with the starred papers as positives and every other paper of the list as
  negatives, ranked by its decision function;
- rocchio: the cosine to the centroid of the starred papers' tf-idf rows;
- random: a seeded shuffle.

Speed (`--scale`, none with `--no-scale`; the lead runs 250000). At each size, made
abstracts (`bench/corpus.py`) in lists of 1000 in `--workdir` (outside the checkout), one
library; a re-rank is for_you after one more star joins 5 (6 stars, limit 100, the
whole library), beside the anchor's SVM fit and scoring on tf-idf rows computed
beforehand (as the recommender computes them offline), `--repeat` star sets each.
Printed: medians in ms and their ratio. Then the reader itself on the same made
libraries (`--reader-rounds`, 0 for none; `bench/interests_reader.py`): `F`, a star
and `F` back, key → frame with the repainted list, against the keystroke budget that
`bench/scale.py` uses (1.5× the keystroke p95 at the smallest size, the median of
`--reader-runs` readers). Seeded: the same command ranks the same.

Needs scikit-learn (`pip install -e '.[bench]'`).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import re
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import (  # noqa: E402
    corpus_sentences, made_abstracts, read_abstracts, write_paragraph_lists,
)
from bench.interests_reader import reader_lines  # noqa: E402
from bench.material import require, shared  # noqa: E402
from tui.core.index.library import Library, open_library  # noqa: E402
from tui.core.search.interests import for_you  # noqa: E402

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix

STARS = 5
"""Papers starred per trial."""
FEWEST_TITLES = 8
"""A topic word is held by at least this many of the list's titles..."""
MOST_SHARE = 0.15
"""... and by at most this share of them."""
SHORTEST_WORD = 4
TOP = 100
"""The rankings' length, and AP's cut."""
PRECISION_CUT = 20
PER_LIST = 1000
"""Made abstracts per list file, for the speed runs."""
GOALS = (("AP@100", 1.15), ("P@20", 1.1))
"""Each measure's goal, as a multiple of the anchor's (over all lists)."""
RANKERS = ("paperscope", "anchor", "rocchio", "random")

ANCHOR_TFIDF: dict[str, object] = dict(
    input="content", encoding="utf-8", decode_error="replace", strip_accents="unicode",
    lowercase=True, analyzer="word", stop_words="english",
    token_pattern=r"(?u)\b[a-zA-Z_][a-zA-Z0-9_]+\b", ngram_range=(1, 2), max_features=10000,
    norm="l2", use_idf=True, smooth_idf=True, sublinear_tf=True, max_df=0.5, min_df=5)
"""The anchor's vectorizer, as it ships, with this benchmark's max_features/max_df."""
ANCHOR_SVM: dict[str, object] = dict(class_weight="balanced", verbose=False, max_iter=10000,
                                     tol=1e-6, C=0.01)
"""The anchor's classifier, as it ships."""

_WORD = re.compile(r"[^\W\d_]+")
_FAMILY = re.compile(r"[a-z]+")


# -- metrics ---------------------------------------------------------------------------


def precision_at(ranking: Sequence[int], relevant: Collection[int], k: int = PRECISION_CUT,
                 ) -> float:
    """Relevant documents among the first `k` of `ranking`, over `k` (a document
    counts once; a ranking shorter than `k` misses the rest)."""
    return sum(d in relevant for d in dict.fromkeys(ranking[:k])) / k


def ap_at(ranking: Sequence[int], relevant: Collection[int], k: int = TOP) -> float:
    """Average precision at `k`: the precision at each relevant document of the first
    `k`, summed, over min(relevant documents, `k`)."""
    if not relevant:
        raise ValueError("AP is undefined without relevant documents")
    found, total = 0, 0.0
    for rank, d in enumerate(list(dict.fromkeys(ranking))[:k], 1):
        if d in relevant:
            found += 1
            total += found / rank
    return total / min(len(relevant), k)


# -- topics ----------------------------------------------------------------------------


def read_titles(sidecar: Path) -> dict[int, str]:
    """Position -> real title, from a `<name>.titles.jsonl` sidecar (blank titles left out)."""
    titles: dict[int, str] = {}
    for line in sidecar.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            if str(record.get("title") or "").strip():
                titles[int(record["i"])] = record["title"]
    return titles


def title_words(title: str) -> set[str]:
    """The title's lower-case alphabetic words of SHORTEST_WORD letters or more."""
    return {w for w in _WORD.findall(title.lower()) if len(w) >= SHORTEST_WORD}


def topic_words(titles: Iterable[str], stop_words: Collection[str]) -> list[str]:
    """The words that may be topics, sorted: not stop words, held by at least
    FEWEST_TITLES titles and at most MOST_SHARE of them."""
    titles = list(titles)
    held = Counter(w for title in titles for w in title_words(title))
    most = MOST_SHARE * len(titles)
    return sorted(w for w, n in held.items()
                  if FEWEST_TITLES <= n <= most and w not in stop_words)


def sample_topics(words: Sequence[str], count: int, seed: int, file: str) -> list[str]:
    """At most `count` of `words`, drawn with the list's own seed."""
    return random.Random(f"{seed}:{file}").sample(sorted(words), min(count, len(words)))


def english_stop_words() -> frozenset[str]:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return ENGLISH_STOP_WORDS


# -- lists and trials ------------------------------------------------------------------


@dataclass
class RankedList:
    """One list of the library: its papers' docnums (in order), real titles and texts."""

    file: str
    docnums: list[int]
    titles: dict[int, str]
    """Docnum -> real title."""
    texts: list[str]
    """The abstracts, in `docnums` order."""

    @property
    def family(self) -> str:
        return family_of(self.file)

    def holding(self, word: str) -> list[int]:
        """The docnums whose title holds `word`, in order."""
        return [d for d in self.docnums if word in title_words(self.titles.get(d, ""))]


@dataclass(frozen=True)
class Trial:
    """One ranking to judge: the starred papers and the relevant ones."""

    file: str
    topic: str
    number: int
    starred: tuple[int, ...]
    relevant: frozenset[int]


def family_of(file: str) -> str:
    """The venue family: the file name's leading letters (`neurips2017.txt` -> neurips)."""
    found = _FAMILY.match(file.lower())
    return found.group() if found else file


def chosen_files(corpora: Path, patterns: str | None) -> list[Path]:
    """The corpora's lists that have a titles sidecar, those `patterns` name (comma-
    separated globs or names) when given; SystemExit for a pattern that names none."""
    files = sorted(p for p in corpora.glob("*.txt")
                   if p.with_name(p.stem + ".titles.jsonl").exists())
    if not patterns:
        return files
    chosen: list[Path] = []
    for pattern in (p.strip() for p in patterns.split(",") if p.strip()):
        named = [p for p in files if fnmatch.fnmatch(p.name, pattern)]
        if not named:
            raise SystemExit(f"interests.py: --lists {pattern!r} names no list with titles "
                             f"in {corpora}")
        chosen += named
    return list(dict.fromkeys(chosen))


def ranked_lists(library: Library, files: Sequence[Path]) -> list[RankedList]:
    """Each of `files` as the library holds it, with its sidecar's real titles."""
    by_file: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for docnum, paper in enumerate(library.papers()):
        by_file[paper.file].append((docnum, paper.position, paper.raw))
    out = []
    for path in files:
        titles = read_titles(path.with_name(path.stem + ".titles.jsonl"))
        papers = by_file.get(path.name, [])
        out.append(RankedList(path.name, [d for d, _, _ in papers],
                              {d: titles[pos] for d, pos, _ in papers if pos in titles},
                              [raw for _, _, raw in papers]))
    return out


def trials(ranked: RankedList, topics: Sequence[str], count: int, seed: int) -> list[Trial]:
    """`count` seeded trials per topic: STARS starred papers among those holding it."""
    out = []
    for topic in topics:
        holding = ranked.holding(topic)
        for number in range(count):
            starred = random.Random(f"{seed}:{ranked.file}:{topic}:{number}").sample(
                holding, STARS)
            out.append(Trial(ranked.file, topic, number, tuple(starred),
                             frozenset(holding) - set(starred)))
    return out


# -- the rankers -----------------------------------------------------------------------


def tfidf_rows(texts: Iterable[str], min_df: int = 5) -> csr_matrix:
    """The anchor's tf-idf rows of `texts`."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(**{**ANCHOR_TFIDF, "min_df": min_df}).fit_transform(texts)


def list_rows(ranked: RankedList) -> csr_matrix:
    """The list's tf-idf rows; with min_df 1, said once, where min_df 5 leaves no words."""
    try:
        return tfidf_rows(ranked.texts)
    except ValueError as error:
        print(f"  {ranked.file}: tf-idf with min_df 5 failed ({error}); min_df 1 for "
              f"this list", file=sys.stderr)
        return tfidf_rows(ranked.texts, min_df=1)


def svm_scores(rows: csr_matrix, positives: Sequence[int]) -> np.ndarray:
    """The anchor's scores: a LinearSVC with `positives` as 1, every other row 0."""
    import numpy as np
    from sklearn.svm import LinearSVC

    y = np.zeros(rows.shape[0])
    y[list(positives)] = 1
    return LinearSVC(**ANCHOR_SVM).fit(rows, y).decision_function(rows)


def centroid_scores(rows: csr_matrix, positives: Sequence[int]) -> np.ndarray:
    """Cosine to the centroid of the `positives` rows (the rows are l2-normalized)."""
    import numpy as np

    centroid = np.asarray(rows[list(positives)].mean(axis=0)).ravel()
    norm = np.linalg.norm(centroid)
    return rows @ (centroid / norm if norm else centroid)


def best_rows(scores: np.ndarray, left_out: Collection[int], k: int = TOP) -> list[int]:
    """The `k` best-scoring rows but `left_out`, best first (ties in row order)."""
    import numpy as np

    best: list[int] = []
    for row in np.argsort(-scores, kind="stable").tolist():
        if row not in left_out:
            best.append(row)
            if len(best) == k:
                break
    return best


Ranker = Callable[[RankedList, "csr_matrix", Trial], list[int]]
"""(list, its tf-idf rows, trial) -> the top TOP docnums, the starred left out."""


def paperscope(library: Library) -> Ranker:
    def rank(ranked: RankedList, _rows: csr_matrix, trial: Trial) -> list[int]:
        result = for_you(library, trial.starred, limit=TOP, among=ranked.docnums)
        return [h.docnum for h in result.hits]

    return rank


def by_scores(score: Callable[[csr_matrix, Sequence[int]], np.ndarray]) -> Ranker:
    """A ranker of the list's tf-idf rows, scored by `score(rows, starred rows)`."""

    def rank(ranked: RankedList, rows: csr_matrix, trial: Trial) -> list[int]:
        row_of = {d: r for r, d in enumerate(ranked.docnums)}
        starred = [row_of[d] for d in trial.starred]
        return [ranked.docnums[r] for r in best_rows(score(rows, starred), set(starred))]

    return rank


def shuffled(seed: int) -> Ranker:
    def rank(ranked: RankedList, _rows: csr_matrix, trial: Trial) -> list[int]:
        rest = [d for d in ranked.docnums if d not in trial.starred]
        random.Random(f"{seed}:{trial.file}:{trial.topic}:{trial.number}:random").shuffle(rest)
        return rest[:TOP]

    return rank


# -- the quality run -------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    ranker: str
    trial: Trial
    ap: float
    precision: float
    short: bool
    """The ranking holds fewer than TOP papers while the list has more to rank (for_you
    lists only the papers that hold one of its terms)."""


def judged(rankers: Mapping[str, Ranker], ranked: RankedList, rows: csr_matrix,
           list_trials: Sequence[Trial]) -> list[Score]:
    """Every ranker on every trial of one list."""
    out = []
    full = min(TOP, len(ranked.docnums) - STARS)
    for trial in list_trials:
        for name, rank in rankers.items():
            ranking = rank(ranked, rows, trial)
            out.append(Score(name, trial, ap_at(ranking, trial.relevant),
                             precision_at(ranking, trial.relevant), len(ranking) < full))
    return out


def quality(library: Library, lists: Sequence[RankedList], args: argparse.Namespace,
            ) -> tuple[list[Score], list[str]]:
    """Every ranker's scores over the lists' topics, and the lists without topics."""
    import numpy as np

    # LinearSVC (random_state None, as the anchor calls it) draws from numpy's
    # global generator: seeded here, the anchor ranks the same on every run.
    np.random.seed(args.seed)
    stop_words = english_stop_words()
    rankers: dict[str, Ranker] = {"paperscope": paperscope(library),
                                  "anchor": by_scores(svm_scores),
                                  "rocchio": by_scores(centroid_scores),
                                  "random": shuffled(args.seed)}
    scores: list[Score] = []
    no_topics = []
    for ranked in lists:
        words = topic_words(ranked.titles.values(), stop_words)
        topics = sample_topics(words, args.topics_per_list, args.seed, ranked.file)
        if not topics:
            no_topics.append(f"{ranked.file} ({len(ranked.titles)} titles)")
            continue
        list_trials = trials(ranked, topics, args.trials, args.seed)
        scores += judged(rankers, ranked, list_rows(ranked), list_trials)
        print(f"  {ranked.file}: {', '.join(topics)}", file=sys.stderr, flush=True)
    return scores, no_topics


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return statistics.fmean(values) if values else float("nan")


def families(scores: Sequence[Score]) -> list[str]:
    return sorted({family_of(s.trial.file) for s in scores})


def quality_table(scores: Sequence[Score]) -> list[str]:
    """Markdown: a row per ranker; AP@100 and P@20 over all lists, then per family."""
    groups = ["all", *families(scores)]
    head = ["ranker"] + [f"{m} {g}" for g in groups for m in ("AP@100", "P@20")]
    rows = [head, ["---"] + ["---:"] * (len(head) - 1)]
    for name in RANKERS:
        cells = [name]
        for group in groups:
            mine = [s for s in scores if s.ranker == name
                    and group in ("all", family_of(s.trial.file))]
            cells += [f"{mean(s.ap for s in mine):.3f}", f"{mean(s.precision for s in mine):.3f}"]
        rows.append(cells)
    return ["| " + " | ".join(cells) + " |" for cells in rows]


def counts_line(scores: Sequence[Score]) -> str:
    """How many topics and rankings each column averages."""
    def count(group: str) -> str:
        mine = {s.trial for s in scores if group in ("all", family_of(s.trial.file))}
        return f"{group} {len({(t.file, t.topic) for t in mine})} ({len(mine)})"

    return "topics (rankings) per column: " + ", ".join(
        count(g) for g in ["all", *families(scores)])


def oddities(scores: Sequence[Score]) -> list[str]:
    """Topics where every ranker's AP@100 is 0 on every trial; short rankings."""
    by_topic: dict[tuple[str, str], list[float]] = defaultdict(list)
    for s in scores:
        by_topic[(s.trial.file, s.trial.topic)].append(s.ap)
    zero = [f"{f}:{t}" for (f, t), aps in sorted(by_topic.items()) if not any(aps)]
    out = [f"topics where every ranker's AP@100 is 0 on every trial: {len(zero)}"
           + (f" ({', '.join(zero)})" if zero else "")]
    for name in RANKERS:
        mine = [s for s in scores if s.ranker == name]
        if any(s.short for s in mine):
            out.append(f"{name} rankings shorter than min({TOP}, the list's other papers): "
                       f"{sum(s.short for s in mine)} of {len(mine)}")
    return out


def goal_lines(scores: Sequence[Score]) -> list[str]:
    out = []
    for (measure, factor), field in zip(GOALS, ("ap", "precision")):
        ours, theirs = (mean(getattr(s, field) for s in scores if s.ranker == name)
                        for name in ("paperscope", "anchor"))
        ratio = ours / theirs if theirs else float("inf")
        out.append(f"- {measure} ≥ {factor}× the anchor's: {ours:.3f} vs {theirs:.3f}: "
                   f"{ratio:.2f}×: {'met' if ratio >= factor else 'NOT met'}")
    return out


# -- the speed run ---------------------------------------------------------------------


def timed_ms(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def rerank_ms(size: int, sentences: list[str], seed: int, repeat: int, workdir: Path,
              ) -> tuple[list[float], list[float]]:
    """(paperscope's, the anchor's) ms per re-rank over `size` made abstracts."""
    lists = workdir / f"lists-{size}"
    shutil.rmtree(lists, ignore_errors=True)
    files = write_paragraph_lists(made_abstracts(sentences, size, seed), lists, PER_LIST)
    started = time.perf_counter()
    with open_library([str(lists)], str(workdir / f"index-{size}")) as library:
        if len(library) != size:
            raise SystemExit(f"interests.py: {len(library)} papers in the made lists, "
                             f"not {size}")
        print(f"  {size:,}: library open in {time.perf_counter() - started:.1f} s",
              file=sys.stderr, flush=True)
        started = time.perf_counter()
        rows = tfidf_rows(read_abstracts(files))
        print(f"  {size:,}: anchor's tf-idf ({rows.shape[1]:,} features) in "
              f"{time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
        first_row = {path.name: n * PER_LIST for n, path in enumerate(files)}
        ours, theirs = [], []
        for n in range(repeat):
            stars = random.Random(f"{seed}:rerank:{size}:{n}").sample(range(size), STARS + 1)
            for_you(library, stars[:STARS], limit=TOP)  # the list before the new star
            ours.append(timed_ms(lambda: for_you(library, stars, limit=TOP)))
            positives = [first_row[p.file] + p.position for p in map(library.paper, stars)]
            theirs.append(timed_ms(lambda: best_rows(svm_scores(rows, positives),
                                                     set(positives))))
    return ours, theirs


def speed_line(size: int, ours: list[float], theirs: list[float]) -> str:
    mine, anchor = statistics.median(ours), statistics.median(theirs)
    return (f"re-rank at {size:,}: paperscope {mine:.1f} ms (median of {len(ours)}), "
            f"anchor {anchor:.1f} ms: {mine / anchor:.3f}×")


def sizes(text: str) -> list[int]:
    """`--scale`: comma-separated positive sizes."""
    try:
        values = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not sizes: {text!r}") from None
    if not values or min(values) < STARS + 1:
        raise argparse.ArgumentTypeError(f"need sizes of at least {STARS + 1}: {text!r}")
    return values


def outside(path: Path, flag: str) -> None:
    """SystemExit (status 2) when `path` is inside the checkout: the corpora stay out."""
    if path.resolve().is_relative_to(ROOT):
        print(f"interests.py: {flag} must be outside the checkout ({ROOT})", file=sys.stderr)
        raise SystemExit(2)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=shared("corpora"))
    parser.add_argument("--lists", help="only these lists: file names or globs, comma-separated")
    parser.add_argument("--topics-per-list", type=int, default=5)
    parser.add_argument("--trials", type=int, default=3, help="star sets per topic")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--index-dir", type=Path,
                        help="keep the corpora's index here (default: a temporary folder)")
    parser.add_argument("--scale", type=sizes, default=[25_000, 250_000],
                        help="made-corpus sizes for the re-rank timing, comma-separated")
    parser.add_argument("--no-scale", action="store_true", help="leave out the timing")
    parser.add_argument("--repeat", type=int, default=5, help="star sets timed per size")
    parser.add_argument("--reader-rounds", type=int, default=3,
                        help="rounds of the reader's keys per size (0: no reader)")
    parser.add_argument("--reader-runs", type=int, default=3,
                        help="readers whose keystroke p95s make the budget")
    parser.add_argument("--workdir", type=Path,
                        help="where the made lists and their indexes go (kept); "
                             "default: a temporary folder")
    given = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(given)
    if args.topics_per_list < 1 or args.trials < 1 or args.repeat < 1:
        parser.error("need --topics-per-list, --trials and --repeat >= 1")
    if args.reader_rounds < 0 or args.reader_runs < 1:
        parser.error("need --reader-rounds >= 0 and --reader-runs >= 1")
    require(args.corpora, "interests.py", "corpora", "--corpora")
    for path, flag in ((args.index_dir, "--index-dir"), (args.workdir, "--workdir")):
        if path is not None:
            outside(path, flag)
    files = chosen_files(args.corpora, args.lists)
    print(f"run: python bench/interests.py {shlex.join(given)}".rstrip())
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"load average {load()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="paperscope-interests-") as tmp:
        started = time.perf_counter()
        with open_library([str(args.corpora)], str(args.index_dir or tmp)) as library:
            print(f"  {len(library):,} papers open in {time.perf_counter() - started:.1f} s",
                  file=sys.stderr, flush=True)
            started = time.perf_counter()
            scores, no_topics = quality(library, ranked_lists(library, files), args)
        if not scores:
            print("interests.py: no list has a topic", file=sys.stderr)
            return 2
        print(f"\ninterests: {len(files)} lists of {args.corpora}, seed {args.seed}, "
              f"{args.topics_per_list} topics per list, {args.trials} trials, {STARS} "
              f"starred, in {time.perf_counter() - started:.0f} s")
        print(counts_line(scores))
        if no_topics:
            print(f"lists without a topic: {', '.join(no_topics)}")
        print("\n".join(["", *quality_table(scores), "", *oddities(scores)]), flush=True)
    lines = []
    if not args.no_scale:
        workdir = args.workdir or Path(tempfile.mkdtemp(prefix="paperscope-interests-"))
        workdir.mkdir(parents=True, exist_ok=True)
        try:
            sentences = corpus_sentences(args.corpora)
            lines = [speed_line(size, *rerank_ms(size, sentences, args.seed, args.repeat,
                                                 workdir)) for size in args.scale]
            if args.reader_rounds:
                lines += ["", *reader_lines(workdir, args.scale, args.reader_rounds,
                                            args.reader_runs)]
        finally:
            if args.workdir is None:
                shutil.rmtree(workdir, ignore_errors=True)
    print("\n".join(["", *lines, *([""] if lines else []), *goal_lines(scores)]))
    print(f"\nload average at the end: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
