"""The words a hard negative puts in place of a caption's word: antonyms, and the form to give them.

Hard negatives (Chen, Doughty, Li, Snoek 2024, "Beyond Coarse-Grained Matching in Video-Text
Retrieval") change one word of a caption and "prioritize the antonym of word w, followed by the
antonym of a hypernym or hyponym of the word". `Lexicon` answers both for the parts of speech the
paper changes, named by spaCy's tags: NOUN, VERB, ADJ and ADV from WordNet, and ADP (prepositions,
which WordNet lacks) from a list of pairs written for capclean. `inflect_like` then gives the
replacement the original word's form: plural, past tense, -ing, comparative...

WordNet is read from a folder passed in; `make install` builds `default_wordnet_dir()`.
"""
import warnings
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from dictionaries import resolve
from transforms.errors import CapcleanError
from transforms.evaluation.wordnet_folder import WordNetMissingError, default_wordnet_dir  # noqa: F401 (its callers')

if TYPE_CHECKING:
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

PREPOSITION_ANTONYMS_FILE = resolve("preposition_antonyms.txt")
PREPOSITION = "ADP"
# spaCy's universal tags to WordNet's parts of speech. NLTK's "a" also finds satellite adjectives ("s").
WORDNET_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
# The Penn tags lemminflect inflects. Any other (IN, RP, DT...) has one form, and lemminflect logs a
# warning when asked for it.
INFLECTED_TAGS = frozenset({
    "NN", "NNS", "NNP", "NNPS",
    "VB", "VBD", "VBG", "VBN", "VBP", "VBZ",
    "JJ", "JJR", "JJS",
    "RB", "RBR", "RBS",
})


@cache
def _wordnet30_reader() -> type:
    """NLTK's WordNet reader without the mapping from WordNet 3.0 it builds for multilingual (OMW) data.

    capclean passes no OMW reader, and the data is WordNet 3.0 itself, so the mapping is never used;
    yet NLTK 3.10 builds it on opening, from index.sense (which Debian's wordnet-base does not ship)
    found through a global nltk.data lookup, in about 7 seconds.

    Made when first needed: importing NLTK takes over a second of CPU, which a process that never opens
    WordNet (each hardneg worker but the one that looks the words up) need not pay.
    """
    from nltk.corpus.reader.wordnet import ADJ, ADJ_SAT, WordNetCorpusReader, WordNetError

    class WordNet30Reader(WordNetCorpusReader):
        def map_wn(self, version="wordnet"):
            return None

        def _load_lemma_pos_offset_map(self):
            """NLTK's own map (lemma -> part of speech -> synset offsets, from index.noun, .verb, .adj, .adv), with
            the files read by Python's file object. NLTK reads their 147,000 lines one by one through its seekable
            unicode stream, three quarters of opening WordNet: a second or more in every process that opens it
            (each Beam worker running step III). An index line: lemma pos n_synsets n_pointers pointer...
            n_senses tagged_senses offset..."""
            for suffix in self._FILEMAP.values():
                path = self.abspath(f"index.{suffix}").path
                with open(path, encoding=self._ENCODING) as lines:
                    for number, line in enumerate(lines, start=1):
                        if line.startswith(" "):
                            continue  # the licence at the top of the file
                        fields = line.split()
                        lemma, pos, synsets, pointers = fields[0], fields[1], int(fields[2]), int(fields[3])
                        if synsets <= 0 or int(fields[4 + pointers]) != synsets:
                            raise WordNetError(f"file index.{suffix}, line {number}: not a WordNet index line")
                        offsets = [int(offset) for offset in fields[6 + pointers:6 + pointers + synsets]]
                        self._lemma_pos_offset_map[lemma][pos] = offsets
                        if pos == ADJ:  # as NLTK does: the satellites among an adjective's senses, in index.adj's order
                            self._lemma_pos_offset_map[lemma][ADJ_SAT] = [
                                offset for offset in offsets if offset in self.satellite_offsets]

    return WordNet30Reader


def check_wordnet(folder: Path) -> None:
    """Refuse, in one line, a folder open_wordnet could not read: no WordNet in it, or one outside NLTK's
    data folders. Without opening it: the reader loads every index of WordNet (seconds and a hundred
    MiB), which a command that only checks before its work need not pay."""
    from nltk import pathsec

    folder = Path(folder)
    # lexnames is written last by pipelines/install/wordnet.py: without it the folder is incomplete.
    if not (folder / "lexnames").is_file():
        raise WordNetMissingError(f"WordNet not found in {folder}: run make install")
    try:
        if pathsec.ENFORCE:
            pathsec.validate_path(str(folder), context="CorpusReader.__init__")
    except PermissionError:
        raise _outside_data_folders(folder) from None


def _outside_data_folders(folder: Path) -> WordNetMissingError:
    # NLTK 3.10 reads corpora only from inside its data folders (nltk.data.path), links resolved.
    return WordNetMissingError(f"NLTK will not read WordNet from {folder}, outside its data folders: run make install")


def open_wordnet(folder: Path) -> "WordNetCorpusReader":
    folder = Path(folder)
    check_wordnet(folder)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "multilingual functions are not available": intended
            return _wordnet30_reader()(str(folder), omw_reader=None)
    except PermissionError:
        raise _outside_data_folders(folder) from None


def read_preposition_antonyms(path: Path = PREPOSITION_ANTONYMS_FILE) -> dict:
    """Each preposition of the file's pairs and its antonyms (sorted): {"on": ("off",), "off": ("on",), ...}."""
    antonyms = {}
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        words = line.split()
        if len(words) != 2:
            raise CapcleanError(f"{path} line {number}: expected two prepositions, found {line!r}")
        first, second = words
        antonyms.setdefault(first, set()).add(second)
        antonyms.setdefault(second, set()).add(first)
    return {word: tuple(sorted(others)) for word, others in sorted(antonyms.items())}


class Lexicon:
    """Antonyms of a lemma with a spaCy part of speech, as sorted lists (empty for other parts of speech),
    and a lemma inflected like a Penn tag.

    Every answer is kept, per (lemma, part of speech) and per (lemma, tag): a word recurs in
    thousands of captions, and WordNet's look-ups and lemminflect took two thirds of the hard
    negatives' time when asked again each time (docs/benchmarks.md). The memory is this object's,
    so it lives as long as the worker that opened the lexicon, and a new Lexicon starts empty.
    """

    def __init__(self, wordnet: "WordNetCorpusReader | None", preposition_antonyms: dict):
        self._wordnet = wordnet
        self._preposition_antonyms = preposition_antonyms
        self._antonyms, self._related_antonyms = {}, {}
        # Penn tag -> {lemma: inflect's answer}: one dict a tag, read directly (`forms`) where a split makes
        # millions of draws, each a lemma for the same tag.
        self._forms = {}
        # (lemma, part of speech, Penn tag) -> inflected_antonyms' answer.
        self._inflected_antonyms = {}

    def answers(self, words) -> dict:
        """(lemma, part of speech) -> (antonyms, related antonyms) of each of these words, for a Lexicon
        elsewhere to `learn`: a split's words looked up once, not again in every worker."""
        return {(lemma, pos): (tuple(self.antonyms(lemma, pos)), tuple(self.related_antonyms(lemma, pos)))
                for lemma, pos in sorted(words)}

    def learn(self, answers: dict) -> None:
        """Remember the antonyms of `answers` (another Lexicon's `answers`). A Lexicon opened without
        WordNet (Lexicon(None, {})) answers only the words it learnt, and refuses any other."""
        for key, (antonyms, related_antonyms) in answers.items():
            self._antonyms[key], self._related_antonyms[key] = antonyms, related_antonyms

    def antonyms(self, lemma: str, pos: str) -> list:
        """The paper's first choice: WordNet's antonyms of the lemma in any of its senses."""
        if (lemma, pos) not in self._antonyms:
            self._antonyms[lemma, pos] = tuple(self._look_up_antonyms(lemma, pos))
        return list(self._antonyms[lemma, pos])

    def related_antonyms(self, lemma: str, pos: str) -> list:
        """The paper's second choice: antonyms of the hypernyms and hyponyms of the lemma's synsets."""
        if (lemma, pos) not in self._related_antonyms:
            self._related_antonyms[lemma, pos] = tuple(self._look_up_related_antonyms(lemma, pos))
        return list(self._related_antonyms[lemma, pos])

    def inflect(self, lemma: str, tag: str) -> str:
        """`inflect_like`, remembered."""
        forms = self.forms(tag)
        if lemma not in forms:
            forms[lemma] = inflect_like(lemma, tag)
        return forms[lemma]

    def forms(self, tag: str) -> dict:
        """lemma -> its form for this Penn tag, of the lemmas `inflect` has been asked for so far (the dict
        itself, which inflect fills: a caller may read it first and ask inflect only for a lemma it lacks)."""
        if tag not in self._forms:
            self._forms[tag] = {}
        return self._forms[tag]

    def inflected_antonyms(self, lemma: str, pos: str, tag: str) -> tuple:
        """(antonyms, related antonyms) of the lemma, each inflected like the Penn tag; remembered per (lemma,
        part of speech, tag), since a word recurs in thousands of captions."""
        key = (lemma, pos, tag)
        if key not in self._inflected_antonyms:
            antonyms, related = self.antonyms(lemma, pos), self.related_antonyms(lemma, pos)
            self._inflected_antonyms[key] = (tuple(self.inflect(word, tag) for word in antonyms),
                                             tuple(self.inflect(word, tag) for word in related))
        return self._inflected_antonyms[key]

    def _check_wordnet(self, lemma: str, pos: str) -> None:
        if self._wordnet is None:
            raise KeyError(f"({lemma!r}, {pos!r}) was not learnt by a Lexicon without WordNet")

    def _look_up_antonyms(self, lemma: str, pos: str) -> list:
        self._check_wordnet(lemma, pos)
        if pos == PREPOSITION:
            return list(self._preposition_antonyms.get(lemma.lower(), ()))
        if pos not in WORDNET_POS:
            return []
        senses = self._wordnet.lemmas(lemma, WORDNET_POS[pos])
        return _single_words([antonym for sense in senses for antonym in sense.antonyms()], lemma)

    def _look_up_related_antonyms(self, lemma: str, pos: str) -> list:
        # Only nouns and verbs have hypernyms and hyponyms in WordNet, so other parts of speech get none.
        self._check_wordnet(lemma, pos)
        if pos not in WORDNET_POS:
            return []
        related = [other for synset in self._wordnet.synsets(lemma, WORDNET_POS[pos])
                   for other in synset.hypernyms() + synset.hyponyms()]
        return _single_words(
            [antonym for synset in related for sense in synset.lemmas() for antonym in sense.antonyms()], lemma)


def open_lexicon(wordnet_dir: Path, prepositions_file: Path = PREPOSITION_ANTONYMS_FILE) -> Lexicon:
    return Lexicon(open_wordnet(wordnet_dir), read_preposition_antonyms(prepositions_file))


def _single_words(wordnet_lemmas: list, original: str) -> list:
    # A hard negative changes one word into one word: multi-word lemmas ("stand_still") cannot be used,
    # nor the original word itself, which an antonym of a hyponym can be.
    names = {lemma.name() for lemma in wordnet_lemmas}
    return sorted(name for name in names if "_" not in name and name.lower() != original.lower())


def inflect_like(replacement_lemma: str, original_tag: str) -> str:
    """The replacement in the form of the original word's Penn tag: ("woman", "NNS") -> "women".

    lemminflect may give several spellings ("be", "VBD" -> was, were); the first is taken, so the
    answer is always the same. A tag with no inflection (IN) or a form lemminflect lacks gives the lemma.
    """
    if original_tag not in INFLECTED_TAGS:
        return replacement_lemma
    from lemminflect import getInflection  # here: a driver that never inflects need not import it (half a second)

    forms = getInflection(replacement_lemma, tag=original_tag)
    return forms[0] if forms else replacement_lemma
