"""What each expectation found, in words: one record per expectation (result.json, the Data Docs
index, the report) and one short line per failed one, naming the table, the expectation and a few
offending rows."""
from __future__ import annotations

from typing import Any

import pandas as pd

from schemas.validation.gx_runner import EXAMPLE_ROWS, TableCheck


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
