"""What the run counted: the counts table, each text field's figures, and the n-grams
the frequency filter ignored, as words. Every figure comes from ``ngram_core.report.summary``."""

from __future__ import annotations

from ngram_core.report.summary import counted_table, field_table

from .dom import create, el, fill_table, set_text
from .text import ignored_line, ignored_summary, window_words, words_by_id

DIRTY_SHARE = "Overall dirty-token share"


def show(result) -> None:
    """The counts, the per-field table (A read from several fields) and the ignored n-grams."""
    s = result.summary
    fill_table("counted", [(measure, "\u2013" if measure == DIRTY_SHARE and not s.tokens
                                 else value)       # no checkable row: no share, not 0.0%
                           for measure, value in counted_table(s)])
    by_field = field_table(s)
    fill_table("fields-table", by_field)
    el("fields-box").hidden = not by_field
    ignored(result)


def ignored(result) -> None:
    """The n-grams the frequency filter ignored, most training rows first, as words."""
    s = result.summary
    box, items = el("ignored-box"), el("ignored-list")
    items.replaceChildren()
    box.hidden = not (s.max_b_rows is not None and s.windows_ignored)
    if box.hidden:
        return
    box.open = False
    set_text("ignored-summary", ignored_summary(s.windows_ignored, s.max_b_rows))
    words = words_by_id(result.tokenizer.vocabulary, [key for _, key in result.most_repeated])
    for rows, key in result.most_repeated:
        items.append(create("li", ignored_line(window_words(key, words), rows), file_text=True))
