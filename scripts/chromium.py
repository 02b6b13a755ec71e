"""Serve dist/ on loopback and start Debian's Chromium: shared by the end-to-end
tests and the browser benchmark (which import it as ``scripts.chromium``)."""

from __future__ import annotations

import functools
import http.server
import pathlib
import shutil
import threading

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: Headless as root with no internet: without the networking flags Chromium
#: tries to reach Google's hosts at start.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage"]
#: The page's ready marker: app.py sets it once the engine can take files.
READY = 'body[data-ready="1"]'
TIMEOUT_MS = 60_000


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    cache = False

    def log_message(self, *args):
        pass

    def end_headers(self):
        if not self.cache:
            self.send_header("Cache-Control", "no-store")
        super().end_headers()


class _CachingHandler(_QuietHandler):
    cache = True


def serve_dist(cache: bool = False, directory: pathlib.Path = DIST):
    """Start a static server for dist/ (or a folder holding its files); returns (base
    URL, server).

    Tests serve with ``no-store`` so each page loads what the build made;
    the benchmark serves cacheable files to measure a warm start.
    """
    assert (directory / "index.html").exists(), "dist/ is not built: run `make dist`"
    handler = functools.partial(_CachingHandler if cache else _QuietHandler,
                                directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server
