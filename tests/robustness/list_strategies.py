"""Hypothesis strategies for hostile paper-list files, each with what must happen to it.

A *readable* file is UTF-8 text whose papers the generator knows: a title line, then
paragraphs separated by blank lines. Every line of every paragraph starts with a
visible character, so blank-line detection and hard-wrap joining cannot change the
count, and every paragraph starts with a unique marker word (``qzbcx``) that must find
exactly that paper. Between the markers anything goes: RTL text and bidi controls,
combining marks, emoji sequences, CJK, lone ``$ \\ { } %``, LaTeX and Markdown debris,
control characters, 20,000-character paragraphs, CRLF or CR line ends and a BOM.

A *refused* file must be turned down with a one-line message: NUL bytes, invalid
UTF-8, an empty file, a file of blank lines, or a title with no abstracts.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

TITLE = "Hostile list"
LONG_PARAGRAPH = 20_000
_MARKER_LETTERS = "bcdfghjklmnpqrstvwxz"  # no vowels: the stemmer leaves the word alone


@dataclass(frozen=True)
class ListFile:
    """A generated list file and the outcome it must have."""

    data: bytes
    markers: tuple[str, ...] = ()
    """One marker word per paper, in order; empty when the file must be refused."""
    refusal: str = ""
    """A fragment the one-line refusal must contain ("" for readable files)."""

    @property
    def papers(self) -> int:
        return len(self.markers)


def marker(position: int) -> str:
    """The unique word that starts paragraph ``position`` (up to 400 paragraphs)."""
    first, second = divmod(position, len(_MARKER_LETTERS))
    return f"qz{_MARKER_LETTERS[first]}{_MARKER_LETTERS[second]}x"


# Pieces of paragraphs ------------------------------------------------------------

RTL = st.characters(min_codepoint=0x0590, max_codepoint=0x06FF) | st.sampled_from(
    ["\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066",
     "\u2067", "\u2068", "\u2069", "\u061c", "שלום עולם", "مرحبا بالعالم"])
COMBINING = st.characters(categories=["Mn", "Mc", "Me"])
EMOJI = st.characters(min_codepoint=0x1F300, max_codepoint=0x1FAFF) | st.sampled_from(
    ["👩‍👩‍👧‍👦", "🏳️‍🌈", "🇯🇵", "👍🏽", "❤️", "🧑🏿‍🚀", "#️⃣", "\u200d", "\ufe0f"])
CJK = (st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
       | st.characters(min_codepoint=0x3040, max_codepoint=0x30FF)
       | st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)
       | st.characters(min_codepoint=0x20000, max_codepoint=0x2A6DF))
LATEX = st.sampled_from(
    ["$", "$$", "\\", "\\\\", "{", "}", "%", "&", "#", "^", "_", "~", "\\(", "\\)", "\\[",
     "\\]", "\\begin{", "\\end{", "\\begin{tabular}{|c|", "\\end{itemize}", "\\frac{",
     "\\textbf{", "\\cite{", "\\url{", "$x^{", "_{", "\\left(", "\\right", "\\verb|", "\\%",
     "\\$", "\\{", "$\\alpha$", "\\mathbb{R}^{", "\\sqrt[", "\\\\&", "{}", "}{", "$}", "{$"])
MARKDOWN = st.sampled_from(
    ["**", "__", "`", "```", "[", "](", "![", "<", ">", "|", "---", "* ", "1. ", "<script>",
     "&amp;", "&#x202e;", "http://", "https://x.y/(a)", "<br>", "\\*"])
WORDS = st.sampled_from(
    ["learning", "model", "graph", "neural", "diffusion", "the", "of", "and", "SLAM",
     "GPT-4o", "ℓₚ-loss", "τ²-bench", "O(n log n)", "state-of-the-art", "e.g.", "i.e.,",
     "Fig.", "1.5x", "50%", "3D", "Bradley–Terry", "naïve", "façade", "Straße", "ǅ"])
# NUL is left out of readable files: any NUL byte makes a file binary (see refused_lists).
CONTROL = st.characters(max_codepoint=0x1F, exclude_characters="\x00\n\r") | st.sampled_from(
    ["\x7f", "\x85", "\x9b", "\x1b[31m", "\u2028", "\u2029", "\ufeff", "\u200b", "\ufffd",
     "\uffff", "\U0010ffff"])
ANY = st.characters(exclude_categories=["Cs"], exclude_characters="\x00\n\r")
TOKEN = st.one_of(WORDS, LATEX, MARKDOWN, RTL, COMBINING, EMOJI, CJK, CONTROL,
                  st.text(ANY, min_size=1, max_size=8))
# Visible starts of lines: never whitespace or control, so no line can look blank.
VISIBLE = st.one_of(st.characters(categories=["L", "N", "P", "S"]), WORDS, LATEX, CJK)
SEPARATOR = st.sampled_from([" ", " ", " ", "", "\t", "\u00a0", "\u3000", "  "])


@st.composite
def line_body(draw: st.DrawFn) -> str:
    tokens = draw(st.lists(TOKEN, max_size=30))
    return "".join(t + draw(SEPARATOR) for t in tokens)


@st.composite
def paragraph(draw: st.DrawFn, position: int, line_end: str, long: bool) -> str:
    """One paragraph: the marker, then hostile lines; 20,000 characters more if ``long``."""
    lines = [f"{marker(position)} {draw(line_body())}"]
    for _ in range(draw(st.integers(0, 3))):  # hard-wrapped continuation lines
        lines.append(draw(VISIBLE) + draw(line_body()))
    if long:
        chunk = draw(VISIBLE) + draw(line_body()) + " "
        lines.append((chunk * (LONG_PARAGRAPH // len(chunk) + 1))[:LONG_PARAGRAPH])
    return line_end.join(lines)


@st.composite
def readable_lists(draw: st.DrawFn, max_papers: int = 12) -> ListFile:
    """A UTF-8 list file whose papers are known (see the module docstring)."""
    line_end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    count = draw(st.integers(1, max_papers))
    # About a quarter of the files hold one 20,000-character paragraph.
    long_at = draw(st.sampled_from([-1] * (3 * count) + list(range(count))))
    blank = st.sampled_from(["", " ", "\t", "\u00a0", "\u3000", " \t ", "\f", "\v"])
    parts = [TITLE + draw(st.sampled_from(["", " ", "\t"]))]
    for position in range(count):
        gap = line_end + draw(blank) + line_end
        gap += "".join(draw(blank) + line_end for _ in range(draw(st.integers(0, 2))))
        parts.append(gap + draw(paragraph(position, line_end, position == long_at)))
    text = "".join(parts) + draw(st.sampled_from(["", line_end, line_end * 3]))
    bom = draw(st.sampled_from([b"", b"", b"\xef\xbb\xbf"]))
    return ListFile(bom + text.encode("utf-8"), tuple(marker(i) for i in range(count)))


@st.composite
def _with_nul(draw: st.DrawFn) -> ListFile:
    body = draw(readable_lists(max_papers=3)).data
    at = draw(st.integers(0, len(body)))
    return ListFile(body[:at] + b"\x00" + body[at:], refusal="NUL")


@st.composite
def _invalid_utf8(draw: st.DrawFn) -> ListFile:
    body = draw(readable_lists(max_papers=3)).data
    bad = draw(st.sampled_from([b"\xff", b"\xfe", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80",
                                b"\xf4\x90\x80\x80", b"\x80", b"\xe2\x82"]))
    at = draw(st.integers(0, len(body)))
    return ListFile(body[:at] + bad + body[at:], refusal="not UTF-8")


_BLANK_TEXT = st.text(st.sampled_from(" \t\n\r\f\v\u00a0\u3000\u2028"), max_size=200)


def refused_lists() -> st.SearchStrategy[ListFile]:
    """A file that must be refused, with the fragment its one-line message must hold."""
    no_abstracts = st.one_of(
        st.sampled_from([b"", b"\xef\xbb\xbf", f"{TITLE}\n\n\n".encode()]),  # empty, title only
        _BLANK_TEXT.map(lambda text: text.encode("utf-8")),
    ).map(lambda data: ListFile(data, refusal="no abstracts"))
    return st.one_of(_with_nul(), _invalid_utf8(), no_abstracts)


def list_files() -> st.SearchStrategy[ListFile]:
    """Mostly readable files, with a quarter that must be refused."""
    return st.sampled_from([True, True, True, False]).flatmap(
        lambda readable: readable_lists() if readable else refused_lists())
