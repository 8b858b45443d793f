"""`paperscope serve` without a browser: its command line, its errors, what it refuses.

The browser itself is in test_browser.py.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.webpage import ServedReader, free_port
from tests.conftest import ROOT, SEEDS
from tui import serve


def _paperscope(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def test_the_reader_command_passes_hostile_paths_as_plain_arguments(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The shell runs the command; a stand-in for Python prints the arguments it got.
    echo = tmp_path / "python"
    echo.write_text('#!/bin/sh\nprintf "%s\\n" "$@"\n')
    echo.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(echo))
    names = ["a list.txt", "$(touch pwned).txt", "x; touch pwned.txt", "it's \"quoted\".txt",
             "-rf.txt", "search"]
    for name in names:
        (tmp_path / name).write_text("T\n\nAn abstract.\n")
    monkeypatch.chdir(tmp_path)
    command = serve.reader_command(names, "idx dir")
    shell = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True,
                           check=True)
    assert shell.stdout.splitlines() == [
        "-m", "tui", "--seeds", *(str(tmp_path / name) for name in names),
        "--index-dir", str(tmp_path / "idx dir")]
    assert not list(tmp_path.glob("pwned*"))


def test_the_bundled_lists_need_no_seeds_option() -> None:
    assert "--seeds" not in serve.reader_command(None, None)


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.8.9.10", True), ("::1", True), ("[::1]", True),
    ("localhost", True), ("LOCALHOST.", True), ("0.0.0.0", False), ("::", False),
    ("192.168.1.4", False), ("example.org", False)])
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert serve.is_loopback(host) is loopback


def test_the_url_names_the_host_a_browser_can_use() -> None:
    assert serve.public_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert serve.public_url("::1", 8001) == "http://[::1]:8001"
    assert serve.public_url("0.0.0.0", 80) == f"http://{serve.socket.gethostname()}:80"


@pytest.mark.parametrize(("host", "warned"), [("127.0.0.1", False), ("0.0.0.0", True)])
def test_another_host_than_loopback_is_warned_about(
        host: str, warned: bool, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(serve.ReaderServer, "serve", lambda self: None)  # not listening
    assert serve.serve(None, None, host, 8000) == 0
    err = capsys.readouterr().err
    if warned:
        assert err.count("\n") == 1 and "anyone who can reach port 8000" in err
    else:
        assert err == ""


def test_a_missing_list_fails_before_serving() -> None:
    proc = _paperscope("serve", "--port", str(free_port()), "--seeds", "/no/such/list.txt")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "paperscope: error: /no/such/list.txt: no such file or folder\n"


@pytest.mark.parametrize("port", ["0", "65536", "http"])
def test_a_bad_port_is_a_usage_error(port: str) -> None:
    proc = _paperscope("serve", "--port", port)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("paperscope: error:")


def test_other_pages_may_not_open_a_reader(tmp_path: Path) -> None:
    """A page from another site (or a name re-pointed at 127.0.0.1) gets a 403."""
    import aiohttp

    env = dict(os.environ, PAPERSCOPE_DATA_DIR=str(tmp_path / "data"))
    server = ServedReader(free_port(), str(tmp_path / "index"), env, [str(SEEDS)])
    base = f"127.0.0.1:{server.port}"

    async def handshake(headers: dict[str, str]) -> int:
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(f"ws://{base}/ws", headers=headers):
                    return 101
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status

    try:
        assert asyncio.run(handshake({"Origin": "http://evil.example"})) == 403
        assert asyncio.run(handshake({"Origin": "http://evil.example:1",
                                      "Host": "evil.example:1"})) == 403
        assert server.readers() == []  # no reader was started for them
    finally:
        server.stop()


def test_a_host_that_cannot_be_listened_on_fails_in_one_line() -> None:
    proc = _paperscope("serve", "--host", "no-such-host.invalid", "--port", str(free_port()))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.endswith(": no such host\n") and proc.stderr.count("\n") == 1


def test_the_address_is_announced_only_once_the_port_takes_connections(
        capsys: pytest.CaptureFixture[str]) -> None:
    """aiohttp runs the start-up hook before it listens: the line a script waits for
    comes only when a connection would be taken."""
    port = free_port()
    server = serve.ReaderServer("true", "127.0.0.1", port)

    async def scenario() -> tuple[str, str]:
        await server.on_startup(None)  # type: ignore[arg-type] # the hook ignores the app
        await asyncio.sleep(0.2)
        before = capsys.readouterr().out
        listener = await asyncio.start_server(lambda _r, w: w.close(), "127.0.0.1", port)
        try:
            assert server.announcing is not None
            await asyncio.wait_for(server.announcing, 5)
        finally:
            listener.close()
            await listener.wait_closed()
        return before, capsys.readouterr().out

    before, after = asyncio.run(scenario())
    assert before == ""
    assert after == f"paperscope: serving the reader on http://127.0.0.1:{port} (ctrl+c stops)\n"
