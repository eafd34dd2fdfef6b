"""Step II: spelling, with Hunspell and the profile's word lists.

Per token, in the published order: the British-to-American mapping, the
run-together-word mapping, then Hunspell (with the custom vocabulary added) on
every piece; a rejected piece takes a suggestion chosen by the profile's rule.
The caption is lowercased afterwards, because suggestions can be capitalised.
"""
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

import apache_beam as beam
from rapidfuzz.distance import OSA
from rapidfuzz.process import extract

from dictionaries import resolve
from transforms.batch import rewrite_captions
from transforms.corpus import CorpusStatistics
from transforms.errors import CapcleanError

STEP = "spelling"


class DictionaryFileError(CapcleanError):
    """A word list or Hunspell dictionary that cannot be read."""


def read_word_list(path: str) -> tuple:
    """One word a line; blank lines and surrounding white space (including CR) are ignored."""
    return tuple(line.strip() for line in _read_lines(path) if line.strip())


def read_mapping(path: str) -> dict:
    """`from -> to`, one pair a line, stripped as the published run did."""
    mapping = {}
    for number, line in enumerate(_read_lines(path), start=1):
        if not line.strip():
            continue
        parts = line.strip().split(" -> ")
        if len(parts) != 2:
            raise DictionaryFileError(f"{path}, line {number}: expected 'from -> to', got {line.strip()!r}")
        mapping[parts[0]] = parts[1]
    return mapping


def _read_lines(path: str) -> list:
    try:
        return resolve(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise DictionaryFileError(f"cannot read word list {resolve(path)}: {error}") from None


def is_plain(suggestion: str) -> bool:
    """Letters a-z, digits and spaces only: no punctuation or accents a caption did not have."""
    return all(char == " " or (char.isascii() and char.isalnum()) for char in suggestion)


def choose_suggestion(suggestions: list, rule: str) -> Optional[str]:
    if rule == "first":
        return suggestions[0] if suggestions else None
    return next((s for s in suggestions if is_plain(s)), None)


@dataclass(frozen=True)
class Decision:
    """What the step does with a token Hunspell rejects: replace it, keep it, or keep it and flag it."""
    replacement: Optional[str] = None  # None: the token stays
    rule: str = "accepted"  # the rule that decided; "accepted": Hunspell knows the token
    score: Optional[float] = None  # confidence of a ranked decision
    flag: Optional[str] = None  # why a token that stays is flagged for review
    candidate: Optional[str] = None  # the best candidate of a flagged token


KEEP = Decision()


def correct_caption(text: str, british: dict, splits: dict, decide: Callable) -> tuple:
    """The corrected caption, its correction rows and its flagged rows (all without sen_id).

    `decide(piece, previous)` returns the Decision for one piece, given the word
    before it. Lookups are one token at a time, as published, so mapping keys
    holding a space never apply.
    Positions are token indexes in the caption this step received.
    """
    words, corrections, flagged = [], [], []
    for position, token in enumerate(text.split()):
        pieces = _map_pieces([token], british, "british", position, corrections)
        pieces = _map_pieces(pieces, splits, "split", position, corrections)
        for piece in pieces:
            decision = decide(piece, words[-1] if words else "")
            if decision.replacement is not None and decision.replacement != piece:
                corrections.append(_correction(position, piece, decision.replacement, decision.rule, decision.score))
                piece = decision.replacement
            elif decision.flag:
                flagged.append({"position": position, "token": piece, "reason": decision.flag,
                                "candidate": decision.candidate})
            words.append(piece)
    return " ".join(words).lower(), corrections, flagged


def _map_pieces(pieces, mapping, rule, position, corrections):
    mapped = []
    for piece in pieces:
        if piece in mapping:
            corrections.append(_correction(position, piece, mapping[piece], rule))
            mapped.extend(mapping[piece].split())
        else:
            mapped.append(piece)
    return mapped


def _correction(position, original, replacement, rule, score=None):
    return {"position": position, "original": original, "replacement": replacement, "rule": rule, "score": score}


def open_hunspell(dictionary_base: str, custom_words: tuple = (), vocabulary_files: tuple = ()):
    """Hunspell with the custom words added one by one and the vocabulary .dic files added whole.

    Built on the worker: the Hunspell object cannot be pickled.
    """
    import hunspell

    dic, aff = Path(dictionary_base + ".dic"), Path(dictionary_base + ".aff")
    for path in (dic, aff):
        if not path.is_file():
            raise DictionaryFileError(
                f"Hunspell dictionary file {path} not found (Debian: apt-get install hunspell-en-us)")
    checker = hunspell.HunSpell(str(dic), str(aff))
    for word in custom_words:
        checker.add(word)
    for path in vocabulary_files:
        if not resolve(path).is_file():
            raise DictionaryFileError(f"vocabulary file {resolve(path)} not found")
        checker.add_dic(str(resolve(path)))  # Hunspell's own .dic format, affix flags and all
    return checker


class FirstSuggestion:
    """The published rule: a rejected token takes Hunspell's first suggestion (or the first plain one).

    Decisions are cached per distinct token: a suggestion costs milliseconds,
    and MSR-VTT repeats its rare tokens many times.
    """

    def __init__(self, checker, suggestion_rule: str):
        self._hunspell = checker
        self._rule = suggestion_rule
        self._decide_cached = lru_cache(maxsize=500_000)(self._decide)

    def decide(self, piece: str, previous: str = "") -> Decision:
        return self._decide_cached(piece)  # the published rule ignores context

    def _decide(self, piece: str) -> Decision:
        try:
            if self._hunspell.spell(piece):
                return KEEP
            suggestion = choose_suggestion(self._hunspell.suggest(piece), self._rule)
        except UnicodeError:
            return KEEP  # a token Hunspell cannot encode is left as it is
        return Decision(suggestion.lower(), "suggestion") if suggestion is not None else Decision(None, "no_suggestion")


class RankedCorrection:
    """capclean's rule: accept what the dictionary knows in any case, keep domain words,
    correct only to a clearly best candidate the corpus attests, and flag the rest.

    Candidates are the words of the corpus that Hunspell accepts, within a small
    edit distance (optimal string alignment: a transposition costs one), and
    the two-word split the corpus writes apart. They are ranked by distance,
    then by how often the corpus writes them.
    """

    def __init__(self, checker, config, token_stats: dict, phrases: dict):
        self._hunspell = checker
        self._config = config
        self._stats = token_stats
        self._phrases = phrases
        self._known_by_length = self._known_words()
        self._decide_cached = lru_cache(maxsize=500_000)(self._decide)

    def decide(self, piece: str, previous: str = "") -> Decision:
        # After a name ("russell crowe", "jim carrey") an unknown word is most likely a surname.
        return self._decide_cached(piece, self._is_name(previous))

    def _known_words(self) -> dict:
        """Corpus words Hunspell accepts and annotators write often enough to be trusted, by length."""
        by_length = {}
        for word, (count, _) in self._stats.items():
            if count >= self._config.min_candidate_count and word.isalpha() and self._accepts(word):
                by_length.setdefault(len(word), []).append(word)
        return {length: sorted(words) for length, words in by_length.items()}

    def _accepts(self, word: str) -> bool:
        try:
            return self._hunspell.spell(word)
        except UnicodeError:
            return False

    def _accepts_in_some_case(self, word: str) -> bool:
        return self._accepts(word.capitalize()) or self._accepts(word.upper())

    @lru_cache(maxsize=100_000)
    def _is_name(self, word: str) -> bool:
        """A word Hunspell knows only capitalised: a proper name."""
        return bool(word) and word.isalpha() and not self._accepts(word) and self._accepts(word.capitalize())

    def _decide(self, piece: str, after_name: bool) -> Decision:
        if self._accepts(piece):
            return KEEP
        if self._config.case_variants and self._accepts_in_some_case(piece):
            return Decision(None, "case")
        if not (piece.isalpha() and piece.isascii()):
            return Decision(None, "not_a_word")
        count, videos = self._stats.get(piece, (0, 0))
        # Written apart by other annotators ("each other", "children s"): no letter changes.
        splits = self._attested_splits(piece)
        if splits:
            phrase, _, phrase_count = max(splits, key=lambda c: (c[2], c[0]))
            # "children s" is the dataset's own possessive; a compound ("waterslide") needs more evidence.
            ratio = 1.0 if phrase.endswith(" s") else self._config.split_ratio
            if phrase_count >= ratio * max(count, 1):
                return Decision(phrase, "split", round(phrase_count / (phrase_count + count), 4))
        if after_name:
            return self._keep_or_flag(videos, "follows a name: probably a surname", None)
        if piece.endswith("s") and self._accepts_in_any_case(piece[:-1]):
            return Decision(None, "plural")  # "volcanos", "lamborghinis": a known word, pluralised
        candidates = self._close_words(piece)
        if not candidates:
            return self._hunspell_candidate(piece, videos) or self._keep_or_flag(
                videos, "no close word in the corpus", None)
        candidates.sort(key=lambda c: (c[1], -c[2], c[0]))
        best_word, best_distance, best_count = candidates[0]
        ratio = self._config.count_ratio if best_distance == 1 else self._config.far_count_ratio
        if best_count < ratio * max(count, 1):
            return self._keep_or_flag(videos, "the best candidate is not much more common than the token", best_word)
        rival = next((c for c in candidates[1:] if c[1] == best_distance), None)
        if rival is not None and best_count < self._config.margin * rival[2]:
            return self._keep_or_flag(videos, f"no clear best candidate ({best_word}, {rival[0]})", best_word)
        score = best_count / (best_count + (rival[2] if rival else 0) + count)
        return Decision(best_word, "ranked", round(score, 4))

    def _accepts_in_any_case(self, word: str) -> bool:
        return self._accepts(word) or self._accepts_in_some_case(word)

    def _hunspell_candidate(self, piece: str, videos: int) -> Optional[Decision]:
        """Hunspell's first suggestion of a typo's shape, for a token the corpus offers nothing close to.

        Only here: a suggestion costs about 25 ms, and it cannot be ranked by the corpus.
        """
        if not self._config.hunspell_candidates or videos >= self._config.domain_min_videos or len(piece) < 5:
            return None
        max_distance = self._config.max_edit_distance if len(piece) > 6 else 1
        for suggestion in self._hunspell.suggest(piece)[:3]:
            word = suggestion.lower()
            if word.isalpha() and word.isascii() and OSA.distance(piece, word) <= max_distance \
                    and self._plausible_typo(piece, word, int(OSA.distance(piece, word))):
                return Decision(word, "hunspell", 0.5)
        return None

    def _keep_or_flag(self, videos, reason, candidate) -> Decision:
        if videos >= self._config.domain_min_videos:
            return Decision(None, "domain")  # written in many videos and not a near-miss of a common word
        return Decision(None, "flagged", flag=reason, candidate=candidate)

    def _close_words(self, piece: str) -> list:
        if len(piece) < 4:
            return []  # too short to tell a typo from an abbreviation or a name
        max_distance = self._config.max_edit_distance if len(piece) > 5 else 1
        found = []
        for length in range(len(piece) - max_distance, len(piece) + max_distance + 1):
            words = self._known_by_length.get(length)
            if not words:
                continue
            for word, distance, _ in extract(piece, words, scorer=OSA.distance, score_cutoff=max_distance,
                                             limit=None):
                if self._plausible_typo(piece, word, int(distance)):
                    found.append((word, int(distance), self._stats[word][0]))
        return found

    @staticmethod
    def _plausible_typo(piece: str, word: str, distance: int) -> bool:
        """Shapes of a misspelling that the dev set shows are usually another word, not a typo."""
        # Annotators rarely miss a word's first letter (two letters, two edits away).
        if piece[: distance] != word[: distance]:
            return False
        # "rusha", "showere": a word with a letter added at its end is more often a name or a run-on.
        if piece.startswith(word) and piece[len(word):] != word[-1] * (len(piece) - len(word)):
            return False
        return True

    def _attested_splits(self, piece: str) -> list:
        """'eachother' -> ('each other', 0, n) when both words are known (or the second is the
        dataset's possessive "s") and the corpus writes them apart n times."""
        splits = []
        for cut in range(1, len(piece)):
            phrase = f"{piece[:cut]} {piece[cut:]}"
            count = self._phrases.get(phrase, 0)
            if count >= self._config.min_phrase_count and all(
                    self._accepts_in_any_case(word) or word == "s" for word in phrase.split()):
                splits.append((phrase, 0, count))
        return splits


@dataclass(frozen=True)
class WordLists:
    """The profile's word lists: small, so read once where the pipeline is built and shipped with it."""
    custom_words: tuple
    british: dict
    splits: dict

    @classmethod
    def read(cls, config) -> "WordLists":
        return cls(read_word_list(config.custom_words) if config.custom_words else (),
                   read_mapping(config.british_to_american), read_mapping(config.splits))


class Speller:
    """Step II ready to run: Hunspell with the vocabulary, the mappings and the profile's rule.

    `token_stats` and `phrases` are the corpus statistics the ranked rule reads.
    """

    def __init__(self, config, word_lists: WordLists, token_stats=None, phrases=None):
        checker = open_hunspell(config.hunspell_dictionary, word_lists.custom_words, config.vocabulary)
        self._word_lists = word_lists
        if config.suggestion == "ranked":
            self.rule = RankedCorrection(checker, config, token_stats, phrases)
        else:
            self.rule = FirstSuggestion(checker, config.suggestion)

    def correct(self, text: str) -> tuple:
        """(corrected caption, correction rows, flagged rows), rows without sen_id."""
        return correct_caption(text, self._word_lists.british, self._word_lists.splits, self.rule.decide)


class CorrectSpellingFn(beam.DoFn):
    def __init__(self, config):
        self._config = config
        # Read here, so that a missing list stops the run before any worker starts.
        self._word_lists = WordLists.read(config)

    def setup(self):
        self._speller = None  # built on the first video: the ranked rule needs the side inputs

    def process(self, batch, token_stats=None, phrases=None):
        if self._speller is None:
            self._speller = Speller(self._config, self._word_lists, token_stats, phrases)
        corrections, flagged = [], []

        def correct(caption):
            new_text, rows, flags = self._speller.correct(caption.text)
            corrections.extend({"sen_id": caption.sen_id, **row} for row in rows)
            flagged.extend({"sen_id": caption.sen_id, **row} for row in flags)
            return new_text, ",".join(sorted({row["rule"] for row in rows})) or "lowercase"

        corrected = rewrite_captions(batch, STEP, correct, pass_caption=True)
        yield replace(corrected, corrections=batch.corrections + corrections, flagged=batch.flagged + flagged)


class CorrectSpelling(beam.PTransform):
    """Step II over a PCollection of VideoBatch; the ranked rule also reads the corpus statistics."""

    def __init__(self, config):
        super().__init__()
        self._config = config

    def expand(self, batches):
        if self._config.suggestion != "ranked":
            return batches | "CorrectSpelling" >> beam.ParDo(CorrectSpellingFn(self._config))
        token_stats, phrases = batches | "CorpusStatistics" >> CorpusStatistics()
        return batches | "CorrectSpelling" >> beam.ParDo(
            CorrectSpellingFn(self._config), token_stats=beam.pvalue.AsSingleton(token_stats),
            phrases=beam.pvalue.AsSingleton(phrases))
