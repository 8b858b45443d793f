"""Running `paperscope` as a subprocess and checking its contract with the user.

The contract (see ``tui/cli.py``): exit 0 when something was found or done, 1 when
nothing was found, 2 for usage and input errors with exactly one line on stderr; never a
traceback, never a hang. Notices (a rebuilt index, an index kept in memory) are single
``paperscope: ...`` lines on stderr and may come with any exit code.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

CLI_TIMEOUT_S = 120.0
"""One run of the command; generous because the machine may be busy building indexes."""

# `main()` turns any unexpected exception into "paperscope: error: TypeName: message".
# That keeps tracebacks away from users, but such a line means a bug was hit, so the
# tests treat it as a failure wherever a proper message or a result was due.
INTERNAL_ERROR = re.compile(
    r"^paperscope: error: (?:[\w.]*(?:Error|Exception|Exit|Interrupt|Warning)|[A-Z]\w*Error): "
)


@dataclass
class Run:
    """A finished `paperscope` run: the arguments, exit code and both output streams."""

    args: list[str]
    returncode: int
    stdout_bytes: bytes
    stderr_bytes: bytes

    @property
    def stdout(self) -> str:
        return self.stdout_bytes.decode("utf-8", "surrogateescape")

    @property
    def stderr(self) -> str:
        return self.stderr_bytes.decode("utf-8", "replace")

    @property
    def stderr_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]

    def describe(self) -> str:
        """The command and its stderr, for assertion messages."""
        return f"paperscope {shlex.join(self.args)[:300]} -> {self.returncode}\n{self.stderr[-2000:]}"


def cli_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a run: this process's (with the test's isolated folders)."""
    return {**os.environ, "PYTHONPATH": str(ROOT), **(extra or {})}


def run_cli(*args: str, stdin: bytes | str | None = None, timeout: float = CLI_TIMEOUT_S,
            env: dict[str, str] | None = None) -> Run:
    """Run `python -m tui ARGS`; a run that outlives ``timeout`` fails the test as a hang."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    try:
        proc = subprocess.run([sys.executable, "-m", "tui", *args], cwd=ROOT, input=data,
                              capture_output=True, timeout=timeout, env=cli_env(env))
    except subprocess.TimeoutExpired:
        pytest.fail(f"paperscope {shlex.join(args)[:300]} hung: still running after {timeout} s")
    return Run(list(args), proc.returncode, proc.stdout, proc.stderr)


def assert_contract(run: Run, allowed: tuple[int, ...] = (0, 1, 2)) -> None:
    """No crash, no traceback, one-line stderr messages, and an exit code in ``allowed``."""
    assert run.returncode >= 0, f"killed by signal {-run.returncode}: {run.describe()}"
    assert "Traceback" not in run.stderr, run.describe()
    assert run.returncode in allowed, run.describe()
    for line in run.stderr_lines:
        assert line.startswith("paperscope: "), f"stray stderr line {line!r}: {run.describe()}"
        assert not INTERNAL_ERROR.match(line), f"internal error reached the user: {run.describe()}"
    if run.returncode == 2:
        assert len(run.stderr_lines) == 1, f"exit 2 needs one stderr line: {run.describe()}"


def assert_refused(run: Run, *fragments: str) -> None:
    """Exit 2 with one clean line on stderr that mentions every fragment."""
    assert_contract(run, allowed=(2,))
    for fragment in fragments:
        assert fragment in run.stderr_lines[0], run.describe()


def index_folders(root: Path) -> list[Path]:
    """The built index folders (``ix-*``) under an index root."""
    return sorted(root.glob("ix-*"))
