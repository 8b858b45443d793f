"""Hostile search queries, generated in bulk from a seed.

Hypothesis draws a few hundred queries per second and shrinks failures; this generator
draws ten thousand in well under a second and always the same ones for a seed, which is
what the latency record needs (the worst query must be reproducible from the report).
The property test in ``test_hostile_queries`` uses Hypothesis for the shrinking.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Iterator, Sequence

KNOWN_FIELDS = ("name:", "title:", "list:", "text:", "id:")
STATE_FILTERS = ("is:starred", "is:unread", "is:read", "has:note", "has:notes", "is:", "has:",
                 "is:bogus", "IS:STARRED", "has:Note", "is:starred:", "-is:read")
UNKNOWN_FIELDS = ("author:", "year:", "foo:", "Title:", "NAME:", "x:", "_:", "1:", "é:", "中:",
                  "title::", ":", "::", "*:", "a:b:", "text:title:", "id:id:", "http:", "is:has:")
OPERATORS = ("AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "REQUIRE", "and", "or", "not", "&&", "||", "!", "+",
             "-", "--", "(", ")", "((", "))", '"', "'", "*", "?", "~", "~2", "^", "^2", "[", "]",
             "{", "}", "TO", "[a TO z]", "{* TO *}", "\\", ":", "/", ";", ",", ".", "..", "<",
             ">", "=", "|", "*:*", "()", '""', "(*)", "-*", "NOT NOT", "OR OR", "AND(")
CONTROL = tuple(chr(c) for c in range(0x20) if c not in (0x0A, 0x0D)) + (
    "\x7f", "\x85", "\x9b", "\x1b[31m", "\x1b]0;title\x07", "\u2028", "\u2029", "\u200b",
    "\ufeff", "\u202e", "\u2066", "\ufffd", "\uffff", "\U0010ffff")
# Character pools for random text: one per script or kind, picked per query.
POOLS = (
    string.punctuation + string.digits + " ",
    "".join(map(chr, range(0x0590, 0x0600))) + "\u200f\u202b\u202e ",  # Hebrew, RTL marks
    "".join(map(chr, range(0x0600, 0x0700))) + " ",  # Arabic
    "".join(map(chr, range(0x0300, 0x0370))) + "aeiou",  # combining marks
    "".join(map(chr, range(0x1F300, 0x1F650))) + "\u200d\ufe0f ",  # emoji, ZWJ
    "".join(map(chr, range(0x4E00, 0x4F00))) + "".join(map(chr, range(0x3040, 0x30A0))),
    "".join(map(chr, range(0x2200, 0x2300))) + "αβγτ²ℓₚ∑∫√∞ ",  # maths
    "".join(map(chr, range(0xA0, 0x250))),  # Latin-1 and Latin Extended
    "".join(CONTROL),
)


class QueryGenerator:
    """Draws hostile queries of several kinds; ``kind`` names the kind last drawn.

    ``vocabulary`` is the library's own words: queries built from them find papers and
    reach the ranking and snippet code, not only the no-result path. Unknown ASCII words
    are rationed (``gibberish``): each one costs the spelling corrector up to a few
    hundred milliseconds, and that cost is tested on its own in
    ``test_many_unknown_words_finish_in_time``.
    """

    def __init__(self, vocabulary: Sequence[str], seed: int, *, surrogates: bool = True) -> None:
        self.rng = random.Random(seed)
        self.words = sorted(vocabulary) or ["learning"]
        self.surrogates = surrogates
        self.kinds: list[tuple[str, Callable[[], str], int]] = [
            ("random text", self.random_text, 14),
            ("operator soup", self.operator_soup, 18),
            ("unbalanced", self.unbalanced, 10),
            ("fields", self.fields, 16),
            ("wildcards", self.wildcards, 10),
            ("long", self.long, 4),
            ("control", self.control, 10),
            ("typing", self.typing, 14),
            ("typos", self.typos, 2),
            ("gibberish", self.gibberish, 0.2),
        ]
        self.kind = ""

    def __iter__(self) -> Iterator[str]:
        while True:
            yield self.draw()

    def draw(self) -> str:
        names, makers, weights = zip(*self.kinds)
        index = self.rng.choices(range(len(makers)), weights)[0]
        self.kind = names[index]
        return makers[index]()

    # Pieces ------------------------------------------------------------------------

    def word(self) -> str:
        word = self.rng.choice(self.words)
        roll = self.rng.random()
        return word.upper() if roll < 0.1 else word.title() if roll < 0.2 else word

    def junk(self, size: int) -> str:
        pool = self.rng.choice(POOLS)
        text = "".join(self.rng.choice(pool) for _ in range(size))
        if self.surrogates and self.rng.random() < 0.05:
            text += chr(self.rng.randrange(0xD800, 0xE000))  # what argv bytes decode to
        return text

    def piece(self) -> str:
        roll = self.rng.random()
        if roll < 0.45:
            return self.word()
        if roll < 0.75:
            return self.rng.choice(OPERATORS)
        if roll < 0.85:
            return self.rng.choice(KNOWN_FIELDS + STATE_FILTERS + UNKNOWN_FIELDS)
        return self.junk(self.rng.randint(1, 4))

    def join(self, pieces: list[str]) -> str:
        # No empty glue: two glued words make an unknown word (see the class docstring).
        glue = self.rng.choice([" ", " ", " ", "  ", "\t", "\u3000", " \u200b"])
        return glue.join(pieces)

    # Kinds -------------------------------------------------------------------------

    def random_text(self) -> str:
        return self.junk(self.rng.randint(0, 60))

    def operator_soup(self) -> str:
        return self.join([self.piece() for _ in range(self.rng.randint(1, 25))])

    def unbalanced(self) -> str:
        pieces = [self.word() for _ in range(self.rng.randint(1, 6))]
        for _ in range(self.rng.randint(1, 4)):
            mark = self.rng.choice(['"', "(", ")", '"(', ')"', "((", '"""', "'"])
            pieces.insert(self.rng.randint(0, len(pieces)), mark)
        return self.join(pieces)

    def fields(self) -> str:
        clauses = []
        for _ in range(self.rng.randint(1, 6)):
            prefix = self.rng.choice(KNOWN_FIELDS * 3 + STATE_FILTERS + UNKNOWN_FIELDS)
            value = self.rng.choice([
                "", self.word(), f'"{self.word()} {self.word()}"', f"({self.word()} OR "
                f"{self.word()})", f"{self.word()[:2]}*", "*", "?", self.rng.choice(KNOWN_FIELDS),
                self.junk(3), f'"{self.word()}', f"({self.word()}", "-" + self.word(),
                "".join(self.rng.choice("0123456789abcdef") for _ in range(self.rng.randint(1, 14))),
            ])
            # A filter glued to a word ("is:readflow") is one unknown word, so keep a space.
            clauses.append(prefix + (" " if prefix in STATE_FILTERS else "") + value)
        return self.join(clauses)

    def wildcards(self) -> str:
        def pattern() -> str:
            word = self.word()
            cut = self.rng.randint(0, len(word))
            return self.rng.choice([
                word[:cut] + "*", "*" + word[cut:], word[:cut] + "?" + word[cut + 1:],
                word[:cut] + "*" + word[cut:], "*", "?", "**", "?*", "*?*", "***a", "a*b*c*",
                word[:1] + "*", word[:2] + "?*",
            ])
        return self.join([pattern() for _ in range(self.rng.randint(1, 5))])

    def long(self) -> str:
        size = self.rng.choice([1000, 1001, 2000, 5000, 20000])
        shape = self.rng.randrange(6)
        if shape == 0:
            text = " ".join(self.word() for _ in range(size // 4))
        elif shape == 1:
            text = self.rng.choice(string.ascii_lowercase) * size  # one enormous word
        elif shape == 2:
            text = self.rng.choice(["(", ")", '"', "*", "-", ":", "\\", "NOT ", "a* "]) * size
        elif shape == 3:
            text = self.join([self.piece() for _ in range(size // 5)])
        elif shape == 4:
            text = self.junk(size)
        else:
            text = " OR ".join(self.word()[:2] + "*" for _ in range(size // 6))
        return text[:size]

    def control(self) -> str:
        pieces = [self.word() for _ in range(self.rng.randint(0, 5))]
        for _ in range(self.rng.randint(1, 6)):
            pieces.insert(self.rng.randint(0, len(pieces)), self.rng.choice(CONTROL))
        return self.rng.choice(["", " "]).join(pieces)

    def typing(self) -> str:
        """A query as it looks while being typed: whole words, then a short prefix."""
        done = [self.word() for _ in range(self.rng.randint(0, 3))]
        last = self.word()
        return " ".join(done + [last[: self.rng.randint(1, min(4, len(last)))]])

    def typos(self) -> str:
        def typo(word: str) -> str:
            at = self.rng.randrange(len(word))
            return word[:at] + self.rng.choice(string.ascii_lowercase) + word[at + 1:]
        return " ".join(typo(self.word().lower()) for _ in range(self.rng.randint(1, 2)))

    def gibberish(self) -> str:
        """Made-up ASCII words: no known word within two edits, the corrector's worst case."""
        def made_up() -> str:
            return "".join(self.rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(self.rng.randint(5, 12)))
        return " ".join(made_up() for _ in range(self.rng.randint(1, 2)))
