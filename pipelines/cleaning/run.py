"""A clean run around its pipeline: the input and the output checked before Beam is loaded, the pipeline
in a staging folder, the validation's verdict, the report and the exports, the manifest, the swap into
place, and the summary printed. `capclean clean` (pipelines/cleaning/commands/clean.py) calls run_clean."""
import json
import logging
import sys
import threading
import time
from pathlib import Path

from pipelines.cleaning.steps import STEP_NAMES
from pipelines.cleaning.verdict import validate_written
from pipelines.commands.command import EXIT_VALIDATION_FAILED
from pipelines.output.folder import check_target, put_in_place, staging_for, write_marker
from pipelines.runtime.worker_errors import worker_errors_as_one_line
from transforms.read import find_annotation_files, missing_msrvtt_files

log = logging.getLogger("capclean")


def run_clean(input_path, output_dir, config, beam_args, exports=(), overwrite=False, capclean_flags=(),
              limit=None) -> int:
    from pipelines.output.manifest import (Clock, build_manifest, busy_seconds, input_record, parquet_metadata,
                                    parquet_provenance, write_manifest)

    clock = Clock()
    # The input and the output are checked before Beam is loaded (seconds, and memory), so that
    # a refusal is immediate.
    sources = find_annotation_files(input_path, config.input.size_limits)
    check_target(Path(output_dir), [input_path], overwrite)
    from pipelines.runtime.runner import check_beam_flags  # Beam is imported only when a pipeline runs

    check_beam_flags(beam_args, capclean_flags)
    output = Path(output_dir).resolve()
    started = time.monotonic()
    input_info = input_record(input_path, sources)
    metadata = parquet_metadata(parquet_provenance(config, input_info, limit))
    clock.phase("prepare")
    log.info("cleaning %s into %s (profile %s, steps %s%s)", input_path, output, config.profile,
             ",".join(config.steps), f", first {limit} videos" if limit is not None else "")
    with staging_for(output) as staging:
        imports = import_in_background()  # while the pipeline runs: what the validation and the report import
        with worker_errors_as_one_line():
            pipeline_result = run_pipeline(input_path, str(staging), config, beam_args, limit, metadata)
        clock.phase("pipeline")
        imports.join()
        result, tables = validate_written(staging, config, STEP_NAMES)
        clock.phase("validation")

        def manifest():
            return build_manifest("clean", input_info=input_info, beam_args=beam_args, config=config, limit=limit,
                                  stats=json.loads((staging / "stats.json").read_text()), validation=result,
                                  clock=clock, busy=busy_seconds(pipeline_result))
        if not result["success"]:
            write_manifest(staging, manifest())
            print(f"capclean: the output failed validation; it is left in {staging}:", file=sys.stderr)
            for failure in result["failures"]:
                print(f"  - {failure}", file=sys.stderr)
            return EXIT_VALIDATION_FAILED
        log.info("pipeline and validation done in %.0f s; writing the report", time.monotonic() - started)
        write_marker(staging, {"profile": config.profile})
        write_manifest(staging, manifest())  # the report reads it
        write_report_and_exports(staging, output, input_path, exports, clock, tables)
        write_manifest(staging, manifest())  # again, with the report's and the exports' times
        put_in_place(staging, output, [input_path])
    stats = json.loads((output / "stats.json").read_text())
    print(format_summary(stats, time.monotonic() - started))
    print(f"  validation passed; output in {output}\n  report: {output / 'report.html'}, "
          f"Data Docs: {output / 'validation' / 'index.html'}")
    return 0


def import_in_background() -> threading.Thread:
    """Start importing what the validation and the report need (Great Expectations; pandas and
    matplotlib), seconds of work, in a thread that runs while the pipeline does; join it before
    using them. A daemon: a run that fails before then does not wait for it."""
    thread = threading.Thread(target=_import_validation_and_report, name="capclean-imports", daemon=True)
    thread.start()
    return thread


def _import_validation_and_report() -> None:
    from schemas.validation.gx_runner import great_expectations

    great_expectations()
    import pipelines.cleaning.report  # noqa: F401


def write_report_and_exports(staging: Path, output: Path, input_path, exports, clock=None, tables=None):
    """The report and the exports, written into the staging folder; the report names `output`.
    `clock`: the run's Clock, which times them; `tables`: the run's tables as the validation read them
    (name -> frame), which the report then does not read again."""
    from pipelines.cleaning.report import write_report

    write_report(str(staging), shown_as=str(output), tables=tables)
    if clock is not None:
        clock.phase("report")
    if exports:
        from pipelines.cleaning.exports import run_exports
        paths = run_exports(exports, str(staging), input_path)
        log.info("exported %s", ", ".join(str(Path(path).relative_to(staging)) for path in paths))
        if clock is not None:
            clock.phase("exports")


def run_pipeline(input_path: str, output_dir: str, config, beam_args, limit: int | None = None,
                 metadata: dict | None = None):
    """The cleaning of `input_path` into `output_dir`; returns the pipeline's result."""
    sources = find_annotation_files(input_path, config.input.size_limits)
    for name in missing_msrvtt_files(sources):
        log.warning("warning: %s is not in %s: the output will have no videos of its splits", name, input_path)
    # A file that cannot be parsed stops the run on the worker that reads it: its one line
    # reaches the command line through the runner's wrapping (pipelines/runtime/worker_errors.py).
    from pipelines.cleaning.steps import build_cleaning
    from pipelines.runtime.runner import build_and_run

    return build_and_run(beam_args, lambda pipeline: build_cleaning(pipeline, sources, output_dir, config, limit,
                                                                    metadata))


def format_summary(stats, seconds) -> str:
    lines = [f"capclean: done in {seconds:.1f} s, profile {stats['profile']}",
             f"  input: {stats['input']['captions']} captions, {stats['input'].get('videos', 0)} videos",
             f"  {'step':<10} {'changed':>8} {'removed':>8} {'videos':>8} {'tokens':>8}"]
    for step in ("read",) + tuple(stats["steps_run"]):
        figures = stats["steps"].get(step, {})
        lines.append(f"  {step:<10} {figures.get('captions_changed', 0):>8} {figures.get('captions_removed', 0):>8} "
                     f"{figures.get('videos_touched', 0):>8} {figures.get('tokens_changed', 0):>8}")
    by_split = ", ".join(f"{split} {n}" for split, n in stats["output"].get("captions_by_split", {}).items())
    lines.append(f"  output: {stats['output'].get('captions', 0)} captions ({by_split})")
    if stats.get("partial"):
        limit = stats.get("limit") or {}
        lines.append(f"  partial: the first {limit.get('videos')} videos of {limit.get('videos_in_input')} (--limit)")
    return "\n".join(lines)
