"""The README a newcomer reads in three minutes, and docs pages whose links hold (#36):
every link of the README and of docs/ resolves to a file or a heading, and the README
stays short. (The docs pages' Python examples run as doctests: pyproject's
``--doctest-glob``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces
    to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text())
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_resolves_to_a_file_or_a_heading(page):
    text = FENCE.sub("", page.read_text())
    links = LINK.findall(text)
    for link in links:
        if link.startswith(("http://", "https://", "mailto:")):
            continue
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        assert path.exists(), f"{page.name}: {link} names no file"
        if anchor:
            assert anchor in anchors(path), f"{page.name}: {link} names no heading"


def test_the_readme_is_short_and_links_every_docs_page():
    text = (ROOT / "README.md").read_text()
    assert len(text.split()) <= 1500
    for page in PAGES[1:]:
        assert f"(docs/{page.name}" in text, f"the README does not link docs/{page.name}"


def test_slugs_are_githubs():
    assert slug("How `make serve` builds the page, and how it starts") == \
        "how-make-serve-builds-the-page-and-how-it-starts"
    assert slug("The method, exactly") == "the-method-exactly"
