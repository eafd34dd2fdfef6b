"""The incremental recheck: which tokens a moved corpus figure reaches (transforms/spelling/reach.py), and a
round that decides again only those (transforms/recheck.py), on hand-made videos and hand-made figures."""
from types import SimpleNamespace

import pytest

from pipelines.config import load_config
from transforms.recheck import RecheckInMemory, Respell, respelled_ids
from transforms.spelling.reach import BEFORE_GATE, GATE, NOTHING_MOVED, MovedFigures, Reach

SETTINGS = SimpleNamespace(max_edit_distance=2, keep_name_clippings=False, split_before_words=("with",))
SUGGESTIONS = {"zerba": ("zebra", "jerba"), "tiegr": ("tiger", "tier")}  # as Hunspell suggests, lower case


def reach(gate=True, phrases=None, plural_readings=None, common_misspellings=None, **settings):
    """A Reach with the SETTINGS, and with a gate asking SUGGESTIONS unless `gate` is False."""
    config = SimpleNamespace(**{**vars(SETTINGS), **settings})
    suggestions = (lambda token: SUGGESTIONS.get(token, ())) if gate else None
    return Reach(config, phrases or {}, plural_readings or {}, common_misspellings or {}, suggestions)


def moved(tokens=(), phrases=()):
    return MovedFigures(tokens, phrases)


def test_the_moved_figures_are_the_words_and_phrases_whose_figures_differ():
    before = ({"tiger": (4, 2), "tigre": (1, 1), "cat": (9, 3)}, {"a tiger": 2, "the cat": 5})
    after = ({"tiger": (5, 2), "cat": (9, 3), "zebra": (1, 1)}, {"a tiger": 3, "the cat": 5, "tiger runs": 2})
    figures = MovedFigures.between(before, after)
    assert figures.tokens == {"tiger", "tigre", "zebra"}  # one more, one gone, one new
    assert figures.phrases == {"a tiger", "tiger runs"}
    assert figures.after == {"a": {"tiger"}, "tiger": {"runs"}} and figures.before == {"tiger": {"a"}, "runs": {"tiger"}}
    assert not MovedFigures.between(before, before) and not NOTHING_MOVED


def test_nothing_moved_reaches_no_token():
    assert reach().reaches("tiegr", "a", "sleeps", NOTHING_MOVED) is None


def test_the_token_and_its_dropped_g_are_read_before_the_gate_the_word_before_it_by_the_gate():
    assert reach().reaches("tiegr", "a", "sleeps", moved(tokens={"tiegr"})) == BEFORE_GATE
    assert reach().reaches("lookin", "a", "sleeps", moved(tokens={"looking"})) == BEFORE_GATE
    assert reach().reaches("tiegr", "huge", "sleeps", moved(tokens={"huge"})) == GATE  # its bigram fit
    assert reach(gate=False).reaches("tiegr", "huge", "sleeps", moved(tokens={"huge"})) is None
    assert reach().reaches("tiegr", "huge", "sleeps", moved(tokens={"sleeps"})) is None  # only its phrases are read


def test_a_close_corpus_word_is_read_at_the_edit_distance_of_the_token_length():
    # "tiegr" (5 letters): one edit, the same first letter ("tiger": letters swapped; "tie": two left out).
    assert reach().reaches("tiegr", "a", "sleeps", moved(tokens={"tiger"})) == BEFORE_GATE
    assert reach(gate=False).reaches("tiegr", "a", "sleeps", moved(tokens={"tiger"})) == BEFORE_GATE
    assert reach().reaches("tiegr", "a", "sleeps", moved(tokens={"timer"})) is None  # two edits
    assert reach().reaches("tiegr", "a", "sleeps", moved(tokens={"liegr"})) is None  # another first letter
    # "leapord" (7 letters): two edits.
    assert reach().reaches("leapord", "a", "runs", moved(tokens={"leopard"})) == BEFORE_GATE
    assert reach().reaches("leapord", "a", "runs", moved(tokens={"leotards"})) is None


def test_a_word_of_the_clip_the_token_plausibly_misspells_is_read_by_the_gate():
    # close_in_clip: "irections" misses its first letter, so no corpus candidate is "directions".
    assert reach().reaches("irections", "the", "are", moved(tokens={"directions"})) == GATE


def test_a_split_is_read_as_its_phrase_before_the_gate_and_as_its_words_by_the_gate_where_it_is_a_candidate():
    assert reach().reaches("eachother", "see", "and", moved(phrases={"each other"})) == BEFORE_GATE
    assert reach().reaches("eachother", "see", "and", moved(phrases={"each one"})) is None
    attested = reach(phrases={"each other": 60})
    assert attested.reaches("eachother", "see", "and", moved(tokens={"each"})) == GATE
    assert reach().reaches("eachother", "see", "and", moved(tokens={"each"})) is None  # no phrase: no split
    assert reach().reaches("floorswith", "the", "a", moved(tokens={"with"})) == GATE  # before a function word
    assert reach().reaches("womens", "the", "team", moved(tokens={"s"})) is None  # "women s" is not attested


def test_the_phrases_joining_a_neighbour_to_the_token_or_a_candidate_are_read():
    assert reach().reaches("tiegr", "a", "sleeps", moved(phrases={"a tiegr"})) == BEFORE_GATE
    assert reach().reaches("tiegr", "a", "sleeps", moved(phrases={"tier sleeps"})) == BEFORE_GATE  # the context
    assert reach().reaches("zerba", "a", "runs", moved(phrases={"a jerba"})) == GATE  # a suggestion's bigram fit
    assert reach().reaches("tiegr", "a", "sleeps", moved(phrases={"a lion", "lion sleeps"})) is None
    assert reach().reaches("tiegr", "the", "runs", moved(phrases={"a tiger", "tiger sleeps"})) is None
    assert reach().reaches("tiegr", "", "", moved(phrases={"a tiger", "tiger sleeps"})) is None  # no neighbours


def test_hunspell_suggestions_and_the_word_lists_entries_are_read_by_the_gate():
    assert reach().reaches("zerba", "a", "x", moved(tokens={"jerba"})) == GATE
    assert reach(gate=False).reaches("zerba", "a", "x", moved(tokens={"jerba"})) is None
    assert reach(plural_readings={"mens": "men"}).reaches("mens", "two", "are", moved(tokens={"men"})) is not None
    listed = reach(common_misspellings={"alot": "a lot"})
    assert listed.reaches("alot", "the", "x", moved(tokens={"lot"})) == GATE  # not the token's first letter: not close


def test_a_name_the_token_begins_is_read_only_with_name_clippings_on():
    assert reach(keep_name_clippings=True).reaches("lambo", "a", "x", moved(tokens={"lamborghini"})) == BEFORE_GATE
    assert reach().reaches("lambo", "a", "x", moved(tokens={"lamborghini"})) is None


def texts(videos):
    return {video.video_id: [caption.text for caption in video.captions] for video in videos}


def test_a_figure_round_one_moved_flips_a_decision_of_round_two_and_the_round_decides_it_again(tiger_config,
                                                                                              tiger_videos):
    recheck = RecheckInMemory(tiger_config)
    first = recheck.round(1, tiger_videos())
    assert texts(first)["video1"] == ["a tiger runs", "a tiger runs fast"]
    assert texts(first)["video2"] == ["the tiegr sleeps", "a cat sleeps"]  # "tiger": 4 times, no candidate yet
    second = recheck.round(2, first)
    assert texts(second)["video2"] == ["the tiger sleeps", "a cat sleeps"]
    assert respelled_ids(second[1], 2) == {20}
    assert [(row.original, row.replacement, row.rule) for row in second[1].corrections] == [
        ("tiegr", "tiger", "ranked")]
    third = recheck.round(3, second)
    assert all(not respelled_ids(video, 3) for video in third)
    # The same videos out as rounds that decide every video again.
    assert RecheckInMemory(tiger_config, incremental=False).all_rounds(tiger_videos()) == third


def test_round_two_decides_again_the_video_a_moved_figure_reaches_and_passes_the_others(tiger_config,
                                                                                         tiger_videos, monkeypatch):
    import transforms.recheck as recheck
    from transforms.corpus import corpus_statistics

    first = RecheckInMemory(tiger_config).round(1, tiger_videos())
    decided = []

    def noted(batch, speller, round_number):
        decided.append(batch.video_id)
        return real_recheck_spelling(batch, speller, round_number)
    real_recheck_spelling = recheck.recheck_spelling
    monkeypatch.setattr(recheck, "recheck_spelling", noted)
    earlier = dict(zip(("earlier_token_stats", "earlier_phrases"), corpus_statistics(tiger_videos())))
    now = dict(zip(("token_stats", "phrases"), corpus_statistics(first)))
    respell = Respell(tiger_config, 2)
    respell.setup()
    for video in first:
        respell.process(video, **now, **earlier)
    # video1: round 1 changed it; video2: "tiger" moved; video3: no token Hunspell rejects; video4: "zerba"
    # is reached by nothing that moved ("tger", "tiger", "a tiger", "tiger runs").
    assert decided == ["video1", "video2"]
    # Without the figures of the round before, every video is decided again.
    decided.clear()
    respell.setup()
    for video in first:
        respell.process(video, **now)
    assert decided == ["video1", "video2", "video3", "video4"]


class ReadsRecorded(dict):
    """A figure dict that notes every key a decision looks up."""

    def __init__(self, *args):
        super().__init__(*args)
        self.read = set()

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)


# Hand-made figures for the default profile's rule with its gate: every figure the decisions below read
# must be in the token's reach, or a round could skip a token whose figure moved.
STATS = {"tiger": (40, 12), "tier": (9, 5), "tiegr": (1, 1), "each": (300, 90), "other": (400, 99),
         "looking": (80, 30), "leopard": (30, 9), "leapord": (2, 2), "men": (500, 99), "rhythm": (12, 8),
         "and": (9000, 999), "a": (20000, 999), "the": (15000, 999), "runs": (300, 99), "sleeps": (90, 40),
         "zebra": (25, 8), "cat": (200, 60), "amd": (2, 2), "gloves": (20, 9), "four": (300, 90)}
PHRASES = {"each other": 60, "a tiger": 20, "tiger sleeps": 3, "the leopard": 9, "leopard runs": 4,
           "two men": 30, "men are": 12, "gloves and": 4, "and four": 9, "look in": 5}
DECIDED = [("tiegr", "a", "sleeps"), ("eachother", "see", "and"), ("lookin", "is", "at"), ("leapord", "the", "runs"),
           ("mens", "two", "are"), ("rythm", "the", "of"), ("amd", "gloves", "four"), ("zerba", "a", "runs"),
           ("tger", "a", "runs")]


@pytest.mark.parametrize("piece, previous, following", DECIDED)
def test_every_figure_a_decision_reads_is_in_its_reach(piece, previous, following):
    from transforms.spelling import OtherCaptions, Speller, WordLists, captions_writing
    from transforms.spelling.decisions import BEFORE_THE_GATE, DECISION_CHAIN, Token, decide

    settings = load_config("default").spelling
    stats, phrases = ReadsRecorded(STATS), ReadsRecorded(PHRASES)
    speller = Speller(settings, WordLists.read(settings), stats, phrases)
    caption = f"{previous} {piece} {following}"
    token = Token(piece, previous, following,
                  OtherCaptions(captions_writing([caption, "a tiger runs", "the rhythm of"]), caption))
    word_lists = WordLists.read(settings)
    token_reach = Reach(settings, PHRASES, word_lists.plural_readings, word_lists.common_misspellings,
                        speller.rule.suggestions)

    def reached(figures) -> set:
        return {token_reach.reaches(piece, previous, following, figures)}

    for chain, level in ((BEFORE_THE_GATE, {BEFORE_GATE}), (DECISION_CHAIN, {BEFORE_GATE, GATE})):
        stats.read.clear(), phrases.read.clear()  # building the rule read every word: not a decision's reads
        decide(token, speller.rule, chain)
        assert stats.read  # the decision did read figures
        assert [word for word in sorted(stats.read) if not reached(moved(tokens={word})) <= level] == []
        # A candidate of two words is looked up beside a neighbour too ("the leap ord"): no phrase counted has three.
        two_words = sorted(phrase for phrase in phrases.read if len(phrase.split(" ")) == 2)
        assert [phrase for phrase in two_words if not reached(moved(phrases={phrase})) <= level] == []


def test_a_token_reached_only_by_the_gates_figures_is_decided_again_only_where_the_chain_asks_the_gate():
    from transforms.spelling import Speller, WordLists

    settings = load_config("default").spelling
    speller = Speller(settings, WordLists.read(settings), STATS, PHRASES)
    the_word_before = moved(tokens={"a"})  # the gate's bigram fit reads its count
    assert speller.rule.asks_the_gate("zerba", "a", "runs")  # flagged: the gate checks it
    assert speller.may_change("a zerba runs", the_word_before)
    assert not speller.rule.asks_the_gate("volcanos", "a", "runs")  # kept as a plural: the gate is not asked
    assert not speller.may_change("a volcanos runs", the_word_before)
    assert speller.may_change("a volcanos runs", moved(tokens={"volcanos"}))


def test_a_token_under_three_letters_has_no_close_word():
    # "tv": close_words gives a token this short no candidate, so a moved "t" (of "t shirt") is no candidate of it.
    assert reach().reaches("tv", "a", "show", moved(tokens={"t"}, phrases={"t shirt"})) is None
    assert reach().reaches("tvs", "a", "show", moved(tokens={"tv"})) == BEFORE_GATE


class CountingSuggester:
    """A stand-in for Hunspell's suggester: suggests the token reversed, and counts the questions."""

    def __init__(self):
        self.asked = []

    def suggest(self, token):
        self.asked.append(token)
        return [token[::-1].capitalize()]


def test_the_suggestion_cache_knows_what_it_remembers_and_forgets_the_least_recently_asked():
    from transforms.spelling.hunspell import SuggestionCache
    suggester = CountingSuggester()
    cache = SuggestionCache(suggester, maxsize=2)
    assert cache("ab") == ("ba",) and cache.known("ab") and not cache.known("cd")
    cache("cd")
    cache("ab")  # asked again: remembered, and now the most recent
    cache("ef")  # a third: "cd", the least recently asked, is forgotten
    assert suggester.asked == ["ab", "cd", "ef"]
    assert cache.known("ab") and cache.known("ef") and not cache.known("cd")


def test_suggestions_not_remembered_are_asked_only_where_the_chain_asks_the_gate():
    from transforms.spelling.hunspell import SuggestionCache
    suggester = CountingSuggester()
    moved_words = moved(tokens={"abrez"})  # "zerba" reversed: one of its (stand-in) suggestions
    gated = Reach(SimpleNamespace(**vars(SETTINGS)), {}, {}, {}, SuggestionCache(suggester))
    assert not gated.reaches_the_gate("zerba", "a", "x", moved_words, asks_the_gate=lambda: False)
    assert suggester.asked == []  # not remembered, and the gate is not asked: no question to Hunspell
    assert gated.reaches_the_gate("zerba", "a", "x", moved_words, asks_the_gate=lambda: True)
    assert suggester.asked == ["zerba"]
