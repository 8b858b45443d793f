"""Reading state: stars, read marks and notes, kept per paper id in one JSON file.

The file lives at ``platformdirs.user_data_dir("paperscope")/state.json`` unless the
``PAPERSCOPE_DATA_DIR`` environment variable names another folder, or the caller passes
a path. Its shape is::

    {"schema": 1,
     "papers": {"<paper id>": {"star": [true, 1712345678901234567],
                               "read": [false, 1712345678901234568],
                               "note": ["text", 1712345678901234569]}}}

Every field is a last-writer-wins register: a value and the time (integer nanoseconds)
it was set. A removed star or note stays in the file as ``false`` / ``""`` with its time
(a tombstone), so merging with an older copy cannot bring it back.

Several paperscope processes may have the file open at once. Each keeps its own
unsaved changes as registers; :meth:`StateStore.save` takes an exclusive ``flock`` on
``state.json.lock``, re-reads the file, merges field by field by time, writes a temp
file in the same folder (flush + fsync), ``os.replace``-s it over the old one and
fsyncs the folder. A process killed at any point leaves either the old or the new
file, and never erases what another process saved.

Saving is done after every change by default (``autosave=True``): the file is small
and a keypress that stars a paper should survive a crash a second later. A caller
that changes many fields in a row, or wants the fsync off its UI thread, can pass
``autosave=False`` and call :meth:`StateStore.save` itself.

Failures never raise: a corrupt file is moved aside and the store starts fresh; an
unwritable folder or a full disk keeps the changes in memory (retried at the next
save) and the last good file intact. Each problem becomes a one-line notice in
:attr:`StateStore.notices` (and the return value of :meth:`StateStore.save`).
"""

from __future__ import annotations

import json
import os
import threading
import time
from contextlib import suppress
from datetime import datetime
from pathlib import Path

import platformdirs

from tui.core.durable import atomic_write_text
from tui.core.locations import APP_NAME
from tui.core.locks import exclusive_lock

SCHEMA_VERSION = 2
"""The file's shape; bump it when the shape changes incompatibly. 2 added `dislike`
(not interested), written as 1 while no paper holds one: an older paperscope reads the
file until then, and refuses it (rather than drop marks it does not know) after."""
STATE_FILE_NAME = "state.json"
DATA_DIR_ENV = "PAPERSCOPE_DATA_DIR"
"""Environment variable naming the folder that holds ``state.json``."""

Value = bool | str
Register = tuple[Value, int]
"""A field's value and the time it was set, in nanoseconds since the epoch."""
Records = dict[str, dict[str, Register]]
"""Paper id → field name → register."""

_FIELD_TYPES: dict[str, type] = {"star": bool, "read": bool, "note": str, "dislike": bool}
_SINCE: dict[str, int] = {"dislike": 2}
"""The schema a field came with (the others: 1)."""
_MAX_NOTICES = 50  # a store that fails on every keypress must not grow without bound
_BUSY = "another paperscope is holding the state lock"


def default_state_path() -> Path:
    """Where the state file lives when no path is given (see the module docstring)."""
    folder = os.environ.get(DATA_DIR_ENV, "").strip()
    base = Path(folder).expanduser() if folder else Path(platformdirs.user_data_dir(APP_NAME))
    return base / STATE_FILE_NAME


class CorruptStateError(ValueError):
    """The state file is not valid JSON or not in the expected shape."""


class NewerSchemaError(ValueError):
    """The state file was written by a newer paperscope; it must not be overwritten."""


def parse_state(text: str) -> Records:
    """Parse the file's text into records, or raise CorruptStateError / NewerSchemaError."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
        raise CorruptStateError(f"invalid JSON: {exc}") from None
    if not isinstance(data, dict) or type(data.get("schema")) is not int:
        raise CorruptStateError("not a paperscope state file (no integer 'schema')")
    if data["schema"] > SCHEMA_VERSION:
        raise NewerSchemaError(f"written by a newer paperscope (schema {data['schema']})")
    if data["schema"] < 1 or not isinstance(data.get("papers"), dict):
        raise CorruptStateError("not a paperscope state file (no 'papers' object)")
    records: Records = {}
    for paper_id, fields in data["papers"].items():
        if not isinstance(fields, dict):
            raise CorruptStateError(f"entry for paper {paper_id!r} is not an object")
        entry: dict[str, Register] = {}
        # Unknown field names are ignored: new fields come with a schema bump.
        for name, expected in _FIELD_TYPES.items():
            if name not in fields:
                continue
            register = fields[name]
            if (
                not isinstance(register, list)
                or len(register) != 2
                or type(register[0]) is not expected
                or type(register[1]) is not int
            ):
                raise CorruptStateError(f"bad {name!r} field for paper {paper_id!r}")
            entry[name] = (register[0], register[1])
        if entry:
            records[paper_id] = entry
    return records


def dump_state(records: Records) -> str:
    """The file's text for these records: valid JSON, one paper per line (readable,
    small diffs), sorted by id; of the oldest schema that holds them."""
    lines = [
        f"  {json.dumps(pid, ensure_ascii=False)}: "
        + json.dumps({name: list(reg) for name, reg in sorted(records[pid].items())},
                     ensure_ascii=False)
        for pid in sorted(records)
    ]
    schema = max((_SINCE.get(name, 1) for fields in records.values() for name, reg in
                  fields.items() if reg[0] is not False and reg[0] != ""), default=1)
    return f'{{"schema": {schema}, "papers": {{\n' + ",\n".join(lines) + "\n}}\n"


def merge_records(base: Records, changes: Records) -> Records:
    """Merge ``changes`` into a copy of ``base``, field by field, the later time winning.

    On equal times ``changes`` wins: it is the write being made now.
    """
    merged = {pid: dict(fields) for pid, fields in base.items()}
    for pid, fields in changes.items():
        target = merged.setdefault(pid, {})
        for name, register in fields.items():
            current = target.get(name)
            if current is None or register[1] >= current[1]:
                target[name] = register
    return merged


def _one_line(exc: BaseException) -> str:
    """An exception as a short single line, for notices."""
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return " ".join(text.split()) or type(exc).__name__


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class StateStore:
    """Stars, read marks and notes for papers, by :attr:`Paper.id`, saved to a JSON file.

    Reads answer from memory: the file as last read or written, with this process's
    unsaved changes on top. Other processes' changes appear after :meth:`reload` or
    the next :meth:`save`. Safe to share between threads.
    """

    def __init__(
        self, path: Path | str | None = None, *, autosave: bool = True, lock_timeout: float = 5.0
    ) -> None:
        self.path: Path = Path(path) if path is not None else default_state_path()
        """The state file."""
        self.autosave = autosave
        """Save after every change (see the module docstring for why that is the default)."""
        self.lock_timeout = lock_timeout
        """Seconds a save waits for another process's lock before giving up (and retrying later)."""
        self.notices: list[str] = []
        """One-line reports of problems (corrupt file moved aside, failed saves), oldest first."""
        self._mutex = threading.RLock()
        self._disk: Records = {}  # the file as last read or written by this process
        self._pending: Records = {}  # this process's changes not yet in the file
        self._view: Records = {}  # _disk merged with _pending: what the getters answer from
        self._clock = 0  # latest time seen, so a new change always outranks what it replaced
        self.reload()

    @property
    def _lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    # Reading --------------------------------------------------------------------

    def is_starred(self, paper_id: str) -> bool:
        return self._get(paper_id, "star") is True

    def is_read(self, paper_id: str) -> bool:
        return self._get(paper_id, "read") is True

    def note(self, paper_id: str) -> str:
        """The paper's note, "" when it has none."""
        value = self._get(paper_id, "note")
        return value if isinstance(value, str) else ""

    def starred_ids(self) -> set[str]:
        return self._ids_with("star")

    def read_ids(self) -> set[str]:
        return self._ids_with("read")

    def noted_ids(self) -> set[str]:
        return self._ids_with("note")

    def is_disliked(self, paper_id: str) -> bool:  # not interested: ranked down for you
        return self._get(paper_id, "dislike") is True

    def disliked_ids(self) -> set[str]: return self._ids_with("dislike")

    # Changing -------------------------------------------------------------------
    # A change is recorded even when it matches what this process sees: the view may be
    # stale, and the user's latest explicit choice should win over another process's.

    def toggle_star(self, paper_id: str) -> bool:
        """Star or unstar the paper; return whether it is starred now."""
        return self._toggle(paper_id, "star")

    def toggle_dislike(self, paper_id: str) -> bool:
        """Mark the paper *not interested*, or no longer; return whether it is now."""
        return self._toggle(paper_id, "dislike")

    def set_read(self, paper_id: str, read: bool) -> None:
        with self._mutex:
            self._record(paper_id, "read", bool(read))
        self._autosave()

    def toggle_read(self, paper_id: str) -> bool:
        """Mark the paper read or unread; return whether it is read now."""
        return self._toggle(paper_id, "read")

    def _toggle(self, paper_id: str, field: str) -> bool:
        with self._mutex:
            now = self._get(paper_id, field) is not True
            self._record(paper_id, field, now)
        self._autosave()
        return now

    def set_note(self, paper_id: str, text: str) -> None:
        """Set the paper's note; a blank text removes it."""
        # Lone surrogates (undecodable pasted bytes) cannot be written as UTF-8 and
        # would make every later save fail; they become U+FFFD.
        text = text.encode("utf-8", "replace").decode("utf-8") if not _encodable(text) else text
        with self._mutex:
            self._record(paper_id, "note", text if text.strip() else "")
        self._autosave()

    # Persistence ----------------------------------------------------------------

    def save(self) -> str | None:
        """Merge this process's changes into the file; None on success, else a notice.

        On failure the changes stay in memory (and are retried at the next save) and the
        file on disk is left as it was.
        """
        with self._mutex:
            if not self._pending:
                return None
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with exclusive_lock(self._lock_path, self.lock_timeout, mode=0o600, busy=_BUSY):
                    self._remove_orphan_temp_files()
                    merged = merge_records(self._read_or_move_aside(), self._pending)
                    atomic_write_text(self.path, dump_state(merged))
            except NewerSchemaError as exc:
                return self._newer_schema_notice(exc)
            except OSError as exc:
                return self._notice(
                    f"could not save reading state to {self.path}: {_one_line(exc)}; "
                    "changes are kept in memory and retried at the next save"
                )
            self._disk = merged
            self._pending = {}
            self._view = merge_records(merged, {})  # a copy: _record edits the view in place
            self._observe(merged)
            return None

    def reload(self) -> None:
        """Re-read the file to pick up other processes' saves; unsaved changes stay on top."""
        with self._mutex:
            records = self._load()
            if records is not None:
                self._disk = records
                self._observe(records)
            self._view = merge_records(self._disk, self._pending)

    # Internals ------------------------------------------------------------------

    def _get(self, paper_id: str, field: str) -> Value | None:
        with self._mutex:
            register = self._view.get(paper_id, {}).get(field)
        return None if register is None else register[0]

    def _ids_with(self, field: str) -> set[str]:
        with self._mutex:
            return {pid for pid, fields in self._view.items() if fields.get(field, (False,))[0]}

    def _record(self, paper_id: str, field: str, value: Value) -> None:
        # Caller holds the mutex. Nanosecond ints, bumped past anything seen, so two
        # changes in a row never tie and a change always outranks the value it replaced.
        self._clock = max(time.time_ns(), self._clock + 1)
        register = (value, self._clock)
        self._pending.setdefault(paper_id, {})[field] = register
        self._view.setdefault(paper_id, {})[field] = register

    def _autosave(self) -> None:
        if self.autosave:
            self.save()

    def _observe(self, records: Records) -> None:
        for fields in records.values():
            for _, stamp in fields.values():
                if stamp > self._clock:
                    self._clock = stamp

    def _notice(self, message: str) -> str:
        # Repeats are dropped so a read-only folder does not add a line per keypress.
        if not self.notices or self.notices[-1] != message:
            self.notices.append(message)
            del self.notices[:-_MAX_NOTICES]
        return message

    def _newer_schema_notice(self, exc: NewerSchemaError) -> str:
        return self._notice(
            f"{self.path} was {exc}; it is left untouched and changes are kept in memory only"
        )

    def _read_file(self) -> Records:
        try:
            text = self.path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CorruptStateError(f"not UTF-8: {exc.reason} at byte {exc.start}") from None
        return parse_state(text)

    def _load(self) -> Records | None:
        """The file's records ({} when absent), or None when it cannot be read now."""
        try:
            return self._read_file()
        except FileNotFoundError:
            return {}
        except NewerSchemaError as exc:
            self._newer_schema_notice(exc)
            return {}
        except CorruptStateError:
            pass
        except OSError as exc:
            self._notice(f"could not read reading state from {self.path}: {_one_line(exc)}")
            return None
        # Corrupt: re-check under the lock, so that two processes starting together do
        # not both move files aside (the second would move the first one's fresh file).
        try:
            with exclusive_lock(self._lock_path, self.lock_timeout, mode=0o600, busy=_BUSY):
                return self._read_or_move_aside()
        except NewerSchemaError as exc:
            self._newer_schema_notice(exc)
            return {}
        except OSError as exc:
            self._notice(
                f"{self.path} is unreadable and could not be moved aside ({_one_line(exc)}); "
                "starting with a fresh reading state"
            )
            return {}

    def _read_or_move_aside(self) -> Records:
        """The file's records; a corrupt file is renamed aside first. Caller holds the lock."""
        try:
            return self._read_file()
        except FileNotFoundError:
            return {}
        except CorruptStateError as exc:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
            suffix = 2
            while aside.exists():
                aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{suffix}")
                suffix += 1
            os.replace(self.path, aside)
            self._notice(
                f"{self.path} was unreadable ({_one_line(exc)}); "
                f"moved it to {aside.name} and started fresh"
            )
            return {}

    def _remove_orphan_temp_files(self) -> None:
        # Only a lock holder creates temp files, so any found while holding the lock
        # were left by a writer that was killed mid-save.
        for orphan in self.path.parent.glob(f".{self.path.name}.*.tmp"):
            with suppress(OSError):
                orphan.unlink()
