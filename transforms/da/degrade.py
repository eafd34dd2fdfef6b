"""The degraded copy of a caption, Direct Assessment's hidden check (Graham, Awad and Smeaton, "Evaluation
of automatic video captioning using direct assessment", PLOS ONE 2018).

A span of words that is neither the first nor the last word is replaced by as many words in a row taken
from a caption of another video. The span's length depends on the caption's length (SpanTable); the
default is the table of Graham's released DA scripts (github.com/ygraham/direct-assessment,
prep-hits/bad-refs.py), from 3 words up. A caption of 1 or 2 words cannot keep both its first and its last
word, so it is never degraded (degradable() says so; the HIT builder picks another original).

Everything random comes from one seed per caption, so one record can be made again from its own fields.
"""
import bisect
import hashlib
import random
import re
from dataclasses import dataclass

from transforms.errors import CapcleanError, ConfigError

# Draws of a donor before giving up: a donor of the caption's own video, or one whose words equal the
# replaced ones, is drawn again.
MAX_DRAWS = 1000


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
    """Human captions that lend their words, by number of words, so that a donor long enough is one draw."""

    def __init__(self, captions):
        """`captions`: (video_id, caption) pairs."""
        donors = sorted({(len(words_of(text)), video, text) for video, text in captions if words_of(text)})
        self.donors = [Donor(video, text, tuple(words_of(text))) for _, video, text in donors]
        self.lengths = [length for length, _, _ in donors]

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


def degrade(original: str, video_id: str, sen_id, donors: DonorPool, seed: int,
            table: SpanTable = GRAHAM_SPANS) -> DegradedCaption:
    """The caption with a span of its words (not the first, not the last) replaced by as many words in a
    row of a donor caption of another video; the words put in never equal, case aside, those taken out."""
    words = words_of(original)
    length = table.span_length(len(words))
    rng = random.Random(seed)
    start = rng.randint(1, len(words) - 1 - length)
    taken_out = [word.lower() for word in words[start:start + length]]
    for _ in range(MAX_DRAWS):
        donor = donors.draw(rng, length, video_id)
        at = rng.randint(0, len(donor.words) - length)
        put_in = list(donor.words[at:at + length])
        if [word.lower() for word in put_in] != taken_out:
            degraded = " ".join(words[:start] + put_in + words[start + length:])
            return DegradedCaption(sen_id, original, degraded, start, length, donor.caption, donor.video_id, seed)
    raise CapcleanError(f"caption {original!r} of {video_id}: every donor drawn had the same words as its span")
