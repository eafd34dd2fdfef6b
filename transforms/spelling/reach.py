"""Which corpus figures the ranked rule's decision about a token may read: what a recheck round must decide again.

A recheck round (transforms/recheck.py) counts the corpus figures again, and they move only
where the round before changed captions: a token replaced by another moves the counts of both
and of the phrases around them, a caption removed or cut those of its words. The decision
about a token Hunspell rejects (decisions.DECISION_CHAIN) reads few figures, all tied to the
token by its spelling or by its neighbours. Before the gate (the chain's last link):

- the count and videos of the token and of the token with a g added (dropped_g);
- the counts of the corpus words close to it (its first letter, within the edit distance: the
  rule's candidates; whether a word is a candidate at all depends on its count, so this covers
  a word that crossed min_candidate_count too), and of a name it begins (name clippings);
- the phrases of its splits ("each other" for "eachother"), and the phrases joining the word
  before it or the word after it to the token or to a close word (the context's support).

The gate, asked only about a decision it checks (decisions.is_checked), reads more: the count of
the word before the token, and the counts of the words of all its candidates (besides the close
words: Hunspell's suggestions, a split the corpus attests or one before a function word, the
word lists' entries, a word of the clip the token plausibly misspells), and the phrases joining
the neighbours to them (its bigram fit).

`Reach` says whether a moved figure is among them. What it tests depends on no figure the
decision reads without the test itself checking it (a split's words count only where its phrase
is in the figures, and that phrase is one of the token's), so a token it does not reach decides
as it did when it was last decided. The rules asked about every token, accepted or not
(possessives, real-word errors), read figures of any word; with them on, every caption is decided again.
"""
from rapidfuzz.distance import OSA

from transforms.spelling.typos import close_in_clip


class MovedFigures:
    """The corpus figures that differ between two countings: words whose (count, videos) differ,
    and phrases whose count differs (a phrase under the kept minimum counts as absent)."""

    def __init__(self, tokens, phrases):
        self.tokens = frozenset(tokens)
        self.phrases = frozenset(phrases)
        self.phrases_joined = frozenset(phrase.replace(" ", "") for phrase in self.phrases)
        self.after = {}  # word -> the words the moved phrases write after it
        self.before = {}  # word -> the words the moved phrases write before it
        for phrase in self.phrases:
            left, _, right = phrase.partition(" ")
            self.after.setdefault(left, set()).add(right)
            self.before.setdefault(right, set()).add(left)
        self.tokens_by_length = {}
        for word in self.tokens:
            self.tokens_by_length.setdefault(len(word), []).append(word)

    def __bool__(self) -> bool:
        return bool(self.tokens or self.phrases)

    @classmethod
    def between(cls, before: tuple, after: tuple) -> "MovedFigures":
        """`before`, `after`: (token stats, phrase counts), as transforms/corpus.py counts them."""
        (stats_before, phrases_before), (stats_after, phrases_after) = before, after
        return cls({word for word, _ in stats_before.items() ^ stats_after.items()},
                   {phrase for phrase, _ in phrases_before.items() ^ phrases_after.items()})


NOTHING_MOVED = MovedFigures((), ())

BEFORE_GATE, GATE = "before the gate", "the gate"
# The shortest token any close_words call gives candidates (the three-letter candidates, the clip's, the gate's).
MIN_CANDIDATE_TOKEN = 3


class Reach:
    """Whether a moved figure may reach the decision about a token (the module's docstring).

    `phrases`: the phrase counts the rule reads now (which splits they attest); `suggestions`: token ->
    Hunspell's suggestions, as the gate asks them (None: no gate); `plural_readings`,
    `common_misspellings`: the word lists' token -> word(s).
    """

    def __init__(self, config, phrases: dict, plural_readings: dict, common_misspellings: dict, suggestions=None):
        self._max_distance = config.max_edit_distance
        self._clippings = config.keep_name_clippings
        self._split_before_words = tuple(config.split_before_words)
        self._phrases = phrases
        self._plural_readings = plural_readings
        self._common_misspellings = common_misspellings
        self._suggestions = suggestions

    def reaches(self, piece: str, previous: str, following: str, moved: MovedFigures):
        """BEFORE_GATE if a moved figure is one the chain reads before the gate, else GATE if it is
        one the gate reads, else None. `previous`, `following`: the words beside the token ("" at an end)."""
        if self.reaches_before_gate(piece, previous, following, moved):
            return BEFORE_GATE
        return GATE if self.reaches_the_gate(piece, previous, following, moved) else None

    def reaches_before_gate(self, piece: str, previous: str, following: str, moved: MovedFigures) -> bool:
        """Whether a moved figure is one the chain reads before the gate."""
        if not moved:
            return False
        tokens = moved.tokens
        if piece in tokens or piece + "g" in tokens or piece in moved.phrases_joined:
            return True
        if any(self._is_close(piece, word) for word in self._moved_near_in_length(piece, moved)):
            return True
        if self._clippings and any(word.startswith(piece) for word in tokens):
            return True
        beside = moved.after.get(previous, set()) | moved.before.get(following, set()) if previous or following else ()
        return any(word == piece or self._is_close(piece, word) for word in beside)

    def reaches_the_gate(self, piece: str, previous: str, following: str, moved: MovedFigures) -> bool:
        """Whether a moved figure is one the gate reads (when it is asked). Hunspell's suggestions are
        asked only if nothing else says so: new ones cost about a millisecond each."""
        if self._suggestions is None or not moved:
            return False
        if previous and previous in moved.tokens:
            return True
        if any(close_in_clip(piece, word) for word in self._moved_near_in_length(piece, moved)):
            return True
        after_previous = moved.after.get(previous, ()) if previous else ()
        before_following = moved.before.get(following, ()) if following else ()
        beside = (*after_previous, *before_following)
        if any(close_in_clip(piece, word) for word in beside):
            return True
        for words in (self._listed_words(piece), self._suggested_words(piece)):
            if not moved.tokens.isdisjoint(words) or any(word in words for word in beside):
                return True
        return False

    def _suggested_words(self, piece: str) -> set:
        return {word for suggestion in self._suggestions(piece) for word in suggestion.split()}

    def _listed_words(self, piece: str) -> set:
        """The words of the gate's candidates that are neither close corpus words nor suggestions: the
        word lists' entries, the splits the phrases attest and those before a function word."""
        candidates = [self._plural_readings.get(piece, ""), self._common_misspellings.get(piece, "")]
        candidates += [phrase for phrase in (f"{piece[:cut]} {piece[cut:]}" for cut in range(1, len(piece)))
                       if phrase in self._phrases]
        candidates += [f"{piece[:-len(word)]} {word}" for word in self._split_before_words if piece.endswith(word)]
        return {word for candidate in candidates for word in candidate.split()} | {piece + "g"}

    def _moved_near_in_length(self, piece: str, moved: MovedFigures):
        distance = max(self._max_distance, 2)  # close_in_clip allows two edits to a long token
        for length in range(len(piece) - distance, len(piece) + distance + 1):
            yield from moved.tokens_by_length.get(length, ())

    def _is_close(self, piece: str, word: str) -> bool:
        """A corpus word the rule may take for a candidate (CorpusCandidates.close_words: a token of three
        letters or more, the token's first letter, within the edit distance allowed for its length)."""
        max_distance = self._max_distance if len(piece) > 5 else 1
        return (len(piece) >= MIN_CANDIDATE_TOKEN and word[:1] == piece[:1]
                and OSA.distance(piece, word, score_cutoff=max_distance) <= max_distance)
