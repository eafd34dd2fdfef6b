"""The labelled dev sets (devsets/): their files, readers and samplers."""
import subprocess
import sys

import pytest

from devsets import DATA, read_tsv, runon, spelling
from devsets.sample_runon import draw, sen_ids_in
from devsets.spelling import token_output

REPO = DATA.parent.parent


def test_the_dev_set_holds_forty_one_disjoint_samples():
    rows = [line.split("\t") for line in runon.DEVSET.read_text(encoding="utf-8").splitlines()[1:]]
    # 14 to 17 and 46 to 49 are held-out sets of the boundary model, kept outside the repo.
    assert list(runon.SAMPLE_NAMES) == [*map(str, range(1, 14)), *map(str, range(18, 46))]
    samples = {sample: {row[0] for row in rows if row[2] == sample} for sample in runon.SAMPLE_NAMES}
    assert {row[2] for row in rows} == set(samples)
    assert all(len(ids) >= 150 for ids in samples.values())
    assert sum(map(len, samples.values())) == len({row[0] for row in rows})  # no caption in two samples


def test_the_over12_samples_are_disjoint_from_the_dev_set_and_each_other_and_of_long_captions():
    rows = [line.split("\t") for line in runon.OVER12.read_text(encoding="utf-8").splitlines()[1:]]
    assert {row[2] for row in rows} == set(runon.OVER12_SAMPLE_NAMES)
    ids = [row[0] for row in rows]
    assert len(ids) == len(set(ids)) == 7900
    assert not set(ids) & {line.split("\t")[0] for line in runon.DEVSET.read_text(encoding="utf-8").splitlines()[1:]}
    assert all(len(text.split()) > 12 for text, _ in runon.load_devset(runon.OVER12))


def test_the_dev_set_labels_give_back_their_captions():
    rows = runon.load_devset()
    assert len(rows) >= 150 and sum(1 for _, boundaries in rows if boundaries) >= 25
    for line in runon.DEVSET.read_text(encoding="utf-8").splitlines()[1:]:
        text, boundaries = runon.marked_boundaries(line.split("\t")[3])
        assert " ".join(line.split("\t")[3].replace(" | ", " ").split()) == text and all(boundaries)


def test_a_marked_caption_gives_its_words_and_boundaries():
    assert runon.marked_boundaries("a man cooks | he adds salt | then he eats") == (
        "a man cooks he adds salt then he eats", [3, 6])
    assert runon.marked_boundaries("one sentence only") == ("one sentence only", [])


def test_a_new_run_on_sample_leaves_out_the_captions_of_earlier_samples(tmp_path):
    earlier = tmp_path / "earlier.tsv"
    earlier.write_text("sen_id\tstratum\tsample\tsentences\tnote\n1\tlong\t10\ta b\t\n3\tgap\t10\tc d\t\n")
    long_caption = " ".join(["word"] * 16) + " he runs"
    captions = [(sen_id, long_caption, long_caption) for sen_id in range(6)]
    rows = draw(captions, seed=0, sizes=(4, 0, 0), excluded=sen_ids_in(str(earlier)))
    assert sen_ids_in(str(earlier)) == {1, 3}
    assert sorted(row[0] for row in rows) == [0, 2, 4, 5]


def test_a_run_on_stratum_too_small_for_its_sample_is_named():
    long_caption = " ".join(["word"] * 16) + " he runs"
    captions = [(sen_id, long_caption, long_caption) for sen_id in range(3)]
    with pytest.raises(ValueError, match="the long stratum has 3 captions left"):
        draw(captions, seed=0, sizes=(4, 0, 0))


def test_the_samplers_never_write_to_a_default_path():
    """Without --out the run-on sampler once overwrote the dev set."""
    for module in ("devsets.sample_runon", "devsets.sample_spelling", "devsets.sample_output"):
        finished = subprocess.run([sys.executable, "-m", module, "--seed", "1"], capture_output=True, text=True,
                                  cwd=REPO)
        assert finished.returncode == 2 and "--out" in finished.stderr


def test_run_on_labeller_agreement_scores_the_second_labels_against_the_first(tmp_path):
    header = "sen_id\tstratum\tsample\tsentences\tnote\n"
    first = tmp_path / "first.tsv"
    first.write_text(header + "1\tlong\t8\ta man runs | he falls\t\n2\tgap\t8\ta dog barks | a cat runs\t\n"
                              "3\tlong\t8\ta girl sings a song\t\n4\tlong\t8\ta boy swims\t\n")
    second = tmp_path / "second.tsv"  # misses one boundary and splits a one-sentence caption; caption 4 unlabelled
    second.write_text(header + "2\tgap\t8\ta dog barks a cat runs\t\n1\tlong\t8\ta man runs | he falls\t\n"
                               "3\tlong\t8\ta girl | sings a song\t\n")
    figures = runon.labeller_agreement(second, first)
    assert figures["captions"] == 3 and figures["boundaries"] == 2
    assert figures["precision"] == 0.5 and figures["recall"] == 0.5 and figures["false_split_rate"] == 1.0


def test_the_second_labellers_labelled_the_dev_sets_own_captions():
    first = {row["sen_id"]: row for row in read_tsv(runon.DEVSET)}
    second = read_tsv(runon.SECOND_LABELLER)
    assert len(second) >= 500 and {row["sample"] for row in second} == {"8", "9"}
    for row in second:
        assert runon.marked_boundaries(row["sentences"])[0] == runon.marked_boundaries(
            first[row["sen_id"]]["sentences"])[0]
    tokens = {(row["sen_id"], row["position"]): row for row in spelling.load_devset()}
    second = spelling.load_devset(spelling.SECOND_LABELLER)
    assert len(second) == 250
    for row in second:
        first_row = tokens[(row["sen_id"], row["position"])]
        assert (row["token"], row["caption"]) == (first_row["token"], first_row["caption"])


def test_a_tokens_corrections_apply_in_order_as_the_benchmark_scores_them():
    corrections = [{"original": "childrens", "replacement": "children s"}, {"original": "s", "replacement": "S"}]
    assert token_output("childrens", corrections) == "children s"
    assert token_output("vedio", []) == "vedio"
    # A join that starts at the token ("nano technology" -> "nanotechnology") makes the token the joined word.
    assert token_output("nano", [{"original": "nano technology", "replacement": "nanotechnology"}]) == "nanotechnology"


def test_per_type_weights_count_each_distinct_token_once():
    from devsets.spelling import score, type_weights
    rows = [{"token": "teh", "label": "fix", "intended": "the"}] * 3 + [{"token": "restraunt", "label": "fix",
                                                                      "intended": "restaurant"}]
    assert type_weights(rows) == [1 / 3, 1 / 3, 1 / 3, 1.0]
    fixes_only_the_frequent_one = lambda row: "the" if row["token"] == "teh" else row["token"]  # noqa: E731
    assert score(rows, fixes_only_the_frequent_one)["accuracy"] == 0.75  # per occurrence: 3 of 4
    assert score(rows, fixes_only_the_frequent_one, type_weights(rows))["accuracy"] == 0.5  # per type: 1 of 2
