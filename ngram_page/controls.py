"""The settings controls (n, threshold, mode, layers): read, set from a link, bounded by the engine.

n's bounds and default and the layer names are the engine's
(``ngram_core.index``, ``ngram_core.tokenize``); index.html carries the same
values only as the look of the page before Python is ready.
"""

from __future__ import annotations

from ngram_core import Settings
from ngram_core.index import N_DEFAULT, N_MAX, N_MIN
from ngram_core.tokenize import DEFAULT_LAYERS, LAYERS

from .dom import el, set_text
from .urlstate import LinkControls

THRESHOLD_MIN, THRESHOLD_MAX = 0, 100
N_RULE = f"n must be a whole number from {N_MIN} to {N_MAX}"
THRESHOLD_RULE = f"The threshold must be a percentage from {THRESHOLD_MIN} to {THRESHOLD_MAX}"
N_LABEL = f"Window size n, in tokens ({N_MIN} to {N_MAX})"
#: Every control whose change recomputes.
CONTROL_IDS = ("n", "threshold", "mode-loose", "mode-strict",
               *(f"layer-{layer}" for layer in LAYERS))


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
    """n's label, bounds and default, and the default layers, from the engine."""
    n = el("n")
    n.min, n.max, n.defaultValue = str(N_MIN), str(N_MAX), str(N_DEFAULT)
    set_text("n-label", N_LABEL)
    for layer in LAYERS:
        el(f"layer-{layer}").defaultChecked = layer in DEFAULT_LAYERS


def read_settings() -> Settings | None:
    """Settings from the controls, or None after saying what is wrong next to them."""
    n = read_number("n", int, N_MIN, N_MAX, N_RULE)
    threshold = read_number("threshold", float, THRESHOLD_MIN, THRESHOLD_MAX, THRESHOLD_RULE)
    mode = "strict" if el("mode-strict").checked else "loose"
    el("layers").disabled = mode == "strict"
    layers = tuple(layer for layer in LAYERS if el(f"layer-{layer}").checked)
    if n is None or threshold is None:
        return None
    return Settings(n=n, mode=mode, layers=layers, threshold=threshold)


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
