"""Step III: near-duplicate captions within a video.

s(a, b) = 0.5 * (m / len(a) + m / len(b)), m the longest common subsequence of
the two word lists, where two words are equal when their Levenshtein distance is
at most e. Grouping is greedy in sen_id order; each group keeps its longest
caption (in characters, the first on ties).

With `keep_details` (the default profile) a caption is removed only when it adds nothing
to the caption kept: one holding a detail the kept caption lacks (a content word, a
number, a person word: transforms/details.py) stays, and the group keeps the caption that
leaves the fewest of its members standing for their details (then the longest).

A removed caption's row holds what step III decided, as columns (schemas/tables.py):
the caption kept for its group (`kept_sen_id`), the group's opener, the caption it
was compared with and their similarity, e, s and the pass; its `reason` says the
same in a sentence for people. When step III runs more than once on
a video (until_stable, again after step IV, in the recheck rounds), a caption
kept in one pass can be removed in a later one; `name_final_keepers`, applied
once to the whole lineage when it is written, hands such a group on to the
caption that finally stands for it.
"""
from dataclasses import dataclass, replace

from rapidfuzz.distance import LCSseq, Levenshtein
from rapidfuzz.process import cdist

from transforms import lineage
from transforms.errors import ConfigError
from transforms.step import Step

STEP = "dedup"


@dataclass(frozen=True)
class DedupSettings:
    edit_threshold: int = 0  # e: words within this Levenshtein distance count as equal
    similarity_threshold: float = 0.85  # s: a pair at or above it is a duplicate
    # Group again on the kept captions until nothing is removed, and again on the videos step IV
    # shortened, so that the output has no near-duplicate pair left (greedy grouping is not
    # transitive). The paper grouped once.
    until_stable: bool = False
    # Remove a caption only when it holds no detail the caption kept lacks, and keep the group's caption
    # that holds the most of its members' details (transforms/details.py). The paper kept the longest.
    keep_details: bool = False

    def __post_init__(self):
        if self.edit_threshold < 0:
            raise ConfigError("dedup.edit_threshold (e) must be >= 0")
        if not 0.0 < self.similarity_threshold <= 1.0:
            raise ConfigError("dedup.similarity_threshold (s) must be in (0, 1]")


def common_words(a: list, b: list, edit_threshold: int) -> int:
    """Length of the longest common subsequence of two word lists, words equal within the edit threshold."""
    if edit_threshold == 0:
        return LCSseq.similarity(a, b)  # exact word equality: rapidfuzz's C implementation
    return CloseWords([a, b], edit_threshold).common_words(0, 1)


class CloseWords:
    """Which words of a video's captions are within the edit threshold of each other, computed once per video.

    All word distances come from one rapidfuzz `cdist` over the video's vocabulary;
    each caption then keeps, per vocabulary word, a bit mask of its positions
    holding a close word, which is what the bit-parallel LCS below consumes.
    """

    def __init__(self, word_lists: list, edit_threshold: int):
        import numpy as np  # here, not above: the command line lists the steps without loading numpy

        vocabulary = sorted({word for words in word_lists for word in words})
        index = {word: number for number, word in enumerate(vocabulary)}
        distances = cdist(vocabulary, vocabulary, scorer=Levenshtein.distance, dtype=np.int32)
        close = distances <= edit_threshold
        self._word_ids = [[index[word] for word in words] for words in word_lists]
        self._lengths = [len(words) for words in word_lists]
        self._masks = [_position_masks(close[:, ids]) if ids else [] for ids in self._word_ids]

    def common_words(self, i: int, j: int) -> int:
        if not self._lengths[i] or not self._lengths[j]:
            return 0  # an empty caption has no masks
        masks_of_j = self._masks[j]
        return bit_parallel_lcs([masks_of_j[word] for word in self._word_ids[i]], self._lengths[j])


def _position_masks(close_to_positions) -> list:
    """Row w of a (vocabulary x positions) boolean numpy matrix -> an int with bit p set where word w is close to position p."""
    import numpy as np

    packed = np.packbits(close_to_positions, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


def bit_parallel_lcs(match_masks: list, length: int) -> int:
    """LCS length from, for each word of one sequence, the mask of matching positions in the other.

    The bit-vector algorithm of Allison and Dix (Hyyrö's form): it needs only the
    match matrix, so a fuzzy word equality gives the same result as the
    dynamic programme, one machine-word operation per word instead of per pair.
    """
    full = (1 << length) - 1
    row = full
    for matches in match_masks:
        kept = row & matches
        row = ((row + kept) | (row - kept)) & full
    return length - row.bit_count()


def caption_similarity(a: str, b: str, edit_threshold: int = 0) -> float:
    return pairwise_similarity([a, b], edit_threshold)(0, 1)


def pairwise_similarity(texts: list, edit_threshold: int):
    """similarity(i, j) of the video's captions i and j, with per-video precomputation.

    With e = 0 the common-word counts of every pair come from one rapidfuzz
    `cdist` call (in C: no Python call per pair); with e > 0 a pair's count comes
    from the bit-parallel LCS over the video's close-word masks when it is asked for.
    """
    word_lists = [text.split() for text in texts]
    if edit_threshold == 0:
        import numpy as np

        common = cdist(word_lists, word_lists, scorer=LCSseq.similarity, dtype=np.int32).tolist()
        common_words_of = lambda i, j: common[i][j]  # noqa: E731
    else:
        common_words_of = CloseWords(word_lists, edit_threshold).common_words

    def similarity(i, j):
        a, b = word_lists[i], word_lists[j]
        if not a or not b:
            return 0.0
        m = common_words_of(i, j)
        return 0.5 * (m / len(a) + m / len(b))

    return similarity


def similarity_matrix(texts_a: list, texts_b: list, workers: int = 1):
    """s(a, b) with e = 0 for every a of `texts_a` and b of `texts_b`, as a float matrix: the same
    similarity as `pairwise_similarity`, its common-word counts from one rapidfuzz `cdist` (in C),
    for comparisons across videos (`capclean overlap`'s false-negative candidates); a numpy array."""
    import numpy as np

    words_a, words_b = [text.split() for text in texts_a], [text.split() for text in texts_b]
    common = cdist(words_a, words_b, scorer=LCSseq.similarity, dtype=np.int32, workers=workers)
    lengths_a = np.array([len(words) for words in words_a], dtype=np.float64)[:, None]
    lengths_b = np.array([len(words) for words in words_b], dtype=np.float64)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        similarity = 0.5 * (common / lengths_a + common / lengths_b)
    similarity[(lengths_a == 0) | (lengths_b == 0) | np.isnan(similarity)] = 0.0
    return similarity


def group_near_duplicates(texts: list, edit_threshold: int, similarity_threshold: float) -> list:
    """Greedy groups of indexes into `texts`: the first ungrouped caption opens a group
    and takes every later ungrouped caption similar to it (not transitively).
    Each group is a list of (index, similarity to the opener), the opener first."""
    similarity_of = pairwise_similarity(texts, edit_threshold)
    grouped = [False] * len(texts)
    groups = []
    for opener in range(len(texts)):
        if grouped[opener]:
            continue
        group = [(opener, 1.0)]
        for other in range(opener + 1, len(texts)):
            if grouped[other]:
                continue
            similarity = similarity_of(opener, other)
            if similarity >= similarity_threshold:
                group.append((other, similarity))
                grouped[other] = True
        groups.append(group)
    return groups


def caption_to_keep(texts: list, group: list) -> int:
    """The longest caption of the group in characters; the first in sen_id order on ties."""
    return max(group, key=lambda member: (len(texts[member[0]]), -member[0]))[0]


def keepers_by_details(texts: list, group: list, details, edit_threshold: int) -> dict:
    """index -> the caption of the group it is removed in favour of, or itself when it stays, with the
    detail rule `details` (transforms.details.DetailRule). The group keeps the member that the fewest
    others hold a detail against (so the one holding every detail, when one does), then the longest,
    then the first; those with no detail it lacks go in its favour. The members that stay for a detail
    are decided again among themselves the same way, so that two copies of a caption that stays do not
    both stay. A word-for-word copy of a caption kept has no detail: it always goes."""
    if len(group) == 1:
        return {group[0][0]: group[0][0]}  # nearly every group: a caption alone keeps itself
    words = {index: texts[index].split() for index, _ in group}
    holds_detail = {}  # (member, candidate) -> whether member holds a detail candidate lacks

    def standing_beside(candidate, members):
        for member in members:
            if member != candidate and (member, candidate) not in holds_detail:
                holds_detail[member, candidate] = details.holds_detail(words[member], words[candidate],
                                                                       edit_threshold)
        return [member for member in members if member != candidate and holds_detail[member, candidate]]

    keeper_of, left = {}, [index for index, _ in group]
    while left:
        standing = {candidate: standing_beside(candidate, left) for candidate in left}
        kept = min(left, key=lambda index: (len(standing[index]), -len(texts[index]), index))
        keeper_of.update({member: kept for member in left if member not in standing[kept]})
        left = standing[kept]
    return keeper_of


def remove_near_duplicates(batch, edit_threshold: int, similarity_threshold: float, until_stable: bool = False,
                           details=None):
    """Step III on one video. With `until_stable`, the grouping runs again on the kept captions
    until it removes nothing: greedy grouping is not transitive, so once a group's opener
    has gone, two captions it kept can still be near-duplicates of each other, and a
    second cleaning of the output would remove them. With `details` (a DetailRule), a caption
    holding a detail the caption kept lacks stays (`keepers_by_details`); None: the paper's rule.

    Each removed row names the caption its pass kept; a later pass may remove that one
    too, and `name_final_keepers` (at the end of the pipeline) names the caption that stays."""
    previous, current, number = batch, _remove_once(batch, edit_threshold, similarity_threshold, 1, details), 1
    # A pass that removes nothing leaves the captions it was given, so the next pass would decide the same:
    # stop there (most videos stop after their first pass).
    while until_stable and len(current.captions) < len(previous.captions):
        number += 1
        previous, current = current, _remove_once(current, edit_threshold, similarity_threshold, number, details)
    return current


def stands_for(kept_id) -> str:
    """The words of a reason that name the caption standing for the group."""
    return f"sen_id {kept_id}, which stands for"


# How a reason ends: the group keeps its longest caption (then, if handed on, why another stands for it).
KEEPS_LONGEST = "the group keeps its longest caption"
# With keep_details: which caption the group keeps, then what the removed caption has that the kept one lacks.
KEEPS_DETAILS = "the group keeps the caption that holds the details of the most of its captions, then its longest"


def lacking_words_said(lacking: list) -> str:
    """The end of a keep_details reason: the removed caption's words the caption kept lacks, none a detail."""
    if not lacking:
        return "it has no word the caption kept lacks"
    return "the words it has that the caption kept lacks, none a detail: " + " ".join(lacking)


def removal_reason(kept_id, opener_id, similarity, removed_id, edit_threshold, similarity_threshold, number,
                   lacking=None) -> str:
    """Why step III removed `removed_id`: the caption kept for its group first, then how it was grouped.
    `lacking`: with keep_details, the removed caption's words the caption kept lacks (None: the paper's rule)."""
    again = f"; pass {number}, on the captions earlier passes kept" if number > 1 else ""
    settings = f"e={edit_threshold}, s={similarity_threshold}{again}"
    keeps = KEEPS_LONGEST if lacking is None else f"{KEEPS_DETAILS}; {lacking_words_said(lacking)}"
    if removed_id == opener_id:
        return f"opened the near-duplicate group of {stands_for(kept_id)} it; {settings}; {keeps}"
    return (f"near-duplicate of {stands_for(kept_id)} its group; similarity {similarity:.3f} to the group's opener, "
            f"sen_id {opener_id}; {settings}; {keeps}")


def handed_on(reason: str, kept_id, final_id) -> str:
    """A reason written when `kept_id` was kept, once a later pass or stage removed it and `final_id` stands
    for the group instead."""
    return (reason.replace(stands_for(kept_id), stands_for(final_id), 1)
            + f" (sen_id {kept_id}, kept at first, was removed later as a near-duplicate)")


def _remove_once(batch, edit_threshold: int, similarity_threshold: float, number: int, details=None):
    texts = [caption.text for caption in batch.captions]
    keep, removed = set(), []
    for group in group_near_duplicates(texts, edit_threshold, similarity_threshold):
        if details is None:
            kept = caption_to_keep(texts, group)
            keeper_of = {index: kept for index, _ in group}
        else:
            keeper_of = keepers_by_details(texts, group, details, edit_threshold)
        keep.update(index for index, kept in keeper_of.items() if index == kept)
        removed += [near_duplicate_row(batch, group, index, keeper_of[index], edit_threshold, similarity_threshold,
                                       number, details)
                    for index, _ in group if keeper_of[index] != index]
    captions = [caption for index, caption in enumerate(batch.captions) if index in keep]
    return replace(batch, captions=captions, removed=batch.removed + removed)


def near_duplicate_row(batch, group: list, index: int, kept: int, edit_threshold: int, similarity_threshold: float,
                       number: int, details=None):
    """The removed/ row of the group's caption `index`, removed in favour of caption `kept` by pass `number`."""
    caption, opener_id, kept_id = batch.captions[index], batch.captions[group[0][0]].sen_id, batch.captions[kept].sen_id
    compared, similarity = compared_with(group, index, kept)
    lacking = None if details is None else details.lacking(
        caption.text.split(), batch.captions[kept].text.split(), edit_threshold)
    reason = removal_reason(kept_id, opener_id, similarity, caption.sen_id, edit_threshold, similarity_threshold,
                            number, lacking)
    return lineage.removed(batch, caption.sen_id, caption.text, STEP, reason, kept_sen_id=kept_id,
                           opener_sen_id=opener_id, compared_sen_id=batch.captions[compared].sen_id,
                           similarity=similarity, edit_threshold=edit_threshold,
                           similarity_threshold=similarity_threshold, dedup_pass=number)


def compared_with(group: list, index: int, kept: int) -> tuple:
    """(the group member that member `index` is compared with, their similarity). A caption that joined the
    group is compared with the opener: that similarity let it in. The opener, which nothing let in, is
    compared with the caption kept: their similarity is what made the group."""
    opener = group[0][0]
    similarity_to_opener = dict(group)
    if index == opener:
        return kept, similarity_to_opener[kept]
    return opener, similarity_to_opener[index]


def final_keeper(kept_id, keeper_of: dict):
    """Follow the chain of keepers (each removed later in favour of the next) to the caption that stays."""
    seen = set()
    while kept_id in keeper_of and kept_id not in seen:  # `seen`: a cycle cannot arise, but must not hang
        seen.add(kept_id)
        kept_id = keeper_of[kept_id]
    return kept_id


def name_final_keepers(batch):
    """The video with every near-duplicate row naming the caption that stands for its group in the output.

    Step III can run several times on a video (until_stable's passes, again after step IV, in
    each recheck round): a caption kept in one pass (A removed in favour of B) can be removed
    in a later one (B in favour of C). Every row of the chain then names C, in `kept_sen_id`
    and in its reason. Run once, on the whole lineage, where it is written; the rows of the
    other steps are left as they are.
    """
    keeper_of = {row.sen_id: row.kept_sen_id for row in batch.removed if row.step == STEP}
    if not any(kept in keeper_of for kept in keeper_of.values()):
        return batch  # no chain: nearly every video
    rows = []
    for row in batch.removed:
        if row.step == STEP and row.kept_sen_id in keeper_of:
            final = final_keeper(row.kept_sen_id, keeper_of)
            row = replace(row, kept_sen_id=final, reason=handed_on(row.reason, row.kept_sen_id, final))
        rows.append(row)
    return replace(batch, removed=rows)


def remove_near_duplicates_with(batch, settings: DedupSettings):
    details = None
    if settings.keep_details:
        from transforms.details import detail_rule  # the word lists, and WordNet when a word needs it

        details = detail_rule()
    return remove_near_duplicates(batch, settings.edit_threshold, settings.similarity_threshold, settings.until_stable,
                                  details)


class Dedup(Step):
    """Step III: near-duplicate captions within a video."""
    name = STEP
    summary = "near-duplicate captions of a video removed"
    Settings = DedupSettings

    def __init__(self, config):
        super().__init__(config)
        if self.settings.keep_details:
            from transforms.details import check_wordnet

            check_wordnet()

    def process(self, video):
        return remove_near_duplicates_with(video, self.settings)
