"""LaTeX math to Unicode: scripts, accents, fractions, symbols, range by range.

`Math` renders the inside of a math segment (and math commands written in prose) into an
`Out`; the tables it looks things up in are `tables`."""

from __future__ import annotations

import re
import unicodedata

from tui.core.render import tables as T
from tui.core.render.scan import match_braces, skip_space
from tui.core.render.spans import Out

_MAX_ACCENTED = 4  # `\widehat{err}` marks each letter; longer arguments go unmarked
_MAX_DEPTH = 60  # nesting beyond this is shown raw, so deep input cannot overflow the stack
_FRACTIONS = frozenset("frac dfrac tfrac cfrac nicefrac".split())
_BINOMIALS = frozenset("binom dbinom tbinom".split())
MATH_ONLY = frozenset(
    "sqrt not stackrel overset underset ensuremath textsubscript textsuperscript".split()
) | _FRACTIONS | _BINOMIALS
NAME = re.compile(r"[A-Za-z]+")
_MATH_RUN = re.compile(r"[^\s^_{\\~&]+")
_SIMPLE_OPERAND = re.compile(r"√?[\w.′'*∞\u0300-\u036f\u20d7]+")
_ESCAPABLE = frozenset("{}|$%&_#")


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


def glue_prefix(name: str) -> str | None:
    """The known command a scraped name like `emphkernel` or `mathcalO` starts with."""
    for prefix in T.GLUE_PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix):
            return prefix
    return None


def control_symbol(raw: str, pos: int, end: int) -> tuple[str, int]:
    """Text for the backslash-plus-symbol at `pos`, and how many characters it used."""
    char = raw[pos + 1]
    if char == "\\":
        following = raw[pos + 2 : pos + 3] if pos + 2 < end else ""
        if following and (following in _ESCAPABLE or NAME.match(following)):
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


class Math:
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

    def emit(self, out: Out, text: str) -> None:
        out.add(text)
        if not self.prose and not self.has_math:
            self.has_math = any(
                not ch.isspace() and unicodedata.category(ch)[0] != "P" for ch in text
            )

    def sequence(self, pos: int, end: int, depth: int) -> Out:
        """Render src[pos:end]."""
        out, src = Out(), self.src
        if depth > _MAX_DEPTH:
            self.emit(out, src[pos:end])
            return out
        while pos < end:
            char = src[pos]
            if char.isspace():
                pos = skip_space(src, pos, end)
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

    def atom(self, pos: int, end: int, depth: int) -> tuple[Out | None, int]:
        """Render the one argument at `pos` (a group, a command or a character)."""
        pos = skip_space(self.src, pos, end)
        if pos >= end or self.src[pos] in "}^_":
            return None, pos
        if depth > _MAX_DEPTH:
            return self.sequence(pos, end, depth), end
        if self.src[pos] == "{":
            close = self.braces.get(pos, end)
            if close < end:
                return self.sequence(pos + 1, close, depth + 1), close + 1
        out = Out()
        if self.src[pos] == "\\":
            return out, self.command(out, pos, end, depth + 1)
        self.emit(out, self.src[pos])
        return out, pos + 1

    def command(self, out: Out, pos: int, end: int, depth: int) -> int:
        """Render the command at `pos` (a backslash) into `out`; return where it ends."""
        if pos + 1 >= end:
            self.emit(out, "\\")
            return pos + 1
        name_match = NAME.match(self.src, pos + 1, end)
        if name_match is None:
            text, used = control_symbol(self.src, pos, end)
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
        if name in MATH_ONLY:
            return self.structure(out, name, after, end, depth)
        return self.with_argument(out, name, after, end, depth)

    def drop_argument(self, name: str, after: int, end: int) -> int:
        """Skip the braced argument of `\\begin`, `\\label`...; an unbraced one is content."""
        start = skip_space(self.src, after, end)
        close = self.braces.get(start, end) if self.src[start : start + 1] == "{" else end
        if close >= end:
            return after
        if name == "begin" and self.src[start + 1 : close] in ("array", "tabular"):
            return self.drop_argument("", close + 1, end)  # the column spec
        return close + 1

    def with_argument(self, out: Out, name: str, after: int, end: int, depth: int) -> int:
        """Render fonts, styles, accents and unknown commands, which take one argument."""
        known = (
            name in T.FONT_COMMANDS or name in T.STYLE_COMMANDS or name in T.TRANSPARENT
            or name in T.MATH_ACCENTS or name in T.WRAPPERS
        )
        if not known:
            prefix = glue_prefix(name)
            if prefix is not None:
                glued = f"\\{prefix}{{{name[len(prefix):]}}}"
                inner = Math(glued, match_braces(glued, 0, len(glued), []))
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

    def structure(self, out: Out, name: str, after: int, end: int, depth: int) -> int:
        """Render fractions, roots, negations and stacked or scripted arguments."""
        index = ""
        if name == "sqrt":
            start = skip_space(self.src, after, end)
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

    def declaration(self, out: Out, name: str, after: int, end: int, depth: int) -> int:
        """`{\\bf x}`, `{\\cal O}`: style or re-letter the rest of the group."""
        rest = self.sequence(skip_space(self.src, after, end), end, depth + 1)
        if name in T.FONT_DECLARATIONS:
            table = T.FONTS[T.FONT_DECLARATIONS[name]]
            self.emit(out, "".join(table.get(ch, ch) for ch in rest.text()))
        else:
            out.extend(rest, T.STYLE_DECLARATIONS[name])
        return end
