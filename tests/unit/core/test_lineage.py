"""The lineage rows mirror the output schemas column for column, and the writer writes them as typed."""
import pyarrow.parquet as pq

from schemas.tables import TABLES
from transforms.lineage import ROW_TYPES, RunonRow, column_names
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
        "policy": "separate", "action": "made 2 captions", "new_sen_ids": [104]}]
