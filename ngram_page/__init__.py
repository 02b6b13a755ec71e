"""ngram_page: the page's Python, one module per job (app.py only starts it).

- :mod:`~ngram_page.urlstate`  a shared link's query string <-> settings and chosen fields (pure)
- :mod:`~ngram_page.text`      sizes, excerpts and the page's other sentences (pure)
- :mod:`~ngram_page.dom`       the one door to the browser: ``el``, ``set_text``, ``on``,
  ``fill_marked``, the body's ``data-*`` markers
- :mod:`~ngram_page.controls`  the settings controls: read, set from a link, bounds from the engine
- :mod:`~ngram_page.slots`     a file slot: what was read, which fields are chosen, its rows
- :mod:`~ngram_page.runner`    debounce, cancel, driving step generators, the timing
- :mod:`~ngram_page.verdict`   the verdict first: the figure, its sentences, the bar that keeps
  them in view, the check's progress, "Copy link" and the command line
- :mod:`~ngram_page.counts`    what the run counted: the counts, each field's figures, ignored n-grams
- :mod:`~ngram_page.explorer`  the row explorer: every row, shown by kind, searched, sorted,
  paged, one grid for the keyboard
- :mod:`~ngram_page.panes`     the two panes of the selected row, with its figures
- :mod:`~ngram_page.charts`    the report's two charts as plain data, with their words (pure)
- :mod:`~ngram_page.report_view` the contamination report on the page: definitions, charts,
  score impact, the clean split's line
- :mod:`~ngram_page.results_file` the optional results file and the score choice
- :mod:`~ngram_page.reporting` the report of the result shown: definitions computed after
  the check, the score impact, the clean split's downloads
- :mod:`~ngram_page.download`  the downloads: both CSVs and the clean split's two files
- :mod:`~ngram_page.page`      what each user action does, from a change to a drawn result
  and its report
- :mod:`~ngram_page.start`     the start: the worked example read, every control wired, the
  ready markers, the first check (app.py only calls it)

Every module imports in CPython too (the browser-only names are ``None``
there), so the pure helpers are tested without a browser.
"""
