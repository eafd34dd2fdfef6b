"""Which corpus figures the ranked rule's decision about a token may read: what a recheck round must decide again.

A recheck round (transforms/recheck.py) counts the corpus figures again, and they move only
where the round before changed captions: a token replaced by another moves the counts of both
and of the phrases around them, a caption removed or cut those of its words. The decision
about a token Hunspell rejects (decisions.DECISION_CHAIN, with the gate) reads few figures, all
tied to the token by its spelling or by its neighbours:

- the count and videos of the token itself, of the token with a g added (dropped_g) and of the
  word before it (the gate's bigram fit);
- the counts of the words its candidates are made of: the corpus words close to it (its first
  letter, within the edit distance, trusted or rare; whether a word is a candidate at all depends
  on its count, so this covers a word that crossed min_candidate_count too), a prefix or a suffix
  of it (its splits), Hunspell's suggestions for it, its plural reading and its entry in the list
  of common misspellings, a word it plausibly misspells (the clip rule, close_in_clip), and a name
  it begins (name clippings);
- the counts of the phrases of its splits ("each other" for "eachother"), of the phrases after
  the word before it and of those before the word after it (the context's support, the gate's
  bigram fit).

`Reach.reaches` says whether a moved figure is among them. What it tests depends on no figure,
only on the token, its neighbours, Hunspell and the word lists, and it holds every figure the
decision reads whatever the figures are: a token it does not reach decides as it did when it
was last decided. The rules asked about every token, accepted or not (possessives, real-word
errors), read figures of any word; with them on, every caption is decided again.
"""
from rapidfuzz.distance import OSA

from transforms.spelling.typos import close_in_clip


class MovedFigures:
    """The corpus figures that differ between two countings: words whose (count, videos) differ,
    and phrases whose count differs (a phrase under the kept minimum counts as absent)."""

    def __init__(self, tokens, phrases):
        self.tokens = frozenset(tokens)
        self.phrases = frozenset(phrases)
        self.phrase_lefts = frozenset(phrase.partition(" ")[0] for phrase in self.phrases)
        self.phrase_rights = frozenset(phrase.rpartition(" ")[2] for phrase in self.phrases)
        self.phrases_joined = frozenset(phrase.replace(" ", "") for phrase in self.phrases)
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


class Reach:
    """Whether a moved figure may reach the decision about a token (the module's docstring).

    `suggestions`: token -> Hunspell's suggestions, as the gate asks them (None: no gate);
    `plural_readings`, `common_misspellings`: the word lists' token -> word(s).
    """

    def __init__(self, config, plural_readings: dict, common_misspellings: dict, suggestions=None):
        self._max_distance = config.max_edit_distance
        self._clippings = config.keep_name_clippings
        self._plural_readings = plural_readings
        self._common_misspellings = common_misspellings
        self._suggestions = suggestions

    def reaches(self, piece: str, previous: str, following: str, moved: MovedFigures) -> bool:
        """`previous`: the word before the token, `following`: the word after it ("" at an end)."""
        if not moved:
            return False
        tokens = moved.tokens
        if piece in tokens or piece + "g" in tokens or (previous and previous in tokens):
            return True
        if (piece in moved.phrases_joined or (previous and previous in moved.phrase_lefts)
                or (following and following in moved.phrase_rights)):
            return True
        if not tokens:
            return False
        if any(piece[:cut] in tokens or piece[cut:] in tokens for cut in range(1, len(piece))):
            return True  # a split's words, and a word run into a function word ("floorswith")
        if not tokens.isdisjoint(self._listed_words(piece)):
            return True
        return any(self._may_stand_for(piece, word) for word in self._moved_near_in_length(piece, moved))

    def _listed_words(self, piece: str) -> set:
        """The words of the candidates that do not come from the corpus: Hunspell's suggestions and
        the word lists' entries for the token."""
        candidates = list(self._suggestions(piece)) if self._suggestions is not None else []
        candidates += [self._plural_readings.get(piece, ""), self._common_misspellings.get(piece, "")]
        return {word for candidate in candidates for word in candidate.split()}

    def _moved_near_in_length(self, piece: str, moved: MovedFigures):
        distance = max(self._max_distance, 2)  # close_in_clip allows two edits to a long token
        for length in range(len(piece) - distance, len(piece) + distance + 1):
            yield from moved.tokens_by_length.get(length, ())
        if self._clippings:  # a name the token begins, of any length
            yield from (word for word in moved.tokens if len(word) > len(piece) + distance and word.startswith(piece))

    def _may_stand_for(self, piece: str, word: str) -> bool:
        """A corpus word close to the token (CorpusCandidates.close_words: its first letter, within the
        edit distance), a word of a clip it plausibly misspells, or a name it begins."""
        max_distance = self._max_distance if len(piece) > 5 else 1
        if word[:1] == piece[:1] and OSA.distance(piece, word, score_cutoff=max_distance) <= max_distance:
            return True
        return bool(close_in_clip(piece, word)) or (self._clippings and word.startswith(piece))
