"""Step II's configuration section (`spelling:` in a profile), checked when it is built."""
from dataclasses import dataclass

from transforms.errors import ConfigError


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
    # Reviewed lists written by `capclean vocab --reviewed` (relative to `dictionaries/` unless absolute), in
    # order: each `token -> replacement` corrects every occurrence of the token (rule `reviewed`, before the
    # other mappings), each `word -> word` adds the word to the vocabulary (docs/steps/spelling.md).
    reviewed: tuple = ()
    # Extra vocabularies in Hunspell's .dic format (relative to `dictionaries/`),
    # added whole so that Hunspell itself accepts their words and affixed forms.
    vocabulary: tuple = ()
    # `first`: Hunspell's first suggestion, as published.
    # `first_plain`: the first suggestion made only of letters, digits and spaces
    # (no apostrophes or hyphens that the caption did not have).
    # `ranked`: capclean's rule (ranked.py, RankedCorrection), with the options below.
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
    # Possessive, plural or singular read from the neighbours for every form of `plural_readings`, also the
    # ones Hunspell accepts ("mans"): "two mans are" -> men, "a mans is" -> man, "a mans hand" -> man s
    # (transforms/spelling/possessive.py).
    possessives: bool = False
    # Real-word errors: reviewed pairs (relative to `dictionaries/`; "" = none) of a word Hunspell accepts,
    # or two words, that the corpus almost always writes for another ("preforms -> performs", "out doors ->
    # outdoors"), each occurrence decided from its neighbours (transforms/spelling/real_word.py).
    real_words: str = ""
    real_word_min_support: int = 3  # the corpus writes the replacement beside the neighbours this often
    real_word_margin: float = 3.0  # ...and no neighbour fits the word as written this many times better
    # Compounds written apart ("some one", "game play", "in to the blender", "her make up"): two words whose join
    # the dictionary accepts and the corpus writes compound_min_ratio times more often joined (and at least
    # compound_min_count times), joined where a bigram model of the corpus makes the joined reading
    # compound_margin times likelier between the neighbours; and two nouns whose join general English
    # (wordfreq) and the corpus write solid ("hill side", "hand gun"; transforms/spelling/compounds.py).
    compounds: bool = False
    compound_min_ratio: float = 1.5
    compound_min_count: int = 10
    compound_margin: float = 3.0
    # Confusions: reviewed words (relative to `dictionaries/`; "" = none) used rightly most of the time but also
    # written for a word one edit away ("taking" for "talking"), each occurrence changed where a bigram model of
    # the corpus makes the other word confusion_margin times likelier (transforms/spelling/confusions.py).
    confusions: str = ""
    confusion_margin: float = 150.0
    # Number agreement: "a women is" -> woman, "two man are" -> men, "some guy s are" -> guys
    # (transforms/spelling/agreement.py).
    number_agreement: bool = False
    # A split or join whose first or last word repeats its neighbour drops it ("warand and" -> "war and").
    drop_doubled_words: bool = False
    # A token that begins a name the corpus writes min_name_count times is a clipping of it ("lambo"):
    # kept, never corrected (transforms/spelling/clippings.py).
    keep_name_clippings: bool = False
    context_max_distance: int = 1  # the context chooses only among candidates this close
    # ...and, for tokens of four letters or more, only a candidate one slip or one left-out letter away
    context_common_typos: bool = False
    # A ranked or context change of an uncommon typo shape (a consonant replaced, or two
    # edits neither of which is a slip) is made only when another caption of the same
    # clip writes the word; otherwise the token stays, flagged.
    clip_evidence: bool = False
    # A token the rules above leave flagged is corrected to a word another caption of the
    # same clip writes, when exactly one such word is a plausible misspelling of it
    # (close_in_clip in typos.py), and no other caption writes the token.
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
    # The learned gate over the ranked rule's corrections and flagged tokens (gate.py):
    # "" = none; `builtin` = the classifier versioned in gate_model/; or its folder.
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
        if (self.real_words or self.possessives or self.compounds or self.confusions or self.number_agreement) \
                and self.suggestion != "ranked":
            raise ConfigError("spelling.real_words, possessives, compounds, confusions and number_agreement need "
                              "spelling.suggestion: ranked (they read the corpus's counts)")
        if not 0.0 <= self.gate_threshold <= 1.0:
            raise ConfigError("spelling.gate_threshold must be in [0, 1]")
