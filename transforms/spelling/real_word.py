"""Real-word errors: words the dictionary accepts that this corpus almost always means as another word.

"a band preforms a song": `preforms` is a word, so Hunspell never rejects it, yet MSR-VTT's
annotators write it for `performs`; "poring it into a glass" means `pouring`; "out doors" means
`outdoors`. The pairs (`preforms -> performs`, `out doors -> outdoors`) are a reviewed list
(dictionaries/msrvtt/real_words.txt, mined by `mine_pairs` below with training/mine_real_words.py).
Each occurrence is decided from the caption's own context, by the corpus's two-word phrases:

- the replacement must be written beside the occurrence's neighbours: the corpus writes
  "<previous> <replacement>" and "<replacement> <following>" together at least `min_support`
  times ("band performs", "performs a");
- and no side may speak for the word as written: where the corpus writes the replacement with
  a neighbour fewer than `min_support` times, and the share of the word's own uses with that
  neighbour is over `margin` times the replacement's share, the word is used rightly there
  ("a wrestling bout": the corpus never writes "wrestling about"), and it stays. (Most of the word's uses are the
  error itself, so a side the replacement is written with is no evidence against it.)

A word used rightly in a context the replacement is not written in ("a machine preforms
plastic") therefore stays too. Every change carries the counts it used (ContextEvidence), which
go to `corrections/` as columns.
"""
from dataclasses import dataclass
from typing import Optional

from rapidfuzz.distance import OSA
from rapidfuzz.process import extract


@dataclass(frozen=True)
class ContextEvidence:
    """The corpus counts a context decision used; `original` is the token(s) as written."""
    original_count: int  # how often the corpus writes the original (a two-word original: as a phrase)
    replacement_count: int  # ... and the replacement
    original_with_previous: int  # "<previous> <original's first word>"
    replacement_with_previous: int  # "<previous> <replacement>"
    original_with_following: int  # "<original's last word> <following>"
    replacement_with_following: int  # "<replacement> <following>"

    def as_columns(self) -> dict:
        return dict(self.__dict__)


@dataclass(frozen=True)
class RealWordFix:
    """A change decided in context at token `start`: `length` tokens (1, or 2 for a join) become
    `replacement`, by `rule`, with the counts it used (None: a rule of the neighbouring words alone)."""
    start: int
    length: int
    original: str
    replacement: str
    evidence: Optional[ContextEvidence]
    rule: str = "real_word"
    score: Optional[float] = None  # the rule's own measure of the evidence, if it has one (compounds.py)


class RealWords:
    """The reviewed pairs, decided per occurrence from the corpus's counts (module docstring).

    `pairs`: original -> replacement (an original of two words is a join); `token_stats`: word ->
    (count, videos); `phrases`: "left right" -> count.
    """

    def __init__(self, pairs: dict, token_stats: dict, phrases: dict, min_support: int, margin: float):
        self._pairs = pairs
        self._stats = token_stats or {}
        self._phrases = phrases or {}
        self._min_support = min_support
        self._margin = margin
        self.first_words = frozenset(original.split()[0] for original in pairs)
        self._words = frozenset(original for original in pairs if " " not in original)
        self._joins = frozenset(original for original in pairs if " " in original)
        self._join_starts = frozenset(original.split()[0] for original in self._joins)

    def concerns(self, tokens: list) -> bool:
        """Whether a caption's tokens hold a pair's original (most captions do not: "in" and "some" start joins,
        but "in side" and "some one" are rare)."""
        return not self._words.isdisjoint(tokens) or (
            not self._join_starts.isdisjoint(tokens) and any(f"{first} {second}" in self._joins
                                                             for first, second in zip(tokens, tokens[1:])))

    def find(self, tokens: list, at: int, previous: str) -> Optional[RealWordFix]:
        """The fix of the pair starting at token `at`, if its context calls for it.
        `previous`: the word before it, as corrected."""
        if tokens[at] not in self.first_words:
            return None
        for length in (2, 1):
            original = " ".join(tokens[at:at + length])
            if len(original.split()) == length and original in self._pairs:
                following = tokens[at + length] if at + length < len(tokens) else ""
                if self._pairs[original] in (previous, following):
                    return None  # a join would write the word twice ("basketball basket ball")
                evidence = self.evidence(original, self._pairs[original], previous, following)
                if self.calls_for_replacement(evidence, joined=length > 1):
                    return RealWordFix(at, length, original, self._pairs[original], evidence)
        return None

    def evidence(self, original: str, replacement: str, previous: str, following: str) -> ContextEvidence:
        words = original.split()
        phrase = self._phrases.get
        return ContextEvidence(
            original_count=phrase(original, 0) if len(words) > 1 else self._count(original),
            replacement_count=self._count(replacement),
            original_with_previous=phrase(f"{previous} {words[0]}", 0) if previous else 0,
            replacement_with_previous=phrase(f"{previous} {replacement}", 0) if previous else 0,
            original_with_following=phrase(f"{words[-1]} {following}", 0) if following else 0,
            replacement_with_following=phrase(f"{replacement} {following}", 0) if following else 0)

    def calls_for_replacement(self, evidence: ContextEvidence, joined: bool) -> bool:
        """The replacement is written beside the neighbours, and (for one word) no side speaks for the original
        (module docstring). A join's sides are other words: not compared."""
        e = evidence
        if e.replacement_with_previous + e.replacement_with_following < self._min_support:
            return False
        if joined or e.original_count == 0 or e.replacement_count == 0:
            return True
        return not any(replacement < self._min_support
                       and original / e.original_count > self._margin * replacement / e.replacement_count
                       for original, replacement in ((e.original_with_previous, e.replacement_with_previous),
                                                 (e.original_with_following, e.replacement_with_following)))

    def _count(self, word: str) -> int:
        return self._stats.get(word, (0, 0))[0]


def mine_pairs(token_stats: dict, accepts, min_count: int = 3, min_ratio: float = 2.0, is_typo=None) -> list:
    """Candidate pairs for review, (word, commoner word, count, its count): a word the dictionary accepts
    (`accepts`), written at least `min_count` times, and a word one edit away (`is_typo(word, other)`,
    if given, must hold) that the corpus writes `min_ratio` times more often. Inflections of each other
    ("streets", "street"; "tried", "tries") are grammar, not spelling, and left out. Review decides."""
    words = [word for word, (count, _) in token_stats.items() if word.isalpha() and count >= 2 and accepts(word)]
    by_length = {}
    for word in words:
        by_length.setdefault(len(word), []).append(word)
    pairs = []
    for word in words:
        count = token_stats[word][0]
        if len(word) < 4 or count < min_count:
            continue
        for length in (len(word) - 1, len(word), len(word) + 1):
            for other, _, _ in extract(word, by_length.get(length, []), scorer=OSA.distance, score_cutoff=1,
                                       limit=None):
                other_count = token_stats[other][0]
                if (other != word and other_count >= min_ratio * count and not inflects(word, other)
                        and (is_typo is None or is_typo(word, other))):
                    pairs.append((word, other, count, other_count))
    return sorted(pairs, key=lambda pair: (-pair[2], pair[0], pair[1]))


def mine_joins(token_stats: dict, phrases: dict, accepts, min_count: int = 3, min_ratio: float = 2.0) -> list:
    """Candidate joins for review, ("out doors", "outdoors", phrase count, word count): two words the
    corpus writes apart at least `min_count` times whose join is a word it writes `min_ratio` times more."""
    joins = []
    for phrase, count in phrases.items():
        first, second = phrase.split()
        joined = first + second
        if (count >= min_count and len(first) > 1 and len(second) > 1 and joined.isalpha()
                and token_stats.get(joined, (0, 0))[0] >= min_ratio * count and accepts(joined)):
            joins.append((phrase, joined, count, token_stats[joined][0]))
    return sorted(joins, key=lambda join: (-join[2], join[0]))


def inflects(word: str, other: str) -> bool:
    """One word is the other with an ending ("street", "streets") or they differ in their last letter
    only ("tried", "tries")."""
    shorter, longer = sorted((word, other), key=len)
    return longer.startswith(shorter) or (len(shorter) == len(longer) and shorter[:-1] == longer[:-1])
