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
from itertools import chain
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


def lexicon_words(tagged_captions) -> set:
    """(lemma, universal tag) of every word the negatives may change: alphabetic, of a part of speech
    that hard negatives change (PARTS_OF_SPEECH), as the first or second word of a phrase."""
    changed = set(PARTS_OF_SPEECH.values())
    return {(lemma, pos) for caption in tagged_captions
            for token, pos, lemma in zip(caption.tokens, caption.pos, caption.lemmas)
            if pos in changed and token.isalpha()}


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


def change_of(replacements) -> tuple:
    """A candidate negative as (positions, words, source): the replacements' positions and words, and the
    weakest of their sources (the last in SOURCES' order of priority)."""
    return (tuple(replacement.position for replacement in replacements),
            tuple(replacement.word for replacement in replacements),
            max((replacement.source for replacement in replacements), key=SOURCES.index))


def word_candidates(caption, positions: list, lexicon, rng: random.Random) -> list:
    """The changes of one word of `positions` to an antonym or a related antonym, in priority order."""
    candidates = []
    for position in positions:
        token = caption.tokens[position]
        antonyms, related = lexicon.inflected_antonyms(caption.lemmas[position], caption.pos[position],
                                                       caption.tags[position])
        candidates += [((position,), (styled_like(token, word),), "antonym") for word in antonyms]
        candidates += [((position,), (styled_like(token, word),), "related_antonym") for word in related]
    # In a random order within each source: WordNet's order is alphabetical, and K of many
    # antonyms of hyponyms would otherwise all start with "a".
    rng.shuffle(candidates)
    candidates.sort(key=lambda change: SOURCES.index(change[2]))
    return candidates


def draw_word_negatives(picked, caption_text, positions: list, choices: tuple, rng: random.Random, lexicon,
                        draws: int) -> None:
    """Up to `draws` random changes of one word of `positions` to a vocabulary word (`choices`), inflected
    like it, each offered to `picked` (a NegativePicker) until it is full; a draw that gives the word its own
    lemma is spent for nothing. (vocabulary_replacement and NegativePicker.offer_all, unrolled: a split makes
    millions of these draws.) Each pick is rng.choice's, inlined: CPython's Random.choice takes
    getrandbits of the length's bit count, again while too large (_randbelow_with_getrandbits), so the
    same seed gives the same words; a test checks it against rng.choice."""
    getrandbits = rng.getrandbits
    position_count, position_bits = len(positions), len(positions).bit_length()
    choice_count, choice_bits = len(choices), len(choices).bit_length()
    # What a draw at each position reads, looked up once: its lemma, the lexicon's forms for its tag, and
    # the caption's text around it.
    slots = [caption_text.slot(position, lexicon) for position in positions]
    seen, texts, changed, words, wanted = picked.seen(), picked.texts, picked.positions, picked.replacements, picked.k
    inflect, found = lexicon.inflect, len(texts)
    for _ in range(draws):
        index = getrandbits(position_bits)
        while index >= position_count:
            index = getrandbits(position_bits)
        position, own_lemma, tag, forms, capitalised, before, after = slots[index]
        index = getrandbits(choice_bits)
        while index >= choice_count:
            index = getrandbits(choice_bits)
        lemma = choices[index]
        if lemma == own_lemma:
            continue
        word = forms.get(lemma) or inflect(lemma, tag)
        if capitalised:  # styled_like, unrolled
            word = word.capitalize()
        text = before + word + after
        key = " ".join(text.lower().split())  # same_text(text), inlined
        if key in seen:
            continue
        seen.add(key)
        texts.append(text)
        changed.append(position)
        words.append(word)
        if len(texts) >= wanted:
            break
    drawn = len(texts) - found
    picked.sources += ["vocabulary"] * drawn
    picked.widths += [1] * drawn


def word_negatives(caption, part: str, lexicon, vocabulary: dict, settings: HardnegSettings,
                   video_texts: frozenset, columns=None, caption_text=None):
    """Up to K negatives of `caption` that each change one word of `part`: antonyms first, then
    antonyms of hypernyms and hyponyms, then (when the part falls back) random vocabulary words.
    Added to `columns` (a NegativeColumns), or returned as Negatives when none is given."""
    positions = caption.positions_of(part)
    picked = NegativePicker(caption, settings.k, video_texts, caption_text)
    # Without a word of the part there is nothing to change, nor to draw: the generator is not even seeded.
    if positions:
        rng = caption_rng(settings.seed, caption.sen_id, part, "word")
        picked.offer_all(word_candidates(caption, positions, lexicon, rng))
        choices = vocabulary.get(PARTS_OF_SPEECH[part], ())
        if not picked.full() and part in settings.vocabulary_fallback and choices:
            draw_word_negatives(picked, picked.caption_text, positions, choices, rng, lexicon,
                                DRAWS_PER_NEGATIVE * settings.k)
    return picked.deliver(columns, caption, part, "word")


def phrase_negatives(caption, part: str, lexicon, vocabulary: dict, settings: HardnegSettings,
                     video_texts: frozenset, columns=None, caption_text=None):
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
                candidates.append(change_of([one, two]))
    rng = caption_rng(settings.seed, caption.sen_id, part, "phrase")
    rng.shuffle(candidates)
    candidates.sort(key=lambda change: SOURCES.index(change[2]))

    def draws():
        for _ in range(DRAWS_PER_NEGATIVE * settings.k):
            first, second = rng.choice(pairs)
            change = [vocabulary_replacement(caption, first, vocabulary, rng, lexicon),
                      vocabulary_replacement(caption, second, vocabulary, rng, lexicon)]
            yield change_of(change) if all(replacement is not None for replacement in change) else None

    picked = NegativePicker(caption, settings.k, video_texts, caption_text)
    picked.offer_all(candidates)
    if part in settings.vocabulary_fallback and pairs:
        picked.offer_all(draws())
    return picked.deliver(columns, caption, part, "phrase")


class NegativeColumns:
    """Negatives as flat columns, filled caption by caption: a split has millions of negatives, and an
    object (or a row) per negative cost more than making it (issue 41). What every negative of one
    caption, part and level shares is kept once, as a run (`runs`, with the run's negative count in
    `counts`); the changed words of all negatives follow one another in `positions` and `replacements`,
    `widths` saying how many each negative changed. pipelines/evaluation/hardneg/graph.py's
    negative_table makes the HARDNEG table of them; `records` the Negatives, for tests and small uses."""

    def __init__(self):
        self.runs = []  # (sen_id, video_id, part, level, caption, tokens) of each caption, part and level
        self.counts = []  # negatives of each run
        self.texts, self.sources, self.widths = [], [], []  # one per negative
        self.positions, self.replacements = [], []  # one per changed word

    def __len__(self) -> int:
        return len(self.texts)

    def add_picked(self, caption, part: str, level: str, picked: "NegativePicker") -> None:
        """The negatives of one caption, part and level, as a NegativePicker picked them."""
        self.runs.append((caption.sen_id, caption.video_id, part, level, caption.caption, caption.tokens))
        self.counts.append(len(picked.texts))
        self.texts += picked.texts
        self.sources += picked.sources
        self.widths += picked.widths
        self.positions += picked.positions
        self.replacements += picked.replacements

    def extend(self, other: "NegativeColumns") -> None:
        """Add another's negatives after these (the negatives of one output file, from many videos)."""
        for name, values in vars(other).items():
            getattr(self, name).extend(values)

    def records(self) -> list:
        """The negatives as Negative objects."""
        records, negative, word = [], 0, 0
        for (sen_id, video_id, part, level, caption, tokens), count in zip(self.runs, self.counts):
            for k in range(count):
                width = self.widths[negative]
                positions = tuple(self.positions[word:word + width])
                records.append(Negative(f"{sen_id}-{part}-{level}-{k}", sen_id, video_id, part, level, k,
                                        self.texts[negative], caption, positions,
                                        tuple(tokens[position] for position in positions),
                                        tuple(self.replacements[word:word + width]), self.sources[negative]))
                negative, word = negative + 1, word + width
        return records


class CaptionText:
    """A caption's text with some words changed, as TaggedCaption.text_with rebuilds it, but from the
    text before and after each word, joined once: a caption and part try up to 200 changes."""

    def __init__(self, caption):
        self._caption, self._spaces = caption, caption.spaces
        self._pieces = [token + " " if space else token for token, space in zip(caption.tokens, caption.spaces)]
        self._before = ["".join(self._pieces[:position]) for position in range(len(self._pieces))]
        self._after = [(" " if space else "") + "".join(self._pieces[position + 1:])
                       for position, space in enumerate(self._spaces)]

    def slot(self, position: int, lexicon) -> tuple:
        """What a vocabulary draw at a position reads (draw_word_negatives): the position, its lemma and Penn
        tag, the lexicon's forms for that tag, whether the word is capitalised, the text before and after it."""
        caption, tag = self._caption, self._caption.tags[position]
        return (position, caption.lemmas[position], tag, lexicon.forms(tag), caption.tokens[position][:1].isupper(),
                self._before[position], self._after[position])

    def with_words(self, positions: tuple, words: tuple) -> str:
        if len(positions) == 1:
            return self._before[positions[0]] + words[0] + self._after[positions[0]]
        pieces = self._pieces.copy()
        for position, word in zip(positions, words):
            pieces[position] = word + " " if self._spaces[position] else word
        return "".join(pieces)


class NegativePicker:
    """The first K distinct negatives of one caption, part and level, picked from the changes offered in
    priority order (candidates, then random draws): a change whose text reads as a caption of the video, or
    as a negative picked before (case and spacing aside), is passed over. What is picked is kept as
    NegativeColumns keeps it: texts and sources, the width of each change, its positions and words flat."""

    def __init__(self, caption, k: int, video_texts: frozenset, caption_text=None):
        self.k = k
        self.caption_text = caption_text or CaptionText(caption)
        self._video_texts, self._caption, self._seen = video_texts, caption.caption, None
        self.texts, self.sources, self.widths = [], [], []
        self.positions, self.replacements = [], []

    def full(self) -> bool:
        return len(self.texts) >= self.k

    def seen(self) -> set:
        """The texts a new negative may not read as (same_text): the video's captions, the caption itself and
        the negatives picked so far. Made at the first offer: most captions lack some part of speech."""
        if self._seen is None:
            self._seen = set(self._video_texts)
            self._seen.add(same_text(self._caption))
        return self._seen

    def offer_all(self, changes) -> None:
        """Offer changes ((positions, words, source), or None for a draw that failed) until K are picked."""
        if self.full():
            return
        text_with, seen = self.caption_text.with_words, self.seen()
        for change in changes:
            if change is None:
                continue
            positions, words, source = change
            text = text_with(positions, words)
            key = " ".join(text.lower().split())  # same_text(text), inlined: it runs for every change
            if key in seen:
                continue
            seen.add(key)
            self.texts.append(text)
            self.sources.append(source)
            self.widths.append(len(positions))
            self.positions += positions
            self.replacements += words
            if len(self.texts) >= self.k:
                return

    def deliver(self, columns, caption, part: str, level: str):
        """Add the negatives picked to `columns` (a NegativeColumns), or return them as Negatives when None."""
        if columns is not None:
            columns.add_picked(caption, part, level, self)
            return None
        made = NegativeColumns()
        made.add_picked(caption, part, level, self)
        return made.records()


def add_video_negatives(columns_of, tagged_captions, lexicon, vocabulary: dict, settings: HardnegSettings,
                        all_video_texts=None) -> None:
    """Every negative of one video's captions, added to `columns_of(caption)` (a NegativeColumns: the
    caller may keep one per output file). `all_video_texts`: the texts of every caption of the video
    (by default those given), none of which a negative may read as."""
    texts = all_video_texts if all_video_texts is not None else [caption.caption for caption in tagged_captions]
    video_texts = frozenset(same_text(text) for text in texts)
    build = {"word": word_negatives, "phrase": phrase_negatives}
    for caption in tagged_captions:
        columns, caption_text = columns_of(caption), CaptionText(caption)  # once for all its parts and levels
        for level in settings.levels:
            for part in settings.parts:
                build[level](caption, part, lexicon, vocabulary, settings, video_texts, columns, caption_text)


def video_negatives(tagged_captions, lexicon, vocabulary: dict, settings: HardnegSettings,
                    all_video_texts=None) -> list:
    """Every negative of one video's captions, as Negatives (add_video_negatives, in one NegativeColumns)."""
    columns = NegativeColumns()
    add_video_negatives(lambda caption: columns, tagged_captions, lexicon, vocabulary, settings, all_video_texts)
    return columns.records()
