"""End to end: the page starts from its build-time snapshot, and without it all the same (#12).

The build makes a memory snapshot of the interpreter with the engine imported
and ships it, the WebAssembly binary and pyodide.asm.mjs gzipped
(the workers of scripts/pyodide-early.js unpack them). A host that lacks any of those files
still gets the page, started the plain way, with the same results.
"""

from __future__ import annotations

import gzip
import struct

import pytest

from browser import open_page, site  # noqa: F401 (fixtures)
from scripts.chromium import DIST

PYODIDE = DIST / "vendor" / "pyodide"
OPTIONAL = ("snapshot.bin.gz", "pyodide.asm.wasm.gz", "pyodide.asm.mjs.gz")


def started(browser, base, missing=None, damaged=None, body=b"NGS1 is not enough" * 100):
    """Open the page (``missing``: a file the host answers 404 for; ``damaged``: one
    it answers with ``body`` gzipped); returns what it showed for the worked example,
    the files it fetched, the problems seen and how the interpreter started."""
    def prepare(page):
        if missing:
            page.route(f"**/{missing}", lambda route: route.fulfill(status=404, body="missing"))
        if damaged:
            page.route(f"**/{damaged}", lambda route: route.fulfill(
                status=200, body=gzip.compress(body)))

    context = browser.new_context()
    page, watch = open_page(context, base, prepare=prepare)
    shown = (page.inner_text("#flagged-figure"), page.inner_text("#counted"),
             page.inner_text("#rows-table"))
    fetched = [r.url.split("?")[0].rsplit("/", 1)[-1] for r in watch.requests]
    problems = watch.problems(page)
    how = page.get_attribute("html", "data-interpreter-start")
    context.close()
    return shown, fetched, problems, how


def test_the_page_starts_from_the_snapshot_and_sends_fewer_bytes(site):
    base, browser = site
    shown, fetched, problems, how = started(browser, base)
    assert not problems, problems
    assert how == "snapshot"
    assert shown[0] == "66.7%"
    assert {"snapshot.bin.gz", "pyodide.asm.wasm.gz", "pyodide.asm.mjs.gz"} <= set(fetched)
    assert "pyodide.asm.wasm" not in fetched and "pyodide.asm.mjs" not in fetched
    # the bytes of the runtime files, against the plain start (no snapshot, plain files)
    sent = sum((PYODIDE / name).stat().st_size for name in set(fetched)
               if (PYODIDE / name).is_file())
    plain = sent - sum((PYODIDE / name).stat().st_size
                       for name in (*OPTIONAL, "start.mjs")) \
        + sum((PYODIDE / name).stat().st_size for name in ("pyodide.asm.wasm", "pyodide.asm.mjs"))
    assert sent <= plain


@pytest.mark.parametrize("missing", OPTIONAL)
def test_without_an_optional_file_the_page_starts_the_plain_way(site, missing):
    base, browser = site
    shown, _, _, _ = started(browser, base)
    fallback, fetched, fallback_problems, how = started(browser, base, missing)
    # Chromium itself logs the 404; the page must report nothing
    browser_404 = "console errors: ['Failed to load resource: the server responded with a " \
                  "status of 404 (Not Found)']"
    assert [p for p in fallback_problems if p != browser_404] == []
    assert missing in fetched
    if missing != "snapshot.bin.gz":          # the plain file is fetched instead
        assert missing.removesuffix(".gz") in fetched
    assert how == ("plain" if missing == "snapshot.bin.gz" else "snapshot")
    assert fallback == shown                 # the same engine, the same result


def test_a_damaged_snapshot_means_the_plain_start_with_the_same_result(site):
    base, browser = site
    shown, _, _, _ = started(browser, base)
    fallback, fetched, problems, how = started(browser, base, damaged="snapshot.bin.gz")
    assert problems == []
    assert how == "plain"
    assert "snapshot.bin.gz" in fetched
    assert fallback == shown


def test_a_snapshot_cut_short_means_the_plain_start_with_the_same_result(site):
    """The interpreter's binary is linked as soon as the snapshot's header gives its
    length, before its last page is in: a file whose pages stop short (a transfer cut
    off) is found out once it is unpacked, and the page starts the plain way."""
    base, browser = site
    shown, _, _, _ = started(browser, base)
    whole = gzip.decompress((PYODIDE / "snapshot.bin.gz").read_bytes())
    fallback, fetched, problems, how = started(browser, base, damaged="snapshot.bin.gz",
                                               body=whole[:len(whole) // 2])
    assert problems == []
    assert how == "plain"
    assert "snapshot.bin.gz" in fetched and "pyodide.asm.wasm.gz" in fetched
    assert fallback == shown


def test_the_page_lets_the_snapshot_go_once_started(site):
    """Pyodide keeps the options it was started with for the page's life; the
    snapshot among them (31 MB) is let go once the interpreter has its copy."""
    base, browser = site
    length = struct.unpack("<I", gzip.decompress(
        (PYODIDE / "snapshot.bin.gz").read_bytes())[4:8])[0]
    context = browser.new_context()
    page, watch = open_page(context, base)
    try:
        assert page.get_attribute("html", "data-interpreter-start") == "snapshot"
        cdp = context.new_cdp_session(page)
        cdp.send("HeapProfiler.collectGarbage")
        kept = cdp.send("Runtime.getHeapUsage")["backingStorageSize"]   # ArrayBuffers' bytes
        assert kept < length / 2, (kept, length)
        assert watch.problems(page) == []
    finally:
        context.close()


def test_python_runs_without_the_browsers_switched_stacks(site):
    """Chromium's renderer crashed now and then at start while Pyodide ran Python on
    WebAssembly's switched stacks (JSPI): the page hides them before Pyodide looks,
    and the worked example's result is the same."""
    base, browser = site
    context = browser.new_context()
    page, watch = open_page(context, base)
    try:
        assert page.evaluate("'Suspending' in WebAssembly || 'Suspender' in WebAssembly") is False
        assert page.inner_text("#flagged-figure") == "66.7%"
        assert watch.problems(page) == []
    finally:
        context.close()
