"""Getting a paper out of the reader: the clipboard (`y`, `Y`), a browser (`o`) and a
Markdown file of the listed papers (`x`).

Each function is handed the Textual app it reports to, and the paper or papers; none
knows the screen or the reading state beyond what it is given.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

    from tui.core.model import Paper
    from tui.core.search.hits import Hit
    from tui.core.state import StateStore


def reference_text(paper: Paper) -> str:
    """The block `Y` copies: title, name, authors, year and venue, list, link and id,
    one per line (those the list gives)."""
    lines = [" ".join(paper.title.split())]
    if paper.name:
        lines.append(paper.name)
    if paper.authors:
        lines.append(", ".join(paper.authors))
    published = ", ".join(p for p in (paper.venue if paper.venue != paper.list_title else "",
                                       str(paper.year or "")) if p)
    if published:
        lines.append(published)
    lines.append(paper.list_title)
    if paper.link:
        lines.append(paper.link)
    if paper.doi:
        lines.append(f"doi {paper.doi}")
    lines.append(f"id {paper.id}")
    return "\n".join(lines) + "\n"


def export_path(folder: Path, fmt: str = "md", now: datetime | None = None) -> Path:
    """A new file in `folder` such as `paperscope-export-20261129-230000.md`.

    A second export within the same second gets `-2`, `-3`… rather than overwriting.
    """
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = folder / f"paperscope-export-{stamp}.{fmt}"
    number = 2
    while path.exists():
        path = folder / f"paperscope-export-{stamp}-{number}.{fmt}"
        number += 1
    return path


def browser_available() -> bool:
    """Whether Python knows a web browser to open links with (not over plain SSH)."""
    import webbrowser  # here: looked up only when a link is to be opened

    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def copy_abstract(app: App[Any], paper: Paper) -> None:
    """Copy `paper`'s abstract, as rendered text."""
    from tui.core.render.text import render

    app.copy_to_clipboard(render(paper.raw).text)
    app.notify(f"Copied the abstract of {paper.name or paper.title}.", timeout=3)


def copy_reference(app: App[Any], paper: Paper) -> None:
    """Copy a reference to `paper` (`reference_text`)."""
    app.copy_to_clipboard(reference_text(paper))
    app.notify(f"Copied a reference to {paper.name or paper.title}.", timeout=3)


def open_link(app: App[Any], paper: Paper) -> None:
    """Open `paper`'s first link; without a browser, show it instead."""
    from tui.core.render.text import render

    # The list's own link for the paper first, then the links in its abstract.
    links = ([paper.link] if paper.link else []) + list(render(paper.raw).links)
    if not links:
        app.notify("This paper has no link.", severity="warning", timeout=3)
        return
    url = links[0]
    if not browser_available():
        # Over SSH there is no browser; the terminal can still open an OSC 8 link
        # or the URL can be copied from here.
        app.notify(f"No browser found. The link: {url}", timeout=15)
        return
    app.open_url(url)
    app.notify(f"Opening {url}", timeout=5)


def export_hits(app: App[Any], hits: list[Hit], folder: Path, state: StateStore) -> None:
    """Write the papers of `hits` to a new Markdown file in `folder` (run in a thread)."""
    from tui.core.durable import atomic_write_text
    from tui.core.export import export

    try:
        text = export([hit.paper for hit in hits], "md", state)
        path = export_path(folder, "md")
        atomic_write_text(path, text)
    except OSError as exc:
        app.notify(f"Could not export: {exc.strerror or exc}", severity="error", timeout=10)
        return
    count = f"{len(hits):,} paper" + ("" if len(hits) == 1 else "s")
    app.notify(f"Exported {count} to {path}", timeout=8)
