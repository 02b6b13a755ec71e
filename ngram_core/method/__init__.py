"""Stage 2, the method: rows -> tokens -> windows -> matches.

Contract: :mod:`.tokenize` turns text into token ids with ``[start, end)``
character ranges (modes and layers, the same in every engine);
:mod:`.index` indexes B's n-token windows (32 positions each), :mod:`.match`
walks A against them, :mod:`.template` finds A's shared instruction;
:mod:`.settings` is what a check is computed at. The streamed path's fast
first pass (:mod:`.window_filter`, :mod:`.tokenize_arrow`) never decides a
match: it only narrows where to look.
"""
