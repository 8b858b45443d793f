"""Small files the builder writes next to the Whoosh index, and how to read them back.

They hold what makes typing fast and ranking cheap to start: the prefix table, the
vocabulary for spelling suggestions, and each field's document lengths.
"""

from __future__ import annotations

import json
from array import array

from whoosh.filedb.filestore import Storage

PREFIX_FILE = "prefixes.json"
WORDS_FILE = "words.json"
LENGTHS_FILE = "lengths-{}.bin"
SHORT_PREFIX = 3
"""Prefixes up to this length are looked up in the prefix table."""
PREFIX_FANOUT = 8
"""How many terms a typed prefix expands to, most frequent first."""


def read_json(storage: Storage, name: str) -> object:
    """Read one of the builder's JSON side files."""
    handle = storage.open_file(name)
    try:
        return json.loads(handle.read().decode("utf-8"))
    finally:
        handle.close()


def read_lengths(storage: Storage, fieldname: str) -> array:
    """The lengths (in terms) of `fieldname` for every paper, in docnum order."""
    handle = storage.open_file(LENGTHS_FILE.format(fieldname))
    try:
        column = array("I")
        column.frombytes(handle.read())
        return column
    finally:
        handle.close()
