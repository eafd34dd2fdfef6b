"""Step IV: run-on captions.

The `truncate` rule is the paper's: a train or validate caption longer than
mean + k standard deviations of the caption length in words (over all splits,
after step III) is cut to that many words. The length statistics are a global
figure, so they come from a combine over the whole dataset, fed back to every
worker as a side input.
"""
import math

import apache_beam as beam

from transforms.batch import rewrite_captions

STEP = "runon"


def length_moments(batch) -> tuple:
    """(count, sum, sum of squares) of the caption lengths in words: integers, so the global sum is exact."""
    lengths = [len(caption.text.split()) for caption in batch.captions]
    return len(lengths), sum(lengths), sum(length * length for length in lengths)


def add_moments(moments) -> tuple:
    count = total = squares = 0
    for c, s, q in moments:
        count, total, squares = count + c, total + s, squares + q
    return count, total, squares


def word_limit(moments: tuple, std_multiplier: float) -> int:
    """floor(mean + k * std) of the caption lengths, std of the population (as numpy's default)."""
    count, total, squares = moments
    if count == 0:
        return 0
    mean = total / count
    variance = max(squares / count - mean * mean, 0.0)
    return math.floor(mean + std_multiplier * math.sqrt(variance))


def truncate_caption(text: str, limit: int) -> str:
    words = text.split()
    return text if len(words) <= limit else " ".join(words[:limit])


def truncate_long_captions(batch, limit: int, splits: tuple):
    if batch.split not in splits:
        return batch
    return rewrite_captions(batch, STEP, lambda text: (truncate_caption(text, limit), f"truncate>{limit}"))


class WordLimit(beam.PTransform):
    """VideoBatch -> the single word limit floor(mean + k std) over all captions."""

    def __init__(self, std_multiplier: float):
        super().__init__()
        self._std_multiplier = std_multiplier

    def expand(self, batches):
        return (
            batches
            | "LengthMoments" >> beam.Map(length_moments)
            | "AddMoments" >> beam.CombineGlobally(add_moments)
            | "WordLimit" >> beam.Map(word_limit, self._std_multiplier)
        )


class TruncateLongCaptions(beam.PTransform):
    """Step IV (`truncate`) over a PCollection of VideoBatch, given the word limit as a one-element PCollection."""

    def __init__(self, word_limit, splits: tuple):
        super().__init__()
        self._word_limit = word_limit
        self._splits = tuple(splits)

    def expand(self, batches):
        return batches | "TruncateLongCaptions" >> beam.Map(
            truncate_long_captions, beam.pvalue.AsSingleton(self._word_limit), self._splits)
