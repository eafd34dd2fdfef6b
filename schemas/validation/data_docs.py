"""Data Docs that read offline.

GX's pages load their styling and scripts from CDNs, and its index page fills its tables with
those scripts, so offline it is a bare, empty page: capclean takes those loads out of every page,
gives the pages a plain inline style, and writes the index itself from the records
(docs_dir/index.html), so that the site reads offline.
"""
from __future__ import annotations

import html
import os
import re
from pathlib import Path

from schemas.validation.outcomes import plural

# Every stylesheet and script a GX page loads from the network, and every script (they all need
# jQuery or Vega from a CDN; without them they only raise errors).
REMOTE_LINK = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?\s*(?:https?:)?//[^>]*>", re.IGNORECASE)
SCRIPT = re.compile(r"<script\b[^>]*>.*?</script\s*>", re.IGNORECASE | re.DOTALL)
# A CSS url() or a src attribute (an image, a frame) that points at the network.
REMOTE_CSS_URL = re.compile(r"url\(\s*[\"']?\s*(?:https?:)?//[^)]*\)", re.IGNORECASE)
REMOTE_SRC = re.compile(r"\ssrc\s*=\s*(?:\"\s*(?:https?:)?//[^\"]*\"|'\s*(?:https?:)?//[^']*'|(?:https?:)?//[^\s>]*)",
                        re.IGNORECASE)
BODY_START = re.compile(r"<body\b[^>]*>", re.IGNORECASE)
HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)

# The plain style a GX page gets in place of Bootstrap's: readable tables, and the
# success and failure marks that Font Awesome would draw as icons.
OFFLINE_CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1d1d1d;
       max-width: 1180px; margin: 16px auto; padding: 0 20px; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border-bottom: 1px solid #e0e0e0; padding: 3px 10px; text-align: left; vertical-align: top; }
thead th { border-bottom: 1.5px solid #333; }
.capclean-notice { background: #fff6d6; border: 1px solid #e0c870; padding: 8px 12px; margin: 0 0 16px; }
.fa-check-circle::before { content: "\\2714"; color: #0f5a0f; font-style: normal; font-weight: 600; }
.fa-times::before { content: "\\2718"; color: #a11; font-style: normal; font-weight: 600; }
.pass { color: #0f5a0f; font-weight: 600; }
.fail { color: #a11; font-weight: 600; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
td.observed { color: #444; font-size: 0.9em; word-break: break-word; }
img:not([src]) { display: none; }  /* GX's logo, whose image was on the network */
"""


def make_docs_offline(docs_dir: Path, records: list[dict], failures: list[str]) -> None:
    """Make the GX site in `docs_dir` load nothing from the network, and write its index page.

    GX Core 1.x has no setting for local copies of Bootstrap, jQuery, Font Awesome and
    Vega, and its index page fills its tables with those scripts. So each page loses its
    remote stylesheets and its scripts and gets a plain inline style and a notice; its
    content is static HTML and stays. The index page is capclean's: every expectation with
    its result and observed value, linked to GX's page of each suite's result.
    """
    index = docs_dir / "index.html"
    for page in sorted(docs_dir.rglob("*.html")):
        if page == index:
            continue
        back = Path(os.path.relpath(index, page.parent)).as_posix()
        page.write_text(offline_page(page.read_text(encoding="utf-8"), back), encoding="utf-8")
    index.write_text(docs_index_page(docs_dir, records, failures), encoding="utf-8")


def offline_page(page: str, index_link: str) -> str:
    """A GX page without remote stylesheets or scripts, with the plain style and a notice linking the index."""
    page = SCRIPT.sub("", REMOTE_LINK.sub("", page))
    page = REMOTE_SRC.sub("", REMOTE_CSS_URL.sub("none", page))
    notice = (f"<div class='capclean-notice'>This Great Expectations page loads nothing from the internet: "
              f"capclean took out its stylesheets and scripts, which GX loads from CDNs, so it is plainly "
              f"styled and its menus do not fold. <a href='{html.escape(index_link)}'>Every expectation and its "
              f"result</a>.</div>")
    page = HEAD_END.sub(lambda _: f"<style>{OFFLINE_CSS}</style></head>", page, count=1)
    return BODY_START.sub(lambda match: match.group(0) + notice, page, count=1)


def docs_index_page(docs_dir: Path, records: list[dict], failures: list[str]) -> str:
    """capclean's index of the Data Docs: one table per suite, self-contained, no script."""
    esc = html.escape
    failed = [record for record in records if not record["success"]]
    verdict = ("<span class='pass'>passed</span>" if not failures
               else f"<span class='fail'>failed ({plural(len(failures), 'failure')})</span>")
    parts = [f"<h1>capclean output validation: the table checks {verdict}</h1>",
             f"<p>{plural(len(records), 'expectation')} checked by Great Expectations, {len(failed)} failed. "
             "The same records are in <code>result.json</code> (<code>expectations</code>) and in the run's "
             "<code>report.html</code>.</p>"]
    if failures:
        parts.append("<ul>" + "".join(f"<li class='fail'>{esc(line)}</li>" for line in failures) + "</ul>")
    for suite in dict.fromkeys(record["suite"] for record in records):
        rows = [record for record in records if record["suite"] == suite]
        links = []
        table = rows[0]["table"]
        # One result page per suite, under a folder named by the time GX ran it.
        results = sorted((docs_dir / "validations" / "capclean" / table).rglob("*.html"))
        if results:
            links.append(f"<a href='{esc(results[-1].relative_to(docs_dir).as_posix())}'>GX result page</a>")
        definition = docs_dir / "expectations" / "capclean" / f"{table}.html"
        if definition.is_file():
            links.append(f"<a href='{esc(definition.relative_to(docs_dir).as_posix())}'>GX suite page</a>")
        passed = sum(record["success"] for record in rows)
        body = "".join(
            f"<tr><td>{'<span class=pass>passed</span>' if record['success'] else '<span class=fail>FAILED</span>'}"
            f"</td><td><code>{esc(record['expectation'])}</code></td>"
            f"<td class='observed'>{esc(record['observed'])}</td></tr>" for record in rows)
        parts.append(f"<h2 id='{esc(suite)}'>{esc(suite)}: {passed} of {len(rows)} passed</h2>"
                     f"<p>{' · '.join(links)}</p>" if links else
                     f"<h2 id='{esc(suite)}'>{esc(suite)}: {passed} of {len(rows)} passed</h2>")
        parts.append("<table><thead><tr><th>result</th><th>expectation</th><th>observed</th></tr></thead>"
                     f"<tbody>{body}</tbody></table>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<title>capclean output validation</title>\n"
            f"<style>{OFFLINE_CSS}</style>\n</head>\n<body>\n" + "\n".join(parts) + "\n</body>\n</html>\n")
