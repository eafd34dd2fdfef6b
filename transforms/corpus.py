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

    def without(self, stats, part):
        """`stats` less `part`, a total of some of the same videos (a token none of the rest writes is gone);
        `stats` is changed in place."""
        for token, (count, videos) in part.items():
            left = (stats[token][0] - count, stats[token][1] - videos)
            if left[0]:
                stats[token] = left
            else:
                del stats[token]
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

    def without(self, total, part):
        """`total` less `part`, a total of some of the same videos (a phrase none of the rest writes is gone);
        `total` is changed in place."""
        total.subtract(part)
        for phrase in part:
            if not total[phrase]:
                del total[phrase]
        return total

    def extract(self, total):
        return {phrase: count for phrase, count in total.items() if count >= MIN_PHRASE_COUNT}


def corpus_aggregates() -> dict:
    """The figures the ranked rule reads, by the names its step takes them under."""
    return {"token_stats": TokenStats(), "phrases": PhraseCounts()}


AGGREGATES = corpus_aggregates()  # they keep no state: one of each serves every count below


class CorpusTotals:
    """The running totals of corpus_aggregates() (before their `extract`), kept up to date as videos change.

    A recheck round counts the figures on the videos that enter it, and the round before changed only
    a few of them: the totals are the earlier ones less what the changed videos wrote before, plus what
    they write now. The same totals as counting every video again, for the cost of the changed ones.
    """

    def __init__(self, totals: dict):
        self.totals = totals  # name -> the aggregate's total

    @classmethod
    def over(cls, videos) -> "CorpusTotals":
        """The totals of videos in memory."""
        return aggregate_over(CorpusCount(), videos)

    def figure(self, name: str):
        """The figure the ranked rule reads under `name` (corpus_aggregates(), its aggregate's `extract`)."""
        return AGGREGATES[name].extract(self.totals[name])

    def figures(self) -> dict:
        return {name: self.figure(name) for name in self.totals}

    def changed(self, change: tuple) -> "CorpusTotals":
        """The totals once some videos changed; `change`: (CorpusTotals of those videos as they were, CorpusTotals
        of them as they are), as CorpusChange counts them. These totals are left as they were."""
        before, after = change
        # merge makes a new total, which `without` then changes in place.
        return CorpusTotals({name: aggregate.without(aggregate.merge([self.totals[name], after.totals[name]]),
                                                     before.totals[name])
                             for name, aggregate in AGGREGATES.items()})


class CorpusCount(Aggregate):
    """The CorpusTotals of all the videos (every corpus aggregate at once, in one pass)."""

    def create(self):
        return {name: aggregate.create() for name, aggregate in AGGREGATES.items()}

    def add(self, totals, video):
        for name, aggregate in AGGREGATES.items():
            totals[name] = aggregate.add(totals[name], video)
        return totals

    def merge(self, all_totals):
        all_totals = list(all_totals)
        return {name: aggregate.merge([totals[name] for totals in all_totals])
                for name, aggregate in AGGREGATES.items()}

    def extract(self, totals):
        return CorpusTotals(totals)


# A changed video is counted on one of two sides: as it was before the change, and as it is after.
BEFORE, AFTER = "before", "after"


class CorpusChange(Aggregate):
    """(CorpusTotals of the changed videos as they were, CorpusTotals of them as they are): what
    CorpusTotals.changed takes. Each element is (BEFORE or AFTER, video)."""

    def create(self):
        return CORPUS_COUNT.create(), CORPUS_COUNT.create()

    def add(self, sides, side_and_video):
        side, video = side_and_video
        before, after = sides
        return (CORPUS_COUNT.add(before, video), after) if side == BEFORE else (before, CORPUS_COUNT.add(after, video))

    def merge(self, all_sides):
        all_sides = list(all_sides)
        return (CORPUS_COUNT.merge([before for before, _ in all_sides]),
                CORPUS_COUNT.merge([after for _, after in all_sides]))

    def extract(self, sides):
        return CORPUS_COUNT.extract(sides[0]), CORPUS_COUNT.extract(sides[1])


CORPUS_COUNT = CorpusCount()


def corpus_statistics(videos) -> tuple:
    """(token stats, phrase counts) of videos in memory, as a pipeline computes them."""
    videos = list(videos)
    return aggregate_over(TokenStats(), videos), aggregate_over(PhraseCounts(), videos)
