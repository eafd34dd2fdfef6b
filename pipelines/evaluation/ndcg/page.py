"""The nDCG report: one self-contained HTML page of the figures `capclean ndcg --report` computes.

`write_ndcg_report(FIGURES, PATH)` takes the figures as `ndcg_command` builds them (or the JSON
file `--json` writes with `--report`) and shows how the relevance was built, nDCG per proxy x
direction x gain beside the exact random baseline and the oracle, mAP, and how much the proxies
agree (Spearman's rho per video, the paper's Fig. 8). Figures are in percent, as the terminal
prints them; rho is on its own -1 to 1 scale.

Like the other evaluation pages (pipelines/pages/: html.py, charts.py) it is a list of sections, each
one small function returning HTML; it loads nothing, escapes every text taken from the inputs, and
the same figures give the same bytes (no date). It carries page_files.PAGE_MARK, by which a
later run knows it may replace the page.
"""
import json
from pathlib import Path

from pipelines.output.page_files import write_page
from pipelines.pages.charts import BAR_COLOR, legend, page_html, read_figures, share_bars
from pipelines.pages.html import esc, format_figure, page_header, percent, points, section
from transforms.errors import CapcleanError

TITLE = "capclean nDCG report"
DIRECTIONS = ("t2v", "v2t", "mean")
RANDOM_COLOR = "#a0a0a0"
AT_LEAST = 0.5  # the paper's Fig. 8 finds every pair of proxies at 0.5 or above


class NdcgReportError(CapcleanError):
    """Figures the report cannot read, or a page it cannot write."""


def write_ndcg_report(figures, path) -> Path:
    """Write the page of `figures` (a dict, or the path of the JSON file) to `path`; return it."""
    figures = read_figures(figures, "nDCG", NdcgReportError)
    page = page_html(TITLE, ndcg_sections(figures))
    try:
        return write_page(page, Path(path))
    except OSError as error:
        raise NdcgReportError(f"cannot write the report to {path}: {error.strerror or error}") from None


def ndcg_sections(figures: dict) -> list:
    sections = [header_section(figures), ndcg_section(figures)]
    if "map" in figures or "map_random" in figures:
        sections.append(map_section(figures))
    sections.append(agreement_section(figures.get("agreement")))
    return sections


def random_tables(figures: dict) -> dict:
    """The random baseline per proxy: computed beside a model's figures, or the figures themselves."""
    return figures["proxies"] if figures["scores"] == "random" else figures.get("random", {})


# ---------------------------------------------------------------- the settings

def header_section(figures: dict) -> str:
    settings = figures.get("settings") or {}
    scores = figures["scores"]
    source = {"random": "random: the exact expected value of a uniformly random ranking",
              "oracle": "oracle: each query ranked by the relevance itself"}.get(scores)
    rows = [("relevance", f"<code>{esc(figures['relevance'])}</code>"),
            ("built from", f"<code>{esc(settings['input'])}</code>" if "input" in settings else "not recorded"),
            ("split", esc(settings.get("split", "not recorded"))),
            ("reading", reading_text(settings.get("reading"))),
            ("pairs with relevance &gt; 0", pairs_text(settings.get("pairs"))),
            ("gallery", f"{figures['videos']:,} videos x {figures['captions']:,} captions"),
            ("cut-off", esc(figures["cutoff"])),
            ("scores", esc(source) if source else f"a model's: <code>{esc(scores)}</code>")]
    if figures.get("protocol"):
        rows.insert(-2, ("protocol", protocol_text(figures["protocol"])))
    lead = ("A retrieval model scored by graded semantic relevance, after Wray, Doughty and Damen (2021), <i>On "
            "Semantic Similarity in Video Retrieval</i>: every (video, caption) pair has a relevance computed from "
            "the captions by one of the proxies, and nDCG measures how well a ranking follows it. Figures are in "
            "percent; docs/commands/ndcg.md gives each definition.")
    return page_header(TITLE, lead, rows)


def protocol_text(protocol: dict) -> str:
    """The protocol the gallery is (--protocol): its name, how the matrix was laid out, how 1k-A matched."""
    parts = [esc(protocol["name"]) + ": the protocol's texts x its videos, the relevance's other pairs left aside"]
    if protocol.get("scores"):
        parts.append(f"the scores read as {esc(protocol['scores'])}")
    matching = protocol.get("matching")
    if matching:
        parts.append(f"sentences matched to captions: {matching['exact']:,} exactly, {matching['normalised']:,} once "
                     f"normalised; {matching['several_sen_ids']:,} match several (the first one's row)")
    return "; ".join(parts)


def reading_text(reading) -> str:
    """The recorded reading of the construction, one `key: value` per setting (nested values as JSON)."""
    if not isinstance(reading, dict) or not reading:
        return "not recorded"
    return "<br>".join(f"{esc(key)}: <code>{esc(value if isinstance(value, str) else json.dumps(value))}</code>"
                       for key, value in sorted(reading.items()))


def pairs_text(pairs) -> str:
    if not isinstance(pairs, dict) or not pairs:
        return "not recorded"
    return ", ".join(f"{esc(proxy)} {format_figure(count)}" for proxy, count in pairs.items())


# ---------------------------------------------------------------- nDCG

def ndcg_section(figures: dict) -> str:
    model, random = figures["proxies"], random_tables(figures)
    gains = list(next(iter(model.values()))["mean"])
    parts = [ndcg_table_html(model, random, gain) for gain in gains]
    parts += [ndcg_bars(model, random, gain, figures["scores"]) for gain in gains]
    note = ("<p class='note'>t2v: each caption ranks the videos; v2t: each video ranks the captions; mean: their "
            "mean, the paper's figure. Random: the exact expectation of a uniformly random ranking (closed form, no "
            "seeds). Oracle: the ideal ranking, 100 by construction. Linear gain: the authors' released code; "
            "exponential (2<sup>S</sup> − 1): the paper's Eq. 2-3.</p>")
    return section("nDCG per proxy and direction", "".join(parts) + note)


def ndcg_table_html(model: dict, random: dict, gain: str) -> str:
    head = "".join(f"<th class='num'>{direction}</th><th class='num'>random</th>" for direction in DIRECTIONS)
    rows = "".join(f"<tr><th>{esc(proxy)}</th>" + "".join(
        f"<td class='num'>{points(table[direction][gain])}</td>"
        f"<td class='num note'>{points(random[proxy][direction][gain]) if proxy in random else '–'}</td>"
        for direction in DIRECTIONS) + "<td class='num note'>100.0</td></tr>" for proxy, table in model.items())
    return (f"<h3>{esc(gain)} gain</h3><table class='figures'><thead><tr><th>proxy</th>{head}"
            f"<th class='num'>oracle</th></tr></thead><tbody>{rows}</tbody></table>")


def ndcg_bars(model: dict, random: dict, gain: str, scores: str) -> str:
    """One row per proxy and direction: the scores' bar, and under it the random baseline's (unless the
    scores are the random ranking itself)."""
    name = "random" if scores == "random" else ("oracle" if scores == "oracle" else "model")
    rows = []
    for proxy, table in model.items():
        for direction in DIRECTIONS:
            bars = [(name, table[direction][gain], points(table[direction][gain]))]
            if scores != "random" and proxy in random:
                value = random[proxy][direction][gain]
                bars.append(("random", value, points(value)))
            rows.append((f"{proxy} {direction}", bars))
    colors = {name: BAR_COLOR, "random": RANDOM_COLOR} if scores != "random" else {"random": RANDOM_COLOR}
    chart = share_bars(rows, f"nDCG per proxy and direction, {gain} gain", colors, percent=True)
    return f"<h3>{esc(gain)} gain, as bars</h3>{legend(colors)}{chart}"


# ---------------------------------------------------------------- mAP

def map_section(figures: dict) -> str:
    # The oracle has no mAP (it ranks by graded relevance, not by the labels): then only the random row.
    rows = [("scores" if figures["scores"] != "random" else "random", figures["map"])] if "map" in figures else []
    if "map_random" in figures:
        rows.append(("random", figures["map_random"]))
    body = "".join(f"<tr><th>{name}</th>" + "".join(f"<td class='num'>{points(row[key])}</td>" for key in DIRECTIONS)
                   + "</tr>" for name, row in rows)
    note = ("<p class='note'>The classic labels: a caption's own video is its only relevant video (t2v), a video's own "
            "captions its relevant captions (v2t). Ties count against the model.</p>")
    return section("mAP with the own captions", "<table class='figures'><thead><tr><th></th>"
                   + "".join(f"<th class='num'>{key}</th>" for key in DIRECTIONS)
                   + f"</tr></thead><tbody>{body}</tbody></table>{note}")


# ---------------------------------------------------------------- proxy agreement

def agreement_section(pairs) -> str:
    title = "Proxy agreement: Spearman's rho per video"
    if pairs is None:
        return section(title, "<p>Not computed (<code>--no-agreement</code>).</p>")
    if not pairs:
        return section(title, "<p>The relevance has one proxy: no pair to compare.</p>")
    share = f"share_at_least_{AT_LEAST}"
    rows = "".join(agreement_row(pair, summary, share) for pair, summary in pairs.items())
    table = ("<table class='figures'><thead><tr><th>pair</th><th class='num'>videos</th><th class='num'>mean</th>"
             "<th class='num'>median</th><th class='num'>min</th>"
             f"<th class='num'>videos with rho ≥ {AT_LEAST}</th></tr></thead><tbody>{rows}</tbody></table>")
    chart = share_bars([(pair, [("mean rho", summary.get("mean"), rho(summary.get("mean"))),
                                (f"share ≥ {AT_LEAST}", summary.get(share), percent(summary.get(share)))])
                        for pair, summary in pairs.items()],
                       "Mean rho per pair of proxies, and the share of videos at 0.5 or above",
                       {"mean rho": BAR_COLOR, f"share ≥ {AT_LEAST}": RANDOM_COLOR})
    note = ("<p class='note'>For each video, the rank correlation of the relevances two proxies give every caption "
            "(zeros included, ties averaged), summarised over the videos; a video one proxy finds nothing relevant "
            "for has no rho and is counted apart. The paper's Fig. 8 finds every pair at 0.5 or above on MSR-VTT. "
            "A negative rho draws no bar.</p>")
    return section(title, table + legend({"mean rho": BAR_COLOR, f"share ≥ {AT_LEAST}": RANDOM_COLOR}) + chart + note)


def agreement_row(pair: str, summary: dict, share: str) -> str:
    undefined = f" ({summary['undefined']:,} undefined)" if summary.get("undefined") else ""
    return (f"<tr><th>{esc(pair)}</th><td class='num'>{summary['queries']:,}{undefined}</td>"
            f"<td class='num'>{rho(summary.get('mean'))}</td><td class='num'>{rho(summary.get('median'))}</td>"
            f"<td class='num'>{rho(summary.get('min'))}</td><td class='num'>{percent(summary.get(share))}</td></tr>")


def rho(value) -> str:
    return "–" if value is None else f"{value:.3f}"
