"""The tables a user brings (a model's scores or predictions, relevance labels), read as the evaluation
commands need them: a Parquet or CSV file's rows, each with where it is ("row N", "line N"), an id as text,
a score as a finite number. A bad file or cell is a one-line error of the caller's class naming the file,
the row and the column."""
import csv
import math
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

TABLE_FORMATS = (".parquet", ".csv")


def table_path(path, what: str, error) -> Path:
    """The path of a Parquet or CSV file that exists."""
    path = Path(path)
    if path.suffix.lower() not in TABLE_FORMATS:
        raise error(f"{path}: {what} must be a .parquet or .csv file, not {path.suffix or 'no extension'!r}")
    if not path.is_file():
        raise error(f"{path} not found")
    return path


def table_rows(path: Path, columns: tuple, error, optional: tuple = ()) -> list:
    """(where, {column: value}) per row of a Parquet ("row N") or CSV ("line N", 1 = the header) file."""
    if path.suffix.lower() == ".parquet":
        try:
            names = pq.read_schema(path).names
        except pa.ArrowException as problem:
            raise error(f"{path} is not a readable Parquet file: {str(problem).splitlines()[0]}") from None
        check_columns(path, names, columns, error)
        wanted = list(columns) + [name for name in optional if name in names]
        table = pq.read_table(path, columns=wanted).to_pydict()
        return [(f"row {i + 1}", {name: table[name][i] for name in wanted}) for i in range(len(table[wanted[0]]))]
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            check_columns(path, reader.fieldnames or [], columns, error)
            return [(f"line {reader.line_num}", row) for row in reader]
    except UnicodeDecodeError as problem:
        raise error(f"{path} is not UTF-8 text: byte {problem.start} cannot be decoded") from None


def check_columns(path: Path, names, columns: tuple, error) -> None:
    missing = [column for column in columns if column not in names]
    if missing:
        raise error(f"{path}: no column(s) {', '.join(missing)} (columns found: "
                    f"{', '.join(names) or 'none'}); it needs {', '.join(columns)}")


def cell_id(path, where: str, column: str, value, error) -> str:
    """An id as the captions name it: a string, whatever type the file stored it as."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise error(f"{path}: {where} has no {column}")
    # pandas stores an integer column that has a gap as floats: 123.0 is sen_id 123.
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def cell_number(path, where: str, column: str, value, error) -> float:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise error(f"{path}: {where}, column {column} is empty")
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = None
    if isinstance(value, bool) or number is None:
        raise error(f"{path}: {where}, column {column}: {value!r} is not a number")
    # A NaN would rank above every other score (it compares false with everything), an infinity always first
    # or last: both are refused, as every scores reader refuses them.
    if not math.isfinite(number):
        raise error(f"{path}: {where}, column {column}: {value!r} is not a finite number")
    return number


# The words a relevance label may be, case aside: what FIRE's files and people labelling a sheet write.
RELEVANT_WORDS = ("1", "1.0", "true", "relevant", "yes")
IRRELEVANT_WORDS = ("0", "0.0", "false", "irrelevant", "no")


def cell_label(path, where: str, column: str, value, error) -> bool:
    """A relevance label: True for a word of RELEVANT_WORDS, False for one of IRRELEVANT_WORDS; any other
    word is refused, naming the words it may be."""
    text = str(value).strip().lower() if value is not None else ""
    if text in RELEVANT_WORDS:
        return True
    if text in IRRELEVANT_WORDS:
        return False
    raise error(f"{path}: {where}, column {column}: {value!r} is not a label (relevant: "
                f"{'/'.join(RELEVANT_WORDS)}; irrelevant: {'/'.join(IRRELEVANT_WORDS)})")
