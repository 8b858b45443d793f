"""`paperscope serve` in a real browser: headless Chromium, driven by Selenium.

One server on a free loopback port, with its own data and index folders: the page
shows the list, a search typed in the page narrows it, `s` stars a paper, and after
the tab is closed `paperscope export --starred` finds the star. A second server on
the same port fails in one line, and SIGINT with a tab open ends the tab's reader.

Skipped where no Chromium and chromedriver are installed (CI installs Debian's
`chromium` and `chromium-driver`). With PAPERSCOPE_BROWSER_SCREENSHOT set, the page
as first shown is saved there as a PNG (that is how docs/browser.png is made).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.webpage import (
    ROOT, Page, ServedReader, alive, find_browser, free_port, list_rows, open_browser,
    port_is_free, serve_command,
)

BROWSER = find_browser()
pytestmark = pytest.mark.skipif(
    BROWSER is None or sys.platform != "linux",
    reason="needs Linux with a Chromium browser and chromedriver "
           "(apt-get install chromium chromium-driver)")


@pytest.fixture(scope="module")
def chrome():
    pytest.importorskip("selenium", reason="Selenium is in the test extras")
    assert BROWSER is not None
    driver = open_browser(*BROWSER)
    yield driver
    driver.quit()


class Folders:
    """The data, config, cache and index folders the server and the export share."""

    def __init__(self, home: Path) -> None:
        self.index = str(home / "index")
        self.env = dict(os.environ, PAPERSCOPE_DATA_DIR=str(home / "data"),
                        XDG_CONFIG_HOME=str(home / "config"),
                        XDG_CACHE_HOME=str(home / "cache"))
        self.env.pop("PAPERSCOPE_INDEX_DIR", None)


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> Folders:
    return Folders(tmp_path_factory.mktemp("served"))


@pytest.fixture()
def served(folders: Folders):
    server = ServedReader(free_port(), folders.index, folders.env)
    yield server
    server.stop()


def _new_tab(chrome, url: str) -> Page:
    chrome.switch_to.new_window("tab")
    page = Page(chrome)
    page.open(url)
    return page


def _close_tab(chrome) -> None:
    chrome.close()
    chrome.switch_to.window(chrome.window_handles[0])


def _wait(condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_star_a_paper_in_the_browser_and_export_it(chrome, served: ServedReader,
                                                    folders: Folders) -> None:
    assert served.first_line == f"paperscope: serving the reader on {served.url[:-1]} " \
                                "(ctrl+c stops)"
    page = _new_tab(chrome, served.url)
    screen = page.wait_for(lambda s: "Gecko" in s and "38 papers" in s)
    assert len(list_rows(screen)) > 10  # the list, not only the first screen's guess
    page.focus()
    page.wait_for("? Help")  # the footer's keys show while the page has the focus
    if target := os.environ.get("PAPERSCOPE_BROWSER_SCREENSHOT"):
        chrome.save_screenshot(target)
    assert len(served.readers()) == 1  # this tab's own reader

    page.type("/")
    page.type("butterworth")
    screen = page.wait_for("1 of 38 papers")
    # A paper's row ends with its list's title (both bundled lists are ICML 2026's);
    # the lines under it are the snippet of the matches.
    papers = [row for row in list_rows(screen) if "ICML 2026" in row]
    assert len(papers) == 1 and "ABFNet" in papers[0], papers
    page.type("\ue015")  # down: from the search box to the list
    # Once the list has the focus (its border turns heavy): a key sent before that
    # would still go to the search box.
    page.wait_for("┏━ Papers")
    page.type("s")
    screen = page.wait_for(lambda s: any("★" in row for row in list_rows(s)))

    readers = served.readers()
    _close_tab(chrome)
    _wait(lambda: not any(alive(pid) for pid in readers))  # the tab's reader ended
    export = subprocess.run(
        [sys.executable, "-m", "tui", "export", "--starred", "--format", "json",
         "--index-dir", folders.index],
        cwd=ROOT, env=folders.env, capture_output=True, text=True, timeout=60)
    assert export.returncode == 0, export.stderr
    assert [paper["name"] for paper in json.loads(export.stdout)] == ["ABFNet"]


def test_a_second_server_on_the_same_port_fails_in_one_line(
        served: ServedReader, folders: Folders) -> None:
    second = subprocess.run(serve_command(served.port, folders.index), cwd=ROOT,
                            env=folders.env, capture_output=True, text=True, timeout=60)
    assert second.returncode == 2
    assert second.stdout == ""
    assert second.stderr.count("\n") == 1 and "already in use" in second.stderr


def test_ctrl_c_ends_every_reader_and_frees_the_port(chrome, served: ServedReader) -> None:
    pages = [_new_tab(chrome, served.url) for _ in range(2)]
    for page in pages:
        page.wait_for("Gecko")
    readers = served.readers()
    assert len(readers) == 2  # a reader per tab
    # Promptly: aiohttp alone would wait for the open tabs (about 20 s here).
    assert served.interrupt(timeout=15) == 0
    assert not [pid for pid in readers if alive(pid)]
    assert port_is_free(served.port)
    for _ in pages:
        _close_tab(chrome)
