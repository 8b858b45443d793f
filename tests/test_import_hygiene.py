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


def loaded_by_a_plain_search(index_dir, modules: tuple[str, ...]) -> str:
    """Which of `modules` a real `paperscope search gecko` has loaded, and its exit code."""
    code = ("import sys\nfrom tui.cli import main\n"
            f"code = main(['search', 'gecko', '--index-dir', {str(index_dir)!r}])\n"
            f"print('LOADED', sorted(m for m in {modules!r} if m in sys.modules), code)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    return proc.stdout.strip().splitlines()[-1]


def test_a_plain_search_does_not_import_drafts_state_or_exports(tmp_path) -> None:
    assert loaded_by_a_plain_search(tmp_path, ONLY_WHEN_NEEDED) == "LOADED [] 0"


NEVER_FOR_A_SEARCH = ("asyncio", "urllib.request", "http.client", "email", "ssl",
                      "cached_property", "whoosh.lang.morph_en", "html", "calendar")
"""What Whoosh imports by name but a search never uses (see tui/core/whoosh_import.py):
together about a third of a cold search's imports."""


def test_a_plain_search_does_not_import_what_whoosh_never_uses(tmp_path) -> None:
    assert loaded_by_a_plain_search(tmp_path, NEVER_FOR_A_SEARCH) == "LOADED [] 0"


ONLY_FOR_A_BUILD = ("tui.core.index.reuse", "tui.core.lists.paragraphs", "uuid", "platform",
                    "platformdirs", "typing")
"""What a search of an index already built, in the folder it is given, does not import:
the build's reuse planner and paragraph reader, uuid (names of new folders; it imports
platform), platformdirs (the default index folder) and typing (the modules on a search's
path name their types for type checkers only, under `TYPE_CHECKING = False`)."""


def test_a_search_of_a_built_index_imports_nothing_only_a_build_needs(tmp_path) -> None:
    loaded_by_a_plain_search(tmp_path, ())  # the first search builds the index
    assert loaded_by_a_plain_search(tmp_path, ONLY_FOR_A_BUILD) == "LOADED [] 0"


def test_the_stand_ins_leave_the_real_modules_to_later_imports() -> None:
    # After Whoosh is imported with the stand-ins, whoever imports these modules gets
    # the real ones, and what Whoosh took from the stand-ins behaves as the real thing.
    code = (
        "import tui.core.index, sys\n"
        "import urllib.request, cached_property, whoosh.lang.morph_en as morph, html, calendar\n"
        "from whoosh.util.times import adatetime\n"
        "import whoosh.compat, whoosh.query.terms as terms, whoosh.reading as reading\n"
        "print(hasattr(urllib.request, 'urlopen'), hasattr(cached_property, "
        "'threaded_cached_property'), callable(whoosh.compat.urlretrieve), "
        "whoosh.compat.htmlescape('<a>', quote=False) == html.escape('<a>') == '&lt;a&gt;')\n"
        "print(terms.variations('running') == morph.variations('running'), "
        "len(morph.variations('running')) > 1, calendar.isleap(2024), "
        "adatetime(2024, 2).ceil().day == 29)\n"
        "from whoosh.filedb.filestore import RamStorage\nfrom whoosh import fields\n"
        "ix = RamStorage().create_index(fields.Schema(t=fields.TEXT))\n"
        "w = ix.writer(); w.add_document(t='a b'); w.add_document(t='b c'); w.commit()\n"
        "w = ix.writer(); w.delete_document(0); w.commit()\n"
        "r = ix.reader(); print(sorted(r.deleted_docs_set), sorted(r.deleted_docs_set))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    assert proc.stdout.split("\n")[:3] == ["True True True True", "True True True True", "[0] [0]"]


def test_only_the_program_leaves_its_objects_to_the_end_of_the_process(tmp_path) -> None:
    # As the program, main() freezes the heap for the exit (no last collection to walk
    # it); called with arguments (tests, other programs) it leaves the collector as it
    # was, so a long-lived caller's memory is still collected.
    code = ("import gc, sys\nfrom tui.cli import main\n"
            f"main(['search', 'gecko', '--index-dir', {str(tmp_path)!r}])\n"
            "print('CALLED', gc.get_freeze_count() == 0, gc.isenabled())\n"
            f"sys.argv = ['paperscope', 'search', 'gecko', '--index-dir', {str(tmp_path)!r}]\n"
            "main()\nprint('PROGRAM', gc.get_freeze_count() > 0, gc.isenabled())\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    marks = [line for line in proc.stdout.splitlines() if line.startswith(("CALLED", "PROGRAM"))]
    assert marks == ["CALLED True True", "PROGRAM True True"]
