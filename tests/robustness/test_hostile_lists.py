"""Hostile paper-list files: every one is listed in full or refused in one line.

In-process, many generated files go through ``read_list`` and a real index build and
search; through the real command line, fewer (each run is a Python start-up and an
index build). Every run is bounded by a timeout, so a hang fails instead of stalling.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import tempfile
from pathlib import Path

import bibtexparser
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.robustness.cli import Run, assert_contract, assert_refused, run_cli
from tests.robustness.list_strategies import TITLE, ListFile, list_files, marker, refused_lists
from tui.core.index.library import open_library
from tui.core.lists.paragraphs import SeedError, read_list
from tui.core.search.search import search

IN_PROCESS_EXAMPLES, IN_PROCESS_EXAMPLES_LONG = 100, 1500
CLI_EXAMPLES, CLI_EXAMPLES_LONG = 30, 300
CLI_COMMANDS = (
    ("list", "--json"), ("list",), ("search",), ("export", "--format", "json"),
    ("export", "--format", "csv"), ("export", "--format", "bib"), ("export", "--format", "md"),
)
"""What a CLI example runs on its file; `search` looks for one paper's marker."""
_SLOW_DATA = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]


# In-process ---------------------------------------------------------------------------


def check_in_process(case: ListFile) -> None:
    """Parse, index and search ``case`` in-process, against what its generator knows."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hostile.txt"
        path.write_bytes(case.data)
        index_dir = str(Path(folder) / "index")
        if case.refusal:
            for attempt in (lambda: read_list(path), lambda: open_library([path], index_dir)):
                with pytest.raises(SeedError) as refused:
                    attempt()
                message = str(refused.value)
                assert "\n" not in message and case.refusal in message and path.name in message
            return
        plist = read_list(path)
        assert plist.title == TITLE
        assert [p.position for p in plist.papers] == list(range(case.papers))
        for paper, mark in zip(plist.papers, case.markers):
            assert paper.raw.split(" ")[0] == mark, paper.raw[:80]
            assert paper.id and "\n" not in paper.title and "\n" not in paper.name
        with open_library([path], index_dir) as library:
            assert len(library) == case.papers
            for position, mark in enumerate(case.markers):
                found = [h.paper.position for h in search(library, mark, limit=None).hits]
                assert position in found, f"{mark} did not find paper {position}: {found}"


@settings(max_examples=IN_PROCESS_EXAMPLES, deadline=None, suppress_health_check=_SLOW_DATA)
@given(case=list_files())
def test_hostile_lists_parse_index_and_search(case: ListFile) -> None:
    check_in_process(case)


@pytest.mark.slow
@settings(max_examples=IN_PROCESS_EXAMPLES_LONG, deadline=None, suppress_health_check=_SLOW_DATA)
@given(case=list_files())
def test_hostile_lists_parse_index_and_search_long(case: ListFile) -> None:
    check_in_process(case)


# Through the command line -------------------------------------------------------------


def check_cli(case: ListFile, command: tuple[str, ...], pick: int) -> None:
    """Run one command on ``case``'s file: the papers come out in full, or a refusal."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hostile.txt"
        path.write_bytes(case.data)
        args = list(command)
        position = pick % max(case.papers, 1)
        if command == ("search",):
            args += [marker(position), "--jsonl", "--limit", "100"]
        run = run_cli(*args, "--seeds", str(path), "--index-dir", str(Path(folder) / "index"))
        if case.refusal:
            assert_refused(run, case.refusal, path.name)
            return
        assert_contract(run, allowed=(0,))
        assert run.stderr_lines == [], run.describe()
        check_output(run, command, case.papers, position)


def check_output(run: Run, command: tuple[str, ...], papers: int, position: int) -> None:
    """The command's output holds exactly the file's papers (or, for search, the one)."""
    out = run.stdout
    if command in (("list", "--json"), ("export", "--format", "json")):
        rows = json.loads(out)
        assert [r["position"] for r in rows] == list(range(papers))
        assert {r["file"] for r in rows} == {"hostile.txt"}
    elif command == ("list",):
        lines = out.rstrip("\n").split("\n")
        assert lines[0].startswith(f"# {TITLE} (") and len(lines) == papers + 1, out[:2000]
    elif command == ("search",):
        hits = [json.loads(line) for line in out.splitlines()]
        assert position in [h["position"] for h in hits]
    elif command == ("export", "--format", "csv"):
        rows = list(csv.reader(io.StringIO(out, newline="")))
        assert len(rows) == papers + 1 and rows[0][:2] == ["id", "list"]
        assert [int(r[3]) for r in rows[1:]] == list(range(papers))
    elif command == ("export", "--format", "bib"):
        parsed = bibtexparser.parse_string(out)
        assert not parsed.failed_blocks, [b.error for b in parsed.failed_blocks]
        assert len(parsed.entries) == papers
    else:  # Markdown: one second-level heading per paper
        assert len(re.findall(r"^## ", out, flags=re.M)) == papers, out[:2000]


@settings(max_examples=CLI_EXAMPLES, deadline=None, suppress_health_check=_SLOW_DATA)
@given(case=list_files(), command=st.sampled_from(CLI_COMMANDS), pick=st.integers(0, 99))
def test_cli_lists_hostile_files_or_refuses_them(case: ListFile, command: tuple[str, ...],
                                                pick: int) -> None:
    check_cli(case, command, pick)


@pytest.mark.slow
@settings(max_examples=CLI_EXAMPLES_LONG, deadline=None, suppress_health_check=_SLOW_DATA)
@given(case=list_files(), command=st.sampled_from(CLI_COMMANDS), pick=st.integers(0, 99))
def test_cli_lists_hostile_files_or_refuses_them_long(case: ListFile, command: tuple[str, ...],
                                                     pick: int) -> None:
    check_cli(case, command, pick)


@settings(max_examples=8, deadline=None)
@given(case=refused_lists())
def test_cli_refuses_a_bad_file_among_good_ones(case: ListFile, tmp_path_factory) -> None:
    """One bad file in `--seeds` refuses the run and names that file, not another."""
    folder = tmp_path_factory.mktemp("mixed")
    good = folder / "good.txt"
    good.write_text(f"{TITLE}\n\n{marker(0)} a fine abstract about graphs.\n", encoding="utf-8")
    bad = folder / "bad.txt"
    bad.write_bytes(case.data)
    run = run_cli("search", marker(0), "--seeds", str(good), str(bad),
                  "--index-dir", str(folder / "index"))
    assert_refused(run, case.refusal, "bad.txt")


# One enormous list --------------------------------------------------------------------


def test_cli_lists_a_file_of_100000_one_word_paragraphs(tmp_path: Path) -> None:
    """100,000 one-word abstracts: listed in full, searchable, within the timeout."""
    rng = random.Random(100_000)
    syllables = ["ka", "lo", "mi", "nu", "pe", "ra", "si", "to", "vu", "ze"]
    words = [marker(0)] + ["".join(rng.choice(syllables) for _ in range(3)) for _ in range(99_999)]
    path = tmp_path / "huge.txt"
    path.write_text(f"{TITLE}\n\n" + "\n\n".join(words) + "\n", encoding="utf-8")
    common = ["--seeds", str(path), "--index-dir", str(tmp_path / "index")]
    run = run_cli("list", *common, timeout=600)
    assert_contract(run, allowed=(0,))
    lines = run.stdout.rstrip("\n").split("\n")
    assert len(lines) == 100_001 and lines[0].startswith(f"# {TITLE}")
    run = run_cli("search", marker(0), "--json", *common)
    assert_contract(run, allowed=(0,))
    assert json.loads(run.stdout)["hits"][0]["position"] == 0


# Terminal control characters -------------------------------------------------------------


def test_list_output_carries_no_terminal_controls(tmp_path: Path) -> None:
    """C1 controls as well as C0: CSI (U+009B), OSC (U+009D) and DCS (U+0090) from a list
    file must not reach the terminal through `paperscope list`/`show`."""
    path = tmp_path / "controls.txt"
    path.write_text(f"{TITLE}\n\nWe propose Evil\x9b2J\x1b[2J, a method that clears screens.\n\n"
                    "We propose Title\x9d0;pwned\x07 and Device\x90q\x9c, two more.\n",
                    encoding="utf-8")
    run = run_cli("list", "--seeds", str(path), "--index-dir", str(tmp_path / "index"))
    assert_contract(run, allowed=(0,))
    controls = sorted({c for c in run.stdout if c < " " and c not in "\n\t"
                       or "\x7f" <= c <= "\x9f"})
    assert controls == [], f"control characters in the output: {controls!r}"


def test_controls_are_stripped_from_a_title_glued_to_its_abstract(tmp_path: Path) -> None:
    """A title line directly followed by the first abstract (no blank line) is cleaned
    like every other paragraph; U+0085 (next line) becomes a space, not nothing."""
    path = tmp_path / "glued.txt"
    path.write_text("Glued\x9b2J Title\x1b[2J\n"
                    "We propose Evil\x9d0;pwned\x07, a method whose abstract is long enough\n"
                    "to be\x85wrapped over lines\x90q\x9c, with controls in every one of them.\n",
                    encoding="utf-8")
    plist = read_list(path)
    assert plist.title == "Glued2J Title[2J"
    (paper,) = plist.papers
    assert paper.raw.startswith("We propose Evil0;pwned, a method") and "to be wrapped" in paper.raw
    for text in (plist.title, paper.raw, paper.name, paper.title):
        assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", text), repr(text)
