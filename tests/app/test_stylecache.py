"""The parsed styles kept between starts (`tui.app.stylecache`): a second start parses
no stylesheet and draws the same screen; a file that cannot be trusted is ignored."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from tests.app.reader_helpers import settle
from tui.app import compat, stylecache
from tui.app.stylecache import KeptStylesheet


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Where each CSS source Textual actually parsed was read from, in order."""
    sources: list[tuple[str, str]] = []
    parse = compat.SourceStylesheet.parse_source

    def counting(self, css, read_from, *args):
        sources.append(read_from)
        return parse(self, css, read_from, *args)

    monkeypatch.setattr(compat.SourceStylesheet, "parse_source", counting)
    return sources


async def _screenshot(app) -> str:
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        shot = app.export_screenshot(title="paperscope")
        styles_file = app.styles_file
    assert styles_file.is_file()
    return shot


async def test_a_second_start_parses_no_stylesheet_and_draws_the_same(
        make_app, parsed: list[tuple[str, str]]) -> None:
    cold = await _screenshot(make_app())
    assert any(path.endswith("paperscope.tcss") for path, _ in parsed)
    assert ("", "") not in parsed  # every source says where it came from
    first = len(parsed)
    warm = await _screenshot(make_app())
    assert parsed[first:] == []
    assert warm == cold


async def test_another_theme_parses_its_own_styles(make_app, parsed) -> None:
    await _screenshot(make_app())
    first = len(parsed)
    other = await _screenshot(make_app(theme="textual-light"))
    assert len(parsed) > first  # the dark theme's rules were not reused for it
    again = await _screenshot(make_app(theme="textual-light"))
    assert again == other


@pytest.mark.parametrize("content", [b"", b"not a pickle", pickle.dumps([1, 2]),
                                     pickle.dumps({"parser": "old", "variables": {},
                                                   "entries": {}})])
def test_a_file_that_cannot_be_trusted_is_ignored(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / stylecache.FILE
    path.write_bytes(content)
    assert stylecache.load(path) == ({}, {})


def test_a_missing_file_is_none_and_rules_with_errors_are_never_kept(tmp_path: Path) -> None:
    path = tmp_path / "sub" / stylecache.FILE
    assert stylecache.load(path) == ({}, {})
    sheet = KeptStylesheet(variables={"accent": "red"})
    good = sheet.parse_source("Static { color: $accent; }", ("a.tcss", ""), False, 0, "")
    bad = sheet.parse_source("Static { colour: red; }", ("b.tcss", ""), False, 0, "")
    assert not any(rule.errors for rule in good) and any(rule.errors for rule in bad)
    stylecache.save(sheet, path)
    variables, entries = stylecache.load(path)
    assert variables == {"accent": "red"}
    assert [key[1] for key in entries] == [("a.tcss", "")]
    assert [rule.css for rule in next(iter(entries.values()))] == [rule.css for rule in good]


def test_kept_rules_apply_only_under_the_variables_they_were_parsed_with(
        tmp_path: Path, parsed: list[tuple[str, str]]) -> None:
    path = tmp_path / stylecache.FILE
    css, where = "Static { color: $accent; }", ("a.tcss", "")
    first = KeptStylesheet(variables={"accent": "red"})
    first.parse_source(css, where, False, 0, "")
    stylecache.save(first, path)
    assert not first.added  # saved: nothing new to write
    reused = KeptStylesheet(variables={"accent": "red"}, kept=stylecache.load(path))
    reused.parse_source(css, where, False, 0, "")
    assert len(parsed) == 1
    reused.set_variables({"accent": "blue"})  # a theme set after the app was made
    rules = reused.parse_source(css, where, False, 0, "")
    assert len(parsed) == 2 and "#0000FF" in rules[0].css
    reused.set_variables({"accent": "red"})  # back: the loaded rules apply again
    reused.parse_source(css, where, False, 0, "")
    assert len(parsed) == 2


def test_the_key_follows_the_parsing_code() -> None:
    key = stylecache.parser_key()
    assert key == stylecache.parser_key()
    files = [entry[0] for entry in key[2]]
    assert all(Path(path).is_file() for path in files)
    assert any(path.endswith("textual/css/parse.py") for path in files)
