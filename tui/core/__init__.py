"""The core of paperscope: reading lists, rendering, indexing, search and state.

Nothing in this package imports Textual; the command line's quick lookups rely on that.
"""

from tui.core.whoosh_import import install as _install_whoosh_stand_ins

_install_whoosh_stand_ins()  # imports nothing: Whoosh is imported when first needed
