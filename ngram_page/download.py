"""The downloads: the engine's CSV of every checkable row, its CSV of every A row, and
the clean split's two files, saved from the tab.

The bytes are ``result.csv()`` / ``result.rows_csv()`` encoded as UTF-8, the
same as the ``ngram-overlap`` command writes with ``--csv`` / ``--rows-csv``;
nothing is sent anywhere (a ``blob:`` URL). Each file is named after the files
checked and the settings (:func:`ngram_page.text.download_name`).
"""

from __future__ import annotations

from .dom import create, js, js_object, set_timeout, to_js
from .text import download_name

REVOKE_MS = 10_000             # the blob URL outlives the click by this much
#: Which CSV each download button saves: the name's first part, and the result's method.
KINDS = {"checkable": ("ngram-overlap", "csv"), "rows": ("ngram-overlap-rows", "rows_csv")}


def save_csv(result, kind: str, a_name: str, b_names, threshold_text: str) -> None:
    """Save one of ``result``'s CSV files (``kind``: a key of KINDS)."""
    prefix, method = KINDS[kind]
    s = result.settings
    save_bytes(getattr(result, method)().encode("utf-8"),
               download_name(prefix, a_name, b_names, s.n, threshold_text, s.mode),
               "text/csv;charset=utf-8")


def save_bytes(data: bytes, name: str, media_type: str = "application/octet-stream") -> None:
    """Save ``data`` as a file called ``name``, from a ``blob:`` URL of this tab."""
    blob = js.Blob.new(to_js([to_js(data)]), js_object({"type": media_type}))
    url = js.URL.createObjectURL(blob)
    link = create("a")
    link.href = url
    link.download = name
    js.document.body.append(link)
    link.click()
    link.remove()
    set_timeout(lambda: js.URL.revokeObjectURL(url), REVOKE_MS)
