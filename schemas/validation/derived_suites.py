"""The checks on tables derived from the output, for what needs a computed column or two tables at once:

- `video_ranges`: captions with N parsed from each "video<N>", so that each
  split's videos can be checked against that split's range;
- `edit_changes`: edits with a `changed` column (before != after);
- `conservation`: every captions row and every removed row, so that no
  caption is lost or counted twice;
- `near_duplicate_keepers`: the near-duplicate rows of removed with a column
  saying whether their `kept_sen_id` is in captions, so that every removal
  names a caption that stands for its group in the output.
"""
from __future__ import annotations

import pandas as pd

from schemas.validation.gx_runner import TableCheck, great_expectations
from schemas.validation.suites import OutputExpectations

# The reason the read step gives a record whose sen_id it has already seen:
# such a record is a second copy of an id that is counted once elsewhere.
REPEATED_ID_REASON = "sen_id repeated"


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
