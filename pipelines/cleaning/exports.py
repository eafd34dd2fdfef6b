"""Exports: a run's cleaned captions in the formats other tools read.

- `msrvtt-json`: MSR-VTT's own JSON format, for code written for the original files.
- `coco`: one COCO caption file per split, the references of the caption-metric
  toolkits (pycocoevalcap and the COCO caption API).
- `hf`: Parquet files laid out so that Hugging Face `datasets` finds the splits
  train, validation and test by itself, with a dataset card. The split is named
  the same everywhere in it (`validation`, also in its `split` column), and
  `category` is a class label with MSR-VTT's 20 category names.

Each export reads the run's `captions/` table (and its profile and steps from `stats.json`);
`msrvtt-json` also reads the run's original annotations, for their `info` and
`videos`. Same output folder in, same bytes out: rows are in sen_id order,
videos in a fixed order, and nothing time-dependent is written.
"""
import json
import os
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import yaml

from pipelines.cleaning.steps import STEPS
from pipelines.output.json_files import write_compact_json
from schemas.tables import CAPTIONS
from transforms.errors import CapcleanError
from transforms.read import find_annotation_files, load_annotations, video_problem

EXPORTS = ("msrvtt-json", "coco", "hf")

SPLITS = ("train", "validate", "test")
# `datasets` names the middle split "validation"; MSR-VTT calls it "validate". In hf/ the
# split's files, its name in the card and its rows' `split` column all say "validation";
# captions/ and the other exports keep MSR-VTT's "validate".
HF_SPLIT_NAMES = {"train": "train", "validate": "validation", "test": "test"}

# MSR-VTT's 20 video categories, by number: the `category.txt` distributed with the
# annotations (in train_val_annotation.zip), which the annotations' readme.txt refers to.
MSRVTT_CATEGORIES = (
    "music", "people", "gaming", "sports/actions", "news/events/politics", "education", "tv shows",
    "movie/comedy", "animation", "vehicles/autos", "howto", "travel", "science/technology", "animals/pets",
    "kids/family", "documentary", "food/drink", "cooking", "beauty/fashion", "advertisement",
)

# How the dataset card describes each profile (docs/profiles.md).
PROFILE_WORDS = {
    "paper": ("the `paper` profile, which reproduces the cleaning published by Chen et al., \"The MSR-Video "
              "to Text dataset with clean annotations\" (Computer Vision and Image Understanding, 2022)"),
    "default": ("the `default` profile: capclean's own cleaning, not the published method. It runs the "
                "steps of Chen et al., \"The MSR-Video to Text dataset with clean annotations\" (Computer "
                "Vision and Image Understanding, 2022), with rules of its own for spelling, near-duplicates "
                "and run-on captions, so its counts differ from the paper's (capclean's docs/profiles.md "
                "gives the differences)"),
}

# What each cleaning step does, in the words of the dataset card.
STEP_WORDS = {step.name: step.summary for step in STEPS}


class ExportError(CapcleanError):
    """An export that cannot be made; the message names the folder, file or option at fault."""


# ---------------------------------------------------------------- the run's output

def read_captions_table(output_dir: str) -> pa.Table:
    """The run's cleaned captions, one table in sen_id order, with the CAPTIONS schema."""
    folder = Path(output_dir) / "captions"
    if not folder.is_dir():
        raise ExportError(f"{folder} not found: {output_dir} is not the output folder of a capclean run")
    # The files are already in sen_id order; sorting again costs little and does not rely on it.
    return pq.read_table(folder, schema=CAPTIONS).sort_by("sen_id")


def read_stats(output_dir: str) -> dict:
    """The run's stats.json ({} without one): the exports name the profile and steps the run used."""
    stats_path = Path(output_dir) / "stats.json"
    if not stats_path.is_file():
        return {}
    return json.loads(stats_path.read_text(encoding="utf-8"))


def rows_of_split(captions: pa.Table, split: str) -> pa.Table:
    return captions.filter(pc.equal(captions["split"], split))


def check_known_splits(captions: pa.Table) -> None:
    unknown = sorted(set(pc.unique(captions["split"]).to_pylist()) - set(SPLITS))
    if unknown:
        raise ExportError(f"captions have split(s) {', '.join(unknown)}; the exports know only {', '.join(SPLITS)}")


def default_exports_dir(output_dir: str) -> Path:
    return Path(output_dir) / "exports"


def cleaned_by(stats: dict) -> str:
    return f"capclean, profile {stats['profile']}" if stats.get("profile") else "capclean"


# ---------------------------------------------------------------- writing files

def write_parquet(table: pa.Table, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    pq.write_table(table, partial)
    os.replace(partial, path)
    return path


def natural_order(video_id: str) -> list:
    """Sort key putting video2 before video10: text parts as text, digit runs as numbers."""
    # re.split with a captured group alternates text and digits, so equal positions hold equal types.
    parts = re.split(r"(\d+)", video_id)
    return [int(part) if index % 2 else part for index, part in enumerate(parts)]


# ---------------------------------------------------------------- msrvtt-json

def export_msrvtt_json(output_dir: str, input_path: str, dest: str | None = None,
                       captions: pa.Table | None = None) -> Path:
    """The cleaned dataset as one MSR-VTT annotation file: `{"info", "videos", "sentences"}`.

    `info` is the first input file's, noting the cleaning; `videos` are the input
    files' video lists one after the other, as they were; `sentences` are the
    cleaned captions in sen_id order. capclean's reader reads it back to the
    same rows as `captions/`. `captions`: that table, when it has been read already (read_captions_table).
    """
    dest = Path(dest) if dest else default_exports_dir(output_dir) / "msrvtt_videodatainfo.json"
    documents = [load_annotations(source) for source in find_annotation_files(input_path)]
    videos = [video for document in documents for video in document["videos"]]
    captions = read_captions_table(output_dir) if captions is None else captions
    check_videos_match(captions, videos, input_path)
    document = {
        "info": cleaned_info(documents[0].get("info"), read_stats(output_dir)),
        "videos": videos,
        "sentences": captions.select(["caption", "video_id", "sen_id"]).to_pylist(),
    }
    return write_compact_json(dest, document)


def cleaned_info(info, stats: dict) -> dict:
    """The original `info` block (a copy), plus a line saying who cleaned the captions."""
    info = dict(info) if isinstance(info, dict) else {}
    info["cleaned_by"] = cleaned_by(stats)
    return info


def check_videos_match(captions: pa.Table, videos: list, input_path: str) -> None:
    """Every captioned video must have the same split and category in the annotations given.

    Otherwise `input_path` is not the input this output was cleaned from, and
    the written file would not read back to the same captions.
    """
    # Like the reader, the first usable record of a video is the one that counts.
    annotated = {}
    for video in videos:
        if video_problem(video) is None:
            annotated.setdefault(video["video_id"], (video["split"], video["category"]))
    # One row per distinct (video, split, category) of the captions: about 10,000 on MSR-VTT.
    for video in captions.group_by(["video_id", "split", "category"]).aggregate([]).to_pylist():
        video_id, split, category = video["video_id"], video["split"], video["category"]
        if annotated.get(video_id) != (split, category):
            found = annotated.get(video_id, "no usable record")
            raise ExportError(f"video {video_id} of the captions (split {split}, category {category}) does not "
                              f"match the annotations in {input_path} ({found}): is that the input of this run?")


# ---------------------------------------------------------------- coco

def export_coco(output_dir: str, dest_dir: str | None = None, splits=("validate", "test"),
                captions: pa.Table | None = None) -> list[Path]:
    """One COCO caption file per split, `<dest_dir>/coco_<split>.json`: the references for caption metrics.

    An image is a video and its id is the video id string ("video7010"), as the
    MSR-VTT evaluation code has it; an annotation's id is the caption's sen_id.
    `captions`: the run's captions table, when it has been read already (read_captions_table).
    """
    unknown = [split for split in splits if split not in SPLITS]
    if unknown:
        raise ExportError(f"unknown split(s) {', '.join(unknown)} for the coco export; splits: {', '.join(SPLITS)}")
    dest_dir = Path(dest_dir) if dest_dir else default_exports_dir(output_dir)
    captions = read_captions_table(output_dir) if captions is None else captions
    stats = read_stats(output_dir)
    return [write_compact_json(dest_dir / f"coco_{split}.json",
                               coco_document(rows_of_split(captions, split), split, stats))
            for split in splits]


def coco_document(rows: pa.Table, split: str, stats: dict) -> dict:
    video_ids = sorted(set(rows["video_id"].to_pylist()), key=natural_order)
    return {
        "info": {"description": f"MSR-VTT {split} captions, cleaned by {cleaned_by(stats)}",
                 "split": split, "videos": len(video_ids), "captions": rows.num_rows},
        "licenses": [],
        "type": "captions",
        "images": [{"id": video_id, "file_name": video_id} for video_id in video_ids],
        "annotations": [{"id": row["sen_id"], "image_id": row["video_id"], "caption": row["caption"]}
                        for row in rows.to_pylist()],
    }


# ---------------------------------------------------------------- hf

def export_hf(output_dir: str, dest_dir: str | None = None, captions: pa.Table | None = None) -> Path:
    """A folder `datasets.load_dataset("parquet", data_dir=...)` (or `load_dataset(folder)`) reads as splits.

    The files follow the Hub's own layout, `data/<split>-00000-of-00001.parquet`,
    which `datasets` maps to splits by name alone: train, validation (MSR-VTT's
    "validate") and test; each row's `split` says the same name. `datasets` cannot
    load an empty split, so a split without captions gets no file (and loses the
    one an earlier export left). `category` is a class label with MSR-VTT's names
    when every category is one of MSR-VTT's 20 numbers (stored as int64, with the
    features in the Parquet metadata, where `datasets` reads them); otherwise the
    int32 number of `captions/`. `captions`: that table, when it has been read already (read_captions_table).
    """
    dest_dir = Path(dest_dir) if dest_dir else Path(output_dir) / "hf"
    captions = read_captions_table(output_dir) if captions is None else captions
    check_known_splits(captions)
    if captions.num_rows == 0:
        raise ExportError(f"{output_dir} has no captions: nothing for the hf export to write")
    named = categories_are_msrvtt(captions)
    features = hf_features(named)
    counts = {}
    for split, hf_split in HF_SPLIT_NAMES.items():
        rows = rows_of_split(captions, split)
        path = dest_dir / "data" / f"{hf_split}-00000-of-00001.parquet"
        if rows.num_rows:
            table = hf_rows(rows, hf_split, features)
            write_parquet(table, path)
            counts[hf_split] = (table.num_rows, table.nbytes)
        else:
            path.unlink(missing_ok=True)
    card = dataset_card(counts, read_stats(output_dir), named)
    (dest_dir / "README.md").write_text(card, encoding="utf-8")
    return dest_dir


def categories_are_msrvtt(captions: pa.Table) -> bool:
    """Whether every caption's category is one of MSR-VTT's 20 numbers, so that it can be named."""
    low, high = pc.min_max(captions["category"]).values()
    return 0 <= low.as_py() and high.as_py() < len(MSRVTT_CATEGORIES)


def hf_features(named_categories: bool) -> dict:
    """The columns as `datasets` features (`Features.to_dict()`'s form, written by hand: exporting does
    not import `datasets`). In captions/' order; category a ClassLabel when it can be named."""
    category = ({"names": list(MSRVTT_CATEGORIES), "_type": "ClassLabel"} if named_categories
                else {"dtype": "int32", "_type": "Value"})
    return {"video_id": {"dtype": "string", "_type": "Value"},
            "sen_id": {"dtype": "int64", "_type": "Value"},
            "split": {"dtype": "string", "_type": "Value"},
            "category": category,
            "caption": {"dtype": "string", "_type": "Value"}}


def hf_rows(rows: pa.Table, hf_split: str, features: dict) -> pa.Table:
    """One split's captions as hf/ holds them: `split` the hf split's name, category int64 when it is a
    class label (`datasets` stores class labels so), the features in the schema's metadata."""
    class_label = features["category"]["_type"] == "ClassLabel"
    category_type = pa.int64() if class_label else pa.int32()
    # Nullable fields: `datasets` takes a column's feature from the metadata only when the field
    # equals the one the feature gives, and its features' fields are nullable.
    schema = pa.schema([pa.field(field.name, category_type if field.name == "category" else field.type)
                        for field in CAPTIONS],
                       metadata={"huggingface": json.dumps({"info": {"features": features}})})
    columns = {name: rows[name] for name in CAPTIONS.names}
    columns["split"] = pa.array([hf_split] * rows.num_rows, pa.string())
    columns["category"] = rows["category"].cast(category_type)
    return pa.table(columns, schema=schema)


def card_features(features: dict) -> list:
    """The features as the `dataset_info` of a card's YAML header gives them."""
    listed = []
    for name, feature in features.items():
        if feature["_type"] == "ClassLabel":
            dtype = {"class_label": {"names": {str(number): label for number, label in enumerate(feature["names"])}}}
        else:
            dtype = feature["dtype"]
        listed.append({"name": name, "dtype": dtype})
    return listed


def card_header(counts: dict, features: dict) -> str:
    """The YAML header of the dataset card: what `datasets` and the Hub read (splits, files, features)."""
    header = {
        "pretty_name": "MSR-VTT captions, cleaned",
        "language": ["en"],
        # No licence could be established (see the card's "Source and licence"): the Hub's value for that.
        "license": "unknown",
        "configs": [{"config_name": "default",
                     "data_files": [{"split": split, "path": f"data/{split}-*.parquet"} for split in counts]}],
        "dataset_info": {"config_name": "default",
                         "features": card_features(features),
                         # num_bytes: the split's size in Arrow memory (within 1% of what `datasets` records).
                         "splits": [{"name": split, "num_bytes": num_bytes, "num_examples": count}
                                    for split, (count, num_bytes) in counts.items()]},
    }
    return yaml.safe_dump(header, sort_keys=False, allow_unicode=True, width=1000)


def profile_words(stats: dict) -> str:
    profile = stats.get("profile")
    if not profile:
        return "capclean (the profile was not recorded)"
    return f"capclean with {PROFILE_WORDS.get(profile, f'the `{profile}` profile')}"


def dataset_card(counts: dict, stats: dict, named_categories: bool = True) -> str:
    """The dataset card: a YAML header naming the split files and the typed features, then what the data
    is, how it was cleaned and whose it is. `counts`: hf split -> (rows, bytes in Arrow memory)."""
    steps_done = ", ".join(STEP_WORDS.get(step, step) for step in stats.get("steps_run", [])) or "none recorded"
    split_table = "".join(f"| {split} | {msrvtt} | {counts[split][0]} |\n"
                          for msrvtt, split in HF_SPLIT_NAMES.items() if split in counts)
    category_words = (f"`category` (class label: MSR-VTT's 20 category names, {', '.join(MSRVTT_CATEGORIES[:3])}, "
                      f"..., {MSRVTT_CATEGORIES[-1]}; stored as their number 0-19)" if named_categories
                      else "`category` (int32, the input's category number)")
    return f"""---
{card_header(counts, hf_features(named_categories))}---

# MSR-VTT captions, cleaned by capclean

The captions of MSR-VTT (Xu et al., "MSR-VTT: A Large Video Description Dataset for
Bridging Video and Language", CVPR 2016), cleaned by {profile_words(stats)}.

Steps run: {steps_done}.

Videos are not included; `video_id` names the MSR-VTT clip.

```python
import datasets
captions = datasets.load_dataset("parquet", data_dir="<this folder>")  # train, validation, test
captions = datasets.load_dataset("<this folder>")                       # the same, with this card
```

| split | MSR-VTT split | captions |
| --- | --- | --- |
{split_table}
Columns: `video_id` (string), `sen_id` (int64, MSR-VTT's caption id), `split` (string,
the split's name as above: `train`, `validation` or `test`), {category_words},
`caption` (string). Rows are sorted by `sen_id`. The split MSR-VTT and capclean's own
`captions/` table call `validate` is named `validation` here, in its files and in its
`split` column alike.

Load this folder, not capclean's `captions/` table: `load_dataset("parquet",
data_files="captions/*.parquet")` gives one `train` split holding every caption, the
test captions included.

## Source and licence

The MSR-VTT annotations are Microsoft's (Microsoft Research, 2016). No licence for them
could be established: the distributed annotation files (their `info` block and
`readme.txt`) state none, and neither do the sources capclean documents. The header's
`license: unknown` says so. This folder is derived from those annotations and is subject
to the terms under which you obtained MSR-VTT; capclean adds no rights of its own. Check
those terms before redistributing it.
"""


# ---------------------------------------------------------------- all of them

def run_exports(names, output_dir: str, input_path: str | None) -> list[Path]:
    """Run the named exports (of EXPORTS) into their default places; return the paths written."""
    names = list(dict.fromkeys(names))  # each once, in the order given
    unknown = [name for name in names if name not in EXPORTS]
    if unknown:
        raise ExportError(f"unknown export {', '.join(unknown)}; exports: {', '.join(EXPORTS)}")
    if "msrvtt-json" in names and not input_path:
        raise ExportError("the msrvtt-json export needs the run's original annotations (input path): "
                          "it copies their info and videos")
    captions = read_captions_table(output_dir)  # once, for every export
    written = []
    for name in names:
        if name == "msrvtt-json":
            written.append(export_msrvtt_json(output_dir, input_path, captions=captions))
        elif name == "coco":
            written.extend(export_coco(output_dir, captions=captions))
        else:
            written.append(export_hf(output_dir, captions=captions))
    return written
