"""The report's page: its sections in order, for one run or two side by side, written to a file."""
import pathlib

from pipelines.cleaning.report.captions import lengths_section, vocabulary_section
from pipelines.cleaning.report.examples import differences_section, examples_section
from pipelines.cleaning.report.near_duplicates import duplicates_section
from pipelines.cleaning.report.overview import counts_section, header_section, steps_section
from pipelines.cleaning.report.removed import removed_section
from pipelines.cleaning.report.run import Run, label_runs, load_run
from pipelines.cleaning.report.spelling import corrections_section, flagged_section
from pipelines.cleaning.report.validation import validation_section
from pipelines.output.page_files import write_page
from pipelines.pages.html import CSS, html_page


def write_report(output_dir: str, compare_dir: str | None = None, report_path: str | None = None,
                 shown_as: str | None = None, tables: dict | None = None) -> pathlib.Path:
    """Write the HTML report of the run in `output_dir` (beside the run in `compare_dir`, if given).

    The page goes to `report_path`, by default `<output_dir>/report.html`. `shown_as`: the
    folder the page names for the run, when it is written before the run is put in place
    (`capclean clean` writes it in its staging folder). `tables`: that run's tables already
    read (load_run). Returns the path written.
    """
    runs = [load_run(output_dir, tables)]
    if shown_as is not None:
        runs[0].shown_as = pathlib.Path(shown_as)
    if compare_dir is not None:
        runs.append(load_run(compare_dir))
    label_runs(runs)
    path = pathlib.Path(report_path) if report_path else runs[0].folder / "report.html"
    path = path.resolve()
    return write_page(render_page(runs, path.parent), path)


def render_page(runs: list[Run], report_dir: pathlib.Path) -> str:
    title = "capclean run report: " + " vs ".join(run.label for run in runs)
    sections = [
        header_section(runs, report_dir),
        counts_section(runs),
        vocabulary_section(runs),
        steps_section(runs),
        lengths_section(runs),
        corrections_section(runs),
        flagged_section(runs),
        examples_section(runs),
        duplicates_section(runs),
        removed_section(runs),
    ]
    if len(runs) == 2:
        sections.append(differences_section(runs))
    sections.append(validation_section(runs, report_dir))
    return html_page(title, sections, CSS)
