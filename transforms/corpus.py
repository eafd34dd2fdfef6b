"""Corpus statistics the ranked spelling step consults: how often each token is written, and in how many videos.

A token Hunspell rejects that annotators of many videos write is a domain word;
a rare one close to a frequent word is a typo. The figures are global, so they
come from combines over the whole dataset, handed to the spelling workers as
side inputs. Their size is that of the vocabulary, not of the dataset.
"""
from collections import Counter

import apache_beam as beam


class TokenStatsFn(beam.CombineFn):
    """VideoBatch -> {token: (count, videos)} over all captions."""

    def create_accumulator(self):
        return {}

    def add_input(self, stats, batch):
        counts = Counter(token for caption in batch.captions for token in caption.text.split())
        for token, count in counts.items():
            seen = stats.get(token)
            stats[token] = (count, 1) if seen is None else (seen[0] + count, seen[1] + 1)
        return stats

    def merge_accumulators(self, accumulators):
        merged = {}
        for stats in accumulators:
            for token, (count, videos) in stats.items():
                seen = merged.get(token)
                merged[token] = (count, videos) if seen is None else (seen[0] + count, seen[1] + videos)
        return merged

    def extract_output(self, stats):
        return stats


# A two-word phrase written once is no evidence of anything; dropping those
# keeps the side input about a third of all distinct phrases.
MIN_PHRASE_COUNT = 2


def video_phrases(batch) -> Counter:
    """Two-word phrases ("each other", "is shown") of one video's captions, as 'left right' -> count."""
    phrases = Counter()
    for caption in batch.captions:
        words = caption.text.split()
        phrases.update(f"{left} {right}" for left, right in zip(words, words[1:]))
    return phrases


class PhraseCountsFn(beam.CombineFn):
    """VideoBatch phrase counters -> {phrase: count} of the phrases written at least MIN_PHRASE_COUNT times.

    They tell the spelling step which split of a run-together token annotators
    write apart, and which candidate annotators write between two words.
    """

    def create_accumulator(self):
        return Counter()

    def add_input(self, total, phrases):
        total.update(phrases)
        return total

    def merge_accumulators(self, accumulators):
        merged = Counter()
        for phrases in accumulators:
            merged.update(phrases)
        return merged

    def extract_output(self, total):
        return {phrase: count for phrase, count in total.items() if count >= MIN_PHRASE_COUNT}


class CorpusStatistics(beam.PTransform):
    """VideoBatch -> (token stats, phrase counts), each a one-element PCollection for side inputs."""

    def expand(self, batches):
        token_stats = batches | "TokenStats" >> beam.CombineGlobally(TokenStatsFn())
        phrases = (
            batches
            | "VideoPhrases" >> beam.Map(video_phrases)
            | "PhraseCounts" >> beam.CombineGlobally(PhraseCountsFn())
        )
        return token_stats, phrases
