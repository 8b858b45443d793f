"""How the command line prints papers and hits: for people, and as JSON.

Plain ANSI escapes instead of Rich keep `paperscope search` fast to start (Rich costs
about 30 ms to import, a tenth of the cold-search budget); Rich is used only for the
index progress bar, where a human is waiting anyway.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from datetime import datetime

from tui.core.model import Paper
from tui.core.render.text import render
from tui.core.search.highlight import Spans, match_spans
from tui.core.search.hits import Hit, SearchResult

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from typing import TextIO

    # Only `paperscope show` meets drafts; a search must not pay for the draft store
    # and the state it reads.
    from tui.core.drafts import Draft

_BOLD, _DIM, _MATCH, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[1;33m", "\x1b[0m"
_SNIPPET_CHARS = 240


def use_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def width() -> int:
    """Output width: the terminal's, kept between 40 and 100 columns for reading."""
    return max(40, min(100, shutil.get_terminal_size((80, 24)).columns))


def paper_json(paper: Paper) -> dict[str, object]:
    """The JSON fields of a paper (the hit fields without score and snippet)."""
    return {
        "id": paper.id,
        "list": paper.list_title,
        "file": paper.file,
        "position": paper.position,
        "name": paper.name or None,
        "title": paper.title,
        "text": render(paper.raw).text,
        **structured_json(paper),
    }


def structured_json(paper: Paper) -> dict[str, object]:
    """What structured lists tell about a paper; null (or false) where a list does not."""
    return {
        "title_given": paper.titled,
        "authors": list(paper.authors) or None,
        "year": paper.year,
        "venue": paper.venue or None,
        "link": paper.link or None,
        "doi": paper.doi or None,
        "source_id": paper.source_id or None,
        "keywords": list(paper.keywords) or None,
        "bibtex_key": paper.bibkey or None,
    }


def byline(paper: Paper, most: int = 3) -> str:
    """Authors (the first few, "et al." after) and year, on one line; "" when unknown."""
    names = list(paper.authors[:most]) + (["et al."] if len(paper.authors) > most else [])
    parts = [", ".join(names)] if names else []
    if paper.year:
        parts.append(str(paper.year))
    return " · ".join(parts)


def hit_json(hit: Hit) -> dict[str, object]:
    """The JSON fields of one hit."""
    text, _ = hit.snippet(_SNIPPET_CHARS)
    return {**paper_json(hit.paper), "score": round(hit.score, 4), "snippet": text}


def result_json(result: SearchResult) -> dict[str, object]:
    """The JSON document for one query's results."""
    return {
        "query": result.query,
        "total": result.total,
        "exact": result.exact,
        "suggestion": result.suggestion,
        "fuzzy": result.fuzzy,
        "hits": [hit_json(h) for h in result.hits],
    }


def mark(text: str, spans: Spans, colour: bool, base: str = "") -> str:
    """`text` in the `base` style with the spans emphasised, when colour is on."""
    if not colour:
        return text
    out, last = [base], 0
    for start, end in spans:
        out += [text[last:start], _MATCH, text[start:end], _RESET, base]
        last = end
    out += [text[last:], _RESET if base else ""]
    return "".join(out)


def _wrap(text: str, spans: Spans, indent: str, colour: bool, cols: int,
          base: str = "") -> list[str]:
    """Wrap `text` to `cols`, keeping highlight spans (mapped per line)."""
    lines, offset = [], 0
    for line in textwrap.wrap(text, cols - len(indent), break_on_hyphens=False) or [""]:
        start = text.find(line, offset)
        local = [(max(a, start) - start, min(b, start + len(line)) - start)
                 for a, b in spans if b > start and a < start + len(line)]
        lines.append(indent + mark(line, local, colour, base))
        offset = start + len(line)
    return lines


def format_hit(rank: int, hit: Hit, colour: bool, cols: int,
               because: list[str] | None = None) -> str:
    """A hit as a few lines: rank and title, where it comes from, the words it ranks
    high for (`because`, in a for-you ranking), and a snippet."""
    paper = hit.paper
    head = f"{rank:>2}. "
    title_spans = match_spans(paper.title, hit.terms)
    lines = _wrap(paper.title, title_spans, " " * len(head), colour, cols, _BOLD)
    lines[0] = head + lines[0][len(head):]
    meta = f"{paper.list_title} #{paper.position} · id {paper.id} · score {hit.score:.2f}"
    if byline(paper):
        meta = f"{byline(paper)} · {meta}"
    lines.append(" " * len(head) + (_DIM + meta + _RESET if colour else meta))
    if because:
        lines += _wrap("for: " + ", ".join(because), [], " " * len(head), colour, cols)
    text, spans = hit.snippet(_SNIPPET_CHARS)
    lines += _wrap(text, spans, " " * len(head), colour, cols)
    return "\n".join(lines)


def print_result(result: SearchResult, out: TextIO = sys.stdout,
                 because: dict[int, list[str]] | None = None) -> None:
    """Print a result for people: hits, or why there are none; with `because` (a
    for-you ranking), each hit's words."""
    colour, cols = use_colour(out), width()
    if result.suggestion:
        out.write(f"No papers match {result.query!r}; showing results for "
                  f"{result.suggestion!r}.\n\n")
    elif result.fuzzy and result.hits:
        out.write(f"No exact matches for {result.query!r}; showing close matches.\n\n")
    for rank, hit in enumerate(result.hits, 1):
        words = because.get(hit.docnum) if because is not None else None
        out.write(format_hit(rank, hit, colour, cols, words) + "\n\n")
    if not result.hits:
        out.write("No other papers are like these.\n" if because is not None
                  else f"No papers match {result.query!r}.\n")
    else:
        shown = len(result.hits)
        more = f" of {result.total}" if result.total > shown else ""
        noun = "paper" if max(shown, result.total) == 1 else "papers"
        out.write(f"{shown}{more} {noun} · {result.elapsed_ms:.0f} ms\n")


def format_paper(paper: Paper, colour: bool, cols: int) -> str:
    """A paper in full: title, name, list and position, id, and the abstract."""
    rendered = render(paper.raw)
    lines = _wrap(paper.title, [], "", False, cols)
    if colour:
        lines = [_BOLD + line + _RESET for line in lines]
    details = [
        ("Name", paper.name or "—"),
        ("Authors", ", ".join(paper.authors)),
        ("Year", str(paper.year or "")),
        ("Venue", paper.venue if paper.venue != paper.list_title else ""),
        ("List", f"{paper.list_title} ({paper.file}), position {paper.position}"),
        ("Link", paper.link),
        ("DOI", paper.doi),
        ("Id", paper.id + (f" (source id {paper.source_id})" if paper.source_id else "")),
    ]
    lines.append("")
    lines += [f"{label + ':':<9}{value}" for label, value in details if value]
    lines.append("")
    lines += _wrap(rendered.text, [], "", False, cols)
    if rendered.links:
        lines += ["", "Links:"] + [f"  {url}" for url in rendered.links]
    return "\n".join(lines)


def draft_line(drafts: list[Draft]) -> str:
    """What `show` says about unsaved note drafts (newest first): when, how long, and
    how to get the text back."""
    newest = drafts[0]
    when = datetime.fromtimestamp(newest.saved_at / 1e9).strftime("%Y-%m-%d %H:%M")
    more = f" (and {len(drafts) - 1} older)" if len(drafts) > 1 else ""
    return (f"Draft: an unsaved note draft from {when}, {len(newest.text)} characters{more}; "
            "press e on this paper in the reader to recover it")


def draft_json(drafts: list[Draft]) -> dict[str, object] | None:
    """The newest unsaved note draft as JSON (None when there is none)."""
    if not drafts:
        return None
    newest = drafts[0]
    return {"text": newest.text,
            "saved_at": datetime.fromtimestamp(newest.saved_at / 1e9).isoformat(),
            "count": len(drafts)}


def format_list_line(paper: Paper, cols: int) -> str:
    """One line per paper for `paperscope list`: id, position and name or title."""
    label = paper.title
    line = f"{paper.id}  {paper.position:>4}  {label}"
    return line if len(line) <= cols else line[: cols - 1] + "…"
