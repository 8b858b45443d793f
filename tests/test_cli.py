"""The `paperscope` command, run as a subprocess: output, JSON and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, write_list

STRUCTURED_FIELDS = {"title_given", "authors", "year", "venue", "link", "doi", "source_id",
                     "keywords", "bibtex_key"}
"""What structured lists add; null (false for title_given) for a paragraph list's paper."""
HIT_FIELDS = {"id", "list", "file", "position", "name", "title", "text", "score",
              "snippet"} | STRUCTURED_FIELDS


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("cli-index"))


def run(*args: str, index_dir: str | None = None, stdin: str | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    extra = ["--index-dir", index_dir] if index_dir else []
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "tui", *args, *extra], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120, env=full_env)


def assert_clean_error(proc: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert fragment in lines[0]


def test_search_human_output(index_dir: str) -> None:
    proc = run("search", "butterworth", "fusion", index_dir=index_dir)
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith(" 1. ABFNet")
    assert "\x1b[" not in proc.stdout, "piped output has no colour"
    assert all(len(line) <= 80 for line in proc.stdout.splitlines())


def test_search_json_fields(index_dir: str) -> None:
    proc = run("search", "gecko", "--json", index_dir=index_dir)
    assert proc.returncode == 0
    doc = json.loads(proc.stdout)
    assert doc["query"] == "gecko" and doc["total"] >= 1
    assert doc["exact"] is True  # the command line always counts every match
    hit = doc["hits"][0]
    assert set(hit) == HIT_FIELDS
    assert hit["name"] == "Gecko" and "τ²" in hit["text"]
    assert isinstance(hit["score"], float) and isinstance(hit["position"], int)
    assert hit["title_given"] is False
    assert all(hit[name] is None for name in STRUCTURED_FIELDS - {"title_given"})


def test_search_jsonl_and_limit(index_dir: str) -> None:
    proc = run("search", "learning", "--jsonl", "--limit", "3", index_dir=index_dir)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == 3
    assert all(set(json.loads(line)) == HIT_FIELDS for line in lines)


def test_name_is_null_when_none(index_dir: str) -> None:
    papers = json.loads(run("list", "--json", index_dir=index_dir).stdout)
    assert len(papers) == 38
    assert any(p["name"] is None for p in papers) and any(p["name"] for p in papers)


def test_batch_search_from_stdin(index_dir: str) -> None:
    proc = run("search", "-", index_dir=index_dir, stdin="gecko\nzzqxv\nbutterworth\n")
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 0
    assert [r["query"] for r in rows] == ["gecko", "zzqxv", "butterworth"]
    assert rows[0]["hits"] and not rows[1]["hits"] and rows[2]["hits"][0]["name"] == "ABFNet"


def test_no_results_exit_1(index_dir: str) -> None:
    proc = run("search", "zzqxv", index_dir=index_dir)
    assert proc.returncode == 1 and "No papers match" in proc.stdout


def test_show_and_list(index_dir: str) -> None:
    listing = run("list", index_dir=index_dir)
    assert listing.returncode == 0 and "ICML 2026 论文列表" in listing.stdout
    paper = json.loads(run("search", "gecko", "--json", index_dir=index_dir).stdout)["hits"][0]
    shown = run("show", paper["id"], index_dir=index_dir)
    assert shown.returncode == 0 and "Gecko" in shown.stdout and paper["id"] in shown.stdout
    as_json = json.loads(run("show", paper["id"][:6], "--json", index_dir=index_dir).stdout)
    assert as_json["id"] == paper["id"]
    missing = run("show", "ffffffffffff", index_dir=index_dir)
    assert missing.returncode == 1 and "Traceback" not in missing.stderr


def test_colour_on_a_terminal_and_no_color(index_dir: str) -> None:
    code = ("import sys; sys.stdout.isatty = lambda: True; from tui.cli import main; "
            f"sys.exit(main(['search', 'butterworth', '--index-dir', {index_dir!r}]))")
    coloured = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "\x1b[1;33mButterworth" in coloured.stdout
    plain = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"})
    assert plain.returncode == 0 and "\x1b[" not in plain.stdout


def test_index_command(tmp_path: Path) -> None:
    proc = run("index", index_dir=str(tmp_path))
    assert proc.returncode == 0 and "38 papers in 2 lists" in proc.stdout
    assert "up to date" in run("index", index_dir=str(tmp_path)).stdout
    assert "built" in run("index", "--rebuild", index_dir=str(tmp_path)).stdout


def test_seeds_option_anywhere(tmp_path: Path) -> None:
    write_list(tmp_path, "z.txt", "Zoo\n\nWe propose Zebrafish, a stripe counter.\n")
    after = run("search", "stripe", "--seeds", str(tmp_path / "z.txt"), "--json",
                index_dir=str(tmp_path / "ix"))
    before = run("--seeds", str(tmp_path), "search", "stripe", "--json",
                 index_dir=str(tmp_path / "ix"))
    for proc in (after, before):
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["hits"][0]["list"] == "Zoo"


@pytest.mark.parametrize("content, fragment", [
    (b"\x00\x01binary", "binary"),
    (b"\xff\xfe l\x00i\x00s\x00t", "UTF-16 text"),
    ("caf\u00e9\n\nabstract".encode("latin-1"), "not UTF-8"),
    (b"", "no abstracts"),
])
def test_bad_list_files_exit_2_with_one_line(tmp_path: Path, content: bytes,
                                             fragment: str) -> None:
    path = write_list(tmp_path, "bad.txt", content)
    assert_clean_error(run("search", "x", "--seeds", str(path), index_dir=str(tmp_path / "i")),
                       fragment)


def test_missing_file_and_empty_folder_exit_2(tmp_path: Path) -> None:
    assert_clean_error(run("list", "--seeds", str(tmp_path / "nope.txt")), "no such file")
    (tmp_path / "empty").mkdir()
    assert_clean_error(run("list", "--seeds", str(tmp_path / "empty")), "no .txt")


@pytest.mark.parametrize("args", [
    ["search"], ["search", "x", "--limit", "0"], ["search", "x", "--limit", "ten"],
    ["show"], ["list", "--bogus"], ["search", "x", "--json", "--jsonl"],
])
def test_usage_errors_exit_2_with_one_line(args: list[str]) -> None:
    assert_clean_error(run(*args), "paperscope: error:")


def test_help_and_version() -> None:
    assert run("--help").returncode == 0
    assert run("search", "--help").returncode == 0
    assert run("--version").stdout.startswith("paperscope ")


def test_search_does_not_import_textual(index_dir: str) -> None:
    code = ("import sys; from tui.cli import main; "
            f"main(['search', 'gecko', '--index-dir', {index_dir!r}]); "
            "print('TEXTUAL' if 'textual' in sys.modules else 'CLEAN', file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stderr.strip().endswith("CLEAN")


def test_similar_command(index_dir: str) -> None:
    paper = json.loads(run("search", "gecko", "--json", index_dir=index_dir).stdout)["hits"][0]
    proc = run("similar", paper["id"], "--json", "--limit", "3", index_dir=index_dir)
    assert proc.returncode == 0, proc.stderr
    hits = json.loads(proc.stdout)["hits"]
    assert 0 < len(hits) <= 3 and paper["id"] not in {h["id"] for h in hits}
    assert_clean_error(run("similar", "ffffffffffff", index_dir=index_dir),
                       "no paper with id 'ffffffffffff'")


def test_export_command_formats_parse_back(index_dir: str, tmp_path: Path) -> None:
    out = tmp_path / "gecko.json"
    proc = run("export", "--query", "gecko", "--format", "json", "-o", str(out),
               index_dir=index_dir)
    assert proc.returncode == 0, proc.stderr
    records = json.loads(out.read_text(encoding="utf-8"))
    assert records[0]["name"] == "Gecko" and {"id", "title", "text"} <= set(records[0])
    every = run("export", "--format", "csv", index_dir=index_dir)
    assert every.returncode == 0 and len(every.stdout.strip().splitlines()) >= 39
    import bibtexparser

    bib = bibtexparser.parse_string(run("export", "--format", "bib", index_dir=index_dir).stdout)
    assert len(bib.entries) == 38 and not bib.failed_blocks
    starred = run("export", "--starred", "--format", "md", index_dir=index_dir)
    assert starred.returncode == 1  # nothing starred in a fresh data folder


def test_the_reader_on_missing_lists_says_so_without_drawing(tmp_path: Path) -> None:
    for seeds in (tmp_path / "nope.txt", tmp_path):  # missing; a folder without lists
        proc = run("--seeds", str(seeds), index_dir=str(tmp_path / "index"))
        assert_clean_error(proc, str(seeds))
        assert proc.stdout == "", "the screen was taken over before the error"


def test_as_typed_searches_as_the_reader_does(index_dir: str) -> None:
    typed = run("search", "--as-typed", "diffu", "--json", index_dir=index_dir)
    assert typed.returncode == 0, typed.stderr
    doc = json.loads(typed.stdout)
    assert doc["hits"] and not doc["fuzzy"] and doc["suggestion"] is None
    assert all("iffus" in h["text"] for h in doc["hits"])
    # Submitted, the same letters are a word no paper has: only a correction finds papers.
    submitted = json.loads(run("search", "diffu", "--json", index_dir=index_dir).stdout)
    assert submitted["fuzzy"]


def test_the_count_line_agrees_in_number(index_dir: str) -> None:
    # Whatever the seeds hold, the closing line's noun follows the count it gives.
    for query in ("name:gecko", "learning"):
        total = json.loads(run("search", query, "--json", index_dir=index_dir).stdout)["total"]
        last = run("search", query, index_dir=index_dir).stdout.strip().splitlines()[-1]
        assert last.split(" · ")[0].endswith(" paper" if total == 1 else " papers"), last
