"""Reading list files: finding them (`files`) and reading the paragraph format (`paragraphs`).

Every reader turns a file into a `PaperList` of `Paper`s; nothing here touches the index.
"""
