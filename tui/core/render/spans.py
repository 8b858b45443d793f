"""What rendering produces: `Rendered` text with its `Span`s, and `Out`, the text
under construction that the math and prose renderers append to."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """A styled stretch of `Rendered.text`."""

    start: int
    """Offset of the first character, into `Rendered.text`."""
    end: int
    """Offset just past the last character."""
    style: str
    """One of "bold", "italic", "underline", "code", "math", "link"."""
    url: str = ""
    """The target, for "link" spans."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """An abstract made readable: plain text, the styles over it and the links in it."""

    text: str
    spans: tuple[Span, ...]
    """Sorted by start (outer spans first when two start together)."""
    links: tuple[str, ...]
    """URLs in order of first appearance, without repeats."""


class Out:
    """Text under construction plus its spans as (start, end, style, url) tuples."""

    __slots__ = ("parts", "length", "spans")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.spans: list[tuple[int, int, str, str]] = []

    def add(self, text: str) -> None:
        if text:
            self.parts.append(text)
            self.length += len(text)

    def extend(self, other: Out, style: str | None = None, url: str = "") -> None:
        """Append `other`, shifting its spans, and optionally style all of it."""
        start = self.length
        self.spans.extend((s + start, e + start, st, u) for s, e, st, u in other.spans)
        self.parts.extend(other.parts)
        self.length += other.length
        if style and other.length:
            self.spans.append((start, self.length, style, url))

    def ends_with_space(self) -> bool:
        return bool(self.parts) and self.parts[-1][-1].isspace()

    def text(self) -> str:
        return "".join(self.parts)


def strip(out: Out) -> Out:
    """`out` without surrounding whitespace, its spans clipped to match."""
    text = out.text()
    body = text.strip()
    if len(body) == len(text):
        return out
    lead = len(text) - len(text.lstrip())
    stripped = Out()
    stripped.add(body)
    for s, e, st, u in out.spans:
        s, e = max(0, s - lead), min(len(body), e - lead)
        if e > s:
            stripped.spans.append((s, e, st, u))
    return stripped
