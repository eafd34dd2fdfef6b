"""What `capclean da score` reads: the HITs of a prepared folder (its hits/ table) and the judgments files.

A judgments file is CSV, Parquet or JSON lines (.csv, .parquet, .jsonl or .ndjson), holding either a plain
table (worker, hit_id, slot, score, and optionally seconds: the rating page's CSV is one) or MTurk's batch
results (WorkerId, WorkTimeInSeconds, Input.hit_id, Answer.score_<slot>; any other column MTurk writes is
ignored). The checks are transforms/da/judgments.py's; an error names the file and the row: "line N" of
a CSV or JSON lines file (line 1 is a CSV's header), "row N" of a Parquet file.
"""
import csv
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from transforms.da.judgments import (PLAIN_COLUMNS, JudgmentError, RawJudgments, hits_from_columns, is_mturk,
                                     mturk_judgments, plain_judgments)

JUDGMENT_FORMATS = (".csv", ".parquet", ".jsonl", ".ndjson")


def read_hits(folder: str):
    """The checked HITs table of a prepared folder (capclean da prepare's output, or any folder holding hits/)."""
    table_path = Path(folder) / "hits"
    if not Path(folder).is_dir():
        raise JudgmentError(f"--hits {folder}: no such folder")
    if not table_path.exists():
        raise JudgmentError(f"--hits {folder}: no hits/ table in it; give the folder capclean da prepare wrote")
    try:
        columns = pq.read_table(table_path).to_pydict()
    except (pa.ArrowException, OSError) as error:
        raise JudgmentError(f"{table_path} is not a readable Parquet table: {str(error).splitlines()[0]}") from None
    return hits_from_columns(columns, str(table_path))


def check_judgment_file(path: str, flag: str) -> Path:
    """A judgments file the command can read; checked before any work."""
    file = Path(path)
    if file.suffix.lower() not in JUDGMENT_FORMATS:
        raise JudgmentError(f"{flag} {path}: a judgments file is {', '.join(JUDGMENT_FORMATS)}, not "
                            f"{file.suffix or 'a file without an extension'}")
    if not file.is_file():
        raise JudgmentError(f"{flag} {path}: no such file")
    return file


def read_judgments(path: Path) -> RawJudgments:
    """The judgments of one file, in whichever shape it holds them, not yet checked against the HITs."""
    columns, rows = read_rows(path)
    if is_mturk(columns):
        judgments = mturk_judgments(rows, columns, str(path))
    else:
        missing = [name for name in PLAIN_COLUMNS if name not in columns]
        if missing:
            raise JudgmentError(f"{path}: no column(s) {', '.join(missing)} (columns found: "
                                f"{', '.join(columns) or 'none'}); judgments have {', '.join(PLAIN_COLUMNS)} (and "
                                "optionally seconds), or are MTurk's batch results (WorkerId, WorkTimeInSeconds, "
                                "Input.hit_id, Answer.score_<slot>)")
        judgments = plain_judgments(rows, str(path))
    if not judgments.where:
        raise JudgmentError(f"{path} holds no judgment")  # an empty export, most likely: say so, not score nothing
    return judgments


def read_rows(path: Path) -> tuple:
    """(the column names, [(where, {column: value})])."""
    suffix = path.suffix.lower()
    try:
        if suffix == ".parquet":
            table = pq.read_table(path).to_pylist()
            return (pq.read_schema(path).names, [(f"row {at + 1}", row) for at, row in enumerate(table)])
        with open(path, newline="", encoding="utf-8-sig") as handle:
            if suffix == ".csv":
                return csv_rows(path, handle)
            return json_lines(path, handle)
    except UnicodeDecodeError as error:
        raise JudgmentError(f"{path} is not UTF-8 text: byte {error.start} cannot be decoded") from None
    except (pa.ArrowException, OSError) as error:
        raise JudgmentError(f"{path} cannot be read: {str(error).splitlines()[0]}") from None


def csv_rows(path: Path, handle) -> tuple:
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
    except csv.Error as error:
        raise JudgmentError(f"{path}: line {last_line + 1} is not a CSV row: {error}") from None
    return columns, rows


def json_lines(path: Path, handle) -> tuple:
    """One JSON object a line; blank lines skipped; the columns are every key any line has."""
    rows, columns = [], {}
    for number, line in enumerate(handle, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as error:
            raise JudgmentError(f"{path}: line {number} is not JSON: {error}") from None
        if not isinstance(row, dict):
            raise JudgmentError(f"{path}: line {number} is not a JSON object")
        columns.update(dict.fromkeys(row))
        rows.append((f"line {number}", row))
    return list(columns), rows
