"""The detail pane's text for one paper: header, rendered abstract, match highlights.

Each match is tagged with `{"match": n}` in its style's meta, so that the pane can find
the wrapped line of match n (for n/N) without redoing Rich's line breaking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rich.style import Style
from rich.text import Text

if TYPE_CHECKING:
    from tui.core.model import Paper

MATCH_META = "match"
"""The style-meta key that numbers the matches."""


class DetailStyles(NamedTuple):
    """Rich styles for the parts of the detail pane (from component classes)."""

    name: Style
    title: Style
    meta: Style
    code: Style
    math: Style
    link: Style
    match: Style
    current_match: Style


_MARKUP = {
    "bold": Style(bold=True),
    "italic": Style(italic=True),
    "underline": Style(underline=True),
}


def detail_text(paper: Paper, terms: frozenset[str], styles: DetailStyles,
                list_size: int | None = None, current_match: int = -1) -> tuple[Text, int]:
    """The text of the detail pane and how many matches it marks.

    `current_match` (0-based) is drawn with `styles.current_match`; -1 marks none.
    """
    out = Text(justify="left")
    counter = _MatchCounter(terms, styles, current_match)
    if paper.name:
        out.append_text(counter.mark(Text(paper.name, style=styles.name)))
        out.append("\n")
    out.append_text(counter.mark(Text(paper.title, style=styles.title)))
    out.append("\n")
    if paper.authors:
        out.append(", ".join(paper.authors) + "\n")
    published = " · ".join(p for p in (str(paper.year or ""), paper.venue
                                        if paper.venue != paper.list_title else "") if p)
    if published:
        out.append(published + "\n", style=styles.meta)
    position = f"paper {paper.position + 1}" + (f" of {list_size}" if list_size else "")
    out.append(f"{paper.list_title} · {position} · {paper.file}\n", style=styles.meta)
    if paper.link:
        out.append(paper.link, style=styles.link + Style(link=paper.link))
        out.append("\n")
    ids = f"id {paper.id}" + (f" · source id {paper.source_id}" if paper.source_id else "")
    out.append(ids + (f" · doi {paper.doi}" if paper.doi else "") + "\n\n", style=styles.meta)
    out.append_text(counter.mark(abstract_text(paper.raw, styles)))
    return out, counter.count


def abstract_text(raw: str, styles: DetailStyles) -> Text:
    """The abstract rendered: math as Unicode; bold, emphasis, code and links styled."""
    from tui.core.render.text import render  # loaded by then: the search uses it too

    rendered = render(raw)
    text = Text(rendered.text)
    for span in rendered.spans:
        if span.style == "link":
            style = styles.link + Style(link=span.url or rendered.text[span.start:span.end])
        elif span.style == "code":
            style = styles.code
        elif span.style == "math":
            style = styles.math
        else:
            style = _MARKUP.get(span.style, Style())
        text.stylize(style, span.start, span.end)
    return text


class _MatchCounter:
    """Marks matched words in successive texts, numbering them in reading order."""

    def __init__(self, terms: frozenset[str], styles: DetailStyles, current: int) -> None:
        self.terms = terms
        self.styles = styles
        self.current = current
        self.count = 0

    def mark(self, text: Text) -> Text:
        from tui.core.search.highlight import match_spans

        for start, end in match_spans(text.plain, self.terms):
            look = self.styles.current_match if self.count == self.current else self.styles.match
            text.stylize(look + Style.from_meta({MATCH_META: self.count}), start, end)
            self.count += 1
        return text
