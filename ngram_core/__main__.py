"""``python -m ngram_core`` is the ``ngram-overlap`` command."""

import sys

from .cli import main

sys.exit(main())
