"""The pipeline's last stage: figures to stats.json, then the checks on the lineage and the written tables.

Conservation is checked twice. Each video's lineage must account for every
caption record read: kept, or in `removed` (a step that drops a caption without
saying why is a bug, and the run fails naming the video). Then the written
tables must hold every input record once (the `conservation` suite).
"""
import posixpath

import apache_beam as beam

from pipelines.cleaning.stats import nest
from pipelines.cleaning.write_tables import write_empty_tables
from pipelines.output.json_files import write_json
from pipelines.runtime.timing import busy_timer
from schemas.validation import OutputExpectations, validate_output

RESULT_FILE = "validation/result.json"
# How many videos a lineage failure line names.
EXAMPLE_VIDEOS = 3


def output_expectations(config, counts, step_names: tuple) -> OutputExpectations:
    return OutputExpectations(
        allowed_characters=config.validation.allowed_characters,
        splits=tuple(config.validation.splits),
        split_video_ranges=dict(config.validation.split_video_ranges) or None,
        input_records=counts.get("input/captions", 0),
        input_videos=counts.get("steps/screen/videos_passed", 0),
        steps=tuple(step_names),
    )


def unaccounted_captions(batch):
    """(video_id, records read, kept + removed) when a video's lineage does not account for every record.

    Captions step IV's `separate` policy made from a run-on are not records read: its
    `runon` rows list their ids, and they are left out of the count.
    """
    made_by_runon = sum(len(row.new_sen_ids) for row in batch.runon)
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


def finalize_output(counts, written_files, reported, output_dir, config, step_names, steps_run,
                    unaccounted=(), metadata=None) -> dict:
    """Write stats.json and the validation result; return the result (success, failure lines, and
    every expectation with its outcome, which the report and the Data Docs index show).

    `reported`: the figures the steps report ('steps/<step>/<figure>' -> value, and with --limit
    'limit/videos' and 'limit/videos_in_input'); `step_names`: every `step` value in pipeline
    order; `steps_run`: the steps this run ran; `metadata`: the Parquet files' key-value metadata."""
    with busy_timer("finalize"):
        return _finalize_output(counts, written_files, reported, output_dir, config, step_names, steps_run,
                                unaccounted, metadata)


def _finalize_output(counts, written_files, reported, output_dir, config, step_names, steps_run, unaccounted,
                     metadata) -> dict:
    write_empty_tables(output_dir, {table for table, _, _ in written_files}, metadata)
    stats = nest({**counts, **reported})
    stats["profile"] = config.profile
    stats["steps_run"] = list(steps_run)
    # A run of the first N videos only (--limit) is partial: its figures are those of these videos.
    stats.setdefault("limit", None)
    stats["partial"] = stats["limit"] is not None
    write_json(posixpath.join(output_dir, "stats.json"), stats)
    result = validate_output(output_dir, output_expectations(config, counts, step_names),
                             posixpath.join(output_dir, "validation"))
    failures = lineage_failure(list(unaccounted)) + result.failures
    summary = {"success": not failures, "failures": failures, "expectations": result.expectations}
    write_json(posixpath.join(output_dir, RESULT_FILE), summary)
    return summary


class Finalize(beam.PTransform):
    """counts -> stats.json and the validation result; `lineage` is the stream of VideoBatch that was written.

    `reported`: 'steps/<step>/<figure>' -> the one-element PCollection of a figure a step reports."""

    def __init__(self, output_dir, config, step_names, steps_run, written_files, reported=None, lineage=None,
                 metadata=None):
        super().__init__()
        self._metadata = metadata
        self._output_dir = output_dir
        self._config = config
        self._step_names = tuple(step_names)
        self._steps_run = tuple(steps_run)
        self._written_files = written_files
        self._reported = reported or {}
        self._lineage = lineage

    def expand(self, counts):
        reported = beam.pvalue.AsDict(figure_pairs(counts.pipeline, self._reported))
        unaccounted = ()
        if self._lineage is not None:
            unaccounted = beam.pvalue.AsList(self._lineage | "UnaccountedCaptions" >> beam.FlatMap(unaccounted_captions))
        return counts | "StatsAndValidation" >> beam.Map(
            finalize_output, beam.pvalue.AsList(self._written_files), reported, self._output_dir, self._config,
            self._step_names, self._steps_run, unaccounted, self._metadata)


def figure_pairs(pipeline, reported: dict):
    """{path: one-element PCollection} -> one PCollection of (path, value) pairs."""
    pairs = [figure | f"Pair{path.replace('/', '_')}" >> beam.Map(lambda value, path=path: (path, value))
             for path, figure in reported.items()]
    if not pairs:
        return pipeline | "NoReportedFigures" >> beam.Create([])
    return pairs | "ReportedFigures" >> beam.Flatten()
