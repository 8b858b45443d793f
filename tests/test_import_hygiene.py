"""The core never imports Textual or the app: quick lookups must not pay for the UI.

(The first frame's own import budget is checked in tests/app/test_palette_and_opening.py.)
"""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

CORE_MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for path in (ROOT / "tui" / "core").rglob("*.py") if "__pycache__" not in path.parts
) + ["tui.cli", "tui.commands", "tui.output"]
"""Every core module, and the command line that uses the core without the reader."""


def test_the_module_list_holds_every_core_room() -> None:
    for module in ("tui.core.index.library", "tui.core.search.search", "tui.core.render.text",
                   "tui.core.lists.paragraphs", "tui.core.naming.derive", "tui.core.state"):
        assert module in CORE_MODULES


def test_core_does_not_import_textual_or_the_app() -> None:
    code = (f"import sys, importlib\nfor m in {CORE_MODULES!r}: importlib.import_module(m)\n"
            "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith("
            "('textual.', 'tui.app')))\n"
            "print(bad)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    assert proc.stdout.strip() == "[]"


SERVER_PACKAGES = ("textual_serve", "aiohttp", "aiohttp_jinja2", "jinja2", "tui.serve")
"""What only `paperscope serve` may load: the web server and its templates."""


def test_search_does_not_import_the_web_server(tmp_path) -> None:
    # A real `paperscope search`, through main(), on an index of its own.
    code = ("import sys\nfrom tui.cli import main\n"
            f"code = main(['search', 'gecko', '--index-dir', {str(tmp_path)!r}])\n"
            f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {SERVER_PACKAGES!r} "
            f"or m in {SERVER_PACKAGES!r})\n"
            "print('LOADED', bad, code)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    assert proc.stdout.strip().splitlines()[-1] == "LOADED [] 0"


ONLY_WHEN_NEEDED = ("tui.core.drafts", "tui.core.state", "tui.core.export")
"""What a plain `paperscope search` does not need: drafts (for `show`), the reading
state (for a query that names `is:starred` and the like) and the exporters."""


def test_a_plain_search_does_not_import_drafts_state_or_exports(tmp_path) -> None:
    code = ("import sys\nfrom tui.cli import main\n"
            f"code = main(['search', 'gecko', '--index-dir', {str(tmp_path)!r}])\n"
            f"print('LOADED', sorted(m for m in {ONLY_WHEN_NEEDED!r} if m in sys.modules), code)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    assert proc.stdout.strip().splitlines()[-1] == "LOADED [] 0"
