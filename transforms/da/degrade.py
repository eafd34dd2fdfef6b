"""The degraded copy of a caption, Direct Assessment's hidden check (Graham, Awad and Smeaton, "Evaluation
of automatic video captioning using direct assessment", PLOS ONE 2018).

A span of words that is neither the first nor the last word is replaced by as many words in a row taken
from a caption of another video. The span's length depends on the caption's length (SpanTable); the
default is the table of Graham's released DA scripts (github.com/ygraham/direct-assessment,
prep-hits/bad-refs.py), from 3 words up. A caption of 1 or 2 words cannot keep both its first and its last
word, so it is never degraded (degradable() says so; the HIT builder picks another original).

capclean's refinement (issue 39): a copy must be measurably worse, or a diligent worker who scores it as
high as its original fails the paired test that keeps workers. The paper's draw (span, donor, donor's
words) is made again, up to DAMAGE_DRAWS times, until the copy's bag-of-words similarity to the video's
other human captions (BowSimilarity: `capclean relevance`'s bow proxy) is strictly lower than the
original's. The signal only accepts or refuses a draw; the draw itself stays the paper's, so an accepted
copy is the paper's degradation given that it did damage. A caption with no damaging draw (one that shares
no word with the video's other captions has nothing to lose) gets no copy: degrade() returns None.

Everything random comes from one seed per caption, so one record can be made again from its own fields.
"""
import bisect
import hashlib
import random
import re
from dataclasses import dataclass

from transforms.errors import CapcleanError, ConfigError
from transforms.evaluation.relevance import RelevanceReading, bow_words, set_iou, stop_words, words_in_share

# Draws of a donor before giving up: a donor of the caption's own video is drawn again.
MAX_DRAWS = 1000
# Draws of a whole degradation (span, donor, words) before deciding the caption has no damaging one. On
# MSR-VTT's test captions (the default clean, raw and cleaned) a damaging draw takes 1.65 on average; 20 of
# the 10,520 items find none in 100 draws, and 2,000 draws find one for only 1 of them.
DAMAGE_DRAWS = 100


@dataclass(frozen=True)
class SpanRule:
    """Captions of min_words to max_words words (None: no upper bound) get a span of `length` words, or,
    when `fraction` is given, of that share of their words (rounded down, at least 1)."""
    min_words: int
    max_words: int | None
    length: int | None = None
    fraction: float | None = None

    def span(self, words: int) -> int:
        return self.length if self.fraction is None else max(1, int(words * self.fraction))


@dataclass(frozen=True)
class SpanTable:
    """The span length by caption length: rules in order, covering every length from the first rule's
    min_words up, the last one open-ended. Each span leaves the first and the last word."""
    rules: tuple

    def __post_init__(self):
        if not self.rules:
            raise ConfigError("span lengths: no rule")
        if self.rules[0].min_words < 3:
            raise ConfigError("span lengths: a caption of fewer than 3 words cannot keep its first and last word")
        for rule, following in zip(self.rules, self.rules[1:] + (None,)):
            if (rule.length is None) == (rule.fraction is None):
                raise ConfigError(f"span lengths: the rule from {rule.min_words} words needs a length or a share")
            if following is None:
                if rule.max_words is not None:
                    raise ConfigError(f"span lengths: the last rule must be open-ended ({rule.min_words}+)")
            elif rule.max_words is None or following.min_words != rule.max_words + 1:
                raise ConfigError(f"span lengths: the rules must follow one another without gap or overlap "
                                  f"(after {rule.min_words}-{rule.max_words} comes {following.min_words})")
            if rule.fraction is not None and not 0 < rule.fraction < 1:
                raise ConfigError(f"span lengths: a share must be between 0 and 1, not {rule.fraction}")
            if rule.max_words is not None and rule.max_words < rule.min_words:
                raise ConfigError(f"span lengths: {rule.min_words}-{rule.max_words} is empty")
            if rule.length is not None and rule.length < 1:
                raise ConfigError(f"span lengths: the rule from {rule.min_words} words replaces no word")
            # The longest span of a rule, against its shortest caption (a share grows slower than n - 2).
            if rule.span(rule.min_words) > rule.min_words - 2:
                raise ConfigError(f"span lengths: a span of {rule.span(rule.min_words)} words leaves no first and "
                                  f"last word of a {rule.min_words}-word caption")

    @property
    def min_words(self) -> int:
        return self.rules[0].min_words

    def span_length(self, words: int) -> int:
        for rule in self.rules:
            if rule.min_words <= words and (rule.max_words is None or words <= rule.max_words):
                return rule.span(words)
        raise CapcleanError(f"a caption of {words} words is too short to degrade (at least {self.min_words})")

    def describe(self) -> str:
        """The table as --span-lengths takes it."""
        parts = []
        for rule in self.rules:
            lengths = (f"{rule.min_words}+" if rule.max_words is None else str(rule.min_words)
                       if rule.max_words == rule.min_words else f"{rule.min_words}-{rule.max_words}")
            span = f"{rule.fraction * 100:g}%" if rule.fraction is not None else str(rule.length)
            parts.append(f"{lengths}:{span}")
        return ",".join(parts)


RULE = re.compile(r"^(\d+)(?:-(\d+)|(\+))?:(\d+)(%?)$")


def parse_span_table(text: str) -> SpanTable:
    """'3:1,4:2,5:2,6-7:3,8-14:4,15-19:5,20+:25%' -> SpanTable (a ConfigError names a bad rule)."""
    rules = []
    for item in (piece.strip() for piece in text.split(",") if piece.strip()):
        found = RULE.match(item)
        if not found:
            raise ConfigError(f"span lengths: {item!r} is not WORDS:SPAN, WORDS-WORDS:SPAN or WORDS+:SPAN[%]")
        low, high, open_ended, span, share = found.groups()
        max_words = None if open_ended else int(high or low)
        rules.append(SpanRule(int(low), max_words, None if share else int(span), int(span) / 100 if share else None))
    return SpanTable(tuple(rules))


# Graham's released scripts (prep-hits/bad-refs.py): 3 words: the middle one; 4: the middle two; 5: 2;
# 6-7: 3; 8-14: 4; 15-19: 5; 20 or more: a quarter. (They also replace the word of a 1-word caption and
# the second of a 2-word one, which keeps no last word: capclean does not degrade those.)
GRAHAM_SPANS = parse_span_table("3:1,4:2,5:2,6-7:3,8-14:4,15-19:5,20+:25%")


def words_of(caption: str) -> list:
    return caption.split()


def degradable(caption: str, table: SpanTable = GRAHAM_SPANS) -> bool:
    return len(words_of(caption)) >= table.min_words


def item_seed(seed: int, key: str) -> int:
    """A seed of its own for one thing (a caption, a HIT) from the run's seed: the same whatever else is in
    the run and in whatever order; non-negative, fits an int64."""
    digest = hashlib.sha256(f"{seed}\x00{key}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Donor:
    video_id: str
    caption: str
    words: tuple


class DonorPool:
    """The human captions: they lend their words (kept by number of words, so that a donor long enough is one
    draw), and each video's own are what its captions' similarity is measured against."""

    def __init__(self, captions):
        """`captions`: (video_id, sen_id, caption) triples; sen_id None when the caption has none."""
        captions = list(captions)
        donors = sorted({(len(words_of(text)), video, text) for video, _, text in captions if words_of(text)})
        self.donors = [Donor(video, text, tuple(words_of(text))) for _, video, text in donors]
        self.lengths = [length for length, _, _ in donors]
        self.by_video = {}
        for video, sen_id, text in captions:
            self.by_video.setdefault(video, []).append((sen_id, text))

    def draw(self, rng: random.Random, length: int, other_than: str) -> Donor:
        """A donor of at least `length` words from a video other than `other_than`, uniformly."""
        first = bisect.bisect_left(self.lengths, length)
        if first < len(self.donors):
            for _ in range(MAX_DRAWS):
                donor = self.donors[rng.randrange(first, len(self.donors))]
                if donor.video_id != other_than:
                    return donor
        raise CapcleanError(f"no human caption of another video than {other_than} has {length} words or more "
                            "to lend to a degraded caption")

    def others(self, video_id: str, sen_id) -> list:
        """The video's human captions but the one of `sen_id` (all of them when sen_id is None)."""
        return [text for own_id, text in self.by_video.get(video_id, ()) if sen_id is None or own_id != sen_id]


@dataclass(frozen=True)
class SplitCaption:
    """A caption as bow_words reads it with split tokens (no spaCy tags needed)."""
    caption: str


class BowSimilarity:
    """A caption's bag-of-words similarity to its video: the IoU of its words (spaCy's stop words out, split
    at spaces, lower case) with the video's words (those in at least 10% of the video's other human
    captions). It is `capclean relevance`'s bow proxy (transforms/evaluation/relevance.py) for one caption."""

    def __init__(self, reading: RelevanceReading = RelevanceReading(tokens="split")):
        self.reading = reading
        self.stops = stop_words(reading.stop_list)

    def words(self, caption: str) -> frozenset:
        return bow_words(SplitCaption(caption), self.reading, self.stops)

    def video_words(self, other_captions: list) -> frozenset:
        return words_in_share([self.words(caption) for caption in other_captions], self.reading.video_threshold)

    def similarity(self, caption: str, video_words: frozenset) -> float:
        return set_iou(self.words(caption), video_words)


BOW_SIMILARITY = BowSimilarity()


@dataclass(frozen=True)
class DegradedCaption:
    sen_id: int | None  # the original's, when it is an MSR-VTT caption
    original: str
    degraded: str
    span_start: int  # the first replaced word, 0-based (never 0: the first word is kept)
    span_length: int
    donor_caption: str
    donor_video_id: str
    seed: int  # degrade(original, ..., seed=seed) makes this record again


def degrade(original: str, video_id: str, sen_id, donors: DonorPool, seed: int, table: SpanTable = GRAHAM_SPANS,
            signal: BowSimilarity = BOW_SIMILARITY) -> DegradedCaption | None:
    """The caption with a span of its words (not the first, not the last) replaced by as many words in a
    row of a donor caption of another video, drawn until the copy's similarity to the video's other human
    captions falls (its words then differ from the original's); None when no draw of DAMAGE_DRAWS does."""
    words = words_of(original)
    length = table.span_length(len(words))
    video_words = signal.video_words(donors.others(video_id, sen_id))
    before = signal.similarity(original, video_words)
    if before == 0:
        return None  # nothing shared with the video, nothing to lose: no draw can lower it
    rng = random.Random(seed)
    for _ in range(DAMAGE_DRAWS):
        start = rng.randint(1, len(words) - 1 - length)
        donor = donors.draw(rng, length, video_id)
        at = rng.randint(0, len(donor.words) - length)
        degraded = " ".join(words[:start] + list(donor.words[at:at + length]) + words[start + length:])
        if signal.similarity(degraded, video_words) < before:
            return DegradedCaption(sen_id, original, degraded, start, length, donor.caption, donor.video_id, seed)
    return None
