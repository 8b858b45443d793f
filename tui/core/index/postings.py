"""A segment's postings, collected per field and term, then written a block at a time.

Whoosh's writer puts every posting into a pool as one tuple, sorts the whole pool when
the segment is written, and hands the codec one posting at a time. The builder adds
papers in docnum order, so each term's postings arrive already sorted: collecting them
per field and term makes the sort unnecessary, and the codec's postings writer can be
given whole blocks. The bytes written are exactly those Whoosh's own writer would
write (a test compares the two).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from whoosh.codec.whoosh3 import W3FieldWriter
from whoosh.fields import Schema
from whoosh.util.numeric import byte_to_length, length_to_byte

from tui.core.whoosh_compat import block_limit, block_writer, fill_block, write_block


class Postings:
    """Postings of one segment: field → term → [(docnum, weight, value bytes), ...]."""

    def __init__(self) -> None:
        self.fields: dict[str, defaultdict[str | bytes, list[tuple[int, float, bytes]]]] = {}

    def table(self, fieldname: str) -> defaultdict[str | bytes, list[tuple[int, float, bytes]]]:
        """The term table of `fieldname`, whose keys are str terms or bytes terms.

        Text terms may stay str: UTF-8 keeps code point order, so str keys sort as
        their bytes do.
        """
        found = self.fields.get(fieldname)
        if found is None:
            found = self.fields[fieldname] = defaultdict(list)
        return found

    def write(self, fieldwriter: W3FieldWriter, schema: Schema,
              lengths: Mapping[str, Sequence[int]]) -> None:
        """Write every posting list through `fieldwriter`, fields and terms in order.

        `lengths` holds each scored field's length per docnum; Whoosh records the
        shortest and longest (as its one-byte approximation) in every block.
        """
        for name in sorted(self.fields):
            table = self.fields[name]
            fieldwriter.start_field(name, schema[name])
            postwriter = block_writer(fieldwriter)
            limit = block_limit(postwriter)
            column = lengths.get(name)
            if column is not None:
                # What the per-document reader gives back: each length's one-byte
                # approximation.
                column = [byte_to_length(length_to_byte(n)) for n in column]
            for term in sorted(table):
                fieldwriter.start_term(term.encode("utf-8") if isinstance(term, str) else term)
                items = table[term]
                for begin in range(0, len(items), limit):
                    _fill_block(postwriter, items[begin:begin + limit], column)
                    if begin + limit < len(items):
                        write_block(postwriter)
                fieldwriter.finish_term()
            fieldwriter.finish_field()


def _fill_block(postwriter, chunk: list[tuple[int, float, bytes]],
                column: Sequence[int] | None) -> None:
    """Load one block's postings into Whoosh's postings writer, as `add_posting` would."""
    ids, weights, values = zip(*chunk)
    lengths: tuple[int | None, int] = (None, 0)
    if column is not None:
        # A posting means the field has words in that paper, so no length here is 0.
        found = list(map(column.__getitem__, ids))
        lengths = (min(found), max(found))
    fill_block(postwriter, ids, weights, [v for v in values if v], lengths)
