"""The reader probe's children: what they may touch."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bench import reader_probe
from tui.core.state import DATA_DIR_ENV


def test_a_probe_child_keeps_its_state_out_of_the_users_data_folder(monkeypatch,
                                                                     tmp_path: Path) -> None:
    """The keystroke, start-up and memory probes open the real reader, which saves its
    session: in a folder of the run's own, not the user's (nor one the run was given)."""
    user = tmp_path / "user"
    monkeypatch.setenv(DATA_DIR_ENV, str(user))
    seen: list[dict[str, str] | None] = []

    def run(argv, **options):
        env = options.get("env")
        seen.append(env)
        folder = Path((env or {}).get(DATA_DIR_ENV, user))
        return subprocess.CompletedProcess(argv, 0, stdout=str(folder.is_dir()), stderr="")

    monkeypatch.setattr(reader_probe.subprocess, "run", run)
    assert reader_probe.run_child("memory", "seeds", "index") == "True"
    assert reader_probe.run_child("memory", "seeds", "index", env={"A": "1"}) == "True"
    folders = [env[DATA_DIR_ENV] for env in seen if env and DATA_DIR_ENV in env]
    assert len(folders) == 2 and str(user) not in folders and folders[0] != folders[1]
    assert seen[1]["A"] == "1" and not any(Path(f).exists() for f in folders)
