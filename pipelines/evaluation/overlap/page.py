"""The overlap report: one self-contained HTML page about a `capclean overlap` output.

`write_overlap_report(DIR)` describes DIR: the settings, the exact leaks, the mean top-10
similarity to the training side and its correlation with caption length, that similarity
per length bin, and the false-negative candidates per length bin with a few examples.
The figures come from stats.json, the examples from fn_candidates/.

Like every page (pipelines/pages/: html.py, charts.py) it loads nothing, every text taken from
the data is HTML-escaped, and the same output gives the same bytes: no date, and no path but the
list files stats.json names.
"""
from pathlib import Path

import pyarrow.parquet as pq

from pipelines.evaluation.evaluation_io import read_output_stats
from pipelines.output.page_files import write_page
from pipelines.pages.charts import page_html, share_bars
from pipelines.pages.html import deterministic_sample, esc, format_figure, page_header, percent, section
from transforms.errors import CapcleanError
from transforms.evaluation.overlap import LENGTH_BINS, length_bin, word_count

TITLE = "capclean overlap report"
EXAMPLES_PER_BIN = 2
CORRELATIONS = (("spearman", "Spearman's ρ"), ("kendall", "Kendall's τ-b"))
LENGTHS = (("words", "length in words"), ("characters", "length in characters"))
EXTRA_CSS = """
table.examples td.sim { text-align: right; }
"""


class OverlapReportError(CapcleanError):
    """A folder the report cannot describe."""


def write_overlap_report(output_dir, report_path=None) -> Path:
    """Write the report of the `capclean overlap` output in `output_dir` (by default into
    `<output_dir>/report.html`); return the path written."""
    folder = Path(output_dir)
    stats = read_stats(folder)
    examples = candidate_examples(folder) if "fn_candidates" in stats else []
    return write_page(render_page(stats, examples), Path(report_path) if report_path else folder / "report.html")


def read_stats(folder: Path) -> dict:
    return read_output_stats(folder, "overlap", ("overlap",), OverlapReportError)


def candidate_examples(folder: Path) -> list:
    """A few queries' best candidate (the first row of each query: fn_candidates/ is in order of
    similarity), `EXAMPLES_PER_BIN` per length bin, the queries whose sen_id has the smallest SHA-1,
    so the choice is spread out and the same on every rendering. Each row also counts its
    query's candidate videos."""
    if not (folder / "fn_candidates").is_dir():
        return []
    frame = pq.read_table(folder / "fn_candidates").to_pandas()
    if frame.empty:
        return []
    counts = frame.groupby("query_sen_id").size()
    best = frame.drop_duplicates("query_sen_id").copy()
    best["candidates"] = best["query_sen_id"].map(counts)
    best["bin"] = [length_bin(word_count(text)) for text in best["query_caption"]]
    chosen = [deterministic_sample(group, "query_sen_id", EXAMPLES_PER_BIN)
              for _, group in best.groupby("bin", sort=False)]
    rows = [row for group in chosen for row in group.to_dict("records")]
    return sorted(rows, key=lambda row: (word_count(row["query_caption"]), row["query_sen_id"]))


# --- The page -------------------------------------------------------------------------------------

def render_page(stats: dict, examples: list) -> str:
    sections = [header_section(stats), leaks_section(stats), length_section(stats),
                candidates_section(stats, examples)]
    return page_html(TITLE, sections, EXTRA_CSS)


def header_section(stats: dict) -> str:
    settings = stats.get("settings", {})
    tfidf = settings.get("tfidf", {})
    ngrams = "-".join(str(n) for n in sorted(set(tfidf.get("ngram_range", []))))
    rows = [("queries", f"<code>{esc(settings.get('queries'))}</code>"),
            ("training side", f"<code>{esc(settings.get('train'))}</code>"),
            ("training captions", format_figure(stats.get("training_captions"))),
            ("training videos", format_figure(stats.get("training_videos"))),
            ("tf-idf", f"analyzer {esc(tfidf.get('analyzer'))}, {esc(ngrams)}-grams, fitted on the "
                       f"{esc(tfidf.get('fitted_on'))}"),
            ("nearest training captions averaged (top-k)", format_figure(settings.get("top_k")))]
    rows += selection_rows(stats.get("selection", {}))
    lead = ("How much of the query (test) captions the training side already holds, and which other test videos a "
            "query plausibly matches as well as its own: two threats to a retrieval benchmark's validity that "
            "Rodriguez et al. (2022), <i>Fighting FIRe with FIRE</i>, describe. Figures come from the output's "
            "<code>stats.json</code>, examples from its <code>fn_candidates/</code> table; "
            "docs/commands/overlap.md gives the method.")
    return page_header(TITLE, lead, rows)


def selection_rows(selection: dict) -> list:
    """What choosing the captions left out: the list rows not found or removed by the cleaning, and the
    query videos taken out of the training side."""
    rows = []
    if selection.get("protocol"):
        rows.append(("protocol", f"{esc(selection['protocol'])}: {selection['protocol_texts']:,} texts, "
                                 f"{selection['texts_without_caption']:,} matched no caption (not queried)"))
    if selection.get("listed") is not None:
        rows.append(("list rows", f"{selection['listed']:,}; not found {selection.get('not_found', 0):,}, removed "
                                  f"by the cleaning {selection.get('removed', 0):,}, replaced by the caption step "
                                  f"III kept {selection.get('replaced_by_kept', 0):,}"))
    rows.append(("query videos taken out of the training side",
                 format_figure(selection.get("query_videos_dropped_from_train", 0))))
    return rows


def leaks_section(stats: dict) -> str:
    overlap = stats["overlap"]
    top_k = stats.get("settings", {}).get("top_k", 10)
    summary = (f"<table class='figures' id='overlap'><tbody>"
               f"<tr><th>query captions</th><td class='num'>{overlap['queries']:,}</td></tr>"
               f"<tr><th>exact leaks (a training caption, case and spacing aside)</th><td class='num'>"
               f"{overlap['exact_leaks']:,} ({percent(overlap['exact_leak_share'])})</td></tr>"
               f"<tr><th>mean top-{top_k} similarity to the training side</th><td class='num'>"
               f"{format_similarity(overlap['mean_top10_similarity'])}</td></tr></tbody></table>")
    note = ("<p class='note'>Each query's similarity is the mean cosine of its tf-idf vector with those of its "
            f"{top_k} most similar training captions. The correlations are with the query's length: a negative "
            "one means the shorter the caption, the closer the training side comes to it. Rodriguez et al. "
            "(2022, Appendix D) find exactly that: short, general captions (\"a man is talking\") are the ones "
            "most present in training, so a model can score on them by remembering rather than by "
            "understanding the video.</p>")
    return section("Train/test overlap", summary + correlations_table(overlap.get("correlations", {})) + note)


def correlations_table(correlations: dict) -> str:
    if not correlations:
        return "<p>Too few queries (three or more) for a correlation.</p>"
    head = "".join(f"<th class='num'>{name}</th><th class='num'>p</th>" for _, name in CORRELATIONS)
    rows = []
    for length, label in LENGTHS:
        cells = "".join(f"<td class='num'>{correlations[f'{kind}_{length}']['coefficient']:.3f}</td>"
                        f"<td class='num'>{correlations[f'{kind}_{length}']['p_value']:.1e}</td>"
                        for kind, _ in CORRELATIONS)
        rows.append(f"<tr><th>{label}</th>{cells}</tr>")
    return (f"<table class='figures' id='correlations'><caption>correlation of the mean similarity with length"
            f"</caption><thead><tr><th></th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def length_section(stats: dict) -> str:
    by_length = stats["overlap"].get("by_length", {})
    rows = [(label, [("", counts["mean_top10_similarity"],
                      f"{format_similarity(counts['mean_top10_similarity'])} ({queries(counts['queries'])})")])
            for label, counts in in_length_order(by_length) if counts["queries"]]
    if not rows:
        return section("Similarity by caption length", "<p>No query.</p>")
    note = "<p class='note'>The mean top-10 similarity of the queries of each length, in words.</p>"
    return section("Similarity by caption length",
                   share_bars(rows, "Mean top-10 similarity to the training side per caption length") + note)


def candidates_section(stats: dict, examples: list) -> str:
    fn = stats.get("fn_candidates")
    if fn is None:
        return section("False-negative candidates", "<p>Not computed (<code>--no-fn-candidates</code>).</p>")
    settings = stats.get("settings", {})
    pool = "the protocol" if stats.get("selection", {}).get("protocol") else "the queries' split(s)"
    lead = (f"<p>{fn['with_candidate']:,} of {fn['queries']:,} queries ({percent(fn['share'])}) have at least one "
            f"candidate: another video among the {fn['pool_videos']:,} of {pool} with a caption whose "
            f"similarity to the query ({esc(settings.get('fn_similarity', 'step III'))}) is at least "
            f"{settings.get('fn_threshold'):g}; {fn['candidate_pairs']:,} pairs in all.</p>")
    rows = [(label, [("", counts["share"], f"{counts['with_candidate']:,} of {counts['queries']:,} "
                                           f"({percent(counts['share'])})")])
            for label, counts in in_length_order(fn["by_length"]) if counts["queries"]]
    chart = share_bars(rows, "Share of the queries with a false-negative candidate per caption length")
    note = ("<p class='note'>Queries with a candidate per caption length, in words. A candidate is a video the "
            "benchmark counts as wrong for the query although one of its captions says (nearly) the same: the "
            "short captions have the most, as the paper's extra positives are.</p>")
    return section("False-negative candidates", lead + chart + note + examples_table(examples))


def examples_table(examples: list) -> str:
    if not examples:
        return ""
    rows = "".join(
        f"<tr><td>{esc(row['query_caption'])} <span class='id'>{row['query_sen_id']}, "
        f"{esc(row['query_video_id'])}</span></td><td>{esc(row['candidate_video_id'])}</td>"
        f"<td>{esc(row['matching_caption'])} <span class='id'>{row['matching_sen_id']}</span></td>"
        f"<td class='sim'>{row['similarity']:.3f}</td><td class='num'>{row['candidates']:,}</td></tr>"
        for row in examples)
    note = (f"<p class='note'>{EXAMPLES_PER_BIN} queries of each length bin, chosen by the SHA-1 of their sen_id, "
            "each with its best candidate. Read them as leads: a generic caption fits many videos, a specific "
            "one may only share its words (docs/commands/overlap.md measures the precision).</p>")
    return ("<h3>Examples</h3><table class='examples' id='candidates'><thead><tr><th>query (sen_id, video)</th>"
            "<th>candidate video</th><th>its matching caption (sen_id)</th><th class='num'>similarity</th>"
            f"<th class='num'>candidates of the query</th></tr></thead><tbody>{rows}</tbody></table>" + note)


def in_length_order(by_length: dict) -> list:
    """(bin, counts) from shortest to longest: stats.json stores its keys sorted, "10-12" before "6-7"."""
    order = [label for label, _, _ in LENGTH_BINS]
    return sorted(by_length.items(), key=lambda item: (order.index(item[0]) if item[0] in order else -1, item[0]))


def queries(count: int) -> str:
    return f"{count:,} {'query' if count == 1 else 'queries'}"



def format_similarity(value) -> str:
    return "–" if value is None or value != value else f"{value:.3f}"  # None, or NaN (no training caption)
