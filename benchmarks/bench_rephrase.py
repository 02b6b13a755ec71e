"""The rephrase lens (#46): its precision and recall on our own development pairs, and
its added cost at 2 MB x 2 MB.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_rephrase           # both tables
    .venv/bin/python -m benchmarks.bench_rephrase --quality # the development table only

Stdout is a header line and Markdown tables; progress goes to stderr.

* **Quality.** ``tests/rephrase_data.py`` builds test items of three styles (math
  word problems, multiple-choice questions, function stubs), rewrites every other
  one by a rule (synonyms, reordered sentences or options, another frame, renamed
  identifiers, or all of them at once) and hides the rewrites among hard negatives
  (items of the same style). A row counts as found when the lens marks it
  (similarity at the default threshold) with its own rewrite as its similar row;
  *negatives marked* is the share of the A rows whose rewrite is not in B that
  are marked anyway. Two kinds of negatives: from the style's other templates
  (the usual case), and from every template (A's items with other names and
  numbers: the hardest there are). Then reading-comprehension items: several
  questions on each passage, one rewritten with the passage kept
  (``passage_set``).
* **Cost.** ``run_check`` on the generated 2 MB x 2 MB pair of ``bench_core``
  (defaults: n = 13), with the lens and with ``rephrase=False``: the median of 5
  runs each, alternating; the lens's share is the difference over the time
  without it; row by row (the page's path, and the command's at this size) and
  by batch (numpy and pyarrow, where they are loaded). Then the streamed path on the same pair written as JSONL (a
  partition per MiB), and on the same A against 30 MB of B, with and without the
  lens, alternating: B's rate in MB/s (at 2 MB, reading and indexing A's terms is
  most of the lens's share; at 30 MB, reading B's rows).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from benchmarks.corpus import make_pair, to_jsonl  # noqa: E402
from ngram_core import Settings, read_rows, run_check  # noqa: E402
from ngram_core.method.similar import REPHRASE_THRESHOLD, SimilarIndex  # noqa: E402
from ngram_core.read.files import load_rows_by_file  # noqa: E402
from ngram_core.run import check as check_module  # noqa: E402
from ngram_core.run.distributed import check_distributed  # noqa: E402

chosen_by_size = check_module._by_batch
from rephrase_code import code_set, sibling_set  # noqa: E402
from rephrase_data import KINDS, dev_set, passage_set  # noqa: E402

SIZES = {"math": (200, 600), "choice": (150, 300), "code": (50, 100)}


def quality(threshold: float = REPHRASE_THRESHOLD) -> str:
    lines = [f"| style | rewrite | negatives from | precision | recall | F1 | "
             f"negatives marked |", "|---|---|---|---|---|---|---|"]
    for same in (False, True):
        for style, kinds in KINDS.items():
            for kind in kinds:
                print(f"quality: {style} {kind} same={same}", file=sys.stderr)
                lines.append(_row(style, kind, f"{'every' if same else 'other'} template",
                                  *dev_set(style, kind, *SIZES[style], same_template=same),
                                  threshold))
    for kind in KINDS["choice"]:
        print(f"quality: passage {kind}", file=sys.stderr)
        lines.append(_row("passage", kind, "other passages", *passage_set(kind), threshold))
    for rewrites, kind in (("names", "names only"), ("both", "names and docstring"),
                           ("none", "none in B")):
        print(f"quality: code by hand, {kind}", file=sys.stderr)
        lines.append(_row_of("code by hand", kind, "the other half",
                             [code_set(half, rewrites) for half in (0, 1)], threshold))
    for rewrites, kind in ((True, "names and docstring"), (False, "none in B")):
        print(f"quality: code by hand, {kind}, siblings", file=sys.stderr)
        lines.append(_row_of("code by hand", kind, "the other half and siblings",
                             [sibling_set(half, rewrites) for half in (0, 1)], threshold))
    return "\n".join(lines)


def _row(style: str, kind: str, negatives: str, a: list[str], b: list[str],
         truth: dict[int, int], threshold: float) -> str:
    return _row_of(style, kind, negatives, [(a, b, truth)], threshold)


def _row_of(style: str, kind: str, negatives: str,
            sets: list[tuple[list[str], list[str], dict[int, int]]], threshold: float) -> str:
    """One line of the table over one development set or several, each checked on
    its own (A, B, A row -> its rewrite's B row), their counts added."""
    marked = right = truths = others = others_marked = 0
    for a, b, truth in sets:
        best: dict[int, tuple[float, int]] = {}
        SimilarIndex.of(a).fold(b, 0, best)
        marks = {i for i, (score, _) in best.items() if score >= threshold}
        marked += len(marks)
        right += sum(1 for i in marks if truth.get(i) == best[i][1])
        truths += len(truth)
        others += len(a) - len(truth)
        others_marked += sum(1 for i in marks if i not in truth)
    if not truths:                   # no rewrite in B: only the negatives' share means anything
        return f"| {style} | {kind} | {negatives} | - | - | - | {others_marked / others:.1%} |"
    precision = right / marked if marked else 1.0
    false = f"{others_marked / others:.1%}" if others else "-"
    return (f"| {style} | {kind} | {negatives} | {precision:.3f} | {right / truths:.3f} "
            f"| {2 * right / (marked + truths):.3f} | {false} |")


def _median_time(work, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cost(runs: int = 5) -> str:
    a_text, b_text = make_pair(2 * 2**20, 2 * 2**20)
    a_bytes, b_bytes = to_jsonl(a_text, "a"), to_jsonl(b_text, "b")
    a_rows, b_rows = read_rows(a_bytes, "a.jsonl"), read_rows(b_bytes, "b.jsonl")
    lines = ["| 2 MB x 2 MB | without the lens (s) | with it (s) | added |",
             "|---|---|---|---|"]
    for batch, label in ((False, "indexed, row by row (`run_check`: the page's path, and a "
                                 "command of this size)"),
                         (True, "indexed, by batch (`run_check` where numpy and pyarrow "
                                "are loaded: a notebook, more than 8 MiB of text)")):
        check_module._by_batch = lambda *_, batch=batch: batch
        with_lens, without = [], []
        for _ in range(runs):
            print(f"cost: indexed batch={batch}", file=sys.stderr)
            with_lens.append(_median_time(lambda: run_check(a_rows, b_rows, Settings()), 1))
            without.append(_median_time(
                lambda: run_check(a_rows, b_rows, Settings(rephrase=False)), 1))
        on, off = statistics.median(with_lens), statistics.median(without)
        lines.append(f"| {label} | {off:.3f} | {on:.3f} | {(on - off) / off:+.0%} |")
    check_module._by_batch = chosen_by_size
    print(f"cost: {len(a_rows)} A rows, {len(b_rows)} B rows", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        a_path = Path(tmp) / "a.jsonl"
        a_path.write_bytes(a_bytes)
        rows, _, _ = load_rows_by_file([str(a_path)], None)
        for b_mb in (2, 30):
            b_path = Path(tmp) / f"b{b_mb}.jsonl"
            b_path.write_bytes(b_bytes if b_mb == 2 else
                               to_jsonl(make_pair(2 * 2**20, b_mb * 2**20)[1], "b"))
            size = os.path.getsize(b_path) / 1e6
            streamed = {}
            for _ in range(runs):                  # alternating, each a median of its own
                for lens in (False, True):
                    print(f"cost: streamed {b_mb} MB lens={lens}", file=sys.stderr)
                    streamed.setdefault(lens, []).append(_median_time(
                        lambda: check_distributed(None, rows, [str(b_path)],
                                                  Settings(rephrase=lens), blocksize=2**20), 1))
            off, on = statistics.median(streamed[False]), statistics.median(streamed[True])
            lines.append(f"| streamed, {size:.0f} MB of B (B's rate, MB/s) | {size / off:.2f} | "
                         f"{size / on:.2f} | {off / on - 1:+.0%} rate |")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quality", action="store_true", help="the development table only")
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    print(f"{datetime.date.today()} · {platform.machine()} · {os.cpu_count()} cores · "
          f"Python {platform.python_version()} · threshold {REPHRASE_THRESHOLD}\n")
    print(quality())
    if not args.quality:
        print()
        print(cost(args.runs))


if __name__ == "__main__":
    main()
