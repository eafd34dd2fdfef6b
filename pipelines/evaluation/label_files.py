"""Relevance labels a user brings, in FIRE's format, read for `capclean fire --labels` and `capclean evaluate
--fire-labels` alike (docs/commands/fire.md):

- a Parquet or CSV table with columns `query`, `video`, `label`, `source` (`capclean overlap`'s labelling sheet
  is one, once judged), or FIRE's released JSON (`fire_msrvtt_dataset.json`: {"annotations": [{"query",
  "video_id", "label", "models", ...}]});
- `query` a sen_id or a query's text (FIRE names its queries by the JSFusion CSV's sentence), matched exactly by
  transforms/evaluation/fire.py's match_labels; a label it cannot place is an error (refuse_unmatched) unless
  --skip-unmatched-labels;
- `label` 1/0, true/false, relevant/irrelevant; `source` "original" marks the dataset's own positives, any
  other names the model(s) whose pool held the pair, comma-separated.
"""
import json
from pathlib import Path

from pipelines.evaluation.table_cells import cell_id, cell_label, table_path, table_rows
from transforms.errors import CapcleanError
from transforms.evaluation.fire import Label

LABEL_COLUMNS = ("query", "video", "label", "source")
ORIGINAL = "original"


class LabelInputError(CapcleanError):
    """A label file that cannot be used, or a label that would be lost; the message names the file and row."""


def read_labels(path: str) -> list:
    """The Labels of a file; a label's `sources` a frozenset of lower-case names."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return fire_json_labels(path)
    path = table_path(path, "labels", LabelInputError)
    labels = []
    for where, row in table_rows(path, LABEL_COLUMNS, LabelInputError):
        query = cell_id(path, where, "query", row["query"], LabelInputError)
        video = cell_id(path, where, "video", row["video"], LabelInputError)
        sources = frozenset(part.strip().lower() for part in str(row["source"] or "").split(",") if part.strip())
        if not sources:
            raise LabelInputError(f"{path}: {where} has no source (\"original\", or the model whose pool held it)")
        labels.append(Label(where, query, video, label_value(path, where, row["label"]), sources))
    return labels


def fire_json_labels(path: Path) -> list:
    """The labels of FIRE's released JSON (mmr/datasets.py, FireDataset): the agreed `annotations`; the
    `disagreements` have no label and are left out, as FIRE's own evaluation leaves them out."""
    if not path.is_file():
        raise LabelInputError(f"{path} not found")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        annotations = data["annotations"]
    except (ValueError, KeyError, TypeError) as error:
        raise LabelInputError(f"{path} is not FIRE's label JSON (an object with \"annotations\"): "
                              f"{str(error).splitlines()[0]}") from None
    labels = []
    for number_, item in enumerate(annotations, start=1):
        where = f"annotation {number_}"
        if not isinstance(item, dict) or any(key not in item for key in ("query", "video_id", "label", "models")):
            raise LabelInputError(f"{path}: {where} lacks one of query, video_id, label, models")
        sources = frozenset(str(model).lower() for model in item["models"]) or frozenset({"fire"})
        labels.append(Label(where, cell_id(path, where, "query", item["query"], LabelInputError),
                            cell_id(path, where, "video_id", item["video_id"], LabelInputError),
                            label_value(path, where, item["label"]), sources))
    return labels


def refuse_unmatched(unmatched: list, path, skip: bool, hint: str = "") -> int:
    """The number of labels match_labels could not place; without `skip` the first of them is an error naming
    the file, its row, its query and its video, since leaving it out would change the figures silently."""
    if unmatched and not skip:
        label, why = unmatched[0]
        raise LabelInputError(f"{path}: {label.where}: the label of query {label.query!r}, video {label.video} "
                              f"would be lost: {why} ({len(unmatched):,} such label(s)){hint}; "
                              "--skip-unmatched-labels leaves them out and counts them")
    return len(unmatched)


def gold_from_matches(matched: list, keys) -> tuple:
    """({key: original positive videos}, [(key, video, sources) of extra positives]) of match_labels' matches;
    a label whose sources include "original" is an original positive."""
    originals = {key: set() for key in keys}
    extra = []
    for key, video, positive, sources in matched:
        if positive and ORIGINAL in sources:
            originals[key].add(video)
        elif positive:
            extra.append((key, video, sources - {ORIGINAL}))
    return originals, extra


def label_value(path, where: str, value) -> bool:
    """A label cell read as every command reads labels (table_cells.cell_label); an empty one is not judged yet."""
    if value is None or not str(value).strip():
        raise LabelInputError(f"{path}: {where}, column label: empty (not judged yet): 1/0, true/false, yes/no or "
                              "relevant/irrelevant")
    return cell_label(path, where, "label", value, LabelInputError)
