"""Small files the builder writes next to the Whoosh index, and how to read them back.

They hold what makes typing fast and ranking cheap to start: the prefix table, the
vocabulary for spelling suggestions, each field's document lengths, and the papers'
order by name.
"""

from __future__ import annotations

import json
from array import array

PREFIX_FILE = "prefixes.json"
WORDS_FILE = "words.json"
LENGTHS_FILE = "lengths-{}.bin"
NAME_ORDER_FILE = "order-name.bin"
SHORT_PREFIX = 3
"""Prefixes up to this length are looked up in the prefix table."""
PREFIX_FANOUT = 8
"""How many terms a typed prefix expands to, most frequent first."""


def side_files(fieldnames: tuple[str, ...]) -> tuple[str, ...]:
    """The names of every side file of an index whose scored fields are `fieldnames`."""
    return (PREFIX_FILE, WORDS_FILE, NAME_ORDER_FILE,
            *(LENGTHS_FILE.format(f) for f in fieldnames))


def parse_json(data: bytes) -> object:
    """The content of one of the builder's JSON side files."""
    return json.loads(data.decode("utf-8"))


def name_key(name: str, title: str) -> str:
    """What the name sort orders a paper by: its name, or its title when it has none."""
    return (name or title).casefold()


def parse_lengths(data: bytes) -> array:
    """A lengths file's content: the length (in terms) of a field for every paper, in
    docnum order; or the name order file's: docnums in name order."""
    column = array("I")
    column.frombytes(data)
    return column
