"""The reading of the relevance construction (transforms/evaluation/relevance.py): every detail
the paper leaves open, as one frozen dataclass, so that readings can be built and compared.

Kept apart from the sparse algebra so that the command line can offer these choices without
loading SciPy.
"""
from dataclasses import dataclass, field

from transforms.errors import ConfigError

PROXIES = ("bow", "pos", "syn")
# How a caption's words are found: spaCy's tokens (punctuation dropped), or the caption split at
# each space as the authors' parse_dataframe.py does (punctuation stays on its word: "car.").
TOKENIZATIONS = ("spacy", "split")
# The stop lists: spaCy's English STOP_WORDS (326 words, spaCy 3.8; the authors' choice), or
# none. NLTK's list is not installed offline (only WordNet is), so it is not offered.
STOP_LISTS = ("spacy", "none")
# A video's side of a pair: "threshold": one set per video, the words in at least
# video_threshold of its captions (the paper's MSR-VTT rule); "caption-mean" / "caption-max":
# no video set, the mean / the maximum of the caption's IoU with each of the video's captions.
VIDEO_SETS = ("threshold", "caption-mean", "caption-max")
# syn with "threshold" video sets: a video's synsets are those of its captions that pass the
# threshold ("captions"), or its words that pass it, each given a Lesk sense with all of the
# video's captions as context ("video-context": a video table parsed as one text, the guess
# that brings SYN's random baseline near the paper's, docs/commands/ndcg.md).
SYN_VIDEO_SENSES = ("captions", "video-context")


@dataclass(frozen=True)
class Part:
    """A part of speech of the pos and syn proxies: spaCy's universal tags that count as it, its
    weight in the sum, and WordNet's part of speech for its synsets."""
    name: str
    tags: tuple
    weight: float
    wordnet_pos: str


# The paper's parts: verbs and nouns, 0.5 each. spaCy 3 tags auxiliaries ("is") AUX, not VERB.
DEFAULT_PARTS = (Part("verb", ("VERB",), 0.5, "v"), Part("noun", ("NOUN",), 0.5, "n"))


# The parts a reading may weigh, by the names the command line uses: spaCy's tag, WordNet's part of speech.
KNOWN_PARTS = {"verb": ("VERB", "v"), "noun": ("NOUN", "n"), "adjective": ("ADJ", "a"), "adverb": ("ADV", "r")}


def parts_from_weights(text: str, aux_as_verbs: bool = False) -> tuple:
    """Parts from "verb=0.5,noun=0.5"; `aux_as_verbs` counts spaCy's AUX ("is", "are") as verbs, as
    spaCy 2's English models (the authors') tagged them."""
    parts = []
    for item in (piece.strip() for piece in text.split(",") if piece.strip()):
        name, _, weight = item.partition("=")
        if name not in KNOWN_PARTS:
            raise ConfigError(f"unknown part of speech {name!r}: choose from {', '.join(KNOWN_PARTS)}")
        try:
            value = float(weight)
        except ValueError:
            raise ConfigError(f"part of speech {item!r}: expected NAME=WEIGHT, as verb=0.5") from None
        tag, wordnet_pos = KNOWN_PARTS[name]
        tags = (tag, "AUX") if aux_as_verbs and name == "verb" else (tag,)
        parts.append(Part(name, tags, value, wordnet_pos))
    if not parts:
        raise ConfigError("no part of speech given: as verb=0.5,noun=0.5")
    return tuple(parts)


@dataclass(frozen=True)
class RelevanceReading:
    """One reading of the construction. The defaults are the reading whose random-ranking nDCG comes
    closest to the paper's (docs/commands/ndcg.md, calibration): the paper's text (PAPER_TEXT below)
    but for a 10% video threshold and the video's synsets chosen in its own context."""
    video_threshold: float = 0.1  # share of a video's captions a word must be in ("threshold" sets)
    video_sets: str = "threshold"  # one of VIDEO_SETS
    stop_list: str = "spacy"  # one of STOP_LISTS; bow only (the authors keep every verb and noun)
    tokens: str = "spacy"  # one of TOKENIZATIONS; bow only (pos and syn need spaCy's tags)
    lowercase: bool = True  # the authors compare words as written; MSR-VTT is nearly all lower case
    lemmas: bool = False  # spaCy's lemmas instead of the words as written (bow with spaCy tokens, pos)
    parts: tuple = field(default=DEFAULT_PARTS)  # pos and syn
    own_captions_one: bool = True  # a video's own captions have relevance 1, whatever their IoU
    syn_video_senses: str = "video-context"  # one of SYN_VIDEO_SENSES; syn with "threshold" video sets only

    def __post_init__(self):
        for name, value, allowed in (("video_sets", self.video_sets, VIDEO_SETS),
                                     ("stop_list", self.stop_list, STOP_LISTS),
                                     ("tokens", self.tokens, TOKENIZATIONS),
                                     ("syn_video_senses", self.syn_video_senses, SYN_VIDEO_SENSES)):
            if value not in allowed:
                raise ConfigError(f"relevance {name} {value!r}: choose from {', '.join(allowed)}")
        if not 0.0 <= self.video_threshold <= 1.0:
            raise ConfigError(f"relevance video threshold must be in [0, 1], not {self.video_threshold}")
        if self.lemmas and self.tokens == "split":
            raise ConfigError("relevance: lemmas come from spaCy's tokens; they cannot go with split tokens")
        if not self.parts or any(part.weight < 0 for part in self.parts):
            raise ConfigError("relevance: at least one part of speech, with weights of 0 or more")


# The paper's text as capclean reads it: a video's words are those in at least 25% of its captions
# (5 of 20), its synsets those of its captions that pass the same share.
PAPER_TEXT = RelevanceReading(video_threshold=0.25, syn_video_senses="captions")
