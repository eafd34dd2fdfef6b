"""The profile's word lists: the custom words, the mappings and the lists of misspellings."""
from dataclasses import dataclass, field
from importlib.resources import files

from dictionaries import resolve
from transforms.errors import CapcleanError

# codespell's list of common English misspellings (from Wikipedia's lists; the list is CC BY-SA 3.0).
CODESPELL_LIST = "codespell"


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


def _read_lines(path: str) -> list:
    try:
        return resolve(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise DictionaryFileError(f"cannot read word list {resolve(path)}: {error}") from None


def read_real_word_pairs(path: str) -> dict:
    """The reviewed real-word errors (real_word.py): `original -> replacement`, one pair a line, the original
    one word or two; blank lines and lines starting with # are skipped."""
    pairs = {}
    for number, line in enumerate(_read_lines(path), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        original, arrow, replacement = line.strip().partition(" -> ")
        if not arrow or not original or not replacement or len(original.split()) > 2 or " " in replacement:
            raise DictionaryFileError(f"{path}, line {number}: expected 'word -> word' or 'two words -> word', "
                                      f"got {line.strip()!r}")
        pairs[original] = replacement
    return pairs


# The first line of a reviewed list (`capclean vocab --reviewed`): what its lines mean, and the mark of a file
# capclean wrote (pipelines/cleaning/commands/vocab.py overwrites no other file).
REVIEWED_LIST_HEADER = ("# capclean vocab --reviewed: 'token -> replacement' corrects the token (rule reviewed); "
                        "'word -> word' keeps the word as written")


@dataclass(frozen=True)
class ReviewedList:
    """A person's verdicts on step II's tokens: corrections to make everywhere, and words to accept as written."""
    fixes: dict  # token -> replacement (one word, or words split by single spaces)
    keeps: tuple  # words of the vocabulary, sorted

    def lines(self) -> list:
        """The list as written (read_reviewed_list reads it back): the header, then one pair a line by token."""
        pairs = {**self.fixes, **{word: word for word in self.keeps}}
        return [REVIEWED_LIST_HEADER] + [f"{token} -> {pairs[token]}" for token in sorted(pairs)]


def read_reviewed_list(path: str) -> ReviewedList:
    """A reviewed list: `token -> replacement` corrects a token, `word -> word` keeps the word; blank lines
    and lines starting with # are skipped."""
    fixes, keeps = {}, []
    for number, line in enumerate(_read_lines(path), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        token, arrow, replacement = line.strip().partition(" -> ")
        if not arrow or not token or not replacement or " " in token:
            raise DictionaryFileError(f"{path}, line {number}: expected 'token -> replacement' or 'word -> word', "
                                      f"got {line.strip()!r}")
        if token == replacement:
            keeps.append(token)
        else:
            fixes[token] = replacement
    return ReviewedList(fixes, tuple(sorted(keeps)))


def read_reviewed_lists(paths: tuple) -> ReviewedList:
    """The reviewed lists of the profile in order: a later list's verdict on a token replaces an earlier one's."""
    verdicts = {}
    for path in paths:
        reviewed = read_reviewed_list(path)
        verdicts.update({**reviewed.fixes, **{word: word for word in reviewed.keeps}})
    return ReviewedList({token: to for token, to in verdicts.items() if token != to},
                        tuple(sorted(token for token, to in verdicts.items() if token == to)))
def read_confusions(path: str) -> dict:
    """The reviewed confusions (confusions.py): `word -> alternative, alternative`, one word a line; blank
    lines and lines starting with # are skipped."""
    confusions = {}
    for number, line in enumerate(_read_lines(path), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        word, arrow, alternatives = line.strip().partition(" -> ")
        words = tuple(alternative.strip() for alternative in alternatives.split(","))
        if not arrow or not word or " " in word or not all(words) or any(" " in each for each in words):
            raise DictionaryFileError(f"{path}, line {number}: expected 'word -> word, word', got {line.strip()!r}")
        confusions[word] = words
    return confusions


@dataclass(frozen=True)
class WordLists:
    """The profile's word lists: small, so read once where the pipeline is built and shipped with it."""
    custom_words: tuple
    british: dict
    splits: dict
    misspellings: dict  # curated corrections of the corpus's frequent misspellings
    plural_readings: dict  # run-together possessives that are plurals in some contexts ("mens" -> "men")
    # A general list: the last resort (transforms/spelling/decisions.py, correct_from_list).
    common_misspellings: dict = field(default_factory=dict)
    # Reviewed real-word errors ("preforms" -> "performs", "out doors" -> "outdoors"; real_word.py).
    real_words: dict = field(default_factory=dict)
    # A person's corrections from reviewed lists (`capclean vocab --reviewed`); the words they keep are in
    # custom_words.
    reviewed: dict = field(default_factory=dict)
    # Reviewed confusions decided by a bigram model ("taking" -> "talking"; confusions.py).
    confusions: dict = field(default_factory=dict)

    @classmethod
    def read(cls, config) -> "WordLists":
        reviewed = read_reviewed_lists(config.reviewed)
        return cls((read_word_list(config.custom_words) if config.custom_words else ()) + reviewed.keeps,
                   read_mapping(config.british_to_american), read_mapping(config.splits),
                   read_mapping(config.misspellings) if config.misspellings else {},
                   read_mapping(config.plural_readings) if config.plural_readings else {},
                   read_common_misspellings(config.common_misspellings) if config.common_misspellings else {},
                   read_real_word_pairs(config.real_words) if config.real_words else {},
                   reviewed.fixes,
                   read_confusions(config.confusions) if config.confusions else {})

    @property
    def mappings(self) -> tuple:
        """(rule, mapping) in the order they apply: a person's reviewed corrections first (their verdict on the
        token as written stands), then the published two, then the curated misspellings."""
        return (("reviewed", self.reviewed), ("british", self.british), ("split", self.splits),
                ("vocabulary", self.misspellings))

    @property
    def mapped(self) -> frozenset:
        """The words a mapping rewrites ("grey", "tshirt"): never a correction's result, since cleaning
        the output again would rewrite them."""
        return frozenset(key for _, mapping in self.mappings for key in mapping)
