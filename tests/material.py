"""Where the tests' material comes from: the one place that decides.

Two kinds of material, and two answers:

- **Many abstracts** (segments, top-k, orderings, impacts, incremental builds): the
  developers' corpora when they are beside the checkout, and otherwise made lists, so
  that a fresh clone tests the same things. A made list joins, with a fixed seed,
  sentences of the bundled lists' abstracts (`bench/corpus.py`), so its words and
  lengths are those of real abstracts. Ask with `conference_lists`.
- **External material** (the relevance collections, the labelled names, the real files
  of other formats, every abstract of the corpora): a test whose point is that material
  skips without it, saying what it needs. Ask with `needs` and `external`.

`PAPERSCOPE_SHARED` moves the shared folder; one that does not exist hides it, so that
`PAPERSCOPE_SHARED=/nonexistent pytest` runs as on a fresh clone. No test reads
`../shared` but through this module (`tests/test_material.py` checks it).
"""

from __future__ import annotations

import atexit
import random
import shutil
import tempfile
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import TypeVar

import pytest

from bench.corpus import corpus_sentences
from bench.material import shared
from tui.core.lists.paragraphs import paragraphs

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
T = TypeVar("T")
MARK = "shared_material"
"""The marker of every test that reads the shared folder's material or falls back to
made lists without it (`pytest -m shared_material` runs just those)."""


def external(*parts: str) -> Path:
    """A path inside the shared folder; it may not exist (see `needs`)."""
    return shared(*parts)


def needs(*parts: str, why: str) -> Callable[[T], T]:
    """A decorator: the test is marked `shared_material`, and skips unless `parts`
    exists in the shared folder, its reason naming the path and why it is needed."""
    where = "/".join(("../shared", *parts))
    skip = pytest.mark.skipif(not external(*parts).exists(),
                              reason=f"needs {where} ({why}): absent")

    def mark(test: T) -> T:
        return getattr(pytest.mark, MARK)(skip(test))

    return mark


def have_corpora() -> bool:
    """Whether the developers' corpora are there (else `conference_lists` makes lists)."""
    return bool(_corpora_sizes())


def conference_lists(sizes: Sequence[int], seed: int = 1) -> list[Path]:
    """One paragraph list per size, of about that many papers, in that order.

    From the corpora: for each size, the list nearest it in papers not taken yet (ties
    by name). Made otherwise: exactly that many abstracts each, seeded by `seed`, the
    same every run. The files are shared by the session: copy before changing one."""
    available = _corpora_sizes()
    if available:
        return _nearest(available, sizes)
    return list(_made(tuple(sizes), seed))


def abstracts_of(files: Sequence[Path]) -> list[str]:
    """The abstracts of paragraph lists, in order (each list's title line left out)."""
    return [a for path in files for a in paragraphs(path.read_text(encoding="utf-8"))[1:]]


@cache
def _corpora_sizes() -> tuple[tuple[str, int], ...]:
    folder = external("corpora")
    if not folder.is_dir():
        return ()
    return tuple((path.name, len(paragraphs(path.read_text(encoding="utf-8"))) - 1)
                 for path in sorted(folder.glob("*.txt")))


def _nearest(available: Sequence[tuple[str, int]], sizes: Sequence[int]) -> list[Path]:
    left = list(available)
    if len(sizes) > len(left):
        raise ValueError(f"{len(sizes)} lists asked for, the corpora hold {len(left)}")
    chosen = []
    for size in sizes:
        best = min(left, key=lambda item: (abs(item[1] - size), item[0]))
        left.remove(best)
        chosen.append(external("corpora", best[0]))
    return chosen


@cache
def _sentences() -> list[str]:
    return corpus_sentences(SEEDS)


@cache
def _made_root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="paperscope-made-lists-"))
    atexit.register(shutil.rmtree, root, True)
    return root


@cache
def _made(sizes: tuple[int, ...], seed: int) -> tuple[Path, ...]:
    """Made lists: abstracts of 3 to 12 of the bundled sentences. As venues do, the
    lists share half their sentences and each has words of its own: half the bundled
    sentences are common to all, the other half dealt out, a share to each list, and
    every sentence of a list's abstract is a common one or one of its own, evenly."""
    folder = _made_root() / f"seed{seed}-{'-'.join(map(str, sizes))}"
    folder.mkdir(exist_ok=True)
    rng = random.Random(f"{seed}:{sizes}")  # no two calls' lists share an abstract
    pool = list(_sentences())
    rng.shuffle(pool)
    common, dealt = pool[:len(pool) // 2], pool[len(pool) // 2:]
    files = []
    for number, size in enumerate(sizes):
        own = dealt[number % len(dealt)::len(sizes)]
        abstracts = [" ".join(rng.choice(common if rng.random() < 0.5 else own)
                              for _ in range(rng.randint(3, 12))) for _ in range(size)]
        path = folder / f"made{number:02d}.txt"
        path.write_text(f"Made Conference {number} Papers\n\n" + "\n\n".join(abstracts) + "\n",
                        encoding="utf-8")
        files.append(path)
    return tuple(files)
