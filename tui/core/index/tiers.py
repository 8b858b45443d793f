"""A term's postings split by impact, each part with its own BM25 bound, for pruning.

A term's bound (its largest tf / (tf + norm)) is set by a few short papers that use it
often; most of its postings score well under it. Pruning (`topk`) treats each part of
a split list as a term of its own, bounded by its own postings: the top sixteenth
carries the term's bound, the rest a lower one, and a low bound is what lets a long
list be looked up for a few papers instead of scored in full.

The split is made once per list, in a few passes over it (one comprehension for the
ratios, then `itertools.compress`), and kept beside the list in the posting cache.
Only the top part is copied: the rest is the whole list's postings below the cut, so
a split costs a sixteenth of the list's memory.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress

from tui.core.index.norms import K1

SPLIT_FROM = 512
"""Shorter lists stay whole: scoring them costs less than looking papers up in parts."""
TOP_SHARE = 1 / 16
"""About the share of a long list's postings in its top part."""
_SAMPLE = 1024
"""About how many ratios the cut point is read from."""


@dataclass(frozen=True)
class Tier:
    """Part of a term's postings: those of `ids` (docnums ascending, with their term
    frequencies `tfs`) whose tf / (tf + norm) is below `below` (all when None)."""

    ids: array
    tfs: array
    ratio: float
    """No posting of the part has a larger tf / (tf + norm)."""
    below: float | None = None
    size: int = -1
    """How many postings the part has (-1: all of `ids`)."""


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
    impact = ratios(ids, tfs, norm)
    whole = Tier(ids, tfs, max(impact))
    if len(ids) < SPLIT_FROM:
        return [whole]
    sample = sorted(impact[::max(1, len(impact) // _SAMPLE)])
    cut = sample[min(len(sample) - 1, int(len(sample) * (1 - TOP_SHARE)))]
    high = list(map(cut.__le__, impact))
    top = array("i", compress(ids, high))
    if len(top) == len(ids):  # the cut is the smallest ratio: nothing to split off
        return [whole]
    # The rest are below the cut, so it bounds them; they are the whole list less the
    # top part, told apart by the same ratios computed the same way (`ratios`), so
    # that every posting is in exactly one part and only the top part is copied.
    return [Tier(top, array("f", compress(tfs, high)), whole.ratio),
            Tier(ids, tfs, cut, cut, len(ids) - len(top))]
