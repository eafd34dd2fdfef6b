"""Running the cleaning pipeline on a Beam runner."""
import apache_beam as beam
from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions

from pipelines.clean import build_cleaning
from transforms.read import find_annotation_files, load_annotations


def make_pipeline(beam_args) -> beam.Pipeline:
    """A pipeline on the runner the Beam options name, or on the in-process FnApiRunner.

    Beam's DirectRunner would first try to download the Prism runner; the
    FnApiRunner it falls back to is what we want, and it honours
    --direct_num_workers and --direct_running_mode.
    """
    options = PipelineOptions(beam_args)
    if options.view_as(StandardOptions).runner:
        return beam.Pipeline(options=options)
    from apache_beam.runners.portability.fn_api_runner import FnApiRunner
    return beam.Pipeline(runner=FnApiRunner(), options=options)


def run_pipeline(input_path: str, output_dir: str, config, beam_args) -> None:
    sources = find_annotation_files(input_path)
    # A file that cannot be read should stop the run here, in one line, rather
    # than inside a worker, where the runner wraps the error in its own traceback.
    for source in sources:
        load_annotations(source)
    pipeline = make_pipeline(beam_args)
    build_cleaning(pipeline, sources, output_dir, config)
    pipeline.run().wait_until_finish()
