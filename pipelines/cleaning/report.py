"""The run report: one self-contained HTML page about a capclean output folder.

`write_report(A)` describes one run; `write_report(A, B)` puts a second run beside
it (say the `paper` profile next to `default`). Everything the page shows comes
from the output folder: stats.json, the four Parquet tables and validation/.

The page must open anywhere, offline and years later, and go into a paper's
appendix, so it loads nothing: the CSS is inline and the plots are PNGs
embedded as data: URIs. Every text taken from the data is HTML-escaped.
"""
import base64
import difflib
import hashlib
import html
import io
import json
import os
import pathlib
import re
import urllib.parse
from dataclasses import dataclass, field

import matplotlib

matplotlib.use("Agg")  # no display: render straight to PNG bytes

import matplotlib.pyplot as plt  # noqa: E402  (must come after matplotlib.use)
from matplotlib.ticker import FuncFormatter  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from pipelines.cleaning.steps import STEP_NAMES  # noqa: E402
from pipelines.output.manifest import read_manifest  # noqa: E402
from pipelines.output.page_files import PAGE_MARK, write_page  # noqa: E402
from transforms.dedup import caption_similarity  # noqa: E402
from schemas.tables import TABLES  # noqa: E402


# The four figures of the paper's Table 3, as stats.json names them.
STEP_FIGURES = (
    ("captions_changed", "captions changed"),
    ("captions_removed", "captions removed"),
    ("videos_touched", "videos touched"),
    ("tokens_changed", "tokens changed"),
)
EXAMPLES_PER_STEP = 8
DUPLICATE_EXAMPLES = 10
# Bands of the similarity histogram of removed near-duplicates.
SIMILARITY_BAND = 0.025
TOP_FLAGGED = 20
TOP_CORRECTIONS = 15
TOP_REASONS = 15
DIFFERENCES_SHOWN = 10
# Longer captions share the last bin of the length histogram, so a few 70-word
# captions do not squeeze the bulk of the distribution into the left edge.
LONGEST_BIN = 40
RUN_COLORS = ("#1f5fa8", "#d9661f")


def write_report(output_dir: str, compare_dir: str | None = None, report_path: str | None = None,
                 shown_as: str | None = None) -> pathlib.Path:
    """Write the HTML report of the run in `output_dir` (beside the run in `compare_dir`, if given).

    The page goes to `report_path`, by default `<output_dir>/report.html`. `shown_as`: the
    folder the page names for the run, when it is written before the run is put in place
    (`capclean clean` writes it in its staging folder). Returns the path written.
    """
    runs = [load_run(output_dir)]
    if shown_as is not None:
        runs[0].shown_as = pathlib.Path(shown_as)
    if compare_dir is not None:
        runs.append(load_run(compare_dir))
    label_runs(runs)
    path = pathlib.Path(report_path) if report_path else runs[0].folder / "report.html"
    path = path.resolve()
    return write_page(render_page(runs, path.parent), path)


# --- Reading a run ------------------------------------------------------------------------------

@dataclass
class Run:
    folder: pathlib.Path
    stats: dict
    captions: pd.DataFrame
    removed: pd.DataFrame
    edits: pd.DataFrame
    corrections: pd.DataFrame
    validation: dict | None  # validation/result.json, when the run has one
    label: str = ""  # what the page calls this run: its profile, unless both runs share one
    shown_as: pathlib.Path | None = None  # the folder the page names, if not `folder`
    manifest: dict | None = None  # manifest.json, when the run has one (pipelines/output/manifest.py)
    flagged: pd.DataFrame = field(default_factory=lambda: read_table(None, "flagged"))


def load_run(output_dir) -> Run:
    folder = pathlib.Path(output_dir).resolve()
    stats_file = folder / "stats.json"
    if not stats_file.is_file():
        raise FileNotFoundError(f"{folder} has no stats.json: it is not a capclean output folder")
    result_file = folder / "validation" / "result.json"
    return Run(
        folder=folder,
        stats=json.loads(stats_file.read_text()),
        captions=read_table(folder, "captions"),
        removed=read_table(folder, "removed"),
        edits=read_table(folder, "edits"),
        corrections=read_table(folder, "corrections"),
        validation=json.loads(result_file.read_text()) if result_file.is_file() else None,
        manifest=read_manifest(folder, required=False),
        flagged=read_table(folder, "flagged"),
    )


def read_table(folder: pathlib.Path | None, name: str) -> pd.DataFrame:
    """One output table as a DataFrame; a missing folder (or no folder) reads as the empty table."""
    schema = TABLES[name]
    present = folder is not None and (folder / name).is_dir()
    table = pq.read_table(folder / name, schema=schema) if present else schema.empty_table()
    # Nullable integers: `removed.sen_id` and `kept_sen_id` hold nulls, and plain
    # pandas would turn those columns into floats.
    integer_types = {pa.int64(): pd.Int64Dtype(), pa.int32(): pd.Int32Dtype()}
    return table.to_pandas(types_mapper=integer_types.get)


def shown_folder(run: Run) -> pathlib.Path:
    """The folder a run is known by: where it ends up, not the staging folder it is written in."""
    return run.shown_as or run.folder


def label_runs(runs: list[Run]) -> None:
    """Name each run by its profile; two runs of one profile are told apart by their folders."""
    for run in runs:
        run.label = str(run.stats.get("profile", "?"))
    if len(runs) == 2 and runs[0].label == runs[1].label:
        for run in runs:
            run.label = f"{run.label} ({shown_folder(run).name})"
        if runs[0].label == runs[1].label:
            runs[0].label, runs[1].label = f"A: {runs[0].label}", f"B: {runs[1].label}"


def steps_run(stats: dict) -> list[str]:
    """The steps that ran, reader included (it always runs, and stats.json does not list it)."""
    listed = stats.get("steps_run", list(stats.get("steps", {})))
    return ["read"] + [step for step in listed if step != "read"]


def step_figures(run: Run, step: str) -> dict | None:
    """The figures stats.json has for one step; None when the step did not run.

    stats.json counts every step, so a step left out by --steps shows zeros
    there; the page shows it as not run instead.
    """
    if step not in steps_run(run.stats):
        return None
    return run.stats.get("steps", {}).get(step, {})


# --- The input captions, rebuilt from lineage ---------------------------------------------------

def input_captions(captions: pd.DataFrame, removed: pd.DataFrame, edits: pd.DataFrame) -> pd.DataFrame:
    """The text every input record had before cleaning: columns `sen_id`, `caption`, `video_id`, `split`.

    Every input record is one row of `captions` or `removed`. Its input text is
    the `before` of its earliest edit; without an edit, nothing changed it, so it
    is its text in the table. A record the reader removed is never edited, and its
    `sen_id` may repeat an id the reader kept (a repeated record), so it always
    keeps its own text rather than the other record's lineage.
    """
    first_before = earliest_before_by_sen_id(edits)
    # As objects: with no edits at all, pandas would map to an integer column that refuses the texts.
    kept = captions["sen_id"].map(first_before).astype(object).fillna(captions["caption"])
    from_reader = removed["step"] == "read"
    dropped = removed["sen_id"].map(first_before).astype(object).where(~from_reader).fillna(removed["caption"])
    return pd.concat([
        pd.DataFrame({"sen_id": captions["sen_id"], "caption": kept, "video_id": captions["video_id"],
                      "split": captions["split"]}),
        pd.DataFrame({"sen_id": removed["sen_id"], "caption": dropped, "video_id": removed["video_id"],
                      "split": removed["split"]}),
    ], ignore_index=True)


def earliest_before_by_sen_id(edits: pd.DataFrame) -> pd.Series:
    """sen_id -> the `before` of the first step (in pipeline order) that edited it."""
    step_rank = {step: rank for rank, step in enumerate(STEP_NAMES)}
    ordered = (edits.assign(rank=edits["step"].map(step_rank).fillna(len(STEP_NAMES)))
               .sort_values(["sen_id", "rank"], kind="stable"))
    first = ordered.drop_duplicates("sen_id")
    return pd.Series(first["before"].to_numpy(dtype=object), index=first["sen_id"].to_numpy())


def word_counts(texts: pd.Series) -> np.ndarray:
    """Words per caption; a record without text (the reader removed it) has none to count."""
    return np.array([len(text.split()) for text in texts.dropna()], dtype=int)


# --- Vocabulary and captions per video ----------------------------------------------------------

# A word, for the vocabulary figures: a run of letters or digits, lowercased, so that
# punctuation and case (which step I takes out) do not count as different words.
WORD = re.compile(r"[^\W_]+")


def vocabulary(texts) -> set:
    """The distinct words of some captions (records without text have none)."""
    words = set()
    for text in texts:
        if isinstance(text, str):
            words.update(WORD.findall(text.lower()))
    return words


def vocabulary_figures(run: Run) -> list[tuple[str, int, int]]:
    """(split or 'total', distinct words before cleaning, after): before is the input text rebuilt
    from the lineage (every record read, in the split its video has), after is `captions/`."""
    before = input_captions(run.captions, run.removed, run.edits)
    splits = sorted(set(before["split"].dropna()) | set(run.captions["split"].dropna()))
    rows = [(split, len(vocabulary(before.loc[before["split"] == split, "caption"])),
             len(vocabulary(run.captions.loc[run.captions["split"] == split, "caption"]))) for split in splits]
    rows.append(("total", len(vocabulary(before["caption"])), len(vocabulary(run.captions["caption"]))))
    return rows


def captions_per_video(run: Run) -> tuple[pd.Series, pd.Series]:
    """Videos by their number of captions, before (input records) and after cleaning (`captions/`).

    Only the videos in `captions/` count: a record of a video the reader did not know belongs to none.
    """
    videos = set(run.captions["video_id"])
    before = input_captions(run.captions, run.removed, run.edits)
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


# --- The steps' other figures, named -------------------------------------------------------------

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


# --- Flagged tokens ---------------------------------------------------------------------------------

def flagged_section(runs: list[Run]) -> str:
    if not any(len(run.flagged) for run in runs):
        return section("Flagged tokens", "<p>Step II flagged no token.</p>")
    text = (f"<p class='note'>Tokens Hunspell rejects that step II left as written because no correction was "
            f"clearly best (<code>flagged/</code>): the {TOP_FLAGGED} most frequent, with the reason and best "
            "candidate given most often, and one caption that holds it (the same on every rendering: the "
            "smallest SHA-1 of its sen_id), as <code>captions/</code> has it.</p>")
    return section("Flagged tokens", text + per_run(runs, top_flagged))


def top_flagged(run: Run) -> str:
    flagged = run.flagged
    if flagged.empty:
        return "<p>Step II flagged no token in this run.</p>"
    counts = flagged.groupby("token").size().rename("count").reset_index()
    counts = counts.sort_values(["count", "token"], ascending=[False, True], kind="stable").head(TOP_FLAGGED)
    texts = pd.concat([run.captions[["sen_id", "caption"]],
                       run.removed.loc[run.removed["sen_id"].notna(), ["sen_id", "caption"]]])
    text_of = texts.drop_duplicates("sen_id").set_index("sen_id")["caption"]
    rows = []
    for row in counts.itertuples():
        rows_of_token = flagged[flagged["token"] == row.token]
        reason = most_common(rows_of_token["reason"])
        candidate = most_common(rows_of_token["candidate"].dropna())
        example_id = deterministic_sample(rows_of_token.drop_duplicates("sen_id"), "sen_id", 1)["sen_id"].iloc[0]
        example = text_of.get(example_id)
        shown = marked_token(example, row.token) if isinstance(example, str) else "<i>(no caption)</i>"
        rows.append(f"<tr><td><code>{esc(row.token)}</code></td><td class='num'>{row.count:,}</td>"
                    f"<td>{esc(candidate) if candidate is not None else '–'}</td><td class='why'>{esc(reason)}</td>"
                    f"<td><span class='id'>{example_id}</span> {shown}</td></tr>")
    return (f"<table class='flagged' id='flagged-tokens'><caption>{len(flagged):,} tokens flagged, "
            f"{flagged['token'].nunique():,} distinct</caption><thead><tr><th>token</th><th class='num'>times</th>"
            "<th>best candidate</th><th>reason</th><th>example caption</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def most_common(values: pd.Series):
    """The most frequent value (the first in sorted order on ties), None if there is none."""
    if values.empty:
        return None
    counts = values.value_counts()
    return sorted(counts[counts == counts.max()].index)[0]


def marked_token(caption: str, token: str) -> str:
    """The caption, escaped, with each word equal to `token` in <mark>."""
    return " ".join(f"<mark>{esc(word)}</mark>" if word == token else esc(word) for word in caption.split(" "))


# --- British spellings ------------------------------------------------------------------------------

# How a British spelling becomes the American one: (pattern on the British word, replacement).
# A correction of the `british` rule is a British spelling only when these rewrite its
# original into its replacement; the paper's list, which the default one keeps, also maps
# plain typos (vedio -> video), and those are not British.
BRITISH_PATTERNS = [
    (re.compile(r"(?<=[a-z]{2})our"), "or"),                                  # colour, behaviour, favourite
    (re.compile(r"(?<=[^aeiou])re(?=[sd]?$)"), "er"),                        # centre, theatres, metre
    (re.compile(r"(?<=[aeiou])ll(?=(?:ing|ed|er|ers)$)"), "l"),              # travelling, labelled
    (re.compile(r"(?<=[a-z]{3})is(?=(?:e|es|ed|ing|ation|ations|er|ers)$)"), "iz"),  # organise(d), criticising
    (re.compile(r"ys(?=(?:e|es|ed|ing)$)"), "yz"),                            # analyse
    (re.compile(r"ogue(?=s?$)"), "og"),                                       # catalogue
    (re.compile(r"^(def|off|lic|pret)ence(?=s?$)"), r"\1ense"),           # defence, licence
    (re.compile(r"^practis"), "practic"),                                     # practise, practising
    (re.compile(r"^grey"), "gray"), (re.compile(r"^tyre"), "tire"), (re.compile(r"^chilli"), "chili"),
    (re.compile(r"^doughnut"), "donut"), (re.compile(r"^moustache"), "mustache"), (re.compile(r"^maths$"), "math"),
    (re.compile(r"^mum(?=s?$)"), "mom"), (re.compile(r"^aluminium$"), "aluminum"), (re.compile(r"^programme"), "program"),
    (re.compile(r"^aeroplane"), "airplane"), (re.compile(r"^plough"), "plow"), (re.compile(r"^pyjama"), "pajama"),
    (re.compile(r"^jewellery$"), "jewelry"), (re.compile(r"^cheque"), "check"), (re.compile(r"^specialit(?=(?:y|ies)$)"), "specialt"),
    (re.compile(r"^mould"), "mold"), (re.compile(r"^sceptic"), "skeptic"), (re.compile(r"^ageing$"), "aging"),
    (re.compile(r"judgement"), "judgment"), (re.compile(r"^cosy$"), "cozy"), (re.compile(r"^kerb"), "curb"),
]


def is_british_spelling(original: str, replacement: str, rewrites: int = 3) -> bool:
    """Whether British-to-American rewrites (at most `rewrites` of them) turn `original` into `replacement`."""
    forms = {original.lower()}
    target = replacement.lower()
    for _ in range(rewrites):
        forms |= {pattern.sub(american, form) for form in forms for pattern, american in BRITISH_PATTERNS}
        if target in forms:
            return True
    return False


# --- Near-duplicates by similarity -------------------------------------------------------------------

def dedup_threshold(run: Run):
    """The similarity threshold s the run's step III used, as its removal reasons give it (None if none does)."""
    values = run.removed.loc[run.removed["step"] == "dedup", "reason"].str.extract(r"\bs=([0-9.]+)")[0].dropna()
    return float(most_common(values)) if len(values) else None


def near_duplicates(run: Run) -> pd.DataFrame:
    """The captions step III removed, each with the caption it was compared with and their similarity.

    The similarity is the one step III recorded in the reason (to the caption that opened the
    group, which the reason names after the caption kept). A removed caption that opened its group has none recorded:
    its similarity is computed, with the run's edit threshold, to the caption kept for the group.
    Columns: sen_id, video_id, caption, reason, other_id, other, kept (whether `other` is the
    caption kept), similarity, computed.
    """
    dups = run.removed[run.removed["step"] == "dedup"].copy()
    if dups.empty:
        return dups.assign(other_id=[], other=[], kept=[], similarity=[], computed=[])
    texts = pd.concat([run.captions[["sen_id", "caption"]],
                       run.removed.loc[run.removed["sen_id"].notna(), ["sen_id", "caption"]]])
    text_of = texts.drop_duplicates("sen_id").set_index("sen_id")["caption"]
    recorded = dups["reason"].str.extract(r"similarity ([0-9.]+)")[0].astype(float)
    # The caption the recorded similarity is to: the group's opener (transforms/dedup.removal_reason).
    named = pd.to_numeric(dups["reason"].str.extract(r"to the group's opener, sen_id (\d+)")[0]).astype("Int64")
    edit_threshold = dups["reason"].str.extract(r"\be=(\d+)")[0].fillna("0").astype(int)
    other_id = named.where(named.notna() & recorded.notna(), dups["kept_sen_id"])
    dups["other_id"] = other_id
    dups["other"] = [text_of.get(other) if pd.notna(other) else None for other in other_id]
    dups["kept"] = (other_id == dups["kept_sen_id"]).fillna(False).astype(bool)
    computed = [caption_similarity(text, other, edit) if isinstance(text, str) and isinstance(other, str) else np.nan
                for text, other, edit in zip(dups["caption"], dups["other"], edit_threshold)]
    dups["computed"] = recorded.isna()
    dups["similarity"] = recorded.where(recorded.notna(), pd.Series(computed, index=dups.index)).round(3)
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
    keys = rows["sen_id"].map(lambda sen_id: hashlib.sha1(str(sen_id).encode()).hexdigest())
    rows = rows.assign(_key=keys)
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


# --- The page -----------------------------------------------------------------------------------

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
    return PAGE_TEMPLATE.format(title=esc(title), css=CSS, body="\n".join(sections))


def header_section(runs: list[Run], report_dir: pathlib.Path) -> str:
    rows = [
        ("folder", [f"<code>{esc(shown_folder(run))}</code>" for run in runs]),
        ("profile", [esc(run.stats.get("profile", "?")) for run in runs]),
        ("steps run", [esc(", ".join(steps_run(run.stats))) for run in runs]),
        ("made by", [esc(made_by(run)) for run in runs]),
        ("videos", [esc(videos_read(run)) for run in runs]),
        ("validation", [validation_summary(run, report_dir) for run in runs]),
    ]
    head = ""
    if len(runs) == 2:
        head = "<thead><tr><th></th>" + "".join(f"<th>{esc(run.label)}</th>" for run in runs) + "</tr></thead>"
    body = "".join(f"<tr><th>{name}</th>{''.join(f'<td>{cell}</td>' for cell in cells)}</tr>" for name, cells in rows)
    what = "one run" if len(runs) == 1 else "two runs side by side"
    return (f"<h1>{esc(' vs '.join(run.label for run in runs))}: capclean run report</h1>"
            f"<p class='lead'>What the cleaning did to the captions, {what}. Figures come from each "
            f"run's <code>stats.json</code>, examples from its Parquet tables.</p>"
            f"<table class='header'>{head}<tbody>{body}</tbody></table>")


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

    return "<h3>Other figures of the steps</h3><p class='note'>Those that are not zero.</p>" + comparison_table("step: figure", list(keys), [("value", "value")],
                                                                     runs, value, table_id="other-figures")


def flatten(figures: dict, prefix: str = "") -> dict:
    """{'a': {'b': 1}} -> {'a / b': 1}."""
    flat = {}
    for key, value in figures.items():
        if isinstance(value, dict):
            flat.update(flatten(value, f"{prefix}{key} / "))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


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
    inputs = [word_counts(input_captions(run.captions, run.removed, run.edits)["caption"]) for run in runs]
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


FLAGGED_ROW = "flagged, unchanged"
# The corrections of the british rule's list that are not British spellings (typos the list maps).
NOT_BRITISH = "british rule, not British spellings"


def corrections_section(runs: list[Run]) -> str:
    rules = sorted({rule for run in runs for rule in (step_figures(run, "spelling") or {}).get("tokens_changed_by_rule", {})})

    def value(run, rule, _column):
        figures = step_figures(run, "spelling")
        if figures is None:
            return None
        if rule == "total":
            return figures.get("tokens_changed")
        if rule == FLAGGED_ROW:
            return figures.get("tokens_flagged")
        return figures.get("tokens_changed_by_rule", {}).get(rule)

    rows = rules + ["total", FLAGGED_ROW]
    by_rule = comparison_table("rule", rows, [("tokens", "tokens")], runs, value) if rules else ""
    text = ("<p class='note'>The tokens the spelling step changed (<code>corrections/</code>), by rule, and those it "
            "left as written but flagged for review (<code>flagged/</code>); then the most frequent "
            f"{TOP_CORRECTIONS} changes of each rule. <i>british</i>, <i>split</i> and <i>vocabulary</i> are word "
            "lists, <i>suggestion</i> is Hunspell's first suggestion (paper), <i>ranked</i> and <i>context</i> are "
            "the default profile's corpus-ranked correction, <i>plural_in_context</i> its reading of a run-together "
            "possessive as a plural, <i>clip</i> a correction to the one close word the clip's other captions write, "
            "<i>dropped_g</i> an -ing word written without its g, and <i>misspelling_list</i> the one correction a "
            "list of common English misspellings gives a token the corpus could not settle (README). The "
            "<i>british</i> rule's list (the paper's, kept by the default profile) also maps typos (<i>vedio</i> → "
            "<i>video</i>): its table below shows the British spellings only, and the typos apart, as "
            f"<i>{NOT_BRITISH}</i>.</p>")
    return section("Spelling corrections", by_rule + text + recheck_note(runs) + per_run(runs, top_corrections))


def recheck_note(runs: list[Run]) -> str:
    """The captions each recheck round of step II changed, for the runs that had rounds."""
    lines = []
    for run in runs:
        rounds = (step_figures(run, "spelling") or {}).get("recheck_captions_changed") or {}
        if rounds:
            changed = ", ".join(f"round {name.split('_')[-1]}: {count:,}" for name, count in
                                sorted(rounds.items(), key=lambda item: int(item[0].split("_")[-1])))
            lines.append(f"<p class='note'>{esc(run.label)}: step II ran again on the cleaned captions with their "
                         f"counts taken again (README, <code>recheck_rounds</code>); captions changed by {changed}."
                         "</p>")
    return "".join(lines)


def top_corrections(run: Run) -> str:
    if run.corrections.empty:
        return "<p>No spelling corrections in this run.</p>"
    counts = (run.corrections.groupby(["rule", "original", "replacement"]).size().rename("count").reset_index())
    # The british rule's list holds typos too: only its British spellings are shown as british.
    british = counts["rule"] == "british"
    typos = british & ~pd.Series([is_british_spelling(original, replacement) for original, replacement
                                  in zip(counts["original"], counts["replacement"])], index=counts.index, dtype=bool)
    counts.loc[typos, "rule"] = NOT_BRITISH
    rule_totals = counts.groupby("rule")["count"].sum().sort_values(ascending=False, kind="stable")
    tables = []
    for rule, total in rule_totals.items():
        top = counts[counts["rule"] == rule].sort_values(["count", "original", "replacement"],
                                                         ascending=[False, True, True]).head(TOP_CORRECTIONS)
        rows = "".join(f"<tr><td>{esc(row.original)}</td><td class='arrow'>→</td><td>{esc(row.replacement)}</td>"
                       f"<td class='num'>{row.count:,}</td></tr>" for row in top.itertuples())
        tables.append(f"<table class='corrections'><caption>{esc(rule)}: {total:,} tokens</caption>"
                      f"<thead><tr><th>original</th><th></th><th>replacement</th><th class='num'>count</th></tr></thead>"
                      f"<tbody>{rows}</tbody></table>")
    return "<div class='tables'>" + "".join(tables) + "</div>"


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


def duplicates_section(runs: list[Run]) -> str:
    groups = [duplicate_group_sizes(run) for run in runs]
    if not any(len(sizes) for sizes in groups):
        return section("Near-duplicate groups", "<p>No near-duplicates were removed.</p>")
    text = (f"<p class='note'>Each group is the caption kept for it (the longest) and the near-duplicates of the "
            f"same video removed in its favour. Below, the removed captions by their similarity, then "
            f"{DUPLICATE_EXAMPLES} of them spread over the similarity range, nearest the threshold first (the same "
            "on every rendering). Each is shown against the caption it was compared with: the one its reason "
            "names, with the similarity step III recorded; a removed caption that opened its group is compared "
            "with the caption kept, its similarity computed (marked *). Words only in the removed caption are "
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
    threshold = dedup_threshold(run)
    bands = similarity_bands(dups, threshold)
    band_rows = "".join(f"<tr><td>{esc(band)}</td><td class='num'>{count:,}</td></tr>" for band, count in bands)
    threshold_text = f"threshold s = {threshold:g}" if threshold is not None else "threshold unknown"
    rows = []
    for row in spread_examples(dups, threshold).itertuples():
        other = row.other if isinstance(row.other, str) else ""
        removed_text, other_text = highlight_changes(row.caption, other) if other else (esc(row.caption), "")
        tag = " <span class='tag'>kept</span>" if row.kept else ""
        mark = "*" if row.computed else ""
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


# --- HTML and plotting helpers ------------------------------------------------------------------

def esc(value) -> str:
    return html.escape(str(value))


def section(title: str, body: str) -> str:
    return f"<section><h2>{esc(title)}</h2>{body}</section>"


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


def format_figure(figure) -> str:
    if figure is None:
        return "–"
    if isinstance(figure, bool) or not isinstance(figure, (int, float, np.integer, np.floating)):
        return esc(figure)
    if float(figure).is_integer():
        return f"{int(figure):,}"
    return f"{figure:,.3f}"


def deterministic_sample(frame: pd.DataFrame, id_column: str, size: int) -> pd.DataFrame:
    """The `size` rows whose id has the smallest SHA-1: a spread-out sample that never changes."""
    keys = frame[id_column].map(lambda sen_id: hashlib.sha1(str(sen_id).encode()).hexdigest())
    return frame.assign(_key=keys).sort_values(["_key", id_column]).head(size).drop(columns="_key")


def embed_figure(fig, alt: str) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f"<img class='plot' alt='{esc(alt)}' src='data:image/png;base64,{data}'>"


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
