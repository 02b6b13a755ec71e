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

from ..errors import InputError
from .index import N_DEFAULT, N_MAX, N_MIN, POSITION_CAP
from .similar import REPHRASE_THRESHOLD
from .tokenize import DEFAULT_LAYERS, MODES, Tokenizer, parse_layers

#: Short rows of at least this many tokens are tested for containment by default.
SHORT_MIN_DEFAULT = 8


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_jobs(jobs: object, name: str = "jobs") -> None:
    """Worker processes asked for (``--jobs``, ``jobs=``): None (the default) or a whole
    number, 1 or more; an :class:`InputError` otherwise::

        >>> check_jobs(0, "--jobs")
        Traceback (most recent call last):
        ...
        ngram_core.errors.InputError: --jobs: must be a whole number, 1 or more, not 0
    """
    if jobs is not None and (not _whole(jobs) or jobs < 1):      # type: ignore[operator]
        raise InputError(name, f"must be a whole number, 1 or more, not {jobs!r}")


@dataclass(frozen=True)
class Settings:
    """n (window size in tokens), mode (loose or strict), layers (loose only),
    threshold (percent, flag at or above), cap (positions kept per window),
    backend (``re`` or ``regex``), short_min (a short row of at least this many
    tokens is tested for containment in a B row; 0: never), max_b_rows
    (ignore a window found in more than this many B rows; None: keep all) and
    keep_template (match the test file's template too: the windows most of its
    rows share, left out by default, see :mod:`~ngram_core.method.template`) and
    leave_out (passages left out of matching as the template is, wherever they lie
    in A: a licence line, a stock phrase; see
    :func:`~ngram_core.method.template.left_out`), rephrase (run the rephrase lens,
    :mod:`~ngram_core.method.similar`) and rephrase_threshold (a row is rephrased
    when its best similarity reaches it, from 0 to 1)."""
    n: int = N_DEFAULT
    mode: str = "loose"
    layers: tuple[str, ...] = DEFAULT_LAYERS
    threshold: float = 0.0
    cap: int = POSITION_CAP
    backend: str = "re"
    short_min: int = SHORT_MIN_DEFAULT
    max_b_rows: int | None = None
    keep_template: bool = False
    leave_out: tuple[str, ...] = ()
    rephrase: bool = True
    rephrase_threshold: float = REPHRASE_THRESHOLD

    def __post_init__(self) -> None:
        n = self.n
        if not _whole(n) or not N_MIN <= n <= N_MAX:
            raise InputError("n", f"must be a whole number from {N_MIN} to {N_MAX}, not {n!r}")
        if self.mode not in MODES:
            raise InputError("mode", f"must be loose or strict, not {self.mode!r}")
        try:
            object.__setattr__(self, "layers", parse_layers(self.layers))
        except ValueError as e:
            raise InputError("layers", str(e)) from None
        threshold = _number_within(self.threshold, 0, 100)
        if threshold is None:
            raise InputError("threshold", f"must be a percentage from 0 to 100, "
                                          f"not {self.threshold!r}")
        object.__setattr__(self, "threshold", threshold)
        if not _whole(self.short_min) or self.short_min < 0:
            raise InputError("short-min", f"must be a whole number, 0 or more, "
                                          f"not {self.short_min!r}")
        if not isinstance(self.keep_template, bool):
            raise InputError("keep-template", f"must be true or false, not {self.keep_template!r}")
        if isinstance(self.leave_out, str) or not all(isinstance(t, str) for t in self.leave_out):
            raise InputError("leave-out", f"must be a list of passages, not {self.leave_out!r}")
        object.__setattr__(self, "leave_out", tuple(dict.fromkeys(
            t.strip() for t in self.leave_out if t.strip())))
        if not isinstance(self.rephrase, bool):
            raise InputError("rephrase", f"must be true or false, not {self.rephrase!r}")
        rephrase_threshold = _number_within(self.rephrase_threshold, 0, 1)
        if rephrase_threshold is None:
            raise InputError("rephrase-threshold", f"must be a similarity from 0 to 1, "
                                                   f"not {self.rephrase_threshold!r}")
        object.__setattr__(self, "rephrase_threshold", rephrase_threshold)
        if self.max_b_rows is not None and (not _whole(self.max_b_rows) or self.max_b_rows < 1):
            raise InputError("max-b-rows", f"must be a whole number, 1 or more, "
                                           f"not {self.max_b_rows!r}")

    @property
    def index_rules(self) -> tuple[int, int, int | None]:
        """What B's index depends on: (n, cap, max_b_rows)."""
        return self.n, self.cap, self.max_b_rows

    def tokenizer(self) -> Tokenizer:
        """A new tokenizer applying these rules (with a vocabulary of its own)."""
        return Tokenizer(self.mode, self.layers, self.backend)


def _number_within(value: object, low: float, high: float) -> float | None:
    """``value`` as a float when it is a number from ``low`` to ``high``, else None
    (text that is no number, NaN, out of range)::

        >>> _number_within("12.5", 0, 100), _number_within("nan", 0, 1), _number_within(2, 0, 1)
        (12.5, None, None)
    """
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return number if low <= number <= high else None
