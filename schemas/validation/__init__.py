"""Check a capclean output folder against its contract with Great Expectations.

An output folder holds the tables of schemas/tables.py (captions/, removed/, ...),
each a folder of Parquet files whose schemas are in schemas/tables.py.
`validate_output` reads every table back into pandas and runs one Great
Expectations (GX Core 1.x) suite per table, plus one suite per table derived
from them, for checks that need a computed column or two tables at once.

Each failed expectation becomes one short line naming the table, the
expectation and a few offending rows; every expectation, passed or not, also
becomes one record (table, expectation, success, observed value). With
`docs_dir`, GX also writes its Data Docs (a static HTML site), which capclean
makes read offline.

The modules, in the order validate_output uses them:

  validate.py        validate_output (or validate_frames, on tables already read) and
                     ValidationResult; reading the tables back
  suites.py          OutputExpectations and the suite of each table
  derived_suites.py  the checks on derived tables (video ranges, edits, conservation, keepers)
  gx_runner.py       running GX: the lazy import, TableCheck, the in-memory context
  outcomes.py        each expectation's record and each failure's line
  data_docs.py       the Data Docs made to read offline, and their index page

Great Expectations takes seconds to import, so it is imported inside the
functions that use it: importing this package stays cheap.
"""
from schemas.validation.suites import OutputExpectations
from schemas.validation.validate import ValidationResult, read_output, validate_frames, validate_output

__all__ = ["OutputExpectations", "ValidationResult", "read_output", "validate_frames", "validate_output"]
