"""What every HTML page of capclean is made of: the template and its CSS, escaping, sections, the header,
figures as text, a sample that never changes, and the words two texts do not share.

The cleaning report (pipelines/cleaning/report/) and the evaluation pages (pipelines/evaluation/*/page.py)
are built from these, so every page looks alike. A page must open anywhere, offline and years later,
so it loads nothing: the CSS is inline, and every text taken from the data goes through `esc`.
"""
import difflib
import hashlib
import html
import sys

from pipelines.output.page_files import PAGE_MARK


def esc(value) -> str:
    return html.escape(str(value))


def html_page(title: str, sections: list, css: str) -> str:
    """The whole page: `title` (text, escaped here) and its sections (HTML), styled by `css`."""
    return PAGE_TEMPLATE.format(title=esc(title), css=css, body="\n".join(sections))


def section(title: str, body: str) -> str:
    return f"<section><h2>{esc(title)}</h2>{body}</section>"


def page_header(title: str, lead: str, rows: list, column_names: tuple = ()) -> str:
    """What opens a page: its title, a lead paragraph and the table of what it describes, all HTML.

    `rows`: tuples (name, cell, ...), one cell per column; `column_names`: the columns' headings,
    for a table of more than one column (the cleaning report's two runs side by side)."""
    head = ""
    if column_names:
        head = "<thead><tr><th></th>" + "".join(f"<th>{esc(name)}</th>" for name in column_names) + "</tr></thead>"
    body = "".join(f"<tr><th>{name}</th>{''.join(f'<td>{cell}</td>' for cell in cells)}</tr>"
                   for name, *cells in rows)
    return f"<h1>{title}</h1><p class='lead'>{lead}</p><table class='header'>{head}<tbody>{body}</tbody></table>"


def is_number(figure) -> bool:
    """A Python or numpy integer or float. numpy is not imported for it: a numpy figure exists only
    in a process that imported numpy (pages that show none need not load it)."""
    if isinstance(figure, (int, float)):
        return True
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(figure, (numpy.integer, numpy.floating))


def format_figure(figure) -> str:
    if figure is None:
        return "–"
    if isinstance(figure, bool) or not is_number(figure):
        return esc(figure)
    if float(figure).is_integer():
        return f"{int(figure):,}"
    return f"{figure:,.3f}"


def percent(share) -> str:
    """A share as a percentage, one decimal: 0.4567 -> '45.7%'; None (no figure) -> '–'."""
    return "–" if share is None else f"{100 * share:.1f}%"


def points(share: float) -> str:
    """A share as percentage points, one decimal: 0.4567 -> '45.7'."""
    return f"{100 * share:.1f}"


def stable_keys(ids):
    """Each id's SHA-1 (of its text): an order that looks random and is the same on every rendering."""
    return ids.map(lambda value: hashlib.sha1(str(value).encode()).hexdigest())


def deterministic_sample(frame, id_column: str, size: int):
    """The `size` rows (of a DataFrame) whose id has the smallest SHA-1: a spread-out sample that never changes."""
    return (frame.assign(_key=stable_keys(frame[id_column])).sort_values(["_key", id_column]).head(size)
            .drop(columns="_key"))


def highlight_changes(before: str, after: str) -> tuple[str, str]:
    """Both texts, escaped, with the words only in `before` in <del> and those only in `after` in <ins>.

    Splitting on single spaces turns each extra space into an empty word, so a
    change of spacing alone (a leading or a doubled space) shows too, as ␣.
    """
    old, new = before.split(" "), after.split(" ")
    old_parts, new_parts = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            same = esc(" ".join(old[i1:i2]))
            old_parts.append(same)
            new_parts.append(same)
            continue
        if i2 > i1:
            old_parts.append(f"<del>{shown_words(old[i1:i2])}</del>")
        if j2 > j1:
            new_parts.append(f"<ins>{shown_words(new[j1:j2])}</ins>")
    return " ".join(old_parts), " ".join(new_parts)


def shown_words(words: list[str]) -> str:
    return " ".join(esc(word) if word else "<span class='space'>␣</span>" for word in words)


PAGE_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
""" + PAGE_MARK + """
{body}
</body>
</html>
"""

# System fonts only: the page must not fetch anything.
CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1d1d1d;
       max-width: 1180px; margin: 24px auto; padding: 0 20px; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #d0d0d0; padding-bottom: 0.2em; }
h3 { font-size: 1.05em; margin: 1.2em 0 0.4em; }
.lead { color: #444; margin-top: 0; }
.note { color: #555; font-size: 0.9em; max-width: 60em; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
table { border-collapse: collapse; margin: 0.6em 0 1em; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
th, td { padding: 3px 10px; text-align: left; vertical-align: top; }
thead th { border-bottom: 1.5px solid #333; font-weight: 600; }
tbody tr { border-bottom: 1px solid #e6e6e6; }
tbody th { font-weight: normal; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
th.group { text-align: center; border-bottom: 1px solid #999; }
th.run { font-weight: normal; font-style: italic; color: #444; }
td.first { border-left: 1px solid #e0e0e0; }
td.differs { background: #fff1b8; }
tr.total { border-top: 1.5px solid #333; font-weight: 600; }
tr.total th { font-weight: 600; }
table.header th { padding-right: 24px; }
.columns { display: grid; grid-template-columns: 1fr 1fr; gap: 28px; }
.columns > div { min-width: 0; }
.tables { display: flex; flex-wrap: wrap; gap: 0 28px; align-items: flex-start; }
td.arrow { color: #888; padding: 3px 2px; }
td.id { color: #777; font-variant-numeric: tabular-nums; width: 1%; white-space: nowrap; }
td.rule { color: #666; font-size: 0.85em; }
table.examples, table.groups { width: 100%; }
.before { color: #444; }
.after { margin-top: 2px; }
del { background: #fbd7d7; color: #8a1111; text-decoration: line-through; }
ins { background: #d3f2d3; color: #0f5a0f; text-decoration: none; }
.space { display: inline-block; }  /* an inline block escapes the strike-through, which would hide the ␣ */
tr.group th { background: #f3f3f3; font-weight: 600; font-size: 0.9em; }
tr.kept td { font-weight: 600; }
.tag { color: #0f5a0f; font-size: 0.8em; font-weight: 600; margin-left: 0.4em; }
.why { color: #666; font-size: 0.8em; }
img.plot { max-width: 100%; display: block; margin: 0.5em 0; }
.pass { color: #0f5a0f; font-weight: 600; }
td.sim { font-weight: 600; white-space: nowrap; }
mark { background: #ffe28a; }
span.id { color: #777; font-size: 0.85em; }
td.barcell { width: 170px; }
span.bar { display: inline-block; height: 0.8em; }
span.bar.before { background: #a0a0a0; }
span.bar.after { background: #1f5fa8; }
details summary { cursor: pointer; color: #1f5fa8; }
td.observed { color: #444; font-size: 0.9em; }
.fail { color: #a11; font-weight: 600; }
ul.validation li { margin: 0.3em 0; }
"""
