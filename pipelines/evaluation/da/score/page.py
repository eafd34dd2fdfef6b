"""The `capclean da score` report: one self-contained page of a scored study.

`write_da_score_report(DIR)` describes the output in DIR (stats.json, da_workers/, da_checks/, da_pairs/):
the inputs and settings, the system table with each mean z's 95% interval (as a table and as a chart),
the win matrix, and each worker's scores of originals against their degraded copies as a small scatter
(a trustworthy worker's points lie below the diagonal). Like every page (pipelines/pages/) it loads
nothing, escapes every text from the inputs, and the same output gives the same bytes.
"""
from pathlib import Path

import pyarrow.parquet as pq

from pipelines.evaluation.evaluation_io import read_output_stats
from pipelines.output.page_files import write_page
from pipelines.pages.charts import LABEL_WIDTH, ROW_HEIGHT, svg_chart, svg_label, page_html
from pipelines.pages.html import esc, format_figure, page_header, section
from transforms.errors import CapcleanError

TITLE = "capclean Direct Assessment report"
SCATTERS_SHOWN = 200  # workers drawn; a larger study lists every worker in the table, and draws the first ones
SCATTER_SIZE = 132  # SVG units of one worker's scatter, the 0-100 square inside a margin
SCATTER_MARGIN = 16
INTERVAL_WIDTH = 520
REFERENCE_TAG = " <span class='tag'>reference</span>"
KEPT_COLOR, DROPPED_COLOR = "#0f5a0f", "#a11"
EXTRA_CSS = """
.scatters { display: flex; flex-wrap: wrap; gap: 6px; }
.scatters figure { margin: 0; font-size: 0.8em; text-align: center; }
svg.scatter { display: block; border: 1px solid #ddd; }
table.wins td { text-align: center; min-width: 2.2em; }
td.win { background: #d3f2d3; }
td.self { background: #f3f3f3; }
"""


class DaScoreReportError(CapcleanError):
    """A folder the report cannot describe."""


def write_da_score_report(output_dir, report_path=None) -> Path:
    """Write the page of the `capclean da score` output in `output_dir` (by default its report.html)."""
    folder = Path(output_dir)
    figures = read_output_stats(folder, "da score", ("da_workers", "da_checks", "da_pairs"), DaScoreReportError)
    workers = pq.read_table(folder / "da_workers").to_pylist()
    checks = pq.read_table(folder / "da_checks", columns=["worker", "kind", "original_score", "check_score"]).to_pylist()
    pairs = pq.read_table(folder / "da_pairs").to_pylist()
    sections = [header_section(figures), systems_section(figures), wins_section(figures, pairs),
                workers_section(figures, workers, checks)]
    if "replication" in figures:
        sections.append(replication_section(figures["replication"]))
    return write_page(page_html(TITLE, sections, EXTRA_CSS), Path(report_path) if report_path else folder / "report.html")


def header_section(figures: dict) -> str:
    settings, inputs, workers = figures["settings"], figures["inputs"], figures["workers"]
    files = ", ".join(f"<code>{esc(Path(entry['path']).name)}</code>" for entry in inputs["judgments"])
    rows = [("HITs", f"<code>{esc(Path(inputs['hits']).name)}</code>, {inputs['slots']:,} slots"),
            ("judgments", f"{files}: {figures['judgments']:,}"),
            ("workers", f"{workers['kept']:,} kept of {workers['judged']:,}"),
            ("worker filter", esc(f"{settings['worker_test']}, one-sided, p < {settings['worker_alpha']}, at least "
                                  f"{settings['min_pairs']} good/degraded pairs")),
            ("z", esc(f"per worker, over {settings['z_over']}")),
            ("wins", esc(f"{settings['wins']}, p < {settings['win_alpha']}")),
            ("clusters", esc(settings["clusters"]))]
    lead = ("Crowd judgments of how adequately each caption describes its video (0-100), scored as Graham, Awad and "
            "Smeaton (2018) do: workers who do not score captions above their degraded copies are set aside, each "
            "kept worker's scores are standardised (z), and systems are ranked by their captions' mean z. Check "
            "items never count in a system's score. docs/commands/da-score.md says how each figure is computed.")
    return page_header(TITLE, lead, rows)


def systems_section(figures: dict) -> str:
    rows = figures["systems"]
    if not rows:
        return section("Systems", "<p class='note'>No system is scored: no worker was kept.</p>")
    head = ("<tr><th class='num'>rank</th><th class='num'>cluster</th><th>system</th><th class='num'>captions</th>"
            "<th class='num'>judgments</th><th class='num'>raw mean</th><th class='num'>z mean</th>"
            "<th>z 95% interval</th><th class='num'>rank range</th></tr>")
    body = "".join(
        f"<tr><td class='num'>{row['rank']}</td><td class='num'>{row['cluster']}</td><th>{esc(row['system'])}"
        f"{REFERENCE_TAG if row['kind'] == 'reference' else ''}</th>"
        f"<td class='num'>{row['captions']:,}</td><td class='num'>{row['n']:,}</td>"
        f"<td class='num'>{row['raw_mean']:.1f}</td><td class='num'>{row['z_mean']:.3f}</td>"
        f"<td>[{row['z_low']:.3f}, {row['z_high']:.3f}]</td><td class='num'>{rank_range(row)}</td></tr>"
        for row in rows)
    return section("Systems", f"<table><thead>{head}</thead><tbody>{body}</tbody></table>" + interval_chart(rows))


def rank_range(row: dict) -> str:
    return str(row["best_rank"]) if row["best_rank"] == row["worst_rank"] else f"{row['best_rank']}–{row['worst_rank']}"


def interval_chart(rows: list) -> str:
    """Each system's mean z as a dot on its 95% interval, on one scale."""
    low = min(min(row["z_low"] for row in rows), 0.0)
    high = max(max(row["z_high"] for row in rows), 0.0)
    span = (high - low) or 1.0
    x = lambda value: LABEL_WIDTH + INTERVAL_WIDTH * (value - low) / span  # noqa: E731
    shapes = [f"<line x1='{x(0):.1f}' x2='{x(0):.1f}' y1='0' y2='{len(rows) * ROW_HEIGHT}' stroke='#bbb'/>"]
    for at, row in enumerate(rows):
        y = at * ROW_HEIGHT + ROW_HEIGHT / 2
        shapes += [svg_label(row["system"], at * ROW_HEIGHT),
                   f"<line x1='{x(row['z_low']):.1f}' x2='{x(row['z_high']):.1f}' y1='{y:.1f}' y2='{y:.1f}' "
                   "stroke='#1f5fa8' stroke-width='2'/>",
                   f"<circle cx='{x(row['z_mean']):.1f}' cy='{y:.1f}' r='4' fill='#1f5fa8'><title>"
                   f"{esc(row['system'])}: z {row['z_mean']:.3f} [{row['z_low']:.3f}, {row['z_high']:.3f}]</title>"
                   "</circle>"]
    height = len(rows) * ROW_HEIGHT + 20
    shapes += [f"<text class='tick' x='{x(value):.1f}' y='{height - 4}' text-anchor='middle'>{value:.2f}</text>"
               for value in (low, 0.0, high)]
    return svg_chart(shapes, height, "mean z of each system with its 95% interval")


def wins_section(figures: dict, pairs: list) -> str:
    ranked = [row["system"] for row in figures["systems"]]
    if len(ranked) < 2:
        return section("Win matrix", "<p class='note'>Fewer than two systems: nothing to compare.</p>")
    by_pair = {(pair["system"], pair["other"]): pair for pair in pairs}
    head = "<tr><th></th>" + "".join(f"<th>{esc(system)}</th>" for system in ranked) + "</tr>"
    body = ""
    for system in ranked:
        cells = ""
        for other in ranked:
            if other == system:
                cells += "<td class='self'>–</td>"
                continue
            pair = by_pair[system, other]
            mark = "✓" if pair["wins"] else ""
            cells += (f"<td class='{'win' if pair['wins'] else ''}' title='p = {pair['p_value']:.4g}'>{mark}</td>")
        body += f"<tr><th>{esc(system)}</th>{cells}</tr>"
    note = (f"<p class='note'>A tick: the row's system beats the column's (one-sided Wilcoxon rank-sum test of the "
            f"captions' mean z, p &lt; {figures['settings']['win_alpha']}); each cell's p is its tooltip. Systems in "
            "rank order.</p>")
    return section("Win matrix", f"<table class='wins'><thead>{head}</thead><tbody>{body}</tbody></table>{note}")


def workers_section(figures: dict, workers: list, checks: list) -> str:
    head = ("<tr><th>worker</th><th>status</th><th class='num'>judgments</th><th class='num'>pairs</th>"
            "<th class='num'>original mean</th><th class='num'>degraded mean</th><th class='num'>p</th>"
            "<th class='num'>repeat p</th><th class='num'>s per item</th></tr>")
    body = "".join(
        f"<tr><th>{esc(worker['worker'])}</th><td class='{'pass' if worker['kept'] else 'fail'}'>"
        f"{esc(worker['status'])}</td><td class='num'>{worker['judgments']:,}</td><td class='num'>{worker['pairs']}</td>"
        f"<td class='num'>{format_figure(worker['original_mean'])}</td>"
        f"<td class='num'>{format_figure(worker['degraded_mean'])}</td><td class='num'>{p_text(worker['p_value'])}</td>"
        f"<td class='num'>{p_text(worker['repeat_p_value'])}</td>"
        f"<td class='num'>{format_figure(worker['seconds_per_item'])}</td></tr>" for worker in workers)
    points = {}
    for check in checks:
        if check["kind"] == "degraded":
            points.setdefault(check["worker"], []).append((check["original_score"], check["check_score"]))
    shown = workers[:SCATTERS_SHOWN]
    scatters = "".join(worker_scatter(worker, points.get(worker["worker"], [])) for worker in shown)
    more = (f" The first {SCATTERS_SHOWN} of {len(workers):,} workers are drawn." if len(workers) > SCATTERS_SHOWN
            else "")
    note = ("<p class='note'>Each square: one worker's score of an original caption (x) against their score of its "
            "degraded copy (y), 0-100; a worker who reads the captions puts the points below the diagonal. Green: "
            f"kept; red: not kept.{more}</p>")
    return section("Workers", f"{note}<div class='scatters'>{scatters}</div>"
                   f"<table><thead>{head}</thead><tbody>{body}</tbody></table>")


def p_text(p) -> str:
    return "–" if p is None else f"{p:.3g}"


def worker_scatter(worker: dict, points: list) -> str:
    inner = SCATTER_SIZE - 2 * SCATTER_MARGIN
    at = lambda score: SCATTER_MARGIN + inner * score / 100  # noqa: E731
    color = KEPT_COLOR if worker["kept"] else DROPPED_COLOR
    shapes = [f"<rect x='{SCATTER_MARGIN}' y='{SCATTER_MARGIN}' width='{inner}' height='{inner}' fill='none' "
              "stroke='#ccc'/>",
              f"<line x1='{at(0)}' y1='{SCATTER_SIZE - at(0)}' x2='{at(100)}' y2='{SCATTER_SIZE - at(100)}' "
              "stroke='#bbb' stroke-dasharray='3 3'/>"]
    shapes += [f"<circle cx='{at(x):.1f}' cy='{SCATTER_SIZE - at(y):.1f}' r='2.5' fill='{color}' "
               "fill-opacity='0.7'/>" for x, y in points]
    title = f"{worker['worker']}: {worker['status']}, {len(points)} pairs"
    return (f"<figure><svg class='scatter' width='{SCATTER_SIZE}' height='{SCATTER_SIZE}' role='img' "
            f"aria-label='{esc(title)}'><title>{esc(title)}</title>{''.join(shapes)}</svg>"
            f"<figcaption>{esc(worker['worker'])}</figcaption></figure>")


def replication_section(replication: dict) -> str:
    if replication["pearson_raw"] is None:
        text = f"{replication['systems']} systems scored in both runs: Pearson's r needs at least three."
    else:
        text = (f"Over the {replication['systems']} systems both runs scored, Pearson's r of the system means is "
                f"{replication['pearson_raw']:.3f} (raw) and {replication['pearson_z']:.3f} (z); the second run "
                f"kept {replication['workers_kept']:,} workers of {replication['judgments']:,} judgments.")
    return section("Replication", f"<p>{esc(text)}</p>")
