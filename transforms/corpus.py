"""Corpus statistics the ranked spelling step consults: how often each token is written, and in how many videos.

A token Hunspell rejects that annotators of many videos write is a domain word;
a rare one close to a frequent word is a typo. The figures are global: each is
an Aggregate (transforms/step.py) over the whole dataset, which Beam computes
with a combine and hands to the spelling workers. Their size is that of the
vocabulary, not of the dataset.
"""
from collections import Counter

from transforms.step import Aggregate, aggregate_over


class TokenStats(Aggregate):
    """{token: (count, videos)} over all captions."""

    def create(self):
        return {}

    def add(self, stats, video):
        counts = Counter(token for caption in video.captions for token in caption.text.split())
        for token, count in counts.items():
            seen = stats.get(token)
            stats[token] = (count, 1) if seen is None else (seen[0] + count, seen[1] + 1)
        return stats

    def merge(self, totals):
        merged = {}
        for stats in totals:
            for token, (count, videos) in stats.items():
                seen = merged.get(token)
                merged[token] = (count, videos) if seen is None else (seen[0] + count, seen[1] + videos)
        return merged


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


class PhraseCounts(Aggregate):
    """{phrase: count} of the two-word phrases written at least MIN_PHRASE_COUNT times.

    They tell the spelling step which split of a run-together token annotators
    write apart, and which candidate annotators write between two words.
    """

    def create(self):
        return Counter()

    def add(self, total, video):
        total.update(video_phrases(video))
        return total

    def merge(self, totals):
        merged = Counter()
        for phrases in totals:
            merged.update(phrases)
        return merged

    def extract(self, total):
        return {phrase: count for phrase, count in total.items() if count >= MIN_PHRASE_COUNT}


def corpus_aggregates() -> dict:
    """The figures the ranked rule reads, by the names its step takes them under."""
    return {"token_stats": TokenStats(), "phrases": PhraseCounts()}


def corpus_statistics(videos) -> tuple:
    """(token stats, phrase counts) of videos in memory, as a pipeline computes them."""
    videos = list(videos)
    return aggregate_over(TokenStats(), videos), aggregate_over(PhraseCounts(), videos)
