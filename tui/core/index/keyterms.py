"""A text's most distinctive terms among the abstracts: Whoosh's Bo1 model, as its
more-like-this and `key_terms_from_text` use it, over the scorer's statistics.

Bo1 weighs each term of the text by how often the collection holds it. Whoosh's own
expander asks its term files for that: a hash lookup per segment per term, 10–54 ms of
a "similar papers" call at 250k papers. The scorer answers from the segments' posting
directories (`postarrays`), where the builder wrote each term's sum of weights beside
its list, and the terms and weights come out as Whoosh's expander gives them.

With deleted documents (the papers of lists removed from a reused segment, see
`reuse`), the collection is counted from the scorer's postings, which leave them out, so
that a library answers as a build of its remaining lists would: Whoosh's statistics
would still count them (and divide by zero for a term only they hold).
"""

from __future__ import annotations

from collections import defaultdict

from whoosh.classify import Bo1Model

from tui.core.index.scorer import Scorer

FIELD = "text"
"""The field whose terms are weighed."""


def key_terms(schema, scorer: Scorer, papers: int, field_length: int, text: str,
              count: int) -> list[tuple[str, float]]:
    """The `count` terms of `text` most distinctive among the `papers` live abstracts,
    whose words number `field_length` in all, with their weights normalized as
    `Searcher.key_terms_from_text` normalizes them; best first, ties by term."""
    field = schema[FIELD]
    in_text: defaultdict[str, float] = defaultdict(float)
    total = 0.0
    for term, _, weight, _ in field.index(text):
        in_text[field.from_bytes(term)] += weight
        total += weight
    if not in_text:
        return []
    model = Bo1Model(papers, field_length)
    scored, most = [], 0.0
    for term, weight in in_text.items():
        frequency = scorer.frequency(FIELD, term)
        if frequency > 0:  # a term no abstract holds says nothing of the collection
            score = model.score(weight, frequency, total)
            most = max(most, score)
            scored.append((score, term))
    norm = model.normalizer(most, total)
    ranked = sorted(((score / norm, term) for score, term in scored),
                    key=lambda pair: (-pair[0], pair[1]))
    return [(term, weight) for weight, term in ranked[:count]]
