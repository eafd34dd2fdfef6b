"""After the pipeline, in the launcher: the written tables read back once, checked, and kept for the report.

The pipeline's last stage (finalize.py) writes stats.json and the lineage's verdict to
validation/result.json. Here the tables the run wrote are read back once, every suite of
schemas/validation runs on them, and the whole verdict (the lineage's failures first, then the
tables') replaces the lineage's, with the Data Docs beside it. The frames read stay in hand for
the report (pipelines/cleaning/report), which so reads no table again.

Great Expectations and the report's libraries (pandas, matplotlib) take seconds to import: the
launcher imports them in a thread while the pipeline runs (run.py, import_in_background).
"""
import json
from pathlib import Path

from pipelines.output.json_files import write_json

# The verdict: the lineage's after the pipeline (finalize.py), the whole one after validate_written.
RESULT_FILE = "validation/result.json"


def output_expectations(config, stats: dict, step_names: tuple):
    """What this run's tables must hold beyond their contract: the configuration's characters, splits
    and ranges, and from stats.json the input records read and the videos that must keep a caption."""
    from schemas.validation import OutputExpectations

    return OutputExpectations(
        allowed_characters=config.validation.allowed_characters,
        splits=tuple(config.validation.splits),
        split_video_ranges=dict(config.validation.split_video_ranges) or None,
        input_records=stats.get("input", {}).get("captions", 0),
        input_videos=stats.get("steps", {}).get("screen", {}).get("videos_passed", 0),
        steps=tuple(step_names),
    )


def validate_written(output_dir: Path, config, step_names: tuple) -> tuple[dict, dict]:
    """Check the tables written into `output_dir` and write the whole verdict to its RESULT_FILE.

    Returns the verdict (success, failure lines, every expectation with its outcome) and the
    tables as read (name -> frame), for the report."""
    from schemas.validation import read_output, validate_frames

    lineage = json.loads((output_dir / RESULT_FILE).read_text())
    stats = json.loads((output_dir / "stats.json").read_text())
    frames, read_failures = read_output(str(output_dir))
    result = validate_frames(frames, read_failures, output_expectations(config, stats, step_names),
                             str(output_dir / "validation"))
    failures = lineage["failures"] + result.failures
    verdict = {"success": not failures, "failures": failures, "expectations": result.expectations}
    write_json(output_dir / RESULT_FILE, verdict)
    return verdict, frames
