"""Top-k benchmark: the search with pruned top-k retrieval against the exhaustive scorer.

    python bench/topk.py LISTS INDEX [LISTS INDEX ...] [--repeat 5] [--limit 20]

Each LISTS folder is opened (built where needed) with its INDEX folder, and
`bench/engine.py`'s queries are searched as the reader searches while they are typed,
through the one search function, both ways: pruned (`topk`, as shipped) and exhaustive
(`Library.top` answering None, so `search` scores every match as it did before). For
each query and round the libraries and the two ways take turns, in an order that
alternates from round to round, so that load drifts hit all alike; each pair of
results is checked to be the same hits, scores and count. Figures are medians (ms);
with two sizes or more, the growth of the median from the first to the last is printed
for both ways (issue 16's goal: at most 2x from 25k to 250k papers).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.engine import QUERIES  # noqa: E402
from tui.core.index.library import Library, open_library  # noqa: E402
from tui.core.search.search import search  # noqa: E402

WAYS = ("pruned", "exhaustive")


def _exhaustive(self: Library, q: object, k: int) -> None:
    return None


def timed(library: Library, query: str, way: str, limit: int) -> tuple[float, object]:
    """(ms, what was found) of one search, pruned or exhaustive."""
    pruned = Library.top
    if way == "exhaustive":
        Library.top = _exhaustive  # type: ignore[method-assign]
    try:
        result = search(library, query, limit=limit, typing=True)
    finally:
        Library.top = pruned  # type: ignore[method-assign]
    found = ([(h.docnum, h.score) for h in result.hits], result.total)
    return result.elapsed_ms, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", help="LISTS INDEX pairs")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--limit", type=int, default=20)
    args = parser.parse_args()
    if len(args.folders) % 2:
        parser.error("give LISTS INDEX pairs")
    pairs = list(zip(args.folders[::2], args.folders[1::2]))
    libraries = [open_library([lists], index) for lists, index in pairs]
    print(f"machine: {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    turns = [(n, way) for n in range(len(libraries)) for way in WAYS]
    times: dict[tuple[int, str], list[float]] = {turn: [] for turn in turns}
    differ = 0
    for library in libraries:  # warm: lists read, split parts and byte maps made
        for query in QUERIES:
            for way in WAYS:
                timed(library, query, way, args.limit)
    for round_ in range(args.repeat):
        for query in QUERIES:
            found = {}
            for n, way in turns if round_ % 2 == 0 else turns[::-1]:
                ms, found[n, way] = timed(libraries[n], query, way, args.limit)
                times[n, way].append(ms)
            differ += sum(found[n, "pruned"] != found[n, "exhaustive"]
                          for n in range(len(libraries)))
    medians = {turn: statistics.median(values) for turn, values in times.items()}
    for n, library in enumerate(libraries):
        print(f"{len(library):>9,} papers: exhaustive {medians[n, 'exhaustive']:.1f} ms, "
              f"pruned {medians[n, 'pruned']:.1f} ms (median of {len(QUERIES)} queries "
              f"x {args.repeat}, typed, limit {args.limit})")
    if len(libraries) > 1:
        last = len(libraries) - 1
        for way in WAYS:
            print(f"  growth {len(libraries[0]):,} -> {len(libraries[last]):,}, {way}: "
                  f"{medians[last, way] / medians[0, way]:.2f}x")
    print(f"results that differ between the two ways: {differ}")
    for library in libraries:
        library.close()


if __name__ == "__main__":
    main()
