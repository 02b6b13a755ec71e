"""The page's entry point (index.html runs this file): it starts ngram_page.

The page's work lives in the ngram_page package (see its __init__.py), which the
build ships as bytecode; this file stays this short because the tab compiles it
from source as it starts.
"""

import js

APP_STARTED = js.performance.now()     # for the benchmark: when app.py began

from ngram_page.runner import spawn  # noqa: E402
from ngram_page.start import start  # noqa: E402

IMPORTED = js.performance.now()      # the page's modules are in (the snapshot has most)
PAGE = spawn(start(APP_STARTED, IMPORTED))
