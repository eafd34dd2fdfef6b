"""Captions shown word by word, before and after: a few edits of each step, and where two runs differ."""
from pipelines.cleaning.report.layout import per_run
from pipelines.cleaning.report.run import Run
from pipelines.cleaning.steps import STEP_NAMES
from pipelines.pages.html import deterministic_sample, esc, highlight_changes, section


EXAMPLES_PER_STEP = 8


def examples_section(runs: list[Run]) -> str:
    text = (f"<p class='note'>Up to {EXAMPLES_PER_STEP} edited captions per step, the same ones on every "
            "rendering (those whose sen_id has the smallest SHA-1). Each shows the caption before the step, "
            "then after it: words the step took out are <del>struck</del>, words it put in are <ins>marked</ins>, and <del><span class='space'>␣</span></del> is a space taken out.</p>")
    return section("Examples of each step's edits", text + per_run(runs, step_examples))


def step_examples(run: Run) -> str:
    edits = run.edits
    steps = [step for step in STEP_NAMES if (edits["step"] == step).any()]
    steps += sorted(set(edits["step"]) - set(STEP_NAMES))
    if not steps:
        return "<p>No step edited a caption in this run.</p>"
    parts = []
    for step in steps:
        sample = deterministic_sample(edits[edits["step"] == step], "sen_id", EXAMPLES_PER_STEP)
        rows = []
        for row in sample.itertuples():
            before, after = highlight_changes(row.before, row.after)
            rows.append(f"<tr><td class='id'>{row.sen_id}</td><td><div class='before'>{before}</div>"
                        f"<div class='after'>{after}</div></td><td class='rule'>{esc(row.rule.replace(',', ', '))}</td></tr>")
        count = edits.loc[edits["step"] == step, "sen_id"].nunique()
        parts.append(f"<table class='examples'><caption>{esc(step)}: {count:,} captions edited</caption>"
                     f"<thead><tr><th>sen_id</th><th>before / after</th><th>rule</th></tr></thead>"
                     f"<tbody>{''.join(rows)}</tbody></table>")
    return "".join(parts)


DIFFERENCES_SHOWN = 10


def differences_section(runs: list[Run]) -> str:
    """Where the two runs' cleaned captions differ: the one thing a reader comparing them looks for."""
    first, second = runs
    both = first.captions[["sen_id", "caption"]].merge(second.captions[["sen_id", "caption"]], on="sen_id",
                                                       how="outer", suffixes=("_a", "_b"), indicator=True)
    only_first = int((both["_merge"] == "left_only").sum())
    only_second = int((both["_merge"] == "right_only").sum())
    changed = both[(both["_merge"] == "both") & (both["caption_a"] != both["caption_b"])]
    same = int((both["_merge"] == "both").sum()) - len(changed)
    summary = (f"<p>Cleaned captions with the same text in both runs: {same:,}; with different text: "
               f"{len(changed):,}; only in {esc(first.label)}: {only_first:,}; only in {esc(second.label)}: "
               f"{only_second:,}.</p>")
    if changed.empty:
        return section("Where the two runs differ", summary)
    rows = []
    for row in deterministic_sample(changed, "sen_id", DIFFERENCES_SHOWN).itertuples():
        text_a, text_b = highlight_changes(row.caption_a, row.caption_b)
        rows.append(f"<tr><td class='id'>{row.sen_id}</td><td><div class='before'>{text_a}</div>"
                    f"<div class='after'>{text_b}</div></td></tr>")
    table = (f"<table class='examples'><caption>up to {DIFFERENCES_SHOWN} captions that differ: "
             f"{esc(first.label)} above, {esc(second.label)} below</caption><thead><tr><th>sen_id</th>"
             f"<th>caption</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return section("Where the two runs differ", summary + table)
