"""Integration tests: the whole pipeline on the real MSR-VTT v1 annotations, both profiles.

The figures pinned here are those of Debian's hunspell-en-us 1:2020.12.07; step I's
are the published ones (7,247 captions in 4,190 videos).
"""
import json
import random
import zipfile
from pathlib import Path

import hunspell
import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from pipelines.cleaning.steps import STEP_NAMES
from schemas.validation import OutputExpectations, validate_output
from transforms.spelling import read_mapping, read_word_list
from pipelines.cleaning.write_tables import table_file_path

pytestmark = pytest.mark.integration


def raw_sentences(msrvtt_dir):
    sentences = []
    for name, member in (("train_val_annotation.zip", "train_val_videodatainfo.json"),
                         ("test_videodatainfo.json.zip", "test_videodatainfo.json")):
        with zipfile.ZipFile(msrvtt_dir / name) as archive:
            sentences += json.load(archive.open(member))["sentences"]
    return {s["sen_id"]: s for s in sentences}


def clean(msrvtt_dir, output, profile, beam_args):
    assert main(["clean", "--input", str(msrvtt_dir), "--output", str(output), "--profile", profile] + beam_args) == 0
    return output


@pytest.fixture(scope="module")
def raw(msrvtt_dir):
    return raw_sentences(msrvtt_dir)


@pytest.fixture(scope="module")
def paper_output(msrvtt_dir, tmp_path_factory, multi_process):
    return clean(msrvtt_dir, tmp_path_factory.mktemp("paper") / "msrvtt", "paper", multi_process)


@pytest.fixture(scope="module")
def default_output(default_run):
    return default_run


def table(output, name):
    return pq.read_table(output / name).to_pylist()


def stats(output):
    return json.loads((output / "stats.json").read_text())


def test_paper_step_one_changes_the_published_captions(paper_output):
    figures = stats(paper_output)
    assert figures["input"]["captions"] == 200_000 and figures["input"]["videos"] == 10_000
    assert figures["steps"]["normalize"]["captions_changed"] == 7247
    assert figures["steps"]["normalize"]["videos_touched"] == 4190
    normalize_edits = [row for row in table(paper_output, "edits") if row["step"] == "normalize"]
    assert len({row["sen_id"] for row in normalize_edits}) == 7247


def notebook_spelling(caption, british, splits, checker):
    """The published step II, pass by pass over the whole caption, as the paper's notebook did it."""
    words = [british.get(word, word) for word in caption.split()]
    words = [splits.get(word, word) for word in " ".join(words).split()]
    corrected = []
    for word in " ".join(words).split():
        suggestions = [] if checker.spell(word) else checker.suggest(word)
        corrected.append(suggestions[0] if suggestions else word)
    return " ".join(corrected).lower()


def test_paper_spelling_makes_exactly_the_published_rules_changes(paper_output, raw):
    edits = table(paper_output, "edits")
    normalized = {row["sen_id"]: row["after"] for row in edits if row["step"] == "normalize"}
    spelled = {row["sen_id"]: row["after"] for row in edits if row["step"] == "spelling"}
    checker = hunspell.HunSpell("/usr/share/hunspell/en_US.dic", "/usr/share/hunspell/en_US.aff")
    for word in read_word_list("paper/custom_words.txt"):
        checker.add(word)
    british, splits = read_mapping("paper/british_to_american.txt"), read_mapping("paper/splits.txt")
    sample = random.Random(7).sample(sorted(raw), 4000) + sorted(spelled)[:1000]
    for sen_id in sample:
        before = normalized.get(sen_id, raw[sen_id]["caption"])
        assert spelled.get(sen_id, before) == notebook_spelling(before, british, splits, checker), sen_id


def test_paper_spelling_figures_count_real_changes_only(paper_output):
    figures = stats(paper_output)["steps"]["spelling"]
    corrections = table(paper_output, "corrections")
    assert figures["tokens_changed"] == len(corrections) == 14352
    assert figures["captions_changed"] == 12952 and figures["videos_touched"] == 6178
    assert figures["tokens_changed_by_rule"] == {"british": 1626, "split": 934, "suggestion": 11792}
    assert all(row["original"] != row["replacement"] for row in corrections)


def test_paper_dedup_figures_match_the_removed_table(paper_output):
    figures = stats(paper_output)["steps"]["dedup"]
    removed = [row for row in table(paper_output, "removed") if row["step"] == "dedup"]
    assert figures["captions_removed"] == len(removed) == 17730
    assert figures["videos_touched"] == len({row["video_id"] for row in removed}) == 7129
    kept = {row["sen_id"] for row in table(paper_output, "captions")}
    assert all(row["kept_sen_id"] in kept for row in removed)


def test_paper_truncates_train_and_validate_at_eighteen_words(paper_output):
    figures = stats(paper_output)["steps"]["runon"]
    assert figures["word_limit"] == 18
    captions = table(paper_output, "captions")
    assert max(len(c["caption"].split()) for c in captions if c["split"] != "test") == 18
    assert max(len(c["caption"].split()) for c in captions if c["split"] == "test") > 18
    runon_edits = [row for row in table(paper_output, "edits") if row["step"] == "runon"]
    assert figures["captions_changed"] == len(runon_edits) == 5260
    assert all(row["after"].split() == row["before"].split()[:18] for row in runon_edits)


@pytest.mark.parametrize("profile", ["paper", "default"])
def test_every_input_caption_is_kept_or_removed_once(profile, paper_output, default_output, raw):
    output = paper_output if profile == "paper" else default_output
    kept = [row["sen_id"] for row in table(output, "captions")]
    removed = [row["sen_id"] for row in table(output, "removed")]
    assert len(kept) + len(removed) == len(raw)
    assert set(kept) | set(removed) == set(raw) and not set(kept) & set(removed)
    assert kept == sorted(kept)
    figures = stats(output)
    assert figures["output"]["captions"] == len(kept)
    assert json.loads((output / "validation" / "result.json").read_text())["success"]
    assert (output / "validation" / "index.html").is_file()


@pytest.mark.parametrize("profile", ["paper", "default"])
def test_screening_removes_nothing_msrvtt_normal(profile, paper_output, default_output):
    output = paper_output if profile == "paper" else default_output
    assert stats(output)["steps"]["screen"] == {"captions_changed": 0, "captions_removed": 0,
                                                "tokens_changed": 0, "tokens_removed": 0, "videos_touched": 0,
                                                "videos_passed": 10_000}


def test_default_keeps_to_its_stricter_character_set(default_output, default_characters):
    allowed = set(default_characters)
    assert all(set(row["caption"]) <= allowed for row in table(default_output, "captions"))


def test_a_corrupted_output_fails_the_suites(paper_output, tmp_path, paper_characters):
    import shutil
    corrupt = tmp_path / "corrupt"
    shutil.copytree(paper_output, corrupt)
    first_file = Path(table_file_path(str(corrupt), "captions", 0))
    captions = pq.read_table(first_file)
    doubled = captions.slice(0, 1).to_pylist()[0]
    rows = captions.to_pylist()
    rows[1] = {**rows[1], "sen_id": doubled["sen_id"], "caption": rows[1]["caption"] + "  x"}
    pq.write_table(type(captions).from_pylist(rows, schema=captions.schema), first_file)
    figures = stats(paper_output)
    result = validate_output(str(corrupt), OutputExpectations(
        allowed_characters=paper_characters,
        splits=("train", "validate", "test"),
        split_video_ranges={"train": (0, 6512), "validate": (6513, 7009), "test": (7010, 9999)},
        input_records=figures["input"]["captions"], input_videos=figures["input"]["videos_with_captions"],
        steps=STEP_NAMES),
        None)
    assert not result.success
    text = "\n".join(result.failures)
    assert "unique" in text and "sen_id" in text


def test_sweep_over_the_papers_grid(msrvtt_dir, paper_output, tmp_path, multi_process):
    assert main(["sweep", "--input", str(msrvtt_dir), "--output", str(tmp_path), "--profile", "paper"] + multi_process) == 0
    rows = {(row["e"], row["s"]): row for row in json.loads((tmp_path / "sweep.json").read_text())}
    assert len(rows) == 8
    # The sweep's point (0, 0.85) is the cleaning's step III.
    dedup = stats(paper_output)["steps"]["dedup"]
    assert rows[(0, 0.85)]["removed"] == dedup["captions_removed"]
    assert rows[(0, 0.85)]["videos_touched"] == dedup["videos_touched"]
    remaining_by_s = [rows[(0, s)]["remaining"] for s in (0.75, 0.80, 0.85, 0.90, 0.95, 1.00)]
    assert remaining_by_s == sorted(remaining_by_s) and remaining_by_s[0] < remaining_by_s[-1]
    remaining_by_e = [rows[(e, 0.9)]["remaining"] for e in (0, 1, 2)]
    assert remaining_by_e == sorted(remaining_by_e, reverse=True) and remaining_by_e[0] > remaining_by_e[-1]
