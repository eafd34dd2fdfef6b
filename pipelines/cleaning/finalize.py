"""The pipeline's last stage: figures to stats.json, and the check on the lineage.

Conservation is checked three times. The videos that reach this stage must hold
every caption record the reader counted in the files: a runner can lose elements
without an error, and a lost video's lineage is lost with it. Each video's lineage
must account for every caption record read: kept, or in `removed` (a step that
drops a caption without saying why is a bug, and the run fails naming the video).
This stage writes that verdict to validation/result.json. Then, once the pipeline has ended, the
launcher reads the written tables back and checks them (the `conservation`
suite among others: every input record in the tables once), and the whole
verdict replaces this one (pipelines/cleaning/verdict.py).
"""
import posixpath

import apache_beam as beam

from pipelines.cleaning.stats import nest
from pipelines.cleaning.verdict import RESULT_FILE
from pipelines.cleaning.write_tables import remove_shards, write_empty_tables
from pipelines.output.json_files import write_json
from pipelines.runtime.timing import busy_timer

# How many videos a lineage failure line names.
EXAMPLE_VIDEOS = 3


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


def lost_records_failure(records_read, records_at_end: int) -> list:
    """One failure line when the videos that reached the end hold fewer (or more) caption records than
    were read: whole videos went missing on the way, which no video's lineage can show. A runner can
    lose elements without an error (docs/output.md, Conservation); `records_read` None: not counted."""
    if records_read is None or records_read == records_at_end:
        return []
    return [f"conservation: {records_read:,} caption records were read, but the videos that reached the end "
            f"of the pipeline hold {records_at_end:,} (difference {records_read - records_at_end:,}): the runner "
            "lost or repeated whole videos, and the output is incomplete"]


def finalize_output(counts, written_files, reported, output_dir, config, steps_run, unaccounted=(),
                    metadata=None, records_read=None) -> dict:
    """Write stats.json and the lineage's verdict (RESULT_FILE); return the verdict (success, failure lines,
    and no expectation yet: the launcher adds the tables' own, pipelines/cleaning/verdict.py).

    `reported`: the figures the steps report ('steps/<step>/<figure>' -> value, and with --limit
    'limit/videos' and 'limit/videos_in_input'); `steps_run`: the steps this run ran; `metadata`:
    the Parquet files' key-value metadata; `records_read`: the caption records the videos were read
    with (read_and_correct), which the videos at the end must hold."""
    with busy_timer("finalize"):
        return _finalize_output(counts, written_files, reported, output_dir, config, steps_run, unaccounted,
                                metadata, records_read)


def _finalize_output(counts, written_files, reported, output_dir, config, steps_run, unaccounted,
                     metadata, records_read) -> dict:
    remove_shards(output_dir)  # every table file is written (`written_files`): the shards are read
    write_empty_tables(output_dir, {table for table, _, _ in written_files}, metadata)
    stats = nest({**counts, **reported})
    stats["profile"] = config.profile
    stats["steps_run"] = list(steps_run)
    # A run of the first N videos only (--limit) is partial: its figures are those of these videos.
    stats.setdefault("limit", None)
    stats["partial"] = stats["limit"] is not None
    write_json(posixpath.join(output_dir, "stats.json"), stats)
    failures = (lost_records_failure(records_read, counts.get("input/captions", 0))
                + lineage_failure(list(unaccounted)))
    verdict = {"success": not failures, "failures": failures, "expectations": []}
    write_json(posixpath.join(output_dir, RESULT_FILE), verdict)
    return verdict


class Finalize(beam.PTransform):
    """counts -> stats.json and the lineage's verdict; `lineage` is the stream of VideoBatch that was written.

    `reported`: 'steps/<step>/<figure>' -> the one-element PCollection of a figure a step reports."""

    def __init__(self, output_dir, config, steps_run, written_files, reported=None, lineage=None, metadata=None,
                 records_read=None):
        super().__init__()
        self._records_read = records_read
        self._metadata = metadata
        self._output_dir = output_dir
        self._config = config
        self._steps_run = tuple(steps_run)
        self._written_files = written_files
        self._reported = reported or {}
        self._lineage = lineage

    def expand(self, counts):
        reported = beam.pvalue.AsDict(figure_pairs(counts.pipeline, self._reported))
        unaccounted = ()
        if self._lineage is not None:
            unaccounted = beam.pvalue.AsList(self._lineage | "UnaccountedCaptions" >> beam.FlatMap(unaccounted_captions))
        records_read = None
        if self._records_read is not None:
            records_read = beam.pvalue.AsSingleton(self._records_read)
        return counts | "StatsAndValidation" >> beam.Map(
            finalize_output, beam.pvalue.AsList(self._written_files), reported, self._output_dir, self._config,
            self._steps_run, unaccounted, self._metadata, records_read)


def figure_pairs(pipeline, reported: dict):
    """{path: one-element PCollection} -> one PCollection of (path, value) pairs."""
    pairs = [figure | f"Pair{path.replace('/', '_')}" >> beam.Map(lambda value, path=path: (path, value))
             for path, figure in reported.items()]
    if not pairs:
        return pipeline | "NoReportedFigures" >> beam.Create([])
    return pairs | "ReportedFigures" >> beam.Flatten()
