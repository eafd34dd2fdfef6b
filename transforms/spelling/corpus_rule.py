"""The ranked rule's first decision, on Hunspell and the corpus alone (the first link of decisions.py's chain).

Accept what the dictionary knows in any case, keep domain words, correct only to a
clearly best candidate the corpus attests, and flag the rest; a token whose
candidates the corpus cannot tell apart keeps them for the context to choose.
"""
from functools import lru_cache
from typing import Optional

from transforms.spelling.decisions import KEEP, Decision, flagged
from transforms.spelling.typos import is_slip, takes_plain_s


class CorpusRule:
    """Decisions that depend on the token alone (and whether a name precedes it), cached per distinct
    token: MSR-VTT repeats its rare tokens many times.

    `dictionary`: a hunspell.Dictionary; `candidates`: a CorpusCandidates; `mapped`: the words a mapping
    rewrites, which no correction may write.
    """

    def __init__(self, dictionary, candidates, mapped: frozenset, config):
        self._dictionary = dictionary
        self._candidates = candidates
        self._mapped = mapped
        self._config = config
        self._decide = lru_cache(maxsize=500_000)(self._decision)

    def decide(self, piece: str, after_name: bool) -> Decision:
        return self._decide(piece, after_name)

    def _decision(self, piece: str, after_name: bool) -> Decision:
        accepts = self._dictionary.accepts
        if accepts(piece):
            return KEEP
        if self._config.case_variants and self._dictionary.accepts_in_some_case(piece):
            return self._case_or_slip(piece)
        if not (piece.isalpha() and piece.isascii()):
            return Decision(None, "not_a_word")
        count, videos = self._candidates.stats.get(piece, (0, 0))
        if self._config.dropped_g and self._drops_a_g(piece):
            return Decision(piece + "g", "dropped_g", 1.0)
        split = self._attested_split(piece, count) or self._split_before_function_word(piece)
        if split is not None:
            return split
        if after_name:
            return self._keep_or_flag(videos, "follows a name: probably a surname")
        if piece.endswith("s") and self._dictionary.accepts_in_any_case(piece[:-1]) and (
                not self._config.regular_plurals or takes_plain_s(piece[:-1])):
            return Decision(None, "plural")  # "volcanos", "lamborghinis": a known word, pluralised
        candidates = self._candidates.close_words(piece, min_length=4)
        if self._config.inflections and self._inflected(piece) and not any(is_slip(piece, w) for w, _, _ in candidates):
            return Decision(None, "inflected")  # "puppeted": a known word, regularly inflected
        if not candidates:
            # Too short for the corpus alone to choose ("aer", "amd"): only the context may.
            short = self._candidates.three_letter_candidates(piece) if len(piece) == 3 else ()
            return self._keep_or_flag(videos, "no close word in the corpus", candidates=short)
        return self._rank(piece, count, videos, candidates)

    def _drops_a_g(self, piece: str) -> bool:
        """'lookin' for 'looking': the -ing word is known and the corpus writes it."""
        word = piece + "g"
        return (piece.endswith("in") and word not in self._mapped and self._dictionary.accepts(word)
                and self._candidates.count(word) >= self._config.min_candidate_count)

    def _case_or_slip(self, piece: str) -> Decision:
        """A lowercase token the dictionary knows capitalised or in capitals is right, except a rare
        three-letter one known only as an acronym ("amd" in "gloves amd four bottles"): its context may correct it."""
        if (len(piece) == 3 and self._candidates.count(piece) <= self._config.acronym_slip_max_count
                and not self._dictionary.accepts(piece.capitalize())):
            return Decision(None, "case", candidates=self._candidates.three_letter_candidates(piece))
        return Decision(None, "case")

    def _attested_split(self, piece: str, count: int) -> Optional[Decision]:
        """Written apart by other annotators ("each other", "children s"): no letter changes."""
        splits = self._candidates.attested_splits(piece)
        if not splits:
            return None
        phrase, phrase_count = max(splits, key=lambda split: (split[1], split[0]))
        # "children s" is the dataset's own possessive; a compound ("waterslide") needs more evidence.
        ratio = 1.0 if phrase.endswith(" s") else self._config.split_ratio
        if phrase_count >= ratio * max(count, 1):
            return Decision(phrase, "split", round(phrase_count / (phrase_count + count), 4))
        return None

    def _split_before_function_word(self, piece: str) -> Optional[Decision]:
        """'handlesand', 'floorswith': a known word of four letters or more run into one of
        `split_before_words`, which no English word ends in; the space was forgotten."""
        for word in self._config.split_before_words:
            first = piece[: -len(word)]
            if (piece.endswith(word) and len(first) >= 4 and self._dictionary.accepts(first)
                    and first not in self._mapped):
                return Decision(f"{first} {word}", "split", 1.0)
        return None

    def _rank(self, piece: str, count: int, videos: int, candidates: list) -> Decision:
        """Candidates ranked by edit distance, then weight (CorpusCandidates.weight); the best must be
        clearly more common than the token and than the next best at its distance."""
        candidates.sort(key=lambda c: (c[1], -c[2], c[0]))
        best_word, best_distance, best_weight = candidates[0]
        undecided = dict(candidate=best_word, candidates=tuple(candidates))
        if best_distance >= 2 and self._two_known_words(piece):
            return self._keep_or_flag(videos, "two known words run together", **undecided)
        ratio = self._config.count_ratio if best_distance == 1 else self._config.far_count_ratio
        if best_weight < ratio * max(count, 1):
            return self._keep_or_flag(videos, "the best candidate is not much more common than the token", **undecided)
        rival = next((c for c in candidates[1:] if c[1] == best_distance), None)
        if rival is not None and best_weight < self._config.margin * rival[2]:
            return self._keep_or_flag(videos, f"no clear best candidate ({best_word}, {rival[0]})", **undecided)
        score = best_weight / (best_weight + (rival[2] if rival else 0) + count)
        context_decides = tuple(candidates) if len(piece) <= self._config.context_short_length else ()
        return Decision(best_word, "ranked", round(score, 4), candidates=context_decides)

    def _inflected(self, piece: str) -> bool:
        """'puppeted', 'shooted': a known word with a regular ending the dictionary does not list."""
        return any(piece.endswith(ending) and len(piece) - len(ending) >= 5
                   and self._dictionary.accepts(piece[:-len(ending)]) for ending in ("ed", "ing", "er", "ers", "ly"))

    def _two_known_words(self, piece: str) -> bool:
        """'carebear': two words of four letters or more that Hunspell accepts, run together."""
        accepts = self._dictionary.accepts
        return any(accepts(piece[:cut]) and accepts(piece[cut:]) for cut in range(4, len(piece) - 3))

    def _keep_or_flag(self, videos, reason, candidate=None, candidates=()) -> Decision:
        if videos >= self._config.domain_min_videos:
            return Decision(None, "domain")  # written in many videos and not a near-miss of a common word
        return flagged(reason, candidate, candidates, "corpus")
