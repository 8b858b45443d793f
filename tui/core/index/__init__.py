"""The index: its schema and analysis, building it, its life on disk, and reading it.

`opening` owns an index folder's life (fingerprint, open, build, rebuild, lock, fall
back); `library.Library` holds an open index and is the only owner of its searcher.
"""
