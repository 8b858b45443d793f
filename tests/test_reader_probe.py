"""The reader probe's children: what they may touch."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

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


def test_start_up_ratios_are_the_median_of_pairs_run_in_turn(monkeypatch) -> None:
    """Each pair's two starts share the machine's state: a slow spell moves both, and
    the ratio is the median of the pairs', not the ratio of the medians."""
    order: list[str] = []
    # Warming, then three pairs: minimal, reader (first frame, rows, ready); the machine
    # is three times slower from the second pair on.
    times = {"startup-minimal": iter([1.0, 1.0, 3.0, 3.0]),
             "startup-reader": iter([(2.0, 2.0, 2.0), (1.1, 1.2, 2.0), (3.3, 3.6, 6.0),
                                     (3.3, 3.3, 4.5)])}

    def fake(mode: str, *args: str, env=None):
        order.append(mode)
        value = next(times[mode])
        return (value, value, value) if mode == "startup-minimal" else value

    monkeypatch.setattr(reader_probe, "startup", fake)
    result = reader_probe.startup_medians(3, "lists", "index")
    assert order == ["startup-minimal", "startup-reader",  # warming both
                     "startup-minimal", "startup-reader",
                     "startup-reader", "startup-minimal",  # the other one first
                     "startup-minimal", "startup-reader"]
    assert result.minimal == 3.0 and result.rows == 3.3  # 1.1 as a ratio of medians
    assert result.rows_ratio == pytest.approx(1.2)  # the pairs': 1.2, 1.2, 1.1
    assert result.ready_ratio == pytest.approx(2.0)  # the pairs': 2.0, 2.0, 1.5
