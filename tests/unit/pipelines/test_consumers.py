"""A training job's view: the five usual readers see the same captions table.

pandas, pyarrow, polars and duckdb read `captions/` as it is; Hugging Face
`datasets` reads the hf export. Each must see every split's caption count as
stats.json gives it, and the column types of schemas/tables.py: strings,
int64 sen_id, int32 category. The calls are the README's one-liners.
"""
import json
import os

# `datasets` reads these when imported: never reach for the Hub from a test.
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"

import datasets  # noqa: E402
import duckdb  # noqa: E402
import pandas as pd  # noqa: E402
import polars as pl  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402

from pipelines.cleaning.exports import HF_SPLIT_NAMES, export_hf  # noqa: E402
from schemas.tables import CAPTIONS  # noqa: E402

# The captions schema, in the words each view below is brought to.
EXPECTED_TYPES = {field.name: str(field.type) for field in CAPTIONS}  # video_id: string, sen_id: int64, ...
MSRVTT_SPLIT = {hf_split: split for split, hf_split in HF_SPLIT_NAMES.items()}  # validation -> validate


@pytest.fixture(scope="module")
def output(small_msrvtt_run):
    return small_msrvtt_run[1]


# Each reader gives (captions per split, column name -> type in pyarrow's words).

def pandas_view(output, tmp_path):
    frame = pd.read_parquet(output / "captions")
    types = {name: "string" if pd.api.types.is_string_dtype(dtype) else str(dtype)
             for name, dtype in frame.dtypes.items()}
    return frame["split"].value_counts().to_dict(), types


def pyarrow_view(output, tmp_path):
    table = pq.read_table(output / "captions")
    counts = dict(zip(*(column.to_pylist() for column in table["split"].value_counts().flatten())))
    return counts, {field.name: str(field.type) for field in table.schema}


POLARS_TYPES = {pl.String: "string", pl.Int64: "int64", pl.Int32: "int32"}


def polars_view(output, tmp_path):
    frame = pl.read_parquet(output / "captions" / "*.parquet")
    counts = dict(frame.group_by("split").len().iter_rows())
    return counts, {name: POLARS_TYPES.get(dtype, str(dtype)) for name, dtype in frame.schema.items()}


DUCKDB_TYPES = {"VARCHAR": "string", "BIGINT": "int64", "INTEGER": "int32"}


def duckdb_view(output, tmp_path):
    files = f"read_parquet('{output / 'captions'}/*.parquet')"
    with duckdb.connect() as connection:
        counts = dict(connection.sql(f"select split, count(*) from {files} group by split").fetchall())
        described = connection.sql(f"describe select * from {files}").fetchall()
    # describe gives (column_name, column_type, null, key, default, extra) per column.
    return counts, {row[0]: DUCKDB_TYPES.get(row[1], row[1]) for row in described}


def datasets_view(output, tmp_path):
    loaded = datasets.load_dataset("parquet", data_dir=str(export_hf(str(output))), cache_dir=str(tmp_path))
    counts = {MSRVTT_SPLIT[hf_split]: loaded[hf_split].num_rows for hf_split in loaded}
    # Every split has the same features; a Value's dtype is already in pyarrow's words. hf/ names
    # MSR-VTT's categories: category is a class label (int64), the one type it does not share.
    types = {name: feature.dtype for name, feature in loaded["train"].features.items()}
    assert isinstance(loaded["train"].features["category"], datasets.ClassLabel)
    assert types.pop("category") == "int64"
    return counts, {**types, "category": EXPECTED_TYPES["category"]}


VIEWS = [pandas_view, pyarrow_view, polars_view, duckdb_view, datasets_view]


@pytest.mark.parametrize("view", VIEWS, ids=lambda view: view.__name__.removesuffix("_view"))
def test_every_reader_sees_the_counts_of_stats_json_and_the_captions_types(view, output, tmp_path):
    stats = json.loads((output / "stats.json").read_text())
    counts, types = view(output, tmp_path)
    assert counts == stats["output"]["captions_by_split"]
    assert types == EXPECTED_TYPES


def test_the_run_has_all_three_splits(output):
    # Otherwise the counts above would compare less than they seem to.
    stats = json.loads((output / "stats.json").read_text())
    assert set(stats["output"]["captions_by_split"]) == {"train", "validate", "test"}
    assert EXPECTED_TYPES == {"video_id": "string", "sen_id": "int64", "split": "string",
                              "category": "int32", "caption": "string"}


# sen_ids across the whole int64 range, small and large, so that with one id a file some file
# numbers have more digits than others.
WIDE_SEN_IDS = [-7, 0, 3, 20_000, 120_000, 5_000_000_000, 2**63 - 1]


def sen_ids_as_read(folder):
    """The captions' sen_ids, in the order each reader gives them without being asked to sort."""
    with duckdb.connect() as connection:
        duckdb_ids = [row[0] for row in connection.sql(
            f"select sen_id from read_parquet('{folder}/*.parquet')").fetchall()]
    return {
        "pandas": pd.read_parquet(folder)["sen_id"].tolist(),
        "pyarrow": pq.read_table(folder)["sen_id"].to_pylist(),
        "polars": pl.read_parquet(folder / "*.parquet")["sen_id"].to_list(),
        "duckdb": duckdb_ids,
    }


def test_files_of_any_int64_ids_read_as_one_table_sorted_by_sen_id(tmp_path, write_annotations):
    from pipelines.cli import main

    videos = [{"video_id": "video1", "split": "train", "category": 1}]
    sentences = [{"sen_id": sen_id, "video_id": "video1", "caption": f"a man walks past door {number}"}
                 for number, sen_id in enumerate(WIDE_SEN_IDS)]
    folder = write_annotations(tmp_path / "in", videos, sentences)
    output = tmp_path / "out"
    assert main(["clean", "--input", str(folder), "--output", str(output), "--steps", "normalize",
                 "--sen-ids-per-file", "1"]) == 0
    assert len(list((output / "captions").glob("*.parquet"))) == len(WIDE_SEN_IDS) - 1  # -7 and 0 share file 0
    for reader, sen_ids in sen_ids_as_read(output / "captions").items():
        assert sen_ids == WIDE_SEN_IDS, reader
