"""The benchmark helpers: the scaled-corpus generator and the re-implementation of the published notebook."""
import json
import random

from benchmarks.bench_notebook import common_words as notebook_common_words
from benchmarks.bench_notebook import levenshtein, notebook_duplicates
from benchmarks.make_scaled_corpus import misspell, scaled_video, split_ranges, write_scaled_corpus
from transforms.dedup import common_words, group_near_duplicates, remove_near_duplicates
from transforms.batch import Caption, VideoBatch


def test_a_misspelling_is_one_slip_and_short_words_stay():
    rng = random.Random(1)
    for _ in range(200):
        slipped = misspell("guitar", rng)
        assert abs(len(slipped) - len("guitar")) <= 1 and slipped[0] == "g"
        assert levenshtein("guitar", slipped) <= 2  # a swap is two substitutions
    assert misspell("man", rng) == "man" and misspell("4x4s", rng) == "4x4s"


def test_a_scaled_video_has_new_ids_in_its_split_range_and_is_deterministic():
    video = {"video_id": "video7", "split": "train", "category": 3}
    originals = [(140 + i, f"a man is playing a guitar number {i}") for i in range(20)]
    record, sentences = scaled_video(video, originals, factor=5, copy=3, seed=0)
    assert record["video_id"] == "video38" and record["split"] == "train" and record["category"] == 3
    assert [s["sen_id"] for s in sentences] == [sen_id * 5 + 3 for sen_id, _ in originals]
    assert scaled_video(video, originals, 5, 3, 0) == (record, sentences)
    assert scaled_video(video, originals, 5, 3, 1) != (record, sentences)
    ranges = split_ranges([{"video_id": "video0", "split": "train"}, {"video_id": "video6512", "split": "train"},
                           {"video_id": "video6513", "split": "validate"}], 5)
    assert ranges == {"train": (0, 32564), "validate": (32565, 32569)}


def test_the_scaled_corpus_is_n_times_the_input_with_unique_ids(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    videos = [{"video_id": f"video{i}", "split": "train", "category": 1} for i in range(4)]
    sentences = [{"sen_id": 20 * i + j, "video_id": f"video{i}", "caption": f"a dog runs on the beach {j}"}
                 for i in range(4) for j in range(20)]
    (source / "tiny_videodatainfo.json").write_text(json.dumps({"videos": videos, "sentences": sentences}))
    totals = write_scaled_corpus(str(source), tmp_path / "out", factor=3, seed=0, videos_per_file=5)
    assert totals == {"videos": 12, "captions": 240, "files": 3}
    written = [json.loads(path.read_text()) for path in sorted((tmp_path / "out").glob("*.json"))]
    sen_ids = [s["sen_id"] for document in written for s in document["sentences"]]
    assert len(sen_ids) == len(set(sen_ids)) == 240
    assert "train: [0, 11]" in (tmp_path / "out" / "ranges.yaml").read_text()


def test_the_notebook_levenshtein_and_lcs_agree_with_capclean():
    assert levenshtein("kitten", "sitting") == 3 and levenshtein("", "abc") == 3
    rng = random.Random(0)
    words = ["a", "man", "men", "is", "playing", "plays", "guitar", "guitars", "on", "stage"]
    for _ in range(200):
        a = [rng.choice(words) for _ in range(rng.randint(0, 9))]
        b = [rng.choice(words) for _ in range(rng.randint(0, 9))]
        for edit_threshold in (0, 1, 2):
            assert notebook_common_words(a, b, edit_threshold) == common_words(a, b, edit_threshold)


def test_the_notebook_duplicates_keep_what_capclean_keeps():
    texts = ["a man is playing a guitar", "a man is playing a guitar on stage", "a woman sings",
             "a man is playing guitar", "a woman sings a song", "a woman sings"]
    batch = VideoBatch("video1", "train", 1, [Caption(i, text) for i, text in enumerate(texts)])
    kept = [caption.text for caption in remove_near_duplicates(batch, 0, 0.85).captions]
    assert notebook_duplicates(texts, 0, 0.85) == kept
    assert len(group_near_duplicates(texts, 0, 0.85)) == len(kept) < len(texts)
