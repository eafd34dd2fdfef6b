"""What the evaluation pages add to the shared HTML (pipelines/pages/html.py): horizontal bar charts in
inline SVG, their legend, the page with the charts' CSS, and reading the figures a page shows.

A bar chart is a label column, then the bars, then each bar's figure as text, so the page loads
nothing and a reader can copy the numbers. A page is a list of sections, each an HTML string made
by one small function, so a new figure adds one function and one line to the list.
"""
import json
from pathlib import Path

from pipelines.pages.html import CSS, esc, html_page

# SVG user units (about pixels): a label column, then the bars, then room for the figure.
LABEL_WIDTH = 110
BAR_AREA_WIDTH = 520
NUMBER_WIDTH = 150
ROW_HEIGHT = 26
AXIS_HEIGHT = 20
BAR_HEIGHT = 16
CHART_WIDTH = LABEL_WIDTH + BAR_AREA_WIDTH + NUMBER_WIDTH
SCALE_TICKS = (0, 0.25, 0.5, 0.75, 1)  # of the charts of shares and similarities
BAR_COLOR = "#1f5fa8"
CHANCE_COLOR = "#c0392b"

# Only what the charts add to the shared CSS.
BARS_CSS = """
svg.bars { display: block; margin: 0.5em 0; max-width: 100%; height: auto; }
svg.bars text { font: 12px system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; fill: #1d1d1d; }
.legend { font-size: 0.85em; color: #444; margin: 0.2em 0 0.6em; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; vertical-align: -0.1em; margin: 0 0.3em 0 0.8em; }
.swatch.line { width: 0; height: 1em; border-left: 2px solid """ + CHANCE_COLOR + """; }
svg.bars text.tick { fill: #666; font-size: 11px; }
"""


def page_html(title: str, sections: list, extra_css: str = "") -> str:
    """An evaluation page: the shared CSS, the charts' and the page's own (`extra_css`)."""
    return html_page(title, sections, CSS + BARS_CSS + extra_css)


def read_figures(figures, what: str, error: type) -> dict | None:
    """Figures given as a dict (or None) as they are, or read from the JSON file a command wrote;
    a file that cannot be read raises `error` naming it and `what` it should hold."""
    if figures is None or isinstance(figures, dict):
        return figures
    try:
        return json.loads(Path(figures).read_text(encoding="utf-8"))
    except (OSError, ValueError) as problem:
        raise error(f"cannot read {what} figures from {figures}: {problem}") from None


def legend(colors: dict, chance_line: bool = False) -> str:
    items = "".join(f"<span class='swatch' style='background:{color}'></span>{esc(name)}"
                    for name, color in colors.items())
    if chance_line:
        items += "<span class='swatch line'></span>chance"
    return f"<div class='legend'>{items}</div>"


def share_bars(rows: list, title: str, colors: dict | None = None, percent: bool = False) -> str:
    """A chart on the 0 to 1 scale. `rows`: (label, [(series, value, text)]): each row's bars one under
    the other, the label beside the first, `text` after each bar. `colors`: series -> colour (one
    series: BAR_COLOR). A value of None draws no bar, only its text. `percent`: the scale reads 0% to
    100%, for figures given in percent."""
    shapes, line = [], 0
    for label, bars in rows:
        shapes.append(svg_label(label, line * ROW_HEIGHT))
        for series, value, text in bars:
            y = line * ROW_HEIGHT
            width = BAR_AREA_WIDTH * min(max(value or 0.0, 0.0), 1.0)
            if value is not None:
                color = (colors or {}).get(series, BAR_COLOR)
                shapes.append(svg_bar(LABEL_WIDTH, y, width, color, f"{label}, {series}: {text}" if series
                                      else f"{label}: {text}"))
            shapes.append(svg_number(text, LABEL_WIDTH + width + 6, y))
            line += 1
    return svg_chart(svg_scale(line, percent) + shapes, line * ROW_HEIGHT + AXIS_HEIGHT, title)


def svg_chart(shapes: list, height: int, title: str) -> str:
    return (f"<svg class='bars' width='{CHART_WIDTH}' height='{height}' "
            f"viewBox='0 0 {CHART_WIDTH} {height}' role='img' aria-label='{esc(title)}'>"
            f"<title>{esc(title)}</title>{''.join(shapes)}</svg>")


def svg_label(text: str, y: float) -> str:
    return f"<text x='{LABEL_WIDTH - 8}' y='{y + ROW_HEIGHT / 2:.1f}' dy='0.35em' text-anchor='end'>{esc(text)}</text>"


def svg_number(text: str, x: float, y: float) -> str:
    return f"<text x='{x:.1f}' y='{y + ROW_HEIGHT / 2:.1f}' dy='0.35em'>{esc(text)}</text>"


def svg_bar(x: float, y: float, width: float, color: str, tooltip: str) -> str:
    top = y + (ROW_HEIGHT - BAR_HEIGHT) / 2
    return (f"<rect x='{x:.1f}' y='{top:.1f}' width='{width:.1f}' height='{BAR_HEIGHT}' fill='{color}'>"
            f"<title>{esc(tooltip)}</title></rect>")


def svg_scale(row_count: int, percent: bool = False) -> list:
    """Light lines at the ticks of the 0 to 1 scale, behind the bars, with their values below."""
    bottom = row_count * ROW_HEIGHT
    shapes = []
    for tick in SCALE_TICKS:
        x = LABEL_WIDTH + BAR_AREA_WIDTH * tick
        value = f"{100 * tick:g}%" if percent else f"{tick:g}"
        shapes += [f"<line class='grid' x1='{x:.1f}' x2='{x:.1f}' y1='0' y2='{bottom}' stroke='#e0e0e0'/>",
                   f"<text class='tick' x='{x:.1f}' y='{bottom + 14}' text-anchor='middle'>{value}</text>"]
    return shapes


def svg_chance(x: float, y: float, tooltip: str) -> str:
    return (f"<line class='chance' x1='{x:.1f}' x2='{x:.1f}' y1='{y + 2}' y2='{y + ROW_HEIGHT - 2}' "
            f"stroke='{CHANCE_COLOR}' stroke-width='2'><title>{esc(tooltip)}</title></line>")
