"""Hard negatives: a caption with one word, or two consecutive words, changed.

Chen, Doughty, Li and Snoek (2024, "Beyond Coarse-Grained Matching in Video-Text
Retrieval") test whether a model sees a one-word change: for each caption and part of
speech, up to K negatives, each changing one word of that part of speech. "We prioritize
the antonym of word w, followed by the antonym of a hypernym or hyponym of the word.
Otherwise, we randomly select a word of the same part-of-speech from the dataset
vocabulary." A replacement takes the original word's form (plural, past tense, -ing),
and a negative never reads as a caption of the same video: that would be a false
negative, a text that does describe the video.

Everything here is a pure function of a tagged caption (transforms/evaluation/pos.py),
the lexicon (transforms/evaluation/lexicon.py), the vocabulary and the settings; the
random draws of a caption depend only on the seed and the caption, so the same seed
gives the same negatives whatever the runner and the order of the captions.
"""
import random
from collections import Counter
from dataclasses import dataclass

from transforms.evaluation.pos import PARTS_OF_SPEECH

LEVELS = ("word", "phrase")
# Where a replacement word comes from, in the paper's order of priority.
SOURCES = ("antonym", "related_antonym", "vocabulary")
# How many random draws a caption may spend looking for a new vocabulary negative, per one
# wanted: a draw can repeat an earlier negative or read as a caption of the video.
DRAWS_PER_NEGATIVE = 10


@dataclass(frozen=True)
class HardnegSettings:
    k: int = 20  # negatives per caption, part of speech and level
    parts: tuple = tuple(PARTS_OF_SPEECH)
    levels: tuple = ("word",)
    # The parts whose negatives may fall back to random words of the vocabulary when antonyms run out.
    vocabulary_fallback: tuple = tuple(PARTS_OF_SPEECH)
    # A word joins the vocabulary when its lemma is tagged with the part this many times:
    # rarer words are mostly misspellings and tagging errors.
    min_vocabulary_count: int = 5
    seed: int = 0


@dataclass(frozen=True)
class Replacement:
    position: int
    word: str  # as it stands in the negative: inflected like the original
    source: str  # one of SOURCES


@dataclass(frozen=True)
class Negative:
    negative_id: str
    sen_id: int
    video_id: str
    part: str
    level: str
    k: int
    text: str
    caption: str
    positions: tuple
    originals: tuple
    replacements: tuple
    source: str


def vocabulary_counts(tagged_captions) -> Counter:
    """(universal part-of-speech tag, lemma) -> how often the captions use it, alphabetic words only."""
    return Counter((pos, lemma) for caption in tagged_captions
                   for token, pos, lemma in zip(caption.tokens, caption.pos, caption.lemmas) if token.isalpha())


def vocabulary_from_counts(counts, min_count: int) -> dict:
    """Universal part-of-speech tag -> sorted lemmas seen with it at least `min_count` times."""
    vocabulary = {}
    for (pos, lemma), count in counts.items():
        if count >= min_count:
            vocabulary.setdefault(pos, []).append(lemma)
    return {pos: tuple(sorted(lemmas)) for pos, lemmas in vocabulary.items()}


def build_vocabulary(tagged_captions, min_count: int) -> dict:
    """The dataset vocabulary the fallback draws from: vocabulary_from_counts of these captions."""
    return vocabulary_from_counts(vocabulary_counts(tagged_captions), min_count)


def same_text(text: str) -> str:
    """A text as two captions are compared: case and spacing do not make a caption new."""
    return " ".join(text.lower().split())


def caption_rng(seed: int, sen_id: int, part: str, level: str) -> random.Random:
    # A string seed is hashed the same way in every process (unlike hash()), so the draws of a
    # caption do not depend on the worker that makes them.
    return random.Random(f"{seed}:{sen_id}:{part}:{level}")


def lexical_replacements(caption, position: int, lexicon) -> list:
    """The antonyms of the word, then the antonyms of its hypernyms and hyponyms, inflected like it.
    The lexicon (transforms/evaluation/lexicon.py) remembers its answers per lemma and part of speech."""
    lemma, pos, tag = caption.lemmas[position], caption.pos[position], caption.tags[position]
    found = [("antonym", word) for word in lexicon.antonyms(lemma, pos)]
    found += [("related_antonym", word) for word in lexicon.related_antonyms(lemma, pos)]
    return [Replacement(position, styled_like(caption.tokens[position], lexicon.inflect(word, tag)), source)
            for source, word in found]


def vocabulary_replacement(caption, position: int, vocabulary: dict, rng: random.Random, lexicon):
    """A random word of the vocabulary with the same part of speech, inflected like the original; None if none."""
    choices = vocabulary.get(caption.pos[position], ())
    if not choices:
        return None
    lemma = rng.choice(choices)
    if lemma == caption.lemmas[position]:
        return None
    word = lexicon.inflect(lemma, caption.tags[position])
    return Replacement(position, styled_like(caption.tokens[position], word), "vocabulary")


def styled_like(original: str, word: str) -> str:
    return word.capitalize() if original[:1].isupper() else word


def word_negatives(caption, part: str, lexicon, vocabulary: dict, settings: HardnegSettings,
                   video_texts: frozenset) -> list:
    """Up to K negatives of `caption` that each change one word of `part`: antonyms first, then
    antonyms of hypernyms and hyponyms, then (when the part falls back) random vocabulary words."""
    positions = caption.positions_of(part)
    candidates = [[replacement] for position in positions
                  for replacement in lexical_replacements(caption, position, lexicon)]
    rng = caption_rng(settings.seed, caption.sen_id, part, "word")
    # In a random order within each source: WordNet's order is alphabetical, and K of many
    # antonyms of hyponyms would otherwise all start with "a".
    rng.shuffle(candidates)
    candidates.sort(key=lambda change: SOURCES.index(change[0].source))

    def draws():
        if not positions:
            return [None]
        return [vocabulary_replacement(caption, rng.choice(positions), vocabulary, rng, lexicon)]

    return collect_negatives(caption, part, "word", candidates, draws, settings, video_texts)


def phrase_negatives(caption, part: str, lexicon, vocabulary: dict, settings: HardnegSettings,
                     video_texts: frozenset) -> list:
    """Up to K negatives that change two consecutive words: a word of `part` and the word after
    it when that is a noun, verb, adjective, adverb or preposition, each by the word-level rule."""
    content = set(PARTS_OF_SPEECH.values())
    pairs = [(position, position + 1) for position in caption.positions_of(part)
             if position + 1 < len(caption.tokens) and caption.tokens[position + 1].isalpha()
             and caption.pos[position + 1] in content]
    candidates = []
    for first, second in pairs:
        for one in lexical_replacements(caption, first, lexicon):
            for two in lexical_replacements(caption, second, lexicon):
                candidates.append([one, two])
    rng = caption_rng(settings.seed, caption.sen_id, part, "phrase")
    rng.shuffle(candidates)
    candidates.sort(key=lambda change: max(SOURCES.index(replacement.source) for replacement in change))

    def draws():
        if not pairs:
            return [None]
        first, second = rng.choice(pairs)
        return [vocabulary_replacement(caption, first, vocabulary, rng, lexicon),
                vocabulary_replacement(caption, second, vocabulary, rng, lexicon)]

    return collect_negatives(caption, part, "phrase", candidates, draws, settings, video_texts)


def collect_negatives(caption, part, level, candidates, draw_vocabulary, settings, video_texts) -> list:
    """The first K distinct negatives of the candidates (lists of replacements, in priority order),
    then of random vocabulary draws if the part falls back; none reads as a caption of the video."""
    negatives, seen = [], set(video_texts) | {same_text(caption.caption)}

    def add(change) -> None:
        text = caption.text_with({replacement.position: replacement.word for replacement in change})
        if same_text(text) in seen or len(negatives) >= settings.k:
            return
        seen.add(same_text(text))
        negatives.append(make_negative(caption, part, level, len(negatives), text, change))

    for change in candidates:
        add(change)
    if part in settings.vocabulary_fallback:
        for _ in range(DRAWS_PER_NEGATIVE * settings.k):
            if len(negatives) >= settings.k:
                break
            change = draw_vocabulary()
            if all(replacement is not None for replacement in change):
                add(change)
    return negatives


def make_negative(caption, part, level, k, text, change) -> Negative:
    return Negative(
        negative_id=f"{caption.sen_id}-{part}-{level}-{k}", sen_id=caption.sen_id, video_id=caption.video_id,
        part=part, level=level, k=k, text=text, caption=caption.caption,
        positions=tuple(replacement.position for replacement in change),
        originals=tuple(caption.tokens[replacement.position] for replacement in change),
        replacements=tuple(replacement.word for replacement in change),
        source=max((replacement.source for replacement in change), key=SOURCES.index),
    )


def video_negatives(tagged_captions, lexicon, vocabulary: dict, settings: HardnegSettings,
                    all_video_texts=None) -> list:
    """Every negative of one video's captions. `all_video_texts`: the texts of every caption of the
    video (by default those given), none of which a negative may read as."""
    texts = all_video_texts if all_video_texts is not None else [caption.caption for caption in tagged_captions]
    video_texts = frozenset(same_text(text) for text in texts)
    build = {"word": word_negatives, "phrase": phrase_negatives}
    return [negative for caption in tagged_captions for level in settings.levels for part in settings.parts
            for negative in build[level](caption, part, lexicon, vocabulary, settings, video_texts)]
