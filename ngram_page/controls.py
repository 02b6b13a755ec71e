"""The settings controls (n, threshold, mode, layers, short rows, the frequency filter,
file A's template):
read, set from a link, bounded by the engine.

n's bounds and default, the short-row default and the layer names are the
engine's (``ngram_core.method.index``, ``ngram_core.method.settings``,
``ngram_core.method.tokenize``); index.html carries the same values only as the look
of the page before Python is ready.
"""

from __future__ import annotations

from typing import NamedTuple

from ngram_core import Settings
from ngram_core.method.index import N_DEFAULT, N_MAX, N_MIN
from ngram_core.method.settings import SHORT_MIN_DEFAULT
from ngram_core.method.tokenize import DEFAULT_LAYERS, LAYERS

from .dom import el, set_text
from .text import more_settings_line
from .urlstate import LinkControls

THRESHOLD_MIN, THRESHOLD_MAX = 0, 100
SHORT_MIN_MAX = N_MAX                  # a short row has fewer than n tokens
MAX_B_ROWS_MAX = 1_000_000_000
#: The frequency filter's value when it is first switched on: GPT-3's rule (>10 documents).
MAX_B_ROWS_DEFAULT = 10
N_RULE = f"n must be a whole number from {N_MIN} to {N_MAX}"
THRESHOLD_RULE = f"The threshold must be a percentage from {THRESHOLD_MIN} to {THRESHOLD_MAX}"
SHORT_MIN_RULE = f"The short-row minimum must be a whole number from 0 (off) to {SHORT_MIN_MAX}"
MAX_B_ROWS_RULE = "The number of training rows must be a whole number, 1 or more"
REPHRASE_RULE = "The rephrase similarity must be a number from 0 to 1"
N_LABEL = f"Window size n, in tokens ({N_MIN} to {N_MAX})"
#: Every control whose change recomputes.
CONTROL_IDS = ("n", "threshold", "mode-loose", "mode-strict",
               *(f"layer-{layer}" for layer in LAYERS), "short-min", "max-b-rows-on",
               "max-b-rows", "keep-template", "rephrase-threshold")


class Read(NamedTuple):
    """The settings the controls hold, and the threshold exactly as typed (for the link)."""
    settings: Settings
    threshold_text: str


def parse_number(text: str, kind, low, high):
    """``kind(text)`` if it lies in ``[low, high]``, else None."""
    try:
        value = kind(text.strip())
    except ValueError:
        return None
    return value if low <= value <= high else None


def read_number(input_id: str, kind, low, high, rule: str):
    """The number in an input, or None after showing the rule next to it."""
    text = str(el(input_id).value).strip()
    value = parse_number(text, kind, low, high)
    set_text(f"{input_id}-error", "" if value is not None else
             f"{rule} (it is {text or 'empty'}).")
    return value


def show_engine_bounds() -> None:
    """n's label, bounds and default, the short-row default and the default layers,
    from the engine."""
    n = el("n")
    n.min, n.max, n.defaultValue = str(N_MIN), str(N_MAX), str(N_DEFAULT)
    set_text("n-label", N_LABEL)
    short_min = el("short-min")
    short_min.max, short_min.defaultValue = str(SHORT_MIN_MAX), str(SHORT_MIN_DEFAULT)
    for layer in LAYERS:
        el(f"layer-{layer}").defaultChecked = layer in DEFAULT_LAYERS


#: The passages left out of the check from the review (``Settings.leave_out``), in the
#: order they were left out.
LEFT_OUT: list[str] = []


def leave_out(text: str, out: bool = True) -> None:
    """Leave a passage out of the check (``out`` False: put it back)."""
    if out and text not in LEFT_OUT:
        LEFT_OUT.append(text)
    elif not out and text in LEFT_OUT:
        LEFT_OUT.remove(text)


def read_settings() -> Read | None:
    """Settings from the controls, or None after saying what is wrong next to them."""
    n = read_number("n", int, N_MIN, N_MAX, N_RULE)
    threshold = read_number("threshold", float, THRESHOLD_MIN, THRESHOLD_MAX, THRESHOLD_RULE)
    short_min = read_number("short-min", int, 0, SHORT_MIN_MAX, SHORT_MIN_RULE)
    rephrase = read_number("rephrase-threshold", float, 0, 1, REPHRASE_RULE)
    filtering = bool(el("max-b-rows-on").checked)
    el("max-b-rows").disabled = not filtering
    max_b_rows = None
    if filtering:
        max_b_rows = read_number("max-b-rows", int, 1, MAX_B_ROWS_MAX, MAX_B_ROWS_RULE)
        if max_b_rows is None:
            el("more-settings").open = True      # the message is inside the fold
            return None
    else:
        set_text("max-b-rows-error", "")
    mode = "strict" if el("mode-strict").checked else "loose"
    el("layers").disabled = mode == "strict"
    layers = tuple(layer for layer in LAYERS if el(f"layer-{layer}").checked)
    if short_min is None or rephrase is None:
        el("more-settings").open = True      # the message is inside the fold
    if n is None or threshold is None or short_min is None or rephrase is None:
        return None
    keep_template = bool(el("keep-template").checked)
    settings = Settings(n=n, mode=mode, layers=layers, threshold=threshold,
                        short_min=short_min, max_b_rows=max_b_rows, keep_template=keep_template,
                        leave_out=tuple(LEFT_OUT), rephrase_threshold=rephrase)
    set_text("more-settings-line", more_settings_line(mode, layers, short_min, max_b_rows,
                                                      keep_template, settings.rephrase_threshold))
    return Read(settings, str(el("threshold").value).strip())


def apply_link(link: LinkControls) -> None:
    """Open with the settings a shared link carries (files never travel in a URL)."""
    if link.n is not None:
        el("n").value = link.n
    if link.threshold is not None:
        el("threshold").value = link.threshold
    if link.strict:
        el("mode-strict").checked = True
    if link.layers is not None:
        for layer in LAYERS:
            el(f"layer-{layer}").checked = layer in link.layers
    if link.unknown_layers:
        set_text("layers-error", f"This link names the layer {', '.join(link.unknown_layers)}, "
                                 f"which is none of {', '.join(LAYERS)}: the layers ticked "
                                 f"here are used.")
        el("more-settings").open = True          # where the layers are: said in view
    if link.short_min is not None:
        el("short-min").value = link.short_min
    if link.keep_template:
        el("keep-template").checked = True
    if link.rephrase is not None:
        el("rephrase-threshold").value = link.rephrase
    LEFT_OUT[:] = list(link.leave_out)
    if link.max_b_rows is not None:
        el("max-b-rows-on").checked = True
        el("max-b-rows").value = link.max_b_rows
        el("max-b-rows").disabled = False
