"""The user's keymap file: binding id → keys, applied with Textual's `App.set_keymap`.

The file is TOML, at `$PAPERSCOPE_KEYMAP` or `<user config dir>/paperscope/keymap.toml`.
Either a `[keymap]` table or top-level keys; values are a key string ("j,down") or a
list of keys (["j", "down"]):

    [keymap]
    "list.down" = ["j", "down", "ctrl+n"]
    "app.quit" = "ctrl+q"

A file that cannot be used never stops the reader: it yields a one-line notice.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from tui.app.bindings import binding_ids

KEYMAP_ENV = "PAPERSCOPE_KEYMAP"
"""Environment variable naming a keymap file, which wins over the config folder."""


@dataclass
class LoadedKeymap:
    """What a keymap file asks for, and what to tell the user about it."""

    keymap: dict[str, str] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    path: Path | None = None


def keymap_path() -> Path:
    """Where the keymap file is looked for."""
    chosen = os.environ.get(KEYMAP_ENV)
    if chosen:
        return Path(chosen).expanduser()
    return Path(platformdirs.user_config_dir("paperscope")) / "keymap.toml"


def _unusable(loaded: LoadedKeymap, exc: Exception) -> LoadedKeymap:
    reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    loaded.notices.append(f"keymap file {loaded.path} is unusable ({reason}); "
                          "using the default keys")
    return loaded


def load_keymap(path: Path | None = None) -> LoadedKeymap:
    """Read the keymap file; a missing default file is not an error."""
    explicit = path is not None or bool(os.environ.get(KEYMAP_ENV))
    path = path or keymap_path()
    loaded = LoadedKeymap(path=path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if explicit:
            loaded.notices.append(f"keymap file {path} not found; using the default keys")
        return loaded
    except (OSError, UnicodeDecodeError) as exc:
        return _unusable(loaded, exc)
    import tomllib  # here: most starts have no keymap file to parse

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return _unusable(loaded, exc)
    table = data.get("keymap", data)
    if not isinstance(table, dict):
        loaded.notices.append(f"keymap file {path}: [keymap] must be a table; using the default keys")
        return loaded
    known = binding_ids()
    unknown, bad = [], []
    for binding_id, keys in table.items():
        if binding_id not in known:
            unknown.append(binding_id)
            continue
        if isinstance(keys, str) and keys.strip():
            loaded.keymap[binding_id] = ",".join(k.strip() for k in keys.split(",") if k.strip())
        elif isinstance(keys, list) and keys and all(isinstance(k, str) and k.strip() for k in keys):
            loaded.keymap[binding_id] = ",".join(k.strip() for k in keys)
        else:
            bad.append(binding_id)
    if unknown:
        loaded.notices.append(f"keymap file {path}: unknown binding id(s) {', '.join(sorted(unknown))}")
    if bad:
        loaded.notices.append(f"keymap file {path}: keys must be a string or a list of strings "
                              f"for {', '.join(sorted(bad))}")
    return loaded
