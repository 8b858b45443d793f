"""Reading list files, in the formats they come in.

Finding them (`files`), the paragraph format (`paragraphs`), and the structured ones:
JSON and JSON Lines (streamed, `jsonlists`), BibTeX (`bibtex`) and CSV/TSV (`csvlists`).
`detect` says which reader a file needs from its content, `fields` maps a record's
fields (title, abstract, authors, year...) whatever they are called, `records` turns
them into `Paper` records (`papers` gives every format's papers their ids and
names), `structured` streams a structured list, `parts` cuts a large JSON Lines file
for parallel builds, and `reader` is the one entry point the builder uses. Every
reader yields `Paper`s; nothing here touches the index.
"""
