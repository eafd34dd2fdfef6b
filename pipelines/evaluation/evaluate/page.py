"""The evaluate report: one self-contained HTML page of the figures `capclean evaluate --report` computes.

`write_evaluate_report(FIGURES, PATH)` takes the figures as evaluate_figures builds them (or the JSON file
--json writes) and shows the protocol, R@K, MdR and MnR per direction beside the exact random baseline,
R@K as bars, and, for 1k-A, how its sentences matched the captions. Like the other evaluation pages
(pipelines/pages/) it is a list of small sections, loads nothing, escapes every text from the inputs, and
the same figures give the same bytes.
"""
from pathlib import Path

from pipelines.evaluation.evaluate.ndcg_figures import ndcg_section
from pipelines.output.page_files import write_page
from pipelines.pages.charts import BAR_COLOR, legend, page_html, read_figures, share_bars
from pipelines.pages.html import esc, page_header, points, section
from transforms.errors import CapcleanError

TITLE = "capclean retrieval report"
RANDOM_COLOR = "#a0a0a0"
DIRECTIONS = {"t2v": "text-to-video", "v2t": "video-to-text"}
FIGURES = ("R@1", "R@5", "R@10", "MdR", "MnR")


class EvaluateReportError(CapcleanError):
    """Figures the report cannot read, or a page it cannot write."""


def write_evaluate_report(figures, path) -> Path:
    """Write the page of `figures` (a dict, or the path of the JSON file) to `path`; return it."""
    figures = read_figures(figures, "evaluate", EvaluateReportError)
    sections = [header_section(figures), figures_section(figures), bars_section(figures)]
    if figures.get("matching"):
        sections.append(matching_section(figures["matching"]))
    sections += ndcg_section(figures.get("ndcg"))
    if figures.get("fire"):
        from pipelines.evaluation.evaluate.fire_figures import fire_section

        sections.append(fire_section(figures["fire"]))
    if figures.get("posrank"):
        from pipelines.evaluation.evaluate.posrank_figures import posrank_page_section

        sections.append(posrank_page_section(figures["posrank"]))
    try:
        return write_page(page_html(TITLE, sections), Path(path))
    except OSError as error:
        raise EvaluateReportError(f"cannot write the report to {path}: {error.strerror or error}") from None


def header_section(figures: dict) -> str:
    rows = [("protocol", esc(figures["protocol"])),
            ("matrix", f"{figures['texts']:,} texts x {figures['videos']:,} videos"),
            ("scores", f"<code>{esc(figures['scores'])}</code>, {esc(figures['orientation'])}"),
            ("captions", f"<code>{esc(figures['input'])}</code>" if figures.get("input") else "not given"),
            ("ties", esc(figures["ties"])),
            ("video-to-text", esc(figures["v2t_positives"]))]
    lead = ("A retrieval model's similarity matrix scored as MSR-VTT papers report it: R@K is the share of queries "
            "with a positive in the top K (in percent), MdR and MnR the median and mean rank of the best-ranked "
            "positive. docs/commands/evaluate.md gives each definition.")
    return page_header(TITLE, lead, rows)


def figures_section(figures: dict) -> str:
    head = "".join(f"<th class='num'>{name}</th>" for name in FIGURES)
    body = ""
    for direction, title in DIRECTIONS.items():
        for source in ("model", "random"):
            row = figures[source][direction]
            cells = "".join(f"<td class='num{' note' if source == 'random' else ''}'>{cell(name, row[name])}</td>"
                            for name in FIGURES)
            body += f"<tr><th>{title}, {source}</th><td class='num'>{row['queries']:,}</td>{cells}</tr>"
    note = ("<p class='note'>Random: the exact expectation of a uniformly random ranking (closed form, no seeds) "
            "for R@K and MnR; for MdR the median of the random rank's distribution, which a random ranking's "
            "MdR approaches.</p>")
    return section("Retrieval", f"<table class='figures'><thead><tr><th></th><th class='num'>queries</th>{head}"
                   f"</tr></thead><tbody>{body}</tbody></table>{note}")


def cell(name: str, value: float) -> str:
    return points(value) if name.startswith("R@") else f"{value:,.1f}"


def bars_section(figures: dict) -> str:
    colors = {"model": BAR_COLOR, "random": RANDOM_COLOR}
    rows = [(f"{direction} {name}", [(source, figures[source][direction][name],
                                      points(figures[source][direction][name])) for source in colors])
            for direction in DIRECTIONS for name in FIGURES if name.startswith("R@")]
    return section("R@K, as bars", legend(colors) + share_bars(rows, "R@K per direction", colors, percent=True))


def matching_section(counts: dict) -> str:
    rows = [("character for character", counts["exact"]), ("once normalised", counts["normalised"]),
            ("not at all (the query keeps its text and video)", counts["unmatched"]),
            ("to several captions (all kept)", counts["several_sen_ids"])]
    body = "".join(f"<tr><th>{esc(name)}</th><td class='num'>{count:,}</td></tr>" for name, count in rows)
    note = ("<p class='note'>Each JSFusion sentence is matched to its video's captions: exactly first, else after "
            "lower-casing, dropping ':' and '/', and reading any other punctuation as a space. The figures above "
            "do not depend on it (a query's positive is its video); labels keyed by sen_id do.</p>")
    return section("1k-A sentences and captions", f"<table class='figures'><tbody>{body}</tbody></table>{note}")
