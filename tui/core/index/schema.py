"""The Whoosh schema and what is fed into it for each paper."""

from __future__ import annotations

from whoosh.fields import ID, NUMERIC, STORED, TEXT, Schema

from tui.core.index.analysis import ANALYSIS_VERSION, PaperAnalyzer, terms
from tui.core.index.fields import AuthorAnalyzer, author_terms
from tui.core.model import Paper, extras

# Bump when fields or what goes into them change: existing indexes are then rebuilt.
SCHEMA_VERSION = 9 + 100 * ANALYSIS_VERSION

# Fields a query may name with a prefix (`name:gecko`), and the default search fields
# with their weights.
QUERY_FIELDS = ("name", "title", "list", "text", "author", "year", "venue")
# Titles are derived from the abstract's own words, so a match there is mostly a match
# counted twice: it gets a light weight. A derived name is rarer and more telling.
FIELD_BOOSTS = {"name": 2.0, "title": 0.3, "text": 1.0, "alias": 0.5,
                # A list's own title (`heading`, also in `title`) is the authors' summary,
                # not a repeat of the abstract: it weighs 1.5 in all. Authors are
                # matched by surname from the search box too. Paragraph lists have
                # neither, so their ranking is unchanged.
                "heading": 1.2, "author": 1.0}
# Fields whose lengths the ranking normalises by (BM25's b).
SCORED_FIELDS = ("name", "title", "text", "alias", "list", "heading", "author", "year", "venue")


def make_schema() -> Schema:
    """The index schema: searchable name, title, text and list, with what hits show."""
    analyzer = PaperAnalyzer()
    return Schema(
        id=ID(stored=True),
        file=ID(stored=True),
        position=NUMERIC(stored=True),
        list=TEXT(analyzer=analyzer, stored=True),
        name=TEXT(analyzer=analyzer, stored=True),
        title=TEXT(analyzer=analyzer, stored=True),
        # The abstract, rendered for reading (math as Unicode): phrases need positions.
        text=TEXT(analyzer=analyzer),
        # ASCII spellings of the math (`tau2`, `ell_p`), so typed forms find it too.
        alias=TEXT(analyzer=analyzer),
        # The abstract as written: the detail pane renders it with its styles.
        raw=STORED,
        # What structured lists add (see `model.EXTRA_FIELDS`): the list's own title,
        # authors (accents folded), year and venue to search; the rest only stored.
        heading=TEXT(analyzer=analyzer),
        author=TEXT(analyzer=AuthorAnalyzer()),
        year=TEXT(analyzer=analyzer),
        venue=TEXT(analyzer=analyzer),
        info=STORED,
    )


def document(paper: Paper, text: str) -> dict[str, object]:
    """The fields Whoosh indexes and stores for one paper, whose rendered text is `text`.

    Searchable fields are passed as term lists that `analysis.terms` made, the same
    function the query side runs, so both always agree.
    """
    # Imported here: only builds need it, and searching must not pay for the renderer.
    from tui.core.index.aliases import math_aliases

    title = terms(paper.title)
    return {
        "id": paper.id,
        "file": paper.file,
        "position": paper.position,
        "list": terms(paper.list_title),
        "_stored_list": paper.list_title,
        "name": terms(paper.name),
        "_stored_name": paper.name,
        "title": title,
        "_stored_title": paper.title,
        "text": terms(text),
        "alias": terms(math_aliases(paper.raw)),
        "raw": paper.raw,
        "heading": title if paper.titled else [],
        "author": author_terms(paper.authors),
        "year": [str(paper.year)] if paper.year else [],
        "venue": terms(paper.venue or paper.list_title),
        "info": extras(paper),
    }
