"""What Great Expectations found on the run's tables: passed or failed, a link to the Data Docs, and every
expectation with what it observed."""
import os
import pathlib
import urllib.parse

from pipelines.cleaning.report.layout import per_run
from pipelines.cleaning.report.run import Run
from pipelines.pages.html import esc, section


def validation_section(runs: list[Run], report_dir: pathlib.Path) -> str:
    items = []
    for run in runs:
        failures = (run.validation or {}).get("failures", [])
        listed = "".join(f"<li>{esc(failure)}</li>" for failure in failures)
        items.append(f"<li><b>{esc(run.label)}</b>: {validation_summary(run, report_dir)}"
                     f"{f'<ul>{listed}</ul>' if listed else ''}</li>")
    text = ("<p class='note'>Every expectation Great Expectations checked on the written tables, with what it "
            "observed (<code>validation/result.json</code>). The Data Docs (<code>validation/index.html</code>) "
            "show the same, and GX's own page of each suite; they load nothing from the internet.</p>")
    return section("Validation", f"<ul class='validation'>{''.join(items)}</ul>" + text
                   + per_run(runs, expectation_table))


def expectation_table(run: Run) -> str:
    """The run's expectations, by suite: failed ones open, each suite folded with its count."""
    records = (run.validation or {}).get("expectations")
    if not records:
        return "<p>This run's validation result lists no expectations (a run made before capclean recorded them).</p>"
    parts = []
    for suite in dict.fromkeys(record["suite"] for record in records):
        rows = [record for record in records if record["suite"] == suite]
        passed = sum(bool(record["success"]) for record in rows)
        body = "".join(
            f"<tr><td>{'<span class=pass>passed</span>' if record['success'] else '<span class=fail>FAILED</span>'}"
            f"</td><td><code>{esc(record['expectation'])}</code></td><td class='observed'>{esc(record['observed'])}"
            f"</td></tr>" for record in rows)
        opened = " open" if passed < len(rows) else ""
        parts.append(f"<details{opened}><summary>{esc(suite)}: {passed} of {len(rows)} passed</summary>"
                     f"<table class='expectations'><thead><tr><th>result</th><th>expectation</th><th>observed</th>"
                     f"</tr></thead><tbody>{body}</tbody></table></details>")
    failed = sum(not record["success"] for record in records)
    return f"<p>{len(records)} expectations, {failed} failed.</p>" + "".join(parts)


def validation_summary(run: Run, report_dir: pathlib.Path) -> str:
    if run.validation is None:
        result = "no validation result"
    elif run.validation.get("success"):
        result = "<span class='pass'>passed</span>"
    else:
        result = f"<span class='fail'>failed ({len(run.validation.get('failures', []))} expectations)</span>"
    docs = run.folder / "validation" / "index.html"
    if not docs.is_file():
        return f"{result}, no Data Docs"
    return f"{result}, <a href='{esc(relative_link(docs, report_dir))}'>Data Docs</a>"


def relative_link(target: pathlib.Path, report_dir: pathlib.Path) -> str:
    """A link to `target` that works from the report's folder, wherever both are moved together."""
    return urllib.parse.quote(pathlib.Path(os.path.relpath(target, report_dir)).as_posix())
