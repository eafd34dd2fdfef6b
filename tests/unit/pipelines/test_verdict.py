"""After the pipeline: the written tables read back once, validated, and handed to the report
(pipelines/cleaning/verdict.py)."""
import json
import subprocess
import sys

import pytest

from pipelines.cleaning.report import write_report
from pipelines.cleaning.report.run import read_table
from pipelines.cleaning.steps import STEP_NAMES
from pipelines.cleaning.finalize import lost_records_failure
from pipelines.cleaning.verdict import RESULT_FILE, output_expectations, validate_written
from pipelines.cli import main
from pipelines.config import load_config
from schemas.tables import TABLES


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory, tiny_dataset):
    folder = tmp_path_factory.mktemp("verdict")
    output = folder / "out"
    assert main(["clean", "--input", str(tiny_dataset(folder / "in")), "--output", str(output),
                 "--steps", "normalize"]) == 0
    return output


def test_the_expected_counts_are_read_from_stats_json():
    stats = {"input": {"captions": 7}, "steps": {"screen": {"videos_passed": 2}}}
    expected = output_expectations(load_config("default"), stats, STEP_NAMES)
    assert (expected.input_records, expected.input_videos, expected.steps) == (7, 2, STEP_NAMES)
    # A run in which no video passed screening has no such figure in stats.json: none must keep a caption.
    assert output_expectations(load_config("default"), {"input": {"captions": 3}}, STEP_NAMES).input_videos == 0


def test_the_lineage_failures_come_first_then_the_tables_own(tiny_run):
    lineage = "conservation: input captions != kept + removed in 1 videos (difference 1): made up for the test"
    (tiny_run / RESULT_FILE).write_text(json.dumps({"success": False, "failures": [lineage], "expectations": []}))
    verdict, _ = validate_written(tiny_run, load_config("default"), STEP_NAMES)
    assert verdict["failures"] == [lineage]  # the tables themselves are fine
    assert not verdict["success"] and len(verdict["expectations"]) > 20
    assert all(record["success"] for record in verdict["expectations"])
    assert json.loads((tiny_run / RESULT_FILE).read_text()) == verdict


def test_the_report_from_the_validated_frames_is_the_report_that_reads_the_tables(tiny_run, tmp_path):
    (tiny_run / RESULT_FILE).write_text(json.dumps({"success": True, "failures": [], "expectations": []}))
    verdict, tables = validate_written(tiny_run, load_config("default"), STEP_NAMES)
    assert verdict["success"] and set(tables) == set(TABLES)
    for name in ("captions", "removed", "edits", "corrections", "flagged"):
        assert tables[name].equals(read_table(tiny_run, name)), name
        assert list(tables[name].dtypes) == list(read_table(tiny_run, name).dtypes), name
    given = write_report(str(tiny_run), report_path=str(tmp_path / "given.html"), tables=tables)
    read = write_report(str(tiny_run), report_path=str(tmp_path / "read.html"))
    assert given.read_bytes() == read.read_bytes()


def test_great_expectations_and_the_report_are_imported_in_a_thread_not_by_the_launcher():
    script = ("import sys\n"
              "from pipelines.cleaning.run import import_in_background\n"
              "assert not {'great_expectations', 'matplotlib', 'apache_beam'} & set(sys.modules), 'imported early'\n"
              "import_in_background().join()\n"
              "assert {'great_expectations', 'matplotlib', 'pipelines.cleaning.report'} <= set(sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_videos_lost_on_the_way_are_one_failure_line_with_both_counts():
    assert lost_records_failure(2_000_000, 2_000_000) == []
    assert lost_records_failure(None, 5) == []  # not counted (a pipeline built without the reader's count)
    [line] = lost_records_failure(2_000_000, 1_716_740)
    assert line.startswith("conservation: 2,000,000 caption records were read")
    assert "hold 1,716,740 (difference 283,260)" in line
    [line] = lost_records_failure(10, 12)  # a video passed on twice
    assert "(difference -2)" in line
