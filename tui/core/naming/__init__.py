"""Names and titles derived from an abstract; `derive` holds the entry points.

The other modules are its parts: `text` (sentences, name-shaped words), `phrases` (spots
of a sentence), `clauses` and `patterns` (phrasings that introduce a name), `filters`
(which candidate wins) and `title` (the one-line title).
"""
