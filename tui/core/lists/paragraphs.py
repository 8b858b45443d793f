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
from tui.core.lists.papers import make_paper, paper_id  # noqa: F401 - part of this API
from tui.core.model import PaperList

_BLANK_LINES = re.compile(r"\n[ \t\f\v\u00a0\u3000]*\n\s*")
_SPACES = re.compile(r"\s+")
# A title is a short line. Longer first paragraphs, or ones that read as sentences,
# are abstracts of a list that came without a title.
_TITLE_MAX_CHARS = 160
_TITLE_MAX_WORDS = 20
_SENTENCE_END = re.compile(r"[.!?。！？]\s*$")
# C0 and C1 control characters (DEL, CSI, OSC, DCS...), which a terminal may act on.
# U+0085 (next line) is left to `_SPACES`: it is a line break, so it becomes a space.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")


def paragraphs(text: str) -> list[str]:
    """Split text into paragraphs, joining hard-wrapped lines and dropping blank ones."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    out = []
    for block in _BLANK_LINES.split(text):
        # Control characters other than tab and newline are noise from copy and paste.
        joined = _SPACES.sub(" ", _CONTROL.sub("", block)).strip()
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


def parse_list(text: str, path: Path) -> PaperList:
    """Parse the text of one list file into papers."""
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
            title = _SPACES.sub(" ", _CONTROL.sub("", first_lines[0])).strip()
            paras[0] = _SPACES.sub(" ", _CONTROL.sub("", " ".join(first_lines[1:]))).strip()
    if not paras:
        raise SeedError(f"{path}: no abstracts in this list")
    papers = tuple(make_paper(raw, title, path.name, i) for i, raw in enumerate(paras))
    return PaperList(title=title, file=path.name, path=str(path), papers=papers)


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
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SeedError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SeedError(f"{path}: is a folder, expected a .txt paper list") from None
    except OSError as exc:
        raise SeedError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return parse_list(decode(data, str(path)), path)


def read_lists(paths: Iterable[str | Path]) -> Iterator[PaperList]:
    """Read every list that `paths` names (files or folders), in a stable order."""
    for path in discover(paths):
        yield read_list(path)
