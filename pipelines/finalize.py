"""The pipeline's last stage: figures to stats.json, then the checks on the lineage and the written tables.

Conservation is checked twice. Each video's lineage must account for every
caption record read: kept, or in `removed` (a step that drops a caption without
saying why is a bug, and the run fails naming the video). Then the written
tables must hold every input record once (the `conservation` suite).
"""
import json
import posixpath

import apache_beam as beam

from pipelines.stats import nest
from schemas.tables import STEP_ORDER
from schemas.validation import OutputExpectations, validate_output
from transforms.write import write_empty_tables

RESULT_FILE = "validation/result.json"
# How many videos a lineage failure line names.
EXAMPLE_VIDEOS = 3


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
        input_videos=counts.get("steps/screen/videos_passed", 0),
    )


def unaccounted_captions(batch):
    """(video_id, records read, kept + removed) when a video's lineage does not account for every record.

    Captions step IV's `separate` policy made from a run-on are not records read: its
    `runon` rows list their ids, and they are left out of the count.
    """
    made_by_runon = sum(len(row["new_sen_ids"] or ()) for row in batch.runon)
    accounted = len(batch.captions) + len(batch.removed) - made_by_runon
    if accounted != batch.input_records:
        yield batch.video_id, batch.input_records, accounted


def lineage_failure(unaccounted: list) -> list:
    """One failure line for every video whose captions are not all kept or removed, or none."""
    if not unaccounted:
        return []
    lost = sum(read - accounted for _, read, accounted in unaccounted)
    examples = ", ".join(f"{video_id or '(no video_id)'} read {read}, kept or removed {accounted}"
                         for video_id, read, accounted in sorted(unaccounted)[:EXAMPLE_VIDEOS])
    return [f"conservation: input captions != kept + removed in {len(unaccounted)} videos "
            f"(difference {lost}): a step dropped or added a caption without a removed row, e.g. {examples}"]


def finalize_output(counts, written_files, word_limit, output_dir, config, unaccounted=()) -> dict:
    """Write stats.json and the validation result; return the result (success and failure lines)."""
    write_empty_tables(output_dir, {table for table, _, _ in written_files})
    stats = nest(counts)
    stats["profile"] = config.profile
    # Screening runs whatever the steps asked for; the reader too, but stats.json has never listed it.
    stats["steps_run"] = [step for step in STEP_ORDER if step in config.steps or step == "screen"]
    if word_limit is not None:
        stats.setdefault("steps", {}).setdefault("runon", {})["word_limit"] = word_limit
    write_json(posixpath.join(output_dir, "stats.json"), stats)
    result = validate_output(output_dir, output_expectations(config, counts), posixpath.join(output_dir, "validation"))
    failures = lineage_failure(list(unaccounted)) + result.failures
    summary = {"success": not failures, "failures": failures}
    write_json(posixpath.join(output_dir, RESULT_FILE), summary)
    return summary


class Finalize(beam.PTransform):
    """counts -> stats.json and the validation result; `lineage` is the stream of VideoBatch that was written."""

    def __init__(self, output_dir, config, written_files, word_limit=None, lineage=None):
        super().__init__()
        self._output_dir = output_dir
        self._config = config
        self._written_files = written_files
        self._word_limit = word_limit
        self._lineage = lineage

    def expand(self, counts):
        word_limit = beam.pvalue.AsSingleton(self._word_limit) if self._word_limit is not None else None
        unaccounted = ()
        if self._lineage is not None:
            unaccounted = beam.pvalue.AsList(self._lineage | "UnaccountedCaptions" >> beam.FlatMap(unaccounted_captions))
        return counts | "StatsAndValidation" >> beam.Map(
            finalize_output, beam.pvalue.AsList(self._written_files), word_limit, self._output_dir, self._config,
            unaccounted)
