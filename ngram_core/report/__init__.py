"""Stage 3, reporting: matches -> figures, definitions and the files a check writes.

Contract: :mod:`.summary` holds the flag rule, the summary and every sentence;
:mod:`.export` the two CSVs (formula cells neutralized); :mod:`.definitions`
the published contamination definitions exactly; :mod:`.scores`,
:mod:`.clean_split` and :mod:`.contamination` what follows a check;
:mod:`.result` is what every engine hands back and :mod:`.explore` shows it
row by row. Pure: data in, data out.
"""
