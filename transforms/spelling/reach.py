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
from typing import Callable

from rapidfuzz import process
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
        self.tokens_list = sorted(self.tokens)  # for rapidfuzz's scans

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
    Hunspell's suggestions, as the gate asks them (None: no gate; a hunspell.SuggestionCache says which it
    remembers); `plural_readings`,
    `common_misspellings`: the word lists' token -> word(s).

    A round asks about every token of every caption, with the same moved figures: what a token's spelling
    alone says is worked out once per token (and what its neighbours say once per token and neighbours),
    and the moved words close to it are found by one rapidfuzz scan. Hunspell's suggestions, which cost
    about a millisecond each when new, are asked only where the chain asks the gate, unless remembered.
    """

    def __init__(self, config, phrases: dict, plural_readings: dict, common_misspellings: dict, suggestions=None):
        self._max_distance = config.max_edit_distance
        self._clippings = config.keep_name_clippings
        self._split_before_words = tuple(config.split_before_words)
        self._phrases = phrases
        self._plural_readings = plural_readings
        self._common_misspellings = common_misspellings
        self._suggestions = suggestions
        # Whether a token's suggestions are free to ask (hunspell.SuggestionCache; any other function: always).
        self._known = getattr(suggestions, "known", lambda token: True)
        self._moved = None  # the moved figures the remembered answers are about
        self._by_token, self._by_neighbours = {}, {}

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
        return self._token(piece, moved).before_gate or self._neighbours(piece, previous, following, moved).before_gate

    def reaches_the_gate(self, piece: str, previous: str, following: str, moved: MovedFigures,
                         asks_the_gate: Callable[[], bool] = lambda: True) -> bool:
        """Whether a moved figure is one the gate reads, and the gate is asked (`asks_the_gate()`: whether the
        chain before the gate asks it, asked only if a figure the gate reads may have moved)."""
        if self._suggestions is None or not moved:
            return False
        token, neighbours = self._token(piece, moved), self._neighbours(piece, previous, following, moved)
        if token.gate or neighbours.gate:
            return asks_the_gate()
        # Asking the chain costs about a tenth of a millisecond, new suggestions about a millisecond: those
        # remembered already are read first, the others only if the chain asks the gate.
        if self._known(piece):
            return self._suggested_reach(piece, token, neighbours, moved) and asks_the_gate()
        return asks_the_gate() and self._suggested_reach(piece, token, neighbours, moved)

    @staticmethod
    def _suggested_reach(piece: str, token: "TokenReach", neighbours: "NeighbourReach", moved: MovedFigures) -> bool:
        """Whether a word of the token's suggestions moved, or is joined to a neighbour by a moved phrase."""
        suggested = token.suggested(piece)
        return not moved.tokens.isdisjoint(suggested) or not neighbours.beside.isdisjoint(suggested)

    def _token(self, piece: str, moved: MovedFigures) -> "TokenReach":
        self._remember(moved)
        found = self._by_token.get(piece)
        if found is None:
            found = self._by_token[piece] = self._token_reach(piece, moved)
        return found

    def _neighbours(self, piece: str, previous: str, following: str, moved: MovedFigures) -> "NeighbourReach":
        self._remember(moved)
        key = (piece, previous, following)
        found = self._by_neighbours.get(key)
        if found is None:
            found = self._by_neighbours[key] = self._neighbour_reach(piece, previous, following, moved)
        return found

    def _remember(self, moved: MovedFigures):
        if moved is not self._moved:
            self._moved, self._by_token, self._by_neighbours = moved, {}, {}

    def _token_reach(self, piece: str, moved: MovedFigures) -> "TokenReach":
        """What the token's spelling alone says: its own figures, its dropped g, its splits' phrases, the moved
        words close to it or a name it begins (before the gate); a moved word of its clip it may misspell, or
        one of its listed candidates (the gate)."""
        tokens = moved.tokens
        near = self._near(piece, moved.tokens_list)
        before_gate = (piece in tokens or piece + "g" in tokens or piece in moved.phrases_joined
                       or any(self._is_close(piece, word) for word in near)
                       or (self._clippings and any(word.startswith(piece) for word in tokens)))
        gate = (any(close_in_clip(piece, word) for word in near)
                or not tokens.isdisjoint(self._listed_words(piece)))
        return TokenReach(before_gate, gate, self._suggested_words)

    def _neighbour_reach(self, piece: str, previous: str, following: str, moved: MovedFigures) -> "NeighbourReach":
        """What its neighbours say: the moved phrases joining them to the token or to a word close to it
        (before the gate); the word before it, and the moved phrases joining them to a word of the clip the
        token may misspell or to a listed candidate (the gate)."""
        beside = set()
        if previous:
            beside |= moved.after.get(previous, set())
        if following:
            beside |= moved.before.get(following, set())
        near = self._near(piece, list(beside)) if beside else ()
        before_gate = piece in beside or any(self._is_close(piece, word) for word in near)
        gate = (bool(previous) and previous in moved.tokens) or any(close_in_clip(piece, word) for word in near) or (
            bool(beside) and not beside.isdisjoint(self._listed_words(piece)))
        return NeighbourReach(before_gate, gate, frozenset(beside))

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

    def _near(self, piece: str, words) -> list:
        """The words within the largest edit distance either close-word test allows (close_in_clip allows two
        edits to a long token): a superset of both, for them to test one by one."""
        cutoff = max(self._max_distance, 2)
        return [word for word, _, _ in process.extract(piece, words, scorer=OSA.distance, score_cutoff=cutoff,
                                                       limit=None)]

    def _is_close(self, piece: str, word: str) -> bool:
        """A corpus word the rule may take for a candidate (CorpusCandidates.close_words: a token of three
        letters or more, the token's first letter, within the edit distance allowed for its length)."""
        max_distance = self._max_distance if len(piece) > 5 else 1
        return (len(piece) >= MIN_CANDIDATE_TOKEN and word[:1] == piece[:1]
                and OSA.distance(piece, word, score_cutoff=max_distance) <= max_distance)


class TokenReach:
    """What a token's spelling alone says of the moved figures (Reach._token_reach); its Hunspell
    suggestions' words, asked once and only if needed."""

    def __init__(self, before_gate: bool, gate: bool, suggest: Callable[[str], set]):
        self.before_gate, self.gate = before_gate, gate
        self._suggest, self._suggested = suggest, None

    def suggested(self, piece: str) -> set:
        if self._suggested is None:
            self._suggested = self._suggest(piece)
        return self._suggested


class NeighbourReach:
    """What a token's neighbours say of the moved figures (Reach._neighbour_reach); `beside`: the words the
    moved phrases write after the word before it or before the word after it."""

    def __init__(self, before_gate: bool, gate: bool, beside: frozenset):
        self.before_gate, self.gate, self.beside = before_gate, gate, beside
