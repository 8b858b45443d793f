"""The list's first rows, kept beside the index for the reader's first frame."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import write_list
from tui.core.index import first_screen
from tui.core.index.library import open_library


def _lists(folder: Path, papers: int = 3) -> Path:
    folder.mkdir(exist_ok=True)
    for n in range(2):
        write_list(folder, f"venue{n}.txt", f"Venue {n} Papers\n\n" + "\n\n".join(
            f"We propose Method{n}x{k}, which sorts list {n} paper {k} faster than "
            f"anything before it." for k in range(papers)) + "\n")
    return folder


def _open_and_save(lists: Path, index: Path) -> first_screen.FirstScreen:
    """What the reader does: look (before opening), open, save."""
    screen = first_screen.look([str(lists)], str(index))
    assert screen is not None
    with open_library([str(lists)], str(index)) as library:
        first_screen.save(screen, library)
    return screen


def test_saved_rows_are_the_first_papers_in_list_order(tmp_path: Path) -> None:
    lists, index = _lists(tmp_path / "lists"), tmp_path / "index"
    before = _open_and_save(lists, index)
    assert before.rows == ()  # nothing kept yet
    found = first_screen.look([str(lists)], str(index))
    assert found is not None and found.key == before.key
    assert found.papers == 6
    with open_library([str(lists)], str(index)) as library:
        expected = [library.paper(d) for d in range(6)]
    assert [(p.id, p.list_title, p.file, p.position, p.name, p.title) for p in found.rows] \
        == [(p.id, p.list_title, p.file, p.position, p.name, p.title) for p in expected]
    assert [p.list_title for p in found.rows] == ["Venue 0 Papers"] * 3 + ["Venue 1 Papers"] * 3
    assert all(p.raw == "" for p in found.rows)  # no abstracts: rows only


def test_only_the_first_rows_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(first_screen, "ROWS", 4)
    lists, index = _lists(tmp_path / "lists"), tmp_path / "index"
    _open_and_save(lists, index)
    found = first_screen.look([str(lists)], str(index))
    assert found is not None and len(found.rows) == 4 and found.papers == 6
    assert [p.position for p in found.rows] == [0, 1, 2, 0]


def test_a_changed_list_is_not_shown_from_the_old_rows(tmp_path: Path) -> None:
    lists, index = _lists(tmp_path / "lists"), tmp_path / "index"
    _open_and_save(lists, index)
    path = lists / "venue0.txt"
    path.write_text(path.read_text(encoding="utf-8").replace("Method0x0", "Other0x0"),
                    encoding="utf-8")
    found = first_screen.look([str(lists)], str(index))
    assert found is not None and found.rows == ()
    _open_and_save(lists, index)  # the next start keeps the new rows
    found = first_screen.look([str(lists)], str(index))
    assert found is not None and found.rows[0].name == "Other0x0"


def test_a_touched_or_added_list_changes_the_key(tmp_path: Path) -> None:
    lists, index = _lists(tmp_path / "lists"), tmp_path / "index"
    key = _open_and_save(lists, index).key
    stat = (lists / "venue1.txt").stat()
    os.utime(lists / "venue1.txt", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert first_screen.look([str(lists)], str(index)).key != key
    key = _open_and_save(lists, index).key
    write_list(lists, "venue2.txt", "Venue 2 Papers\n\nWe propose Late, a third list.\n")
    assert first_screen.look([str(lists)], str(index)).key != key


def test_other_deriving_code_changes_the_key(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    lists, index = _lists(tmp_path / "lists"), tmp_path / "index"
    _open_and_save(lists, index)
    monkeypatch.setattr(first_screen, "code_stat_key", lambda: "another version")
    found = first_screen.look([str(lists)], str(index))
    assert found is not None and found.rows == ()


@pytest.mark.parametrize("content", [
    b"", b"{", b"[]", b'{"key": 1}', b"\xff\xfe",
    None,  # the right key, with rows of the wrong shape: filled in below
])
def test_a_damaged_file_is_ignored(tmp_path: Path, content: bytes | None) -> None:
    lists, index = _lists(tmp_path / "lists"), tmp_path / "index"
    screen = _open_and_save(lists, index)
    path = index / first_screen.FILE
    if content is None:
        data = json.loads(path.read_bytes())
        data["rows"][1][3] = "1"  # a position that is not a number
        content = json.dumps(data).encode()
    path.write_bytes(content)
    found = first_screen.look([str(lists)], str(index))
    assert found is not None and found.key == screen.key and found.rows == ()


def test_more_rows_than_papers_is_damage(tmp_path: Path) -> None:
    lists, index = _lists(tmp_path / "lists"), tmp_path / "index"
    _open_and_save(lists, index)
    path = index / first_screen.FILE
    data = json.loads(path.read_bytes())
    data["papers"] = 2
    path.write_text(json.dumps(data), encoding="utf-8")
    assert first_screen.look([str(lists)], str(index)).rows == ()


def test_missing_lists_give_nothing_and_raise_nothing(tmp_path: Path) -> None:
    assert first_screen.look([str(tmp_path / "missing.txt")], str(tmp_path / "i")) is None


def test_an_unwritable_root_is_let_be(tmp_path: Path) -> None:
    lists = _lists(tmp_path / "lists")
    with open_library([str(lists)], str(tmp_path / "index")) as library:
        blocked = tmp_path / "a-file"
        blocked.write_text("not a folder", encoding="utf-8")
        screen = first_screen.FirstScreen("key", (blocked,))
        first_screen.save(screen, library)  # no error
    assert blocked.read_text(encoding="utf-8") == "not a folder"
    assert not list(tmp_path.glob("*.tmp"))


def test_rows_already_kept_are_not_written_again(tmp_path: Path) -> None:
    lists, index = _lists(tmp_path / "lists"), tmp_path / "index"
    _open_and_save(lists, index)
    path = index / first_screen.FILE
    written = path.stat().st_mtime_ns
    os.utime(path, ns=(written - 10**9, written - 10**9))
    _open_and_save(lists, index)
    assert path.stat().st_mtime_ns == written - 10**9


def test_looking_loads_neither_whoosh_nor_the_search() -> None:
    code = ("import sys; from tui.core.index import first_screen; first_screen.look(None, None); "
            "assert not [m for m in sys.modules if m.startswith(('whoosh', 'tui.core.search',"
            " 'tui.core.index.library', 'textual'))]")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[1])


def test_a_library_that_cannot_be_read_writes_nothing(tmp_path: Path) -> None:
    class Unreadable:
        def __len__(self) -> int:
            return 3

        def paper(self, docnum: int):
            raise OSError("the index went away")

    screen = first_screen.FirstScreen("key", (tmp_path,))
    first_screen.save(screen, Unreadable())  # type: ignore[arg-type]
    assert not list(tmp_path.iterdir())
