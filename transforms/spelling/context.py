"""What the words around a token say: its neighbours in the caption, and the other captions of its clip."""
from collections import Counter
from functools import lru_cache
from typing import Optional

from transforms.spelling.typos import close_in_clip, is_slip, lacks_a_letter

# Words before a noun that make it a plural: "two mens are" means men.
COUNTING_WORDS = frozenset("""
two three four five six seven eight nine ten eleven twelve twenty hundred several many some few all both
these those various multiple
""".split())
# Words after a noun that its possessive could not take ("mens are", "to childrens" at the end):
# a possessive is followed by what it owns ("womens soccer", "childrens plastic toys").
AFTER_A_PLURAL = frozenset("""
are were have had do did can could will would and or who that in on at with
""".split())


def reads_plural(previous: str, following: str) -> bool:
    """Whether a run-together possessive ("mens") is a plural where it stands: after a counting
    word, or before a verb, a conjunction or a preposition, or at the caption's end."""
    return previous in COUNTING_WORDS or following == "" or following in AFTER_A_PLURAL


class ContextChoice:
    """The candidate the corpus writes clearly most often between a token's neighbours, if there is one.

    Answers are cached per token, neighbours and candidates: MSR-VTT repeats its typos in the same phrases.
    """

    def __init__(self, candidates, config):
        self._support = candidates.support  # a CorpusCandidates' phrase counts around a word
        self._config = config
        self._choose = lru_cache(maxsize=500_000)(self._clear_choice)

    def choose(self, piece: str, previous: str, following: str, candidates: tuple) -> Optional[tuple]:
        """(word, score) of the chosen candidate among `candidates` ((word, distance, weight)), or None."""
        return self._choose(piece, previous, following, candidates)

    def _clear_choice(self, piece: str, previous: str, following: str, candidates: tuple) -> Optional[tuple]:
        # Only the closest candidates compete, and only close ones: the context must not pull
        # a token towards a frequent word further away ("lebron" -> "learn").
        closest = min(distance for _, distance, _ in candidates)
        if closest > self._config.context_max_distance:
            return None
        ranked = sorted(((self._support(word, previous, following), weight, word)
                         for word, distance, weight in candidates if distance == closest), reverse=True)
        best_support, _, best_word = ranked[0]
        against = max(ranked[1][0] if len(ranked) > 1 else 0, self._support(piece, previous, following))
        if self._config.context_common_typos and len(piece) > 3 and not (
                is_slip(piece, best_word) or lacks_a_letter(piece, best_word)):
            # A frequent neighbour pulls a token towards it whatever the typo ("ame" -> "are", "brnd"
            # -> "band"): only the commonest typos are left to the context. (A three-letter token's
            # candidates are already only the very commonest words.)
            return None
        if best_support >= self._config.context_min_count and best_support >= self._config.context_margin * against:
            return best_word, round(best_support / (best_support + against), 4)
        return None


class OtherCaptions:
    """The words the other captions of a clip write: `word in OtherCaptions(...)`.

    Annotators of one clip describe the same things, so a candidate another of them
    writes is likely what this one meant.
    """

    def __init__(self, captions_writing: Counter, caption: str):
        self._captions_writing = captions_writing  # word -> how many of the clip's captions write it
        self._own_words = frozenset(caption.split())  # the words of the caption being corrected

    def __contains__(self, word) -> bool:
        return self._captions_writing.get(word, 0) > (word in self._own_words)

    def words(self):
        """Every word another caption of the clip writes."""
        return (word for word in self._captions_writing if word in self)


def captions_writing(texts) -> Counter:
    """word -> how many of these captions write it."""
    return Counter(word for text in texts for word in set(text.split()))


NO_OTHER_CAPTIONS = OtherCaptions(Counter(), "")  # a caption decided alone (the vocab table, a bare call)


def clip_choice(piece: str, clip: OtherCaptions, candidates, dictionary, mapped: frozenset) -> Optional[tuple]:
    """(word, score) of the one word of the clip's other captions that `piece` plausibly misspells, if
    there is exactly one and no corpus word (`candidates`, a CorpusCandidates) is closer.

    The corpus as a whole had no clear candidate, but the clip's annotators saw the same
    video: "aminated" in a clip whose other captions write "animated". When another
    caption writes the token itself, annotators agree on it: it is a name or a word.
    """
    if piece in clip or not piece.isalpha():
        return None
    close = sorted((distance, word) for word in clip.words()
                   if word.isalpha() and word not in mapped and dictionary.accepts_in_any_case(word)
                   for distance in [close_in_clip(piece, word)] if distance)
    if not close or (len(close) > 1 and close[1][0] == close[0][0]):
        return None
    distance, word = close[0]
    if any(nearer < distance for _, nearer, _ in candidates.close_words(piece, min_length=3)):
        return None  # a corpus word is closer ("wating": "waiting", not the clip's "watching")
    return word, round(1 - distance / max(len(piece), len(word)), 4)
