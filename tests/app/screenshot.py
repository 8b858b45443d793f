"""Write the README's screenshot: the bundled lists with a search under way.

    python tests/app/screenshot.py [docs/screenshot.svg]

Built with the CLI's factory and the snapshot tests' fixed configuration, so that it
changes only when the reader does.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(Path(__file__).parent)]

from reader_helpers import settle, type_query  # noqa: E402
from tui.app.app import create_app  # noqa: E402

SIZE = (120, 34)
QUERY = "tool calls"


def main(target: str = str(ROOT / "docs" / "screenshot.svg")) -> None:
    with tempfile.TemporaryDirectory() as index_dir:
        app = create_app(None, index_dir, "", theme="textual-dark", cursor_blink=False,
                         show_timings=False)

        async def search_under_way(pilot) -> None:
            await settle(pilot)
            await type_query(pilot, QUERY)
            await pilot.press("enter", "g", "j")  # to the list, second hit highlighted
            await settle(pilot)
            app.exit(app.export_screenshot(title="paperscope"))

        svg = app.run(headless=True, size=SIZE, auto_pilot=search_under_way)
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    Path(target).write_text(svg, encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main(*sys.argv[1:])
