"""Lookup benchmark: "which paper was that?", asked of the product's own search.

    python bench/lookup.py [--corpora ../shared/corpora] [--samples 400] [--typed 100]
                           [--seed 7] [--index-dir DIR]

Known-item search over every list of `--corpora` (seed lists with `<name>.titles.jsonl`
sidecars: position -> the paper's real title). Titles are never indexed, as in real
lists, so each query is built from a sampled paper's real title, and the wanted answer
is that paper (or a copy of it in another list):

- full: the whole title, as pasted from a reference list;
- vague: three of its content words (seeded choice, in title order), a vague memory;
- typed: the title typed a character at a time, searching as the reader does while
  typing; counted are the keystrokes until the paper is in the top 5.

paperscope answers through `tui.core.search.search`, the function the reader and
`paperscope search` call, with the command line's defaults (`--as-typed` for the typed
row, the reader's typing search). Beside it, over the same rendered abstracts in the
same document order: plain BM25 (Lucene's formula, k1 1.2, b 0.75, `bench/peers.py`)
and SQLite FTS5 (bm25, the words OR-ed; the last word a prefix in the typed row).

Printed: success@1, success@10 and MRR@10 per kind and engine; for the typed row, the
share found within the title, and the median and mean keystrokes and share of the
title typed (a paper never found counts as the whole title). Seeded: the same command
prints the same figures.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.material import require, shared  # noqa: E402
from bench.metrics import Lookup, first_rank, lookup_scores  # noqa: E402
from bench.peers import Fts5, PlainBM25  # noqa: E402
from tui.core.index.library import Library, open_library  # noqa: E402
from tui.core.search.search import search  # noqa: E402
from tui.core.render.plain import rendered_text  # noqa: E402

DEFAULT_CORPORA = shared("corpora")
TOP_TYPED = 5
"""The typed row's target: the paper among the first this many results."""
READER_LIMIT = 1000
"""The reader's limit while typing (its settings' search_limit)."""
VAGUE_WORDS = 3
_WORD = re.compile(r"[^\W\d_][\w'-]*")
# Function words and the words that every title of the field uses: a memory of a title
# keeps its topic words, not these.
STOP_WORDS = frozenset("""
a an and are as at be by for from has have how in into is it its of on or over than that
the their this to towards toward under using via what when where which while with without
we our can do does not new based
""".split())


def read_titles(corpora: Path) -> dict[tuple[str, int], str]:
    """(list file name, position) -> real title, from every titles sidecar."""
    titles: dict[tuple[str, int], str] = {}
    for sidecar in sorted(corpora.glob("*.titles.jsonl")):
        name = sidecar.name.removesuffix(".titles.jsonl") + ".txt"
        for line in sidecar.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                if str(record.get("title") or "").strip():
                    titles[(name, int(record["i"]))] = record["title"].strip()
    return titles


def family(list_file: str) -> str:
    """A list file's venue family: its name's leading letters (`neurips2018.txt` → neurips)."""
    found = re.match(r"[^\W\d_]+", list_file)
    return found.group(0).lower() if found else list_file


def content_words(title: str) -> list[str]:
    """The title's words that carry its topic, in order (no stop words, 3+ letters)."""
    return [w for w in _WORD.findall(title) if len(w) >= 3 and w.lower() not in STOP_WORDS]


class Sample:
    """One wanted paper: its title, the vague query made from it, and its docnums."""

    def __init__(self, title: str, targets: frozenset[int], vague: str | None,
                 family: str = "") -> None:
        self.title = title
        self.family = family
        """The venue family of the list it was drawn from (`family`)."""
        self.targets = targets
        """Every docnum holding this paper (the same abstract may be in several lists)."""
        self.vague = vague


def draw(library: Library, titles: dict[tuple[str, int], str], n: int, seed: int) -> list[Sample]:
    """`n` papers with a real title, seeded, with their vague queries."""
    by_id: dict[str, set[int]] = {}
    located: dict[tuple[str, int], int] = {}
    for docnum, paper in enumerate(library.papers()):
        by_id.setdefault(paper.id, set()).add(docnum)
        located[(paper.file, paper.position)] = docnum
    keys = sorted(k for k in titles if k in located)
    rng = random.Random(seed)
    chosen = rng.sample(keys, min(n, len(keys)))
    samples = []
    for key in chosen:
        docnum = located[key]
        words = content_words(titles[key])
        vague = None
        if len(words) >= VAGUE_WORDS:
            picked = sorted(rng.sample(range(len(words)), VAGUE_WORDS))
            vague = " ".join(words[i] for i in picked)
        samples.append(Sample(titles[key], frozenset(by_id[library.paper(docnum).id]), vague,
                              family(key[0])))
    return samples


Engine = Callable[[str], Sequence[int]]
"""A query -> ranked docnums (at least the top 10)."""


def submitted(library: Library) -> Engine:
    return lambda q: [h.docnum for h in search(library, q, limit=10).hits]


def as_typed(library: Library) -> Engine:
    return lambda q: [h.docnum for h in search(library, q, limit=READER_LIMIT, typing=True,
                                               rescue=False).hits[:TOP_TYPED]]


def known_item(engine: Engine, queries: Sequence[tuple[str, frozenset[int]]]) -> Lookup:
    return lookup_scores([first_rank(engine(q), targets) for q, targets in queries])


def keystrokes(engine: Engine, title: str, targets: frozenset[int]) -> int | None:
    """Characters typed until a target is in the top TOP_TYPED (None: never)."""
    for n in range(1, len(title) + 1):
        typed = title[:n]
        if typed[-1].isspace():
            continue  # a space adds no word: the reader's answer stays as it was
        if first_rank(list(engine(typed))[:TOP_TYPED], targets) is not None:
            return n
    return None


def typed_row(engine: Engine, samples: Sequence[Sample]) -> dict[str, float]:
    counts, shares, found = [], [], 0
    for s in samples:
        n = keystrokes(engine, s.title, s.targets)
        found += n is not None
        counts.append(n if n is not None else len(s.title))
        shares.append((n if n is not None else len(s.title)) / len(s.title))
    return {"titles": len(samples), "found": found / len(samples) if samples else float("nan"),
            "median": statistics.median(counts) if counts else float("nan"),
            "mean": statistics.fmean(counts) if counts else float("nan"),
            "share": statistics.median(shares) if shares else float("nan")}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    parser.add_argument("--samples", type=int, default=400, help="papers looked up")
    parser.add_argument("--typed", type=int, default=100,
                        help="of them, how many are typed a character at a time")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--index-dir", type=Path, default=None,
                        help="keep paperscope's index here (default: a temporary folder)")
    args = parser.parse_args(argv)
    require(args.corpora, "lookup.py", "corpora", "--corpora")
    titles = read_titles(args.corpora)
    if not titles:
        print(f"lookup: no *.titles.jsonl with titles in {args.corpora}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        index_dir = args.index_dir or Path(tmp)
        started = time.perf_counter()
        library = open_library([args.corpora], index_dir=str(index_dir))
        print(f"  paperscope: {len(library)} papers open in "
              f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
        with library:
            samples = draw(library, titles, args.samples, args.seed)
            texts = [rendered_text(p.raw) for p in library.papers()]
            bm25, fts5 = PlainBM25(texts), Fts5(texts)
            engines: dict[str, Engine] = {
                "paperscope": submitted(library),
                "plain BM25": lambda q: bm25.search(q, 10),
                "SQLite FTS5": lambda q: fts5.search(q, 10),
            }
            kinds = {
                "full": [(s.title, s.targets) for s in samples],
                "vague": [(s.vague, s.targets) for s in samples if s.vague],
            }
            print(f"lookup: {len(samples)} titles of {len(library):,} abstracts "
                  f"({args.corpora.name}), seed {args.seed}")
            header = f"{'kind':<6} {'engine':<12} {'queries':>7} {'success@1':>9} " \
                     f"{'success@10':>10} {'MRR@10':>7}"
            print(header)
            print("-" * len(header))
            for kind, queries in kinds.items():
                for name, engine in engines.items():
                    s = known_item(engine, queries)
                    print(f"{kind:<6} {name:<12} {s.queries:>7} {s.success_at_1:>9.3f} "
                          f"{s.success_at_10:>10.3f} {s.mrr_at_10:>7.3f}")
            families = sorted({s.family for s in samples})
            if len(families) > 1:
                print()
                print("paperscope by venue family (success@1 / MRR@10)")
                print(f"{'family':<10} {'full':>6} {'S@1':>7} {'MRR@10':>7} "
                      f"{'vague':>6} {'S@1':>7} {'MRR@10':>7}")
                for name in families:
                    mine = [s for s in samples if s.family == name]
                    full = known_item(engines["paperscope"], [(s.title, s.targets) for s in mine])
                    vague = known_item(engines["paperscope"],
                                       [(s.vague, s.targets) for s in mine if s.vague])
                    print(f"{name:<10} {full.queries:>6} {full.success_at_1:>7.3f} "
                          f"{full.mrr_at_10:>7.3f} {vague.queries:>6} "
                          f"{vague.success_at_1:>7.3f} {vague.mrr_at_10:>7.3f}")
            typed = samples[:args.typed]
            if typed:  # --typed 0 leaves the typed row out
                print()
                print(f"typed, a character at a time, until the paper is in the top {TOP_TYPED}")
                header = f"{'engine':<12} {'titles':>6} {'found':>6} {'median keys':>11} " \
                         f"{'mean keys':>9} {'median share':>12}"
                print(header)
                print("-" * len(header))
                fts5_typed = lambda q: fts5.search(q, TOP_TYPED, prefix=True)  # noqa: E731
                for name, engine in (("paperscope", as_typed(library)),
                                     ("SQLite FTS5", fts5_typed)):
                    row = typed_row(engine, typed)
                    print(f"{name:<12} {row['titles']:>6} {row['found']:>6.3f} "
                          f"{row['median']:>11.1f} {row['mean']:>9.1f} {row['share']:>12.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
