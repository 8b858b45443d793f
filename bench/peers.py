"""The engines paperscope's search is measured against, over the same texts.

- `PlainBM25`: BM25 as Lucene scores it (k1 1.2, b 0.75, idf ln(1 + (N - df + .5) /
  (df + .5))), over one field, lower-cased `\\w+` tokens with Snowball (porter2) English
  stemming and no stop words, a query being an OR of its distinct terms. This is the
  reference that `../shared/qrels/README.md` reports, so its figures there can be
  checked here.
- `Fts5`: SQLite FTS5 (`porter unicode61` tokenizer, ranked by its bm25), the words
  OR-ed, or with the last word as a prefix for a query being typed.
- `Tantivy`: tantivy (its `en_stem` analysis, BM25), the same OR of the words, the last
  one as a prefix for a query being typed (tantivy expands a prefix to at most 50
  terms); only where the optional `tantivy` package is installed (`tantivy_installed`).

Both live with the benchmarks: the product never ships a second engine.
"""

from __future__ import annotations

import heapq
import math
import re
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from whoosh.lang.porter2 import stem

_TOKEN = re.compile(r"\w+")


def tokens(text: str) -> list[str]:
    """Lower-cased, stemmed `\\w+` tokens: the reference's analysis."""
    return [stem(t) for t in _TOKEN.findall(text.lower())]


class PlainBM25:
    """A plain BM25 index held in memory: term -> [(doc, tf)], and document lengths."""

    def __init__(self, texts: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.lengths: list[int] = []
        for doc, text in enumerate(texts):
            counts = Counter(tokens(text))
            self.lengths.append(sum(counts.values()))
            for term, tf in counts.items():
                self.postings[term].append((doc, tf))
        self.avgdl = (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0

    def idf(self, term: str) -> float:
        n, df = len(self.lengths), len(self.postings.get(term, ()))
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def search(self, query: str, limit: int = 10) -> list[int]:
        """Documents best first; ties go to the lower document number."""
        scores = self.scores(query)
        return [d for d, _ in heapq.nsmallest(limit, scores.items(), key=lambda x: (-x[1], x[0]))]

    def scores(self, query: str) -> dict[int, float]:
        """Every matching document's BM25 score for `query`."""
        scores: dict[int, float] = defaultdict(float)
        k1, b, avgdl, lengths = self.k1, self.b, self.avgdl or 1.0, self.lengths
        for term in dict.fromkeys(tokens(query)):
            idf = self.idf(term)
            for doc, tf in self.postings.get(term, ()):
                norm = k1 * (1 - b + b * lengths[doc] / avgdl)
                scores[doc] += idf * tf * (k1 + 1) / (tf + norm)
        return dict(scores)


class Fts5:
    """An in-memory SQLite FTS5 table of the texts; rowid = document number + 1."""

    def __init__(self, texts: Iterable[str]) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE p USING fts5(text, tokenize='porter unicode61')")
        self.db.executemany("INSERT INTO p(rowid, text) VALUES (?, ?)",
                            ((i + 1, t) for i, t in enumerate(texts)))
        self.db.commit()

    def search(self, query: str, limit: int = 10, prefix: bool = False) -> list[int]:
        """The words OR-ed (the last one also as a prefix with `prefix`), best first."""
        words = _TOKEN.findall(query)
        if not words:
            return []
        clauses = [f'"{w}"' for w in words]
        if prefix and query[-1:].isalnum():
            clauses[-1] += "*"
        match = " OR ".join(clauses)
        rows = self.db.execute("SELECT rowid FROM p WHERE p MATCH ? ORDER BY rank, rowid LIMIT ?",
                               (match, limit)).fetchall()
        return [r[0] - 1 for r in rows]


def tantivy_installed() -> bool:
    """Whether the optional `tantivy` package can be imported here."""
    try:
        import tantivy  # noqa: F401
    except ImportError:
        return False
    return True


class Tantivy:
    """A tantivy index of the texts in `folder` (in memory without one); its stored
    `doc` field is the document number."""

    folder: Path | None
    """Where the index is kept on disk, or None in memory."""

    def __init__(self, texts: Iterable[str], folder: Path | None = None, threads: int = 2,
                 heap_bytes: int = 256 * 2**20) -> None:
        import tantivy

        self._tantivy = tantivy
        self.folder = folder
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("text", stored=False, tokenizer_name="en_stem")
        builder.add_unsigned_field("doc", stored=True)
        self.schema = builder.build()
        self.index = tantivy.Index(self.schema, path=str(folder) if folder else None)
        writer = self.index.writer(heap_size=heap_bytes, num_threads=threads)
        for doc, text in enumerate(texts):
            writer.add_document(tantivy.Document(text=text, doc=doc))
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()

    def search(self, query: str, limit: int = 10, prefix: bool = False) -> list[int]:
        """The words OR-ed (the last one also as a prefix with `prefix`), best first."""
        tantivy = self._tantivy
        words = [w.lower() for w in _TOKEN.findall(query)]
        if not words:
            return []
        last = words.pop() if prefix and query[-1:].isalnum() else None
        clauses = []
        if words:
            words_query = self.index.parse_query(" ".join(words), ["text"])
            clauses.append((tantivy.Occur.Should, words_query))
        if last is not None:
            clauses.append((tantivy.Occur.Should,
                            tantivy.Query.phrase_prefix_query(self.schema, "text", [last])))
        hits = self.searcher.search(tantivy.Query.boolean_query(clauses), limit).hits
        return [self.searcher.doc(address)["doc"][0] for _, address in hits]
