"""pipelines/evaluation/table_files.py: a table given as CSV, Parquet or JSON lines reads as the same rows;
what cannot be used is one line naming the file (and the line)."""
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.evaluation.table_files import TableFileError, read_table_rows

ROWS = [{"video_id": "video1", "system": "a", "caption": 'a "quoted", comma\nand newline'},
        {"video_id": "video2", "system": "b", "caption": "plain"}]
COLUMNS = ("video_id", "system", "caption")


def write_all(folder) -> list:
    import csv

    with open(folder / "t.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=[*COLUMNS, "extra"])
        writer.writeheader()
        writer.writerows({**row, "extra": "x"} for row in ROWS)
    pq.write_table(pa.Table.from_pylist(ROWS), folder / "t.parquet")
    (folder / "t.jsonl").write_text("".join(json.dumps(row) + "\n" for row in ROWS) + "\n")
    return [folder / "t.csv", folder / "t.parquet", folder / "t.jsonl"]


def test_the_three_formats_read_as_the_same_rows(tmp_path):
    for path in write_all(tmp_path):
        assert [row for _, row in read_table_rows(str(path), "--systems", COLUMNS)] == ROWS
    assert read_table_rows(str(tmp_path / "t.csv"), "--x", ("video_id",), ("seconds",))[0] == (
        "line 3", {"video_id": "video1", "seconds": None})  # the first row's caption holds a newline


def test_each_row_says_where_it_is_as_every_command_names_rows(tmp_path):
    """A CSV's line (1 is its header; a row whose caption holds a newline ends on the line after), a JSON-lines
    file's line, a Parquet file's row."""
    csv_path, parquet_path, jsonl_path = write_all(tmp_path)
    assert [where for where, _ in read_table_rows(str(csv_path), "--systems", COLUMNS)] == ["line 3", "line 4"]
    assert [where for where, _ in read_table_rows(str(parquet_path), "--systems", COLUMNS)] == ["row 1", "row 2"]
    assert [where for where, _ in read_table_rows(str(jsonl_path), "--systems", COLUMNS)] == ["line 1", "line 2"]


@pytest.mark.parametrize("name, text, message", [
    ("t.csv", "video_id,caption\nvideo1,a\n", "no column system"),
    ("t.csv", "video_id,system,caption\n", "no row"),
    ("t.jsonl", '{"video_id": "v", "system": "s", "caption": "c"}\n{oops\n', "line 2 is not JSON"),
    ("t.jsonl", '["video_id"]\n', "line 1 is not a JSON object"),
    ("t.txt", "anything", "expected a .csv, .parquet or .jsonl file"),
    ("t.parquet", "not parquet", "not a Parquet file"),
])
def test_what_cannot_be_read_is_one_line_naming_the_file(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(TableFileError, match=message) as raised:
        read_table_rows(str(path), "--systems", COLUMNS)
    assert str(path) in str(raised.value) and "\n" not in str(raised.value)


def test_a_missing_file(tmp_path):
    with pytest.raises(TableFileError, match="no such file"):
        read_table_rows(str(tmp_path / "none.csv"), "--systems", COLUMNS)
