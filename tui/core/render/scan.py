"""Where the math is: finding `$...$`, `\\(...\\)` and `\\[...\\]` segments in prose,
and matching braces, without rendering anything."""

from __future__ import annotations

import re

_MAX_INLINE_MATH = 600  # longest real `$...$` in the corpora is ~360 characters
_MAX_DISPLAY_MATH = 3000

_MATH_OPEN = re.compile(r"(?<!\\)(?:\$\$?|\\\(|\\\[)")
_MATH_EVIDENCE = re.compile(r"[\\^_=]")
_BRACE = re.compile(r"(?<!\\)[{}]")


def skip_space(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def _find_unescaped(text: str, token: str, start: int, stop: int) -> int:
    """Index of `token` in text[start:stop] not preceded by a backslash, or -1."""
    pos = text.find(token, start, stop)
    while pos > 0 and text[pos - 1] == "\\":
        pos = text.find(token, pos + 1, stop)
    return pos


def _looks_like_math(body: str, after: str) -> bool:
    """Whether `$body$` (followed by `after`) is math rather than two prices.

    Pandoc's rule (no space inside the dollars; `$20,000 and $30,000` is money) plus what
    scraped abstracts do: `$ d $` padded on both sides, and `$14\\epsilon T $`, where a
    backslash, script or `=` settles it.
    """
    stripped = body.strip()
    if not stripped:
        return False
    if _MATH_EVIDENCE.search(body):
        return True
    padded_open, padded_close = body[0].isspace(), body[-1].isspace()
    if padded_open or padded_close:  # `$5 and $10` is padded on one side only
        return padded_open and padded_close and not stripped[0].isdigit()
    return not (body[0].isdigit() and after.isdigit())  # `$5,$10`


def find_math(raw: str) -> list[tuple[int, int, int, int]]:
    """Math segments as (start, end, body_start, body_end), in order.

    An inline segment runs to the next unescaped `$`, within a sensible distance, when
    `_looks_like_math` agrees; so `costs $400.`, `$5 and $10` and `$5,$10` stay money.
    """
    segments: list[tuple[int, int, int, int]] = []
    n, pos = len(raw), 0
    while (match := _MATH_OPEN.search(raw, pos)) is not None:
        start, token = match.start(), match.group()
        pos = start + 1
        if token == "$$":
            close = _find_unescaped(raw, "$$", start + 2, min(n, start + _MAX_DISPLAY_MATH))
            if close > start + 2:
                segments.append((start, close + 2, start + 2, close))
                pos = close + 2
            continue  # otherwise the second `$` gets its chance as an inline opener
        if token == "$":
            close = _find_unescaped(raw, "$", start + 1, min(n, start + _MAX_INLINE_MATH))
            if close != -1 and _looks_like_math(raw[start + 1 : close], raw[close + 1 : close + 2]):
                segments.append((start, close + 1, start + 1, close))
                pos = close + 1
            continue
        closer = "\\)" if token == "\\(" else "\\]"
        close = raw.find(closer, start + 2, min(n, start + _MAX_DISPLAY_MATH))
        if close != -1:
            segments.append((start, close + 2, start + 2, close))
            pos = close + 2
    return segments


def match_braces(
    raw: str, start: int, end: int, skip: list[tuple[int, int, int, int]]
) -> dict[int, int]:
    """Map each balanced `{` in raw[start:end] (outside the `skip` segments) to its `}`."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    k = 0
    for match in _BRACE.finditer(raw, start, end):
        pos = match.start()
        while k < len(skip) and skip[k][1] <= pos:
            k += 1
        if k < len(skip) and skip[k][0] <= pos:
            continue
        if raw[pos] == "{":
            stack.append(pos)
        elif stack:
            pairs[stack.pop()] = pos
    return pairs
