"""Tests of schemas/validation/: a valid output passes, each kind of
corruption fails with a line naming the expectation that caught it.

Each test writes a tiny output folder (a few rows per table) with pyarrow and
the schemas of schemas/tables.py, corrupts one thing and checks that exactly
the expected failure lines come out: so a corruption that slips through, or
a check that fires on valid rows, both fail the test.
"""
import re
import socket
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.cleaning.steps import STEP_NAMES
from schemas.tables import TABLES
from schemas.validation import OutputExpectations, ValidationResult, validate_output
from schemas.validation.suites import outside_character_set


def caption(video, sen_id, split, category, text):
    return {"video_id": video, "sen_id": sen_id, "split": split,
            "category": category, "caption": text}


def removal(sen_id, video, step, reason, kept_sen_id=None):
    return {"sen_id": sen_id, "video_id": video, "split": "train", "caption": "some text",
            "step": step, "reason": reason, "kept_sen_id": kept_sen_id}


# A valid output of 9 input records on 3 videos.
CAPTIONS = [
    caption("video0", 0, "train", 1, "a man is cooking"),
    caption("video0", 1, "train", 1, "a man cooks food"),
    caption("video1", 3, "train", 2, "a dog runs"),
    caption("video8", 6, "test", 5, "kids play 5 games for $5"),
]
REMOVED = [
    removal(2, "video0", "dedup", "duplicate of 1", kept_sen_id=1),
    # A record whose id could not be read: it counts as a record, not an id.
    removal(None, "video1", "read", "sen_id is not an integer"),
    # A second record with id 3: it counts as a record, its id is not new.
    removal(3, "video1", "read", "sen_id repeated (first copy kept)"),
    removal(4, "video1", "normalize", "empty after normalize"),
    removal(5, "video8", "runon", "run-on caption"),
]
EDITS = [
    {"sen_id": 0, "video_id": "video0", "step": "normalize", "rule": "lowercase",
     "before": "A man is cooking", "after": "a man is cooking"},
    {"sen_id": 1, "video_id": "video0", "step": "spelling", "rule": "dictionary",
     "before": "a man cooks fod", "after": "a man cooks food"},
]
CORRECTIONS = [
    {"sen_id": 1, "position": 3, "original": "fod", "replacement": "food", "rule": "ranked", "score": 0.98},
]

EXPECTED = OutputExpectations(
    allowed_characters="abcdefghijklmnopqrstuvwxyz0123456789 $%&'",
    splits=("train", "validate", "test"),
    split_video_ranges={"train": (0, 6), "validate": (7, 7), "test": (8, 9)},
    input_records=9,
    input_videos=3,
    steps=STEP_NAMES,
)


def write_table(folder: Path, rows: list[dict], schema: pa.Schema, files: int = 1) -> None:
    """Write `rows` as `files` Parquet parts (part-00000.parquet, ...)."""
    folder.mkdir(parents=True)
    table = pa.Table.from_pylist(rows, schema=schema)
    rows_per_file = -(-len(rows) // files) if rows else 0
    for part in range(files):
        chunk = table.slice(part * rows_per_file, rows_per_file)
        pq.write_table(chunk, folder / f"part-{part:05d}.parquet")


FLAGGED = [
    {"sen_id": 6, "position": 2, "token": "qwzxv", "reason": "no close word in the corpus", "candidate": None},
]


def write_output(root: Path, captions=CAPTIONS, removed=REMOVED, edits=EDITS,
                 corrections=CORRECTIONS, captions_schema=TABLES["captions"]) -> Path:
    """A complete output folder; captions are split over two files."""
    write_table(root / "captions", captions, captions_schema, files=2)
    write_table(root / "removed", removed, TABLES["removed"])
    write_table(root / "edits", edits, TABLES["edits"])
    write_table(root / "corrections", corrections, TABLES["corrections"])
    write_table(root / "flagged", FLAGGED, TABLES["flagged"])
    write_table(root / "runon", [], TABLES["runon"])
    return root


def replace(rows: list[dict], index: int, **changes) -> list[dict]:
    """A copy of `rows` whose row `index` has `changes`."""
    return [dict(row, **changes) if i == index else row for i, row in enumerate(rows)]


def assert_failures(result: ValidationResult, *patterns: str) -> None:
    """The result failed with exactly one line matching each regex in `patterns`."""
    assert not result.success, result.summary()
    unmatched = list(result.failures)
    for pattern in patterns:
        matching = [line for line in unmatched if re.search(pattern, line)]
        assert len(matching) == 1, f"{pattern!r} in:\n{result.summary()}"
        unmatched.remove(matching[0])
    assert not unmatched, f"unexpected failures:\n{result.summary()}"


@pytest.fixture
def no_network(monkeypatch):
    """Make any attempt to open a network connection fail the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("validation tried to use the network")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_valid_output_passes_and_writes_data_docs(tmp_path, no_network):
    output = write_output(tmp_path / "out")
    docs = tmp_path / "docs"

    result = validate_output(str(output), EXPECTED, str(docs))

    assert result.success, result.summary()
    assert result.failures == []
    assert (docs / "index.html").is_file()
    assert "capclean.captions" in (docs / "index.html").read_text()
    assert result.docs_index == str(docs / "index.html")
    assert "passed" in result.summary()


def test_empty_table_folder_is_an_empty_table(tmp_path):
    output = write_output(tmp_path, corrections=[])
    for part in (tmp_path / "corrections").iterdir():
        part.unlink()

    assert validate_output(str(output), EXPECTED, None).success


def test_missing_table_folder_fails(tmp_path):
    output = write_output(tmp_path, corrections=[])
    for part in (tmp_path / "corrections").iterdir():
        part.unlink()
    (tmp_path / "corrections").rmdir()

    result = validate_output(str(output), EXPECTED, None)

    assert_failures(result, r"^corrections: folder .* is missing$")


SINGLE_ROW_CORRUPTIONS = [
    pytest.param("captions", 2, {"sen_id": 1}, [
        r"^captions: expect_column_values_to_be_unique\(sen_id\) failed on 2 rows, e\.g\. sen_id 1, sen_id 1$",
        # The duplicate also breaks the ascending order, and is an id counted twice.
        r"^captions: expect_column_values_to_be_increasing\(sen_id\) failed on 1 row",
        r"^conservation: expect_column_values_to_be_unique\(sen_id\)",
    ], id="duplicated sen_id"),
    pytest.param("captions", 1, {"caption": "a man  cooks"}, [
        r"^captions: expect_column_values_to_match_regex\(caption\) failed on 1 row, "
        r"e\.g\. sen_id 1 caption 'a man  cooks'$",
    ], id="double space"),
    pytest.param("captions", 1, {"caption": "a man cooks\n"}, [
        r"^captions: expect_column_values_to_match_regex\(caption\) failed on 1 row",
        r"^captions: expect_column_values_to_not_match_regex\(caption\) failed on 1 row",
    ], id="trailing newline is not single-spaced"),
    pytest.param("captions", 3, {"caption": "kids play #5 games"}, [
        r"^captions: expect_column_values_to_not_match_regex\(caption\) failed on 1 row, "
        r"e\.g\. sen_id 6 caption 'kids play #5 games'$",
    ], id="character outside the set"),
    pytest.param("captions", 0, {"split": "val"}, [
        r"^captions: expect_column_values_to_be_in_set\(split\) failed on 1 row, e\.g\. sen_id 0 split 'val'$",
    ], id="wrong split value"),
    # video3 is a train video (0-6) but this caption says it is a test one.
    pytest.param("captions", 3, {"video_id": "video3"}, [
        r"^video_ranges: expect_column_values_to_be_between\(video_number\) where split == 'test' "
        r"failed on 1 row, e\.g\. sen_id 6 video_id 'video3' video_number 3$",
    ], id="video outside its split's range"),
    pytest.param("removed", 3, {"step": "lowercase", "reason": ""}, [
        r"^removed: expect_column_values_to_be_in_set\(step\) failed on 1 row",
        r"^removed: expect_column_value_lengths_to_be_between\(reason\) failed on 1 row",
    ], id="unknown step and empty reason"),
    pytest.param("edits", 1, {"after": "a man cooks fod"}, [
        r"^edit_changes: expect_column_values_to_be_in_set\(changed\) failed on 1 row, "
        r"e\.g\. sen_id 1 step 'spelling' before 'a man cooks fod' after 'a man cooks fod'",
    ], id="edit that changes nothing"),
    pytest.param("corrections", 0, {"position": -1}, [
        r"^corrections: expect_column_values_to_be_between\(position\) failed on 1 row",
    ], id="negative correction position"),
]


@pytest.mark.parametrize("table, index, changes, patterns", SINGLE_ROW_CORRUPTIONS)
def test_a_corrupted_row_fails_the_expectation_that_names_it(tmp_path, table, index, changes, patterns):
    rows = {"captions": CAPTIONS, "removed": REMOVED, "edits": EDITS, "corrections": CORRECTIONS}[table]
    output = write_output(tmp_path, **{table: replace(rows, index, **changes)})

    assert_failures(validate_output(str(output), EXPECTED, None), *patterns)


def test_the_summary_lists_each_failure(tmp_path):
    output = write_output(tmp_path, captions=replace(CAPTIONS, 0, split="val"))

    summary = validate_output(str(output), EXPECTED, None).summary()

    assert summary.startswith("capclean output validation FAILED (1 failure)")
    assert "\n  - captions: expect_column_values_to_be_in_set(split)" in summary


def test_character_set_regex_escapes_bracket_characters():
    outside = re.compile(outside_character_set("a-]^\\ "))

    assert [c for c in "a-]^\\ " if outside.search(c)] == []
    assert [c for c in "b[_" if outside.search(c)] == ["b", "[", "_"]


def test_video_ranges_are_not_checked_without_ranges(tmp_path):
    output = write_output(tmp_path, captions=replace(CAPTIONS, 3, video_id="video3"))
    expected = OutputExpectations(**{**EXPECTED.__dict__, "split_video_ranges": None})

    assert validate_output(str(output), expected, None).success


def test_video_that_lost_all_its_captions_fails(tmp_path):
    # video8's only caption was removed as a run-on: 3 captions + 6 removed
    # records still make the 9 input records, but only 2 videos are left.
    output = write_output(
        tmp_path,
        captions=CAPTIONS[:3],
        removed=REMOVED + [removal(6, "video8", "runon", "run-on caption")],
    )

    result = validate_output(str(output), EXPECTED, None)

    assert_failures(
        result,
        r"^captions: expect_column_unique_value_count_to_be_between\(video_id\) "
        r"failed: observed 2, expected 3; videos left without captions, e\.g\. video8$",
    )


def test_fewer_records_than_input_fails(tmp_path):
    output = write_output(tmp_path)
    expected = OutputExpectations(**{**EXPECTED.__dict__, "input_records": 10})

    result = validate_output(str(output), expected, None)

    assert_failures(
        result,
        r"^conservation: expect_table_row_count_to_equal failed: observed 9, expected 10$",
    )


def test_sen_id_both_kept_and_removed_fails(tmp_path):
    output = write_output(
        tmp_path, removed=REMOVED + [removal(0, "video0", "spelling", "unknown words")])
    expected = OutputExpectations(**{**EXPECTED.__dict__, "input_records": 10})

    result = validate_output(str(output), expected, None)

    assert_failures(
        result,
        r"^conservation: expect_column_values_to_be_unique\(sen_id\) where counted == True "
        r"failed on 2 rows, e\.g\. table 'captions' sen_id 0, table 'removed' sen_id 0$",
    )


def test_kept_sen_id_not_set_exactly_for_dedup_fails(tmp_path):
    removed = replace(REMOVED, 0, kept_sen_id=None)  # the dedup row
    removed = replace(removed, 3, kept_sen_id=0)      # a normalize row
    output = write_output(tmp_path, removed=removed)

    result = validate_output(str(output), EXPECTED, None)

    assert_failures(
        result,
        r"^removed: expect_column_values_to_not_be_null\(kept_sen_id\) where step == 'dedup' "
        r"failed on 1 row, e\.g\. sen_id 2 step 'dedup' kept_sen_id null$",
        r"^removed: expect_column_values_to_be_null\(kept_sen_id\) where step != 'dedup' "
        r"failed on 1 row, e\.g\. sen_id 4 step 'normalize' kept_sen_id 0$",
    )


def test_near_duplicate_naming_a_removed_caption_fails(tmp_path):
    # sen_id 2 names sen_id 4 as the caption kept for its group, but 4 was removed (a chain left unresolved).
    output = write_output(tmp_path, removed=replace(REMOVED, 0, kept_sen_id=4))

    result = validate_output(str(output), EXPECTED, None)

    assert_failures(
        result,
        r"^near_duplicate_keepers: expect_column_values_to_be_in_set\(kept_in_captions\) "
        r"failed on 1 row, e\.g\. sen_id 2 kept_sen_id 4 kept_in_captions False$",
    )


def test_wrong_column_type_fails(tmp_path):
    category_as_string = pa.schema([
        pa.field("category", pa.string()) if field.name == "category" else field
        for field in TABLES["captions"]
    ])
    captions = [dict(row, category=str(row["category"])) for row in CAPTIONS]
    output = write_output(tmp_path, captions=captions, captions_schema=category_as_string)

    result = validate_output(str(output), EXPECTED, None)

    assert_failures(
        result,
        r"^captions: expect_column_values_to_be_of_type\(category\) failed: "
        r"observed 'str', expected 'int32'$",
    )


# --- Data Docs that read offline, and every expectation as a record -----------

def test_the_data_docs_load_nothing_from_the_network(tmp_path, no_network, network_loads):
    output = write_output(tmp_path / "out")
    docs = tmp_path / "docs"
    validate_output(str(output), EXPECTED, str(docs))

    pages = sorted(docs.rglob("*.html"))
    # GX's pages of each suite and of each result are there, besides the index.
    assert len(pages) > 10 and (docs / "index.html") in pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert network_loads(text) == [], page
    result_page = next((docs / "validations" / "capclean" / "captions").rglob("*.html")).read_text()
    assert "capclean-notice" in result_page and "values must be unique" in result_page


def test_every_expectation_is_a_record_and_a_row_of_the_index(tmp_path, no_network, start_tags):
    output = write_output(tmp_path / "out", captions=replace(CAPTIONS, 2, sen_id=1))
    docs = tmp_path / "docs"
    result = validate_output(str(output), EXPECTED, str(docs))

    assert len(result.expectations) == result.expectations_checked > 50
    failed = [record for record in result.expectations if not record["success"]]
    unique = {"suite": "capclean.captions", "table": "captions",
              "expectation": "expect_column_values_to_be_unique(sen_id)", "success": False,
              "observed": "2 of 4 rows unexpected, e.g. [1, 1]"}
    assert unique in failed
    assert all(record["success"] for record in result.expectations if record not in failed)
    index = (docs / "index.html").read_text()
    assert "<code>expect_column_values_to_be_unique(sen_id)</code></td><td class='observed'>2 of 4 rows " \
           "unexpected, e.g. [1, 1]</td>" in index
    assert index.count("<tr><td>") == len(result.expectations)
    links = [attrs["href"] for tag, attrs in start_tags(index) if tag == "a"]
    assert links and all((docs / link).is_file() for link in links)
