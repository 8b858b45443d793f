"""Every key binding of the reader, in one place.

Each binding carries an `id` so that a keymap file can move it to other keys (Textual's
`App.set_keymap`), and a `tooltip` that the help screen shows. Vim aliases are separate
bindings with `show=False`, so the footer stays short while the help screen lists them.
The widgets take their `BINDINGS` from here; the help screen reads `SCOPES` to list them,
so adding a binding here is enough for it to be documented.

Binding ids are `<scope>.<name>`; the scope is where the key works.
"""

from __future__ import annotations

from typing import NamedTuple

from textual.binding import Binding

APP = [
    Binding("q", "quit", "Quit", id="app.quit", tooltip="Quit paperscope."),
    # Priority, so that ctrl+c quits even where a widget would copy with it.
    Binding("ctrl+c", "quit", "Quit", show=False, priority=True, id="app.quit.ctrl_c",
            tooltip="Quit paperscope."),
    Binding("question_mark", "help", "Help", id="app.help",
            tooltip="Show every key, generated from the bindings."),
    Binding("f1", "help", "Help", show=False, id="app.help.f1",
            tooltip="Show every key (works while typing in the search box too)."),
    # Priority: the focus must move before the keys typed right after "/" are handed
    # to the list. In the search box the action skips, so "/" and ctrl+f type there.
    Binding("slash", "focus_search", "Search", priority=True, id="app.search",
            tooltip="Put the cursor in the search box."),
    Binding("ctrl+f", "focus_search", "Search", show=False, priority=True,
            id="app.search.ctrl_f", tooltip="Put the cursor in the search box."),
    Binding("ctrl+p", "command_palette", "Palette", show=False, priority=True,
            id="app.command_palette",
            tooltip="Commands, themes, and jump to a paper by name or title."),
    # Not priority: in the note editor ctrl+z undoes.
    Binding("ctrl+z", "suspend_process", "Suspend", show=False, id="app.suspend",
            tooltip="Suspend paperscope to the shell (fg brings it back)."),
]
"""Keys that work everywhere in the reader (unless a widget uses the key itself)."""

READER = [
    Binding("tab", "next_pane", "Next pane", show=False, id="reader.next_pane",
            tooltip="Cycle the focus: search box, list, detail."),
    Binding("shift+tab", "previous_pane", "Previous pane", show=False,
            id="reader.previous_pane", tooltip="Cycle the focus backwards."),
    Binding("escape", "back", "Back", id="reader.back",
            tooltip="Leave the search box or the detail pane; from the list, clear the query."),
]
"""Keys of the main screen: moving between the panes."""

SEARCH = [
    Binding("enter", "submit", "Go to list", id="search.submit",
            tooltip='Go to the list, or accept the "did you mean" suggestion.'),
    Binding("down", "to_list", "Go to list", show=False, id="search.to_list",
            tooltip="Go to the list."),
]
"""Keys of the search box (on top of the usual line-editing keys)."""

LIST = [
    Binding("down", "cursor_down", "Down", id="list.down", tooltip="Next paper."),
    Binding("j", "cursor_down", "Down", show=False, id="list.down.vim", tooltip="Next paper."),
    Binding("up", "cursor_up", "Up", show=False, id="list.up", tooltip="Previous paper."),
    Binding("k", "cursor_up", "Up", show=False, id="list.up.vim", tooltip="Previous paper."),
    Binding("pagedown", "page_down", "Page down", show=False, id="list.page_down",
            tooltip="One screen down."),
    Binding("ctrl+d", "page_down", "Page down", show=False, id="list.page_down.vim",
            tooltip="One screen down."),
    Binding("pageup", "page_up", "Page up", show=False, id="list.page_up",
            tooltip="One screen up."),
    Binding("ctrl+u", "page_up", "Page up", show=False, id="list.page_up.vim",
            tooltip="One screen up."),
    Binding("home", "first", "First", show=False, id="list.first", tooltip="First paper."),
    Binding("g", "first", "First", show=False, id="list.first.vim", tooltip="First paper."),
    Binding("end", "last", "Last", show=False, id="list.last", tooltip="Last paper."),
    Binding("G", "last", "Last", show=False, id="list.last.vim", tooltip="Last paper."),
    Binding("enter", "open", "Open", id="list.open", tooltip="Open the paper in the detail pane."),
]
"""Keys of the paper list."""

DETAIL = [
    Binding("down", "scroll_down", "Down", id="detail.down", tooltip="Scroll down a line."),
    Binding("j", "scroll_down", "Down", show=False, id="detail.down.vim",
            tooltip="Scroll down a line."),
    Binding("up", "scroll_up", "Up", show=False, id="detail.up", tooltip="Scroll up a line."),
    Binding("k", "scroll_up", "Up", show=False, id="detail.up.vim", tooltip="Scroll up a line."),
    Binding("space", "page_down", "Page", id="detail.page_down", tooltip="Scroll down a page."),
    Binding("pagedown", "page_down", "Page down", show=False, id="detail.page_down.key",
            tooltip="Scroll down a page."),
    Binding("b", "page_up", "Page up", show=False, id="detail.page_up",
            tooltip="Scroll up a page."),
    Binding("pageup", "page_up", "Page up", show=False, id="detail.page_up.key",
            tooltip="Scroll up a page."),
    Binding("home,g", "scroll_home", "Top", show=False, id="detail.top",
            tooltip="Scroll to the top."),
    Binding("end,G", "scroll_end", "Bottom", show=False, id="detail.bottom",
            tooltip="Scroll to the bottom."),
    Binding("n", "next_match", "Next match", id="detail.next_match",
            tooltip="Jump to the next matched word."),
    Binding("N", "previous_match", "Prev match", id="detail.previous_match",
            tooltip="Jump to the previous matched word."),
]
"""Keys of the detail pane."""

READING = [
    Binding("s", "toggle_star", "Star", id="reading.star",
            tooltip="Star or unstar the selected paper (★ in the list)."),
    Binding("m", "toggle_read", "Read", show=False, id="reading.read",
            tooltip="Mark the selected paper read or unread (unread: • and bold)."),
    Binding("e", "edit_note", "Note", id="reading.note",
            tooltip="Write a note on the selected paper (shown in the detail pane)."),
    Binding("f", "cycle_filter", "Filter", id="reading.filter",
            tooltip="Show all papers, then starred, unread, with notes."),
    Binding("S", "cycle_sort", "Sort", show=False, id="reading.sort",
            tooltip="Sort by relevance, then list order, name A–Z, year."),
    Binding("r", "similar", "Similar", id="reading.similar",
            tooltip="List the papers most like the selected one (Esc goes back)."),
    Binding("F", "for_you", "For you", show=False, id="reading.for_you",
            tooltip="Order the list (or the query's results) by the starred papers; "
                    "F again goes back."),
    Binding("d", "toggle_dislike", "Not interested", show=False, id="reading.dislike",
            tooltip="Mark the selected paper not interested: it and papers like it go "
                    "down the for-you order (d again, or u, undoes)."),
    Binding("u", "undo_dislike", "Undo", show=False, id="reading.undo_dislike",
            tooltip="Undo the last not-interested mark."),
    Binding("y", "copy_abstract", "Copy", show=False, id="reading.copy_abstract",
            tooltip="Copy the abstract to the clipboard."),
    Binding("Y", "copy_reference", "Copy ref", show=False, id="reading.copy_reference",
            tooltip="Copy a reference (title, name, list, id) to the clipboard."),
    Binding("o", "open_link", "Open link", show=False, id="reading.open_link",
            tooltip="Open the paper's first link in the browser."),
    Binding("x", "export", "Export", show=False, id="reading.export",
            tooltip="Export the listed papers to a Markdown file in the current folder."),
]
"""Keys that act on the reading state and the selected paper (list and detail pane)."""

NOTE = [
    Binding("ctrl+s", "save", "Save", id="note.save", tooltip="Save the note."),
    Binding("escape", "cancel", "Cancel", id="note.cancel",
            tooltip="Close the editor without saving."),
]
"""Keys of the note editor (on top of the text area's editing keys)."""

CONFIRM = [
    Binding("y", "discard", "Discard", id="confirm.discard",
            tooltip="Discard the note's unsaved text."),
    Binding("n,escape", "keep", "Keep editing", id="confirm.keep",
            tooltip="Go back to the note editor."),
]
"""Keys of the question Esc asks when a note's text would be lost (the question says
them itself, so the help screen leaves them out; they can still be remapped)."""

HELP = [
    Binding("escape,q,question_mark,f1", "close", "Close", id="help.close",
            tooltip="Close the help screen."),
    Binding("down,j", "scroll_down", "Down", show=False, id="help.down"),
    Binding("up,k", "scroll_up", "Up", show=False, id="help.up"),
    Binding("pagedown,space", "page_down", "Page down", show=False, id="help.page_down"),
    Binding("pageup,b", "page_up", "Page up", show=False, id="help.page_up"),
]
"""Keys of the help screen."""


class Scope(NamedTuple):
    """A group of bindings as the help screen presents it."""

    title: str
    bindings: list[Binding]


SCOPES = [
    Scope("Everywhere", APP + READER),
    Scope("Search box", SEARCH),
    Scope("Paper list", LIST),
    Scope("Detail pane", DETAIL),
    Scope("Reading (list and detail)", READING),
    Scope("Note editor", NOTE),
    Scope("Help screen", HELP[:1]),
]
"""The bindings in the order the help screen lists them."""


def binding_ids() -> set[str]:
    """Every binding id the reader knows, for checking keymap files."""
    scopes = (APP, READER, SEARCH, LIST, DETAIL, READING, NOTE, CONFIRM, HELP)
    return {b.id for scope in scopes for b in scope if b.id}
