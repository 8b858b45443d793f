"""Note drafts in the core: written atomically per paper and reader, offered back only
from readers that have ended, never mixed into the reading state."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tui.core.drafts import DraftStore, default_drafts_dir
from tui.core.export import export
from tui.core.state import StateStore, default_state_path

PAPER = "0123456789ab"


def test_drafts_live_beside_the_state_file() -> None:
    assert default_drafts_dir() == default_state_path().parent / "drafts"
    assert DraftStore().folder == default_drafts_dir()


def test_a_draft_is_written_whole_and_read_back(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)
    assert not store.has_draft(PAPER)
    assert store.write(PAPER, "first words")
    assert store.write(PAPER, "first words, then more ✓ \udcff")
    [draft] = store.drafts_of(PAPER)
    assert draft.text == "first words, then more ✓ \udcff"  # a lone surrogate survives
    assert store.has_draft(PAPER)
    # One file per paper and reader, no temp file left behind.
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f".{store.session}.lock", f"{PAPER}.{store.session}.json"]
    store.remove(PAPER)
    assert not store.has_draft(PAPER) and store.drafts_of(PAPER) == []


def test_a_live_readers_draft_is_not_offered_to_another(tmp_path: Path) -> None:
    """Two readers on one paper's note: each keeps its own draft; saving or cancelling
    in one removes only its own."""
    first, second = DraftStore(tmp_path), DraftStore(tmp_path)
    first.write(PAPER, "from the first reader")
    assert second.recover(PAPER, "") is None  # the first reader is still editing
    second.write(PAPER, "from the second reader")
    second.remove(PAPER)  # the second one saves
    assert [d.text for d in first.drafts_of(PAPER)] == ["from the first reader"]
    first.close()


def test_a_draft_left_by_a_killed_reader_is_recovered(tmp_path: Path) -> None:
    code = ("import os, signal, sys; from tui.core.drafts import DraftStore; "
            f"DraftStore(sys.argv[1]).write({PAPER!r}, 'typed before the kill'); "
            "os.kill(os.getpid(), signal.SIGKILL)")
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT)
    assert run.returncode == -signal.SIGKILL
    store = DraftStore(tmp_path)
    draft = store.recover(PAPER, "the saved note")
    assert draft is not None and draft.text == "typed before the kill"
    assert store.has_draft(PAPER)  # adopted, not yet removed: the editor may die too
    store.remove(PAPER)  # saved or cancelled: the adopted draft goes with it
    assert not store.has_draft(PAPER)
    # The killed reader's lock file went when its session was found dead.
    assert not list(tmp_path.glob(".*.lock"))


def test_left_drafts_that_add_nothing_are_removed(tmp_path: Path) -> None:
    ended = DraftStore(tmp_path)
    ended.write(PAPER, "the saved note")
    ended.close()
    other = DraftStore(tmp_path)
    assert other.recover(PAPER, "the saved note") is None
    assert not other.has_draft(PAPER)


def test_the_newest_left_draft_is_offered(tmp_path: Path) -> None:
    for text in ("older", "newer"):
        store = DraftStore(tmp_path)
        store.write(PAPER, text)
        store.close()
    reader = DraftStore(tmp_path)
    draft = reader.recover(PAPER, "")
    assert draft is not None and draft.text == "newer"
    reader.remove(PAPER)
    assert not reader.has_draft(PAPER)  # both were adopted


def test_an_unreadable_draft_is_left_alone(tmp_path: Path) -> None:
    bad = tmp_path / f"{PAPER}.12-deadbeef.json"
    bad.write_text("{not json", encoding="utf-8")
    store = DraftStore(tmp_path)
    assert store.drafts_of(PAPER) == [] and store.recover(PAPER, "") is None
    assert bad.exists()


def test_a_draft_that_cannot_be_written_becomes_a_notice(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    store = DraftStore(blocker / "drafts")  # a folder inside a file: never creatable
    assert not store.write(PAPER, "text")
    assert not store.write(PAPER, "text again")
    assert len(store.notices) == 1 and "could not keep a draft" in store.notices[0]


def test_ids_that_are_not_paper_ids_are_refused(tmp_path: Path) -> None:
    store = DraftStore(tmp_path)
    with pytest.raises(ValueError):
        store.write("../escape", "text")
    assert store.drafts_of("*") == [] and not store.has_draft("*")


def test_exports_never_hold_drafts(tmp_path: Path, bundled_library) -> None:
    paper = bundled_library.papers()[0]
    state = StateStore(tmp_path / "state.json")
    state.set_note(paper.id, "the saved note")
    DraftStore(tmp_path / "drafts").write(paper.id, "the saved note, and a draft")
    document = json.loads(export([paper], "json", state))
    assert document[0]["note"] == "the saved note"
    for fmt in ("md", "bib", "csv"):
        assert "and a draft" not in export([paper], fmt, state)


def test_show_mentions_a_draft(tmp_path: Path, bundled_library) -> None:
    paper = bundled_library.papers()[0]
    index_dir = str(bundled_library.index_path.parent)
    env = {**os.environ, "NO_COLOR": "1"}

    def show(*extra: str) -> str:
        run = subprocess.run([sys.executable, "-m", "tui", "--index-dir", index_dir, "show",
                              paper.id, *extra], cwd=ROOT, env=env, capture_output=True,
                             text=True)
        assert run.returncode == 0, run.stderr
        return run.stdout

    assert "Draft:" not in show()
    assert json.loads(show("--json"))["draft"] is None
    store = DraftStore()
    store.write(paper.id, "half a thought")
    assert "Draft: an unsaved note draft from" in show()
    assert "14 characters" in show()
    assert json.loads(show("--json"))["draft"]["text"] == "half a thought"
    store.remove(paper.id)
    assert "Draft:" not in show()
