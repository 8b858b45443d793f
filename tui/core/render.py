"""Turn an abstract's inline LaTeX and light Markdown into plain Unicode text plus style spans.

`render` is a hand-written, table-driven converter rather than a pylatexenc wrapper: abstracts
are prose with LaTeX sprinkled in, so `62%` must stay text (pylatexenc reads it as a comment
and drops the rest of the line), a lone `$` or brace must survive, and the result must be
predictable and fast (all 21k corpus abstracts in a few seconds). Anything it does not know
falls back to text: an unknown command shows its name or its argument, never nothing.

`math_aliases` gives the search index ASCII spellings of each math segment (`$\\tau^2$` →
`tau2 tau 2`), since nobody types `τ²` into a search box.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from tui.core import latex_tables as T


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


_MAX_INLINE_MATH = 600  # longest real `$...$` in the corpora is ~360 characters
_MAX_DISPLAY_MATH = 3000
_MAX_EMPHASIS = 400  # a `*` further than this from its partner is not emphasis
_MAX_ACCENTED = 4  # `\widehat{err}` marks each letter; longer arguments go unmarked
_MAX_DEPTH = 60  # nesting beyond this is shown raw, so deep input cannot overflow the stack
_FRACTIONS = frozenset("frac dfrac tfrac cfrac nicefrac".split())
_BINOMIALS = frozenset("binom dbinom tbinom".split())
_MATH_ONLY = frozenset(
    "sqrt not stackrel overset underset ensuremath textsubscript textsuperscript".split()
) | _FRACTIONS | _BINOMIALS

_NAME = re.compile(r"[A-Za-z]+")
_WORD = re.compile(r"[\w-]+")
_MATH_OPEN = re.compile(r"(?<!\\)(?:\$\$?|\\\(|\\\[)")
_MATH_EVIDENCE = re.compile(r"[\\^_=]")
_LISTY = re.compile(r"[\s,]")
_BRACE = re.compile(r"(?<!\\)[{}]")
_SPECIAL = re.compile(r"[\\$*`{}\[~<]|https?://|www\.")
_AUTOLINK = re.compile(r"<((?:https?://|www\.)[^\s<>{}\\$]+)>")
_MATH_RUN = re.compile(r"[^\s^_{\\~&]+")
_URL = re.compile(r"(?:https?://|www\.)[^\s<>{}\"`\\|^$]+")
_MD_LINK = re.compile(r"\[([^\[\]\n]{1,300})\]\((https?://[^\s()<>]+)\)")
_SIMPLE_OPERAND = re.compile(r"√?[\w.′'*∞\u0300-\u036f\u20d7]+")
_ESCAPABLE = frozenset("{}|$%&_#")


class _Out:
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

    def extend(self, other: _Out, style: str | None = None, url: str = "") -> None:
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


def _strip(out: _Out) -> _Out:
    """`out` without surrounding whitespace, its spans clipped to match."""
    text = out.text()
    body = text.strip()
    if len(body) == len(text):
        return out
    lead = len(text) - len(text.lstrip())
    stripped = _Out()
    stripped.add(body)
    for s, e, st, u in out.spans:
        s, e = max(0, s - lead), min(len(body), e - lead)
        if e > s:
            stripped.spans.append((s, e, st, u))
    return stripped


def _skip_space(text: str, pos: int, end: int) -> int:
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


def _find_math(raw: str) -> list[tuple[int, int, int, int]]:
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


def _match_braces(
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


def _try_map(text: str, table: dict[str, str]) -> str | None:
    """`text` with every character mapped through `table`, or None if one has no entry."""
    try:
        return "".join(table[ch] for ch in text)
    except KeyError:
        return None


def _script(text: str, superscript: bool) -> str:
    """`text` as Unicode super/subscripts, or `^x` / `_(…)` when some character has none."""
    compact = "".join(text.split())
    if not compact:
        return ""
    mapped = _try_map(compact, T.SUPERSCRIPTS if superscript else T.SUBSCRIPTS)
    if mapped is not None:
        return mapped
    marker = "^" if superscript else "_"
    return marker + compact if len(compact) == 1 else f"{marker}({' '.join(text.split())})"


def _operand(text: str) -> str:
    """Parenthesise a fraction or root operand unless it is one simple term."""
    text = text.strip()
    if not text or _SIMPLE_OPERAND.fullmatch(text):
        return text
    if text[0] == "(" and text[-1] == ")" and text.count("(") == 1:
        return text
    return f"({text})"


def _accent(text: str, mark: str) -> str:
    """Put a combining `mark` on each character of `text`, composed where Unicode can."""
    clusters: list[str] = []
    for char in text:
        if clusters and unicodedata.combining(char):
            clusters[-1] += char  # marks already there belong to their base, not get one each
        else:
            clusters.append(char)
    if len(clusters) > _MAX_ACCENTED:
        return text  # a hat over a whole formula cannot be drawn in text; show the formula
    marked = "".join(c if c.isspace() else c + mark for c in clusters)
    return unicodedata.normalize("NFC", marked)


def _glue_prefix(name: str) -> str | None:
    """The known command a scraped name like `emphkernel` or `mathcalO` starts with."""
    for prefix in T.GLUE_PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix):
            return prefix
    return None


def _control_symbol(raw: str, pos: int, end: int) -> tuple[str, int]:
    """Text for the backslash-plus-symbol at `pos`, and how many characters it used."""
    char = raw[pos + 1]
    if char == "\\":
        following = raw[pos + 2 : pos + 3] if pos + 2 < end else ""
        if following and (following in _ESCAPABLE or _NAME.match(following)):
            # Scraped text often doubles backslashes (`\\hat`, `\\{0,1\\}`): read as one.
            return "", 1
        return " ", 2  # a LaTeX line break
    if char in ",;: >":
        return " ", 2
    if char in "!-/@":
        return "", 2  # thin negative space, hyphenation hint, italic correction
    if char == "|":
        return "‖", 2
    if char in _ESCAPABLE:
        return char, 2
    return raw[pos : pos + 2], 2  # a stray backslash: keep it rather than guess


class _Math:
    """Renders LaTeX math from `src` into Unicode, range by range."""

    def __init__(self, src: str, braces: dict[int, int], pad_relations: bool = True) -> None:
        self.src = src
        self.braces = braces
        self.pad_relations = pad_relations
        """Space out `≤`, `×`, `∈`...: LaTeX spaces them in print, whatever the source has."""
        self.has_math = False
        """Whether anything beyond prose (`\\textbf{...}`) and punctuation was produced."""
        self.prose = 0
        """Depth of prose-argument commands being rendered (they do not count as math)."""

    def emit(self, out: _Out, text: str) -> None:
        out.add(text)
        if not self.prose and not self.has_math:
            self.has_math = any(
                not ch.isspace() and unicodedata.category(ch)[0] != "P" for ch in text
            )

    def sequence(self, pos: int, end: int, depth: int) -> _Out:
        """Render src[pos:end]."""
        out, src = _Out(), self.src
        if depth > _MAX_DEPTH:
            self.emit(out, src[pos:end])
            return out
        while pos < end:
            char = src[pos]
            if char.isspace():
                pos = _skip_space(src, pos, end)
                # LaTeX ignores math spaces; keep one as a reader's hint, except where it
                # would detach a script or trail at the end.
                if out.length and pos < end and src[pos] not in "^_}" and not out.ends_with_space():
                    out.add(" ")
            elif char in "^_":
                arg, after = self.atom(pos + 1, end, depth + 1)
                if arg is None:
                    self.emit(out, char)
                    pos += 1
                else:
                    self.emit(out, _script(arg.text(), char == "^"))
                    pos = after
            elif char == "{":
                close = self.braces.get(pos, end)
                if close >= end:
                    self.emit(out, char)
                    pos += 1
                else:
                    out.extend(self.sequence(pos + 1, close, depth + 1))
                    pos = close + 1
            elif char == "\\":
                pos = self.command(out, pos, end, depth)
            elif char in "~&":  # a tie or an alignment tab: both read as a space
                if not out.ends_with_space():
                    out.add(" ")
                pos += 1
            else:
                run = _MATH_RUN.match(src, pos, end)
                text = run.group() if run else char  # `run` always matches; be safe anyway
                self.emit(out, text)
                pos += len(text)
        return out

    def atom(self, pos: int, end: int, depth: int) -> tuple[_Out | None, int]:
        """Render the one argument at `pos` (a group, a command or a character)."""
        pos = _skip_space(self.src, pos, end)
        if pos >= end or self.src[pos] in "}^_":
            return None, pos
        if depth > _MAX_DEPTH:
            return self.sequence(pos, end, depth), end
        if self.src[pos] == "{":
            close = self.braces.get(pos, end)
            if close < end:
                return self.sequence(pos + 1, close, depth + 1), close + 1
        out = _Out()
        if self.src[pos] == "\\":
            return out, self.command(out, pos, end, depth + 1)
        self.emit(out, self.src[pos])
        return out, pos + 1

    def command(self, out: _Out, pos: int, end: int, depth: int) -> int:
        """Render the command at `pos` (a backslash) into `out`; return where it ends."""
        if pos + 1 >= end:
            self.emit(out, "\\")
            return pos + 1
        name_match = _NAME.match(self.src, pos + 1, end)
        if name_match is None:
            text, used = _control_symbol(self.src, pos, end)
            if not (text == " " and out.ends_with_space()):
                self.emit(out, text)
            return pos + used
        name, after = name_match.group(), name_match.end()
        if name in T.SYMBOLS:
            padded = self.pad_relations and name in T.PADDED
            if padded and out.length and not out.ends_with_space():
                out.add(" ")
            self.emit(out, T.SYMBOLS[name])
            if padded:
                out.add(" ")
            return after
        if name in T.CITES:
            arg, nxt = self.atom(after, end, depth)
            self.emit(out, f"[{arg.text().strip()}]" if arg is not None else name)
            return nxt
        if name in T.SIZING:
            return after + 1 if self.src[after : after + 1] == "." else after  # `\left.`
        if name in T.IGNORED:
            return after
        if name in T.FONT_DECLARATIONS or name in T.STYLE_DECLARATIONS:
            return self.declaration(out, name, after, end, depth)
        if name in T.DROP_WITH_ARG:
            return self.drop_argument(name, after, end)
        if name == "operatorname" and self.src[after : after + 1] == "*":
            after += 1
        if name in _MATH_ONLY:
            return self.structure(out, name, after, end, depth)
        return self.with_argument(out, name, after, end, depth)

    def drop_argument(self, name: str, after: int, end: int) -> int:
        """Skip the braced argument of `\\begin`, `\\label`...; an unbraced one is content."""
        start = _skip_space(self.src, after, end)
        close = self.braces.get(start, end) if self.src[start : start + 1] == "{" else end
        if close >= end:
            return after
        if name == "begin" and self.src[start + 1 : close] in ("array", "tabular"):
            return self.drop_argument("", close + 1, end)  # the column spec
        return close + 1

    def with_argument(self, out: _Out, name: str, after: int, end: int, depth: int) -> int:
        """Render fonts, styles, accents and unknown commands, which take one argument."""
        known = (
            name in T.FONT_COMMANDS or name in T.STYLE_COMMANDS or name in T.TRANSPARENT
            or name in T.MATH_ACCENTS or name in T.WRAPPERS
        )
        if not known:
            prefix = _glue_prefix(name)
            if prefix is not None:
                glued = f"\\{prefix}{{{name[len(prefix):]}}}"
                inner = _Math(glued, _match_braces(glued, 0, len(glued), []))
                out.extend(inner.sequence(0, len(glued), depth + 1))
                self.has_math = self.has_math or (inner.has_math and not self.prose)
                return after
            self.emit(out, name)  # unknown: the name is the best text there is
            if self.src[after : after + 1] != "{":
                return after
        prose = name in T.TEXT_STYLE_COMMANDS or name in T.PROSE_TRANSPARENT
        self.prose += prose
        arg, nxt = self.atom(after, end, depth)
        self.prose -= prose
        if arg is None:
            return after
        if name in T.FONT_COMMANDS:
            table = T.FONTS[T.FONT_COMMANDS[name]]
            self.emit(out, "".join(table.get(ch, ch) for ch in arg.text()))
        elif name in T.STYLE_COMMANDS:
            out.extend(arg, T.STYLE_COMMANDS[name])
        elif name in T.TRANSPARENT:
            out.extend(arg)
        elif name in T.MATH_ACCENTS:
            self.emit(out, _accent(arg.text(), T.MATH_ACCENTS[name]))
        elif name in T.WRAPPERS:
            opener, closer = T.WRAPPERS[name]
            self.emit(out, opener + arg.text() + closer)
        elif arg.length:  # unknown command with an argument: name(argument)
            self.emit(out, "(")
            out.extend(arg)
            self.emit(out, ")")
        return nxt

    def structure(self, out: _Out, name: str, after: int, end: int, depth: int) -> int:
        """Render fractions, roots, negations and stacked or scripted arguments."""
        index = ""
        if name == "sqrt":
            start = _skip_space(self.src, after, end)
            close = self.src.find("]", start, end) if self.src[start : start + 1] == "[" else -1
            if close != -1:
                index = self.sequence(start + 1, close, depth + 1).text().strip()
                after = close + 1
        first, nxt = self.atom(after, end, depth)
        if first is None:
            return after
        if name == "sqrt":
            degree = "" if index in ("", "2") else _try_map(index, T.SUPERSCRIPTS) or f"({index})"
            self.emit(out, degree + "√" + _operand(first.text()))
            return nxt
        if name == "not":
            text = first.text()
            self.emit(out, unicodedata.normalize("NFC", text[:1] + "\u0338" + text[1:]))
            return nxt
        if name in ("textsubscript", "textsuperscript"):
            self.emit(out, _script(first.text(), name == "textsuperscript"))
            return nxt
        if name == "ensuremath":
            out.extend(first)
            self.has_math = True
            return nxt
        second, last = self.atom(nxt, end, depth)
        if second is None:
            out.extend(first)
            return nxt
        top, bottom = first.text(), second.text()
        if name in _FRACTIONS:
            self.emit(out, f"{_operand(top)}/{_operand(bottom)}")
        elif name in _BINOMIALS:
            self.emit(out, f"C({top.strip()},{bottom.strip()})")
        else:  # \stackrel{def}{=}, \overset{a}{b}, \underset{a}{b}
            self.emit(out, bottom + _script(top, name != "underset"))
        return last

    def declaration(self, out: _Out, name: str, after: int, end: int, depth: int) -> int:
        """`{\\bf x}`, `{\\cal O}`: style or re-letter the rest of the group."""
        rest = self.sequence(_skip_space(self.src, after, end), end, depth + 1)
        if name in T.FONT_DECLARATIONS:
            table = T.FONTS[T.FONT_DECLARATIONS[name]]
            self.emit(out, "".join(table.get(ch, ch) for ch in rest.text()))
        else:
            out.extend(rest, T.STYLE_DECLARATIONS[name])
        return end


@dataclass(slots=True)
class _Frame:
    """An open styled stretch of text: a brace group, `**...**`, a quote, a link."""

    end: int
    """Raw index where the closing delimiter starts."""
    close_len: int
    """Length of the closing delimiter, skipped when the frame ends."""
    style: str | None
    url: str
    out_start: int
    close_text: str = ""
    group: bool = False
    """A brace group, so `{\\em ...}` declarations inside it end with it."""
    declarations: list[tuple[str, int]] = field(default_factory=list)


class _Text:
    """Renders a whole abstract: prose, Markdown and the math segments within it."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.n = len(raw)
        self.segments = _find_math(raw)
        self.segment_at = {segment[0]: segment for segment in self.segments}
        self.segment_starts = [segment[0] for segment in self.segments]
        self.segment_ends = [segment[1] for segment in self.segments]
        self.braces = _match_braces(raw, 0, self.n, self.segments)
        # For math commands written outside `$...$`, which keep the prose's own spacing.
        self.math = _Math(raw, self.braces, pad_relations=False)
        self.out = _Out()
        self.frames: list[_Frame] = []
        self.links: list[str] = []

    def run(self) -> Rendered:
        raw, pos = self.raw, 0
        while True:
            limit = self.frames[-1].end if self.frames else self.n
            if pos >= limit:
                if not self.frames:
                    break
                pos = max(pos, self.close_frame())
                continue
            match = _SPECIAL.search(raw, pos, limit)
            if match is None:
                self.out.add(raw[pos:limit])
                pos = limit
                continue
            start = match.start()
            self.out.add(raw[pos:start])
            pos = self.special(start, match.group(), limit)
        spans = sorted(
            (Span(s, e, st, u) for s, e, st, u in self.out.spans if e > s),
            key=lambda span: (span.start, -span.end),
        )
        return Rendered(self.out.text(), tuple(spans), tuple(dict.fromkeys(self.links)))

    def push(
        self, end: int, close_len: int, style: str | None, *,
        url: str = "", close_text: str = "", group: bool = False,
    ) -> None:
        """Open a frame whose content runs from here to raw index `end`."""
        self.frames.append(_Frame(end, close_len, style, url, self.out.length, close_text, group))

    def close_frame(self) -> int:
        frame = self.frames.pop()
        end = self.out.length
        if frame.style:
            self.out.spans.append((frame.out_start, end, frame.style, frame.url))
        self.out.spans.extend((start, end, style, "") for style, start in frame.declarations)
        self.out.add(frame.close_text)
        return frame.end + frame.close_len

    def in_math(self, pos: int) -> bool:
        k = bisect_right(self.segment_starts, pos) - 1
        return k >= 0 and pos < self.segment_ends[k]

    def special(self, pos: int, token: str, limit: int) -> int:
        """Handle the markup character at `pos`; return where plain text resumes."""
        char = token[0]
        if pos in self.segment_at:
            return self.math_segment(self.segment_at[pos])
        if char == "\\":
            return self.command(pos, limit)
        if char == "{":
            close = self.braces.get(pos, limit)
            if close >= limit:
                self.out.add(char)  # unbalanced: just a character
            elif self.raw[pos + 1 : pos + 2] == "\\" or not _LISTY.search(self.raw, pos + 1, close):
                self.push(close, 1, None, group=True)  # `{\em x}`, `{G}aussian`: LaTeX grouping
            else:
                self.out.add(char)  # `{0,1}`, `{ a b }`: braces the author meant to show
                self.push(close, 1, None, group=True, close_text="}")
            return pos + 1
        if char == "*":
            return self.emphasis(pos, limit)
        if char == "`":
            return self.backtick(pos, limit)
        if char == "[":
            return self.markdown_link(pos, limit)
        if char == "~":
            return self.tie(pos)
        if char == "<":
            return self.autolink(pos, limit)
        if char in "$}":
            self.out.add(char)
            return pos + 1
        return self.bare_url(pos, limit)

    def math_segment(self, segment: tuple[int, int, int, int]) -> int:
        start, end, body_start, body_end = segment
        math = _Math(self.raw, _match_braces(self.raw, body_start, body_end, []))
        rendered = _strip(math.sequence(body_start, body_end, 0))
        # `where $ d $ are`: padding inside the dollars still separates words outside them.
        if self.raw[body_start].isspace() and not self.out.ends_with_space():
            self.out.add(" ")
        self.out.extend(rendered, "math" if math.has_math else None)
        if self.raw[body_end - 1].isspace() and not self.raw[end : end + 1].isspace():
            self.out.add(" ")
        return end

    def emphasis(self, pos: int, limit: int) -> int:
        """`*x*`, `**x**`, `***x***`, only where stars clearly wrap words (not `A*`, `2 * 3`)."""
        raw = self.raw
        stars = raw[pos:limit]
        run = len(stars) - len(stars.lstrip("*"))
        width = min(run, 3)  # `***x***` is bold italic
        before = raw[pos - 1] if pos else " "
        after = raw[pos + width : pos + width + 1]
        opens = before.isspace() or before in "([{\"'`“‘-/"
        if opens and after and not after.isspace():
            close = self.emphasis_closer(pos + width + 1, limit, width)
            if close != -1:
                self.push(close, width, "italic" if width == 1 else "bold")
                if width == 3:
                    self.push(close, 0, "italic")
                return pos + width
        self.out.add(raw[pos : pos + run])
        return pos + run

    def emphasis_closer(self, start: int, limit: int, width: int) -> int:
        raw, stop = self.raw, min(limit, start + _MAX_EMPHASIS)
        delimiter = "*" * width
        pos = raw.find(delimiter, start, stop)
        while pos != -1:
            following = raw[pos + width : pos + width + 1]
            ok = not raw[pos - 1].isspace() and raw[pos - 1] != "*" and following != "*"
            # `**WE**ighted` is bold WE (Markdown allows it), but `*a*b` is not italic.
            ok = ok and (width > 1 or not following.isalnum())
            if ok and not self.in_math(pos) and any(ch.isalnum() for ch in raw[start - 1 : pos]):
                return pos
            pos = raw.find(delimiter, pos + 1, stop)
        return -1

    def backtick(self, pos: int, limit: int) -> int:
        """Markdown code spans, and LaTeX quotes: ``double'' and `single'."""
        raw = self.raw
        run = len(raw[pos:limit]) - len(raw[pos:limit].lstrip("`"))
        stop = min(limit, pos + _MAX_EMPHASIS)
        code_close = raw.find("`" * run, pos + run, stop)
        quote_close, quote_len = -1, 0
        if run <= 2:
            for closer in (("''", '"', "”") if run == 2 else ("'", "’")):
                found = raw.find(closer, pos + run + 1, stop)
                while found != -1 and (
                    raw[found + len(closer) : found + len(closer) + 1].isalnum()
                    or self.in_math(found)
                ):
                    found = raw.find(closer, found + 1, stop)  # an apostrophe, not a quote
                if found != -1 and (quote_close == -1 or found < quote_close):
                    quote_close, quote_len = found, len(closer)
        if quote_close != -1 and (code_close == -1 or quote_close < code_close):
            self.out.add("“" if run == 2 else "‘")
            self.push(quote_close, quote_len, None, close_text="”" if run == 2 else "’")
            return pos + run
        if code_close > pos + run and not self.in_math(code_close):
            content = raw[pos + run : code_close]
            code = _Out()
            code.add(content.strip() if content.strip() else content)
            self.out.extend(code, "code")
            return code_close + run
        self.out.add(raw[pos : pos + run])
        return pos + run

    def markdown_link(self, pos: int, limit: int) -> int:
        match = _MD_LINK.match(self.raw, pos, limit)
        if match is None or self.in_math(match.end(1)):
            self.out.add("[")
            return pos + 1
        url = match.group(2)
        self.links.append(url)
        self.push(match.end(1), match.end() - match.end(1), "link", url=url)
        return pos + 1

    def tie(self, pos: int) -> int:
        """LaTeX's `~` (`et~al.`) is a space; a prose `~10%` keeps its tilde."""
        before = self.raw[pos - 1] if pos else ""
        after = self.raw[pos + 1 : pos + 2]
        tie = bool(before and after) and (before.isalnum() or before in ".,;:") and (
            after.isalnum() or after in "(\\[$"
        )
        self.out.add(" " if tie else "~")
        return pos + 1

    def autolink(self, pos: int, limit: int) -> int:
        """Markdown's `<https://...>`: a link without its angle brackets."""
        match = _AUTOLINK.match(self.raw, pos, limit)
        if match is None:
            self.out.add("<")
            return pos + 1
        self.add_link(match.group(1))
        return match.end()

    def bare_url(self, pos: int, limit: int) -> int:
        raw = self.raw
        match = _URL.match(raw, pos, limit)
        if match is None or (pos and (raw[pos - 1].isalnum() or raw[pos - 1] in "/@.")):
            self.out.add(raw[pos])
            return pos + 1
        text = match.group()
        while text and (
            text[-1] in ".,;:!?'*"
            or (text[-1] == ")" and text.count("(") < text.count(")"))
            or (text[-1] == "]" and text.count("[") < text.count("]"))
        ):
            text = text[:-1]  # sentence punctuation after a URL is not part of it
        if len(text) <= len("https://"):
            self.out.add(raw[pos])
            return pos + 1
        self.add_link(text)
        return pos + len(text)

    def add_link(self, text: str, url: str = "") -> None:
        """Show `text` as a link to `url` (by default the text itself, `www.` made http)."""
        if not text:
            return
        url = url or (text if text.startswith(("http://", "https://")) else "http://" + text)
        link = _Out()
        link.add(text)
        self.out.extend(link, "link", url)
        self.links.append(url)

    def argument(self, pos: int, limit: int) -> tuple[int, int] | None:
        """The (open, close) braces of the argument at `pos`, if it has one."""
        start = _skip_space(self.raw, pos, limit)
        close = self.braces.get(start, limit) if self.raw[start : start + 1] == "{" else limit
        return (start, close) if close < limit else None

    def command(self, pos: int, limit: int) -> int:
        """Handle the backslash at `pos` in prose."""
        raw = self.raw
        if pos + 1 >= limit:
            self.out.add("\\")
            return pos + 1
        name_match = _NAME.match(raw, pos + 1, limit)
        if name_match is None:
            char = raw[pos + 1]
            if char.isspace() and (pos == 0 or raw[pos - 1].isspace()):
                self.out.add("\\")  # `A \ B` is a stray backslash (or set minus), not `\ `
                return pos + 1
            if char in T.TEXT_ACCENTS:
                return self.accent(pos + 2, T.TEXT_ACCENTS[char], limit, fallback=char)
            text, used = _control_symbol(raw, pos, limit)
            self.out.add(text)
            return pos + used
        name, after = name_match.group(), name_match.end()
        arg = self.argument(after, limit)
        if name in T.STYLE_DECLARATIONS:
            return self.declaration(T.STYLE_DECLARATIONS[name], after, limit)
        if name in T.TEXT_ACCENTS and arg is not None:
            return self.accent(arg[0], T.TEXT_ACCENTS[name], limit, fallback=name)
        if name in T.TEXT_WORDS:
            self.out.add(T.TEXT_WORDS[name])
            return after + 2 if raw[after : after + 2] == "{}" else after
        if name in ("url", "href") and arg is not None:
            url = raw[arg[0] + 1 : arg[1]].strip()
            text_arg = self.argument(arg[1] + 1, limit) if name == "href" else None
            if text_arg is None or not raw[text_arg[0] + 1 : text_arg[1]].strip():
                self.add_link(url, url)  # no text to show: show the address
                return arg[1] + 1 if text_arg is None else text_arg[1] + 1
            self.links.append(url)
            self.push(text_arg[1], 1, "link", url=url, group=True)
            return text_arg[0] + 1
        if name in T.CITES and arg is not None:
            self.out.add(f"[{raw[arg[0] + 1 : arg[1]].strip()}]")
            return arg[1] + 1
        if name in ("textcolor", "colorbox") and arg is not None:
            arg = self.argument(arg[1] + 1, limit)  # the colour is not prose; the text is
            name = "text"
        if self.is_math_command(name):
            return self.math_command(pos, limit)
        if name in T.DROP_WITH_ARG:
            return arg[1] + 1 if arg is not None else after
        if name in T.STYLE_COMMANDS or name in T.TRANSPARENT:
            if arg is not None:
                self.push(arg[1], 1, T.STYLE_COMMANDS.get(name), group=True)
                return arg[0] + 1
            return after
        if raw[after : after + 1] == "{" and arg is not None and arg[1] > arg[0] + 1:
            self.push(arg[1], 1, None, group=True)  # an unknown macro: keep its argument
            return arg[0] + 1
        self.out.add(name)  # an unknown macro alone (or with `{}`): keep its name
        return after + 2 if raw[after : after + 2] == "{}" else after

    @staticmethod
    def is_math_command(name: str) -> bool:
        """Whether a command in prose is math (`\\alpha`, `\\sqrt`, `\\mathcalO`)."""
        if name in T.STYLE_COMMANDS or name in T.TRANSPARENT:
            return False  # their argument is prose here, with prose rules (`*`, `~`, URLs)
        return (
            name in T.SYMBOLS or name in T.SIZING or name in T.FONT_COMMANDS
            or name in T.MATH_ACCENTS or name in T.WRAPPERS or name in _MATH_ONLY
            or _glue_prefix(name) is not None
        )

    def math_command(self, pos: int, limit: int) -> int:
        """Render a math command written in prose (`\\alpha`, `\\sqrt{n}`) and nothing more."""
        k = bisect_left(self.segment_starts, pos)
        end = min(limit, self.segment_starts[k] if k < len(self.segment_starts) else self.n)
        rendered = _Out()
        self.math.has_math = False
        after = self.math.command(rendered, pos, end, 0)
        self.out.extend(rendered, "math" if self.math.has_math else None)
        return after

    def accent(self, pos: int, mark: str, limit: int, fallback: str) -> int:
        raw = self.raw
        if raw[pos : pos + 1] == "{":
            close = self.braces.get(pos, limit)
            base = raw[pos + 1 : close].strip() if close < limit else ""
            base = base[1:] if base in ("\\i", "\\j") else base  # dotless i under an accent
            if base and "\\" not in base and "{" not in base:
                self.out.add(unicodedata.normalize("NFC", base[0] + mark + base[1:]))
                return close + 1
        elif raw[pos : pos + 1].isalpha() and pos < limit:
            self.out.add(unicodedata.normalize("NFC", raw[pos] + mark))
            return pos + 1
        self.out.add(fallback)  # nothing to accent: keep the character itself
        return pos

    def declaration(self, style: str | None, after: int, limit: int) -> int:
        """`{\\em x}` styles the rest of its group; a bare `\\em x` (braces lost) one word."""
        pos = _skip_space(self.raw, after, limit)
        if style is None:
            return pos
        top = self.frames[-1] if self.frames else None
        if top is not None and top.group:
            top.declarations.append((style, self.out.length))
        elif (word := _WORD.match(self.raw, pos, limit)) is not None:
            self.push(word.end(), 0, style)
        return pos


def render(raw: str) -> Rendered:
    """Render an abstract's LaTeX and Markdown as Unicode text with style spans and links."""
    try:
        return _render(raw)
    except Exception:  # noqa: BLE001 — a reader must show an odd abstract, never crash on it
        return Rendered(raw, (), ())


def _render(raw: str) -> Rendered:
    """`render` without the safety net, so tests see any bug."""
    if not raw:
        return Rendered("", (), ())
    return _Text(raw).run()


_ALIAS_TOKEN = re.compile(r"\\([A-Za-z]+)|\\.|([A-Za-z0-9]+)|([\^_{}])|(\s+)|(.)", re.S)


def math_aliases(raw: str) -> str:
    """ASCII search aliases for each math segment: `$\\ell_p$` → `ell_p ellp ell p`.

    Each run of a segment that reads as one term (`\\tau^2`, `x_{ij}`) gives its compact
    form, that form without underscores, and its pieces; formatting commands (`\\mathcal`,
    `\\frac`, `\\left`) are left out. "" when `raw` has no math.
    """
    aliases: dict[str, None] = {}
    for _, _, start, end in _find_math(raw):
        for pieces, compact in _alias_terms(raw[start:end]):
            for alias in (compact, compact.replace("_", ""), " ".join(pieces)):
                if alias:
                    aliases.setdefault(alias, None)
    return " ".join(aliases)


def _alias_terms(body: str) -> list[tuple[list[str], str]]:
    """Split a math body into terms, each as (pieces, compact form with underscores)."""
    terms: list[tuple[list[str], str]] = []
    pieces: list[str] = []
    compact, joined, pending_underscore = "", False, False

    def finish() -> None:
        nonlocal pieces, compact, joined, pending_underscore
        if pieces:
            terms.append((pieces, compact))
        pieces, compact, joined, pending_underscore = [], "", False, False

    for match in _ALIAS_TOKEN.finditer(body):
        command, word, joiner, _, other = match.groups()
        prefix = _glue_prefix(command) if command else None
        if prefix and command not in T.SYMBOLS and command not in T.ALIAS_NOISE:
            command, word, joined = None, command[len(prefix) :], True  # `\mathcalO` is O
        if other is not None:  # a Unicode symbol typed directly, or punctuation
            command = T.SYMBOL_NAMES.get(other)
            folded = unicodedata.normalize("NFKD", other).encode("ascii", "ignore").decode()
            word = folded if command is None and folded.isalnum() else None
        if command is not None and command in T.ALIAS_NOISE:
            joined = True  # `\mathcal{O}` is a term O, not `mathcal` plus O
            continue
        if command is not None or word is not None:
            if command is not None and not joined:
                finish()  # `p\geq 1`: a symbol starts its own term
            piece = command if command is not None else word
            compact += ("_" if pending_underscore and compact else "") + piece
            pieces.append(piece)
            joined, pending_underscore = False, False
        elif joiner is not None and (joiner != "}" or body[match.end() : match.end() + 1] in "^_"):
            joined = True  # `^`, `_`, `{` and a `}` before a script keep the term going
            pending_underscore = pending_underscore or joiner == "_"
        else:
            finish()  # whitespace, punctuation, escapes and closing groups end a term
    finish()
    return terms
