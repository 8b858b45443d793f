"""BM25's constants and its per-paper length norms, which the builder writes beside the
index (see `sidefiles`) and the scorer reads.

Part of what an index holds: changing K1 or B changes every built index, so this module
is one of the sources the index's fingerprint is keyed on (`freshness`).
"""

from __future__ import annotations

from array import array

K1 = 1.2
"""Term frequency saturation (Lucene's default)."""
B = 0.75
"""How strongly a field's length normalises its scores (Lucene's default)."""


def norms_for(lengths: array, dead: bytearray | None = None, k1: float = K1,
              b: float = B) -> array:
    """Per-document BM25 length normalisation: k1 × (1 − b + b × length / average),
    the average taken over the papers not marked in `dead` (deleted documents)."""
    if not lengths:
        return array("f")
    live = [n for n, gone in zip(lengths, dead) if not gone] if dead else lengths
    average = (sum(live) / len(live) if live else 0.0) or 1.0
    base, per_word = k1 * (1.0 - b), k1 * b / average
    return array("f", [base + per_word * n for n in lengths])
