"""Where the developers' material is: the one place that knows.

The corpora, relevance collections and labelled names live in a folder beside the
checkout (`../shared`), which a clone of the project does not have. `PAPERSCOPE_SHARED`
names another folder; one that does not exist (`PAPERSCOPE_SHARED=/nonexistent`) hides
the material, so that a run behaves as on a fresh clone. A benchmark that needs a part
of it and does not find it says so in one line and exits with status 2.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = "PAPERSCOPE_SHARED"


def shared_root() -> Path:
    """The folder of shared material: `$PAPERSCOPE_SHARED`, else `../shared`."""
    return Path(os.environ.get(ENV) or ROOT.parent / "shared")


def shared(*parts: str) -> Path:
    """A path inside the shared folder (which may not exist)."""
    return shared_root().joinpath(*parts)


def require(path: Path, prog: str, what: str, flag: str) -> Path:
    """`path` when it exists; else one line on stderr naming `what` is missing and the
    option that points elsewhere, and exit status 2."""
    if not path.exists():
        print(f"{prog}: no {what} at {path} (use {flag})", file=sys.stderr)
        raise SystemExit(2)
    return path
