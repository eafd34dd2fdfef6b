"""A table a user gives a command as a file: CSV (with a header), Parquet, or JSON lines (one object a line),
told apart by its suffix (.csv, .parquet, .jsonl or .json). Read as rows of the columns a command names;
a missing column, an unreadable file or line, or an empty table is one line naming the file (and the row).
`capclean da prepare --systems` reads its systems so, and `capclean da score` may read its judgments so."""
import csv
import json
from pathlib import Path

from transforms.errors import CapcleanError

SUFFIXES = (".csv", ".parquet", ".jsonl", ".json")


class TableFileError(CapcleanError):
    """A table file that cannot be used; the message names it, and the row."""


def read_table_rows(path: str, flag: str, columns: tuple, optional_columns: tuple = ()) -> list:
    """The rows of the file as dicts of `columns` (each present) and of the `optional_columns` it has (None
    where it has not). Values are as the format holds them: strings in a CSV. Row numbers count the data
    rows from 1 (a CSV's header is not one)."""
    file = Path(path)
    if not file.is_file():
        raise TableFileError(f"{flag} {path}: no such file")
    suffix = file.suffix.lower()
    if suffix not in SUFFIXES:
        raise TableFileError(f"{flag} {path}: expected a .csv, .parquet or .jsonl file")
    reader = {".csv": _csv_rows, ".parquet": _parquet_rows}.get(suffix, _json_lines)
    header, rows = reader(file, flag)
    missing = [name for name in columns if name not in header]
    if missing:
        raise TableFileError(f"{flag} {path}: no column {', '.join(missing)} (needs {', '.join(columns)})")
    if not rows:
        raise TableFileError(f"{flag} {path}: no row")
    wanted = columns + tuple(name for name in optional_columns if name not in columns)
    return [{name: row.get(name) for name in wanted} for row in rows]


def _csv_rows(file: Path, flag: str) -> tuple:
    try:
        with open(file, encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            rows = list(reader)
            return tuple(reader.fieldnames or ()), rows
    except (UnicodeDecodeError, csv.Error) as error:
        raise TableFileError(f"{flag} {file}: not a UTF-8 CSV file ({error})") from None


def _parquet_rows(file: Path, flag: str) -> tuple:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(file)
    except (OSError, pa.ArrowInvalid) as error:
        raise TableFileError(f"{flag} {file}: not a Parquet file ({str(error).splitlines()[0]})") from None
    return tuple(table.column_names), table.to_pylist()


def _json_lines(file: Path, flag: str) -> tuple:
    rows, header = [], {}
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise TableFileError(f"{flag} {file}: not UTF-8 text") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as error:
            raise TableFileError(f"{flag} {file}: line {number} is not JSON ({error})") from None
        if not isinstance(row, dict):
            raise TableFileError(f"{flag} {file}: line {number} is not a JSON object")
        header.update(dict.fromkeys(row))
        rows.append(row)
    # A column is there when the first row has it; a later row without it is the caller's to refuse.
    return tuple(rows[0]) if rows else tuple(header), rows
