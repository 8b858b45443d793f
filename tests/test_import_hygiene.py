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
