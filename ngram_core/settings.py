"""What a check is computed at: one validated, immutable :class:`Settings`.

Every front end (the page, the command, the Dask client) turns its own inputs
into a ``Settings`` and hands it down; the stages below never see a form
field or a command-line flag. Out-of-range values raise
:class:`~ngram_core.errors.InputError` naming the setting::

    >>> Settings(n=8, layers="L1,L4").layers
    ('L1', 'L4')
    >>> Settings(n=4)
    Traceback (most recent call last):
    ...
    ngram_core.errors.InputError: n: must be a whole number from 5 to 25, not 4
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError
from .index import N_DEFAULT, N_MAX, N_MIN, POSITION_CAP
from .tokenize import DEFAULT_LAYERS, MODES, Tokenizer, parse_layers


@dataclass(frozen=True)
class Settings:
    """n (window size in tokens), mode (loose or strict), layers (loose only),
    threshold (percent, flag at or above), cap (positions kept per window) and
    backend (``re`` or ``regex``)."""
    n: int = N_DEFAULT
    mode: str = "loose"
    layers: tuple[str, ...] = DEFAULT_LAYERS
    threshold: float = 0.0
    cap: int = POSITION_CAP
    backend: str = "re"

    def __post_init__(self) -> None:
        n = self.n
        if isinstance(n, bool) or not isinstance(n, int) or not N_MIN <= n <= N_MAX:
            raise InputError("n", f"must be a whole number from {N_MIN} to {N_MAX}, not {n!r}")
        if self.mode not in MODES:
            raise InputError("mode", f"must be loose or strict, not {self.mode!r}")
        try:
            object.__setattr__(self, "layers", parse_layers(self.layers))
        except ValueError as e:
            raise InputError("layers", str(e)) from None
        try:
            threshold = float(self.threshold)
        except (TypeError, ValueError):
            threshold = float("nan")
        if not 0 <= threshold <= 100:
            raise InputError("threshold", f"must be a percentage from 0 to 100, "
                                          f"not {self.threshold!r}")
        object.__setattr__(self, "threshold", threshold)

    def tokenizer(self) -> Tokenizer:
        """A new tokenizer applying these rules (with a vocabulary of its own)."""
        return Tokenizer(self.mode, self.layers, self.backend)
