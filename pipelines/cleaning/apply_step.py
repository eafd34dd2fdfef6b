"""The one Beam transform that runs any step (transforms/step.py) over a PCollection of VideoBatch.

It computes the step's figures over the whole dataset (one combine each, handed
to every worker as side inputs), loads the step's resources once per worker,
and calls the step's pure function on every video.
"""
import apache_beam as beam

from pipelines.cleaning.batch_coder import VideoBatch
from pipelines.runtime.timing import busy_timer


class AggregateCombineFn(beam.CombineFn):
    """A step's Aggregate as a Beam combine."""

    def __init__(self, aggregate):
        self._aggregate = aggregate

    def create_accumulator(self):
        return self._aggregate.create()

    def add_input(self, total, video):
        return self._aggregate.add(total, video)

    def merge_accumulators(self, totals):
        return self._aggregate.merge(totals)

    def extract_output(self, total):
        return self._aggregate.extract(total)


class StepFn(beam.DoFn):
    """`timer`: the name the step's busy time is counted under (run manifest)."""

    def __init__(self, step, timer: str = ""):
        self._step = step
        self._timer = timer or step.name

    def setup(self):
        self._step.setup()

    def process(self, video, **figures):
        with busy_timer(self._timer):
            result = self._step.process(video, **figures)
        yield result


class StepOnVideosFn(StepFn):
    """StepFn for a step that works on several videos at once (Step.videos_per_call)."""

    def process(self, videos, **figures):
        with busy_timer(self._timer):
            results = self._step.process_videos(videos, **figures)
        yield from results


def compute_figures(videos, step, label: str = "") -> dict:
    """name -> one-element PCollection, for every figure the step reads; `label` names the step's stage."""
    label = label or step.name.capitalize()
    return {name: videos | f"{label}{name.title().replace('_', '')}" >> beam.CombineGlobally(AggregateCombineFn(aggregate))
            for name, aggregate in step.aggregates().items()}


class ApplyStep(beam.PTransform):
    """VideoBatch -> VideoBatch through `step`, with `figures` (from compute_figures) as side inputs."""

    def __init__(self, step, figures: dict, timer: str = ""):
        super().__init__()
        self._step = step
        self._figures = figures
        self._timer = timer

    def expand(self, videos):
        side_inputs = {name: beam.pvalue.AsSingleton(figure) for name, figure in self._figures.items()}
        size = self._step.videos_per_call
        if size == 1:
            return videos | "EachVideo" >> beam.ParDo(StepFn(self._step, self._timer), **side_inputs).with_output_types(
                VideoBatch)
        # The videos of a bundle in lists of `size` (the last one shorter): step IV scores the captions
        # of many videos together. A video's result never depends on the others of its list.
        return (videos | "Together" >> beam.BatchElements(min_batch_size=size, max_batch_size=size)
                | "EachList" >> beam.ParDo(StepOnVideosFn(self._step, self._timer), **side_inputs).with_output_types(
                    VideoBatch))

