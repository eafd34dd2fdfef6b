"""How the report shows one run, or two side by side: per-run parts in two columns, tables of figures
with a column per run (a second run's figure that differs marked), and a colour per run in the plots."""
from pipelines.cleaning.report.run import Run
from pipelines.pages.html import esc, format_figure


RUN_COLORS = ("#1f5fa8", "#d9661f")


def per_run(runs: list[Run], render) -> str:
    """`render(run)` for each run: one after the other in two columns when comparing."""
    if len(runs) == 1:
        return render(runs[0])
    columns = "".join(f"<div><h3>{esc(run.label)}</h3>{render(run)}</div>" for run in runs)
    return f"<div class='columns'>{columns}</div>"


def comparison_table(corner: str, rows: list[str], columns, runs: list[Run], value, table_id: str = "") -> str:
    """A table of figures: one row per `rows`, and under each column one cell per run.

    `value(run, row, column_key)` gives a cell's figure, None when there is none.
    With two runs, a second run's figure that differs from the first is marked.
    """
    if len(runs) == 1:
        head = f"<tr><th>{esc(corner)}</th>" + "".join(f"<th class='num'>{esc(title)}</th>" for _, title in columns) + "</tr>"
    else:
        head = (f"<tr><th rowspan='2'>{esc(corner)}</th>"
                + "".join(f"<th colspan='{len(runs)}' class='group'>{esc(title)}</th>" for _, title in columns)
                + "</tr><tr>" + "".join(f"<th class='num run'>{esc(run.label)}</th>" for _ in columns for run in runs)
                + "</tr>")
    body = []
    for row in rows:
        cells = []
        for key, _ in columns:
            figures = [value(run, row, key) for run in runs]
            for index, figure in enumerate(figures):
                differs = index > 0 and figure != figures[0]
                classes = "num first" if index == 0 and len(runs) > 1 else "num"
                cells.append(f"<td class='{classes}{' differs' if differs else ''}'>{format_figure(figure)}</td>")
        kind = " class='total'" if row == "total" else ""
        body.append(f"<tr data-row='{esc(row)}'{kind}><th>{esc(row)}</th>{''.join(cells)}</tr>")
    table_id = f" id='{table_id}'" if table_id else ""
    return f"<table class='figures'{table_id}><thead>{head}</thead><tbody>{''.join(body)}</tbody></table>"
