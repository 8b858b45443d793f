"""Scale benchmark: paperscope on N made abstracts, beside SQLite FTS5 and tantivy, and
the same at a base size, so that growth shows as a ratio.

    python bench/scale.py [--size 250000] [--base 25000] [--per-list 2000] [--seed 16]
                          [--workdir DIR] [--corpora ../shared/corpora] [--repeat 2]
                          [--runs 3] [--startup-runs 21] [--queries 6] [--action-rounds 5]
                          [--key-runs 3]

For each size (the base first), in one run:

1. A corpus of that many made abstracts (`bench/corpus.py`: each joins 6 to 10
   sentences of the corpora's own abstracts, seeded; the base corpus is the first
   abstracts of the larger one), written outside the checkout as paragraph lists of
   `--per-list` papers each, like a library of many conference lists.
2. The build, with paperscope's own builder in a fresh process: seconds, papers/s, the
   peak memory of the build's processes (summed, sampled from /proc every 50 ms) and of
   its largest process (its own peak: `bench/rss.py`), and the index's size on disk.
3. Per-query latency, median and p95, through the one search function: over typed
   prefixes (`t`, `tr`, ... `transformer`, each query of `bench/reader_probe.py` typed a
   character at a time, searched as the reader searches on a keystroke: the last word
   also a prefix, the count exact up to `searching.COUNT_UP_TO`) and over whole
   queries (`bench/engine.py`'s queries of two words or more, as `paperscope search`
   takes them). SQLite FTS5 and tantivy (where the package is installed) index the same
   abstracts, read back from the same files, and answer the same queries (`bench/peers.py`:
   the words OR-ed, the last one a prefix while typing).
4. A cold `paperscope search kernel` against a bare `python -c pass`.
5. The reader, measured by `bench/reader_probe.py` as `bench/reader.py` measures it:
   keystroke → frame with the repainted list (and the search's part; `--key-runs` fresh
   readers, the p95 the median of theirs, as one run's moves by a third), the first frame
   with rows and the lists open against a minimal Textual app, and the peak memory of
   an open reader that searches and pages through every paper; and by
   `bench/reader_actions.py`, the reading keys that list papers anew: sort (`S`), filter
   (`f`) and similar papers (`r`, Esc back), on every paper and on a query, key → frame
   with the repainted list, `--action-rounds` rounds.

The table at the end is Markdown, to paste into a note. Figures are medians of one run
on a shared machine: compare ratios within a run; the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import engine, reader_actions, reader_probe  # noqa: E402
from bench.material import require, shared  # noqa: E402
from bench.builds import cold_searches, folder_bytes, timed_paperscope_build  # noqa: E402
from bench.corpus import (  # noqa: E402
    corpus_sentences, made_abstracts, read_abstracts, write_paragraph_lists,
)
from bench.peers import Fts5, Tantivy, tantivy_installed  # noqa: E402
from bench.reader_probe import percentile  # noqa: E402

WHOLE_QUERIES = [q for q in engine.QUERIES if " " in q]
"""Whole queries: the engine benchmark's queries of two words or more."""


def typed_prefixes(queries: list[str]) -> list[str]:
    """Every prefix of each query, as it is typed one character at a time."""
    return [query[:end] for query in queries for end in range(1, len(query) + 1)]


SHORT_TYPED = 2
"""A typed prefix of one word of up to this many letters (`t`, `tr`): the prefixes the
index keeps the best papers of (`tui/core/index/prefixtops.py`), shown apart."""


def short_typed(values: list[float], typed: list[str]) -> list[float]:
    """Of `values` (one per typed prefix, `typed` in order, round after round), those of
    the prefixes of one word of up to SHORT_TYPED letters, no space typed after it."""
    return [ms for i, ms in enumerate(values)
            if len(typed[i % len(typed)]) <= SHORT_TYPED and " " not in typed[i % len(typed)]]


@dataclass
class Size:
    """What was measured at one corpus size; times in ms unless named otherwise."""

    papers: int
    build_s: float = 0.0
    tree_peak_mb: float = 0.0
    """The build's processes, summed (see `bench/builds.py`)."""
    largest_mb: float = 0.0
    disk_mb: float = 0.0
    typed: list[float] = field(default_factory=list)
    """One search per typed prefix, per round."""
    typed_short: list[float] = field(default_factory=list)
    """Those of one word of up to SHORT_TYPED letters."""
    whole: list[float] = field(default_factory=list)
    cold: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)
    peers: dict[str, dict[str, object]] = field(default_factory=dict)
    """Per peer: build_s, typed and whole (ms lists), disk_mb (None in memory)."""
    keystroke: list[float] = field(default_factory=list)
    """Every keystroke of every run (`--key-runs`), ms."""
    keystroke_search: list[float] = field(default_factory=list)
    keystroke_p95s: list[float] = field(default_factory=list)
    """Each run's keystroke p95: the goal takes their median (`key_p95`)."""
    startup: reader_probe.Startup = reader_probe.Startup(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    reader_mb: float = 0.0
    actions: dict[str, list[float]] = field(default_factory=dict)
    """Per reader action (`bench/reader_actions.py`'s names): key → painted list, ms."""
    actions_timed_out: list[str] = field(default_factory=list)
    """The actions whose list was not repainted in time, once per time."""

    def action_ms(self, kind: str) -> list[float]:
        """Every figure of one kind of action (sort, filter, similar)."""
        return [ms for name, values in self.actions.items()
                if reader_actions.kind_of(name) == kind for ms in values]


def timed_queries(run: Callable[[str, bool], float], typed: list[str], repeat: int,
                  ) -> tuple[list[float], list[float]]:
    """(ms per typed prefix, ms per whole query) of `run(query, typing)`, `repeat` rounds."""
    run("warm up", False)
    typed_ms, whole_ms = [], []
    for _ in range(repeat):
        typed_ms += [run(query, True) for query in typed]
        whole_ms += [run(query, False) for query in WHOLE_QUERIES]
    return typed_ms, whole_ms


def wall_ms(search: Callable[..., object]) -> Callable[[str, bool], float]:
    """A peer's search(query, limit, prefix), timed on the wall clock."""

    def run(query: str, typing: bool) -> float:
        started = time.perf_counter()
        search(query, 20, prefix=typing)
        return (time.perf_counter() - started) * 1000

    return run


def measure_build(result: Size, lists: Path, index_dir: Path) -> None:
    """Build time, peak memory and size on disk of a build from scratch."""
    timed = timed_paperscope_build([lists], index_dir)
    result.build_s = timed.seconds
    result.tree_peak_mb, result.largest_mb = timed.tree_peak_kb / 1024, timed.largest_kb / 1024
    result.disk_mb = folder_bytes(index_dir) / 2**20
    print(f"  paperscope: built in {timed.seconds:.1f} s ({result.papers / timed.seconds:,.0f}"
          f"/s), peak {result.tree_peak_mb:.0f} MB (largest process {result.largest_mb:.0f} "
          f"MB), {result.disk_mb:.0f} MB on disk", flush=True)


def measure_paperscope(result: Size, lists: Path, index_dir: Path, typed: list[str],
                       repeat: int, runs: int) -> None:
    """Build, size on disk, per-query latency and the cold search."""
    from tui.core.index.library import open_library
    from tui.core.search.search import search

    measure_build(result, lists, index_dir)
    from tui.app.searching import COUNT_UP_TO

    with open_library([str(lists)], str(index_dir)) as library:
        def run(query: str, typing: bool) -> float:
            # Typed as the reader searches on a keystroke: its count bounded.
            return search(library, query, limit=20, typing=typing,
                          count_up_to=COUNT_UP_TO if typing else None).elapsed_ms

        result.typed, result.whole = timed_queries(run, typed, repeat)
        result.typed_short = short_typed(result.typed, typed)
    result.cold, result.bare = cold_searches([str(lists)], index_dir, runs)


def measure_peers(result: Size, files: list[Path], workdir: Path, typed: list[str],
                  repeat: int) -> None:
    """SQLite FTS5 and tantivy (where installed) on the same abstracts and queries."""
    makers: dict[str, Callable[[], object]] = {"FTS5": lambda: Fts5(read_abstracts(files))}
    if tantivy_installed():
        folder = workdir / f"tantivy-{result.papers}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        makers["tantivy"] = lambda: Tantivy(read_abstracts(files), folder)
    for name, make in makers.items():
        started = time.perf_counter()
        peer = make()
        build_s = time.perf_counter() - started
        peer_typed, peer_whole = timed_queries(wall_ms(peer.search), typed, repeat)
        on_disk = getattr(peer, "folder", None)
        result.peers[name] = {"build_s": build_s, "typed": peer_typed, "whole": peer_whole,
                              "typed_short": short_typed(peer_typed, typed),
                              "disk_mb": folder_bytes(on_disk) / 2**20 if on_disk else None}
        print(f"  {name}: built in {build_s:.1f} s", flush=True)
        del peer


def key_p95(size: Size) -> float:
    """The keystroke p95: the median of the runs' p95s (of all keystrokes without runs)."""
    if size.keystroke_p95s:
        return statistics.median(size.keystroke_p95s)
    return percentile(size.keystroke, 0.95)


def measure_reader(result: Size, lists: Path, index_dir: Path, workdir: Path, queries: list[str],
                   runs: int, rounds: int, key_runs: int = 1) -> None:
    """Keystroke → painted list, sort, filter and similar (`rounds` each) → painted list,
    start-up against a minimal app, memory of an open reader."""
    for _ in range(key_runs):  # a fresh reader each: one run's p95 moves by a third
        to_frame, _, engine_ms = reader_probe.keystrokes_in_child(str(lists), str(index_dir),
                                                                  queries)
        result.keystroke += to_frame
        result.keystroke_search += engine_ms
        result.keystroke_p95s.append(percentile(to_frame, 0.95))
    result.actions, result.actions_timed_out = reader_actions.actions_in_child(
        str(lists), str(index_dir), rounds)
    result.startup = reader_probe.startup_medians(runs, str(lists), str(index_dir),
                                                  reader_probe.bytecode_cached_env(workdir))
    result.reader_mb = reader_probe.reader_memory(str(lists), str(index_dir))[1]
    print(f"  reader: keystroke p95 {key_p95(result):.0f} ms (runs: "
          f"{', '.join(f'{p:.0f}' for p in result.keystroke_p95s)}), "
          f"memory {result.reader_mb:.0f} MB", flush=True)
    for kind in reader_actions.KINDS:
        print(f"  reader: {kind} p95 {percentile(result.action_ms(kind) or [0.0], 0.95):.0f} ms",
              flush=True)
    if result.actions_timed_out:
        print(f"  reader: timed out: {', '.join(result.actions_timed_out)}", flush=True)


def measure(size: int, sentences: list[str], args: argparse.Namespace, workdir: Path,
            ) -> Size:
    """Everything at one size, on a corpus made for it."""
    print(f"{size:,} abstracts:", flush=True)
    started = time.perf_counter()
    lists = workdir / f"lists-{size}"
    shutil.rmtree(lists, ignore_errors=True)
    files = write_paragraph_lists(made_abstracts(sentences, size, args.seed), lists,
                                  args.per_list)
    print(f"  made {len(files)} lists of up to {args.per_list:,} in "
          f"{time.perf_counter() - started:.1f} s", flush=True)
    typed = typed_prefixes(reader_probe.QUERIES[:args.queries])
    result = Size(size)
    index_dir = workdir / f"index-{size}"
    if args.build_only:
        measure_build(result, lists, index_dir)
        return result
    measure_paperscope(result, lists, index_dir, typed, args.repeat, args.runs)
    measure_peers(result, files, workdir, typed, args.repeat)
    if not args.no_reader:
        measure_reader(result, lists, index_dir, workdir, reader_probe.QUERIES[:args.queries],
                       args.startup_runs, args.action_rounds, args.key_runs)
    return result


# -- the table -------------------------------------------------------------------------
FIRST_FRAME = 1.2
"""The reader's first frame with rows, at most this many times a minimal Textual app's."""


def _p(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} / {percentile(values, 0.95):.1f}"


def _growth(small: float, large: float) -> str:
    return f"{large / small:.2f}×" if small else "–"


def table(base: Size, top: Size) -> list[str]:
    """The Markdown table: each measure at both sizes, its growth, and the peers."""
    peers = sorted(set(base.peers) & set(top.peers))
    head = (["measure", f"paperscope {base.papers:,}", f"paperscope {top.papers:,}", "growth"]
            + [f"{peer} {s.papers:,}" for peer in peers for s in (base, top)])
    rows = [head, ["---"] * len(head)]

    def row(name: str, ours: Callable[[Size], str], ratio: Callable[[Size], float] | None,
            theirs: Callable[[dict[str, object]], str] | None = None) -> None:
        if name.startswith("reader:") and not (base.keystroke and top.keystroke):
            rows.append([name] + ["not measured"] * 2 + [""] * (len(head) - 3))
            return
        growth = _growth(ratio(base), ratio(top)) if ratio else ""
        cells = [name, ours(base), ours(top), growth]
        for peer in peers:
            cells += [theirs(s.peers[peer]) if theirs else "" for s in (base, top)]
        rows.append(cells)

    med = statistics.median
    row("build, s (papers/s)", lambda s: f"{s.build_s:.1f} ({s.papers / s.build_s:,.0f}/s)",
        lambda s: s.build_s,
        lambda p: f"{p['build_s']:.1f}")
    row("peak memory while indexing, MB (all processes / largest)",
        lambda s: f"{s.tree_peak_mb:,.0f} / {s.largest_mb:,.0f}", lambda s: s.tree_peak_mb)
    row("index on disk, MB", lambda s: f"{s.disk_mb:,.0f}", lambda s: s.disk_mb,
        lambda p: f"{p['disk_mb']:,.0f}" if p["disk_mb"] is not None else "in memory")
    row(f"per query, typed prefixes ({len(top.typed)}), p50 / p95 ms", lambda s: _p(s.typed),
        lambda s: med(s.typed), lambda p: _p(p["typed"]))  # type: ignore[arg-type]
    row(f"of which one word of 1–{SHORT_TYPED} letters ({len(top.typed_short)}), p50 / p95 ms",
        lambda s: _p(s.typed_short or [0.0]), lambda s: med(s.typed_short or [0.0]),
        lambda p: _p(p.get("typed_short") or [0.0]))  # type: ignore[arg-type]
    row(f"per query, whole queries ({len(top.whole)}), p50 / p95 ms", lambda s: _p(s.whole),
        lambda s: med(s.whole), lambda p: _p(p["whole"]))  # type: ignore[arg-type]
    row("cold `paperscope search kernel`, s (× `python -c pass`)",
        lambda s: f"{med(s.cold) / 1000:.2f} ({med(s.cold) / med(s.bare):.2f}×)",
        lambda s: med(s.cold))
    row("reader: keystroke → painted list, p50 / p95 (median of the runs' p95s) ms",
        lambda s: f"{statistics.median(s.keystroke):.1f} / {key_p95(s):.1f}", key_p95)
    row("reader: of which the search, p50 / p95 ms", lambda s: _p(s.keystroke_search),
        lambda s: percentile(s.keystroke_search, 0.95))
    for kind, keys in reader_actions.KINDS.items():
        row(f"reader: {kind} ({keys}): key → painted list, p50 / p95 ms",
            lambda s, kind=kind: _p(s.action_ms(kind) or [0.0]),
            lambda s, kind=kind: percentile(s.action_ms(kind) or [0.0], 0.95))
    row("reader: first frame with rows, × a minimal Textual app",
        lambda s: f"{s.startup.rows_ratio:.2f}×", lambda s: s.startup.rows_ratio)
    row("reader: lists open, all papers listed, × a minimal Textual app",
        lambda s: f"{s.startup.ready_ratio:.2f}×", lambda s: s.startup.ready_ratio)
    row("reader: peak memory, open, searched, paged to the end, MB",
        lambda s: f"{s.reader_mb:,.0f}", lambda s: s.reader_mb)
    return ["| " + " | ".join(cells) + " |" for cells in rows]


def action_goals(base: Size, top: Size) -> list[tuple[str, bool]]:
    """Each reader action kind's p95 at the large size within the keystroke budget: the
    typing goal, 1.5 × the base size's keystroke p95; an action that timed out misses it."""
    budget = 1.5 * key_p95(base)
    out = []
    for kind in reader_actions.KINDS:
        ms = top.action_ms(kind)
        late = [n for n in top.actions_timed_out if reader_actions.kind_of(n) == kind]
        p95 = percentile(ms, 0.95) if ms else float("inf")
        text = (f"reader {kind} p95 at {top.papers:,} within the keystroke budget (1.5× the "
                f"keystroke p95 at {base.papers:,}, {budget:.1f} ms): {p95:.1f} ms")
        if late:
            text += f" ({len(late)} timed out)"
        out.append((text, p95 <= budget and not late))
    return out


def _goal(text: str, met: bool) -> str:
    return f"- {text}: {'met' if met else 'NOT met'}"


def build_goals(base: Size, top: Size) -> list[str]:
    """The build's goals: bounded memory, and no slower per paper at the larger size."""
    limit = 600 if top.papers <= 250_000 else 1024
    return [_goal(f"peak memory while indexing {top.papers:,} ≤ {limit} MB: "
                  f"{top.tree_peak_mb:,.0f} MB", top.tree_peak_mb <= limit),
            _goal(f"papers/s at {top.papers:,} no less than at {base.papers:,}: "
                  f"{top.papers / top.build_s:,.0f} against {base.papers / base.build_s:,.0f}",
                  top.papers / top.build_s >= base.papers / base.build_s)]


def goals(base: Size, top: Size) -> list[str]:
    """The scale goals that this run can check, each met or not, with its figures."""
    med = statistics.median

    typed_ratio = med(top.typed) / med(base.typed)
    out = [_goal(f"per query (typed prefixes, median) at {top.papers:,} ≤ 2× at {base.papers:,}:"
                 f" {typed_ratio:.2f}×", typed_ratio <= 2)]
    reader = bool(base.keystroke and top.keystroke)
    if reader:
        key_ratio = key_p95(top) / key_p95(base)
        out.append(_goal(f"reader keystroke p95 at {top.papers:,} ≤ 1.5× at {base.papers:,}: "
                         f"{key_ratio:.2f}×", key_ratio <= 1.5))
        out += [_goal(text, met) for text, met in action_goals(base, top)]
    if "FTS5" in top.peers:
        fts = med(top.peers["FTS5"]["typed"])  # type: ignore[arg-type]
        out.append(_goal(f"per query under FTS5's at {top.papers:,}: {med(top.typed):.1f} against "
                         f"{fts:.1f} ms ({med(top.typed) / fts:.2f}×)", med(top.typed) < fts))
    out += build_goals(base, top)
    if reader:
        for size in (base, top):  # at both sizes: the first frame must not grow either
            rows = size.startup.rows_ratio
            out.append(_goal(f"first frame with rows at {size.papers:,} ≤ {FIRST_FRAME}× a "
                             f"minimal app: {rows:.2f}×", rows <= FIRST_FRAME))
        out.append(_goal(f"memory of an open reader at {top.papers:,} ≤ 500 MB: "
                         f"{top.reader_mb:,.0f} MB", top.reader_mb <= 500))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=250_000, help="abstracts (1000000: 1M)")
    parser.add_argument("--base", type=int, default=25_000, help="the smaller size to compare")
    parser.add_argument("--per-list", type=int, default=2000, help="abstracts per list file")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--corpora", type=Path, default=shared("corpora"))
    parser.add_argument("--workdir", type=Path,
                        help="where corpora and indexes go (kept); default: a temporary folder")
    parser.add_argument("--repeat", type=int, default=2, help="rounds of the query lists")
    parser.add_argument("--runs", type=int, default=3, help="cold-search runs")
    parser.add_argument("--startup-runs", type=int, default=21,
                        help="start-up pairs (reader, minimal app): the ratio is their median")
    parser.add_argument("--queries", type=int, default=len(reader_probe.QUERIES),
                        help="how many of the typed queries to type")
    parser.add_argument("--key-runs", type=int, default=3,
                        help="fresh readers typing the queries; the p95 is their median")
    parser.add_argument("--action-rounds", type=int, default=5,
                        help="rounds of the reader's sort, filter and similar keys")
    parser.add_argument("--build-only", action="store_true",
                        help="only build (time, memory, size) and check the build's goals")
    parser.add_argument("--no-reader", action="store_true",
                        help="leave out the reader (its rows then say 'not measured')")
    args = parser.parse_args(argv)
    if (not 0 < args.base < args.size or args.per_list < 1 or args.queries < 1
            or args.action_rounds < 1 or args.key_runs < 1):
        parser.error("need 0 < --base < --size, --per-list >= 1, --queries >= 1, "
                     "--action-rounds >= 1 and --key-runs >= 1")
    require(args.corpora, "scale.py", "corpora", "--corpora")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="paperscope-scale-"))
    if workdir.resolve().is_relative_to(ROOT):
        print(f"scale.py: --workdir must be outside the checkout ({ROOT})", file=sys.stderr)
        return 2
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; work in {workdir}", flush=True)
    try:
        sentences = corpus_sentences(args.corpora)
        base, top = (measure(n, sentences, args, workdir) for n in (args.base, args.size))
        print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if args.build_only:
            print("\n".join(["", *build_goals(base, top)]))
        else:
            print("\n".join(["", *table(base, top), "", *goals(base, top)]))
    finally:
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
