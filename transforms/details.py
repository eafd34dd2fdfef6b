"""Which words of a near-duplicate are details its kept caption lacks (step III, `keep_details`).

Step III removes a caption in favour of another of its group. That loses nothing when the
removed caption says nothing the kept one does not; it loses a detail when it holds a
content word the kept caption lacks ("two men are jumping" against "two young people are
jumping", "two cows" against "the cows"). This module decides, for the words of one caption
that another lacks, which are details. No tagger runs (spaCy on every caption would cost
minutes); a word is judged alone, from word lists and WordNet:

- a function word (a closed class: articles, pronouns, prepositions, auxiliaries...,
  `dictionaries/dedup_function_words.txt`) is never a detail: it says how a caption is put;
- a number or quantity (`dedup_numbers.txt`, or a token with a digit) is always a detail;
- any other word (noun, verb, adjective, adverb, a name WordNet does not know) is a
  detail unless the kept caption covers it:
  - another form of a verb the kept caption holds ("playing" for "plays"); not the other
    number of a noun ("cows" for "cow", "men" for "man"), which tells how many, nor the
    comparative of an adjective ("bigger" for "big");
  - or a word of the kept caption that means the same or something more specific, in
    WordNet's noun or verb hierarchy (a synonym, or a hyponym: "man" covers "person",
    "jeep" covers "car"), in the same number for nouns ("men" do not cover "a person").
    The kept word is read in one part of speech, the one WordNet's tagged corpus counts
    most for it ("game" a noun, "playing" a verb), and in its first sense, the most
    frequent; the word it may cover, in its first three senses of that part of speech.
  A verb of another action is a detail: "running" against "walking" says something else.
  Person and gender words (`dedup_person_words.txt`) follow the same rule, and an age tag
  there keeps an adult ("man", "woman") from being covered by a young person ("boy",
  "girl", whom WordNet makes a young woman) and the other way round; the list names the kind
  of a detail (person).

WordNet is read lazily (opening it costs seconds): only a word that reaches the last test
needs it, and it is opened once per process.
"""
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from dictionaries import resolve

FUNCTION_WORDS_FILE = resolve("dedup_function_words.txt")
NUMBERS_FILE = resolve("dedup_numbers.txt")
PERSON_WORDS_FILE = resolve("dedup_person_words.txt")
# WordNet lists a word's senses most frequent first: a word is read in its first few only, so that a
# rare sense ("man" as a game piece) does not make one word cover an unrelated one.
SENSES_READ = 3
HAS_DIGIT = re.compile(r"\d")


def read_word_list(path: Path) -> frozenset:
    """The words of a list file: one a line, `#` lines and blank lines skipped."""
    return frozenset(read_tagged_words(path))


def read_tagged_words(path: Path) -> dict:
    """word -> its tag ("" when none) from a list file of `word` or `word tag` lines."""
    tagged = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            word, _, tag = line.strip().partition(" ")
            tagged[word] = tag.strip()
    return tagged


@dataclass(frozen=True)
class Detail:
    """A word a caption holds and another caption lacks, judged a detail, and its kind."""
    word: str
    kind: str  # "number", "person" or "word"


class DetailRule:
    """Judges the words one caption holds and another lacks. `person_words`: word -> its age tag
    ("adult", "young" or "" for none); `wordnet`: a callable giving NLTK's WordNet reader, called the
    first time a word needs it (transforms.evaluation.lexicon.open_wordnet)."""

    def __init__(self, function_words: frozenset, numbers: frozenset, person_words: dict, wordnet):
        self.function_words, self.numbers, self.person_words = function_words, numbers, person_words
        self._open_wordnet = wordnet
        self._wordnet = None
        self._counts = None  # sense key -> its count in WordNet's tagged corpus, read when first asked
        self._closure = lru_cache(maxsize=None)(self._closure_uncached)
        self._senses = lru_cache(maxsize=None)(self._senses_uncached)
        # A kept word's reading is asked again for every word it may cover, in every group: each asks
        # WordNet's tagged-corpus counts, a binary search of a file on disk.
        self._reading = lru_cache(maxsize=None)(self._reading_uncached)

    def lacking(self, words: list, kept_words: list, edit_threshold: int = 0) -> list:
        """The words of `words` that `kept_words` lacks (no kept word within the edit threshold), in order, once each."""
        from rapidfuzz.distance import Levenshtein

        kept, seen, lacking = set(kept_words), set(), []
        for word in words:
            if word in kept or word in seen:
                continue
            seen.add(word)
            if edit_threshold and any(Levenshtein.distance(word, other) <= edit_threshold for other in kept):
                continue
            lacking.append(word)
        return lacking

    def details(self, words: list, kept_words: list, edit_threshold: int = 0) -> list:
        """The Details of `words` that `kept_words` lacks: what removing `words` in favour of `kept_words` loses."""
        return [detail for word in self.lacking(words, kept_words, edit_threshold)
                if (detail := self.detail(word, kept_words)) is not None]

    def holds_detail(self, words: list, kept_words: list, edit_threshold: int = 0) -> bool:
        """Whether `details` would find any: it stops at the first detail, which is all step III's grouping asks."""
        return any(self.detail(word, kept_words) is not None
                   for word in self.lacking(words, kept_words, edit_threshold))

    def detail(self, word: str, kept_words: list):
        """`word` (which the kept caption lacks) as a Detail, or None when it is not one."""
        if word in self.function_words:
            return None
        if word in self.numbers or HAS_DIGIT.search(word):
            return Detail(word, "number")
        if any(self.covers(kept, word) for kept in set(kept_words) if kept not in self.function_words):
            return None
        return Detail(word, "person" if word in self.person_words else "word")

    def covers(self, kept: str, word: str) -> bool:
        """Whether the kept caption's word `kept` says all that `word` says (see the module's docstring)."""
        if kept in self.numbers or HAS_DIGIT.search(kept):
            return False
        if other_number_of_a_noun(kept, word):
            return False
        if self.person_words.get(word) and self.person_words.get(word) != self.person_words.get(kept):
            return False  # an age ("man" against "boy", "woman" against "girl") is a detail
        if shares_a_verb_lemma(kept, word):
            return True
        pos = self._reading(kept)
        if pos is None or (pos == "n" and is_plural(kept) != is_plural(word)):
            return False
        return bool(set(self._senses(word, pos)[:SENSES_READ]) & self._closure(kept, pos))

    def _wordnet_reader(self):
        if self._wordnet is None:
            self._wordnet = self._open_wordnet()
        return self._wordnet

    def _senses_uncached(self, word: str, pos: str) -> tuple:
        return tuple(self._wordnet_reader().synsets(word, pos))

    def _reading_uncached(self, word: str):
        """The part of speech ("n" or "v") a caption's word is read in: the one whose senses of the word
        WordNet's tagged corpus counts most often ("game": noun, "playing": verb); None if it has neither."""
        wordnet, counts = self._wordnet_reader(), {}
        for pos in ("n", "v"):
            lemma = wordnet.morphy(word, pos)
            if lemma is not None:
                counts[pos] = sum(self._tagged_count(form) for sense in self._senses(word, pos)
                                  for form in sense.lemmas() if form.name() == lemma)
        return max(counts, key=lambda pos: (counts[pos], pos == "n")) if counts else None

    def _tagged_count(self, form) -> int:
        """`form.count()`: how often WordNet's tagged corpus has this lemma in this sense (cntlist.rev). NLTK
        binary-searches the file on disk for each lemma asked; it is read here once (37,387 lines, under
        a MiB) into a dict. Every key of the file is unique, and NLTK's search finds each of them."""
        if self._counts is None:
            path = self._wordnet_reader().abspath("cntlist.rev").path
            with open(path, encoding="utf-8") as lines:
                self._counts = {line.split(" ", 1)[0]: int(line.rsplit(" ", 1)[-1]) for line in lines if line.strip()}
        return self._counts.get(form.key(), 0)

    def _closure_uncached(self, word: str, pos: str) -> frozenset:
        """The word's first sense, the one a caption most likely means, and every sense above it."""
        above = set()
        for sense in self._senses(word, pos)[:1]:
            above.add(sense)
            above.update(sense.closure(lambda s: s.hypernyms() + s.instance_hypernyms()))
        return frozenset(above)


@lru_cache(maxsize=None)
def lemmas(word: str) -> dict:
    """lemminflect's lemmas of a word alone, by universal part of speech: {"NOUN": ("cow",), "VERB": ("cow",)}."""
    from lemminflect import getAllLemmas

    return getAllLemmas(word)


def is_plural(word: str) -> bool:
    """A noun form other than its own lemma ("cows", "men"); a word with no noun reading is not plural."""
    nouns = lemmas(word).get("NOUN", ())
    return bool(nouns) and word not in nouns


def other_number_of_a_noun(kept: str, word: str) -> bool:
    """Singular and plural of one noun ("cow", "cows"): the plural tells how many."""
    shared = set(lemmas(kept).get("NOUN", ())) & set(lemmas(word).get("NOUN", ()))
    return bool(shared) and is_plural(kept) != is_plural(word)


def shares_a_verb_lemma(kept: str, word: str) -> bool:
    """Two forms of one verb ("plays", "playing"). Adjectives are left out: "bigger" compares, and
    lemminflect reads "gamer" as the comparative of the adjective "game"."""
    return bool(set(lemmas(kept).get("VERB", ())) & set(lemmas(word).get("VERB", ())))


@lru_cache(maxsize=1)
def detail_rule() -> DetailRule:
    """The rule with capclean's word lists and the WordNet `make install` builds, once per process."""
    from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet

    return DetailRule(read_word_list(FUNCTION_WORDS_FILE), read_word_list(NUMBERS_FILE),
                      read_tagged_words(PERSON_WORDS_FILE), lambda: open_wordnet(default_wordnet_dir()))


def check_wordnet() -> None:
    """A missing WordNet as one line before any work (WordNetMissingError), not a worker's traceback later."""
    # Not from lexicon.py: this runs in the driver when the pipeline is built, and NLTK's import costs seconds.
    from transforms.evaluation.wordnet_folder import WordNetMissingError, default_wordnet_dir

    if not (default_wordnet_dir() / "lexnames").is_file():
        raise WordNetMissingError(f"WordNet not found in {default_wordnet_dir()}: run make install "
                                  "(step III's keep_details reads it)")
