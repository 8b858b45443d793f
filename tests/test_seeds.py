"""Reading paper lists: the format and the real-world variations it must accept."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SEEDS, write_list
from tui.core.lists.paragraphs import SeedError, discover, paper_id, read_list, read_lists

ABSTRACT_A = ("We propose Gecko, a stateful simulation environment that provides informative "
              "feedback for refining tool calls. Experiments show large gains.")
ABSTRACT_B = ("Scale drift remains severe on long sequences. To address these issues, we "
              "propose VGGT-Motion, a calibration-free SLAM system for global consistency.")
CANONICAL = f"ICML 2026 Papers\n\n{ABSTRACT_A}\n\n{ABSTRACT_B}\n"


def texts(path: Path) -> list[str]:
    return [p.raw for p in read_list(path).papers]


def test_bundled_seeds_parse_into_38_abstracts() -> None:
    lists = list(read_lists([SEEDS]))
    assert [pl.title for pl in lists] == ["ICML 2026 Papers", "ICML 2026 论文列表"]
    assert sum(len(pl.papers) for pl in lists) == 38
    for plist in lists:
        assert [p.position for p in plist.papers] == list(range(len(plist.papers)))
        assert all(p.list_title == plist.title and p.file == plist.file for p in plist.papers)


def test_canonical_format(tmp_path: Path) -> None:
    plist = read_list(write_list(tmp_path, "a.txt", CANONICAL))
    assert plist.title == "ICML 2026 Papers"
    assert texts(tmp_path / "a.txt") == [ABSTRACT_A, ABSTRACT_B]


@pytest.mark.parametrize("variant", [
    CANONICAL.replace("\n", "\r\n"),
    CANONICAL.replace("\n", "\r"),
    "\ufeff" + CANONICAL,
    CANONICAL.replace("\n", "   \n"),
    CANONICAL.replace("\n\n", "\n\n\n\n \n"),
    "\n\n" + CANONICAL + "\n\n\n",
    CANONICAL.replace("\n\n", "\n \t\n"),
], ids=["crlf", "cr", "bom", "trailing-spaces", "blank-runs", "leading-trailing-blanks",
        "whitespace-only-lines"])
def test_variations_parse_like_the_canonical_file(tmp_path: Path, variant: str) -> None:
    path = write_list(tmp_path, "v.txt", variant)
    plist = read_list(path)
    assert plist.title == "ICML 2026 Papers"
    assert texts(path) == [ABSTRACT_A, ABSTRACT_B]


def test_hard_wrapped_paragraphs_are_joined(tmp_path: Path) -> None:
    # Wrapped at spaces: lines are joined with one space, never glued together.
    wrapped = ABSTRACT_A.replace(". ", ".\n").replace(" feedback", "\nfeedback")
    path = write_list(tmp_path, "w.txt", f"ICML 2026 Papers\n\n{wrapped}\n\n{ABSTRACT_B}\n")
    assert texts(path) == [ABSTRACT_A, ABSTRACT_B]


def test_title_line_without_a_blank_line_after_it(tmp_path: Path) -> None:
    path = write_list(tmp_path, "g.txt", f"ICML 2026 Papers\n{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    assert read_list(path).title == "ICML 2026 Papers"
    assert texts(path) == [ABSTRACT_A, ABSTRACT_B]
    # A hard-wrapped first abstract is not mistaken for a title plus text.
    wrapped = ABSTRACT_A.replace(" feedback", "\nfeedback")
    path = write_list(tmp_path, "h.txt", f"{wrapped}\n\n{ABSTRACT_B}\n")
    assert read_list(path).title == "h" and texts(path)[0] == ABSTRACT_A


def test_list_without_title_is_named_after_its_file(tmp_path: Path) -> None:
    path = write_list(tmp_path, "my-list.txt", f"{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    plist = read_list(path)
    assert plist.title == "my-list"
    assert [p.position for p in plist.papers] == [0, 1]
    assert texts(path) == [ABSTRACT_A, ABSTRACT_B]


def test_single_line_abstract_first_is_not_taken_for_a_title(tmp_path: Path) -> None:
    short = "We study bandits with delayed feedback and prove tight regret bounds."
    path = write_list(tmp_path, "x.txt", f"{short}\n\n{ABSTRACT_A}\n")
    assert read_list(path).title == "x"
    assert texts(path)[0] == short


def test_non_latin_title(tmp_path: Path) -> None:
    path = write_list(tmp_path, "zh.txt", f"ICML 2026 论文列表\n\n{ABSTRACT_A}\n")
    assert read_list(path).title == "ICML 2026 论文列表"


@pytest.mark.parametrize("content, message", [
    (b"", "no abstracts"),
    (b"\n\n  \n\n", "no abstracts"),
    (b"ICML 2026 Papers\n\n", "no abstracts"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
    ("caf\u00e9 list\n\nsome abstract text".encode("latin-1"), "not UTF-8"),
])
def test_bad_files_raise_one_line_errors(tmp_path: Path, content: bytes, message: str) -> None:
    path = write_list(tmp_path, "bad.txt", content)
    with pytest.raises(SeedError) as err:
        read_list(path)
    assert message in str(err.value)
    assert "\n" not in str(err.value)
    assert str(path) in str(err.value)


def test_missing_paths_and_empty_folders(tmp_path: Path) -> None:
    with pytest.raises(SeedError, match="no such file"):
        discover([tmp_path / "absent.txt"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(SeedError, match="no .txt"):
        discover([tmp_path / "empty"])


def test_folders_expand_to_sorted_txt_files_without_duplicates(tmp_path: Path) -> None:
    for name in ("b.txt", "a.txt", "notes.md"):
        write_list(tmp_path, name, CANONICAL)
    found = discover([tmp_path, tmp_path / "a.txt"])
    assert [p.name for p in found] == ["a.txt", "b.txt"]


def test_ids_are_stable_across_reordering_and_spacing(tmp_path: Path) -> None:
    one = read_list(write_list(tmp_path, "1.txt", CANONICAL))
    two = read_list(write_list(tmp_path, "2.txt",
                               f"Other Title\n\n{ABSTRACT_B}\n\n{ABSTRACT_A.replace(' ', '  ')}"))
    ids_one = {p.raw: p.id for p in one.papers}
    assert two.papers[1].id == ids_one[ABSTRACT_A]
    assert two.papers[0].id == ids_one[ABSTRACT_B]
    assert paper_id(ABSTRACT_A) != paper_id(ABSTRACT_B)


def test_control_characters_are_dropped_not_fatal(tmp_path: Path) -> None:
    path = write_list(tmp_path, "c.txt", f"Title\n\nWe propose \x07Gecko\x1b, a tool.\n")
    assert texts(path) == ["We propose Gecko, a tool."]


def test_a_folder_s_lists_are_what_globbing_and_resolving_each_file_gives(tmp_path: Path) -> None:
    """`discover` reads a folder once and resolves the folder, not each file: the same
    files, in the same order, as globbing `*.txt` and resolving each file gives, with
    links to files, to folders, broken links, hidden files and a folder named `.txt`."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    write_list(elsewhere, "target.txt", CANONICAL)
    real = tmp_path / "real"
    real.mkdir()
    for name in ("b.txt", "a.txt", ".hidden.txt", "notes.md", "B.TXT", "c.txt.bak"):
        write_list(real, name, CANONICAL)
    (real / "dir.txt").mkdir()
    (real / "link.txt").symlink_to(elsewhere / "target.txt")
    (real / "broken.txt").symlink_to(tmp_path / "absent.txt")
    (real / "same.txt").symlink_to(real / "a.txt")
    (tmp_path / "via").symlink_to(real)  # the folder itself through a link

    def by_glob(folder: Path) -> list[Path]:
        found = sorted(p for p in folder.glob("*.txt") if p.is_file())
        return list(dict.fromkeys(p.resolve() for p in found))

    for folder in (real, tmp_path / "via", tmp_path / "via" / ".." / "real"):
        assert discover([folder]) == by_glob(folder), folder
    assert elsewhere / "target.txt" in discover([real])
    # A file named directly is resolved too, and comes once, where it first came.
    assert discover([real / "same.txt", real]) == \
        list(dict.fromkeys([real / "a.txt", *by_glob(real)]))
