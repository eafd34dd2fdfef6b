"""Step III on the page: the sizes of its near-duplicate groups, the removed captions by their similarity,
and a few of them spread over the similarity range, each beside the caption it was compared with."""
import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from pipelines.cleaning.report.layout import RUN_COLORS, per_run
from pipelines.cleaning.report.run import Run, caption_texts
from pipelines.cleaning.report.spelling import most_common
from pipelines.pages.html import esc, highlight_changes, section, stable_keys
from pipelines.pages.plots import embed_figure, plt


DUPLICATE_EXAMPLES = 10

# Bands of the similarity histogram of removed near-duplicates.
SIMILARITY_BAND = 0.025


def duplicates_section(runs: list[Run]) -> str:
    groups = [duplicate_group_sizes(run) for run in runs]
    if not any(len(sizes) for sizes in groups):
        return section("Near-duplicate groups", "<p>No near-duplicates were removed.</p>")
    text = (f"<p class='note'>Each group is the caption kept for it (the longest) and the near-duplicates of the "
            f"same video removed in its favour. Below, the removed captions by their similarity, then "
            f"{DUPLICATE_EXAMPLES} of them spread over the similarity range, nearest the threshold first (the same "
            "on every rendering). Each is shown against the caption it was compared with: the one its reason "
            "names, with the similarity step III recorded; a removed caption that opened its group is compared "
            "with the caption its pass kept, with the similarity step III decided on (marked *). Words only in the removed caption are "
            "<del>struck</del>, words only in the other <ins>marked</ins>.</p>")
    return section("Near-duplicate groups", group_size_plot(runs, groups) + text + per_run(runs, duplicate_examples))


def duplicate_group_sizes(run: Run) -> pd.Series:
    """Captions per near-duplicate group (the kept one included), one entry per group."""
    dups = run.removed[run.removed["step"] == "dedup"]
    return dups.groupby("kept_sen_id").size() + 1


def group_size_plot(runs: list[Run], groups: list[pd.Series]) -> str:
    largest = max(int(sizes.max()) for sizes in groups if len(sizes))
    sizes = np.arange(2, largest + 1)
    width = 0.8 / len(runs)
    fig, ax = plt.subplots(figsize=(9, 2.8))
    for index, (run, group) in enumerate(zip(runs, groups)):
        heights = group.value_counts().reindex(sizes, fill_value=0).to_numpy()
        offset = (index - (len(runs) - 1) / 2) * width
        bars = ax.bar(sizes + offset, heights, width=width, color=RUN_COLORS[index],
                      label=f"{run.label}: {len(group):,} groups, {int(group.sum() - len(group)):,} captions removed")
        ax.bar_label(bars, labels=[f"{height:,}" if height else "" for height in heights], fontsize=7, padding=1)
    ax.set_xticks(sizes)
    ax.set_xlim(1.4, max(largest, 4) + 0.6)
    ax.set_xlabel("captions in the group (kept + removed)")
    # Pairs outnumber larger groups a hundredfold: a log scale keeps those visible.
    ax.set_yscale("log")
    ax.set_ylabel("groups (log scale)")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:,.0f}"))
    ax.margins(y=0.15)
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(frameon=False, fontsize=9)
    return embed_figure(fig, "Bar chart of near-duplicate group sizes")


def duplicate_examples(run: Run) -> str:
    dups = near_duplicates(run)
    if dups.empty:
        return "<p>No near-duplicates were removed in this run.</p>"
    if dups["similarity"].isna().all():
        return ("<p>This run's removed/ does not record step III's similarities (an earlier capclean wrote it): "
                "clean it again to see them here.</p>")
    threshold = dedup_threshold(run)
    bands = similarity_bands(dups, threshold)
    band_rows = "".join(f"<tr><td>{esc(band)}</td><td class='num'>{count:,}</td></tr>" for band, count in bands)
    threshold_text = f"threshold s = {threshold:g}" if threshold is not None else "threshold unknown"
    rows = []
    for row in spread_examples(dups, threshold).itertuples():
        other = row.other if isinstance(row.other, str) else ""
        removed_text, other_text = highlight_changes(row.caption, other) if other else (esc(row.caption), "")
        tag = " <span class='tag'>kept</span>" if row.kept else ""
        mark = "*" if row.opened else ""
        rows.append(f"<tr><td class='num sim'>{row.similarity:.3f}{mark}</td><td class='id'>{row.sen_id}<br>"
                    f"{'' if pd.isna(row.other_id) else row.other_id}</td><td><div class='before'>{removed_text}</div>"
                    f"<div class='after'>{other_text or '<i>(not found)</i>'}{tag}</div>"
                    f"<div class='why'>{esc(row.video_id)}: {esc(row.reason)}</div></td></tr>")
    return (f"<table class='figures bands' id='similarity-bands'><caption>removed near-duplicates by similarity "
            f"({threshold_text})</caption><thead><tr><th>similarity</th><th class='num'>captions</th></tr></thead>"
            f"<tbody>{band_rows}</tbody></table>"
            f"<table class='groups' id='near-duplicates'><thead><tr><th class='num'>similarity</th><th>sen_id</th>"
            f"<th>removed caption, then the caption it was compared with</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def dedup_threshold(run: Run):
    """The similarity threshold s the run's step III used (None if it removed nothing)."""
    values = run.removed.loc[run.removed["step"] == "dedup", "similarity_threshold"].dropna()
    return float(most_common(values)) if len(values) else None


def near_duplicates(run: Run) -> pd.DataFrame:
    """The captions step III removed, each with the caption it was compared with and their similarity,
    as step III recorded them in removed/ (`compared_sen_id`, `similarity`).

    Columns: those of removed/, and other_id (the caption compared with), other (its text), kept
    (whether it is the caption kept for the group), opened (whether the removed caption opened its
    group: then the other is the caption kept at the time, and the page marks the similarity);
    `similarity` to three decimals, as the page shows it.
    """
    dups = run.removed[run.removed["step"] == "dedup"].copy()
    if dups.empty:
        return dups.assign(other_id=[], other=[], kept=[], opened=[])
    text_of = caption_texts(run, dups["compared_sen_id"])
    dups["other_id"] = dups["compared_sen_id"]
    dups["other"] = [text_of.get(other) if pd.notna(other) else None for other in dups["other_id"]]
    dups["kept"] = (dups["other_id"] == dups["kept_sen_id"]).fillna(False).astype(bool)
    dups["opened"] = (dups["opener_sen_id"] == dups["sen_id"]).fillna(False).astype(bool)
    # Python's round, which rounds the binary value exactly (numpy's can round a 0.xxx5 the other way),
    # as the reasons write the similarity.
    dups["similarity"] = [round(value, 3) for value in dups["similarity"]]
    return dups


def spread_examples(dups: pd.DataFrame, threshold, size: int = DUPLICATE_EXAMPLES) -> pd.DataFrame:
    """Up to `size` rows spread over the similarity range, lowest (nearest the threshold) first.

    The targets are `size` similarities evenly spaced from the threshold (the lowest similarity
    if none is known) to 1; each takes the unused row closest to it, ties to the smallest SHA-1
    of its sen_id, so every rendering picks the same rows.
    """
    rows = dups[dups["similarity"].notna()]
    if rows.empty:
        return rows
    low = threshold if threshold is not None else float(rows["similarity"].min())
    rows = rows.assign(_key=stable_keys(rows["sen_id"]))
    chosen = []
    for target in np.linspace(low, 1.0, size):
        left = rows.drop(index=chosen)
        if left.empty:
            break
        distance = (left["similarity"] - target).abs().round(6)
        chosen.append(left.assign(_distance=distance).sort_values(["_distance", "_key"]).index[0])
    return rows.loc[chosen].sort_values(["similarity", "_key"]).drop(columns="_key")


def similarity_bands(dups: pd.DataFrame, threshold) -> list[tuple[str, int]]:
    """(band, removed captions) over the similarity range: bands of SIMILARITY_BAND, exact copies apart."""
    values = dups["similarity"].dropna()
    if values.empty:
        return []
    low = threshold if threshold is not None else float(values.min())
    edges = np.linspace(low, 1.0, max(1, round((1.0 - low) / SIMILARITY_BAND)) + 1)
    bands = []
    for start, end in zip(edges[:-1], edges[1:]):
        count = int(((values >= start - 1e-9) & (values < end - 1e-9)).sum())
        bands.append((f"{start:.3f} – {end:.3f}", count))
    bands.append(("1.000 (same words)", int((values >= 1.0 - 1e-9).sum())))
    return bands
