"""A term's postings split by impact, each part with its own BM25 bound, for pruning.

A term's bound (its largest tf / (tf + norm)) is set by a few short papers that use it
often; most of its postings score well under it. Pruning (`topk`) treats each part of
a split list as a term of its own, bounded by its own postings: the top sixteenth
carries the term's bound, the rest a lower one, and a low bound is what lets a long
list be looked up for a few papers instead of scored in full.

Each part holds its docnums and each posting's impact, tf / (tf + norm): a posting's
score is then the term's scale times its impact, so that scoring a part (`scores`) is
a product per posting at C speed, with no norm looked up and no ratio computed again.
These scores are what pruning compares; they may differ from the scorer's own in the
last bit (a product of the ratio, not a ratio of the product), which pruning's margin
covers, and the papers that survive are scored by the scorer itself.

The split is made once per list, in a few passes over it, and kept beside the list in
the posting cache: each posting's docnum and impact, 12 bytes.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import compress

from tui.core.index.members import Selection
from tui.core.index.norms import K1

SPLIT_FROM = 512
"""Shorter lists stay whole: scoring them costs less than looking papers up in parts."""
TOP_SHARE = 1 / 16
"""About the share of a long list's postings in its top part."""
_SAMPLE = 1024
"""About how many ratios the cut point is read from."""
_BISECT_RATIO = 16
"""Look candidates up by bisection when the part is this many times longer."""


@dataclass(frozen=True)
class Tier:
    """Part of a term's postings: docnums ascending, each with its impact."""

    ids: array
    impacts: array
    """Each posting's tf / (tf + norm), as `ratios` gives it."""
    ratio: float
    """No posting of the part has a larger impact."""

    def scores(self, scale: float, candidates: Collection[int] | Selection | None = None,
               ) -> dict[int, float]:
        """Each posting's `scale` × impact, of every posting or of `candidates`' only."""
        ids, impacts = self.ids, self.impacts
        if candidates is None:
            return dict(zip(ids, map(scale.__mul__, impacts)))
        if isinstance(candidates, Selection):
            if candidates.count * _BISECT_RATIO >= len(ids):
                held = list(map(candidates.marks.__getitem__, ids))
                return dict(zip(compress(ids, held), map(scale.__mul__, compress(impacts, held))))
            candidates = candidates.docnums
        if len(candidates) * _BISECT_RATIO >= len(ids):
            held = list(map(candidates.__contains__, ids))
            return dict(zip(compress(ids, held), map(scale.__mul__, compress(impacts, held))))
        found = {}
        for docnum in candidates:  # few candidates against a long part: look each one up
            i = bisect_left(ids, docnum)
            if i < len(ids) and ids[i] == docnum:
                found[docnum] = scale * impacts[i]
        return found


def ratios(ids: Sequence[int], tfs: Sequence[float], norm: Sequence[float] | None,
           ) -> list[float]:
    """Each posting's tf / (tf + norm): its BM25 score over boost × idf × (k1 + 1)."""
    if norm is None:
        return [tf / (tf + K1) for tf in tfs]
    return [tf / (tf + norm[d]) for d, tf in zip(ids, tfs)]


def tiers(ids: array, tfs: array, norm: Sequence[float] | None) -> list[Tier]:
    """The term's postings in parts of falling impact (see the module docstring);
    every posting is in exactly one part."""
    if not ids:
        return []
    impact = array("d", ratios(ids, tfs, norm))
    whole = Tier(ids, impact, max(impact))
    if len(ids) < SPLIT_FROM:
        return [whole]
    sample = sorted(impact[::max(1, len(impact) // _SAMPLE)])
    cut = sample[min(len(sample) - 1, int(len(sample) * (1 - TOP_SHARE)))]
    high = list(map(cut.__le__, impact))
    top = array("i", compress(ids, high))
    if len(top) == len(ids):  # the cut is the smallest ratio: nothing to split off
        return [whole]
    low = list(map(cut.__gt__, impact))
    # The rest are below the cut, so it bounds them.
    return [Tier(top, array("d", compress(impact, high)), whole.ratio),
            Tier(array("i", compress(ids, low)), array("d", compress(impact, low)), cut)]
