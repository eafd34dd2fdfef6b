"""The expectation suites of the output's tables: what schemas/tables.py fixes (columns, types,
non-null columns) and what a given run's output must look like beyond it (OutputExpectations).
The checks that need a computed column or two tables at once are in derived_suites.py."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa

from schemas.tables import TABLES
from schemas.validation.gx_runner import TableCheck, great_expectations

# A caption is non-empty words separated by single spaces. `\Z` rather than
# `$`, because Python's `$` also matches before a trailing newline.
SINGLE_SPACED = r"^\S+(?: \S+)*\Z"

# The pandas scalar type each Arrow type of tables.py reads back as. Integer
# columns are read as nullable pandas integers (a null would otherwise turn
# them into floats), whose scalar type is still numpy's int64 / int32.
PANDAS_TYPE_OF = {
    pa.int64(): "int64",
    pa.int32(): "int32",
    pa.string(): "str",
    pa.float64(): "float64",
}


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


def table_checks(frames: dict[str, pd.DataFrame], expectations: OutputExpectations) -> list[TableCheck]:
    """One check per table of the output, each with its suite and the columns that name a row."""
    return [
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
