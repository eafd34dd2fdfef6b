"""The spelling recheck's rounds (transforms/recheck.py) in the pipeline.

Round 1 counts the corpus totals on every video that enters it. A later round takes the totals of
the round before and brings them up to date with the videos that round changed (CorpusTotals.changed):
each stage of the round hands on, tagged CHANGED, each video it changed as it entered and as it left
(transforms/recheck.py, sides_of_change), and one small combine of them all (CorpusChange) is a side
input of the next round's totals. Every stage's figures are those of the videos that enter the round, and each
round's Respell also reads the figures of the round before (what moved, transforms/spelling/reach.py).
"""
from typing import Tuple

import apache_beam as beam

from pipelines.cleaning.apply_step import AggregateCombineFn, StepFn, compute_figures
from pipelines.cleaning.batch_coder import VideoBatch
from pipelines.runtime.progress import log_progress
from pipelines.runtime.timing import busy_timer
from transforms.corpus import AGGREGATES, CorpusChange, CorpusCount
from transforms.recheck import earlier_figures, recheck_round, sides_of_change


CHANGED = "changed"


class ChangesFn(StepFn):
    """StepFn that also yields, tagged CHANGED, each video the step changed as it entered and as it left."""

    def process(self, video, **figures):
        with busy_timer(self._timer):
            result = self._step.process(video, **figures)
        yield result
        for side in sides_of_change([video], [result]):
            yield beam.pvalue.TaggedOutput(CHANGED, side)


class RecheckRounds(beam.PTransform):
    """VideoBatch -> VideoBatch through `rounds` recheck rounds of `config`."""

    def __init__(self, config, rounds: int):
        super().__init__()
        self._config = config
        self._rounds = rounds

    def expand(self, videos):
        totals = change = None
        earlier = {}
        for round_number in range(1, self._rounds + 1):
            label = f"Recheck{round_number}"
            if change is None:
                totals = videos | f"{label}Count" >> beam.CombineGlobally(AggregateCombineFn(CorpusCount()))
            else:
                totals = totals | f"{label}Totals" >> beam.Map(lambda earlier_totals, change: earlier_totals.changed(change),
                                                                change=beam.pvalue.AsSingleton(change))
            figures = {name: totals | f"{label}{name.title().replace('_', '')}" >> beam.Map(
                lambda round_totals, name=name: round_totals.figure(name)) for name in AGGREGATES}
            respell, *others = recheck_round(self._config, round_number)
            # Every stage's figures are counted on the videos that enter the round.
            stages = [(respell, {**figures, **earlier})] + [
                (stage, compute_figures(videos, stage, f"{label}{number}{type(stage).__name__}"))
                for number, stage in enumerate(others, start=2)]
            changed = []
            for number, (stage, stage_figures) in enumerate(stages, start=1):
                side_inputs = {name: beam.pvalue.AsSingleton(figure) for name, figure in stage_figures.items()}
                done = videos | f"{label}{number}{type(stage).__name__}" >> beam.ParDo(
                    ChangesFn(stage, f"recheck/{stage.name}"), **side_inputs).with_output_types(
                        VideoBatch, **{CHANGED: Tuple[str, VideoBatch]}).with_outputs(CHANGED, main="videos")
                videos = done.videos
                changed.append(done[CHANGED])
            videos = videos | log_progress(f"recheck{round_number}")
            if round_number < self._rounds:
                change = (changed | f"{label}Changed" >> beam.Flatten()
                          | f"{label}Change" >> beam.CombineGlobally(AggregateCombineFn(CorpusChange())))
            earlier = earlier_figures(figures)
        return videos
