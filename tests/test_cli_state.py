"""`paperscope search` answers the reading-state filters from the reader's own state.

The state file is written by `StateStore`, the code the reader saves with; the search
runs as the real command, in a subprocess, with that data folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli import run
from tui.core.state import DATA_DIR_ENV, StateStore, default_state_path


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("cli-state-index"))


def ids_of(stdout: str) -> list[str]:
    return [hit["id"] for hit in json.loads(stdout)["hits"]]


@pytest.fixture(scope="module")
def papers(index_dir: str) -> dict[str, str]:
    """Three papers of the bundled lists, by name -> id."""
    found = {}
    for name in ("gecko", "abfnet", "slam"):
        proc = run("search", f"name:{name}", "--json", "--limit", "1", index_dir=index_dir)
        assert proc.returncode == 0, proc.stderr
        found[name] = ids_of(proc.stdout)[0]
    assert len(set(found.values())) == 3
    return found


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, papers: dict[str, str]) -> dict:
    """A data folder where the reader's code starred Gecko, noted ABFNet, read the SLAM one."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    store = StateStore(default_state_path())
    store.toggle_star(papers["gecko"])
    store.set_note(papers["abfnet"], "compare with the wavelet baseline")
    store.set_read(papers["slam"], True)
    assert store.save() is None
    return {DATA_DIR_ENV: str(tmp_path)}


def test_is_starred_finds_the_starred_paper(index_dir, papers, data_dir) -> None:
    proc = run("search", "is:starred", "--json", index_dir=index_dir, env=data_dir)
    assert proc.returncode == 0, proc.stderr
    assert ids_of(proc.stdout) == [papers["gecko"]]


def test_has_note_and_words_combine(index_dir, papers, data_dir) -> None:
    proc = run("search", "has:note", "--jsonl", index_dir=index_dir, env=data_dir)
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line)["id"] for line in proc.stdout.splitlines()] == [papers["abfnet"]]
    # A filter narrows a word search; a word the noted paper lacks finds nothing.
    proc = run("search", "has:note", "gecko", index_dir=index_dir, env=data_dir)
    assert proc.returncode == 1
    assert "No papers match" in proc.stdout + proc.stderr


def test_is_unread_leaves_out_read_papers(index_dir, papers, data_dir) -> None:
    everything = run("search", "", "--json", "--limit", "1000", index_dir=index_dir)
    unread = run("search", "is:unread", "--json", "--limit", "1000", index_dir=index_dir,
                 env=data_dir)
    read = run("search", "is:read", "--json", index_dir=index_dir, env=data_dir)
    assert ids_of(read.stdout) == [papers["slam"]]
    assert set(ids_of(unread.stdout)) == set(ids_of(everything.stdout)) - {papers["slam"]}


def test_batch_applies_the_filters_per_query(index_dir, papers, data_dir) -> None:
    proc = run("search", "-", stdin="is:starred\nbutterworth\nhas:note butterworth\n",
               index_dir=index_dir, env=data_dir)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["query"] for a in answers] == ["is:starred", "butterworth", "has:note butterworth"]
    assert [h["id"] for h in answers[0]["hits"]] == [papers["gecko"]]
    assert papers["abfnet"] in [h["id"] for h in answers[1]["hits"]]
    assert [h["id"] for h in answers[2]["hits"]] == [papers["abfnet"]]


def test_no_state_yet_means_nothing_starred(index_dir, tmp_path: Path) -> None:
    proc = run("search", "is:starred", index_dir=index_dir, env={DATA_DIR_ENV: str(tmp_path)})
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
