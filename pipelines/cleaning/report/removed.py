"""The captions the run removed: how many each step removed, and why."""
from pipelines.cleaning.report.layout import comparison_table, per_run
from pipelines.cleaning.report.run import Run, steps_run
from pipelines.cleaning.steps import STEP_NAMES
from pipelines.pages.html import esc, section


TOP_REASONS = 15


def removed_section(runs: list[Run]) -> str:
    steps = list(STEP_NAMES) + sorted({step for run in runs for step in run.removed["step"]} - set(STEP_NAMES))

    def value(run, step, _column):
        if step == "total":
            return len(run.removed)
        return int((run.removed["step"] == step).sum()) if step in steps_run(run.stats) else None

    table = comparison_table("step", steps + ["total"], [("removed", "captions removed")], runs, value)
    text = ("<p class='note'>Rows of <code>removed/</code> by the step that removed them, and the reasons "
            "(near-duplicates have theirs with their groups above).</p>")
    return section("Removed captions", table + text + per_run(runs, removal_reasons))


def removal_reasons(run: Run) -> str:
    parts = []
    if not (run.removed["step"] == "read").any():
        parts.append("<p>The reader removed no record: every input record was usable.</p>")
    for step in [step for step in STEP_NAMES if step != "dedup"] + sorted(set(run.removed["step"]) - set(STEP_NAMES)):
        reasons = run.removed.loc[run.removed["step"] == step, "reason"].value_counts()
        if reasons.empty:
            continue
        reasons = reasons.sort_index(kind="stable").sort_values(ascending=False, kind="stable")
        rows = [f"<tr><td>{esc(reason)}</td><td class='num'>{count:,}</td></tr>"
                for reason, count in reasons.head(TOP_REASONS).items()]
        if len(reasons) > TOP_REASONS:
            rest = reasons.iloc[TOP_REASONS:]
            rows.append(f"<tr><td><i>{len(rest):,} other reasons</i></td><td class='num'>{rest.sum():,}</td></tr>")
        parts.append(f"<table class='reasons'><caption>removed by {esc(step)}</caption><thead><tr><th>reason</th>"
                     f"<th class='num'>captions</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return "".join(parts)
