"""The run report: one self-contained HTML page about a capclean output folder.

`write_report(A)` describes one run; `write_report(A, B)` puts a second run beside
it (say the `paper` profile next to `default`). Everything the page shows comes
from the output folder: stats.json, the Parquet tables and validation/.

The page must open anywhere, offline and years later, and go into a paper's
appendix, so it loads nothing: the CSS is inline (pipelines/pages/html.py) and the
plots are PNGs embedded as data: URIs (pipelines/pages/plots.py). Every text taken
from the data is HTML-escaped.

One module per part of the page: run.py reads a run, layout.py lays out one run or
two, then one module per group of sections (overview, captions, spelling,
near_duplicates, examples, removed, validation), and page.py puts them in order.
"""
from pipelines.cleaning.report.page import write_report

__all__ = ["write_report"]
