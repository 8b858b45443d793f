"""Each scored field's BM25 length norms, read from disk when a search first needs them."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping


class Norms(Mapping[str, array]):
    """Each scored field's BM25 length norms (an array of a float per docnum), each
    field's read on first use by `read(field)`, which gives None when it has none.

    A field's norms take 4 bytes a paper (1 MB at 250k papers) and there are nine
    scored fields. A search scores the few whose postings it reads: most read four,
    and a field no paper has words in (authors, years, venues of paragraph lists) is
    never read at all.
    """

    def __init__(self, fieldnames: Iterable[str], read: Callable[[str], array | None]) -> None:
        self._fieldnames = tuple(fieldnames)
        self._read = read
        self._loaded: dict[str, array | None] = {}

    def _load(self, fieldname: str) -> array | None:
        if fieldname not in self._loaded:
            known = fieldname in self._fieldnames
            self._loaded[fieldname] = self._read(fieldname) if known else None
        return self._loaded[fieldname]

    def get(self, fieldname: str,  # type: ignore[override]
            default: array | None = None) -> array | None:
        found = self._load(fieldname)  # without Mapping's KeyError round trip
        return default if found is None else found

    def __getitem__(self, fieldname: str) -> array:
        found = self._load(fieldname)
        if found is None:
            raise KeyError(fieldname)
        return found

    def __iter__(self) -> Iterator[str]:
        return (name for name in self._fieldnames if self._load(name) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)
