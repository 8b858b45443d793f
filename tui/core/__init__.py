"""The core of paperscope: reading lists, rendering, indexing, search and state.

Nothing in this package imports Textual; the command line's quick lookups rely on that.
"""
