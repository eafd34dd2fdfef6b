"""The pipeline's last stage: figures to stats.json, then the expectation suites on the written tables."""
import json
import posixpath

import apache_beam as beam

from pipelines.stats import nest
from schemas.validation import OutputExpectations, validate_output
from transforms.write import write_empty_tables

RESULT_FILE = "validation/result.json"


def write_json(path: str, value) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(value, handle, indent=2, sort_keys=True)
        handle.write("\n")


def output_expectations(config, counts) -> OutputExpectations:
    return OutputExpectations(
        allowed_characters=config.validation.allowed_characters,
        splits=tuple(config.validation.splits),
        split_video_ranges=dict(config.validation.split_video_ranges) or None,
        input_records=counts.get("input/captions", 0),
        input_videos=counts.get("input/videos_with_captions", 0),
    )


def finalize_output(counts, written_files, word_limit, output_dir, config) -> dict:
    """Write stats.json and the validation result; return the result (success and failure lines)."""
    write_empty_tables(output_dir, {table for table, _, _ in written_files})
    stats = nest(counts)
    stats["profile"] = config.profile
    stats["steps_run"] = list(config.steps)
    if word_limit is not None:
        stats.setdefault("steps", {}).setdefault("runon", {})["word_limit"] = word_limit
    write_json(posixpath.join(output_dir, "stats.json"), stats)
    result = validate_output(output_dir, output_expectations(config, counts), posixpath.join(output_dir, "validation"))
    summary = {"success": result.success, "failures": result.failures}
    write_json(posixpath.join(output_dir, RESULT_FILE), summary)
    return summary


class Finalize(beam.PTransform):
    def __init__(self, output_dir, config, written_files, word_limit=None):
        super().__init__()
        self._output_dir = output_dir
        self._config = config
        self._written_files = written_files
        self._word_limit = word_limit

    def expand(self, counts):
        word_limit = beam.pvalue.AsSingleton(self._word_limit) if self._word_limit is not None else None
        return counts | "StatsAndValidation" >> beam.Map(
            finalize_output, beam.pvalue.AsList(self._written_files), word_limit, self._output_dir, self._config)
