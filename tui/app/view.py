"""What the reader screen's own objects (`Panes`, `LiveSearch`, `Reading`) may ask of
it, as Protocols: each object knows the screen only through these, never its class,
so that the screen imports them and they never import the screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from textual.message import Message
    from textual.timer import Timer
    from textual.widget import Widget
    from textual.worker import Worker

    from tui.app.widgets.detail import DetailView
    from tui.app.widgets.paper_list import PaperList
    from tui.app.widgets.search_box import SearchBox
    from tui.core.index.library import Library


class PanesView(Protocol):
    """The screen's lists, its three panes and its focus."""

    @property
    def library(self) -> Library | None:
        """The open lists; None until they are open."""

    @property
    def search_box(self) -> SearchBox: ...

    @property
    def paper_list(self) -> PaperList: ...

    @property
    def detail(self) -> DetailView: ...

    @property
    def focused(self) -> Widget | None: ...

    def set_focus(self, widget: Widget | None) -> None: ...


class WorkerHost(Protocol):
    """Textual's timers, thread workers and messages, run on the screen (its workers are
    cancelled with it, and exclusive ones in one group cancel each other)."""

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...

    def run_worker(self, work: Callable[[], None], *, group: str, exclusive: bool,
                   exit_on_error: bool, thread: bool) -> Worker[None]: ...

    def post_message(self, message: Message) -> bool: ...
