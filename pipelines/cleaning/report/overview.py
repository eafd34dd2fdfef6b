"""The top of the report: which runs it shows, their captions and videos per split, and what each step did
(the paper's Table 3, then every other figure of stats.json, named)."""
import pathlib

from pipelines.cleaning.report.layout import comparison_table
from pipelines.cleaning.report.run import Run, shown_folder, step_figures, steps_run
from pipelines.cleaning.report.validation import validation_summary
from pipelines.cleaning.steps import STEP_NAMES
from pipelines.pages.html import esc, page_header, section


# The four figures of the paper's Table 3, as stats.json names them.
STEP_FIGURES = (
    ("captions_changed", "captions changed"),
    ("captions_removed", "captions removed"),
    ("videos_touched", "videos touched"),
    ("tokens_changed", "tokens changed"),
)


def header_section(runs: list[Run], report_dir: pathlib.Path) -> str:
    rows = [
        ("folder", [f"<code>{esc(shown_folder(run))}</code>" for run in runs]),
        ("profile", [esc(run.stats.get("profile", "?")) for run in runs]),
        ("steps run", [esc(", ".join(steps_run(run.stats))) for run in runs]),
        ("made by", [esc(made_by(run)) for run in runs]),
        ("videos", [esc(videos_read(run)) for run in runs]),
        ("validation", [validation_summary(run, report_dir) for run in runs]),
    ]
    what = "one run" if len(runs) == 1 else "two runs side by side"
    lead = (f"What the cleaning did to the captions, {what}. Figures come from each run's <code>stats.json</code>, "
            "examples from its Parquet tables.")
    # One run needs no column headings; two are told apart by their labels.
    column_names = tuple(run.label for run in runs) if len(runs) == 2 else ()
    return page_header(f"{esc(' vs '.join(run.label for run in runs))}: capclean run report", lead,
                       [(name, *cells) for name, cells in rows], column_names)


def made_by(run: Run) -> str:
    """capclean's version and commit, from the run's manifest."""
    made = (run.manifest or {}).get("capclean")
    if not made:
        return "not recorded (no manifest.json)"
    commit = f", commit {made['commit'][:12]}" if made.get("commit") else ""
    return f"capclean {made.get('version', '?')}{commit}"


def videos_read(run: Run) -> str:
    """All the input's videos, or (a --limit run) which of them."""
    limit = run.stats.get("limit") or {}
    if run.stats.get("partial"):
        return (f"partial output: the first {limit.get('videos')} of {limit.get('videos_in_input')} videos "
                "(--limit)")
    return "all the input's videos"


def counts_section(runs: list[Run]) -> str:
    splits = sorted({split for run in runs for part in ("input", "output")
                     for by in ("captions_by_split", "videos_by_split")
                     for split in run.stats.get(part, {}).get(by, {})})
    columns = [("input/captions", "input captions"), ("input/videos", "input videos"),
               ("output/captions", "output captions"), ("output/videos", "output videos")]

    def value(run, split, column):
        part, what = column.split("/")
        figures = run.stats.get(part, {})
        return figures.get(what) if split == "total" else figures.get(f"{what}_by_split", {}).get(split)

    table = comparison_table("split", splits + ["total"], columns, runs, value)
    return (section("Captions and videos per split", table)
            + "<p class='note'>The per-split input figures count the records the reader could use; the "
              "input total counts every record read, unusable ones included.</p>")


def steps_section(runs: list[Run]) -> str:
    steps = list(STEP_NAMES) + sorted({step for run in runs for step in run.stats.get("steps", {})} - set(STEP_NAMES))

    def value(run, step, figure):
        figures = step_figures(run, step)
        return None if figures is None else figures.get(figure)

    table = comparison_table("step", steps, STEP_FIGURES, runs, value, table_id="step-figures")
    text = ("<p class='note'>The paper's Table 3: for each step, the captions it changed or removed, the "
            "videos with at least one such caption, and the tokens it changed. – : the step did not run.</p>")
    return section("What each step did", table + text + other_figures_table(runs, steps))


def other_figures_table(runs: list[Run], steps: list[str]) -> str:
    """Every figure of stats.json's steps beyond Table 3's four, named (FIGURE_LABELS), so new ones show
    without code changes; those another section shows (corrections by rule, flagged, recheck) are left out."""
    main = {figure for figure, _ in STEP_FIGURES}
    rows = []
    for step in steps:
        names = set()
        for run in runs:
            names |= {name for name in flatten(step_figures(run, step) or {})
                      if name not in main and not name.startswith(SHOWN_ELSEWHERE)}
        # A figure that is zero (or absent) in every run says nothing: it is left out.
        rows += [(step, name) for name in sorted(names)
                 if any((flatten(step_figures(run, step) or {}).get(name) or 0) != 0 for run in runs)]
    if not rows:
        return ""
    keys = {f"{step}: {figure_label(name)}": (step, name) for step, name in rows}

    def value(run, row, _column):
        step, name = keys[row]
        figures = step_figures(run, step)
        return None if figures is None else flatten(figures).get(name)

    table = comparison_table("step: figure", list(keys), [("value", "value")], runs, value, table_id="other-figures")
    return "<h3>Other figures of the steps</h3><p class='note'>Those that are not zero.</p>" + table


def flatten(figures: dict, prefix: str = "") -> dict:
    """{'a': {'b': 1}} -> {'a / b': 1}."""
    flat = {}
    for key, value in figures.items():
        if isinstance(value, dict):
            flat.update(flatten(value, f"{prefix}{key} / "))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


# What the report calls each figure stats.json keeps beyond Table 3's four (a `/ split` suffix is
# the figure per split). Figures shown in another section are left out here.
FIGURE_LABELS = {
    "tokens_removed": "words in the captions it removed",
    "videos_passed": "videos with a caption left after the checks of each caption alone",
    "captions_split": "captions split into sentences",
    "captions_split_by_split": "captions split into sentences",
    "sentences_by_split": "sentences of the split captions",
    "captions_added_by_split": "captions added from later sentences (policy separate)",
    "word_limit": "word limit of a caption",
}

SHOWN_ELSEWHERE = ("tokens_changed_by_rule", "tokens_flagged", "recheck_captions_changed")


def figure_label(name: str) -> str:
    """'sentences_by_split / test' -> 'sentences of the split captions, test'; an unknown figure reads as its key."""
    head, _, rest = name.partition(" / ")
    label = FIGURE_LABELS.get(head, head.replace("_", " "))
    return f"{label}, {rest}" if rest else label
