"""Check a capclean output folder against its contract with Great Expectations.

An output folder holds the tables of schemas/tables.py (captions/, removed/, ...),
each a folder of Parquet files whose schemas are in schemas/tables.py.
`validate_output` reads every table back into pandas and runs one Great
Expectations (GX Core 1.x) suite per table, plus one suite per table derived
from them, for checks that need a computed column or two tables at once:

- `video_ranges`: captions with N parsed from each "video<N>", so that each
  split's videos can be checked against that split's range;
- `edit_changes`: edits with a `changed` column (before != after);
- `conservation`: every captions row and every removed row, so that no
  caption is lost or counted twice;
- `near_duplicate_keepers`: the near-duplicate rows of removed with a column
  saying whether their `kept_sen_id` is in captions, so that every removal
  names a caption that stands for its group in the output.

Each failed expectation becomes one short line naming the table, the
expectation and a few offending rows; every expectation, passed or not, also
becomes one record (table, expectation, success, observed value). With
`docs_dir`, GX also writes its Data Docs (a static HTML site). GX's pages load
their styling and scripts from CDNs, and its index page fills its tables with
those scripts, so offline it is a bare, empty page: capclean takes those loads
out of every page, gives the pages a plain inline style, and writes the index
itself from the records (docs_dir/index.html), so that the site reads offline.

Great Expectations takes seconds to import, so it is imported inside the
functions that use it: importing this module stays cheap.
"""
from __future__ import annotations

import html
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from schemas.tables import TABLES

# The name of the one Data Docs site GX builds.
DOCS_SITE = "capclean"

# How many offending rows a failure line (and the Data Docs) shows.
EXAMPLE_ROWS = 3

# A caption is non-empty words separated by single spaces. `\Z` rather than
# `$`, because Python's `$` also matches before a trailing newline.
SINGLE_SPACED = r"^\S+(?: \S+)*\Z"

# The reason the read step gives a record whose sen_id it has already seen:
# such a record is a second copy of an id that is counted once elsewhere.
REPEATED_ID_REASON = "sen_id repeated"

# The pandas scalar type each Arrow type of tables.py reads back as. Integer
# columns are read as nullable pandas integers (a null would otherwise turn
# them into floats), whose scalar type is still numpy's int64 / int32.
PANDAS_TYPE_OF = {
    pa.int64(): "int64",
    pa.int32(): "int32",
    pa.string(): "str",
    pa.float64(): "float64",
}


def great_expectations():
    """Import Great Expectations on first use (it takes seconds), analytics off."""
    # GX reads this when it is imported: nothing may leave this machine.
    os.environ["GX_ANALYTICS_ENABLED"] = "false"
    # GX logs hundreds of INFO lines while importing; a Beam worker logs at INFO.
    logging.getLogger("great_expectations").setLevel(logging.WARNING)
    import great_expectations as gx

    # Some GX modules set their own logger to INFO when imported.
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("great_expectations"):
            logging.getLogger(name).setLevel(logging.WARNING)

    return gx


@dataclass(frozen=True)
class OutputExpectations:
    """What a given run's output must look like, beyond the fixed contract."""

    # Every caption character must be in this set.
    allowed_characters: str
    # The allowed `split` values.
    splits: tuple[str, ...]
    # Inclusive range of N in "video<N>" per split; None: not checked.
    split_video_ranges: dict[str, tuple[int, int]] | None
    # Caption records read from the input: captions rows + removed rows.
    input_records: int
    # Videos with a caption that passed the checks of each caption alone (read to
    # screen): the steps that compare captions must leave each of them one.
    input_videos: int
    # The `step` values removed/ and edits/ may hold: the reader and the pipeline's steps.
    steps: tuple[str, ...]


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


@dataclass
class TableCheck:
    """One GX suite and the table it runs on."""

    name: str
    frame: pd.DataFrame
    expectations: list[Any]  # great_expectations Expectation objects
    # The columns that identify a row in a failure line.
    id_columns: list[str]


def validate_output(
    output_dir: str,
    expectations: OutputExpectations,
    docs_dir: str | None = None,
) -> ValidationResult:
    """Validate every table under `output_dir`; build Data Docs into `docs_dir`."""
    frames, failures = read_output(output_dir)
    checks = [
        TableCheck("captions", frames["captions"], captions_expectations(expectations),
                   id_columns=["sen_id"]),
        TableCheck("removed", frames["removed"], removed_expectations(expectations.steps),
                   id_columns=["sen_id", "step"]),
        TableCheck("edits", frames["edits"], edits_expectations(expectations.steps),
                   id_columns=["sen_id", "step"]),
        TableCheck("corrections", frames["corrections"], corrections_expectations(),
                   id_columns=["sen_id", "position"]),
        TableCheck("flagged", frames["flagged"], contract_expectations(TABLES["flagged"]),
                   id_columns=["sen_id", "position"]),
        TableCheck("runon", frames["runon"], runon_expectations(), id_columns=["sen_id"]),
    ]
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


# --- The suites of the four tables -------------------------------------------

def contract_expectations(schema: pa.Schema) -> list[Any]:
    """Columns, types and non-null columns exactly as schemas/tables.py says."""
    gxe = great_expectations().expectations

    expectations = [gxe.ExpectTableColumnsToMatchOrderedList(column_list=schema.names)]
    for column in schema:
        # List columns (runon/) read back as numpy arrays: their item type is
        # the Parquet schema's, checked when the file is written.
        if column.type in PANDAS_TYPE_OF:
            expectations.append(gxe.ExpectColumnValuesToBeOfType(
                column=column.name, type_=PANDAS_TYPE_OF[column.type]))
    for column in schema:
        if not column.nullable:
            expectations.append(gxe.ExpectColumnValuesToNotBeNull(column=column.name))
    return expectations


def captions_expectations(expected: OutputExpectations) -> list[Any]:
    gxe = great_expectations().expectations

    return contract_expectations(TABLES["captions"]) + [
        gxe.ExpectColumnValuesToBeUnique(column="sen_id"),
        # Readers rely on the table being sorted by sen_id.
        gxe.ExpectColumnValuesToBeIncreasing(column="sen_id", strictly=True),
        gxe.ExpectColumnValuesToMatchRegex(column="caption", regex=SINGLE_SPACED),
        gxe.ExpectColumnValuesToNotMatchRegex(
            column="caption", regex=outside_character_set(expected.allowed_characters)),
        gxe.ExpectColumnValuesToBeInSet(column="split", value_set=list(expected.splits)),
        # Cleaning may drop captions but never a whole video.
        gxe.ExpectColumnUniqueValueCountToBeBetween(
            column="video_id", min_value=expected.input_videos,
            max_value=expected.input_videos),
    ]


def outside_character_set(allowed_characters: str) -> str:
    """A regex matching any one character that is not in `allowed_characters`.

    Only the characters that mean something inside [...] are escaped:
    `re.escape` would also escape spaces, which some regex engines reject.
    """
    escaped = "".join(
        "\\" + char if char in "\\]^-[" else char
        for char in sorted(set(allowed_characters))
    )
    return f"[^{escaped}]"


def removed_expectations(steps: tuple[str, ...]) -> list[Any]:
    gxe = great_expectations().expectations
    Column = gxe.row_conditions.Column

    return contract_expectations(TABLES["removed"]) + [
        gxe.ExpectColumnValuesToBeInSet(column="step", value_set=list(steps)),
        gxe.ExpectColumnValueLengthsToBeBetween(column="reason", min_value=1),
        # A duplicate names the caption it duplicates; nothing else does.
        gxe.ExpectColumnValuesToNotBeNull(
            column="kept_sen_id", row_condition=Column("step") == "dedup"),
        gxe.ExpectColumnValuesToBeNull(
            column="kept_sen_id", row_condition=Column("step") != "dedup"),
    ]


def runon_expectations() -> list[Any]:
    gxe = great_expectations().expectations

    return contract_expectations(TABLES["runon"]) + [
        gxe.ExpectColumnValuesToBeUnique(column="sen_id"),
        gxe.ExpectColumnValuesToBeInSet(column="policy", value_set=["first", "separate", "whole", "merge"]),
    ]


def edits_expectations(steps: tuple[str, ...]) -> list[Any]:
    gxe = great_expectations().expectations

    # before != after is checked on the derived edit_changes table.
    return contract_expectations(TABLES["edits"]) + [
        gxe.ExpectColumnValuesToBeInSet(column="step", value_set=list(steps)),
    ]


def corrections_expectations() -> list[Any]:
    gxe = great_expectations().expectations

    return contract_expectations(TABLES["corrections"]) + [
        gxe.ExpectColumnValuesToBeBetween(column="position", min_value=0),
    ]


# --- Derived tables -----------------------------------------------------------

def derived_table_checks(
    frames: dict[str, pd.DataFrame], expected: OutputExpectations
) -> tuple[list[TableCheck], list[str]]:
    """The checks on derived tables, and a line for each one that cannot run
    because a table it is derived from lacks a column."""
    checks, not_checked = [], []

    # The ranges are MSR-VTT's: a dataset whose video ids are not all `video<N>` is not checked against them.
    if expected.split_video_ranges is not None and numbered_like_msrvtt(frames["captions"]):
        missing = missing_columns(frames, "captions", ["sen_id", "video_id", "split"])
        if missing:
            not_checked.append(f"video_ranges: not checked, {missing}")
        else:
            checks.append(video_ranges_check(frames["captions"], expected.split_video_ranges))

    missing = missing_columns(frames, "edits", ["sen_id", "step", "before", "after"])
    if missing:
        not_checked.append(f"edit_changes: not checked, {missing}")
    else:
        checks.append(edit_changes_check(frames["edits"]))

    missing = (missing_columns(frames, "captions", ["sen_id"])
               or missing_columns(frames, "removed", ["sen_id", "step", "reason"]))
    if missing:
        not_checked.append(f"conservation: not checked, {missing}")
    else:
        checks.append(conservation_check(
            frames["captions"], frames["removed"], expected.input_records, added_sen_ids(frames["runon"])))

    missing = (missing_columns(frames, "captions", ["sen_id"])
               or missing_columns(frames, "removed", ["sen_id", "step", "kept_sen_id"]))
    if missing:
        not_checked.append(f"near_duplicate_keepers: not checked, {missing}")
    else:
        checks.append(keepers_check(frames["captions"], frames["removed"]))

    return checks, not_checked


def numbered_like_msrvtt(captions: pd.DataFrame) -> bool:
    """Whether every video id is `video<N>`, as MSR-VTT's are (a table without the column: yes, to be checked)."""
    if "video_id" not in captions.columns:
        return True
    return bool(captions["video_id"].astype(str).str.fullmatch(r"video\d+").all())


def missing_columns(frames: dict[str, pd.DataFrame], table: str, columns: list[str]) -> str:
    """Empty if `table` has all `columns`, else a phrase naming those it lacks."""
    missing = [column for column in columns if column not in frames[table].columns]
    return f"{table} lacks {', '.join(missing)}" if missing else ""


def video_ranges_check(captions: pd.DataFrame, ranges: dict[str, tuple[int, int]]) -> TableCheck:
    """Each split's videos have their number within that split's range."""
    gxe = great_expectations().expectations
    Column = gxe.row_conditions.Column

    frame = captions[["sen_id", "video_id", "split"]].copy()
    number = frame["video_id"].astype("str").str.extract(r"^video(\d+)\Z", expand=False)
    frame["video_number"] = pd.to_numeric(number).astype("Int64")

    # A null video_number is a video_id that does not read "video<N>".
    expectations = [gxe.ExpectColumnValuesToNotBeNull(column="video_number")]
    for split, (first, last) in ranges.items():
        expectations.append(gxe.ExpectColumnValuesToBeBetween(
            column="video_number", min_value=first, max_value=last,
            row_condition=Column("split") == split))
    return TableCheck("video_ranges", frame, expectations, id_columns=["sen_id", "video_id"])


def edit_changes_check(edits: pd.DataFrame) -> TableCheck:
    """An edit changes the text: before != after.

    A computed column rather than GX's expect_select_column_values_to_be_
    unique_within_record, which runs a Python function per row (12 s on
    200,000 rows).
    """
    gxe = great_expectations().expectations

    frame = edits[["sen_id", "step", "before", "after"]].copy()
    frame["changed"] = (frame["before"] != frame["after"]).fillna(True)
    expectations = [gxe.ExpectColumnValuesToBeInSet(column="changed", value_set=[True])]
    return TableCheck("edit_changes", frame, expectations,
                      id_columns=["sen_id", "step", "before", "after"])


def added_sen_ids(runon: pd.DataFrame) -> set[int]:
    """The ids of the captions step IV's `separate` policy made (not input records)."""
    if "new_sen_ids" not in runon.columns:
        return set()
    return {int(sen_id) for ids in runon["new_sen_ids"] for sen_id in ids}


def conservation_check(
    captions: pd.DataFrame, removed: pd.DataFrame, input_records: int, added: set[int] = frozenset()
) -> TableCheck:
    """Every input record is in exactly one of captions/ and removed/.

    Captions that step IV made from the later sentences of a run-on (`added`,
    listed in runon/ next to the caption they came from) are not input records:
    they are left out of the count, and their ids must still be unique.

    The derived table has one row per output record: its table, sen_id, step
    and reason. `counted` marks the rows whose sen_id must be unique across
    both tables: all but removed records without an id and the read step's
    second copies of an id (whose first copy is counted).
    """
    gxe = great_expectations().expectations
    Column = gxe.row_conditions.Column

    kept = captions[["sen_id"]].assign(table="captions", step=None, reason=None)
    kept = kept[~kept["sen_id"].isin(added)]
    gone = removed[["sen_id", "step", "reason"]].assign(table="removed")
    frame = pd.concat([kept, gone], ignore_index=True)[["table", "sen_id", "step", "reason"]]
    second_copy = (frame["step"] == "read") & frame["reason"].astype("str").str.startswith(
        REPEATED_ID_REASON)
    frame["counted"] = frame["sen_id"].notna() & ~second_copy

    expectations = [
        # No caption is both kept and removed, or kept or removed twice ...
        gxe.ExpectColumnValuesToBeUnique(
            column="sen_id", row_condition=Column("counted") == True),  # noqa: E712
        # ... and none is lost: each input record is a row of one table.
        gxe.ExpectTableRowCountToEqual(value=input_records),
    ]
    return TableCheck("conservation", frame, expectations, id_columns=["table", "sen_id"])


def keepers_check(captions: pd.DataFrame, removed: pd.DataFrame) -> TableCheck:
    """Every near-duplicate row's `kept_sen_id` is a caption of captions/: the caption that stands
    for its group, not one removed in turn (a chain step III's later passes left unresolved)."""
    gxe = great_expectations().expectations

    # A null kept_sen_id fails removed's own expectation; it is not counted twice here.
    named = (removed["step"] == "dedup") & removed["kept_sen_id"].notna()
    frame = removed.loc[named, ["sen_id", "kept_sen_id"]].copy()
    frame["kept_in_captions"] = frame["kept_sen_id"].isin(set(captions["sen_id"].dropna())).astype(bool)
    expectations = [gxe.ExpectColumnValuesToBeInSet(column="kept_in_captions", value_set=[True])]
    return TableCheck("near_duplicate_keepers", frame.reset_index(drop=True), expectations,
                      id_columns=["sen_id", "kept_sen_id"])


# --- Running GX ---------------------------------------------------------------

def run_suites(checks: list[TableCheck], docs_dir: str | None) -> list[tuple[TableCheck, Any]]:
    """Run each check's suite on its frame; return (check, expectation result)s.

    Each table gets its own ValidationDefinition, run directly rather than
    from a Checkpoint: a Checkpoint passes the same batch parameters (so the
    same DataFrame) to all its validation definitions, and each table here is
    a different DataFrame. Data Docs are then built once from the results.
    """
    gx = great_expectations()
    context = offline_context(docs_dir)
    source = context.data_sources.add_pandas("capclean")

    results = []
    for check in checks:
        batch = source.add_dataframe_asset(check.name).add_batch_definition_whole_dataframe(
            "whole table")
        suite = context.suites.add(gx.ExpectationSuite(
            name=f"capclean.{check.name}", expectations=check.expectations))
        definition = context.validation_definitions.add(gx.ValidationDefinition(
            name=f"capclean.{check.name}", data=batch, suite=suite))
        suite_result = definition.run(
            batch_parameters={"dataframe": check.frame},
            # SUMMARY gives a few offending values and their row index; not
            # `unexpected_index_column_names`, which makes GX look up every
            # offending row in Python (10+ s when most of 200,000 rows fail).
            result_format={"result_format": "SUMMARY",
                           "partial_unexpected_count": EXAMPLE_ROWS})
        results += [(check, result) for result in in_suite_order(suite_result.results, suite)]

    if docs_dir:
        context.build_data_docs(site_names=[DOCS_SITE])
    return results


def in_suite_order(results: list[Any], suite: Any) -> list[Any]:
    """GX returns results in an order of its own; report them as the suite
    lists its expectations, so the schema checks come first."""
    position = {expectation.id: i for i, expectation in enumerate(suite.expectations)}
    return sorted(results, key=lambda result: position.get(result.expectation_config.id, 0))


def offline_context(docs_dir: str | None):
    """An in-memory GX context, quiet, with at most a local Data Docs site."""
    gx = great_expectations()
    from great_expectations.data_context.types.base import ProgressBarsConfig

    context = gx.get_context(mode="ephemeral")
    # Progress bars would clutter the pipeline's terminal output.
    context.variables.progress_bars = ProgressBarsConfig(globally=False)
    # The ephemeral context comes with a site of its own in a temporary
    # folder; replace it with ours, written only to the local `docs_dir`.
    for site_name in list(context.list_data_docs_sites()):
        context.delete_data_docs_site(site_name)
    if docs_dir:
        context.add_data_docs_site(DOCS_SITE, {
            "class_name": "SiteBuilder",
            "show_how_to_buttons": False,
            "store_backend": {
                "class_name": "TupleFilesystemStoreBackend",
                "base_directory": str(Path(docs_dir).resolve()),
            },
            "site_index_builder": {"class_name": "DefaultSiteIndexBuilder"},
        })
    return context


# --- Every expectation as a record, and Data Docs that read offline -----------

def expectation_record(check: TableCheck, result: Any) -> dict:
    """One expectation's outcome as plain JSON: what the index page, result.json and the report show.

    {"suite": "capclean.captions", "table": "captions", "expectation":
    "expect_column_values_to_be_unique(sen_id)", "success": true, "observed": "0 of 182,065 rows unexpected"}
    """
    return {
        "suite": f"capclean.{check.name}",
        "table": check.name,
        "expectation": expectation_name(result.expectation_config),
        "success": bool(result.success),
        "observed": observed_text(result),
    }


# How long an observed value may be in a record (a column list is long enough).
OBSERVED_CHARACTERS = 300


def observed_text(result: Any) -> str:
    """What GX observed, in words: the unexpected rows of a per-row expectation, else its observed value."""
    error = raised_exception(result)
    if error:
        return f"could not run: {error}"
    details = result.result or {}
    if "unexpected_count" in details:
        unexpected = details.get("unexpected_count") or 0
        rows = details.get("element_count")
        text = f"{unexpected:,} of {rows:,} rows unexpected" if rows is not None else f"{unexpected:,} rows unexpected"
        examples = details.get("partial_unexpected_list") or []
        if unexpected and examples:
            text += f", e.g. {show(list(examples[:EXAMPLE_ROWS]))}"
    else:
        text = show(details.get("observed_value"))
    return text if len(text) <= OBSERVED_CHARACTERS else text[:OBSERVED_CHARACTERS - 1] + "…"


# Every stylesheet and script a GX page loads from the network, and every script (they all need
# jQuery or Vega from a CDN; without them they only raise errors).
REMOTE_LINK = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?\s*(?:https?:)?//[^>]*>", re.IGNORECASE)
SCRIPT = re.compile(r"<script\b[^>]*>.*?</script\s*>", re.IGNORECASE | re.DOTALL)
# A CSS url() or a src attribute (an image, a frame) that points at the network.
REMOTE_CSS_URL = re.compile(r"url\(\s*[\"']?\s*(?:https?:)?//[^)]*\)", re.IGNORECASE)
REMOTE_SRC = re.compile(r"\ssrc\s*=\s*(?:\"\s*(?:https?:)?//[^\"]*\"|'\s*(?:https?:)?//[^']*'|(?:https?:)?//[^\s>]*)",
                        re.IGNORECASE)
BODY_START = re.compile(r"<body\b[^>]*>", re.IGNORECASE)
HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)

# The plain style a GX page gets in place of Bootstrap's: readable tables, and the
# success and failure marks that Font Awesome would draw as icons.
OFFLINE_CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1d1d1d;
       max-width: 1180px; margin: 16px auto; padding: 0 20px; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border-bottom: 1px solid #e0e0e0; padding: 3px 10px; text-align: left; vertical-align: top; }
thead th { border-bottom: 1.5px solid #333; }
.capclean-notice { background: #fff6d6; border: 1px solid #e0c870; padding: 8px 12px; margin: 0 0 16px; }
.fa-check-circle::before { content: "\\2714"; color: #0f5a0f; font-style: normal; font-weight: 600; }
.fa-times::before { content: "\\2718"; color: #a11; font-style: normal; font-weight: 600; }
.pass { color: #0f5a0f; font-weight: 600; }
.fail { color: #a11; font-weight: 600; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
td.observed { color: #444; font-size: 0.9em; word-break: break-word; }
img:not([src]) { display: none; }  /* GX's logo, whose image was on the network */
"""


def make_docs_offline(docs_dir: Path, records: list[dict], failures: list[str]) -> None:
    """Make the GX site in `docs_dir` load nothing from the network, and write its index page.

    GX Core 1.x has no setting for local copies of Bootstrap, jQuery, Font Awesome and
    Vega, and its index page fills its tables with those scripts. So each page loses its
    remote stylesheets and its scripts and gets a plain inline style and a notice; its
    content is static HTML and stays. The index page is capclean's: every expectation with
    its result and observed value, linked to GX's page of each suite's result.
    """
    index = docs_dir / "index.html"
    for page in sorted(docs_dir.rglob("*.html")):
        if page == index:
            continue
        back = Path(os.path.relpath(index, page.parent)).as_posix()
        page.write_text(offline_page(page.read_text(encoding="utf-8"), back), encoding="utf-8")
    index.write_text(docs_index_page(docs_dir, records, failures), encoding="utf-8")


def offline_page(page: str, index_link: str) -> str:
    """A GX page without remote stylesheets or scripts, with the plain style and a notice linking the index."""
    page = SCRIPT.sub("", REMOTE_LINK.sub("", page))
    page = REMOTE_SRC.sub("", REMOTE_CSS_URL.sub("none", page))
    notice = (f"<div class='capclean-notice'>This Great Expectations page loads nothing from the internet: "
              f"capclean took out its stylesheets and scripts, which GX loads from CDNs, so it is plainly "
              f"styled and its menus do not fold. <a href='{html.escape(index_link)}'>Every expectation and its "
              f"result</a>.</div>")
    page = HEAD_END.sub(lambda _: f"<style>{OFFLINE_CSS}</style></head>", page, count=1)
    return BODY_START.sub(lambda match: match.group(0) + notice, page, count=1)


def docs_index_page(docs_dir: Path, records: list[dict], failures: list[str]) -> str:
    """capclean's index of the Data Docs: one table per suite, self-contained, no script."""
    esc = html.escape
    failed = [record for record in records if not record["success"]]
    verdict = ("<span class='pass'>passed</span>" if not failures
               else f"<span class='fail'>failed ({plural(len(failures), 'failure')})</span>")
    parts = [f"<h1>capclean output validation: the table checks {verdict}</h1>",
             f"<p>{plural(len(records), 'expectation')} checked by Great Expectations, {len(failed)} failed. "
             "The same records are in <code>result.json</code> (<code>expectations</code>) and in the run's "
             "<code>report.html</code>.</p>"]
    if failures:
        parts.append("<ul>" + "".join(f"<li class='fail'>{esc(line)}</li>" for line in failures) + "</ul>")
    for suite in dict.fromkeys(record["suite"] for record in records):
        rows = [record for record in records if record["suite"] == suite]
        links = []
        table = rows[0]["table"]
        # One result page per suite, under a folder named by the time GX ran it.
        results = sorted((docs_dir / "validations" / "capclean" / table).rglob("*.html"))
        if results:
            links.append(f"<a href='{esc(results[-1].relative_to(docs_dir).as_posix())}'>GX result page</a>")
        definition = docs_dir / "expectations" / "capclean" / f"{table}.html"
        if definition.is_file():
            links.append(f"<a href='{esc(definition.relative_to(docs_dir).as_posix())}'>GX suite page</a>")
        passed = sum(record["success"] for record in rows)
        body = "".join(
            f"<tr><td>{'<span class=pass>passed</span>' if record['success'] else '<span class=fail>FAILED</span>'}"
            f"</td><td><code>{esc(record['expectation'])}</code></td>"
            f"<td class='observed'>{esc(record['observed'])}</td></tr>" for record in rows)
        parts.append(f"<h2 id='{esc(suite)}'>{esc(suite)}: {passed} of {len(rows)} passed</h2>"
                     f"<p>{' · '.join(links)}</p>" if links else
                     f"<h2 id='{esc(suite)}'>{esc(suite)}: {passed} of {len(rows)} passed</h2>")
        parts.append("<table><thead><tr><th>result</th><th>expectation</th><th>observed</th></tr></thead>"
                     f"<tbody>{body}</tbody></table>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<title>capclean output validation</title>\n"
            f"<style>{OFFLINE_CSS}</style>\n</head>\n<body>\n" + "\n".join(parts) + "\n</body>\n</html>\n")


# --- Turning a failed expectation into one line -------------------------------

def failure_line(check: TableCheck, result: Any, frames: dict[str, pd.DataFrame]) -> str:
    """E.g. "captions: expect_column_values_to_be_unique(sen_id) failed on 2
    rows, e.g. sen_id 17, sen_id 17"."""
    config = result.expectation_config
    line = f"{check.name}: {expectation_name(config)}"
    error = raised_exception(result)
    if error:
        return f"{line} could not run: {error}"

    details = result.result or {}
    if "unexpected_count" in details:
        line += f" failed on {plural(details['unexpected_count'], 'row')}"
        rows = details.get("partial_unexpected_index_list") or []
        if rows:
            line += f", e.g. {example_rows(check, rows, checked_columns(config.kwargs))}"
    else:
        line += (f" failed: observed {show(details.get('observed_value'))}, "
                 f"expected {expected_value(config.kwargs)}")

    if config.type == "expect_column_unique_value_count_to_be_between":
        line += lost_videos_hint(frames)
    return line


def raised_exception(result: Any) -> str:
    """The message of the error that stopped an expectation, or ""."""
    info = result.exception_info or {}
    # GX gives either one {"raised_exception": ...} or one such per metric.
    for entry in [info, *info.values()]:
        if isinstance(entry, dict) and entry.get("raised_exception"):
            return str(entry.get("exception_message"))
    return ""


def expectation_name(config: Any) -> str:
    """The expectation type, its column(s) and its row condition, if any."""
    kwargs = config.kwargs
    columns = ", ".join(checked_columns(kwargs))
    if config.type == "expect_table_columns_to_match_ordered_list":
        columns = ""  # the column list is what the line reports as expected
    name = f"{config.type}({columns})" if columns else config.type
    if kwargs.get("row_condition") is not None:
        name += f" where {condition_text(kwargs['row_condition'])}"
    return name


def checked_columns(kwargs: dict) -> list[str]:
    if kwargs.get("column"):
        return [kwargs["column"]]
    return list(kwargs.get("column_list") or [])


def condition_text(condition: Any) -> str:
    """A row condition as `step == 'dedup'`; GX hands it back as a dict."""
    if isinstance(condition, dict) and condition.get("type") == "comparison":
        column = condition["column"]["name"]
        return f"{column} {condition['operator']} {show(condition['parameter'])}"
    return str(condition)


def example_rows(check: TableCheck, row_indexes: list[Any], columns: list[str]) -> str:
    """The offending rows at `row_indexes` of the check's frame: their id
    columns, then the checked columns."""
    shown_columns = [c for c in check.id_columns if c not in columns] + columns
    shown_columns = [c for c in shown_columns if c in check.frame.columns]
    examples = []
    for index in row_indexes[:EXAMPLE_ROWS]:
        row = check.frame.loc[index]
        examples.append(" ".join(f"{column} {show(row[column])}" for column in shown_columns))
    return ", ".join(examples)


def expected_value(kwargs: dict) -> str:
    for key in ("value", "column_list", "type_", "value_set"):
        if kwargs.get(key) is not None:
            return show(kwargs[key])
    low, high = kwargs.get("min_value"), kwargs.get("max_value")
    return show(low) if low == high else f"between {show(low)} and {show(high)}"


def lost_videos_hint(frames: dict[str, pd.DataFrame]) -> str:
    """Name the videos that appear in removed/ but have no caption left."""
    captions, removed = frames["captions"], frames["removed"]
    if "video_id" not in captions.columns or "video_id" not in removed.columns:
        return ""
    lost = sorted(set(removed["video_id"].dropna()) - set(captions["video_id"].dropna()))
    if not lost:
        return ""
    return f"; videos left without captions, e.g. {', '.join(lost[:EXAMPLE_ROWS])}"


def show(value: Any) -> str:
    """A value as a failure line shows it: strings quoted (spaces stay visible)."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(item) for item in value) + "]"
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return "null"
    if hasattr(value, "item"):  # numpy scalars print as plain numbers
        return show(value.item())
    return str(value)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
