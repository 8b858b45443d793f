"""Turn an abstract's inline LaTeX and light Markdown into plain Unicode text plus style spans.

`render` is a hand-written, table-driven converter rather than a pylatexenc wrapper: abstracts
are prose with LaTeX sprinkled in, so `62%` must stay text (pylatexenc reads it as a comment
and drops the rest of the line), a lone `$` or brace must survive, and the result must be
predictable and fast (all 21k corpus abstracts in a few seconds). Anything it does not know
falls back to text: an unknown command shows its name or its argument, never nothing.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from tui.core.render import tables as T
from tui.core.render.math import MATH_ONLY, NAME, Math, control_symbol, glue_prefix
from tui.core.render.scan import find_math, match_braces, skip_space
from tui.core.render.spans import Out, Rendered, Span, strip

_MAX_EMPHASIS = 400  # a `*` further than this from its partner is not emphasis
_WORD = re.compile(r"[\w-]+")
_LISTY = re.compile(r"[\s,]")
_SPECIAL = re.compile(r"[\\$*`{}\[~<]|https?://|www\.")
_AUTOLINK = re.compile(r"<((?:https?://|www\.)[^\s<>{}\\$]+)>")
_URL = re.compile(r"(?:https?://|www\.)[^\s<>{}\"`\\|^$]+")
_MD_LINK = re.compile(r"\[([^\[\]\n]{1,300})\]\((https?://[^\s()<>]+)\)")
# A soft hyphen where a PDF's line broke, "signif(cid:173) icantly": never shown, and
# it splits the word into two that no query finds, so the word is joined again.
_SOFT_HYPHEN = re.compile(r"\(cid:173\)\s*")


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
        self.segments = find_math(raw)
        self.segment_at = {segment[0]: segment for segment in self.segments}
        self.segment_starts = [segment[0] for segment in self.segments]
        self.segment_ends = [segment[1] for segment in self.segments]
        self.braces = match_braces(raw, 0, self.n, self.segments)
        # For math commands written outside `$...$`, which keep the prose's own spacing.
        self.math = Math(raw, self.braces, pad_relations=False)
        self.out = Out()
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
        math = Math(self.raw, match_braces(self.raw, body_start, body_end, []))
        rendered = strip(math.sequence(body_start, body_end, 0))
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
            code = Out()
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
        link = Out()
        link.add(text)
        self.out.extend(link, "link", url)
        self.links.append(url)

    def argument(self, pos: int, limit: int) -> tuple[int, int] | None:
        """The (open, close) braces of the argument at `pos`, if it has one."""
        start = skip_space(self.raw, pos, limit)
        close = self.braces.get(start, limit) if self.raw[start : start + 1] == "{" else limit
        return (start, close) if close < limit else None

    def command(self, pos: int, limit: int) -> int:
        """Handle the backslash at `pos` in prose."""
        raw = self.raw
        if pos + 1 >= limit:
            self.out.add("\\")
            return pos + 1
        name_match = NAME.match(raw, pos + 1, limit)
        if name_match is None:
            char = raw[pos + 1]
            if char.isspace() and (pos == 0 or raw[pos - 1].isspace()):
                self.out.add("\\")  # `A \ B` is a stray backslash (or set minus), not `\ `
                return pos + 1
            if char in T.TEXT_ACCENTS:
                return self.accent(pos + 2, T.TEXT_ACCENTS[char], limit, fallback=char)
            text, used = control_symbol(raw, pos, limit)
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
            or name in T.MATH_ACCENTS or name in T.WRAPPERS or name in MATH_ONLY
            or glue_prefix(name) is not None
        )

    def math_command(self, pos: int, limit: int) -> int:
        """Render a math command written in prose (`\\alpha`, `\\sqrt{n}`) and nothing more."""
        k = bisect_left(self.segment_starts, pos)
        end = min(limit, self.segment_starts[k] if k < len(self.segment_starts) else self.n)
        rendered = Out()
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
        pos = skip_space(self.raw, after, limit)
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
    return _Text(_SOFT_HYPHEN.sub("", raw) if "(cid:173)" in raw else raw).run()
