"""A table a user gives a command as a file: CSV (with a header), Parquet, or JSON lines (one object a line),
told apart by its suffix (.csv, .parquet, .jsonl or .json). Read as rows of the columns a command names;
a missing column, an unreadable file or line, or an empty table is one line naming the file (and the row).
`capclean da prepare --systems` reads its systems so, and `capclean da score` its judgments."""
import csv
import json
from pathlib import Path

from transforms.errors import CapcleanError

SUFFIXES = (".csv", ".parquet", ".jsonl", ".ndjson", ".json")


class TableFileError(CapcleanError):
    """A table file that cannot be used; the message names it, and the row."""


def read_table_rows(path: str, flag: str, columns: tuple, optional_columns: tuple = ()) -> list:
    """(where, row) per row of the file, each row a dict of `columns` (each present) and of the
    `optional_columns` it has (None where it has not). Values are as the format holds them: strings in a CSV.
    `where` is "line N" of a CSV (line 1 its header) or JSON-lines file, "row N" of a Parquet file."""
    file = checked_table_file(path, flag, "expected a .csv, .parquet or .jsonl file")
    header, rows = read_rows(file, f"{flag} {path}")
    missing = [name for name in columns if name not in header]
    if missing:
        raise TableFileError(f"{flag} {path}: no column {', '.join(missing)} (needs {', '.join(columns)})")
    if not rows:
        raise TableFileError(f"{flag} {path}: no row")
    wanted = columns + tuple(name for name in optional_columns if name not in columns)
    return [(where, {name: row.get(name) for name in wanted}) for where, row in rows]


def checked_table_file(path: str, flag: str, expected: str, suffixes: tuple = SUFFIXES,
                       error=TableFileError) -> Path:
    """The path of a table file with a known suffix that exists; else one line of `error` naming the flag, the
    path and what was `expected`. Checked before any work."""
    file = Path(path)
    if file.suffix.lower() not in suffixes:
        raise error(f"{flag} {path}: {expected}, not {file.suffix or 'a file without an extension'}")
    if not file.is_file():
        raise error(f"{flag} {path}: no such file")
    return file


def read_rows(file: Path, name: str, error=TableFileError) -> tuple:
    """(the column names, [(where, {column: value})]) of a CSV, Parquet or JSON-lines file, told by its suffix;
    what cannot be read is one line of `error` beginning with `name` (how the message names the file)."""
    suffix = file.suffix.lower()
    if suffix == ".parquet":
        return _parquet_rows(file, name, error)
    try:
        with open(file, newline="", encoding="utf-8-sig") as handle:
            return _csv_rows(handle, name, error) if suffix == ".csv" else _json_lines(handle, name, error)
    except UnicodeDecodeError as problem:
        raise error(f"{name} is not UTF-8 text: byte {problem.start} cannot be decoded") from None


def _csv_rows(handle, name: str, error) -> tuple:
    """The header and each row with its line; a line the csv module cannot split (a cell over its size limit)
    is one line naming it, not a traceback. (At such an error the reader's own line count is not reliable: the
    line named is the one after the last row read.)"""
    reader = csv.DictReader(handle)
    rows, last_line = [], 0
    try:
        columns = list(reader.fieldnames or [])
        last_line = reader.line_num
        for row in reader:
            rows.append((f"line {reader.line_num}", row))
            last_line = reader.line_num
    except csv.Error as problem:
        raise error(f"{name}: line {last_line + 1} is not a CSV row: {problem}") from None
    return columns, rows


def _parquet_rows(file: Path, name: str, error) -> tuple:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(file)
    except (OSError, pa.ArrowException) as problem:
        raise error(f"{name}: not a Parquet file ({str(problem).splitlines()[0]})") from None
    return list(table.column_names), [(f"row {at}", row) for at, row in enumerate(table.to_pylist(), 1)]


def _json_lines(handle, name: str, error) -> tuple:
    """One JSON object a line; blank lines skipped; the columns are every key any line has (a row without one
    reads it as None, for the caller to refuse)."""
    rows, columns = [], {}
    for number, line in enumerate(handle, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as problem:
            raise error(f"{name}: line {number} is not JSON: {problem}") from None
        if not isinstance(row, dict):
            raise error(f"{name}: line {number} is not a JSON object")
        columns.update(dict.fromkeys(row))
        rows.append((f"line {number}", row))
    return list(columns), rows
