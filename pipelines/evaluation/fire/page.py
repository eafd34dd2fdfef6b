"""The FIRE report: one self-contained HTML page of the figures `capclean fire` computes.

`write_fire_report(FIGURES, PATH)` takes the figures as `fire_command` builds them (or the
fire.json it writes) and shows, for each model, C@1/5/10 and mAP per label set as a table
and bars, C@K per caption-length bin, and with two models their top-10 overlap, RBO and the
bootstrap. The figures are in percent, as the terminal prints them.

The page is a list of sections, each one small function of the figures returning HTML, so
another evaluation (say a semantic-relevance nDCG) adds its section by passing it in
`extra_sections`. Like every page (pipelines/pages/: html.py, charts.py) it loads nothing, escapes every text taken from the inputs, and the same figures give the
same bytes: no date, and no path but the prediction files as they were given.
"""
from pathlib import Path

from pipelines.output.page_files import write_page
from pipelines.pages.charts import BAR_COLOR, legend, page_html, read_figures, share_bars
from pipelines.pages.html import esc, format_figure, page_header, points, section
from transforms.errors import CapcleanError

TITLE = "capclean FIRE report"
FIGURES = ("C@1", "C@5", "C@10", "mAP")
LABEL_SET_COLORS = {"original": "#a0a0a0", "original+extra": BAR_COLOR, "original+others": "#2f7d32"}
LABEL_SET_MEANINGS = {"original": "its own video",
                      "original+extra": "and every video labelled relevant, from any model's pool",
                      "original+others": "and those labelled relevant from other models' pools only"}
K_COLORS = {"C@1": BAR_COLOR, "C@5": "#5b8fd0", "C@10": "#a9c4e8"}
MODELS = (("a", "A"), ("b", "B"))


class FireReportError(CapcleanError):
    """Figures the report cannot read, or a page it cannot write."""


def write_fire_report(figures, path, extra_sections=()) -> Path:
    """Write the page of `figures` (a dict, or the path of a fire.json) to `path`; return it.
    `extra_sections`: HTML strings (each a `section(...)`) put after the FIRE sections."""
    figures = read_figures(figures, "FIRE", FireReportError)
    page = page_html(TITLE, fire_sections(figures) + list(extra_sections))
    try:
        return write_page(page, Path(path))
    except OSError as error:
        raise FireReportError(f"cannot write the report to {path}: {error.strerror or error}") from None


def fire_sections(figures: dict) -> list:
    sections = [header_section(figures)]
    sections += [model_section(figures[key], name) for key, name in MODELS if key in figures]
    if "overlap" in figures:
        sections.append(overlap_section(figures["overlap"]))
    if "bootstrap" in figures:
        sections.append(bootstrap_section(figures["bootstrap"]))
    return sections


def header_section(figures: dict) -> str:
    normaliser = ("the relevant videos retrieved in the ranking (FIRE's code)"
                  if figures["ap_normaliser"] == "retrieved" else "every video labelled relevant")
    rows = [("ranks scored per query (depth)", format_figure(figures["depth"])),
            ("AP divided by", normaliser),
            ("labels matching no query (left out, --skip-unmatched-labels)",
             format_figure(figures.get("unmatched_labels", 0)))]
    if figures.get("ties"):
        rows.append(("ties", esc(figures["ties"])))
    rows += [(f"model {name}", model_name(figures[key])) for key, name in MODELS if key in figures]
    lead = ("A model's retrieval figures with the dataset's own positives and with the extra positives people "
            "labelled, after Rodriguez et al. (2022), <i>Fighting FIRe with FIRE: Assessing the Validity of "
            "Text-to-Video Retrieval Benchmarks</i>. C@K is the share of queries with a relevant video in the top K; "
            "figures are in percent. docs/commands/fire.md gives each definition.")
    return page_header(TITLE, lead, rows)


def model_name(model: dict) -> str:
    named = f" ({esc(model['model'])})" if model.get("model") else ""
    return f"<code>{esc(model['predictions'])}</code>{named}"


def model_section(model: dict, name: str) -> str:
    sets = model["label_sets"]
    parts = [legend({label_set: LABEL_SET_COLORS.get(label_set, BAR_COLOR) for label_set in sets}),
             label_set_bars(sets, name), label_set_table(sets)]
    if model.get("by_length"):
        parts.append(length_part(model["by_length"], name))
    return section(f"Model {name}", "".join(parts))


def label_set_bars(sets: dict, name: str) -> str:
    rows = [(figure, [(label_set, values[figure], points(values[figure])) for label_set, values in sets.items()])
            for figure in FIGURES]
    return share_bars(rows, f"Model {name}: C@1, C@5, C@10 and mAP per label set", LABEL_SET_COLORS, percent=True)


def label_set_table(sets: dict) -> str:
    head = "".join(f"<th class='num'>{figure}</th>" for figure in FIGURES)
    rows = "".join(f"<tr><th>{esc(label_set)}</th><td class='note'>{esc(LABEL_SET_MEANINGS.get(label_set, ''))}</td>"
                   f"<td class='num'>{values['queries']:,}</td>"
                   + "".join(f"<td class='num'>{points(values[figure])}</td>" for figure in FIGURES) + "</tr>"
                   for label_set, values in sets.items())
    return (f"<table class='figures'><thead><tr><th>label set</th><th>relevant to a query</th>"
            f"<th class='num'>queries</th>{head}</tr></thead><tbody>{rows}</tbody></table>")


def length_part(by_length: dict, name: str) -> str:
    ks = [figure for figure in FIGURES if figure in K_COLORS]
    rows = [(f"{length} words", [(k, values[k], points(values[k])) for k in ks])
            for length, values in by_length.items()]
    chart = share_bars(rows, f"Model {name}: C@K per caption length, original+extra labels", K_COLORS, percent=True)
    head = "".join(f"<th class='num'>{k}</th>" for k in ks)
    body = "".join(f"<tr><th>{esc(length)}</th><td class='num'>{values['queries']:,}</td>"
                   + "".join(f"<td class='num'>{points(values[k])}</td>" for k in ks) + "</tr>"
                   for length, values in by_length.items())
    note = ("<p class='note'>With every extra label (original+extra), by the query caption's number of words. "
            "Short, general captions have the most relevant videos, so they gain the most from the extra "
            "labels.</p>")
    return (f"<h3>C@K by caption length</h3>{legend({k: K_COLORS[k] for k in ks})}{chart}"
            f"<table class='figures'><thead><tr><th>words</th><th class='num'>queries</th>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>{note}")


def overlap_section(overlap: dict) -> str:
    rows = [("top-10 overlap", overlap["top10_overlap"], f"{points(overlap['top10_overlap'])}%"),
            (f"RBO (p = {overlap['rbo_p']:g})", overlap["rbo"], f"{overlap['rbo']:.3f}")]
    chart = share_bars([(label, [("", value, text)]) for label, value, text in rows],
                       "Top-10 overlap and rank-biased overlap of models A and B")
    note = (f"<p class='note'>Over the {overlap['queries']:,} queries both models ranked. Top-10 overlap: the share "
            "of their top 10 videos the two models share (in percent). Rank-biased overlap (Webber, Moffat, Zobel "
            "2010) weighs agreement by rank: 1 for the same ranking, 0 for disjoint ones.</p>")
    return section("Models A and B: how alike they rank", chart + note)


def bootstrap_section(boot: dict) -> str:
    needed = boot["queries_needed"]
    verdict = (f"{needed:,} annotated queries detect it at {boot['level']:.0%}" if needed
               else f"no number of queries tried detects it at {boot['level']:.0%}")
    lead = (f"<p>{esc(boot['figure'])}: A − B = {signed_points(boot['difference'])} points; {verdict} "
            f"({boot['resamples']:,} resamples, seed {boot['seed']}).</p>")
    rows = "".join(f"<tr><td class='num'>{int(size):,}</td><td class='num'>{signed_points(low)}</td>"
                   f"<td class='num'>{signed_points(high)}</td><td>{'yes' if low > 0 or high < 0 else 'no'}</td></tr>"
                   for size, (low, high) in boot["intervals"].items())
    table = ("<table class='figures'><thead><tr><th class='num'>queries</th><th class='num'>interval from</th>"
             f"<th class='num'>to</th><th>excludes 0</th></tr></thead><tbody>{rows}</tbody></table>")
    note = ("<p class='note'>For each number of queries, the percentile interval of the mean difference A − B "
            "(points of C@1) over resampled sets of that many queries; the difference is detected where the "
            "interval excludes zero.</p>")
    return section("Bootstrap: how many annotated queries detect the difference", lead + table + note)


def signed_points(share: float) -> str:
    return f"{100 * share:+.1f}"
