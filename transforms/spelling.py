"""Step II: spelling, with Hunspell and the profile's word lists.

Per token, in the published order: the British-to-American mapping, the
run-together-word mapping, then Hunspell (with the custom vocabulary added) on
every piece; a rejected piece takes a suggestion chosen by the profile's rule. In the
default profile a learned gate checks that rule's corrections and flagged tokens
(transforms/spelling_gate.py).
The caption is lowercased afterwards, because suggestions can be capitalised.
"""
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from importlib.resources import files
from pathlib import Path
from typing import Callable, Optional

from rapidfuzz.distance import OSA
from rapidfuzz.process import extract

from dictionaries import resolve
from transforms.batch import rewrite_captions
from transforms.corpus import corpus_aggregates
from transforms.errors import CapcleanError, ConfigError
from transforms.lineage import CorrectionRow, FlaggedRow
from transforms.step import Step
from transforms.spelling_gate import (CHECKED_RULES, CorrectionGate, Evidence, candidate_features, candidate_sources,
                                      likeliest, resolve_gate)

STEP = "spelling"


@dataclass(frozen=True)
class SpellingSettings:
    # Base path of the Hunspell dictionary: `<base>.dic` and `<base>.aff`.
    hunspell_dictionary: str = "/usr/share/hunspell/en_US"
    # Word lists, relative to `dictionaries/` unless absolute.
    custom_words: str = "paper/custom_words.txt"
    british_to_american: str = "paper/british_to_american.txt"
    splits: str = "paper/splits.txt"
    # Curated `typo -> word` corrections of frequent misspellings the ranked rule cannot settle alone ("" = none).
    misspellings: str = ""
    # A general list of common English misspellings, codespell's format (`typo->word`): a token
    # the ranked rule leaves flagged, or keeps only as a plural, an inflection or a word of many
    # videos, takes the list's correction when the list gives only one
    # ("" = none; "codespell" = the list of the codespell package; or a file path).
    common_misspellings: str = ""
    # Extra vocabularies in Hunspell's .dic format (relative to `dictionaries/`),
    # added whole so that Hunspell itself accepts their words and affixed forms.
    vocabulary: tuple = ()
    # `first`: Hunspell's first suggestion, as published.
    # `first_plain`: the first suggestion made only of letters, digits and spaces
    # (no apostrophes or hyphens that the caption did not have).
    # `ranked`: capclean's rule (transforms/spelling.py, RankedCorrection), with the options below.
    suggestion: str = "first"
    case_variants: bool = True  # a lowercase token Hunspell knows capitalised or in capitals is right
    max_edit_distance: int = 2  # candidates within this distance (1 for tokens of 4 letters or fewer)
    min_candidate_count: int = 5  # a candidate word must be written this often in the corpus
    name_candidates: bool = True  # names Hunspell knows capitalised are candidates too ("portugese" -> "portuguese")
    min_name_count: int = 20  # ...when the corpus writes them this often
    slip_weight: float = 5.0  # a candidate one slip away (letters swapped, a doubled letter, a vowel for another) counts this many times
    count_ratio: float = 5.0  # ...and this many times more often than the token (at distance 1)
    far_count_ratio: float = 20.0  # ...or this many times, for a candidate at distance 2
    split_ratio: float = 5.0  # a two-word split must be written apart this many times more often than together
    margin: float = 5.0  # ...and this many times more often than the next candidate at its distance
    min_phrase_count: int = 3  # a split must be written apart this often in the corpus (and count_ratio / 4 times the token)
    domain_min_videos: int = 10  # a token with no clear correction written in this many videos is kept unflagged
    context: bool = True  # when the corpus alone cannot choose, the two neighbouring words may
    context_min_count: int = 3  # the corpus writes the candidate between them at least this often
    context_margin: float = 5.0  # ...and this many times more often than the next candidate or the token
    context_short_length: int = 4  # a token this short is corrected only where its context chooses the candidate
    inflections: bool = True  # a known word of five letters or more with -ed, -ing, -er, -ers or -ly added is kept
    regular_plurals: bool = False  # ...and a known word with an s added, only where a bare s makes its plural
    split_before_words: tuple = ()  # a known word of 4+ letters run into one of these words is split ("floorswith")
    # `mens -> men` pairs (relative to `dictionaries/`; "" = none): a run-together possessive that
    # annotators also write for a plural becomes the plural where its neighbours read plural
    # ("two mens are"), and is split into the possessive elsewhere ("womens soccer" -> "women s").
    plural_readings: str = ""
    context_max_distance: int = 1  # the context chooses only among candidates this close
    # ...and, for tokens of four letters or more, only a candidate one slip or one left-out letter away
    context_common_typos: bool = False
    # A ranked or context change of an uncommon typo shape (a consonant replaced, or two
    # edits neither of which is a slip) is made only when another caption of the same
    # clip writes the word; otherwise the token stays, flagged.
    clip_evidence: bool = False
    # A token the rules above leave flagged is corrected to a word another caption of the
    # same clip writes, when exactly one such word is a plausible misspelling of it
    # (close_in_clip in transforms/spelling.py), and no other caption writes the token.
    clip_candidates: bool = False
    # "lookin", "showin": a dropped g is the -ing word the corpus writes (at least
    # min_candidate_count times), not a split ("look in") nor a typo.
    dropped_g: bool = False
    acronym_slip_max_count: int = 3  # a three-letter token known only in capitals ("amd"), this rare, may be a slip
    three_letter_candidate_min_count: int = 1000  # a three-letter token's candidates must be this common ("and")
    # After steps III and IV, recount the corpus statistics on the cleaned captions and run
    # step II again (steps III and IV again on the videos it changes), this many times
    # (transforms/recheck.py). The ranked rule decides on counts the cleaning changes; a
    # round that changes nothing shows the output is what cleaning it again gives back.
    recheck_rounds: int = 0
    # The learned gate over the ranked rule's corrections and flagged tokens (transforms/spelling_gate.py):
    # "" = none; `builtin` = the classifier versioned in transforms/spelling_gate/; or its folder.
    gate: str = ""
    gate_threshold: float = 0.7  # the likeliest candidate replaces the token at this probability or more

    def __post_init__(self):
        if self.suggestion not in ("first", "first_plain", "ranked"):
            raise ConfigError(f"spelling.suggestion must be 'first', 'first_plain' or 'ranked', not {self.suggestion!r}")
        if self.recheck_rounds < 0:
            raise ConfigError("spelling.recheck_rounds must be >= 0")
        if self.recheck_rounds and self.suggestion != "ranked":
            raise ConfigError("spelling.recheck_rounds needs spelling.suggestion: ranked "
                              "(the other rules do not read corpus counts, so a recheck would change nothing)")
        if self.gate and self.suggestion != "ranked":
            raise ConfigError("spelling.gate needs spelling.suggestion: ranked (it checks the ranked rule's decisions)")
        if not 0.0 <= self.gate_threshold <= 1.0:
            raise ConfigError("spelling.gate_threshold must be in [0, 1]")



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


# codespell's list of common English misspellings (from Wikipedia's lists; the list is CC BY-SA 3.0).
CODESPELL_LIST = "codespell"


def read_common_misspellings(source: str) -> dict:
    """`typo -> word` from a list of common misspellings in codespell's format (`typo->word`, or
    `typo->word1, word2,` when the typo could be several words): only the typos with one lowercase
    correction, the word written as captions write it (an apostrophe as a space: "didn t").

    `source`: "codespell" for the list the codespell package installs, or a file path.
    """
    if source == CODESPELL_LIST:
        try:
            source = str(files("codespell_lib") / "data" / "dictionary.txt")
        except ModuleNotFoundError:
            raise DictionaryFileError("common_misspellings: codespell is not installed (pip install codespell)") from None
    corrections = {}
    for line in _read_lines(source):
        typo, arrow, word = line.strip().partition("->")
        # A comma: several candidate words, or a reason codespell gives for not correcting the typo.
        if arrow and "," not in word and word.islower() and typo.isalpha():
            corrections[typo.lower()] = word.replace("'", " ").strip()
    return corrections


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
    # Candidates (word, distance, weight) of a token the context-free rule could not decide; the context may.
    candidates: tuple = ()


KEEP = Decision()


def correct_caption(text: str, mappings: tuple, decide: Callable, is_plain: Callable = lambda token: False) -> tuple:
    """The corrected caption, its correction rows and its flagged rows (all without sen_id).

    `mappings` are (rule, {from: to}) pairs applied in turn to each token's
    pieces; then `decide(piece, previous, following)` returns the Decision for
    every piece, given the word before it (as corrected) and the word after it
    (as written). Lookups are one token at a time, as published, so mapping
    keys holding a space never apply. Positions are token indexes in the
    caption this step received. A token `is_plain` says no mapping or rule
    would change is kept without asking them.
    """
    tokens = text.split()
    words, corrections, flagged = [], [], []
    for position, token in enumerate(tokens):
        if is_plain(token):
            words.append(token)
            continue
        pieces = [token]
        for rule, mapping in mappings:
            pieces = _map_pieces(pieces, mapping, rule, position, corrections)
        after_token = tokens[position + 1] if position + 1 < len(tokens) else ""
        for index, piece in enumerate(pieces):
            following = pieces[index + 1] if index + 1 < len(pieces) else after_token
            decision = decide(piece, words[-1] if words else "", following)
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


def open_suggester(dictionary_base: str, vocabulary_files: tuple = ()):
    """Hunspell for the gate's suggestions: the same dictionary without n-gram or compound suggestions.

    With them a suggestion costs about 23 ms; without n-grams 2 ms, and without compound
    words too 0.4 ms. On MSR-VTT's 8,957 rejected tokens the last two give the same
    suggestions but for two numbers ("183th"), and n-grams add little the corpus's own
    words do not give. Hunspell reads these settings only from the .aff file, so a copy
    with `MAXNGRAMSUGS 0` and `MAXCPDSUGS 0` added is written to a temporary folder
    (Hunspell reads it when it opens, so the folder goes at once).
    """
    import tempfile

    aff, dic = Path(dictionary_base + ".aff"), Path(dictionary_base + ".dic")
    if not (aff.is_file() and dic.is_file()):
        return open_hunspell(dictionary_base)  # which names the missing file
    with tempfile.TemporaryDirectory(prefix="capclean-hunspell-") as folder:
        base = Path(folder) / dic.stem
        Path(f"{base}.aff").write_bytes(aff.read_bytes() + b"\nMAXNGRAMSUGS 0\nMAXCPDSUGS 0\n")
        Path(f"{base}.dic").symlink_to(dic.resolve())
        return open_hunspell(str(base), (), vocabulary_files)


def suggestions_of(checker, token: str) -> list:
    try:
        return checker.suggest(token)
    except UnicodeError:
        return []


def is_checked(decision: Decision) -> bool:
    """A decision the gate checks: a change on the corpus's evidence, or a flagged token."""
    return decision.rule in CHECKED_RULES or decision.rule == "flagged"


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


class FirstSuggestion:
    """The published rule: a rejected token takes Hunspell's first suggestion (or the first plain one).

    Decisions are cached per distinct token: a suggestion costs milliseconds,
    and MSR-VTT repeats its rare tokens many times.
    """

    def __init__(self, checker, suggestion_rule: str):
        self._hunspell = checker
        self._rule = suggestion_rule
        self._decide_cached = lru_cache(maxsize=500_000)(self._decide)

    def decide(self, piece: str, previous: str = "", following: str = "",
               clip: OtherCaptions = NO_OTHER_CAPTIONS) -> Decision:
        return self._decide_cached(piece)  # the published rule ignores context and clip

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

    Candidates are the words of the corpus that Hunspell accepts (and, as an
    option, the names it knows capitalised), within a small edit distance, and
    the two-word split the corpus writes apart. They are ranked by edit
    distance, then by their weight: how often the corpus writes them, times
    `slip_weight` for a slip of the hand (a noisy channel in which such typos
    are likelier than other edits). When that leaves no clear winner, the words
    around the token decide, if the corpus writes one candidate there clearly
    more often.
    """

    def __init__(self, checker, config, token_stats: dict, phrases: dict, mapped: frozenset = frozenset(),
                 plural_readings: Optional[dict] = None, common_misspellings: Optional[dict] = None,
                 gate=None, suggester=None):
        self._hunspell = checker
        self._config = config
        self._stats = token_stats
        self._phrases = phrases  # two-word phrases of the corpus and their counts
        self._plural_readings = plural_readings or {}  # "mens" -> "men", where the context reads a plural
        self._common_misspellings = common_misspellings or {}  # "restuarant" -> "restaurant"
        # Words the mappings rewrite ("grey", "tshirt") are never a correction's result:
        # cleaning the output again would rewrite them.
        self._mapped = mapped
        self._known_by_shape = self._known_words(config.min_candidate_count, config.name_candidates)
        # The learned gate (transforms/spelling_gate.py; None: the rule's decisions stand), and what its
        # candidates come from besides the rule's: Hunspell's suggestions and the rarer corpus words.
        self._gate = gate
        if suggester is not None:
            self._suggestions = lru_cache(maxsize=100_000)(
                lambda token: tuple(word.lower() for word in suggestions_of(suggester, token)))
            self._rare_by_shape = self._known_words(1, False)
            self._evidence = Evidence(self._stats, self._phrases, self._support, self._accepts, self._is_name,
                                      self._suggestions, is_slip, lacks_a_letter, is_common_typo)
        self._decide_cached = lru_cache(maxsize=500_000)(self._decide)
        self._decide_in_context_cached = lru_cache(maxsize=500_000)(self._decide_in_context)

    def decide(self, piece: str, previous: str = "", following: str = "",
               clip: OtherCaptions = NO_OTHER_CAPTIONS) -> Decision:
        """`clip`: the words the other captions of the token's clip write."""
        decision = self.decide_by_rule(piece, previous, following, clip)
        if self._gate is None or not is_checked(decision):
            return decision
        return self._checked_by_gate(piece, previous, following, clip, decision)

    def decide_by_rule(self, piece: str, previous: str, following: str, clip: OtherCaptions) -> Decision:
        """The rule's decision, before the gate checks it."""
        decision = self._decide_without_clip(piece, previous, following)
        if (self._config.clip_evidence and decision.rule in ("ranked", "context")
                and not is_common_typo(piece, decision.replacement) and decision.replacement not in clip):
            decision = Decision(None, "flagged", flag="an uncommon typo, and no other caption of the clip writes the word",
                                candidate=decision.replacement)
        if self._config.clip_candidates and decision.rule == "flagged":
            decision = self._correct_from_clip(piece, clip) or decision
        if decision.rule in LIST_OVERRULES:
            return self._correct_from_list(piece) or decision
        return decision

    def gate_candidates(self, piece: str, previous: str, following: str, clip: OtherCaptions,
                        decision: Decision) -> tuple:
        """(candidate -> its source, one feature row per candidate) of a decision the gate checks."""
        proposal = decision.replacement or decision.candidate
        source = decision.rule if decision.replacement else "flagged"
        alpha = piece.isalpha()
        candidates = candidate_sources(
            piece, proposal, source, list(self._suggestions(piece)),
            [word for word, _, _ in self._close_words(piece, 3)] if alpha else [],
            [word for word, _, _ in self._close_words(piece, 3, self._rare_by_shape)] if alpha else [])
        return candidates, candidate_features(piece, candidates, decision.flag, previous, following,
                                              clip.__contains__, self._evidence)

    def _checked_by_gate(self, piece: str, previous: str, following: str, clip: OtherCaptions,
                         decision: Decision) -> Decision:
        """The likeliest candidate when the gate trusts it enough; else the token stays, flagged."""
        candidates, rows = self.gate_candidates(piece, previous, following, clip, decision)
        if not candidates:
            return decision
        word, probability = likeliest(candidates, self._gate.probabilities(rows))
        score = round(probability, 4)
        if probability >= self._config.gate_threshold:
            if word == decision.replacement:
                return replace(decision, score=score)
            return Decision(word, "gate", score)
        if decision.replacement is None:
            return replace(decision, candidate=word)
        doubt = f"the gate doubts the {decision.rule} correction ({decision.replacement})"
        if word == decision.replacement:
            return Decision(None, "flagged", flag=f"{doubt}: it scores {score}", candidate=word)
        return Decision(None, "flagged", flag=f"{doubt}; its likeliest candidate {word} scores {score}", candidate=word)

    def _correct_from_list(self, piece: str) -> Optional[Decision]:
        """The list of common misspellings' one correction of a token the corpus could not settle
        ("restuarant", "rythm", "provacative": the corpus writes the word too rarely, or not close enough)."""
        word = self._common_misspellings.get(piece)
        if word is None or not all(self._is_split_word(part) or part in CLITICS for part in word.split()):
            return None
        return Decision(word, "misspelling_list", 1.0)

    def _correct_from_clip(self, piece: str, clip: OtherCaptions) -> Optional[Decision]:
        """The one word of the clip's other captions that `piece` plausibly misspells, if there is exactly one.

        The corpus as a whole had no clear candidate, but the clip's annotators saw the same
        video: "aminated" in a clip whose other captions write "animated". When another
        caption writes the token itself, annotators agree on it: it is a name or a word.
        """
        if piece in clip or not piece.isalpha():
            return None
        close = sorted((distance, word) for word in clip.words()
                       if word.isalpha() and word not in self._mapped and self._accepts_in_any_case(word)
                       for distance in [close_in_clip(piece, word)] if distance)
        if not close or (len(close) > 1 and close[1][0] == close[0][0]):
            return None
        distance, word = close[0]
        if any(nearer < distance for _, nearer, _ in self._close_words(piece, min_length=3)):
            return None  # a corpus word is closer ("wating": "waiting", not the clip's "watching")
        return Decision(word, "clip", round(1 - distance / max(len(piece), len(word)), 4))

    def _decide_without_clip(self, piece: str, previous: str, following: str) -> Decision:
        plural = self._plural_readings.get(piece)
        if plural is not None and reads_plural(previous, following):
            return Decision(plural, "plural_in_context", 1.0)
        # After a name ("russell crowe", "jim carrey") an unknown word is most likely a surname.
        decision = self._decide_cached(piece, self._is_name(previous))
        if not (self._config.context and decision.candidates):
            return decision
        in_context = self._decide_in_context_cached(piece, previous, following, decision.candidates)
        if in_context is not None:
            return in_context
        if decision.rule == "ranked":
            # A short token has many neighbours one edit away ("plad": play, plaid, plan):
            # the corpus alone does not choose for it, the context must.
            return Decision(None, "flagged", flag="short token: its context does not choose a candidate",
                            candidate=decision.replacement)
        return decision

    def _support(self, word: str, previous: str, following: str) -> int:
        """How often the corpus writes `word` after `previous` or before `following`."""
        return self._phrases.get(f"{previous} {word}", 0) + self._phrases.get(f"{word} {following}", 0)

    def _known_words(self, min_count: int, names: bool) -> dict:
        """Corpus words annotators write at least `min_count` times, that Hunspell accepts (or knows as names,
        if `names`), by (length, first letter): a candidate keeps the token's first letter (_plausible_typo),
        so only those words need comparing."""
        by_shape = {}
        for word, (count, _) in self._stats.items():
            if count >= min_count and word.isalpha() and word not in self._mapped and (
                    self._accepts(word) or (names and count >= self._config.min_name_count
                                            and self._accepts(word.capitalize()))):
                by_shape.setdefault((len(word), word[0]), []).append(word)
        return {shape: sorted(words) for shape, words in by_shape.items()}

    def _accepts(self, word: str) -> bool:
        try:
            return self._hunspell.spell(word)
        except UnicodeError:
            return False

    def _accepts_in_some_case(self, word: str) -> bool:
        return self._accepts(word.capitalize()) or self._accepts(word.upper())

    def _accepts_in_any_case(self, word: str) -> bool:
        return self._accepts(word) or self._accepts_in_some_case(word)

    @lru_cache(maxsize=100_000)
    def _is_name(self, word: str) -> bool:
        """A word Hunspell knows only capitalised: a proper name."""
        return bool(word) and word.isalpha() and not self._accepts(word) and self._accepts(word.capitalize())

    def _decide(self, piece: str, after_name: bool) -> Decision:
        if self._accepts(piece):
            return KEEP
        if self._config.case_variants and self._accepts_in_some_case(piece):
            return self._case_or_slip(piece)
        if not (piece.isalpha() and piece.isascii()):
            return Decision(None, "not_a_word")
        count, videos = self._stats.get(piece, (0, 0))
        if self._config.dropped_g and self._drops_a_g(piece):
            return Decision(piece + "g", "dropped_g", 1.0)
        split = self._attested_split(piece, count) or self._split_before_function_word(piece)
        if split is not None:
            return split
        if after_name:
            return self._keep_or_flag(videos, "follows a name: probably a surname")
        if piece.endswith("s") and self._accepts_in_any_case(piece[:-1]) and (
                not self._config.regular_plurals or takes_plain_s(piece[:-1])):
            return Decision(None, "plural")  # "volcanos", "lamborghinis": a known word, pluralised
        candidates = self._close_words(piece, min_length=4)
        if self._config.inflections and self._inflected(piece) and not any(is_slip(piece, w) for w, _, _ in candidates):
            return Decision(None, "inflected")  # "puppeted": a known word, regularly inflected
        if not candidates:
            # Too short for the corpus alone to choose ("aer", "amd"): only the context may.
            short = self._three_letter_candidates(piece) if len(piece) == 3 else ()
            return self._keep_or_flag(videos, "no close word in the corpus", candidates=short)
        return self._rank(piece, count, videos, candidates)

    def _drops_a_g(self, piece: str) -> bool:
        """'lookin' for 'looking': the -ing word is known and the corpus writes it."""
        word = piece + "g"
        return (piece.endswith("in") and word not in self._mapped and self._accepts(word)
                and self._stats.get(word, (0, 0))[0] >= self._config.min_candidate_count)

    def _case_or_slip(self, piece: str) -> Decision:
        """A lowercase token the dictionary knows capitalised or in capitals is right, except a rare
        three-letter one known only as an acronym ("amd" in "gloves amd four bottles"): its context may correct it."""
        count, _ = self._stats.get(piece, (0, 0))
        if len(piece) == 3 and count <= self._config.acronym_slip_max_count and not self._accepts(piece.capitalize()):
            return Decision(None, "case", candidates=self._three_letter_candidates(piece))
        return Decision(None, "case")

    def _three_letter_candidates(self, piece: str) -> tuple:
        """Words one edit from a three-letter token that the corpus writes very often ("and", "the", "with").

        Rarer ones are as likely an abbreviation the dictionary lacks ("ecg", "taj") as a typo.
        """
        return tuple(c for c in self._close_words(piece, min_length=3)
                     if c[2] >= self._config.three_letter_candidate_min_count)

    def _attested_split(self, piece: str, count: int) -> Optional[Decision]:
        """Written apart by other annotators ("each other", "children s"): no letter changes."""
        splits = self._attested_splits(piece)
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
            if piece.endswith(word) and len(first) >= 4 and self._accepts(first) and first not in self._mapped:
                return Decision(f"{first} {word}", "split", 1.0)
        return None

    def _rank(self, piece: str, count: int, videos: int, candidates: list) -> Decision:
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

    def _decide_in_context(self, piece: str, previous: str, following: str, candidates: tuple) -> Optional[Decision]:
        """The candidate the corpus writes clearly most often between these two words, if there is one."""
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
            return Decision(best_word, "context", round(best_support / (best_support + against), 4))
        return None

    def _inflected(self, piece: str) -> bool:
        """'puppeted', 'shooted': a known word with a regular ending the dictionary does not list."""
        return any(piece.endswith(ending) and len(piece) - len(ending) >= 5 and self._accepts(piece[:-len(ending)])
                   for ending in ("ed", "ing", "er", "ers", "ly"))

    def _two_known_words(self, piece: str) -> bool:
        """'carebear': two words of four letters or more that Hunspell accepts, run together."""
        return any(self._accepts(piece[:cut]) and self._accepts(piece[cut:]) for cut in range(4, len(piece) - 3))

    def _keep_or_flag(self, videos, reason, candidate=None, candidates=()) -> Decision:
        if videos >= self._config.domain_min_videos:
            return Decision(None, "domain")  # written in many videos and not a near-miss of a common word
        return Decision(None, "flagged", flag=reason, candidate=candidate, candidates=candidates)

    def _close_words(self, piece: str, min_length: int, known_by_shape: Optional[dict] = None) -> list:
        """(word, distance, weight) of the trusted corpus words (or of `known_by_shape`) within the edit
        distance allowed for the token's length."""
        if len(piece) < min_length:
            return []  # too short to tell a typo from an abbreviation or a name
        max_distance = self._config.max_edit_distance if len(piece) > 5 else 1
        found = []
        for length in range(len(piece) - max_distance, len(piece) + max_distance + 1):
            words = (self._known_by_shape if known_by_shape is None else known_by_shape).get((length, piece[0]))
            if not words:
                continue
            for word, distance, _ in extract(piece, words, scorer=OSA.distance, score_cutoff=max_distance,
                                             limit=None):
                if self._plausible_typo(piece, word, int(distance)):
                    weight = self._stats[word][0] * (self._config.slip_weight if is_slip(piece, word) else 1)
                    found.append((word, int(distance), weight))
        return found

    @staticmethod
    def _plausible_typo(piece: str, word: str, distance: int) -> bool:
        """Shapes of a misspelling that the dev set shows are usually another word, not a typo."""
        # Annotators rarely miss a word's first letter (two letters, two edits away).
        # (_close_words relies on this: it compares only words with the token's first letter.)
        if piece[: distance] != word[: distance]:
            return False
        # "rusha", "showere": a word with a letter added at its end is more often a name or a run-on.
        if piece.startswith(word) and piece[len(word):] != word[-1] * (len(piece) - len(word)):
            return False
        return True

    def _is_split_word(self, word: str) -> bool:
        # Hunspell accepts every letter in capitals ("S"); "ssomeone" is not "s someone".
        a_word_alone = len(word) > 1 or word in ("a", "i")
        return a_word_alone and self._accepts_in_any_case(word) and word not in self._mapped

    def _attested_splits(self, piece: str) -> list:
        """'eachother' -> ('each other', n) when both words are known (or the second is the
        dataset's possessive "s") and the corpus writes them apart n times. Of one-letter
        words only "a" and "i" are words."""
        splits = []
        for cut in range(1, len(piece)):
            phrase = f"{piece[:cut]} {piece[cut:]}"
            count = self._phrases.get(phrase, 0)
            first, second = phrase.split()
            if count >= self._config.min_phrase_count and self._is_split_word(first) and (
                    second == "s" or self._is_split_word(second)):
                splits.append((phrase, count))
        return splits


# Decisions to keep a token that the list of common misspellings overrules: a flagged token, and one kept
# only because it looks like a plural ("ballons", "heros"), a regular inflection ("argueing", "occured") or a
# word of many videos ("speach"). The corpus had no better candidate; the list knows the typo.
LIST_OVERRULES = frozenset(("flagged", "plural", "inflected", "domain"))
# What an apostrophe leaves behind when captions write it as a space ("didn t", "they re").
CLITICS = frozenset(("s", "t", "d", "m", "ll", "re", "ve"))
VOWELS = "aeiou"
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


def takes_plain_s(word: str) -> bool:
    """Whether the plural of `word` is written by adding a bare s: not after s, x, z, ch or sh
    ("beaches", not "beachs") nor after a consonant and y ("fries", not "frys")."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return False
    return not (word.endswith("y") and len(word) > 1 and word[-2] not in VOWELS)


def lacks_a_letter(typo: str, word: str) -> bool:
    """The word with one of its letters left out ("stle" for "style", "towl" for "towel")."""
    return len(word) == len(typo) + 1 and any(word[:at] + word[at + 1:] == typo for at in range(len(word)))


def is_slip(typo: str, word: str) -> bool:
    """One edit that is a slip: two neighbouring letters swapped ("amatuer"), a doubled
    letter written once or a letter doubled ("ploting"), a vowel for another ("seperated").

    A neighbouring key struck ("grop" read as "grip") is not counted: on the dev
    set that made more wrong changes than right ones.
    """
    if OSA.distance(typo, word) != 1:
        return False
    if len(typo) == len(word):
        # At distance one, either two neighbours swapped or one letter replaced: a vowel for
        # another is the commonest misspelling of all ("seperated"), other letters are not slips.
        differences = [(a, b) for a, b in zip(typo, word) if a != b]
        return len(differences) == 2 or all(letter in VOWELS for letter in differences[0])
    shorter, longer = sorted((typo, word), key=len)
    at = next((i for i, (a, b) in enumerate(zip(shorter, longer)) if a != b), len(shorter))
    # The extra letter repeats its neighbour: a doubled letter dropped or added.
    return longer[at] == longer[at - 1] if at > 0 else longer[0] == longer[1]


def slip_variants(typo: str) -> set:
    """Every word one slip (see is_slip) away from `typo`."""
    variants = set()
    for at, letter in enumerate(typo):
        variants.add(typo[:at] + typo[at + 1: at + 2] + letter + typo[at + 2:])  # swapped with the next letter
        variants.add(typo[:at] + letter + typo[at:])  # doubled
        if at > 0 and typo[at - 1] == letter:
            variants.add(typo[:at] + typo[at + 1:])  # a doubled letter written once
        if letter in VOWELS:
            variants.update(typo[:at] + vowel + typo[at + 1:] for vowel in VOWELS)
    variants.discard(typo)
    return variants


@lru_cache(maxsize=100_000)  # asked again for every caption that writes the same typo
def is_common_typo(typo: str, word: str) -> bool:
    """Whether `typo` misspells `word` in a way annotators often do: one slip (is_slip), one
    letter left out or added, or a slip and one more edit ("beutifull", "proffesional").

    What is left, a consonant replaced ("roomo" for "rooms") or two edits of which neither
    is a slip ("gocart" for "goat"), is on the dev set as often another word as a typo.
    """
    distance = OSA.distance(typo, word)
    if distance == 1:
        return abs(len(typo) - len(word)) == 1 or is_slip(typo, word)
    return distance == 2 and any(OSA.distance(variant, word) == 1 for variant in slip_variants(typo))


def close_in_clip(typo: str, word: str) -> int:
    """The edit distance from `typo` to `word` when `typo` is a plausible misspelling of that
    word of its clip, else 0.

    One edit for a token of five letters or fewer, two for a longer one. The first
    letter stays, is left out ("irections") or swapped with the second ("aldy"). The
    word is no piece of the token: "comeon" is not "come", nor "videosa" "video" (a
    run-together or a longer word). A plural stays a plural ("millenials" is not
    "millennial").
    """
    if typo == word or word in typo:
        return 0
    distance = int(OSA.distance(typo, word, score_cutoff=2))
    if distance > (1 if len(typo) <= 5 else 2):
        return 0
    if not (typo[0] == word[0] or typo == word[1:] or typo[:2] == word[1::-1]):
        return 0
    if len(typo) >= 5 and typo.endswith("s") != word.endswith("s"):
        return 0
    return distance


@dataclass(frozen=True)
class WordLists:
    """The profile's word lists: small, so read once where the pipeline is built and shipped with it."""
    custom_words: tuple
    british: dict
    splits: dict
    misspellings: dict  # curated corrections of the corpus's frequent misspellings
    plural_readings: dict  # run-together possessives that are plurals in some contexts ("mens" -> "men")
    common_misspellings: dict = field(default_factory=dict)  # a general list: the last resort (LIST_OVERRULES)

    @classmethod
    def read(cls, config) -> "WordLists":
        return cls(read_word_list(config.custom_words) if config.custom_words else (),
                   read_mapping(config.british_to_american), read_mapping(config.splits),
                   read_mapping(config.misspellings) if config.misspellings else {},
                   read_mapping(config.plural_readings) if config.plural_readings else {},
                   read_common_misspellings(config.common_misspellings) if config.common_misspellings else {})

    @property
    def mappings(self) -> tuple:
        """(rule, mapping) in the order they apply: the published two, then the curated misspellings."""
        return ("british", self.british), ("split", self.splits), ("vocabulary", self.misspellings)


class Speller:
    """Step II ready to run: Hunspell with the vocabulary, the mappings and the profile's rule.

    `token_stats` and `phrases` are the corpus statistics the ranked rule reads.
    """

    def __init__(self, config, word_lists: WordLists, token_stats=None, phrases=None, use_gate: bool = True):
        """`use_gate=False`: the gate's candidates are gathered but the rule's decisions stand (to train the gate)."""
        checker = open_hunspell(config.hunspell_dictionary, word_lists.custom_words, config.vocabulary)
        self._word_lists = word_lists
        mapped = frozenset(key for _, mapping in word_lists.mappings for key in mapping)
        if config.suggestion == "ranked":
            gate = CorrectionGate(resolve_gate(config.gate)) if config.gate and use_gate else None
            suggester = open_suggester(config.hunspell_dictionary, config.vocabulary) if config.gate else None
            self.rule = RankedCorrection(checker, config, token_stats, phrases, mapped, word_lists.plural_readings,
                                         word_lists.common_misspellings, gate, suggester)
        else:
            self.rule = FirstSuggestion(checker, config.suggestion)
        self._checker = checker
        self._mapped = mapped
        self._plain_word = lru_cache(maxsize=500_000)(self._is_plain_word)

    def correct(self, text: str, clip: OtherCaptions = NO_OTHER_CAPTIONS) -> tuple:
        """(corrected caption, correction rows, flagged rows), rows without sen_id.

        `clip`: the words the other captions of the same clip write (OtherCaptions).
        """
        tokens = text.split()
        if all(map(self._plain_word, tokens)):
            # Most captions: every rule keeps an accepted word, so there is nothing to decide.
            return " ".join(tokens).lower(), [], []
        decide = partial(self.rule.decide, clip=clip)
        return correct_caption(text, self._word_lists.mappings, decide, self._plain_word)

    def _is_plain_word(self, token: str) -> bool:
        """Hunspell accepts the token and no mapping rewrites it."""
        try:
            return token not in self._mapped and bool(self._checker.spell(token))
        except UnicodeError:
            return False


def correct_video(batch, speller, edit_rule_prefix: str = ""):
    """Step II on one video: its captions corrected, with their edits, corrections and flagged tokens."""
    corrections, flagged = [], []
    in_clip = captions_writing(caption.text for caption in batch.captions)

    def correct(caption):
        clip = OtherCaptions(in_clip, caption.text)
        new_text, rows, flags = speller.correct(caption.text, clip)
        corrections.extend(CorrectionRow(sen_id=caption.sen_id, **row) for row in rows)
        flagged.extend(FlaggedRow(sen_id=caption.sen_id, **row) for row in flags)
        return new_text, edit_rule_prefix + (",".join(sorted({row["rule"] for row in rows})) or "lowercase")

    corrected = rewrite_captions(batch, STEP, correct, pass_caption=True)
    return replace(corrected, corrections=batch.corrections + corrections, flagged=batch.flagged + flagged)


class Spelling(Step):
    """Step II: the ranked rule also reads the corpus statistics, and builds its speller from them."""
    name = STEP
    summary = "spelling"
    Settings = SpellingSettings

    def __init__(self, config):
        super().__init__(config)
        # Read here, so that a missing list stops the run before any worker starts.
        self._word_lists = WordLists.read(self.settings)
        self._speller = None

    def aggregates(self) -> dict:
        return corpus_aggregates() if self.settings.suggestion == "ranked" else {}

    def setup(self):
        self._speller = None  # built on the first video: the ranked rule needs the figures

    def process(self, video, token_stats=None, phrases=None):
        if self._speller is None:
            self._speller = Speller(self.settings, self._word_lists, token_stats, phrases)
        return correct_video(video, self._speller)
