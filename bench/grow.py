"""A library that grows: the time to add one list, incrementally and from scratch.

    python bench/grow.py [--corpora ../shared/corpora] [--add 2000] [--runs 3]

The library is every `*.txt` list of the corpora; the list added is made of `--add`
abstracts taken from them (so its words are the library's). Each run times, with the
product's own `open_library`, in fresh index roots:

- incremental: the library indexed, then the library plus the new list (timed);
- change: then one list of the library, in its middle, loses its first abstract;
- remove: then the new list is removed again;
- remove shared: then the changed list too, which shares its segment with others (its
  papers are marked deleted there, see `reuse`);
- full: the library plus the new list, from scratch (`rebuild`);
- alone: the new list by itself;

and then the query time (`search` as typed, posting cache emptied before each query)
over the incremental index and over the full one. Figures are medians of the runs.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.material import require, shared  # noqa: E402
from bench.engine import QUERIES  # noqa: E402
from tui.core.index.library import Library, open_library  # noqa: E402
from tui.core.search.search import search  # noqa: E402


def new_list(corpora: Path, folder: Path, count: int, seed: int = 7) -> Path:
    """A list of `count` abstracts drawn from the corpora."""
    paragraphs = [p for f in sorted(corpora.glob("*.txt"))
                  for p in f.read_text(encoding="utf-8").split("\n\n")[1:] if p.strip()]
    chosen = random.Random(seed).sample(paragraphs, count)
    path = folder / "zz-added.txt"
    path.write_text("\n\n".join(["Added Papers", *chosen]) + "\n", encoding="utf-8")
    return path


def timed_open(files: list[Path], root: Path, rebuild: bool = False) -> tuple[float, Library]:
    started = time.perf_counter()
    library = open_library(files, str(root), rebuild=rebuild)
    return time.perf_counter() - started, library


def query_ms(library: Library) -> float:
    """Median time of the benchmark's queries, each with an empty posting cache."""
    search(library, "warm up")
    times = []
    for query in QUERIES:
        library.__dict__.pop("scorer", None)
        times.append(search(library, query, limit=20, typing=True).elapsed_ms)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", type=Path, default=shared("corpora"))
    parser.add_argument("--add", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    require(args.corpora, "grow.py", "corpora", "--corpora")
    corpus = sorted(args.corpora.glob("*.txt"))
    figures: dict[str, list[float]] = {k: [] for k in (
        "incremental", "change", "remove", "remove shared", "full", "alone",
        "query incremental", "query full")}
    for run in range(args.runs):
        work = Path(tempfile.mkdtemp(prefix="grow-"))
        try:
            added = new_list(args.corpora, work, args.add, seed=run)
            (work / "lists").mkdir()
            for path in corpus:
                shutil.copyfile(path, work / "lists" / path.name)
            lists = sorted((work / "lists").glob("*.txt"))
            _, library = timed_open(lists, work / "inc")
            papers = len(library)
            library.close()
            seconds, library = timed_open([*lists, added], work / "inc")
            segments = len(library.searcher.reader().leaf_readers())
            figures["incremental"].append(seconds)
            figures["query incremental"].append(query_ms(library))
            library.close()
            middle = lists[len(lists) // 2]
            title, _, rest = middle.read_text(encoding="utf-8").split("\n\n", 2)
            middle.write_text(title + "\n\n" + rest, encoding="utf-8")
            seconds, library = timed_open([*lists, added], work / "inc")
            figures["change"].append(seconds)
            library.close()
            seconds, library = timed_open(lists, work / "inc")
            figures["remove"].append(seconds)
            library.close()
            seconds, library = timed_open([p for p in lists if p != middle], work / "inc")
            figures["remove shared"].append(seconds)
            library.close()
            seconds, library = timed_open([*lists, added], work / "full", rebuild=True)
            figures["full"].append(seconds)
            full_segments = len(library.searcher.reader().leaf_readers())
            figures["query full"].append(query_ms(library))
            library.close()
            seconds, library = timed_open([added], work / "alone")
            figures["alone"].append(seconds)
            library.close()
            print(f"run {run + 1}: library {papers} papers, +{args.add}; "
                  + ", ".join(f"{k} {v[-1]:.2f}" for k, v in figures.items())
                  + f"; segments {segments} incremental, {full_segments} full", flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print("medians (seconds; query: ms):")
    for name, values in figures.items():
        print(f"  {name:18} {statistics.median(values):8.2f}")


if __name__ == "__main__":
    main()
