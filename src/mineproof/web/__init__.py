"""The local web app: play guess-free games with explained hints, probabilities and analysis.

:func:`run` starts it; :class:`~mineproof.web.server.App` holds the routes (an ASGI app served by
uvicorn), :class:`~mineproof.web.games.Games` the games, stored in SQLite by
:class:`~mineproof.web.store.Store`, and :class:`~mineproof.web.pool.Pool` the worker processes
that do the CPU work. The server's modules are imported when first used, so the other commands
of the command line do not load the HTTP server.
"""

from __future__ import annotations

import importlib
import sys
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mineproof.streams import drop_stdout

if TYPE_CHECKING:
    from mineproof.web.games import Games
    from mineproof.web.pool import Pool
    from mineproof.web.server import App
    from mineproof.web.store import Store, StoreInUse, default_data_dir

__all__ = ["App", "Games", "Pool", "Store", "StoreInUse", "default_data_dir", "run"]

_HOMES = {
    "App": "server",
    "Games": "games",
    "Pool": "pool",
    "Store": "store",
    "StoreInUse": "store",
    "default_data_dir": "store",
}


def __getattr__(name: str) -> Any:
    """Return the public name ``name`` from its module, imported now."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"mineproof.web.{_HOMES[name]}"), name)


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    data_dir: Path | None = None,
    open_browser: bool = True,
    quiet: bool = False,
) -> None:
    """Serve the web app on ``host:port`` until interrupted, keeping games in ``data_dir``
    (default: :func:`default_data_dir`), and open the page in a browser unless told not to.

    Raises ``OSError`` when the address is taken or the data directory cannot be used (or is
    used by another server: :class:`~mineproof.web.store.StoreInUse`), ``sqlite3.Error`` when
    its database is no database, is damaged or cannot be written, and ``RuntimeError`` when the
    worker processes cannot start.
    """
    from mineproof.web.games import Games
    from mineproof.web.server import App, allowed_hosts, make_server
    from mineproof.web.store import Store, default_data_dir

    store = Store(data_dir or default_data_dir())
    try:
        server = make_server(App(Games(store), allowed_hosts(host)), host, port, quiet=quiet)
    except BaseException:
        store.close()
        raise
    # From here on Ctrl+C is the normal way to stop, wherever it lands: while the start-up lines
    # are printed or the browser is being opened as much as while serving.
    try:
        _announce(host, server.server_address[1], store.path, open_browser)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        store.close()


def _announce(host: str, port: int, data: Path, open_browser: bool) -> None:
    """Warn when listening beyond this machine, print the address, open the browser."""
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    url = f"http://{shown}:{port}/"
    # The warning comes first: once the address line is out, the app is ready to stop.
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"mineproof: warning: listening on {host or 'every interface'}, not only this "
            "machine: anyone who can reach it can play and read the statistics",
            file=sys.stderr,
            flush=True,
        )
    try:
        print(f"mineproof: playing at {url} (games kept in {data}); Ctrl+C stops", flush=True)
    except OSError:
        # Nobody reads standard output (`mineproof play | head -1` has left): serve all the
        # same (it said "cannot listen on ...: Broken pipe" and stopped).
        drop_stdout()
    if open_browser:
        webbrowser.open(url)
