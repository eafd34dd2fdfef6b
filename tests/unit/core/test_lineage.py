"""The lineage rows mirror the output schemas column for column, and the writer writes them as typed."""
import pyarrow.parquet as pq

from schemas.tables import TABLES
from transforms.lineage import ROW_TYPES, EditRow, RemovedRow, RunonRow, column_names
from pipelines.cleaning.write_tables import write_table_file


def test_every_table_has_a_row_type_with_its_columns_in_order():
    assert list(ROW_TYPES) == list(TABLES)
    for table, row_type in ROW_TYPES.items():
        assert column_names(row_type) == TABLES[table].names, table


def test_a_runon_row_is_written_with_its_lists(tmp_path):
    path = tmp_path / "runon.parquet"
    row = RunonRow(4, "video1", "test", ("a man sings", "then he bows"), "separate", "made 2 captions", (104,))
    assert write_table_file([row], "runon", str(path)) == 1
    assert pq.read_table(path).to_pylist() == [{
        "sen_id": 4, "video_id": "video1", "split": "test", "sentences": ["a man sings", "then he bows"],
        "policy": "separate", "action": "made 2 captions", "new_sen_ids": [104],
        "rule": None, "scored_for": None, "threshold": None}]


def read_back(rows, table, tmp_path) -> list:
    path = tmp_path / f"{table}.parquet"
    write_table_file(rows, table, str(path))
    return pq.read_table(path).to_pylist()


def test_step_three_and_four_facts_are_written_typed_and_null_on_other_rows(tmp_path):
    near_duplicate = RemovedRow(7, "video1", "train", "a man plays guitar", "dedup", "near-duplicate of ...", 9,
                                opener_sen_id=5, compared_sen_id=5, similarity=0.9, edit_threshold=1,
                                similarity_threshold=0.85, dedup_pass=2)
    screened = RemovedRow(8, "video1", "train", "xxx", "screen", "no word")
    facts = ["kept_sen_id", "opener_sen_id", "compared_sen_id", "similarity", "edit_threshold",
             "similarity_threshold", "dedup_pass"]
    written = read_back([near_duplicate, screened], "removed", tmp_path)
    assert [[row[name] for name in facts] for row in written] == [[9, 5, 5, 0.9, 1, 0.85, 2], [None] * 7]

    truncated = EditRow(7, "video1", "runon", "truncate>13", "a b", "a", word_limit=13)
    normalized = EditRow(8, "video1", "normalize", "lowercase", "A", "a")
    assert [row["word_limit"] for row in read_back([truncated, normalized], "edits", tmp_path)] == [13, None]

    split = RunonRow(4, "video1", "test", ("a man sings", "he bows"), "first", "kept the first of 2 sentences",
                     rule="model", scored_for="word cue", threshold=0.9)
    [row] = read_back([split], "runon", tmp_path)
    assert (row["rule"], row["scored_for"], row["threshold"]) == ("model", "word cue", 0.9)
