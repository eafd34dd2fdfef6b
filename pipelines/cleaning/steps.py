"""The cleaning pipeline: read -> the steps, in order -> spelling recheck -> write -> stats.json (the launcher
then validates the written tables: verdict.py).

STEPS is the one list of the steps. The configuration's sections, the names
--steps accepts, the step order of the tables, stats.json, the validation and
the report are all derived from it.
"""
from transforms.dedup import Dedup
from transforms.normalize import Normalize
from transforms.runon import Runon
from transforms.screen import Screen
from transforms.spelling import Spelling
from transforms.step import runs

STEPS = (
    Normalize,  # I: special characters
    Spelling,  # II: spelling, with Hunspell, word lists and the corpus's own counts
    Screen,  # what the output contract cannot hold goes to removed/ (always runs)
    Dedup,  # III: near-duplicate captions within a video
    Runon,  # IV: run-on captions (and step III again on the videos it cut, when asked to)
)
# The `step` values of removed/ and edits/, in pipeline order: the reader, then the steps.
STEP_NAMES = ("read",) + tuple(step.name for step in STEPS)


def steps_to_run(config) -> list:
    """The steps a run with `config` runs, ready to apply."""
    return [step(config) for step in STEPS if runs(step, config)]


def read_and_correct(pipeline, sources, config, last_step: str = "screen", limit: int | None = None):
    """Read, then the steps up to and including `last_step`: what the cleaning and the sweep share.

    `limit`: only the first `limit` videos in natural video_id order go on from the reader
    (`--limit`); every figure, those over the whole dataset included, is then theirs alone.
    Returns the videos, for stats.json the figures the steps report ('steps/<step>/<figure>',
    and 'limit/...' with a limit), and the one-element count of the caption records the videos
    were read with (those the files hold; with a limit, those of the first videos), which every
    record must reach the end with (finalize.py).
    """
    # Beam is imported here rather than above: the command line and the configuration read
    # STEPS, and need not wait seconds for Beam to load.
    import apache_beam as beam

    from pipelines.cleaning.apply_step import ApplyStep, compute_figures
    from pipelines.runtime.progress import log_progress
    from pipelines.cleaning.read_source import ReadMsrVtt, first_videos

    read = pipeline | "Read" >> ReadMsrVtt(sources, config.input.caption_limits, config.input.size_limits)
    videos, records_read = read["videos"], read["records_in_files"]
    reported = {}
    if limit is not None:
        videos, reported = first_videos(videos, limit)
        records_read = (videos | "LimitRecords" >> beam.Map(lambda batch: batch.input_records)
                        | "LimitRecordsRead" >> beam.CombineGlobally(sum))
    videos = videos | log_progress("read")
    for step in steps_to_run(config):
        figures = compute_figures(videos, step)
        videos = videos | step.name.capitalize() >> ApplyStep(step, figures) | log_progress(step.name)
        reported.update({f"steps/{step.name}/{name}": figures[name] for name in step.reported_figures})
        if step.name == last_step:
            break
    return videos, reported, records_read


def build_cleaning(pipeline, sources, output_dir, config, limit: int | None = None, metadata: dict | None = None):
    """Add the whole cleaning to `pipeline`; `limit`: the first videos only (read_and_correct);
    `metadata`: the key-value metadata of every Parquet file (the run's provenance)."""
    from pipelines.cleaning.finalize import Finalize
    from pipelines.cleaning.recheck_rounds import RecheckRounds
    from pipelines.cleaning.stats import CountFigures
    from pipelines.cleaning.write_tables import WriteTables

    videos, reported, records_read = read_and_correct(pipeline, sources, config, last_step="", limit=limit)
    if recheck_rounds(config):
        # The ranked rule's counts, taken again on the cleaned captions (transforms/recheck.py).
        videos = videos | "Recheck" >> RecheckRounds(config, recheck_rounds(config))
    written = videos | "Write" >> WriteTables(output_dir, config.output.sen_ids_per_file, STEP_NAMES, metadata)
    counts = videos | "Figures" >> CountFigures(STEP_NAMES, recheck_rounds(config))
    # The reader always runs, but stats.json has never listed it among the steps run.
    steps_run = [step.name for step in steps_to_run(config)]
    return counts | "Finalize" >> Finalize(output_dir, config, steps_run, written, reported, lineage=videos,
                                           records_read=records_read, metadata=metadata)


def recheck_rounds(config) -> int:
    return config.spelling.recheck_rounds if "spelling" in config.steps else 0
