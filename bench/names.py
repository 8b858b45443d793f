"""How well paperscope names papers: against a careful reading, and against real titles.

Run from the repository root::

    python bench/names.py [--labels ../shared/names/names_dev.jsonl]
        [--corpora ../shared/corpora] [--half all|a|b] [--verbose] [--no-titles]
        [--unlabelled N] [--samples 15] [--seeds seeds]

**Headline: the labelled abstracts.** Each abstract of the label file (see
``bench/name_labels.py`` for its format and for the comparison: case, hyphens and spaces
forgiven, nothing else) is read from its corpus file and named by the product's own
``tui.core.lists.paragraphs.make_paper``. Printed for the whole file and for its two
fixed halves (seed 12; half A is the one to develop on, half B is checked now and then): abstracts,
how many have a primary name, names derived, right names, precision (right / derived)
and recall (right / abstracts with a primary). ``--half a`` (or ``b``) prints only that
half, so that developing on A does not show B. ``--verbose`` lists every miss and wrong
name of the half shown, with the label, then the title-based samples and the seeds.

**Secondary: real titles.** Every corpus abstract with a ``*.titles.jsonl`` title is
named through ``tui.core.lists.paragraphs.read_list`` and judged against its title
(``bench/names_titles.py``). Titles are a weak reference (correct names that the title
does not use count as wrong), so this is one line; ``--no-titles`` skips it (it reads
all 21k abstracts, about a minute).

**Reading outside the labels.** ``--unlabelled N`` prints the names derived for N
seeded random corpus abstracts outside the label file that get one, each with the
sentence that introduces it, to be read by eye for new wrong names.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from the repository root

from bench.material import require, shared  # noqa: E402
from bench.name_labels import (  # noqa: E402
    Label, LabelError, LabelScore, read_labels, score_names, split_halves,
)
from bench.names_titles import (  # noqa: E402
    Tally, corpus_papers, judge, report_titles, title_figures,
)
from tui.core.lists.paragraphs import (  # noqa: E402
    SeedError, decode, looks_like_title, make_paper, paragraphs, read_list,
)
from tui.core.naming.derive import derive_name, derive_title  # noqa: E402
from tui.core.naming.text import split_sentences  # noqa: E402
from tui.core.render.text import render  # noqa: E402

DEFAULT_LABELS = shared("names", "names_dev.jsonl")
DEFAULT_CORPORA = shared("corpora")
HALF_SEED = 12


def abstracts_of(path: Path) -> tuple[str, list[str]]:
    """A list file's title and raw abstracts, split as ``read_list`` splits a list that
    opens with a title line (as the corpora do), without naming every abstract."""
    paras = paragraphs(decode(path.read_bytes(), str(path)))
    if paras and looks_like_title(paras[0], 1):
        return paras[0], paras[1:]
    return path.stem, paras


def labelled_names(corpora: Path, labels: Sequence[Label]) -> list[tuple[Label, str]]:
    """(label, derived name) for every label, each abstract named by ``make_paper``."""
    files: dict[str, tuple[str, list[str]]] = {}
    pairs = []
    for label in labels:
        if label.file not in files:
            files[label.file] = abstracts_of(corpora / label.file)
        title, raws = files[label.file]
        if not 0 <= label.position < len(raws):
            raise LabelError(f"{label.where}: no such abstract in {corpora / label.file}")
        paper = make_paper(raws[label.position], title, label.file, label.position)
        pairs.append((label, paper.name))
    return pairs


def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def print_table(rows: Sequence[tuple[str, LabelScore]]) -> None:
    """One line per set of labels: counts, precision and recall."""
    print(f"{'labelled set':<14}{'abstracts':>10}{'primary':>9}{'derived':>9}{'right':>7}"
          f"{'precision':>11}{'recall':>8}")
    for name, result in rows:
        print(f"{name:<14}{result.labelled:>10}{result.with_primary:>9}{result.derived:>9}"
              f"{result.right:>7}{_figure(result.precision):>11}{_figure(result.recall):>8}")


def print_errors(result: LabelScore) -> None:
    """Every miss and wrong name, with what the label says."""
    print(f"\n-- misses ({len(result.misses)}): abstracts with a primary and no right name --")
    for label, derived in result.misses:
        also = f"  also {list(label.also)}" if label.also else ""
        print(f"{label.where:<22} want {label.primary!r}  got {derived!r}{also}"
              f"  [{label.confidence}]")
    print(f"\n-- wrong names ({len(result.wrong)}): derived, but not the primary or an also --")
    for label, derived in result.wrong:
        print(f"{label.where:<22} got {derived!r}  want {label.primary!r}")


def print_unlabelled(corpora: Path, labels: Sequence[Label], count: int) -> None:
    """Names derived for ``count`` seeded random abstracts outside the labels."""
    taken = {(label.file, label.position) for label in labels}
    places = []
    files = {}
    for path in sorted(corpora.glob("*.txt")):
        files[path.name] = abstracts_of(path)
        places += [(path.name, i) for i in range(len(files[path.name][1]))]
    rng = random.Random(HALF_SEED)
    rng.shuffle(places)
    print(f"\n-- names derived outside the labels ({count}, seed {HALF_SEED}) --")
    shown = 0
    for file, position in places:
        if shown >= count:
            break
        if (file, position) in taken:
            continue
        title, raws = files[file]
        paper = make_paper(raws[position], title, file, position)
        if not paper.name:
            continue
        shown += 1
        sentence = next(
            (s for s in split_sentences(render(paper.raw).text) if paper.name in s), ""
        )
        print(f"{file}:{position:<5} {paper.name!r:<26} | {sentence[:200]}")


def title_pass(corpora: Path, verbose: bool, samples: int) -> None:
    """The secondary, title-based figures over every titled corpus abstract."""
    tally, seconds = Tally(), 0.0
    for where, paper, title in corpus_papers(corpora):
        text = render(paper.raw).text
        judge(tally, where, text, title, paper.name)
        # Timed apart from reading and rendering, which belong to other modules.
        started = time.perf_counter()
        derive_title(text, derive_name(text))
        seconds += time.perf_counter() - started
    print(title_figures(tally))
    print(f"naming time: {seconds:.1f}s for derive_name + derive_title on every titled abstract")
    if verbose:
        report_titles(tally, samples)


def print_seeds(seeds: Path) -> None:
    """Every bundled abstract's derived name and title, for checking by eye."""
    print("\n-- seeds: file:position  name  title --")
    for path in sorted(seeds.glob("*.txt")):
        for paper in read_list(path).papers:
            print(f"{path.name}:{paper.position:<3} {paper.name or '-':<25} {paper.title}")


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, print the labelled table, then the secondary line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    parser.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    parser.add_argument("--half", choices=("all", "a", "b"), default="all",
                        help="which labelled half to show (a: develop, b: check)")
    parser.add_argument("--verbose", action="store_true", help="list misses and wrong names")
    parser.add_argument("--no-titles", action="store_true", help="skip the title-based line")
    parser.add_argument("--unlabelled", type=int, default=0, metavar="N",
                        help="show N derived names outside the labels")
    parser.add_argument("--samples", type=int, default=15, help="title-based examples shown")
    parser.add_argument("--seeds", type=Path, default=ROOT / "seeds")
    args = parser.parse_args(argv)
    require(args.labels, "names.py", "labelled names", "--labels")
    require(args.corpora, "names.py", "corpora", "--corpora")
    try:
        labels = read_labels(args.labels)
        scored = labelled_names(args.corpora, labels)
    except (LabelError, SeedError, OSError) as error:
        print(f"names: {error}", file=sys.stderr)
        return 2
    by_place = {label.where: derived for label, derived in scored}
    half_a, half_b = split_halves(labels, HALF_SEED)
    sets = {"a": [("half A", half_a)], "b": [("half B", half_b)],
            "all": [("whole", labels), ("half A", half_a), ("half B", half_b)]}[args.half]
    results = [(name, score_names((label, by_place[label.where]) for label in chosen))
               for name, chosen in sets]
    print(f"labels: {args.labels.name} ({len(labels)} abstracts); halves seeded {HALF_SEED}")
    print_table(results)
    if args.verbose:
        print_errors(results[0][1])
    if args.unlabelled:
        print_unlabelled(args.corpora, labels, args.unlabelled)
    if not args.no_titles:
        print()
        title_pass(args.corpora, args.verbose, args.samples)
    if args.verbose:
        print_seeds(args.seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
