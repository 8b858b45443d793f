"""How a query is searched, decided from what kind of query it is.

Three kinds of query reach the search, and each is best served differently (measured
by `bench/lookup.py` and `bench/relevance.py`; the figures are in the README):

- **A few words** (under DESCRIPTION_MIN_WORDS): a name or keywords. Searched over the
  derived name and title too, since a paper is looked up by its name; papers with all
  the words come first.
- **A description** (a pasted title, a claim, a sentence): searched over the abstract,
  its math, and the real title and authors where the list gives them. The derived name
  and title are made of the abstract's own words,
  so for a query of many words a match there counts the same word twice, and it
  favoured papers whose first sentence happened to hold a common word of the query.
  Papers with all the words still come first (that held for every collection), and
  any-word BM25 ranks the rest.
- **A question** (a description that asks: "what ...", "how ...", "...?"): also gets
  pseudo-relevance feedback. A question asks about a topic, whose papers use words the
  question may not; a title or a claim describes one paper, and feedback, which pulls
  in the words of the papers around it, only pushes that paper down.

While a query is being typed in the reader, its last word is also a prefix (`diffu`
finds diffusion); a submitted query (`paperscope search`) means its words as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from collections.abc import Mapping

from tui.core.index.schema import FIELD_BOOSTS

DESCRIPTION_MIN_WORDS = 5
"""A query with this many distinct words describes a paper rather than naming it."""
DESCRIPTION_FIELDS: Mapping[str, float] = MappingProxyType(
    {f: FIELD_BOOSTS[f] for f in ("text", "alias", "heading", "author")})
"""Where a description is looked for: the abstract's words and its math's spellings,
and what a list file gives besides the abstract (its real title and authors: a title
pasted from a reference list matches them, and they are not the abstract's words
counted again). Paragraph lists have neither."""
FEEDBACK_DOCS = 10
"""Papers whose words feed a question's expansion."""
FEEDBACK_TERMS = 20
"""Terms the expansion adds."""
FEEDBACK_SHARE = 0.5
"""The expansion's total weight as a share of the question's own words' weight: the
question keeps the larger say, whatever the number of terms added (RM3's balance)."""

_ASKS = (
    r"^\W*(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|"
    r"can|could|should|would|will|has|have|had)\b")
"""Compiled by `re` at its first use: only a query of many words asks whether it is a
question."""


@dataclass(frozen=True)
class Policy:
    """What the search does with one query."""

    fields: Mapping[str, float]
    """Fields searched by default, with their boosts."""
    prefix: bool
    """The last word is also a prefix (the query is being typed)."""
    feedback: bool
    """Expand with the key terms of the best results (the query is a question)."""


def is_question(raw: str) -> bool:
    """True when the query asks: a question word or auxiliary first, or a '?'."""
    return "?" in raw or bool(re.match(_ASKS, raw, re.IGNORECASE))


def policy_for(raw: str, words: tuple[str, ...], typing: bool, structured: bool) -> Policy:
    """The policy for the query `raw` with plain (folded) `words`.

    `typing` says the query is still being typed; `structured` that its author wrote
    AND or OR, whose logic is theirs: no feedback is added to it.
    """
    describes = len(set(words)) >= DESCRIPTION_MIN_WORDS
    return Policy(
        fields=DESCRIPTION_FIELDS if describes else FIELD_BOOSTS,
        prefix=typing,
        feedback=describes and not structured and is_question(raw),
    )
