"""Helpers for the end-to-end tests: serve dist/, drive Debian's Chromium with Playwright.

The page is served from dist/ on 127.0.0.1 by a server in this process. Every
request the page makes is recorded; anything not to that origin is aborted and
fails the test, as do console errors, page errors and PyScript's .py-error.
"""

from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from scripts.chromium import CHROMIUM, CHROMIUM_ARGS, DIST, READY, TIMEOUT_MS, serve_dist


@dataclass
class Watch:
    """What a page did: requests (with time relative to ready), console errors, page errors."""
    origin: str
    requests: list = field(default_factory=list)
    foreign: list = field(default_factory=list)
    console_errors: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)
    ready: bool = False
    after_ready: list = field(default_factory=list)

    def own(self, url: str) -> bool:
        return url.startswith(self.origin + "/") or url.startswith(f"blob:{self.origin}/") \
            or url.startswith("data:")

    def attach(self, page):
        def on_request(request):
            self.requests.append(request)
            if not self.own(request.url):
                self.foreign.append(request.url)
            elif self.ready and not request.url.startswith(("blob:", "data:")):
                self.after_ready.append(request.url)

        page.on("request", on_request)
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(m.text))
        page.on("pageerror", lambda e: self.page_errors.append(str(e)))

        def route(r):
            if self.own(r.request.url):
                r.continue_()
            else:
                r.abort()

        page.route("**/*", route)

    def problems(self, page) -> list[str]:
        found = []
        if self.foreign:
            found.append(f"requests to other origins: {self.foreign}")
        if self.after_ready:
            found.append(f"requests after ready: {self.after_ready}")
        if self.console_errors:
            found.append(f"console errors: {self.console_errors}")
        if self.page_errors:
            found.append(f"page errors: {self.page_errors}")
        if page.locator(".py-error").count():
            found.append(f".py-error: {page.locator('.py-error').first.inner_text()}")
        if not page.locator("#page-error").is_hidden():
            found.append(f"#page-error: {page.locator('#page-error').inner_text()}")
        return found


def open_page(context, base: str, query: str = "", prepare=None, example=True):
    """Open the page, wait for the ready marker (and, with ``example``, the worked
    example's result); returns (page, watch). ``prepare(page)`` runs before the
    page is loaded (to route requests).

    A renderer that crashes while the page starts or draws the worked example
    (Chromium's "Page crashed" or "Target crashed", seen once in several hundred
    starts on this machine, with this build and the ones before, never the same
    test twice) is reported as a warning and the page opened once more in a new
    tab; a second crash, or any other failure, fails the test.
    """
    for attempt in (1, 2):
        page = context.new_page()
        watch = Watch(base)
        watch.attach(page)
        if prepare is not None:
            prepare(page)
        try:
            page.goto(f"{base}/{query}")
            page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
            watch.ready = True
            if example:
                wait_for_run(page, 0)       # the worked example's result is drawn
            break
        except PlaywrightError as e:
            if attempt == 2 or "crashed" not in str(e):
                raise
            warnings.warn(f"the renderer crashed while the page started or drew the worked example; "
                          f"opened again ({e})")
            with contextlib.suppress(PlaywrightError):
                page.close()
    return page, watch


def runs(page) -> int:
    return int(page.get_attribute("body", "data-runs"))


def wait_for_run(page, before: int):
    """Wait until a check finished after `before` runs (the explicit marker, no sleeps)."""
    page.wait_for_function(f"Number(document.body.dataset.runs) > {before}"
                           " && document.body.dataset.busy === '0'", timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def site():
    """A server for dist/ and a headless Chromium, shared by a test module."""
    base, server = serve_dist()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield base, browser
        browser.close()
    server.shutdown()


@pytest.fixture
def page(site):
    """The page with the worked example drawn; fails the test on any problem it saw."""
    base, browser = site
    context = browser.new_context(accept_downloads=True)
    pg, watch = open_page(context, base)
    pg.watch = watch
    yield pg
    problems = watch.problems(pg)
    context.close()
    assert not problems, problems
