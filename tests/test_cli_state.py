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


# --- similar: by several papers, and by the starred ones ----------------------------------


def _similar(*args: str, index_dir: str, env: dict | None = None) -> dict:
    proc = run("similar", *args, "--json", index_dir=index_dir, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_similar_ranks_by_several_papers_together(index_dir: str, papers: dict[str, str]) -> None:
    both = _similar(papers["gecko"], papers["abfnet"], "--limit", "37", index_dir=index_dir)
    assert both["like"] == [papers["gecko"], papers["abfnet"]]
    ranked = [h["id"] for h in both["hits"]]
    assert papers["gecko"] not in ranked and papers["abfnet"] not in ranked
    assert all(h["because"] and all(isinstance(w, str) for w in h["because"])
               for h in both["hits"])
    scores = [h["score"] for h in both["hits"]]
    assert scores == sorted(scores, reverse=True)
    # Both count: the first ten hold some of each paper's own ten most similar.
    for name in ("gecko", "abfnet"):
        alone = [h["id"] for h in _similar(papers[name], "--limit", "10",
                                           index_dir=index_dir)["hits"]]
        assert set(ranked[:10]) & set(alone), name
    lines = run("similar", papers["gecko"], papers["abfnet"], "--jsonl", "--limit", "3",
                index_dir=index_dir).stdout.splitlines()
    assert [json.loads(line)["id"] for line in lines] == ranked[:3]


def test_similar_by_the_starred_papers_reads_the_reader_s_state(
        index_dir: str, papers: dict[str, str], data_dir: dict) -> None:
    """Gecko is starred (`data_dir`): --starred ranks as `similar` by Gecko would, less
    a paper the reader's code marked not interested."""
    starred = _similar("--starred", "--limit", "37", index_dir=index_dir, env=data_dir)
    assert starred["like"] == [papers["gecko"]]
    ranked = [h["id"] for h in starred["hits"]]
    assert ranked and papers["gecko"] not in ranked
    store = StateStore(default_state_path())
    assert store.toggle_dislike(ranked[0]) and store.save() is None
    after = [h["id"] for h in _similar("--starred", "--limit", "37", index_dir=index_dir,
                                       env=data_dir)["hits"]]
    assert ranked[0] not in after and after[0] != ranked[0]


def test_similar_by_the_starred_papers_ranks_only_a_query_s_matches(
        index_dir: str, papers: dict[str, str], data_dir: dict) -> None:
    matches = {h["id"] for h in json.loads(run("search", "graph", "--json", "--limit", "100",
                                               index_dir=index_dir).stdout)["hits"]}
    ranked = [h["id"] for h in _similar("--starred", "graph", "--limit", "100",
                                        index_dir=index_dir, env=data_dir)["hits"]]
    assert ranked and set(ranked) <= matches - {papers["gecko"]}


def test_similar_by_the_starred_papers_with_none_says_so(index_dir: str, tmp_path: Path) -> None:
    proc = run("similar", "--starred", index_dir=index_dir,
               env={DATA_DIR_ENV: str(tmp_path)})
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == ("paperscope: nothing is starred yet: star papers in the reader "
                           "(s), then ask again\n")


@pytest.mark.parametrize("args", [("nosuchid",), ("PAPER", "nosuchid"), ()])
def test_similar_with_a_bad_id_or_none_is_a_one_line_error(
        index_dir: str, papers: dict[str, str], args: tuple[str, ...]) -> None:
    args = tuple(papers["gecko"] if a == "PAPER" else a for a in args)
    proc = run("similar", *args, index_dir=index_dir)
    assert proc.returncode == 2 and proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line == ("paperscope: no paper with id 'nosuchid'" if args else
                    "paperscope similar: error: give paper ids, or --starred")
