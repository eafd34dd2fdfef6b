"""The captions before and after cleaning: their vocabulary, how many each video has, and their length."""
import re

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from pipelines.cleaning.report.layout import RUN_COLORS, comparison_table, per_run
from pipelines.cleaning.report.run import Run, run_input_captions, step_figures
from pipelines.pages.html import section
from pipelines.pages.plots import embed_figure, plt


# A word, for the vocabulary figures: a run of letters or digits, lowercased, so that
# punctuation and case (which step I takes out) do not count as different words.
WORD = re.compile(r"[^\W_]+")


# How many captions are Python strings at once: a whole column of them at 10x MSR-VTT is hundreds of MiB.
CHUNK_ROWS = 100_000


def vocabulary(texts) -> set:
    """The distinct words of some captions (records without text have none)."""
    words = set()
    for chunk in in_chunks(texts):
        for text in chunk:
            if isinstance(text, str):
                words.update(WORD.findall(text.lower()))
    return words


def as_list(texts) -> list:
    """A column's values as a Python list: a pandas string column is read in one call, where going
    through it value by value costs a call into pyarrow per caption (seconds for MSR-VTT's)."""
    return texts.tolist() if isinstance(texts, pd.Series) else list(texts)


def in_chunks(texts):
    """A column's values as Python lists (as_list) of at most CHUNK_ROWS each."""
    if not isinstance(texts, pd.Series):
        yield list(texts)
        return
    for start in range(0, len(texts), CHUNK_ROWS):
        yield texts.iloc[start:start + CHUNK_ROWS].tolist()


def vocabulary_figures(run: Run) -> list[tuple[str, int, int]]:
    """(split or 'total', distinct words before cleaning, after): before is the input text rebuilt
    from the lineage (every record read, in the split its video has), after is `captions/`."""
    before = run_input_captions(run)
    splits = sorted(set(as_list(before["split"].dropna().drop_duplicates()))
                    | set(as_list(run.captions["split"].dropna().drop_duplicates())))
    # Each caption is read once: the total is the union of the splits' vocabularies and that of the
    # records of no split.
    before_by_split = {split: vocabulary(before.loc[before["split"] == split, "caption"]) for split in splits}
    after_by_split = {split: vocabulary(run.captions.loc[run.captions["split"] == split, "caption"])
                      for split in splits}
    rows = [(split, len(before_by_split[split]), len(after_by_split[split])) for split in splits]
    before_total = set().union(*before_by_split.values(), vocabulary(before.loc[before["split"].isna(), "caption"]))
    after_total = set().union(*after_by_split.values(),
                              vocabulary(run.captions.loc[run.captions["split"].isna(), "caption"]))
    rows.append(("total", len(before_total), len(after_total)))
    return rows


def captions_per_video(run: Run) -> tuple[pd.Series, pd.Series]:
    """Videos by their number of captions, before (input records) and after cleaning (`captions/`).

    Only the videos in `captions/` count: a record of a video the reader did not know belongs to none.
    """
    videos = set(as_list(run.captions["video_id"].drop_duplicates()))
    before = run_input_captions(run)
    before = before[before["video_id"].isin(videos)].groupby("video_id").size()
    after = run.captions.groupby("video_id").size()
    return before.value_counts().sort_index(), after.value_counts().sort_index()


def vocabulary_section(runs: list[Run]) -> str:
    tables = {run.label: vocabulary_figures(run) for run in runs}
    rows = list(dict.fromkeys(split for figures in tables.values() for split, _, _ in figures))

    def value(run, split, column):
        for name, before, after in tables[run.label]:
            if name == split:
                return {"before": before, "after": after, "change": after - before}[column]
        return None

    columns = [("before", "words before cleaning"), ("after", "words after"), ("change", "change")]
    table = comparison_table("split", rows, columns, runs, value, table_id="vocabulary")
    text = ("<p class='note'>Distinct words: runs of letters and digits, lowercased, so that case and "
            "punctuation do not make two words. \"Before\" is the input text of every caption read, rebuilt from "
            "the edits (the caption of a removed record as it was read), \"after\" is <code>captions/</code>. "
            "The total counts records the reader removed too, which belong to no split.</p>")
    return section("Vocabulary before and after", table + text + per_run(runs, captions_per_video_table))


def captions_per_video_table(run: Run) -> str:
    before, after = captions_per_video(run)
    if before.empty and after.empty:
        return "<p>No videos.</p>"
    counts = sorted(set(before.index) | set(after.index))
    largest = max(int(before.max()) if len(before) else 0, int(after.max()) if len(after) else 0)
    rows = []
    for count in counts:
        cells = []
        for series, kind in ((before, "before"), (after, "after")):
            videos = int(series.get(count, 0))
            width = round(160 * videos / largest) if largest else 0
            bar = f"<span class='bar {kind}' style='width:{width}px'></span>" if videos else ""
            cells.append(f"<td class='num'>{videos:,}</td><td class='barcell'>{bar}</td>")
        rows.append(f"<tr data-row='{count}'><th class='num'>{count}</th>{''.join(cells)}</tr>")

    def mean(series):
        return (series.index.to_numpy() * series.to_numpy()).sum() / series.sum() if series.sum() else 0

    return (f"<table class='figures per-video' id='captions-per-video'><caption>captions per video: "
            f"{mean(before):.1f} on average before cleaning, {mean(after):.1f} after</caption><thead><tr>"
            "<th class='num'>captions</th><th class='num'>videos before</th><th></th><th class='num'>videos "
            f"after</th><th></th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


# Longer captions share the last bin of the length histogram, so a few 70-word
# captions do not squeeze the bulk of the distribution into the left edge.
LONGEST_BIN = 40


def word_counts(texts: pd.Series) -> np.ndarray:
    """Words per caption; a record without text (the reader removed it) has none to count."""
    counts = [np.array([len(text.split()) for text in chunk], dtype=int) for chunk in in_chunks(texts.dropna())]
    return np.concatenate(counts) if counts else np.array([], dtype=int)


def lengths_section(runs: list[Run]) -> str:
    series = length_series(runs)
    if not any(len(counts) for _, counts, _ in series):
        return section("Caption length before and after", "<p>No captions.</p>")
    limits = {}  # word limit of step IV -> the runs that used it
    for run in runs:
        limit = (step_figures(run, "runon") or {}).get("word_limit")
        if limit is not None:
            limits.setdefault(limit, []).append(run.label)
    figure = length_histogram(series, limits)
    text = ("<p class='note'>Words per caption. \"Before\" is the input text of every caption read, rebuilt "
            "from the edits; \"after\" is <code>captions/</code>.</p>")
    return section("Caption length before and after", figure + text)


def length_series(runs: list[Run]) -> list:
    """What the histogram draws: (legend, words per caption, how to draw it), inputs first."""
    series = []
    inputs = [word_counts(run_input_captions(run)["caption"]) for run in runs]
    # Two runs usually read the same input: then its histogram is drawn once.
    same_input = len(runs) == 2 and np.array_equal(np.bincount(inputs[0]), np.bincount(inputs[1]))
    for index, (run, counts) in enumerate(zip(runs, inputs)):
        if len(runs) == 1:
            name = "before cleaning"
        elif same_input:
            if index > 0:
                continue
            name = "before cleaning (both runs)"
        else:
            name = f"before cleaning ({run.label})"
        series.append((f"{name}: {len(counts):,} captions", counts, {"kind": "bars", "index": index}))
    for index, run in enumerate(runs):
        counts = word_counts(run.captions["caption"])
        name = "after cleaning" if len(runs) == 1 else f"after cleaning ({run.label})"
        series.append((f"{name}: {len(counts):,} captions", counts, {"kind": "line", "index": index}))
    return series


def length_histogram(series, limits: dict) -> str:
    """The overlaid histograms; `series` holds (legend, words per caption, how to draw), `limits` step IV's limits."""
    longest = min(LONGEST_BIN, max(int(counts.max()) for _, counts, _ in series if len(counts)))
    bins = np.arange(0.5, longest + 1.5)
    fig, ax = plt.subplots(figsize=(9, 3.8))
    for legend, counts, how in series:
        clipped = np.minimum(counts, longest)
        if how["kind"] == "bars":
            # Two different inputs overlap: both translucent, so neither hides the other.
            ax.hist(clipped, bins=bins, color="#a0a0a0" if how["index"] == 0 else "#e0a060", label=legend,
                    alpha=0.75 if how["index"] == 0 else 0.5)
        else:
            ax.hist(clipped, bins=bins, histtype="step", linewidth=1.8, color=RUN_COLORS[how["index"]], label=legend,
                    linestyle="-" if how["index"] == 0 else "--")
    for limit, labels in limits.items():
        whose = f" ({', '.join(labels)})" if len(limits) > 1 else ""
        # A caption of `limit` words is kept whole: the cut is between its bin and the next.
        ax.axvline(limit + 0.5, color="#555", linestyle=":", linewidth=1.2, label=f"run-on word limit{whose}: {limit}")
    ax.set_xlabel(f"words per caption (the last bin holds {longest} or more)" if longest == LONGEST_BIN
                  else "words per caption")
    ax.set_ylabel("captions")
    ax.set_xlim(0.5, max([longest, *(limit + 1 for limit in limits)]) + 0.5)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:,.0f}"))
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(frameon=False, fontsize=9)
    return embed_figure(fig, "Histogram of words per caption before and after cleaning")
