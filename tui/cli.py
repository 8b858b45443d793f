"""The `paperscope` command: open the reader, or search, show, list and index.

Exit codes: 0 when something was found or done, 1 when a search or lookup found
nothing, 2 for usage and input errors (always one line on stderr, never a traceback).
Only the reader imports Textual; every other subcommand stays on the light core.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

from tui import __version__

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from typing import NoReturn

EXIT_FOUND, EXIT_NONE, EXIT_USAGE = 0, 1, 2
SUBCOMMANDS = ("search", "show", "list", "index", "similar", "export", "serve")


class UsageError(Exception):
    """Bad command-line usage; the message is one line."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and never exit by themselves."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seeds", nargs="+", action="extend", metavar="PATH",
                        help="paper lists to use: .txt files or folders of them "
                             "(default: the bundled lists)")
    parser.add_argument("--index-dir", metavar="DIR",
                        help="where to keep the index (also PAPERSCOPE_INDEX_DIR)")


def build_parser() -> _Parser:
    """The parser of every subcommand (the reader's own options are on the top level)."""
    parser = _Parser(
        prog="paperscope",
        description="A keyboard-driven reader for conference paper lists. With no "
                    "subcommand it opens the reader, with QUERY already typed.",
        epilog="subcommands: search, show, list, index, similar, export, serve "
               "('paperscope SUBCOMMAND --help' for each)",
    )
    parser.add_argument("--version", action="version", version=f"paperscope {__version__}")
    parser.add_argument("query", nargs="*", metavar="QUERY", help="open the reader with this query")
    _common(parser)
    return parser


def build_subparser(name: str) -> _Parser:
    """The parser of one subcommand (only the one given is built: building each costs
    a cold start a few tenths of a millisecond in argparse and gettext)."""
    parser = _SUBPARSERS[name]()
    _common(parser)
    return parser


def _search_parser() -> _Parser:
    p = _Parser(prog="paperscope search", description=(
        "Search the lists. QUERY '-' reads one query per line from standard input and "
        "writes one JSON line per query."))
    p.add_argument("query", nargs="+", metavar="QUERY")
    p.add_argument("--limit", type=_positive, default=10, metavar="N",
                   help="how many hits to show (default 10)")
    p.add_argument("--as-typed", action="store_true",
                   help="search as the reader does while the query is typed: the last "
                        "word is also a prefix")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print one JSON document")
    fmt.add_argument("--jsonl", action="store_true", help="print one JSON line per hit")
    return p


def _show_parser() -> _Parser:
    p = _Parser(prog="paperscope show", description="Show one paper in full.")
    p.add_argument("id", metavar="ID", help="a paper id (or a unique prefix of one)")
    p.add_argument("--json", action="store_true")
    return p


def _list_parser() -> _Parser:
    p = _Parser(prog="paperscope list", description="List every paper.")
    p.add_argument("--json", action="store_true")
    return p


def _index_parser() -> _Parser:
    p = _Parser(prog="paperscope index", description=(
        "Build the index now (it is otherwise built on first use)."))
    p.add_argument("--rebuild", action="store_true", help="build it again from scratch")
    return p


def _similar_parser() -> _Parser:
    p = _Parser(prog="paperscope similar", description=(
        "The papers most like one paper, or like several together. With --starred, "
        "like the papers starred in the reader (less those marked not interested), "
        "and the words given are a query whose matches alone are ranked."))
    p.add_argument("words", nargs="*", metavar="ID",
                   help="paper ids (or unique prefixes); with --starred, a QUERY")
    p.add_argument("--starred", action="store_true",
                   help="rank by the papers starred in the reader (for you)")
    p.add_argument("--limit", type=_positive, default=10, metavar="N")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print one JSON document")
    fmt.add_argument("--jsonl", action="store_true", help="print one JSON line per hit")
    return p


def _export_parser() -> _Parser:
    p = _Parser(prog="paperscope export", description=(
        "Export papers: the starred ones, a query's results, or every paper."))
    which = p.add_mutually_exclusive_group()
    which.add_argument("--starred", action="store_true", help="only starred papers")
    which.add_argument("--query", metavar="Q", help="the results of this query, best first")
    p.add_argument("--format", choices=("md", "json", "bib", "csv"), default="md")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE (atomically) instead of standard output")
    return p


def _serve_parser() -> _Parser:
    p = _Parser(prog="paperscope serve", description=(
        "Serve the reader to web browsers: each tab gets its own reader on the same "
        "lists and reading state. Stop with ctrl+c."))
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    return p


_SUBPARSERS: dict[str, Callable[[], _Parser]] = {
    "search": _search_parser, "show": _show_parser, "list": _list_parser,
    "index": _index_parser, "similar": _similar_parser, "export": _export_parser,
    "serve": _serve_parser,
}


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {value}")
    return number


def _port(value: str) -> int:
    number = _positive(value)
    if number > 65535:
        raise argparse.ArgumentTypeError(f"not a port (1-65535): {value}")
    return number


def parse(argv: Sequence[str]) -> tuple[str | None, argparse.Namespace]:
    """Split argv into (subcommand or None for the reader, options)."""
    argv = list(argv)
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg in SUBCOMMANDS:
            # Options before the subcommand (--seeds, --index-dir) apply to it too.
            head = build_parser().parse_args([*argv[:i], "--"]) if i else None
            if arg not in _SUBPARSERS:
                raise UsageError(f"'{arg}' is not available yet")
            args = build_subparser(arg).parse_args(argv[i + 1:])
            if head is not None:
                args.seeds = (head.seeds or []) + (args.seeds or []) or None
                args.index_dir = args.index_dir or head.index_dir
            return arg, args
        if not arg.startswith("-") and (i == 0 or argv[i - 1] not in ("--seeds", "--index-dir")):
            break
    return None, build_parser().parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit code. Without `argv`, it runs as the program
    (`paperscope`, `python -m tui`): the process ends when it returns."""
    as_program = argv is None
    argv = sys.argv[1:] if argv is None else argv
    try:
        command, args = parse(argv)
        commands = _import_commands()
        return commands.run(command, args)
    except UsageError as exc:
        print(f"paperscope: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `paperscope list | head`: the reader of our output left; that is not an error.
        sys.stderr.close()
        return EXIT_FOUND
    except Exception as exc:  # noqa: BLE001 - a bug must still end in one line, not a trace
        print(f"paperscope: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        if as_program:
            # The process ends now: the interpreter's last collections would walk every
            # object of the index and Whoosh only to find nothing worth freeing before
            # the process gives all its memory back (tens of ms of a cold search).
            gc.freeze()


def _import_commands() -> ModuleType:
    """The core, imported past parsing (a usage error does not pay for it), with the
    cyclic garbage collector paused: importing makes objects for good, and its
    collections on the way found nothing to free."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        from tui import commands

        return commands
    finally:
        if was_enabled:
            gc.enable()


if __name__ == "__main__":
    sys.exit(main())
