"""Hostile queries: no exception, a sane result and a bounded time for every one.

The bulk tests draw queries from ``QueryGenerator`` (reproducible by seed) and send them
through the one search function on the bundled lists and on a larger index of real
lists, with every option the callers use (limits, sorts, prefix on/off, reading-state
filters). The slowest query of each run is printed at the end of the session.

Counts: the default run sends 250 queries to the bundled lists and 80 to the larger
index; ``--long`` sends 10,000 to each. Hostile queries average 30–80 ms here, most of
it in the no-result rescue (spelling and fuzzy matching), so ten thousand of them do
not fit the default run's budget.

A failure that a strict-xfail test already pins down (``KNOWN_BUGS``) turns a bulk run
into an xfail that lists the queries, so that ``--long`` stays readable while the bug is
open; any other failure fails the run.
"""

from __future__ import annotations

import os
import random
import string
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.robustness.conftest import note_latency
from tests.robustness.query_generator import (
    CONTROL, KNOWN_FIELDS, OPERATORS, STATE_FILTERS, UNKNOWN_FIELDS, QueryGenerator,
)
from tui.core.index.library import Library
from tui.core.search.filters import split_filters
from tui.core.search.hits import SearchResult
from tui.core.search.search import SORTS, search
from tui.core.state import StateStore

QUERY_BOUND_S = float(os.environ.get("PAPERSCOPE_QUERY_BOUND_S", "2.0"))
"""No single query may take longer, in-process (a busy 2-core machine included)."""
BULK = {"bundled": 250, "corpus": 80}
BULK_LONG = {"bundled": 10_000, "corpus": 10_000}
LIMITS = (1, 5, 20, None)


KNOWN_BUGS: dict[str, str] = {}
"""Exception name → the open bug (and its strict-xfail test) it comes from."""


@dataclass
class BulkReport:
    """What a bulk run found: failures, over-bound queries and the worst latency."""

    label: str
    count: int = 0
    failures: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    """Failures of a bug in KNOWN_BUGS; their queries' times are not held against the bound."""
    too_slow: list[str] = field(default_factory=list)
    worst: tuple[float, str] = (0.0, "")

    def summary(self) -> str:
        seconds, query = self.worst
        return (f"{self.label}: {self.count} queries, worst {seconds * 1000:.1f} ms for "
                f"{query[:200]!r}")


class Watchdog:
    """Tells stderr which query is running when one outlives the bound.

    A query that never ends cannot be interrupted in-process; pytest-timeout ends the
    test, and this line says which query it was stuck on.
    """

    def __init__(self, bound: float) -> None:
        self.bound = bound
        self.current: tuple[float, str] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> "Watchdog":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()

    def _watch(self) -> None:
        reported = None
        while not self._stop.wait(0.25):
            current = self.current
            if current and current is not reported and time.monotonic() - current[0] > self.bound:
                print(f"\n[watchdog] query still running after {self.bound} s: {current[1]!r:.300}",
                      file=sys.__stderr__, flush=True)
                reported = current


def reading_state(library: Library, folder: Path) -> StateStore:
    """A state with some papers starred, read and noted, for the `is:`/`has:` filters."""
    state = StateStore(folder / "state.json", autosave=False)
    for paper in library.papers()[::3]:
        state.toggle_star(paper.id)
        state.set_read(paper.id, True)
    for paper in library.papers()[1::4]:
        state.set_note(paper.id, "a note")
    return state


def check_result(library: Library, query: str, result: SearchResult, limit: int | None,
                 sort: str, state: StateStore | None) -> None:
    """Structural checks every result must pass, whatever the query."""
    assert result.total >= len(result.hits)
    if limit is not None:
        assert len(result.hits) <= limit
    docnums = [h.docnum for h in result.hits]
    assert len(set(docnums)) == len(docnums), "a paper came back twice"
    assert all(0 <= d < len(library) for d in docnums)
    if sort == "list":
        assert docnums == sorted(docnums)
    _, filters = split_filters(query)
    if "is:starred" in filters and state is not None:
        assert all(state.is_starred(h.paper.id) for h in result.hits)
    for hit in result.hits[:3]:
        text, spans = hit.snippet(240)
        assert all(0 <= a < b <= len(text) for a, b in spans)
        assert hit.paper.id


def run_bulk(library: Library, count: int, seed: int, label: str, folder: Path,
             surrogates: bool) -> BulkReport:
    """Send ``count`` generated queries through ``search``, varying its options."""
    generator = QueryGenerator(library.vocabulary, seed, surrogates=surrogates)
    state = reading_state(library, folder)
    report = BulkReport(label)
    with Watchdog(QUERY_BOUND_S) as watchdog:
        for n in range(count):
            query = generator.draw()
            limit, sort = LIMITS[n % len(LIMITS)], SORTS[n % len(SORTS)]
            options = dict(limit=limit, sort=sort, typing=n % 5 != 0,
                           state=state if n % 2 else None)
            watchdog.current = (time.monotonic(), query)
            started = time.perf_counter()
            try:
                result = search(library, query, **options)
                elapsed = time.perf_counter() - started
                check_result(library, query, result, limit, sort, options["state"])
            except Exception as exc:  # noqa: BLE001 - every failure is collected and shown
                elapsed = time.perf_counter() - started
                where = traceback.extract_tb(exc.__traceback__)[-1]
                line = (f"[{generator.kind}] {query[:300]!r} {options['limit']=} {sort=}: "
                        f"{type(exc).__name__}: {exc} "
                        f"(at {Path(where.filename).name}:{where.lineno})")
                if type(exc).__name__ in KNOWN_BUGS:
                    report.known.append(line)
                    watchdog.current = None
                    report.count += 1
                    continue
                report.failures.append(line)
            watchdog.current = None
            report.count += 1
            note_latency(label, elapsed, query)
            if elapsed > report.worst[0]:
                report.worst = (elapsed, query)
            if elapsed > QUERY_BOUND_S:
                report.too_slow.append(f"{elapsed:.2f} s [{generator.kind}] {query[:300]!r}")
    return report


def recordable(query: str) -> str:
    """``query`` as a property pytest can send between processes: a lone surrogate (the
    slowest query may hold one) is written as its escape, which UTF-8 can carry."""
    return query.encode("utf-8", "backslashreplace").decode("utf-8")


def test_a_recorded_query_with_a_lone_surrogate_is_utf8() -> None:
    assert recordable("kernel \ud981 ℓₚ") == "kernel \\ud981 ℓₚ"
    recordable("\udcff").encode("utf-8")  # raises UnicodeEncodeError without the escape


def assert_bulk(report: BulkReport, record_property) -> None:
    record_property(f"worst_latency_ms[{report.label}]", round(report.worst[0] * 1000, 1))
    # The slowest query depends on timing, so it holds a surrogate only now and then.
    record_property(f"worst_query[{report.label}]", recordable(report.worst[1][:500]))
    print(report.summary())
    assert not report.failures, f"{len(report.failures)} queries failed:\n" + "\n".join(
        report.failures[:15])
    assert not report.too_slow, f"{len(report.too_slow)} queries over {QUERY_BOUND_S} s:\n" + \
        "\n".join(report.too_slow[:15])
    if report.known:
        bugs = sorted({bug for name, bug in KNOWN_BUGS.items()
                       for line in report.known if f": {name}: " in line})
        pytest.xfail(f"{len(report.known)} queries hit known bugs ({'; '.join(bugs)}):\n"
                     + "\n".join(report.known[:5]))


SURROGATES_IN_BULK = True
"""Lone surrogates (what undecodable argv bytes become) are part of every bulk run."""


def test_hostile_queries_bulk_bundled(bundled_library, tmp_path: Path, record_property) -> None:
    report = run_bulk(bundled_library, BULK["bundled"], 1, "bulk/bundled", tmp_path,
                      SURROGATES_IN_BULK)
    assert_bulk(report, record_property)


def test_hostile_queries_bulk_corpus(corpus_library, tmp_path: Path, record_property) -> None:
    report = run_bulk(corpus_library, BULK["corpus"], 2, "bulk/corpus", tmp_path,
                      SURROGATES_IN_BULK)
    assert_bulk(report, record_property)


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_hostile_queries_bulk_bundled_long(bundled_library, tmp_path: Path,
                                           record_property) -> None:
    report = run_bulk(bundled_library, BULK_LONG["bundled"], 11, "bulk-long/bundled", tmp_path,
                      SURROGATES_IN_BULK)
    assert_bulk(report, record_property)


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_hostile_queries_bulk_corpus_long(corpus_library, tmp_path: Path,
                                          record_property) -> None:
    report = run_bulk(corpus_library, BULK_LONG["corpus"], 12, "bulk-long/corpus", tmp_path,
                      SURROGATES_IN_BULK)
    assert_bulk(report, record_property)


# Hypothesis, for shrinking: a failure comes back as the smallest query that fails ------

PIECES = st.one_of(
    st.sampled_from(OPERATORS + KNOWN_FIELDS + STATE_FILTERS + UNKNOWN_FIELDS + CONTROL),
    st.sampled_from(["learning", "graph", "diffusion", "gaussian", "kernel", "neural", "mod",
                     "ge", "l", "τ²", "ℓₚ", "naïve", "中文", "שלום", "😀"]),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=12),
)
QUERIES = st.lists(PIECES, max_size=20).flatmap(
    lambda pieces: st.sampled_from([" ", "", "\t"]).map(lambda glue: glue.join(pieces)))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(query=QUERIES, limit=st.sampled_from(LIMITS), sort=st.sampled_from(SORTS),
       typing=st.booleans())
def test_any_query_on_the_larger_index(corpus_library, query: str, limit: int | None, sort: str,
                                       typing: bool) -> None:
    started = time.perf_counter()
    result = search(corpus_library, query, limit=limit, sort=sort, typing=typing)
    elapsed = time.perf_counter() - started
    note_latency("hypothesis/corpus", elapsed, query)
    check_result(corpus_library, query, result, limit, sort, None)
    assert elapsed < QUERY_BOUND_S, f"{elapsed:.2f} s for {query!r}"


# Known costly shapes, each on its own ---------------------------------------------------


def timed(library: Library, query: str) -> float:
    started = time.perf_counter()
    search(library, query)
    elapsed = time.perf_counter() - started
    note_latency("targeted", elapsed, query)
    return elapsed


def chain(operator: str, count: int) -> str:
    """``count`` words joined by a binary operator; each chain finds the Gecko paper."""
    if operator == "REQUIRE":
        return " REQUIRE ".join(["gecko"] * count)
    return "gecko" + f" {operator} slam" * (count - 1)


@pytest.mark.parametrize("operator", ["ANDNOT", "ANDMAYBE", "REQUIRE"])
def test_chained_binary_operators_cost_grows_linearly(bundled_library, operator: str) -> None:
    """Whoosh's BinaryGroup.query() builds both operands twice: a chain of n such operators
    cost 2^n (18 took ~15 s here) until paperscope's parser dropped them."""
    timed(bundled_library, chain(operator, 6))  # warm the caches: time the query, not them
    short = timed(bundled_library, chain(operator, 6))
    long = timed(bundled_library, chain(operator, 18))
    # Linear work takes about three times as long; 2^n work, thousands of times.
    assert long < max(8 * short, 0.5), f"6 words: {short:.3f} s, 18 words: {long:.3f} s"


MADE_UP_WORDS = ["".join(random.Random(n).choices(string.ascii_lowercase, k=10)) for n in range(64)]
"""Ten-letter words with no known word within two edits: the corrector's worst case."""


def test_rescue_cost_does_not_grow_with_the_words(bundled_library) -> None:
    two = timed(bundled_library, " ".join(MADE_UP_WORDS[:2]))
    many = timed(bundled_library, " ".join(MADE_UP_WORDS[:24]))
    assert many < QUERY_BOUND_S and many < 2 * two + 0.2, (
        f"2 unknown words: {two:.2f} s, 24: {many:.2f} s")


def cut_inside(word: str) -> str:
    """A query that finds nothing and is cut (MAX_QUERY_CHARS, 1000) one letter into
    ``word``'s last letter: the spelling corrector then puts the letter back, and the
    corrected query is cut again."""
    head = "gecko AND slam "
    query = head + "gecko " * ((1000 - len(head) - len(word)) // 6)
    return query + " " * (1000 - (len(word) - 1) - len(query)) + word


def stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def test_rescue_of_a_cut_query_does_not_recurse_without_end(bundled_library,
                                                            monkeypatch) -> None:
    """The rescue searches its corrected query once, without rescuing that in turn
    (found by the long bulk run on the larger index: RecursionError after ~7 s)."""
    from tui.core.search import search as core_search

    rescues: list[bool] = []  # each search of a query: whether it may rescue in turn
    real = core_search._search

    def counted(*args, **kwargs):
        rescues.append(kwargs.get("rescue", True))
        return real(*args, **kwargs)

    monkeypatch.setattr(core_search, "_search", counted)
    query = cut_inside("ability")  # cut to "abilit", which the corrector makes "ability"
    # 200 frames above this one are plenty for a search, and make the endless recursion
    # fail in about a second instead of seven.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(stack_depth() + 200)
    try:
        search(bundled_library, query)
    finally:
        sys.setrecursionlimit(limit)
    assert rescues == [True, False], "the query, then its correction without a rescue"


@pytest.mark.slow
def test_the_worst_rescue_stays_within_the_bound(corpus_library) -> None:
    """64 made-up words (the most a query keeps): measured at 16 s on 521 papers."""
    elapsed = timed(corpus_library, " ".join(MADE_UP_WORDS))
    assert elapsed < QUERY_BOUND_S, f"{elapsed:.1f} s"


@pytest.mark.parametrize("query", ["ab\udcff*", "gra\udcffph*", "title:\ud8c2x*"])
def test_lone_surrogates_never_raise(bundled_library, query: str) -> None:
    search(bundled_library, query)


@pytest.mark.parametrize("query", ["\udcff", "gecko \ud800", "title:\udcffx", '"a \udcffb"', "id:id:\udcff",
                                   "\udcff*", "is:starred \udcff"])
def test_lone_surrogates_in_plain_positions(bundled_library, query: str) -> None:
    search(bundled_library, query)
