"""The hard-negative report: one self-contained HTML page about a `capclean hardneg` output.

`write_hardneg_report(DIR)` describes the negatives in DIR: the settings, how often each
part of speech occurs beside the paper's figures, where the replacement words came from,
and a few captions with their negatives. Given a model's PoSRank figures (what
`capclean posrank --json` writes), it adds them as bars with the chance level.

Like every page (pipelines/pages/html.py gives the style and helpers they share) it loads
nothing: the CSS is inline and the bars are inline SVG (pipelines/pages/charts.py). Every text taken from the
data is HTML-escaped. The same inputs give the same bytes: the page holds no date and no
path but the input named in stats.json.
"""
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipelines.evaluation.hardneg.graph import PAPER_NEGATIVES
from pipelines.evaluation.evaluation_io import read_output_stats
from pipelines.output.page_files import write_page
from pipelines.pages.charts import (AXIS_HEIGHT, BAR_AREA_WIDTH, BAR_COLOR, LABEL_WIDTH, ROW_HEIGHT, legend,
                                    page_html, read_figures, svg_bar, svg_chance, svg_chart, svg_label, svg_number,
                                    svg_scale)
from pipelines.pages.html import esc, format_figure, highlight_changes, page_header, section
from transforms.errors import CapcleanError
from transforms.evaluation.hardneg import LEVELS, SOURCES
from transforms.evaluation.pos import PARTS_OF_SPEECH

TITLE = "capclean hard negatives report"
PARTS = tuple(PARTS_OF_SPEECH)
# The share of captions holding each part of speech in the paper (Chen, Doughty, Li, Snoek 2024, Table 2).
PAPER_SHARES = {"noun": 1.00, "verb": 0.92, "adjective": 0.36, "adverb": 0.09, "preposition": 0.71}
EXAMPLE_CAPTIONS_PER_PART = 3
NEGATIVES_PER_EXAMPLE = 3
SOURCE_COLORS = {"antonym": "#2f7d32", "related_antonym": "#1f5fa8", "vocabulary": "#a0a0a0"}
POSRANK_COLOR = BAR_COLOR
# Only what this page adds to the shared CSS (pipelines/pages/charts.py's charts included).
EXTRA_CSS = """
td.swap { white-space: nowrap; color: #444; font-size: 0.9em; width: 16em; }
table.examples td.rule { width: 9em; }
tr.total td.parts { font-weight: normal; color: #555; }
"""


class HardnegReportError(CapcleanError):
    """A folder the report cannot describe, or PoSRank figures it cannot read."""


def write_hardneg_report(output_dir, posrank_figures=None, report_path=None) -> Path:
    """Write the report of the `capclean hardneg` output in `output_dir`; return the path written.

    `posrank_figures`: a model's PoSRank, as transforms/evaluation/posrank.py's `posrank_figures`
    returns it or as the JSON file `capclean posrank --json` writes; without it the page has no
    PoSRank section. The page goes to `report_path`, by default `<output_dir>/report.html`.
    """
    folder = Path(output_dir)
    stats = read_stats(folder)
    page = render_page(stats, example_negatives(folder, stats_parts(stats)), read_posrank_figures(posrank_figures))
    return write_page(page, Path(report_path) if report_path else folder / "report.html")


# --- Reading the output ---------------------------------------------------------------------------

def read_stats(folder: Path) -> dict:
    return read_output_stats(folder, "hardneg", ("hardneg", "pos"), HardnegReportError)


def read_posrank_figures(figures) -> dict | None:
    """The figures as a dict: given as one, or read from the JSON file `capclean posrank --json` wrote
    (less its `written_by`)."""
    figures = read_figures(figures, "PoSRank", HardnegReportError)
    return None if figures is None else {key: value for key, value in figures.items() if key != "written_by"}


def stats_parts(stats: dict) -> list:
    """The parts of speech the run made negatives for, in the paper's order."""
    chosen = stats.get("settings", {}).get("parts", PARTS)
    return [part for part in PARTS if part in chosen]


def example_negatives(folder: Path, parts: list) -> dict:
    """part -> [(pos row, [its first negatives of the part])] for a few captions with negatives of it.

    Only the columns that pick the captions are read whole, so a large output is not loaded
    to show a few rows.
    """
    # video_id and part as dictionaries: a few thousand names in millions of rows.
    keys = pq.read_table(folder / "hardneg", columns=["sen_id", "video_id", "part"],
                         read_dictionary=["video_id", "part"]).unify_dictionaries()
    chosen = example_sen_ids(keys, parts)
    sen_ids = sorted({sen_id for ids in chosen.values() for sen_id in ids})
    negatives = rows_of(folder / "hardneg", sen_ids)
    negatives.sort(key=lambda row: (row["sen_id"], row["part"], LEVELS.index(row["level"]), row["k"]))
    captions = {row["sen_id"]: row for row in rows_of(folder / "pos", sen_ids)}
    return {part: [(captions.get(sen_id) or caption_from_negative(negatives, sen_id),
                    [row for row in negatives if row["sen_id"] == sen_id and row["part"] == part]
                    [:NEGATIVES_PER_EXAMPLE])
                   for sen_id in chosen[part]]
            for part in parts}


def rows_of(table: Path, sen_ids: list) -> list:
    """The rows of a table (a folder of Parquet files) with these sen_ids, as dicts."""
    if not sen_ids:
        return []
    return pq.read_table(table, filters=[("sen_id", "in", sen_ids)]).to_pylist()


def example_sen_ids(negatives: pa.Table, parts: list) -> dict:
    """part -> the captions its examples show, from the sen_id, video_id and part of the negatives: the
    first caption of each video, for the videos whose first caption comes first. One per video, because
    the captions of a video say much the same, and by sen_id, so the choice is the same on every rendering.
    Counted by Arrow, in one group by part and video: a split has millions of negatives."""
    first_of_video = negatives.group_by(["part", "video_id"], use_threads=False).aggregate([("sen_id", "min")])
    first = {part: [] for part in parts}
    for part, sen_id in zip(first_of_video["part"].to_pylist(), first_of_video["sen_id_min"].to_pylist()):
        if part in first:
            first[part].append(sen_id)
    return {part: sorted(sen_ids)[:EXAMPLE_CAPTIONS_PER_PART] for part, sen_ids in first.items()}


def caption_from_negative(negatives: list, sen_id: int) -> dict:
    """A caption missing from pos/ (the tables should not disagree) is shown from its negatives' rows."""
    row = next(row for row in negatives if row["sen_id"] == sen_id)
    return {"sen_id": sen_id, "video_id": row["video_id"], "caption": row["caption"], "tokens": None, "spaces": None}


# --- The page -------------------------------------------------------------------------------------

def render_page(stats: dict, examples: dict, posrank: dict | None) -> str:
    sections = [header_section(stats), shares_section(stats), sources_section(stats), examples_section(examples)]
    if posrank is not None:
        sections.append(posrank_section(posrank))
    return page_html(TITLE, sections, EXTRA_CSS)


def header_section(stats: dict) -> str:
    settings = stats.get("settings", {})
    rows = []
    if "input" in settings:
        rows.append(("input", f"<code>{esc(settings['input'])}</code>"))
    rows += [
        ("captions", format_figure(stats.get("captions"))),
        ("videos", format_figure(stats.get("videos"))),
        ("words per caption (mean)", format_mean(stats.get("mean_words"))),
        ("negatives per caption, part and level (K)", format_figure(settings.get("k"))),
        ("parts of speech", esc(", ".join(settings.get("parts", [])))),
        ("levels", esc(", ".join(settings.get("levels", [])))),
        ("vocabulary fallback for", esc(", ".join(settings.get("vocabulary_fallback", []))) or "no part"),
        ("vocabulary: least uses of a word", format_figure(settings.get("min_vocabulary_count"))),
        ("seed", format_figure(settings.get("seed"))),
    ]
    lead = ("The hard negatives <code>capclean hardneg</code> made: captions with one word (word level) or two "
            "consecutive words (phrase level) of one part of speech changed, after Chen, Doughty, Li and Snoek "
            "(2024), <i>Beyond Coarse-Grained Matching in Video-Text Retrieval</i>. Figures come from the output's "
            "<code>stats.json</code>, examples from its <code>hardneg/</code> and <code>pos/</code> tables.")
    return page_header(TITLE, lead, rows)


def format_mean(value) -> str:
    return "–" if value is None else f"{value:.2f}"


def shares_section(stats: dict) -> str:
    shares = stats.get("part_of_speech_shares", {})
    share_rows = "".join(
        f"<tr><th>{part}</th><td class='num'>{format_share(shares.get(part))}</td>"
        f"<td class='num'>{PAPER_SHARES[part]:.2f}</td></tr>" for part in PARTS)
    share_table = ("<table class='figures' id='shares'><caption>captions holding the part</caption><thead><tr>"
                   "<th>part</th><th class='num'>capclean</th><th class='num'>paper (Table 2)</th></tr></thead>"
                   f"<tbody>{share_rows}</tbody></table>")
    verbs = format_share(stats.get("verb_share_with_auxiliaries"))
    note = ("<p class='note'>The share of captions with at least one word of the part, as spaCy tags them. "
            f"Counting auxiliaries (<i>is</i>, <i>are</i>, <i>can</i>) as verbs, the verb share is {verbs}. "
            "The paper's counts are in thousands (K), as its Table 1 gives them: each caption with its 20 "
            "negatives, 21 texts (its count / 21 is the captions it scored); preposition here is spaCy's "
            "adposition (ADP). How many negatives a part gets depends most on the vocabulary fallback: see "
            "docs/commands/hardneg.md.</p>")
    return section("Parts of speech", f"<div class='tables'>{share_table}{negatives_table(stats)}</div>" + note)


def format_share(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def number_cells(numbers: list) -> str:
    return "".join(f"<td class='num'>{number:,}</td>" for number in numbers)


def negatives_table(stats: dict) -> str:
    """Negatives per part and level, their total, and the paper's count (Table 1) beside it."""
    levels = [level for level in LEVELS if level in stats.get("settings", {}).get("levels", LEVELS)]
    # With one level its column is the total already.
    with_total = len(levels) > 1
    head = "".join(f"<th class='num'>{level}</th>" for level in levels) + ("<th class='num'>total</th>" * with_total)
    rows = []
    for part in PARTS:
        counts = [level_total(stats, part, level) for level in levels]
        rows.append(f"<tr><th>{part}</th>{number_cells(counts + [sum(counts)] * with_total)}"
                    f"<td class='num'>{PAPER_NEGATIVES[part] / 1000:.2f}K</td></tr>")
    return ("<table class='figures' id='negatives'><caption>hard negatives</caption><thead><tr><th>part</th>"
            f"{head}<th class='num'>paper (Table 1)</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def level_total(stats: dict, part: str, level: str) -> int:
    return stats.get("negatives", {}).get(part, {}).get(level, {}).get("total", 0)


# --- Negatives per source -------------------------------------------------------------------------

def sources_section(stats: dict) -> str:
    counts = {part: source_counts(stats, part) for part in PARTS}
    head = "".join(f"<th class='num'>{esc(source)}</th>" for source in SOURCES)
    rows = "".join(f"<tr><th>{part}</th>{number_cells(list(counts[part].values()))}"
                   f"<td class='num'>{sum(counts[part].values()):,}</td></tr>" for part in PARTS)
    table = (f"<table class='figures' id='sources'><thead><tr><th>part</th>{head}<th class='num'>total</th></tr>"
             f"</thead><tbody>{rows}</tbody></table>")
    note = ("<p class='note'>Where a negative's replacement word came from, in the paper's order of priority: the "
            "word's antonym in WordNet, the antonym of a hypernym or hyponym (related_antonym), else a word of the "
            "same part of speech drawn from the captions' vocabulary. A phrase negative counts under the "
            "lowest-priority source of its two words. Word and phrase levels are added together.</p>")
    return section("Negatives per source", legend(SOURCE_COLORS) + source_bars(counts) + table + note)


def source_counts(stats: dict, part: str) -> dict:
    """source -> negatives of the part from it, over all levels."""
    levels = stats.get("negatives", {}).get(part, {})
    return {source: sum(counts.get(source, 0) for counts in levels.values()) for source in SOURCES}


def source_bars(counts: dict) -> str:
    """One stacked bar per part, all on one scale, so the parts' totals compare too."""
    largest = max([sum(by_source.values()) for by_source in counts.values()] + [1])
    rows = []
    for index, (part, by_source) in enumerate(counts.items()):
        y = index * ROW_HEIGHT
        rows.append(svg_label(part, y))
        x = LABEL_WIDTH
        for source in SOURCES:
            width = BAR_AREA_WIDTH * by_source[source] / largest
            if width > 0:
                rows.append(svg_bar(x, y, width, SOURCE_COLORS[source], f"{part}, {source}: {by_source[source]:,}"))
            x += width
        rows.append(svg_number(f"{sum(by_source.values()):,}", x + 6, y))
    return svg_chart(rows, len(counts) * ROW_HEIGHT, "Stacked bars of hard negatives per part of speech by source")


# --- Examples -------------------------------------------------------------------------------------

def examples_section(examples: dict) -> str:
    note = (f"<p class='note'>For each part of speech, {EXAMPLE_CAPTIONS_PER_PART} captions that have negatives of "
            "it, each of another video (the first caption of each video, by sen_id), and their first "
            f"{NEGATIVES_PER_EXAMPLE} negatives (word level first): the words put in are <ins>marked</ins>, the "
            "words they replace follow the arrow.</p>")
    tables = [part_examples(part, captions) for part, captions in examples.items()]
    return section("Examples per part of speech", note + "".join(tables))


def part_examples(part: str, captions: list) -> str:
    if not captions:
        return f"<h3>{esc(part)}</h3><p>No caption has negatives of this part.</p>"
    rows = []
    for caption, negatives in captions:
        rows.append(f"<tr class='group'><th colspan='4'>sen_id {caption['sen_id']}, {esc(caption['video_id'])}: "
                    f"{esc(caption['caption'])}</th></tr>")
        rows += [negative_row(caption, negative) for negative in negatives]
    return (f"<table class='examples'><caption>{esc(part)}</caption><thead><tr><th>level</th><th>negative</th>"
            f"<th>change</th><th>source</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def negative_row(caption: dict, negative: dict) -> str:
    swaps = zip(negative["originals"], negative["replacements"])
    change = ", ".join(f"{esc(old)} → {esc(new)}" for old, new in swaps)
    return (f"<tr><td class='id'>{esc(negative['level'])}</td><td>{marked_negative(caption, negative)}</td>"
            f"<td class='swap'>{change}</td><td class='rule'>{esc(negative['source'])}</td></tr>")


def marked_negative(caption: dict, negative: dict) -> str:
    """The negative's text, escaped, with its replacement words in <ins>.

    The caption's tokens give the exact words changed; should they not rebuild the negative
    (a pos/ row that disagrees with hardneg/), a word diff of the two texts marks them instead.
    """
    tokens, spaces = caption.get("tokens"), caption.get("spaces")
    changed = dict(zip(negative["positions"], negative["replacements"]))
    if tokens is not None and rebuilt_text(tokens, spaces, changed) == negative["text"]:
        pieces = [(f"<ins>{esc(changed[position])}</ins>" if position in changed else esc(token))
                  + (" " if space else "") for position, (token, space) in enumerate(zip(tokens, spaces))]
        return "".join(pieces)
    return highlight_changes(negative["caption"], negative["text"])[1]


def rebuilt_text(tokens: list, spaces: list, changed: dict) -> str:
    return "".join(changed.get(position, token) + (" " if space else "")
                   for position, (token, space) in enumerate(zip(tokens, spaces)))


# --- PoSRank --------------------------------------------------------------------------------------

def posrank_section(figures: dict) -> str:
    note = ("<p class='note'>PoSRank of a part: the mean over captions of 1 / the rank of the true caption among "
            "itself and its negatives of that part, each scored against the caption's own video (1 is perfect). "
            "Chance is what a scorer that guesses would get with the same number of negatives per caption; the mean "
            "is over the parts with negatives, as the paper reports it.</p>")
    levels = [level for level in LEVELS if level in figures] + sorted(set(figures) - set(LEVELS))
    blocks = [level_posrank(level, figures[level]) for level in levels]
    return section("PoSRank", note + legend({"PoSRank": POSRANK_COLOR}, chance_line=True) + "".join(blocks))


def level_posrank(level: str, figures: dict) -> str:
    rows = [part for part in PARTS if part in figures] + (["mean"] if "mean" in figures else [])
    shapes = svg_scale(len(rows))
    for index, row in enumerate(rows):
        y = index * ROW_HEIGHT
        posrank, chance = figures[row]["posrank"], figures[row]["chance"]
        shapes += [svg_label(row, y),
                   svg_bar(LABEL_WIDTH, y, BAR_AREA_WIDTH * posrank, POSRANK_COLOR, f"{row}: PoSRank {posrank:.3f}"),
                   svg_chance(LABEL_WIDTH + BAR_AREA_WIDTH * chance, y, f"{row}: chance {chance:.3f}"),
                   svg_number(f"{posrank:.3f} (chance {chance:.3f})", LABEL_WIDTH + BAR_AREA_WIDTH + 6, y)]
    chart = svg_chart(shapes, len(rows) * ROW_HEIGHT + AXIS_HEIGHT,
                      f"PoSRank per part of speech, {level} level, with the chance level")
    return f"<h3>{esc(level)} level</h3>{chart}{posrank_table(figures, rows)}"


def posrank_table(figures: dict, rows: list) -> str:
    body = []
    for row in rows:
        score = figures[row]
        if row == "mean":
            extra = f"<td class='parts' colspan='2'>over {esc(', '.join(score.get('parts', [])))}</td>"
        else:
            extra = (f"<td class='num'>{score['captions']:,}</td>"
                     f"<td class='num'>{score['negatives_per_caption']:.1f}</td>")
        kind = " class='total'" if row == "mean" else ""
        body.append(f"<tr{kind}><th>{esc(row)}</th><td class='num'>{score['posrank']:.3f}</td>"
                    f"<td class='num'>{score['chance']:.3f}</td>{extra}</tr>")
    return ("<table class='figures'><thead><tr><th>part</th><th class='num'>PoSRank</th><th class='num'>chance</th>"
            "<th class='num'>captions</th><th class='num'>negatives per caption</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")
