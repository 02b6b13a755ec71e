"""ngram_page: the page's Python, one module per job (app.py only starts it).

- :mod:`~ngram_page.urlstate`  a shared link's query string <-> settings and chosen fields (pure)
- :mod:`~ngram_page.text`      sizes, excerpts and the page's other sentences (pure)
- :mod:`~ngram_page.dom`       the one door to the browser: ``el``, ``set_text``, ``on``,
  ``fill_marked``, the body's ``data-*`` markers
- :mod:`~ngram_page.controls`  the settings controls: read, set from a link, bounds from the engine
- :mod:`~ngram_page.slots`     a file slot: what was read, which fields are chosen, its rows
- :mod:`~ngram_page.runner`    debounce, cancel, driving step generators, the timing
- :mod:`~ngram_page.draw`      a result on the page: summary, tables, duplicates, panes
- :mod:`~ngram_page.download`  the CSV download
- :mod:`~ngram_page.page`      what each user action does, from a change to a drawn result

Every module imports in CPython too (the browser-only names are ``None``
there), so the pure helpers are tested without a browser.
"""
