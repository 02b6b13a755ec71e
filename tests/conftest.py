"""Shared helpers for the test suite."""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"
EXAMPLES = ROOT / "static" / "examples"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
