"""What `capclean da score` reads: the HITs of a prepared folder (its hits/ table) and the judgments files.

A judgments file is CSV, Parquet or JSON lines (.csv, .parquet, .jsonl or .ndjson), holding either a plain
table (worker, hit_id, slot, score, and optionally seconds: the rating page's CSV is one) or MTurk's batch
results (WorkerId, WorkTimeInSeconds, Input.hit_id, Answer.score_<slot>; any other column MTurk writes is
ignored). The checks are transforms/da/judgments.py's; an error names the file and the row: "line N" of
a CSV or JSON lines file (line 1 is a CSV's header), "row N" of a Parquet file.
"""
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.evaluation.table_files import checked_table_file, read_rows as read_table_file
from transforms.da.judgments import (PLAIN_COLUMNS, JudgmentError, RawJudgments, hits_from_columns, is_mturk,
                                     mturk_judgments, plain_judgments)

JUDGMENT_FORMATS = (".csv", ".parquet", ".jsonl", ".ndjson")  # table_files reads them


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
    return checked_table_file(path, flag, f"a judgments file is {', '.join(JUDGMENT_FORMATS)}", JUDGMENT_FORMATS,
                              JudgmentError)


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
    return read_table_file(path, str(path), JudgmentError)
