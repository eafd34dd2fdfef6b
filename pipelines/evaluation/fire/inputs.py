"""What `capclean fire` reads: a model's ranked predictions, the original and the extra (FIRE) labels,
and the captions.

Reads (the figures are transforms/evaluation/fire.py; docs/commands/fire.md says what each means):

- predictions: Parquet or CSV, columns `sen_id` (the query caption), `video_id`, `rank` (1 = best),
  `score`, and optionally `caption` (the query's text); one row per ranked video;
- labels: Parquet or CSV with columns `query`, `video`, `label`, `source`, or FIRE's released JSON
  (`fire_msrvtt_dataset.json`: {"annotations": [{"query", "video_id", "label", "models", ...}]}).
  A `query` is a sen_id, or a caption's text (as FIRE names its queries), matched through the captions.
  `source` "original" marks the dataset's own positives; any other source names the model(s) whose
  pool held the pair, comma-separated;
- captions (optional): a capclean output or raw MSR-VTT, for the caption of each sen_id.
"""
import csv
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.evaluation.table_cells import cell_id, cell_number
from transforms.errors import CapcleanError
from transforms.evaluation.fire import FIRE_DEPTH

PREDICTION_COLUMNS = ("sen_id", "video_id", "rank", "score")
LABEL_COLUMNS = ("query", "video", "label", "source")
TABLE_FORMATS = (".parquet", ".csv")
ORIGINAL = "original"


class FireInputError(CapcleanError):
    """A predictions, labels or captions file that cannot be used; the message names the file and row."""


# ---------------------------------------------------------------- the predictions

def read_predictions(path: str, depth: int = FIRE_DEPTH) -> tuple:
    """({sen_id: [video_id, ...] best first, cut to `depth`}, {sen_id: caption} when a `caption` column is there)."""
    path = table_path(path, "predictions")
    rows = table_rows(path, PREDICTION_COLUMNS, ("caption",))
    ranked, texts, first_seen = {}, {}, {}
    for where, row in rows:
        query = id_text(path, where, "sen_id", row["sen_id"])
        video = id_text(path, where, "video_id", row["video_id"])
        rank = whole_number(path, where, "rank", row["rank"])
        number(path, where, "score", row["score"])
        places = ranked.setdefault(query, {})
        if rank in places:
            raise FireInputError(f"{path}: {where} gives sen_id {query} rank {rank} again "
                                 f"(first at {first_seen[(query, rank)]})")
        if video in places.values():
            raise FireInputError(f"{path}: {where} ranks video {video} twice for sen_id {query}")
        places[rank] = video
        first_seen[(query, rank)] = where
        if row.get("caption"):
            texts[query] = str(row["caption"])
    if not ranked:
        raise FireInputError(f"{path} holds no predictions")
    return {query: [places[rank] for rank in sorted(places)][:depth] for query, places in ranked.items()}, texts


# ---------------------------------------------------------------- the labels

def read_labels(path: str) -> list:
    """(where, query, video, positive, sources) per label; `sources` a frozenset of lower-case names."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return fire_json_labels(path)
    path = table_path(path, "labels")
    labels = []
    for where, row in table_rows(path, LABEL_COLUMNS):
        query = id_text(path, where, "query", row["query"])
        video = id_text(path, where, "video", row["video"])
        sources = frozenset(part.strip().lower() for part in str(row["source"] or "").split(",") if part.strip())
        if not sources:
            raise FireInputError(f"{path}: {where} has no source (\"original\", or the model whose pool held it)")
        labels.append((where, query, video, label_value(path, where, row["label"]), sources))
    return labels


def fire_json_labels(path: Path) -> list:
    """The labels of FIRE's released JSON (mmr/datasets.py, FireDataset): the agreed `annotations`; the
    `disagreements` have no label and are left out, as FIRE's own evaluation leaves them out."""
    if not path.is_file():
        raise FireInputError(f"{path} not found")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        annotations = data["annotations"]
    except (ValueError, KeyError, TypeError) as error:
        raise FireInputError(f"{path} is not FIRE's label JSON (an object with \"annotations\"): "
                             f"{str(error).splitlines()[0]}") from None
    labels = []
    for number_, item in enumerate(annotations, start=1):
        where = f"annotation {number_}"
        if not isinstance(item, dict) or any(key not in item for key in ("query", "video_id", "label", "models")):
            raise FireInputError(f"{path}: {where} lacks one of query, video_id, label, models")
        sources = frozenset(str(model).lower() for model in item["models"]) or frozenset({"fire"})
        labels.append((where, id_text(path, where, "query", item["query"]),
                       id_text(path, where, "video_id", item["video_id"]),
                       label_value(path, where, item["label"]), sources))
    return labels


def gold_from_labels(labels, queries: set, texts: dict, path) -> tuple:
    """({sen_id: original positive videos}, [(sen_id, video, sources) of extra positives], labels matched to no
    predicted query). A label's query is a sen_id, or a caption text matched through `texts`."""
    by_text = {}
    for query, text in texts.items():
        if query in queries:
            by_text.setdefault(text.strip(), []).append(query)
    originals = {query: set() for query in queries}
    extra, unmatched = [], 0
    for _where, query, video, positive, sources in labels:
        targets = [query] if query in queries else by_text.get(query.strip(), [])
        if not targets:
            unmatched += 1
            continue
        for target in targets:
            if positive and ORIGINAL in sources:
                originals[target].add(video)
            elif positive:
                extra.append((target, video, sources - {ORIGINAL}))
    return originals, extra, unmatched


def label_value(path, where: str, value) -> bool:
    from pipelines.evaluation.table_cells import cell_label  # the label words every command reads alike

    return cell_label(path, where, "label", value, FireInputError)


# ---------------------------------------------------------------- the captions

def caption_texts(captions: str) -> dict:
    """{sen_id: caption} of a capclean output or raw MSR-VTT folder."""
    return {str(sen_id): text for sen_id, _video, _split, text in read_caption_records(captions)}


def own_videos(captions: str, queries: set) -> dict:
    """{sen_id: {its own video}}: the original positives, from the captions."""
    return {str(sen_id): {str(video)} for sen_id, video, _split, _text in read_caption_records(captions)
            if str(sen_id) in queries}


def read_caption_records(captions: str) -> list:
    if not Path(captions).is_dir():
        raise FireInputError(f"--captions {captions}: not a folder (a capclean output or raw MSR-VTT)")
    from pipelines.evaluation.caption_input import read_caption_rows

    return read_caption_rows(captions)


# ---------------------------------------------------------------- reading tables

def table_path(path: str, what: str) -> Path:
    path = Path(path)
    if path.suffix.lower() not in TABLE_FORMATS:
        raise FireInputError(f"{path}: {what} must be a .parquet or .csv file, not {path.suffix or 'no extension'!r}")
    if not path.is_file():
        raise FireInputError(f"{path} not found")
    return path


def table_rows(path: Path, columns: tuple, optional: tuple = ()):
    """(where, {column: value}) per row of a Parquet ("row N") or CSV ("line N", 1 = the header) file."""
    if path.suffix.lower() == ".parquet":
        try:
            names = pq.read_schema(path).names
        except pa.ArrowException as error:
            raise FireInputError(f"{path} is not a readable Parquet file: {str(error).splitlines()[0]}") from None
        check_columns(path, names, columns)
        wanted = list(columns) + [name for name in optional if name in names]
        table = pq.read_table(path, columns=wanted).to_pydict()
        return [(f"row {i + 1}", {name: table[name][i] for name in wanted}) for i in range(len(table[wanted[0]]))]
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            check_columns(path, reader.fieldnames or [], columns)
            return [(f"line {reader.line_num}", row) for row in reader]
    except UnicodeDecodeError as error:
        raise FireInputError(f"{path} is not UTF-8 text: byte {error.start} cannot be decoded") from None


def check_columns(path: Path, names, columns: tuple) -> None:
    missing = [column for column in columns if column not in names]
    if missing:
        raise FireInputError(f"{path}: no column(s) {', '.join(missing)} (columns found: "
                             f"{', '.join(names) or 'none'}); it needs {', '.join(columns)}")


def id_text(path, where: str, column: str, value) -> str:
    return cell_id(path, where, column, value, FireInputError)


def number(path, where: str, column: str, value) -> float:
    return cell_number(path, where, column, value, FireInputError)


def whole_number(path, where: str, column: str, value) -> int:
    result = number(path, where, column, value)
    if not result.is_integer() or result < 1:
        raise FireInputError(f"{path}: {where}, column {column}: {value!r} is not a whole number of at least 1")
    return int(result)
