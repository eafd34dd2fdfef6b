"""Fixtures of the Direct Assessment tests: HITs tables written as `capclean da prepare` writes hits/ (until it
lands, the tests build their own), judgments files in each shape `capclean da score` reads, and simulated studies.

The tiny HIT (hit-0001), worked by hand in the tests:
    slot 1  system     A          A/v1            "a man sings a song"
    slot 2  system     B          B/v2            "a dog runs in a park"
    slot 3  reference  reference  reference/v3    "a cat sleeps on a sofa"
    slot 4  degraded   A          A/v1#degraded   "a man zebra purple song"   copies slot 1
    slot 5  repeat     B          B/v2            "a dog runs in a park"      copies slot 2
    slot 6  system     A          A/v4            "a woman cooks pasta"
"""
import csv
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from transforms.da.judgments import HITS_COLUMNS, hits_from_columns

HITS_SCHEMA = pa.schema([("hit_id", pa.string()), ("slot", pa.int32()), ("kind", pa.string()),
                         ("system", pa.string()), ("video_id", pa.string()), ("sen_id", pa.int64()),
                         ("caption", pa.string()), ("item_id", pa.string()), ("original_slot", pa.int32())])

TINY_HIT = [
    ("hit-0001", 1, "system", "A", "v1", None, "a man sings a song", "A/v1", None),
    ("hit-0001", 2, "system", "B", "v2", None, "a dog runs in a park", "B/v2", None),
    ("hit-0001", 3, "reference", "reference", "v3", 30, "a cat sleeps on a sofa", "reference/v3", None),
    ("hit-0001", 4, "degraded", "A", "v1", None, "a man zebra purple song", "A/v1#degraded", 1),
    ("hit-0001", 5, "repeat", "B", "v2", None, "a dog runs in a park", "B/v2", 2),
    ("hit-0001", 6, "system", "A", "v4", None, "a woman cooks pasta", "A/v4", None),
]


def rows_of(tuples) -> list:
    return [dict(zip(HITS_COLUMNS, values)) for values in tuples]


def columns_of(rows: list) -> dict:
    return {name: [row[name] for row in rows] for name in HITS_COLUMNS}


@pytest.fixture
def tiny_hit_rows():
    return rows_of(TINY_HIT)


@pytest.fixture
def tiny_hits(tiny_hit_rows):
    """The tiny HIT as transforms.da.judgments.Hits."""
    return hits_from_columns(columns_of(tiny_hit_rows), "tiny/hits")


@pytest.fixture
def hits_of():
    """rows -> Hits."""
    return lambda rows: hits_from_columns(columns_of(rows), "hits")


def _write_hits_folder(folder, rows):
    (folder / "hits").mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist([{name: row[name] for name in HITS_COLUMNS} for row in rows], schema=HITS_SCHEMA)
    pq.write_table(table, folder / "hits" / "part-00000.parquet")
    return folder


@pytest.fixture
def write_hits_folder():
    """(folder, rows) -> folder holding hits/ as capclean da prepare writes it."""
    return _write_hits_folder


def _write_judgments(path, rows: list, columns=("worker", "hit_id", "slot", "score", "seconds")):
    """Judgment row dicts to `path`, by its extension: .csv, .parquet or .jsonl."""
    if path.suffix == ".parquet":
        pq.write_table(pa.Table.from_pylist(rows), path)
    elif path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    else:
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, list(columns), extrasaction="ignore")
            writer.writeheader()
            writer.writerows(rows)
    return path


@pytest.fixture
def write_judgments():
    """(path, [row dict], columns=...) -> path: judgments as CSV, Parquet or JSON lines (by the extension)."""
    return _write_judgments


SIMULATED_SYSTEMS = ("s1", "s2", "s3", "s4", "s5")
# The simulated truth: each system's quality on the 0-100 scale, the reference the best.
SIMULATED_QUALITY = {"s1": 75.0, "s2": 65.0, "s3": 55.0, "s4": 45.0, "s5": 35.0, "reference": 85.0}


@pytest.fixture(scope="session")
def simulated_study():
    """(hits rows, quality): 30 HITs of the default recipe's shape over five systems of known quality."""
    from transforms.da.crowd import study_hits

    return study_hits(SIMULATED_SYSTEMS, 30, seed=1), SIMULATED_QUALITY
