"""The core never imports Textual: quick lookups must not pay for the UI."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

CORE_MODULES = [
    "tui.core.lists.paragraphs", "tui.core.render.text", "tui.core.naming.derive",
    "tui.core.index.opening", "tui.core.index.library", "tui.core.index.builder",
    "tui.core.search.search", "tui.core.state", "tui.core.export", "tui.cli", "tui.commands",
    "tui.output",
]


def test_core_does_not_import_textual() -> None:
    code = (f"import sys, importlib\nfor m in {CORE_MODULES!r}: importlib.import_module(m)\n"
            "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
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
