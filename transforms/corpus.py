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


def phrases_joining_into(batch, joined_tokens) -> Counter:
    """Two-word phrases of this video's captions whose words written together make one of `joined_tokens`.

    "each other" counts for "eachother": the corpus attests a split only when
    annotators also wrote the two words apart.
    """
    phrases = Counter()
    for caption in batch.captions:
        words = caption.text.split()
        for left, right in zip(words, words[1:]):
            if left + right in joined_tokens:
                phrases[f"{left} {right}"] += 1
    return phrases


def add_counters(counters) -> Counter:
    total = Counter()
    for counter in counters:
        total.update(counter)
    return total


class CorpusStatistics(beam.PTransform):
    """VideoBatch -> (token stats, phrase counts), each a one-element PCollection for side inputs."""

    def expand(self, batches):
        token_stats = batches | "TokenStats" >> beam.CombineGlobally(TokenStatsFn())
        phrases = (
            batches
            | "PhrasesJoiningIntoTokens" >> beam.Map(
                lambda batch, stats: phrases_joining_into(batch, stats), beam.pvalue.AsSingleton(token_stats))
            | "AddPhrases" >> beam.CombineGlobally(add_counters)
        )
        return token_stats, phrases
