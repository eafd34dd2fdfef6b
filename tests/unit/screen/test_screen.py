"""Screening (transforms/screen.py): a caption the output contract cannot hold is removed, naming why.
(Hostile captions through the whole pipeline: tests/unit/pipelines/test_hostile_pipeline.py.)"""
from transforms.batch import Caption, VideoBatch
from transforms.screen import describe_character, outside_characters_reason, screen_video


def test_screening_names_the_characters(default_characters):
    allowed = frozenset(default_characters)
    assert outside_characters_reason("a man", allowed) is None
    assert outside_characters_reason("a \U0001F3B8 \U0001F3B8", allowed) == (
        "characters outside the profile's set: '\U0001F3B8' U+1F3B8 GUITAR")
    many = outside_characters_reason("ABCDEFG", allowed)
    assert many.endswith("'E' U+0045 LATIN CAPITAL LETTER E and 2 more")
    assert describe_character("\u200f") == "'\\u200f' U+200F RIGHT-TO-LEFT MARK"


def test_screening_removes_only_what_the_contract_cannot_hold(default_characters):
    batch = VideoBatch("video1", "train", 3, [Caption(1, "a man"), Caption(2, "a  man"), Caption(3, "un caf\u00e9")])
    screened = screen_video(batch, default_characters, ("train", "test"))
    assert [c.sen_id for c in screened.captions] == [1]
    assert [(row.sen_id, row.step) for row in screened.removed] == [(2, "screen"), (3, "screen")]
    assert screened.removed[0].reason == "caption is not words separated by single spaces"
    assert screen_video(batch, default_characters + "\u00e9 ", ("train",)).captions[-1].sen_id == 3
    assert screen_video(batch, default_characters, ("test",)).captions == []
