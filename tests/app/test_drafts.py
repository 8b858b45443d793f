"""Note drafts in the reader: kept as they are typed, offered back, removed on save or
cancel; and the hangup path keeping them before the reader leaves."""

from __future__ import annotations

import signal

import pytest
from textual.widgets import TextArea

import tui.app.drafting as drafting
import tui.app.hangup as hangup
from reader_helpers import detail_text, selected, settle, wait_until
from tui.app.app import PaperscopeApp
from tui.app.screens.confirm import ConfirmDiscard
from tui.app.screens.note import NoteScreen
from tui.core.drafts import DraftStore
from tui.core.model import Paper
from tui.core.state import StateStore

SIZE = (120, 40)


def on_disk(app: PaperscopeApp, paper: Paper) -> list[str]:
    """The texts of the paper's drafts, as another reader would find them."""
    return [d.text for d in DraftStore(app.drafts.folder).drafts_of(paper.id)]


@pytest.fixture
def quick_drafts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drafting, "DRAFT_DELAY_S", 0.05)


async def test_typing_keeps_a_draft_that_saving_removes(make_app, quick_drafts) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("e", *"half")
        await wait_until(pilot, lambda: on_disk(app, paper) == ["half"], "the draft")
        assert app.state.note(paper.id) == ""  # a draft is not a note
        await pilot.press(*" done", "ctrl+s")
        assert app.state.note(paper.id) == "half done"
        assert on_disk(app, paper) == []


async def test_typing_without_a_pause_still_writes_drafts(make_app, quick_drafts,
                                                          monkeypatch) -> None:
    monkeypatch.setattr(drafting, "DRAFT_DELAY_S", 60.0)  # the pause never comes
    monkeypatch.setattr(drafting, "DRAFT_MAX_WAIT_S", 0.0)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("e", *"abc")
        await pilot.pause()
        assert on_disk(app, paper) in (["abc"], ["ab"])  # the last change may be on its way


async def test_a_left_draft_comes_back_with_a_notice_and_a_mark(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        app.state.set_note(paper.id, "saved")
        ended = DraftStore(app.drafts.folder)  # a reader that was killed while typing
        ended.write(paper.id, "saved, and more typed")
        ended.close()
        app.reader.detail.refresh_text()
        assert "unsaved note draft" in detail_text(app)
        await pilot.press("e")
        screen = app.screen
        assert isinstance(screen, NoteScreen)
        assert screen.text == "saved, and more typed"
        notice = str(screen.query_one("#note-recovered").render())
        assert notice.startswith("Recovered an unsaved draft from ")
        await pilot.press("ctrl+s")
        assert app.state.note(paper.id) == "saved, and more typed"
        assert on_disk(app, paper) == []
        assert "unsaved note draft" not in detail_text(app)


async def test_cancelling_asks_then_removes_the_draft(make_app, quick_drafts) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("e", *"gone soon")
        await wait_until(pilot, lambda: on_disk(app, paper) == ["gone soon"], "the draft")
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmDiscard)
        await pilot.press("escape")  # Esc again: keep editing, the draft stays
        assert isinstance(app.screen, NoteScreen)
        assert on_disk(app, paper) == ["gone soon"]
        await pilot.press("escape", "y")
        assert app.screen is app.reader
        assert on_disk(app, paper) == [] and app.state.note(paper.id) == ""


async def test_a_failed_save_keeps_the_draft(make_app, monkeypatch) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("e", *"precious")
        monkeypatch.setattr(StateStore, "save", lambda self: "could not save (disk full)")
        await pilot.press("ctrl+s")
        assert app.screen is app.reader
        assert on_disk(app, paper) == ["precious"]
        await pilot.press("e")  # this reader's own draft comes back too
        assert isinstance(app.screen, NoteScreen) and app.screen.text == "precious"


async def test_two_readers_on_one_note(make_app, quick_drafts) -> None:
    """The later save wins (the state store's rule); the other reader's draft stays."""
    first, second = make_app(), make_app()
    async with first.run_test(size=SIZE) as one, second.run_test(size=SIZE) as two:
        await settle(one)
        await settle(two)
        paper = selected(first)
        assert selected(second).id == paper.id
        await one.press("e", *"one")
        await two.press("e", *"two")
        await wait_until(one, lambda: sorted(on_disk(first, paper)) == ["one", "two"],
                         "both drafts")
        await two.press("ctrl+s")
        await one.pause()
        assert on_disk(first, paper) == ["one"]  # the first reader is still typing
        await one.press(*"!", "ctrl+s")
        assert on_disk(first, paper) == []
        assert StateStore(first.state.path).note(paper.id) == "one!"  # saved later


async def test_quitting_with_the_editor_open_keeps_the_text(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("e", *"unfinished")  # no pause: the debounce has not fired
        folder = app.drafts.folder
    assert [d.text for d in DraftStore(folder).drafts_of(paper.id)] == ["unfinished"]


@pytest.mark.parametrize("gone", [False, True])
async def test_a_signal_keeps_the_draft_then_ends(make_app, monkeypatch, gone: bool) -> None:
    """With the terminal there the app exits the normal way (restoring it); with the
    terminal gone the process leaves at once, the draft written first."""
    monkeypatch.setattr(hangup, "terminal_gone", lambda fd: gone)
    app = make_app()
    left: list[int] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.hangup.leave = left.append
        paper = selected(app)
        await pilot.press("e")
        # Typed, and the signal comes before the change's message has been handled.
        app.screen.query_one(TextArea).insert("typed")
        app.hangup.end(signal.SIGTERM)
        assert on_disk(app, paper) == ["typed"]  # written before anything else
        assert left == ([143] if gone else [])
        await pilot.pause()
    # (Past the normal exit, `run_async` leaves too; the test harness does not run it.)
    assert app.return_code == (None if gone else 143)
    assert on_disk(app, paper) == ["typed"]  # the exit wrote no older text over it


def test_a_hung_up_terminal_is_told_apart() -> None:
    import os
    import pty

    master, slave = pty.openpty()
    try:
        assert not hangup.terminal_gone(slave)
        os.close(master)
        assert hangup.terminal_gone(slave)
    finally:
        os.close(slave)
    with open(os.devnull, "w") as sink:
        assert not hangup.terminal_gone(sink.fileno())


def test_the_handler_only_hands_over(monkeypatch) -> None:
    """The signal handler writes nothing: it arms the alarm and schedules the end."""
    scheduled: list[tuple] = []
    alarms: list[int] = []

    class Loop:
        def call_soon_threadsafe(self, *args) -> None:
            scheduled.append(args)

    kept: list[bool] = []
    guard = hangup.HangupGuard(lambda: kept.append(True), lambda code: None, terminal_fd=0)
    guard._loop = Loop()  # type: ignore[assignment]
    monkeypatch.setattr(hangup.signal, "alarm", alarms.append)
    guard._on_signal(signal.SIGHUP, None)
    guard._on_signal(signal.SIGTERM, None)  # a second signal changes nothing
    assert scheduled == [(guard.end, signal.SIGHUP)] and alarms == [hangup.GRACE_S]
    assert kept == []


def test_a_terminal_lost_without_a_signal_ends_the_reader() -> None:
    """With SIGHUP not delivered (the reader outside the terminal's session), the
    periodic check finds the hung-up terminal and takes the same way out."""
    import os
    import pty

    master, slave = pty.openpty()
    kept, exits, left = [], [], []
    guard = hangup.HangupGuard(lambda: kept.append(True), exits.append, terminal_fd=slave)
    guard.leave = left.append
    try:
        guard.check_terminal()
        assert kept == [] and left == []  # the terminal is there: nothing happens
        os.close(master)
        guard.check_terminal()
    finally:
        os.close(slave)
        signal.alarm(0)  # the last-resort alarm the check armed
    assert kept == [True] and exits == [] and left == [128 + signal.SIGHUP]
