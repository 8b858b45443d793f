"""Small files the builder writes next to the Whoosh index, and how to read them back.

They hold what makes typing fast and ranking cheap to start: the prefix table and the
text's terms with their counts, the vocabulary for spelling suggestions, each field's BM25 length norms (computed once,
when the index is built, so that the first search reads them instead of computing one
per paper), and the papers' order by name.
"""

from __future__ import annotations

import json
from array import array

PREFIX_FILE = "prefixes.json"
TOPS_FILE = "prefix-tops.json"
"""The best papers of each short prefix (`prefixtops`)."""
WORDS_FILE = "words.json"
TERMS_FILE = "terms-text.bin"
"""Every `text` term with its count (see `termtable`)."""
NORMS_FILE = "norms-{}.bin"
NAME_ORDER_FILE = "order-name.bin"
LIST_ORDER_FILE = "order-list.bin"
"""The live docnums in list order: docnums follow it unless lists were changed or
removed in a reused segment (see `reuse`)."""
SHORT_PREFIX = 3
"""Every prefix up to this length has a row in the prefix table."""
PREFIX_SCAN = 256
"""A longer prefix that starts more terms than this has a row too; any other is
expanded by reading its terms from the index, so that a typed prefix never reads more
than this many terms, however large the vocabulary."""
PREFIX_FANOUT = 8
"""How many terms a typed prefix expands to, most frequent first."""


def side_files(fieldnames: tuple[str, ...]) -> tuple[str, ...]:
    """The names of every side file of an index whose scored fields are `fieldnames`."""
    return (PREFIX_FILE, TOPS_FILE, WORDS_FILE, TERMS_FILE, NAME_ORDER_FILE, LIST_ORDER_FILE,
            *(NORMS_FILE.format(f) for f in fieldnames))


def parse_json(data: bytes) -> object:
    """The content of one of the builder's JSON side files."""
    return json.loads(data.decode("utf-8"))


def name_key(name: str, title: str) -> str:
    """What the name sort orders a paper by: its name, or its title when it has none."""
    return (name or title).casefold()


def parse_order(data: bytes) -> array:
    """An order file's content: docnums in name (or list) order."""
    column = array("I")
    column.frombytes(data)
    return column


def parse_norms(data: bytes) -> array:
    """A norms file's content: a field's BM25 length norm for every paper, in docnum
    order (see `scorer.norms_for`)."""
    column = array("f")
    column.frombytes(data)
    return column
