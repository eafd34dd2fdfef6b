"""METEOR between captions, equal to NLTK's `meteor_score`, fast enough for MSR-VTT's test split.

Wray, Doughty and Damen ("On Semantic Similarity in Video Retrieval", CVPR 2021) take METEOR as
NLTK computes it as one of their relevance proxies (MET). NLTK 3.10 scores one pair of captions in
about 0.7 ms (docs/evaluation/meteor.md), nearly all of it spent stemming words and looking them up
in WordNet, again for every pair. Here every vocabulary word is stemmed and looked up once: a
caption becomes integer ids, and a pair is matched on those ids alone.

NLTK's algorithm, which this module follows step by step (default parameters alpha 0.9, beta 3,
gamma 0.5):

1. Both token lists are lower-cased.
2. Exact stage: words equal on both sides are matched. Going through the hypothesis from its last
   word to its first, each word takes the last still-free reference word equal to it.
3. Stem stage: the words left on both sides are replaced by their Porter stems and matched the
   same way, on stems.
4. Synonym stage: going through the hypothesis's remaining stems from last to first, each takes
   the last free reference stem that is the name of a WordNet lemma (without "_") of one of the
   synsets NLTK's `wordnet.synsets(stem)` gives. The reference side is compared by its stems,
   not its words, as NLTK does it (its stem stage hands the stemmed lists on).
5. With m matches, P = m / hypothesis length, R = m / reference length,
   F = P R / (alpha P + (1 - alpha) R); the matches sorted by hypothesis position form chunks
   (runs consecutive on both sides), and the score is F (1 - gamma (chunks / m) ** beta),
   0 without a match.
6. Against several references, the best score (the max).

Captions are tokenised by whitespace, as the authors' released code had NLTK do it (NLTK 3.5
split the string it was given; NLTK 3.10 wants the tokens).
"""
from dataclasses import dataclass

from nltk.corpus.reader.wordnet import WordNetCorpusReader
from nltk.stem.porter import PorterStemmer


@dataclass(frozen=True)
class MeteorParameters:
    """NLTK's defaults: the weight of precision against recall, and the fragmentation penalty's shape and weight."""
    alpha: float = 0.9
    beta: float = 3.0
    gamma: float = 0.5


@dataclass(frozen=True)
class EncodedCaption:
    """A caption as ids, with what matching it needs computed once.

    words, stems: the id of each token and of its stem. stem_positions: where each stem occurs
    (ascending); stem_set: its keys, a frozenset (intersected faster). mixed_stems: the stems that
    stand for more than one word here ("play", "plays"), the only groups where the exact stage and
    the stem stage differ. synonym_reach: every stem that is a synonym (not itself) of one of this
    caption's stems.
    """
    words: tuple
    stems: tuple
    stem_positions: dict
    stem_set: frozenset
    mixed_stems: frozenset
    synonym_reach: frozenset


class MeteorLexicon:
    """Every word's id and stem id, and every stem's WordNet synonyms as stem ids, each computed once.

    Ids are given as words and stems are first seen. A synonym is kept as the id of the string it
    spells in the stem table, so a reference stem matches a synonym when their ids are equal.
    """

    def __init__(self, wordnet: WordNetCorpusReader, stemmer=None):
        self._wordnet = wordnet
        self._stemmer = stemmer or PorterStemmer()
        self._word_ids = {}      # lower-cased word -> id
        self._stem_of_word = []  # word id -> stem id
        self._stem_ids = {}      # stem, or a synonym's name -> id
        self._synonyms = {}      # stem id -> frozenset of the other stem ids it may match in the synonym stage

    def encode(self, caption: str) -> EncodedCaption:
        """The caption's whitespace tokens, lower-cased, as ids."""
        words = tuple(self._word_id(token.lower()) for token in caption.split())
        stems = tuple(self._stem_of_word[word] for word in words)
        stem_positions = {}
        for position, stem in enumerate(stems):
            stem_positions.setdefault(stem, []).append(position)
        mixed = frozenset(stem for stem, positions in stem_positions.items()
                          if len({words[position] for position in positions}) > 1)
        reach = frozenset().union(*(self._synonyms[stem] for stem in stem_positions))
        return EncodedCaption(words, stems, stem_positions, frozenset(stem_positions), mixed, reach)

    def synonyms(self, stem: int) -> frozenset:
        """The other stems a hypothesis stem matches in the synonym stage."""
        return self._synonyms[stem]

    def _word_id(self, word: str) -> int:
        word_id = self._word_ids.get(word)
        if word_id is None:
            word_id = self._word_ids[word] = len(self._word_ids)
            self._stem_of_word.append(self._stem_with_synonyms(self._stemmer.stem(word)))
        return word_id

    def _stem_with_synonyms(self, stem: str) -> int:
        stem_id = self._string_id(stem)
        if stem_id not in self._synonyms:
            # NLTK's synonym set of a hypothesis stem: the lemma names without "_" of its synsets, and
            # the stem itself. The stem itself never matches in the synonym stage (the stem stage used up equal stems
            # on one side), so it is left out and a caption's synonym_reach stays a quick test.
            names = {lemma.name() for synset in self._wordnet.synsets(stem) for lemma in synset.lemmas()}
            self._synonyms[stem_id] = frozenset(
                self._string_id(name) for name in names if "_" not in name) - {stem_id}
        return stem_id

    def _string_id(self, text: str) -> int:
        return self._stem_ids.setdefault(text, len(self._stem_ids))


def align(hypothesis: EncodedCaption, reference: EncodedCaption, lexicon: MeteorLexicon) -> list:
    """NLTK's alignment: (hypothesis position, reference position) pairs, sorted by hypothesis position.

    The exact and stem stages only pair words of one stem, so they run stem by stem; the synonym
    stage runs only when a reference stem is a synonym of one of the hypothesis's.
    """
    matches = []
    for stem in hypothesis.stem_set & reference.stem_set:
        hyp_positions = hypothesis.stem_positions[stem]
        ref_positions = reference.stem_positions[stem]
        if len(hyp_positions) == 1 and len(ref_positions) == 1:  # the usual case, taken first for speed
            matches.append((hyp_positions[0], ref_positions[0]))
        elif stem in hypothesis.mixed_stems or stem in reference.mixed_stems:
            matches += _exact_then_stem(hyp_positions, ref_positions, hypothesis.words, reference.words)
        else:
            # One word a side: whether equal (exact stage) or only of one stem (stem stage), paired from the end.
            matches += _pair_from_the_end(hyp_positions, ref_positions)
    if not hypothesis.synonym_reach.isdisjoint(reference.stem_set):
        matches += _synonym_matches(hypothesis, reference, lexicon, matches)
    matches.sort()
    return matches


def _pair_from_the_end(hyp_positions: list, ref_positions: list) -> list:
    """NLTK walks the hypothesis backwards and gives each word the last free equal reference word,
    so the k-th last free occurrence on one side meets the k-th last on the other."""
    count = min(len(hyp_positions), len(ref_positions))
    return list(zip(hyp_positions[len(hyp_positions) - count:], ref_positions[len(ref_positions) - count:]))


def _exact_then_stem(hyp_positions: list, ref_positions: list, hyp_words: tuple, ref_words: tuple) -> list:
    """One stem's occurrences: equal words paired first (exact stage), then what is left (stem stage)."""
    pairs = []
    for word in {hyp_words[i] for i in hyp_positions} & {ref_words[j] for j in ref_positions}:
        pairs += _pair_from_the_end([i for i in hyp_positions if hyp_words[i] == word],
                                    [j for j in ref_positions if ref_words[j] == word])
    hyp_taken = {i for i, _ in pairs}
    ref_taken = {j for _, j in pairs}
    return pairs + _pair_from_the_end([i for i in hyp_positions if i not in hyp_taken],
                                      [j for j in ref_positions if j not in ref_taken])


def _synonym_matches(hypothesis: EncodedCaption, reference: EncodedCaption, lexicon: MeteorLexicon,
                     earlier: list) -> list:
    """The synonym stage: free hypothesis stems from the last, each taking the last free reference stem among
    its synonyms. Greedy, as in NLTK: an earlier choice can take a later one's only match."""
    hyp_taken = {i for i, _ in earlier}
    ref_taken = {j for _, j in earlier}
    # Only the free reference stems some hypothesis stem reaches can be taken: usually one or two.
    reach = hypothesis.synonym_reach
    ref_free = [j for j in range(len(reference.stems)) if j not in ref_taken and reference.stems[j] in reach]
    pairs = []
    for i in range(len(hypothesis.stems) - 1, -1, -1):
        if not ref_free:
            break
        if i in hyp_taken:
            continue
        synonyms = lexicon.synonyms(hypothesis.stems[i])
        for index in range(len(ref_free) - 1, -1, -1):
            if reference.stems[ref_free[index]] in synonyms:
                pairs.append((i, ref_free.pop(index)))
                break
    return pairs


def count_chunks(matches: list) -> int:
    """Runs of matches consecutive on both sides (matches sorted by hypothesis position); 1 when empty, as NLTK."""
    chunks = 1
    for (i, j), (next_i, next_j) in zip(matches, matches[1:]):
        if not (next_i == i + 1 and next_j == j + 1):
            chunks += 1
    return chunks


def meteor_from_counts(matches: int, chunks: int, hypothesis_length: int, reference_length: int,
                       parameters: MeteorParameters = MeteorParameters()) -> float:
    """NLTK's formula, its operations in its order (so the floats agree to the last bit); 0 without a match."""
    if matches == 0:
        return 0.0
    precision = float(matches) / hypothesis_length
    recall = float(matches) / reference_length
    fmean = (precision * recall) / (parameters.alpha * precision + (1 - parameters.alpha) * recall)
    fragmentation = float(chunks) / matches
    penalty = parameters.gamma * fragmentation ** parameters.beta
    return (1 - penalty) * fmean


def single_meteor(reference: EncodedCaption, hypothesis: EncodedCaption, lexicon: MeteorLexicon,
                  parameters: MeteorParameters = MeteorParameters()) -> float:
    """NLTK's single_meteor_score(reference, hypothesis), argument order kept."""
    matches = align(hypothesis, reference, lexicon)
    return meteor_from_counts(len(matches), count_chunks(matches), len(hypothesis.words),
                              len(reference.words), parameters)


def meteor(references: list, hypothesis: EncodedCaption, lexicon: MeteorLexicon,
           parameters: MeteorParameters = MeteorParameters()) -> float:
    """NLTK's meteor_score(references, hypothesis): the best score over the references."""
    return max(single_meteor(reference, hypothesis, lexicon, parameters) for reference in references)
