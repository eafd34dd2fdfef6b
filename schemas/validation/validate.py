"""validate_output: read a capclean output folder back, run every suite on it, and say what failed.

The steps, in order: read each table into pandas (read_output), build the checks of each table
(suites.py) and of the tables derived from them (derived_suites.py), run them with GX
(gx_runner.py), turn each result into a record and each failure into a line (outcomes.py), and
make the Data Docs read offline (data_docs.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from schemas.tables import TABLES
from schemas.validation.data_docs import make_docs_offline
from schemas.validation.derived_suites import derived_table_checks
from schemas.validation.gx_runner import run_suites
from schemas.validation.outcomes import expectation_record, failure_line, plural
from schemas.validation.suites import OutputExpectations, table_checks


@dataclass
class ValidationResult:
    success: bool
    # One line per failed expectation: table, expectation, offending rows.
    failures: list[str]
    # How many expectations ran, for the summary.
    expectations_checked: int = 0
    # The Data Docs index page, when they were built.
    docs_index: str | None = None
    # One record per expectation that ran, in suite order (see expectation_record).
    expectations: list[dict] = field(default_factory=list)

    def summary(self) -> str:
        verdict = "passed" if self.success else f"FAILED ({plural(len(self.failures), 'failure')})"
        lines = [f"capclean output validation {verdict}: "
                 f"{self.expectations_checked} expectations checked"]
        lines += [f"  - {failure}" for failure in self.failures]
        if self.docs_index:
            lines.append(f"Data Docs: {self.docs_index}")
        return "\n".join(lines)


def validate_output(
    output_dir: str,
    expectations: OutputExpectations,
    docs_dir: str | None = None,
) -> ValidationResult:
    """Validate every table under `output_dir`; build Data Docs into `docs_dir`."""
    frames, failures = read_output(output_dir)
    return validate_frames(frames, failures, expectations, docs_dir)


def validate_frames(
    frames: dict[str, pd.DataFrame],
    read_failures: list[str],
    expectations: OutputExpectations,
    docs_dir: str | None = None,
) -> ValidationResult:
    """Validate the tables read_output read (`frames`, and its failures); build Data Docs into `docs_dir`.

    For a caller that keeps the frames for what comes next (`capclean clean`'s report), so that
    nothing reads the tables twice."""
    failures = list(read_failures)
    checks = table_checks(frames, expectations)
    derived_checks, not_checked = derived_table_checks(frames, expectations)
    checks += derived_checks

    results = run_suites(checks, docs_dir)
    for check, result in results:
        if not result.success:
            failures.append(failure_line(check, result, frames))
    failures += not_checked
    records = [expectation_record(check, result) for check, result in results]
    if docs_dir:
        make_docs_offline(Path(docs_dir), records, failures)

    return ValidationResult(
        success=not failures,
        failures=failures,
        expectations_checked=len(results),
        docs_index=str(Path(docs_dir, "index.html")) if docs_dir else None,
        expectations=records,
    )


# --- Reading the output back -------------------------------------------------

def read_output(output_dir: str) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """Read each table of `output_dir` into pandas; a missing folder is a failure."""
    frames, failures = {}, []
    for name, schema in TABLES.items():
        folder = Path(output_dir, name)
        if not folder.is_dir():
            failures.append(f"{name}: folder {folder} is missing")
        frames[name] = read_table_folder(folder, schema)
    return frames, failures


def read_table_folder(folder: Path, schema: pa.Schema) -> pd.DataFrame:
    """Read the Parquet files of one table, in file-name order, as one frame.

    Files are read one by one, each with the schema it was written with, so
    that a file with a wrong column type still reads and the type
    expectations report it. A folder without files is an empty table.
    """
    files = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
    parts = [to_pandas(pq.read_table(path)) for path in files]
    if not parts:
        return to_pandas(schema.empty_table())
    return pd.concat(parts, ignore_index=True)


def to_pandas(table: pa.Table) -> pd.DataFrame:
    nullable_integers = {pa.int64(): pd.Int64Dtype(), pa.int32(): pd.Int32Dtype()}
    return table.to_pandas(types_mapper=nullable_integers.get)
