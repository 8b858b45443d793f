"""A term's postings split by impact, each part with its own BM25 bound, for pruning.

A term's bound (its largest tf / (tf + norm)) is set by a few short papers that use it
often; most of its postings score well under it. Pruning (`topk`) treats each part of
a split list as a term of its own, bounded by its own postings: the top sixteenth
carries the term's bound, the rest a lower one, and a low bound is what lets a long
list be looked up for a few papers instead of scored in full.

Each part holds its docnums and each posting's impact, tf / (tf + norm): a posting's
score is then the term's scale times its impact, so that scoring a part
(`impact_scores`) is a product per posting at C speed, with no norm looked up and no
ratio computed again.
The scorer scores a whole list the same way, so a paper's score is the same number
whichever path gives it.

Each list's impacts are computed once (`impacts`) and kept beside it in the posting
cache, 8 bytes a posting; the split is made from them when pruning first asks, and
only its top part is copied (12 bytes a posting of it). The rest is the whole list's
postings under the cut, marked by a byte each (`Tier.mask`), which scoring it reads at
C speed.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import and_

from tui.core.index.members import Selection
from tui.core.index.norms import K1

SPLIT_FROM = 512
"""Shorter lists stay whole: scoring them costs less than looking papers up in parts."""
TOP_SHARE = 1 / 16
"""About the share of a long list's postings in its top part."""
_SAMPLE = 1024
"""About how many ratios the cut point is read from."""
_FLIP = bytes.maketrans(b"\0\1", b"\1\0")
"""Turns a part's mask into the rest's."""
_BISECT_RATIO = 16
"""Look candidates up by bisection when the part is this many times longer."""


@dataclass(frozen=True)
class Tier:
    """Part of a term's postings: docnums ascending, each with its impact; with
    `mask`, only the postings it marks (the rest of a split list, which shares the
    whole list's arrays instead of copying them)."""

    ids: array
    impacts: array
    """Each posting's tf / (tf + norm), as `impacts` gives it."""
    ratio: float
    """No posting of the part has a larger impact."""
    mask: bytes | None = None
    """A byte per posting of `ids`: 1 for those in the part (None: all). Made once
    with the split, so that scoring the part costs no comparison per posting."""
    size: int = -1
    """How many postings the part has (-1: all of `ids`)."""

    def __len__(self) -> int:
        return len(self.ids) if self.size < 0 else self.size

    def scores(self, scale: float, candidates: Collection[int] | Selection | None = None,
               ) -> dict[int, float]:
        """Each posting's `scale` × impact, of every posting or of `candidates`' only."""
        return impact_scores(self.ids, self.impacts, scale, candidates, self.mask)


def impact_scores(ids: array, impacts: array, scale: float,
                  candidates: Collection[int] | Selection | None = None,
                  mask: bytes | None = None) -> dict[int, float]:
    """`scale` × impact of each posting (docnums ascending), of every posting or of
    `candidates`' only, and only of those `mask` marks when given; at C speed but for
    few candidates against a long list, looked up one by one."""
    if isinstance(candidates, Selection):
        if candidates.count * _BISECT_RATIO >= len(ids):
            return _held(ids, impacts, scale, map(candidates.marks.__getitem__, ids), mask)
        candidates = candidates.docnums
    if candidates is None:
        if mask is None:
            return dict(zip(ids, map(scale.__mul__, impacts)))
        return _held(ids, impacts, scale, None, mask)
    if len(candidates) * _BISECT_RATIO >= len(ids):
        return _held(ids, impacts, scale, map(candidates.__contains__, ids), mask)
    found = {}
    for docnum in candidates:  # few candidates against a long list: look each one up
        i = bisect_left(ids, docnum)
        if i < len(ids) and ids[i] == docnum and (mask is None or mask[i]):
            found[docnum] = scale * impacts[i]
    return found


def _held(ids: array, impacts: array, scale: float, chosen: Iterator[object] | None,
          mask: bytes | None) -> dict[int, float]:
    """The scores of the postings `chosen` marks (truthy, one per posting; all when
    None) that `mask` marks (all when None)."""
    if mask is not None:
        chosen = mask if chosen is None else map(and_, chosen, mask)
    if chosen is None:
        return dict(zip(ids, map(scale.__mul__, impacts)))
    held = chosen if isinstance(chosen, bytes) else list(chosen)  # read twice
    return dict(zip(compress(ids, held), map(scale.__mul__, compress(impacts, held))))


def impacts(ids: Sequence[int], tfs: Sequence[float], norm: Sequence[float] | None,
            ) -> array:
    """Each posting's tf / (tf + norm): its BM25 score over boost × idf × (k1 + 1)."""
    if norm is None:
        return array("d", [tf / (tf + K1) for tf in tfs])
    return array("d", [tf / (tf + norm[d]) for d, tf in zip(ids, tfs)])


def split(impact: array) -> tuple[bytes, float] | None:
    """Which postings of a list (`impact`: each one's, from `impacts`) are in its top
    part, a byte each (1 for those), and the cut the others are under; None for a list
    kept whole (see the module docstring)."""
    if len(impact) < SPLIT_FROM:
        return None
    sample = sorted(impact[::max(1, len(impact) // _SAMPLE)])
    cut = sample[min(len(sample) - 1, int(len(sample) * (1 - TOP_SHARE)))]
    high = bytes(map(cut.__le__, impact))  # a byte a posting: 1 for the top part
    if high.find(0) < 0:  # the cut is the smallest ratio: nothing to split off
        return None
    return high, cut


def tiers(ids: array, impact: array) -> list[Tier]:
    """The term's postings (`impact`: each one's, from `impacts`) in parts of falling
    impact, split as `split` splits them; every posting is in exactly one part."""
    return parts(ids, impact, split(impact))


def parts(ids: array, impact: array, made: tuple[bytes, float] | None) -> list[Tier]:
    """The term's postings in parts by a split `made` as `split` makes it (or joined
    from the splits of the list's pieces: any cut that every posting of the rest is
    under will do); None: one part."""
    if not ids:
        return []
    if made is None:
        return [Tier(ids, impact, max(impact))]
    high, cut = made
    top = array("i", compress(ids, high))
    # The largest impact is at or above the cut: in the top part, about a sixteenth of
    # the list.
    top_impacts = array("d", compress(impact, high))
    # The rest are below the cut, so it bounds them; they are the whole list's
    # postings under it, marked as those the top part leaves, so that every posting is
    # in exactly one part and only the top part is copied.
    return [Tier(top, top_impacts, max(top_impacts)),
            Tier(ids, impact, cut, high.translate(_FLIP), len(ids) - len(top))]
