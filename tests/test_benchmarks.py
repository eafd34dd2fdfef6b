"""The benchmark helpers: the scaled-corpus generator and the re-implementation of the published notebook."""
import json
import random

import pytest

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


def test_a_new_run_on_sample_leaves_out_the_captions_of_earlier_samples(tmp_path):
    from benchmarks.sample_runon_devset import draw, sen_ids_in

    earlier = tmp_path / "earlier.tsv"
    earlier.write_text("sen_id\tstratum\tsample\tsentences\tnote\n1\tlong\t10\ta b\t\n3\tgap\t10\tc d\t\n")
    long_caption = " ".join(["word"] * 16) + " he runs"
    captions = [(sen_id, long_caption, long_caption) for sen_id in range(6)]
    rows = draw(captions, seed=0, sizes=(4, 0, 0), excluded=sen_ids_in(str(earlier)))
    assert sen_ids_in(str(earlier)) == {1, 3}
    assert sorted(row[0] for row in rows) == [0, 2, 4, 5]


def test_a_run_on_stratum_too_small_for_its_sample_is_named():
    from benchmarks.sample_runon_devset import draw

    long_caption = " ".join(["word"] * 16) + " he runs"
    captions = [(sen_id, long_caption, long_caption) for sen_id in range(3)]
    with pytest.raises(ValueError, match="the long stratum has 3 captions left"):
        draw(captions, seed=0, sizes=(4, 0, 0))


def test_the_samplers_never_write_to_a_default_path():
    """Without --out the run-on sampler once overwrote tests/data/runon_dev.tsv."""
    import subprocess
    import sys

    for module in ("benchmarks.sample_runon_devset", "benchmarks.sample_spelling_devset"):
        finished = subprocess.run([sys.executable, "-m", module, "--seed", "1"], capture_output=True, text=True)
        assert finished.returncode == 2 and "--out" in finished.stderr


def test_run_on_labeller_agreement_scores_the_second_labels_against_the_first(tmp_path):
    from benchmarks.runon_devset import labeller_agreement

    header = "sen_id\tstratum\tsample\tsentences\tnote\n"
    first = tmp_path / "first.tsv"
    first.write_text(header + "1\tlong\t8\ta man runs | he falls\t\n2\tgap\t8\ta dog barks | a cat runs\t\n"
                              "3\tlong\t8\ta girl sings a song\t\n4\tlong\t8\ta boy swims\t\n")
    second = tmp_path / "second.tsv"  # misses one boundary and splits a one-sentence caption; caption 4 unlabelled
    second.write_text(header + "2\tgap\t8\ta dog barks a cat runs\t\n1\tlong\t8\ta man runs | he falls\t\n"
                               "3\tlong\t8\ta girl | sings a song\t\n")
    figures = labeller_agreement(second, first)
    assert figures["captions"] == 3 and figures["boundaries"] == 2
    assert figures["precision"] == 0.5 and figures["recall"] == 0.5 and figures["false_split_rate"] == 1.0


def test_spelling_labeller_agreement_compares_actions_on_the_same_tokens(tmp_path):
    from benchmarks.spelling_devset import labeller_agreement

    header = "sen_id\tposition\ttoken\tcaption\tlabel\tintended\tnote\n"
    first = tmp_path / "first.tsv"
    first.write_text(header + "1\t1\tvedio\ta vedio\tfix\tvideo\t\n2\t0\tlego\tlego men\tkeep\t\t\n"
                              "3\t1\tgrey\ta grey cat\tfix\tgray\t\n4\t0\tpoeple\tpoeple run\tfix\tpeople\t\n")
    second = tmp_path / "second.tsv"  # agrees on vedio, changes lego, misses grey; row 4 unlabelled
    second.write_text(header + "1\t1\tvedio\ta vedio\tfix\tvideo\t\n2\t0\tlego\tlego men\tfix\tleg\t\n"
                               "3\t1\tgrey\ta grey cat\tkeep\t\t\n")
    figures = labeller_agreement(second, first)
    assert figures["tokens"] == 3 and figures["changes"] == 2
    assert figures["accuracy"] == 1 / 3 and figures["precision"] == 0.5 and figures["recall"] == 0.5


def test_the_second_labellers_labelled_the_dev_sets_own_captions():
    from benchmarks import runon_devset, spelling_devset

    first = {row["sen_id"]: row for row in runon_devset.read_rows(runon_devset.DEVSET)}
    second = runon_devset.read_rows(runon_devset.SECOND_LABELLER)
    assert len(second) >= 500 and {row["sample"] for row in second} == {"8", "9"}
    for row in second:
        assert runon_devset.labelled(row["sentences"])[0] == runon_devset.labelled(first[row["sen_id"]]["sentences"])[0]
    tokens = {(row["sen_id"], row["position"]): row for row in spelling_devset.load_devset()}
    second = spelling_devset.load_devset(spelling_devset.SECOND_LABELLER)
    assert len(second) == 250
    for row in second:
        first_row = tokens[(row["sen_id"], row["position"])]
        assert (row["token"], row["caption"]) == (first_row["token"], first_row["caption"])
