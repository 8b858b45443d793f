"""`paperscope serve`: the reader in a browser, one reader process per tab.

textual-serve runs a command for every browser tab that connects and relays the
tab's keys and screen over a websocket. The command is built here, once, before the
server starts, from validated absolute paths and shell-quoted: textual-serve hands it
to `/bin/sh`, and nothing a browser sends ever becomes part of it (keys reach the
reader's own input, a query typed in the page lands in its search box).

Only `paperscope serve` imports this module, so the other subcommands never pay for
aiohttp and textual-serve. It is also the one module that touches textual-serve.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import os
import shlex
import socket
import sys
from collections.abc import Sequence

from aiohttp import web
from textual_serve.server import Server

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
"""Host names that always mean this machine (besides 127.0.0.0/8 and ::1)."""


ANNOUNCE_POLL = 0.01
"""Seconds between tries of the port before the address is announced."""


class ServeError(Exception):
    """The server cannot start; the message is one line."""


def is_loopback(host: str) -> bool:
    """True when `host` is reachable only from this machine."""
    if host.lower().rstrip(".") in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def reader_command(seeds: Sequence[str] | None, index_dir: str | None) -> str:
    """The shell command that opens one reader, with every path absolute and quoted.

    Absolute paths start with `/`, so none can be read as an option or a subcommand
    by the reader's parser; `exec` replaces the shell with the reader, so that the
    signals textual-serve sends reach the reader itself.
    """
    parts = [sys.executable, "-m", "tui"]
    if seeds:
        parts += ["--seeds", *(os.path.abspath(os.path.expanduser(p)) for p in seeds)]
    if index_dir:
        parts += ["--index-dir", os.path.abspath(os.path.expanduser(index_dir))]
    return "exec " + shlex.join(parts)


def public_url(host: str, port: int) -> str:
    """The address to open: the host as given, or this machine's name for a wildcard."""
    name = host
    if host in ("", "0.0.0.0", "::"):
        name = socket.gethostname()
    elif ":" in host and not host.startswith("["):
        name = f"[{host}]"  # an IPv6 literal in a URL
    return f"http://{name}:{port}"


def check_port(host: str, port: int) -> None:
    """Raise ServeError when `host:port` cannot be listened on (in use, or no such host).

    aiohttp would only say so after its start-up has printed the address; checking
    first keeps the failure to one line. It binds as aiohttp does (SO_REUSEADDR).
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror:
        raise ServeError(f"cannot listen on {host}:{port}: no such host") from None
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
            probe.listen()
    except OSError as exc:
        raise ServeError(_listen_error(host, port, exc)) from None


def _connectable(host: str) -> str:
    """Where to connect to reach a server listening on `host` (a wildcard: loopback)."""
    host = host.strip("[]")
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    return "::1" if host == "::" else host


def _listen_error(host: str, port: int, exc: OSError) -> str:
    why = "the port is already in use" if exc.errno == errno.EADDRINUSE else (
        exc.strerror or str(exc))
    return f"cannot listen on {host}:{port}: {why}"


class ReaderServer(Server):
    """textual-serve's server, quiet, serving only the reader, same-origin websockets."""

    def __init__(self, command: str, host: str, port: int) -> None:
        super().__init__(command, host=host, port=port, title="paperscope",
                         public_url=public_url(host, port))
        self._sessions: set[asyncio.Task[object]] = set()
        """The websocket handlers of the open tabs, each driving one reader process."""
        self.announcing: asyncio.Task[None] | None = None
        """The task that prints the address once the port takes connections."""

    def initialize_logging(self) -> None:
        """Warnings and errors only, on stderr: the URL is the one line a user needs."""
        logging.basicConfig(level=logging.WARNING, format="paperscope serve: %(message)s")

    async def on_startup(self, app: web.Application) -> None:
        """Announce the address once it takes connections: aiohttp runs this before it
        listens, and a script (or a quick user) may connect as soon as it reads the line."""
        self.announcing = asyncio.get_running_loop().create_task(self.announce())

    async def announce(self, wait: float = ANNOUNCE_POLL) -> None:
        """Print the address once the port accepts a connection (tried every `wait`
        seconds)."""
        host = _connectable(self.host)
        while True:
            try:
                _, writer = await asyncio.open_connection(host, self.port)
            except OSError:
                await asyncio.sleep(wait)
                continue
            writer.close()
            break
        print(f"paperscope: serving the reader on {self.public_url} (ctrl+c stops)",
              flush=True)

    async def on_shutdown(self, app: web.Application) -> None:
        """End every tab's reader before the server goes (aiohttp would wait for them)."""
        if self.announcing is not None:
            self.announcing.cancel()
        for task in self._sessions:
            task.cancel()
        await asyncio.gather(*self._sessions, return_exceptions=True)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab's reader; refused unless the page asking is this server's own."""
        if not self._allowed(request):
            raise web.HTTPForbidden(text="paperscope: this page may not open a reader\n")
        task = asyncio.current_task()
        assert task is not None
        self._sessions.add(task)
        try:
            return await super().handle_websocket(request)
        finally:
            self._sessions.discard(task)

    def _allowed(self, request: web.Request) -> bool:
        """Same origin only, and on loopback only under a loopback name.

        A browser lets any web page open a websocket to 127.0.0.1; the Origin check
        keeps other sites' pages from driving the reader, and the Host check keeps a
        name that was re-pointed at 127.0.0.1 (DNS rebinding) from passing it.
        """
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"{request.scheme}://{request.host}":
            return False
        if is_loopback(self.host):
            return is_loopback(request.url.host or "")
        return True


def serve(seeds: Sequence[str] | None, index_dir: str | None, host: str, port: int) -> int:
    """Serve the reader until ctrl+c; raises ServeError when it cannot listen.

    The caller checks the port first (`check_port`), before the lists are opened.
    """
    if not is_loopback(host):
        print(f"paperscope: warning: serving on {host}: anyone who can reach port {port} "
              "can read the lists and change the reading state", file=sys.stderr)
    # An IPv6 address may come in brackets, as in a URL; sockets take it bare.
    server = ReaderServer(reader_command(seeds, index_dir), host.strip("[]"), port)
    try:
        server.serve()
    except OSError as exc:  # lost a race for the port since check_port
        raise ServeError(_listen_error(host, port, exc)) from None
    return 0
