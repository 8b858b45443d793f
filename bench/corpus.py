"""Made corpora: new abstracts of real shape, joined from the corpora's own sentences.

Every made abstract joins a seeded draw of sentences from the abstracts in
`../shared/corpora`, so that its vocabulary, sentence lengths and abstract lengths are
those of real abstracts, while the text itself is new (no abstract repeats one of the
corpora). The same seed gives the same abstracts, in the same order, and a shorter run
of the same seed is a prefix of a longer one, so that a 25k corpus is the first 25k
abstracts of the 250k one.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from tui.core.lists.paragraphs import paragraphs

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def corpus_sentences(corpora: Path) -> list[str]:
    """Every sentence of every abstract in the corpora's `.txt` lists, in file order."""
    sentences: list[str] = []
    for path in sorted(corpora.glob("*.txt")):
        for abstract in paragraphs(path.read_text(encoding="utf-8"))[1:]:
            sentences += _SENTENCE_END.split(abstract)
    if not sentences:
        raise SystemExit(f"bench: no abstracts in {corpora}")
    return sentences


def made_abstract(rng: random.Random, sentences: list[str], fewest: int, most: int) -> str:
    """One abstract: between `fewest` and `most` sentences drawn by `rng`."""
    return " ".join(rng.choice(sentences) for _ in range(rng.randint(fewest, most)))


def made_abstracts(sentences: list[str], count: int, seed: int, fewest: int = 6,
                   most: int = 10) -> Iterator[str]:
    """`count` made abstracts, drawn one at a time (a large corpus is never all held)."""
    rng = random.Random(seed)
    for _ in range(count):
        yield made_abstract(rng, sentences, fewest, most)


def write_paragraph_lists(abstracts: Iterable[str], folder: Path, per_list: int,
                          title: str = "Made list") -> list[Path]:
    """Paragraph list files of `per_list` abstracts each (a title line, then one
    abstract per paragraph), written as the abstracts come; the files, in order."""
    folder.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    chunk: list[str] = []

    def flush() -> None:
        path = folder / f"list{len(files):04d}.txt"
        text = f"{title} {len(files)}\n\n" + "\n\n".join(" ".join(a.split()) for a in chunk)
        path.write_text(text + "\n", encoding="utf-8")
        files.append(path)
        chunk.clear()

    for abstract in abstracts:
        chunk.append(abstract)
        if len(chunk) == per_list:
            flush()
    if chunk:
        flush()
    return files


def read_abstracts(files: Iterable[Path]) -> Iterator[str]:
    """The abstracts of paragraph list files, in order, one file at a time."""
    for path in files:
        yield from paragraphs(path.read_text(encoding="utf-8"))[1:]
