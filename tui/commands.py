"""What each `paperscope` subcommand does, once its arguments are parsed."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from collections.abc import Callable

from tui.core.index.library import Library, open_library
from tui.core.lists.files import SeedError
from tui.core.search.filters import split_filters
from tui.core.search.hits import SearchResult
from tui.core.search.interests import for_you, interest_terms, reasons
from tui.core.search.search import search, similar
from tui.output import (
    draft_json, draft_line, format_list_line, format_paper, hit_json, paper_json,
    print_result, result_json, use_colour, width,
)

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from tui.core.state import StateStore

EXIT_FOUND, EXIT_NONE, EXIT_USAGE = 0, 1, 2


def _progress_bar() -> tuple[Callable[[int, int], None] | None, Callable[[], None]]:
    """A Rich progress bar on a terminal (lazy import: only index builds pay for it)."""
    if not sys.stderr.isatty():
        return None, lambda: None
    from rich.progress import Progress

    bar = Progress(transient=True)
    task = None

    def update(done: int, total: int) -> None:
        nonlocal task
        if task is None:
            bar.start()
            task = bar.add_task("Building the index (lists)", total=total)
        bar.update(task, completed=done)

    return update, bar.stop


def load(args: argparse.Namespace, rebuild: bool = False, show_progress: bool = False) -> Library:
    """Open the library the options name; notices go to stderr."""
    progress, stop = _progress_bar() if show_progress else (None, lambda: None)
    try:
        library = open_library(args.seeds, args.index_dir, progress, rebuild=rebuild)
    finally:
        stop()
    for notice in library.notices:
        print(f"paperscope: {notice}", file=sys.stderr)
    return library


def reading_state() -> StateStore:
    """The reader's reading state, as it is on disk now, its notices on stderr."""
    from tui.core.state import StateStore

    state = StateStore()
    for notice in state.notices:
        print(f"paperscope: {notice}", file=sys.stderr)
    return state


def searcher(library: Library, limit: int, typing: bool = False) -> Callable[[str], SearchResult]:
    """The one search as the command line runs it: with the reader's reading state.

    `is:starred`, `has:note` and the like are answered from the state the reader keeps,
    read once, when a query first names such a filter: others do not pay for it.
    `typing` searches as the reader does while a query is typed (`--as-typed`).
    """
    state: list[StateStore] = []

    def run(query: str) -> SearchResult:
        if not state and split_filters(query)[1]:
            state.append(reading_state())
        return search(library, query, limit=limit, state=state[0] if state else None,
                      typing=typing)

    return run


def cmd_search(args: argparse.Namespace) -> int:
    with load(args) as library:
        find = searcher(library, args.limit, args.as_typed)
        if args.query == ["-"]:
            found = False
            # Bytes, decoded leniently: one undecodable line must not fail the batch.
            for raw_line in sys.stdin.buffer:
                query = raw_line.decode("utf-8", "replace").rstrip("\r\n")
                result = find(query)
                found |= bool(result.hits)
                print(json.dumps({"query": query, "hits": [hit_json(h) for h in result.hits]},
                                 ensure_ascii=False), flush=True)
            return EXIT_FOUND if found else EXIT_NONE
        result = find(" ".join(args.query))
        if args.json:
            print(json.dumps(result_json(result), ensure_ascii=False, indent=2))
        elif args.jsonl:
            for hit in result.hits:
                print(json.dumps(hit_json(hit), ensure_ascii=False))
        else:
            print_result(result)
        return EXIT_FOUND if result.hits else EXIT_NONE


def _docnum(library: Library, paper_id: str) -> int | None:
    """The docnum of a paper id (or unique prefix); says so on stderr when none."""
    docnum = library.docnum_of(paper_id)
    if docnum is None:
        print(f"paperscope: no paper with id {paper_id!r}", file=sys.stderr)
    return docnum


def cmd_show(args: argparse.Namespace) -> int:
    with load(args) as library:
        docnum = _docnum(library, args.id)
        if docnum is None:
            return EXIT_NONE
        paper = library.paper(docnum)
        from tui.core.drafts import DraftStore  # only `show` reads drafts

        drafts = DraftStore().drafts_of(paper.id)  # unsaved note drafts, newest first
        if args.json:
            print(json.dumps({**paper_json(paper), "draft": draft_json(drafts)},
                             ensure_ascii=False, indent=2))
        else:
            print(format_paper(paper, use_colour(sys.stdout), width()))
            if drafts:
                print("\n" + draft_line(drafts))
        return EXIT_FOUND


def cmd_list(args: argparse.Namespace) -> int:
    with load(args) as library:
        papers = library.papers()
        if args.json:
            print(json.dumps([paper_json(p) for p in papers], ensure_ascii=False, indent=2))
            return EXIT_FOUND
        cols, current = width(), None
        for paper in papers:
            if paper.file != current:
                if current is not None:
                    print()
                current = paper.file
                print(f"# {paper.list_title} ({paper.file})")
            print(format_list_line(paper, cols))
        return EXIT_FOUND


def cmd_index(args: argparse.Namespace) -> int:
    with load(args, rebuild=args.rebuild, show_progress=True) as library:
        where = library.index_path or "memory"
        state = "built" if library.opened.built else "up to date"
        print(f"Index {state}: {len(library)} papers in {len(library.lists)} lists at {where}")
        return EXIT_FOUND


def cmd_similar(args: argparse.Namespace) -> int:
    if not args.starred and not args.words:
        print("paperscope similar: error: give paper ids, or --starred", file=sys.stderr)
        return EXIT_USAGE
    with load(args) as library:
        if args.starred:
            ranking = starred_ranking(library, reading_state(), " ".join(args.words))
            if isinstance(ranking, str):
                print(f"paperscope: {ranking}", file=sys.stderr)
                return EXIT_NONE
            liked, disliked, among = ranking
        else:
            liked = [_docnum(library, paper_id) for paper_id in dict.fromkeys(args.words)]
            if None in liked:
                return EXIT_USAGE
            disliked, among = [], None
        if len(liked) == 1 and not args.starred:
            result, because = similar(library, liked[0], limit=args.limit), None
        else:
            terms = interest_terms(library, liked)
            result = for_you(library, liked, disliked, args.limit, among, terms)
            because = {h.docnum: reasons(library, terms, h.docnum) for h in result.hits}
        _print_similar(library, result, liked, because, args)
        return EXIT_FOUND if result.hits else EXIT_NONE


def starred_ranking(library: Library, state: StateStore, query: str
                    ) -> tuple[list[int], list[int], set[int] | None] | str:
    """What `similar --starred` ranks by: the starred papers (list order), those marked
    not interested, and the query's matches when a query is given; or why it cannot."""
    liked = library.in_list_order(list(library.docnums_of(state.starred_ids())))
    if not liked:
        return "nothing is starred yet: star papers in the reader (s), then ask again"
    disliked = library.in_list_order(list(library.docnums_of(state.disliked_ids())))
    among = None
    if query.strip():
        among = {h.docnum for h in search(library, query, limit=None, state=state).hits}
    return liked, disliked, among


def _print_similar(library: Library, result: SearchResult, liked: list[int],
                   because: dict[int, list[str]] | None, args: argparse.Namespace) -> None:
    def as_json(hit) -> dict[str, object]:
        return hit_json(hit) if because is None else {**hit_json(hit), "because": because[hit.docnum]}

    if args.json:
        document = result_json(result)
        document["hits"] = [as_json(h) for h in result.hits]
        document["like"] = [library.paper(d).id for d in liked]
        print(json.dumps(document, ensure_ascii=False, indent=2))
    elif args.jsonl:
        for hit in result.hits:
            print(json.dumps(as_json(hit), ensure_ascii=False))
    elif because is None:
        print(f"Papers like: {library.paper(liked[0]).title}\n")
        print_result(result)
    else:
        print(f"Papers like these {len(liked)}:")
        for docnum in liked:
            print(f"  {library.paper(docnum).title}")
        print()
        print_result(result, because=because)


def cmd_export(args: argparse.Namespace) -> int:
    # Imported here: a quick search should not pay for the exporters.
    from tui.core.export import export
    from tui.core.durable import atomic_write_text

    state = reading_state()
    with load(args) as library:
        if args.query is not None:
            papers = [h.paper for h in search(library, args.query, limit=None, state=state).hits]
        elif args.starred:
            chosen = library.docnums_of(state.starred_ids())
            papers = library.papers(library.in_list_order(list(chosen)))
        else:
            papers = library.papers()
        document = export(papers, args.format, state)
    if args.output:
        try:
            atomic_write_text(Path(args.output), document)
        except OSError as exc:
            print(f"paperscope: error: cannot write {args.output} ({exc.strerror or exc})",
                  file=sys.stderr)
            return EXIT_USAGE
        print(f"Exported {len(papers)} papers to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(document)
    if not papers:
        print("paperscope: no papers to export", file=sys.stderr)
        return EXIT_NONE
    return EXIT_FOUND


def cmd_reader(args: argparse.Namespace) -> int:
    try:
        from tui.app import run
    except ImportError:
        print("paperscope: the reader is not available in this build; "
              "try 'paperscope search QUERY'", file=sys.stderr)
        return EXIT_USAGE
    return run(args.seeds, args.index_dir, " ".join(args.query))


def cmd_serve(args: argparse.Namespace) -> int:
    from tui.serve import ServeError, check_port, serve  # aiohttp: serve only

    try:
        check_port(args.host, args.port)
        # Opened once here: bad lists fail now, in one line, and the index is built
        # before the first tab asks for it.
        with load(args, show_progress=True):
            pass
        return serve(args.seeds, args.index_dir, args.host, args.port)
    except ServeError as exc:
        print(f"paperscope: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


COMMANDS: dict[str | None, Callable[[argparse.Namespace], int]] = {
    None: cmd_reader,
    "search": cmd_search,
    "show": cmd_show,
    "list": cmd_list,
    "index": cmd_index,
    "similar": cmd_similar,
    "export": cmd_export,
    "serve": cmd_serve,
}


def run(command: str | None, args: argparse.Namespace) -> int:
    """Run one subcommand; input errors become a one-line message and exit code 2."""
    try:
        return COMMANDS[command](args)
    except SeedError as exc:
        print(f"paperscope: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
