"""The page's sentences and string helpers: sizes, excerpts, notes. Pure: no browser.

    >>> human_size(1_234_567)
    '1.23 MB (1,234,567 bytes)'
"""

from __future__ import annotations

PANE_CHARS = 20_000           # a longer row is shown around its first highlight


def human_size(size: int) -> str:
    """A byte count for people: ``999 bytes``, ``1.5 kB (1,500 bytes)``, ``2.00 MB (...)``."""
    if size < 1000:
        return f"{size} bytes"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB ({size:,} bytes)"
    return f"{size / 1_000_000:.2f} MB ({size:,} bytes)"


def too_big(name: str, size: int, limit: int) -> str:
    """Why a file over the page's bound was not read."""
    return (f"{name} is {human_size(size)}; the page reads files of at most "
            f"{limit / 1_000_000:g} MB ({limit:,} bytes). Nothing of it was read: use the "
            f"ngram-overlap command for larger files.")


def format_label(fmt: str) -> str:
    """A table's format as the slot shows it: ``JSON``, ``CSV``, ``plain text``."""
    return fmt.upper() if fmt != "text" else "plain text"


def fields_summary(count: int, listed: int, fold: int, limit: int) -> str:
    """The heading of a slot's field lists: it says when not every field is listed."""
    if count > limit:
        return (f"Fields (listing {listed:,} of {count:,}; the ngram-overlap "
                f"command takes any field by name)")
    if count > fold:
        return f"Fields ({count:,})"
    return "Fields"


def excerpt(text: str, ranges: list[tuple[int, int]]):
    """A window of at most PANE_CHARS characters of a long row, and the ranges in it.

    Returns ``(start, end, ranges shifted to the window)``, every range
    half-open ``[start, end)`` and clipped to the window; short rows are whole.
    The window starts a quarter of its width before the first highlight.
    """
    if len(text) <= PANE_CHARS:
        return 0, len(text), ranges
    centre = ranges[0][0] if ranges else 0
    start = max(0, min(centre - PANE_CHARS // 4, len(text) - PANE_CHARS))
    end = start + PANE_CHARS
    inside = [(max(s, start) - start, min(e, end) - start) for s, e in ranges
              if s < end and e > start]
    return start, end, inside


def excerpt_note(start: int, end: int, total: int) -> str:
    """The note above an excerpt, in 1-based character numbers."""
    return f"[Characters {start + 1:,} to {end:,} of {total:,}, around the first highlight.]\n"


def timing_line(check: float, draw: float, held: float, where: str) -> str:
    """The body's ``data-timing`` marker the browser benchmark reads (seconds in)."""
    return (f"check {check:.3f} s, draw {draw:.3f} s, longest Python step "
            f"{held * 1000:.0f} ms ({where})")
