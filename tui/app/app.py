"""The paperscope reader: the App and its global keys.

The main view lives in `screens/reader.py`, which opens the lists itself; this module
owns what outlives a screen and hands it down: the settings, the keymap, the reading
state and the note drafts, the rows kept from the last start, the hangup guard and the
idle garbage collector; and the app-wide actions (quit, help, search, the palette).
Arrows run one way: the app calls the screen, and hears from it only by the messages
that bubble up (`LibraryReady`, `LibraryFailed`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from textual import events
from textual.app import App, SystemCommand
from textual.actions import SkipAction
from textual.screen import Screen
from textual.widget import AwaitMount
from textual.widgets import Input

from tui.app import bindings
from tui.app.collector import IdleCollector
from tui.app.compat import stylesheet_variables
from tui.app.hangup import WATCH_S, HangupGuard
from tui.app.keymap import load_keymap
from tui.app.layout import HORIZONTAL_BREAKPOINTS, VERTICAL_BREAKPOINTS
from tui.app.messages import LibraryFailed, LibraryReady
from tui.app.screens.reader import ReaderScreen
from tui.app.settings import ReaderSettings
from tui.app.stylecache import FILE as STYLES_FILE, KeptStylesheet, load as load_styles, \
    save as save_styles
from tui.core.drafts import DRAFTS_FOLDER, DraftStore
from tui.core.index import first_screen
from tui.core.locations import cache_dir
from tui.core.state import StateStore
if TYPE_CHECKING:
    from textual.command import Provider

    from tui.core.index.library import Library


_COLLECT_CHECK_S = 0.5
"""How often the reader checks whether a full garbage collection is due."""


def _paper_commands() -> type[Provider]:
    """The palette's paper commands, imported when the palette first opens."""
    from tui.app.commands import PaperCommands

    return PaperCommands


class PaperscopeApp(App[None]):
    """A keyboard-driven reader for conference paper lists."""

    TITLE = "paperscope"
    CSS_PATH = "paperscope.tcss"
    BINDINGS = bindings.APP
    COMMANDS = App.COMMANDS | {_paper_commands}
    HORIZONTAL_BREAKPOINTS = HORIZONTAL_BREAKPOINTS
    """List and detail sit side by side from `layout.WIDE_FROM` columns."""
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS
    """Short terminals get a one-line search box."""

    def __init__(self, settings: ReaderSettings) -> None:
        super().__init__()
        self.styles_file = cache_dir() / STYLES_FILE
        """The rule sets parsed at earlier starts (`stylecache`): the first frame's
        largest part, parsed once."""
        self.stylesheet = KeptStylesheet(variables=stylesheet_variables(self.stylesheet),
                                         kept=load_styles(self.styles_file))
        self.settings = settings
        self.error_message: str | None = None
        """One line for stderr when the reader had to give up (printed by `run`)."""
        loaded = load_keymap(settings.keymap_file)
        self.keymap: dict[str, str] = loaded.keymap
        """Binding id → keys, from the user's keymap file."""
        self._startup_notices = loaded.notices
        self.state = StateStore()
        """Stars, read marks and notes (the core's store; saved after every change)."""
        self.drafts = DraftStore(self.state.path.parent / DRAFTS_FOLDER)
        """The note editor's drafts, beside the reading state."""
        self.hangup = HangupGuard(self.keep_typed_text, lambda code: self.exit(return_code=code))
        """Ends the reader cleanly on SIGHUP, SIGTERM or a terminal that went away."""
        self.first_screen = first_screen.look(settings.seeds, settings.index_dir)
        """The list's first rows as last shown, with the key to keep them under."""
        self.reader = ReaderScreen(settings, self.state, self.drafts, self.first_screen)
        """The main screen, which opens the lists and owns them."""
        self.collector = IdleCollector()
        """Runs the garbage collector's full collections while nobody types."""
        if settings.theme:
            self.theme = settings.theme

    @property
    def library(self) -> Library | None:
        """The open lists (the reader screen's); None until they are open."""
        return self.reader.library

    def get_default_screen(self) -> Screen:
        return self.reader

    def push_screen(  # type: ignore[override]
            self, screen, callback=None, wait_for_dismiss=False, *, mode=None):
        """Textual's, but no new screen once the reader is quitting.

        A key typed right after q (`?`, F1, `e`, ctrl+p) opened a screen on an app that
        was closing down; it was never composed and its mount failed (NoMatches): a
        traceback and exit code 1 instead of a clean exit.
        """
        if self.return_code is not None and not wait_for_dismiss:
            return AwaitMount(self.screen, [])
        return super().push_screen(screen, callback, wait_for_dismiss, mode=mode)

    def on_load(self) -> None:
        # No full collection during start-up: `_start_collector` runs the first one.
        self.collector.hold()

    def on_mount(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)
        for notice in self._startup_notices:
            self.notify(notice, severity="warning", timeout=10)
        self.reader.reading.report_state_notices()
        self.app_resume_signal.subscribe(self, self._redraw_after_resume)
        if not self.is_headless:
            self.hangup.install()
            self.set_interval(WATCH_S, self.hangup.check_terminal, name="terminal watch")
        # After the first frame: the worker's imports (Whoosh, the core) would otherwise
        # compete with it for the interpreter.
        self.call_after_refresh(self.reader.open_library)

    def _redraw_after_resume(self, _app: App[None]) -> None:
        """Draw the whole screen again after ctrl+z and `fg`.

        The terminal comes back with a blank alternate screen at the same size, which
        Textual does not treat as a resize, so without this nothing is drawn until
        something on the screen changes.
        """
        self.refresh(layout=True)

    # -- what the reader screen reports (its messages bubble up to the app) ----------

    def on_library_ready(self, message: LibraryReady) -> None:
        self.call_after_refresh(self._start_collector)
        self.call_after_refresh(self._keep_styles)

    def _keep_styles(self) -> None:
        """Write the styles parsed for this start, for the next one (`stylecache`)."""
        if isinstance(self.stylesheet, KeptStylesheet):
            save_styles(self.stylesheet, self.styles_file)

    def on_library_failed(self, message: LibraryFailed) -> None:
        self.error_message = f"paperscope: error: {message.error}"  # as the other commands
        self.exit(return_code=2)

    def _start_collector(self) -> None:
        """Full garbage collections from now on run while the reader is idle."""
        if self.return_code is None:
            self.collector.start()
            self.set_interval(_COLLECT_CHECK_S, self.collector.tick, name="collector")

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            self.collector.input()
        await super().on_event(event)

    def on_unmount(self) -> None:
        self.collector.stop()
        self._keep_styles()  # with those of the screens opened since
        self.keep_typed_text()  # a quit with the note editor open keeps its text
        self.drafts.close()
        self.reader.close_library()

    def keep_typed_text(self) -> None:
        """Write the open note's draft now, and the reading state (normally saved already)."""
        self.reader.reading.keep_typed_text()

    async def run_async(self, **options: object):  # type: ignore[override]
        """Textual's, then, after a signal, leave without waiting for worker threads."""
        try:
            return await super().run_async(**options)  # type: ignore[arg-type]
        finally:
            self.hangup.finish()
            self.hangup.uninstall()

    # -- app-wide actions -------------------------------------------------------------

    def action_help(self) -> None:
        """Show the keys; a second press closes the help screen."""
        from tui.app.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
        else:
            self.push_screen(HelpScreen())

    def action_focus_search(self) -> None:
        """Focus the search box; where typing already goes to a text box, type the key."""
        if isinstance(self.focused, Input) or self.screen is not self.reader:
            raise SkipAction()
        self.reader.focus_search()

    def focus_search_box(self) -> None:
        """The palette's "Search": focus the search box if the reader is the screen.

        Not `action_focus_search`: its SkipAction (in the search box, or with the
        palette opened over the help or a note) is caught only for keys; from the
        palette it crashed the reader.
        """
        if self.screen is self.reader:
            self.reader.focus_search()

    def action_command_palette(self) -> None:
        """Textual's palette, as `ReaderPalette` (safe against keys typed as it closes).

        Without Textual's fixed id: ctrl+p right after a palette closed would add a
        second screen with that id while the first is still being removed (DuplicateIds).
        """
        from tui.app.commands import ReaderPalette

        if self.use_command_palette and not ReaderPalette.is_open(self):
            self.push_screen(ReaderPalette())

    def search_themes(self) -> None:
        """The palette of themes (the "Theme" command), as `ReaderPalette` too."""
        from textual.theme import ThemeProvider

        from tui.app.commands import ReaderPalette

        self.push_screen(ReaderPalette(providers=[ThemeProvider],
                                       placeholder="Search for themes…"))

    def action_jump_to_paper(self) -> None:
        """A palette of papers only."""
        from tui.app.commands import open_paper_palette

        open_paper_palette(self)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Jump to paper", "Find a paper by its name or title",
                            self.action_jump_to_paper)
        yield SystemCommand("Search", "Put the cursor in the search box",
                            self.focus_search_box)
        yield SystemCommand("Help", "Show every key", self.action_help)
        yield SystemCommand("For you", "Order the list by the starred papers (F)",
                            lambda: self.reader.reading.for_you.toggle())
        yield from self._list_commands()

    def _list_commands(self) -> Iterable[SystemCommand]:
        """The list filter: one command per loaded list, with its paper count."""
        library = self.library
        if library is None or len(library.lists) < 2:
            return
        yield SystemCommand(f"List: all lists ({len(library)} papers)",
                            "Show the papers of every list", partial(self.show_list, None))
        for summary in library.lists:
            title = str(summary["title"])
            yield SystemCommand(f"List: {title} ({summary['papers']} papers)",
                                f"Show only the papers of {summary['file']}",
                                partial(self.show_list, title))

    def show_list(self, title: str | None) -> None:
        """Restrict the results to one list (a `list:` query), or show every list."""
        self.reader.set_query("" if title is None else 'list:"{}" '.format(title.replace('"', " ")))


def create_app(seeds: Iterable[str] | None = None, index_dir: str | None = None,
               query: str = "", **options: object) -> PaperscopeApp:
    """The reader as the CLI runs it; `options` are further `ReaderSettings` fields."""
    settings = ReaderSettings(seeds=tuple(seeds) if seeds else None, index_dir=index_dir,
                              query=query, **options)  # type: ignore[arg-type]
    return PaperscopeApp(settings)
