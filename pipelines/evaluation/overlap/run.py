"""`capclean overlap`: the query captions against a training side (overlap/) and the
false-negative candidates among the query split's videos (fn_candidates/), with stats.json.

The input is read as `capclean hardneg` reads it (pipelines/evaluation/caption_input.py). The method is
transforms/evaluation/overlap.py; docs/commands/overlap.md says how to use it and what it
gives on MSR-VTT. No Beam: a tf-idf product and a word-LCS matrix, in chunks, in one process.
"""
import csv
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.evaluation.caption_input import CaptionSelection, read_caption_rows, read_list_rows, select_captions
from pipelines.evaluation.evaluation_io import write_stats
from schemas.evaluation_tables import FN_CANDIDATES, OVERLAP
from transforms.errors import CapcleanError, ConfigError
from transforms.evaluation.overlap import (ANALYZER, LENGTH_BINS, NGRAM_RANGE, SHEET_COLUMNS, TOP_K, Caption,
                                           candidate_figures, fn_candidates, labelling_rows, list_key, overlap_figures,
                                           overlap_rows)

QUERY_KINDS = ("split", "first-of-split", "list")
DEFAULT_QUERIES = "first-of-split:test"
SHEET_FILE = "labelling_sheet.csv"  # the candidates, for people to label; `capclean fire --labels` reads it back
TRAIN_KINDS = ("splits", "list")


@dataclass(frozen=True)
class Spec:
    kind: str
    value: str


def parse_spec(flag: str, text: str, kinds: tuple) -> Spec:
    kind, _, value = text.partition(":")
    if kind not in kinds or not value:
        raise ConfigError(f"{flag} {text}: expected one of {', '.join(kind + ':...' for kind in kinds)}")
    return Spec(kind, value)


def original_texts(input_path: str) -> dict:
    """sen_id -> (the caption's text as annotated, what stands for it now: its own sen_id, the
    sen_id step III kept in its place, or None) for a capclean output, from captions/, edits/ and
    removed/. A list file names captions by their annotated text; this finds them after cleaning."""
    root = Path(input_path)
    current = {row["sen_id"]: row["caption"] for row in
               pq.read_table(root / "captions", columns=["sen_id", "caption"]).to_pylist()}
    texts = {sen_id: (text, sen_id) for sen_id, text in current.items()}
    if (root / "removed").is_dir():
        for row in pq.read_table(root / "removed", columns=["sen_id", "caption", "kept_sen_id"]).to_pylist():
            if row["sen_id"] is not None:
                texts[row["sen_id"]] = (row["caption"] or "", row["kept_sen_id"])
    if (root / "edits").is_dir():
        befores, afters = {}, {}
        for row in pq.read_table(root / "edits", columns=["sen_id", "before", "after"]).to_pylist():
            befores.setdefault(row["sen_id"], []).append(row["before"])
            afters.setdefault(row["sen_id"], set()).add(row["after"])
        for sen_id, before in befores.items():
            first = [text for text in before if text not in afters[sen_id]] or before[:1]
            texts[sen_id] = (first[0], texts.get(sen_id, ("", None))[1])
    return texts


def listed_queries(input_path: str, captions: list, path: str) -> tuple:
    """(queries, notes) for --queries list:FILE. A row with a `sentence` gives the caption of its
    video with that text (case, spacing and punctuation aside); after cleaning, the caption that stands for it
    now. A row without one gives its video's first caption."""
    rows = read_list_rows(path, "--queries list:")
    by_video = {}
    for sen_id, video_id, _, text in captions:
        by_video.setdefault(video_id, []).append((sen_id, text))
    current = {sen_id: (video_id, text) for sen_id, video_id, _, text in captions}
    cleaned = (Path(input_path) / "captions").is_dir()
    originals = original_texts(input_path) if cleaned and any(row.get("sentence") for row in rows) else {}
    queries, notes = [], {"listed": len(rows), "not_found": 0, "replaced_by_kept": 0, "removed": 0}
    video_of = {sen_id: video for sen_id, (video, _) in current.items()}
    if originals and (Path(input_path) / "removed").is_dir():
        for row in pq.read_table(Path(input_path) / "removed", columns=["sen_id", "video_id"]).to_pylist():
            if row["sen_id"] is not None:
                video_of.setdefault(row["sen_id"], row["video_id"])
    original_index = {}
    for sen_id in sorted(originals):
        original_index.setdefault((video_of.get(sen_id), list_key(originals[sen_id][0])), sen_id)
    for row in rows:
        video = row["video_id"]
        sentence = row.get("sentence")
        if not sentence:
            own = sorted(by_video.get(video, []))
            if own:
                queries.append(Caption(own[0][0], video, own[0][1]))
            else:
                notes["not_found"] += 1
            continue
        wanted = list_key(sentence)
        match = next((sen_id for sen_id, text in sorted(by_video.get(video, [])) if list_key(text) == wanted), None)
        if match is None and originals:
            match = original_index.get((video, wanted))
            if match is not None:
                stands_for = originals[match][1]
                if stands_for is None or stands_for not in current:
                    notes["removed"] += 1
                    continue
                if stands_for != match:
                    notes["replaced_by_kept"] += 1
                match = stands_for
        if match is None:
            notes["not_found"] += 1
            continue
        queries.append(Caption(match, video, current[match][1]))
    return queries, notes


def protocol_side(protocol, captions: list) -> tuple:
    """(queries, pool of the candidates, notes) of a retrieval protocol (--protocol): its texts are the
    queries (1k-A's JSFusion sentences, each by the smallest sen_id it matched; a sentence that matched no
    caption of the input is counted, not queried), and the candidates are searched among its videos only,
    its gallery."""
    queries = [Caption(query.sen_ids[0], query.video_id, query.text) for query in protocol.queries if query.sen_ids]
    gallery = set(protocol.video_ids)
    pool = [Caption(sen_id, video, text) for sen_id, video, _, text in sorted(captions) if video in gallery]
    return queries, pool, {"protocol": protocol.name, "protocol_texts": len(protocol.queries),
                           "texts_without_caption": len(protocol.queries) - len(queries)}


def select_side(input_path: str, captions: list, queries_spec: Spec, train_spec: Spec, protocol=None) -> tuple:
    """(queries, training captions, pool of the candidates, notes)."""
    from pipelines.evaluation.caption_input import read_video_ids

    notes, pool = {}, None
    if protocol is not None:
        queries, pool, notes = protocol_side(protocol, captions)
    elif queries_spec.kind == "list":
        queries, notes = listed_queries(input_path, captions, queries_spec.value)
    else:
        selection = CaptionSelection(split=queries_spec.value, one_per_video=queries_spec.kind == "first-of-split")
        queries = [Caption(sen_id, video, text) for video_captions in select_captions(captions, selection).values()
                   for sen_id, video, _, text in video_captions]
    if not queries:
        raise CapcleanError(f"no query caption of {input_path} for --queries {queries_spec.kind}:{queries_spec.value}"
                            " (unknown split, or no listed video in the input)")
    query_videos = {query.video_id for query in queries}
    split_of = {video: split for _, video, split, _ in captions}
    if train_spec.kind == "splits":
        splits = {name.strip() for name in train_spec.value.split(",") if name.strip()}
        train = [Caption(sen_id, video, text) for sen_id, video, split, text in sorted(captions) if split in splits]
        described = f"splits:{train_spec.value}"
    else:
        videos = read_video_ids(train_spec.value, "--train list:")
        train = [Caption(sen_id, video, text) for sen_id, video, _, text in sorted(captions) if video in videos]
        described = f"list:{train_spec.value}"
    if not train:
        raise CapcleanError(f"no training caption of {input_path} for --train {described} (unknown split, or no "
                            "listed video in the input)")
    shared = {caption.video_id for caption in train} & query_videos
    train = [caption for caption in train if caption.video_id not in shared]
    if not train:
        raise CapcleanError(f"--train {described}: every training video of {input_path} is a query video, and "
                            "a query video is taken out of the training side: no training caption is left")
    notes["query_videos_dropped_from_train"] = len(shared)
    if pool is None:  # without a protocol, every video of the queries' split(s)
        pool_splits = {split_of[video] for video in query_videos}
        pool = [Caption(sen_id, video, text) for sen_id, video, split, text in sorted(captions) if split in pool_splits]
        notes["pool_splits"] = sorted(pool_splits)
    return queries, train, pool, notes


def write_table(output_dir: Path, table: str, schema: pa.Schema, records: list) -> None:
    columns = {name: [getattr(record, name) for record in records] for name in schema.names}
    (output_dir / table).mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pydict(columns, schema=schema), output_dir / table / "part-00000.parquet",
                   compression="zstd")


def run_overlap(input_path: str, queries_spec: Spec, train_spec: Spec, output_dir: Path, threshold: float | None,
                chunk_rows: int | None = None, protocol=None, protocol_files: dict | None = None) -> dict:
    """Write overlap/ (and, unless `threshold` is None, fn_candidates/ and the labelling sheet) into
    `output_dir`; return the figures. With a `protocol`, its texts are the queries and its videos the pool;
    `protocol_files` ({flag: path as given}) is recorded in the settings."""
    captions = read_caption_rows(input_path)
    queries, train, pool, notes = select_side(input_path, captions, queries_spec, train_spec, protocol)
    queries.sort(key=lambda caption: caption.sen_id)
    rows = overlap_rows(queries, train, TOP_K, chunk_rows)
    write_table(output_dir, "overlap", OVERLAP, rows)
    figures = {"overlap": overlap_figures(rows), "training_captions": len(train),
               "training_videos": len({caption.video_id for caption in train}), "selection": notes}
    if threshold is not None:
        candidates = fn_candidates(queries, pool, threshold)
        write_table(output_dir, "fn_candidates", FN_CANDIDATES, candidates)
        figures["fn_candidates"] = {**candidate_figures(queries, candidates), "pool_captions": len(pool),
                                    "pool_videos": len({caption.video_id for caption in pool})}
        write_sheet(output_dir / SHEET_FILE, labelling_rows(candidates, pool))
        figures["labelling_sheet"] = {"file": SHEET_FILE, "rows": len(candidates)}
    queries_setting = (f"protocol:{protocol.name}" if protocol is not None
                       else f"{queries_spec.kind}:{queries_spec.value}")
    figures["settings"] = {"queries": queries_setting,
                           "train": f"{train_spec.kind}:{train_spec.value}", "top_k": TOP_K,
                           "tfidf": {"analyzer": ANALYZER, "ngram_range": list(NGRAM_RANGE), "fitted_on": "queries"},
                           "fn_threshold": threshold, "fn_similarity": "step III word LCS, e=0",
                           "length_bins": [label for label, _, _ in LENGTH_BINS]}
    if protocol_files:
        figures["settings"]["protocol_files"] = protocol_files
    write_stats(output_dir, figures)
    return figures


def write_sheet(path: Path, rows: list) -> None:
    """The labelling sheet: a CSV of SHEET_COLUMNS, UTF-8, one row per candidate pair, `label` empty."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(SHEET_COLUMNS)
        writer.writerows(rows)


def format_figures(figures: dict) -> str:
    overlap = figures["overlap"]
    lines = [f"  {overlap['queries']:,} query captions against {figures['training_captions']:,} training captions "
             f"of {figures['training_videos']:,} videos",
             f"  exact leaks: {overlap['exact_leaks']:,} ({100 * overlap['exact_leak_share']:.1f}%); mean top-{TOP_K} "
             f"similarity {overlap['mean_top10_similarity']:.3f}",
             f"  correlation of the mean top-{TOP_K} similarity with length:  {'spearman':>9} {'kendall':>9}"]
    correlations = overlap["correlations"]
    for length in ("words", "characters"):
        if correlations:
            lines.append(f"    {length:<52} {correlations[f'spearman_{length}']['coefficient']:>9.3f} "
                         f"{correlations[f'kendall_{length}']['coefficient']:>9.3f}")
    by_length = [f"{label} {counts['mean_top10_similarity']:.3f}" for label, counts in overlap["by_length"].items()
                 if counts["queries"]]
    lines.append(f"  mean top-{TOP_K} similarity by length in words: {', '.join(by_length)}")
    selection = figures["selection"]
    if selection.get("protocol"):
        lines.append(f"  protocol {selection['protocol']}: {selection['protocol_texts']:,} texts, "
                     f"{selection['texts_without_caption']:,} matched no caption of the input (not queried)")
    if selection.get("listed") is not None:
        lines.append(f"  list: {selection['listed']:,} rows; not found {selection['not_found']}, removed by the "
                     f"cleaning {selection['removed']}, replaced by the caption step III kept "
                     f"{selection['replaced_by_kept']}")
    if "fn_candidates" in figures:
        fn = figures["fn_candidates"]
        lines.append(f"  false-negative candidates (step III similarity >= {figures['settings']['fn_threshold']}, "
                     f"among {fn['pool_videos']:,} videos): {fn['with_candidate']:,} of {fn['queries']:,} queries "
                     f"({100 * fn['share']:.1f}%), {fn['candidate_pairs']:,} pairs")
        lines.append(f"    {'words':<8} {'queries':>8} {'with one':>9} {'share':>7}")
        for label, counts in fn["by_length"].items():
            if counts["queries"]:
                lines.append(f"    {label:<8} {counts['queries']:>8,} {counts['with_candidate']:>9,} "
                             f"{100 * counts['share']:>6.1f}%")
        lines.append(f"  labelling sheet: {figures['labelling_sheet']['rows']:,} pairs to judge in "
                     f"{figures['labelling_sheet']['file']} (fill label with 1/0; capclean fire --labels reads it)")
    return "\n".join(lines)

