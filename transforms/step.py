"""The step interface: what every cleaning step is, whatever it does.

A step is a pure function over one video's captions: a VideoBatch in, a new
VideoBatch out, with what it removed or changed appended to the video's lineage
(transforms/lineage.py). It has a name, the configuration section it reads,
and, when it needs them, figures over the whole dataset (corpus counts, a
length limit) and resources loaded once per worker (Hunspell, a model).

One generic Beam transform runs any step (pipelines/cleaning/apply_step.py). This module
and the steps themselves import no Beam: the command line lists the steps
without loading it, and a step's core is tested on plain VideoBatches.

To add a step: a module in transforms/ with a Step subclass, and one line in
STEPS in pipelines/cleaning/steps.py.
"""
from typing import ClassVar, Optional


class Aggregate:
    """A figure over the whole dataset that a step reads, computed the way a combine is.

    Every video adds to a running total, totals of parts of the dataset are
    merged, and `extract` turns the final total into the figure. Beam runs it
    as a CombineGlobally and hands the figure to every worker as a side input.
    """

    def create(self):
        raise NotImplementedError

    def add(self, total, video):
        raise NotImplementedError

    def merge(self, totals):
        raise NotImplementedError

    def extract(self, total):
        return total


class Step:
    """A cleaning step. Subclasses set `name` and override `process`."""

    # The step's name: the `step` of its rows in removed/ and edits/, its key in stats.json,
    # its name for --steps, and the name of its configuration section.
    name: ClassVar[str] = ""
    # What it does to a dataset, in a few words (the dataset card of an export lists the steps so).
    summary: ClassVar[str] = ""
    # The frozen dataclass of its configuration section (None: it has no settings of its own).
    Settings: ClassVar[Optional[type]] = None
    # Whether --steps may leave it out (screening keeps the output contract: it always runs).
    optional: ClassVar[bool] = True
    # The figures of `aggregates()` that stats.json records under steps/<name>/.
    reported_figures: ClassVar[tuple] = ()
    # How many videos the pipeline hands to `process_videos` at once (1: one at a time, to `process`).
    videos_per_call: int = 1

    def __init__(self, config):
        """`config` is the whole CleaningConfig: a step reads its own section and, rarely, another's."""
        self.config = config

    @property
    def settings(self):
        return getattr(self.config, self.name)

    def aggregates(self) -> dict:
        """name -> Aggregate: the figures over the whole dataset this step reads (as keyword arguments)."""
        return {}

    def setup(self) -> None:
        """Load, once per worker, what cannot be pickled or costs seconds (Hunspell, a model)."""

    def process(self, video, **figures):
        """The step on one video: a new VideoBatch (never the input changed in place)."""
        raise NotImplementedError

    def process_videos(self, videos: list, **figures) -> list:
        """The step on several videos (videos_per_call > 1): each gets what `process` gives it alone."""
        return [self.process(video, **figures) for video in videos]


def runs(step_type, config) -> bool:
    """Whether a run with `config` runs this step."""
    return not step_type.optional or step_type.name in config.steps


def aggregate_over(aggregate: Aggregate, videos):
    """An Aggregate's figure over videos in memory (what a pipeline's combine computes)."""
    total = aggregate.create()
    for video in videos:
        total = aggregate.add(total, video)
    return aggregate.extract(total)


def run_step(step: Step, videos: list) -> list:
    """The step over videos in memory, as a pipeline runs it (its figures, its setup, every video).

    For benchmarks, tools and tests that need a step without Beam.
    """
    figures = {name: aggregate_over(aggregate, videos) for name, aggregate in step.aggregates().items()}
    step.setup()
    size = step.videos_per_call
    return [done for start in range(0, len(videos), size)
            for done in step.process_videos(videos[start:start + size], **figures)]
