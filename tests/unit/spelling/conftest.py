"""Fixtures shared by the spelling recheck's tests (test_recheck_reach.py, test_recheck_totals.py)."""
import pytest

from pipelines.config import load_config, override
from transforms.batch import Caption, VideoBatch


@pytest.fixture
def tiger_videos():
    """A function giving four fresh videos where a round-1 change moves a figure that flips a round-2
    decision, worked by hand (step II alone, no gate): "tiger" is written 4 times, under
    min_candidate_count (5), so in round 1 "tiegr" has no candidate and stays, flagged. Round 1 corrects
    "tger" to "tiger" from its clip (the clip rule): "tiger" is now written 5 times, and in round 2 it is
    the clear candidate of "tiegr" (one slip: weight 25 >= 5 x 1), which is corrected. "zerba" is reached
    by no moved figure: round 2 does not decide it again."""
    def video(video_id, *texts):
        captions = [Caption(int(video_id[-1]) * 10 + number, text) for number, text in enumerate(texts)]
        return VideoBatch(video_id, "train", 5, captions, input_records=len(texts))

    def videos():
        return [video("video1", "a tger runs", "a tiger runs fast"),
                video("video2", "the tiegr sleeps", "a cat sleeps"),
                video("video3", "the tiger eats", "a tiger walks", "the tiger and a cub"),
                video("video4", "the zerba grazes", "the horse grazes")]
    return videos


@pytest.fixture(scope="module")
def tiger_config():
    """The default profile's step II alone, without the gate, three recheck rounds."""
    config = override(load_config("default"), "", steps=("spelling",))
    return override(config, "spelling", gate="", recheck_rounds=3)
