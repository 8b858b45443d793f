"""Reading paper lists: a title line, then one abstract per paragraph.

Real files are messier than the format says, so this accepts CRLF or CR line ends, a
BOM, trailing spaces, runs of blank lines, hard-wrapped paragraphs (joined with a
space) and lists with no title line (the list is then named after its file).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from tui.core.lists.files import SeedError, decode, discover  # noqa: F401 - part of this API
from tui.core.lists.papers import make_paper, one_line, paper_id  # noqa: F401 - part of this API
from tui.core.model import Paper, PaperList

_BLANK_LINES = re.compile(r"\n[ \t\f\v\u00a0\u3000]*\n\s*")
# A title is a short line. Longer first paragraphs, or ones that read as sentences,
# are abstracts of a list that came without a title.
_TITLE_MAX_CHARS = 160
_TITLE_MAX_WORDS = 20
_SENTENCE_END = re.compile(r"[.!?。！？]\s*$")
# C0 and C1 control characters (DEL, CSI, OSC, DCS...), which a terminal may act on.
# U+0085 (next line) is left to `one_line`: it is a line break, so it becomes a space.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")


def paragraphs(text: str) -> list[str]:
    """Split text into paragraphs, joining hard-wrapped lines and dropping blank ones."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    out = []
    for block in _BLANK_LINES.split(text):
        # Control characters other than tab and newline are noise from copy and paste.
        joined = one_line(_CONTROL.sub("", block))
        if joined:
            out.append(joined)
    return out


def looks_like_title(paragraph: str, line_count: int) -> bool:
    """True when a first paragraph reads as a list title rather than an abstract."""
    if line_count != 1 or len(paragraph) > _TITLE_MAX_CHARS:
        return False
    if len(paragraph.split()) > _TITLE_MAX_WORDS:
        return False
    return not _SENTENCE_END.search(paragraph) or len(paragraph.split()) <= 4


def _title_glued_to_abstract(lines: list[str]) -> bool:
    """True when a block's first line is a title and the rest an abstract.

    A hard-wrapped abstract's first line is as long as its others; a title is a short
    line of a few words, well shorter than the lines that follow it.
    """
    first = lines[0].strip()
    longest = max(len(line.strip()) for line in lines[1:])
    return (looks_like_title(first, 1) and len(first.split()) <= 8
            and len(first) < 0.6 * longest and longest >= 50)


def split_list(text: str, path: Path) -> tuple[str, list[str]]:
    """The title and the abstracts of one list file's text."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    paras = paragraphs(text)
    title = path.stem
    if paras:
        first_block = _BLANK_LINES.split(text.strip(), 1)[0]
        first_lines = [ln for ln in first_block.split("\n") if ln.strip()]
        if looks_like_title(paras[0], len(first_lines)):
            title = paras.pop(0)
        elif len(first_lines) > 1 and _title_glued_to_abstract(first_lines):
            # "ICML 2026 Papers" directly followed by the first abstract, no blank line.
            title = one_line(_CONTROL.sub("", first_lines[0]))
            paras[0] = one_line(_CONTROL.sub("", " ".join(first_lines[1:])))
    if not paras:
        raise SeedError(f"{path}: no abstracts in this list")
    return title, paras


def parse_list(text: str, path: Path) -> PaperList:
    """Parse the text of one list file into papers."""
    title, paras = split_list(text, path)
    papers = tuple(make_paper(raw, title, path.name, i) for i, raw in enumerate(paras))
    return PaperList(title=title, file=path.name, path=str(path), papers=papers)


def open_paragraphs(path: Path) -> tuple[str, Iterator[Paper]]:
    """The title of a paragraph list file and its papers, each made when it is asked
    for: an index build then renders each abstract once, while it is remembered (see
    `render.plain`), and never holds the list's papers all at once."""
    title, paras = split_list(_read_text(path), path)
    return title, (make_paper(raw, title, path.name, i) for i, raw in enumerate(paras))


def _read_text(path: Path) -> str:
    """The decoded text of a paragraph list file; SeedError when it cannot be read."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SeedError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SeedError(f"{path}: is a folder, expected a .txt paper list") from None
    except OSError as exc:
        raise SeedError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return decode(data, str(path))


def read_list(path: str | Path) -> PaperList:
    """Read and parse one list file; raises SeedError with a one-line message.

    JSON, JSON Lines, BibTeX and CSV lists go to their readers (`tui.core.lists`).
    """
    path = Path(path)
    from tui.core.lists.detect import structured_kind
    from tui.core.lists.structured import read_structured

    kind = structured_kind(path)
    if kind is not None:
        return read_structured(path, kind)
    return parse_list(_read_text(path), path)


def read_lists(paths: Iterable[str | Path]) -> Iterator[PaperList]:
    """Read every list that `paths` names (files or folders), in a stable order."""
    for path in discover(paths):
        yield read_list(path)
