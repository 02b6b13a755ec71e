"""The CSV download: the engine's CSV of every checkable row, saved from the tab.

The bytes are ``result.csv()`` encoded as UTF-8, the same as the
``ngram-overlap`` command writes; nothing is sent anywhere (a ``blob:`` URL).
"""

from __future__ import annotations

from .dom import create, js, set_timeout, to_js

REVOKE_MS = 10_000             # the blob URL outlives the click by this much


def csv_name(n: int) -> str:
    return f"ngram-overlap-n{n}.csv"


def download_csv(result) -> None:
    """Save ``result``'s CSV as a file."""
    data = result.csv().encode("utf-8")
    options = to_js({"type": "text/csv;charset=utf-8"}, dict_converter=js.Object.fromEntries)
    blob = js.Blob.new(to_js([to_js(data)]), options)
    url = js.URL.createObjectURL(blob)
    link = create("a")
    link.href = url
    link.download = csv_name(result.settings.n)
    js.document.body.append(link)
    link.click()
    link.remove()
    set_timeout(lambda: js.URL.revokeObjectURL(url), REVOKE_MS)
