"""The exports (pipelines/cleaning/exports.py) of a real run, read back by the tools they are for.

One small MSR-VTT-format input, in two files like MSR-VTT's and with videos of
all three splits, is cleaned once by the command line with the paper profile;
each export of that output must read back to exactly the rows of `captions/`.
"""
import json
import os

# `datasets` reads these when imported: never reach for the Hub from a test.
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"

import datasets  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402
import yaml  # noqa: E402
from pycocotools.coco import COCO  # noqa: E402

from pipelines.cleaning.exports import (  # noqa: E402
    EXPORTS,
    HF_SPLIT_NAMES,
    MSRVTT_CATEGORIES,
    ExportError,
    export_coco,
    export_hf,
    export_msrvtt_json,
    run_exports,
)
from schemas.tables import CAPTIONS  # noqa: E402
from transforms.read import read_input  # noqa: E402

@pytest.fixture(scope="module")
def run(small_msrvtt_run):
    """(input folder, output folder) of one paper-profile run of the small input."""
    return small_msrvtt_run


def caption_rows(output):
    """The run's captions as the rows every export is compared with."""
    return pq.read_table(output / "captions").to_pylist()


def read_with_capclean(path):
    """What capclean's own reader makes of an MSR-VTT-format file or folder: (rows, rejected records)."""
    batches = read_input(str(path))
    rows = [{"video_id": batch.video_id, "sen_id": caption.sen_id, "split": batch.split,
             "category": batch.category, "caption": caption.text}
            for batch in batches for caption in batch.captions]
    return sorted(rows, key=lambda row: row["sen_id"]), [row for batch in batches for row in batch.removed]


def test_the_run_has_what_the_exports_are_tested_on(run, small_msrvtt):
    _, output = run
    rows = caption_rows(output)
    assert {row["split"] for row in rows} == {"train", "validate", "test"}
    assert "a man plays the video game" in {row["caption"] for row in rows}  # cleaned text, not the input's
    assert len(rows) < sum(len(captions) for captions in small_msrvtt.CAPTIONS_BY_VIDEO.values())  # some were removed


# ---------------------------------------------------------------- msrvtt-json

def test_msrvtt_json_reads_back_to_the_same_captions(run, tmp_path):
    source, output = run
    path = export_msrvtt_json(str(output), str(source), str(tmp_path / "cleaned.json"))
    rows, rejected = read_with_capclean(path)
    assert rows == caption_rows(output)
    assert rejected == []


def test_msrvtt_json_keeps_the_original_info_and_videos(run, tmp_path, small_msrvtt):
    source, output = run
    document = json.loads(export_msrvtt_json(str(output), str(source), str(tmp_path / "c.json")).read_text())
    assert list(document) == ["info", "videos", "sentences"]
    assert document["info"] == {"contributor": "capclean tests", "version": "file 0",
                                "cleaned_by": "capclean, profile paper"}
    # The two files' videos one after the other, every field as it was.
    assert document["videos"] == [small_msrvtt.video_record(number) for number in (1, 2, 6513, 6600, 7010, 7500)]
    sentences = document["sentences"]
    assert [list(sentence) for sentence in sentences[:1]] == [["caption", "video_id", "sen_id"]]
    assert [s["sen_id"] for s in sentences] == sorted(s["sen_id"] for s in sentences)


def test_msrvtt_json_default_place_and_same_bytes_twice(run, tmp_path):
    source, output = run
    first = export_msrvtt_json(str(output), str(source))
    assert first == output / "exports" / "msrvtt_videodatainfo.json"
    before = first.read_bytes()
    assert export_msrvtt_json(str(output), str(source)).read_bytes() == before


def test_msrvtt_json_writes_non_ascii_text_as_it_is(run, tmp_path):
    source, output = run
    # An output whose caption holds an accented letter, as the paper profile's spelling step can make.
    accented = pq.read_table(output / "captions").to_pylist()
    accented[0]["caption"] = "a man eats at a café"
    (tmp_path / "out" / "captions").mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(accented, schema=CAPTIONS), tmp_path / "out" / "captions" / "part-0.parquet")
    text = export_msrvtt_json(str(tmp_path / "out"), str(source), str(tmp_path / "c.json")).read_text("utf-8")
    assert "a man eats at a café" in text
    assert read_with_capclean(tmp_path / "c.json")[0][0]["caption"] == "a man eats at a café"


def test_msrvtt_json_refuses_annotations_that_are_not_the_runs_input(run, tmp_path, small_msrvtt):
    _, output = run
    other = small_msrvtt.write(tmp_path / "other")
    document = json.loads((other / "b_test_videodatainfo.json").read_text())
    document["videos"][0]["category"] = 19  # video7010 is no longer the video the captions belong to
    (other / "b_test_videodatainfo.json").write_text(json.dumps(document))
    with pytest.raises(ExportError, match="video7010 .* does not match the annotations"):
        export_msrvtt_json(str(output), str(other), str(tmp_path / "c.json"))
    assert not (tmp_path / "c.json").exists()


# ---------------------------------------------------------------- coco

def test_coco_files_load_with_the_coco_api_one_image_per_video(run, tmp_path):
    _, output = run
    paths = export_coco(str(output), str(tmp_path))
    assert paths == [tmp_path / "coco_validate.json", tmp_path / "coco_test.json"]
    for split, path in zip(("validate", "test"), paths):
        rows = [row for row in caption_rows(output) if row["split"] == split]
        coco = COCO(str(path))
        assert coco.dataset["type"] == "captions"
        assert sorted(coco.getImgIds()) == sorted({row["video_id"] for row in rows})
        for video_id in coco.getImgIds():
            expected = sorted((row["sen_id"], row["caption"]) for row in rows if row["video_id"] == video_id)
            annotations = coco.loadAnns(coco.getAnnIds(imgIds=[video_id]))
            assert sorted((a["id"], a["caption"]) for a in annotations) == expected
            assert all(a["image_id"] == video_id for a in annotations)


def test_coco_references_take_a_models_results_as_the_metric_toolkits_do(run, tmp_path):
    _, output = run
    (path,) = export_coco(str(output), str(tmp_path), splits=("test",))
    references = COCO(str(path))
    # pycocoevalcap loads a model's captions with loadRes, which checks their image ids against the references.
    results = references.loadRes([{"image_id": video_id, "caption": "something happens"}
                                  for video_id in references.getImgIds()])
    assert sorted(results.getImgIds()) == sorted(references.getImgIds()) == ["video7010", "video7500"]
    with pytest.raises(AssertionError):
        references.loadRes([{"image_id": "video1", "caption": "a train video is not a test reference"}])


def test_coco_ids_are_unique_and_every_annotation_names_an_image(run, tmp_path):
    _, output = run
    for path in export_coco(str(output), str(tmp_path), splits=("train", "validate", "test")):
        document = json.loads(path.read_text())
        image_ids = [image["id"] for image in document["images"]]
        annotation_ids = [annotation["id"] for annotation in document["annotations"]]
        assert len(set(image_ids)) == len(image_ids) and len(set(annotation_ids)) == len(annotation_ids)
        assert {annotation["image_id"] for annotation in document["annotations"]} == set(image_ids)
        assert all(isinstance(image_id, str) and image_id.startswith("video") for image_id in image_ids)


def test_coco_images_in_video_number_order_and_train_only_when_asked(run, tmp_path):
    _, output = run
    (path,) = export_coco(str(output), str(tmp_path), splits=("train",))
    assert [image["id"] for image in json.loads(path.read_text())["images"]] == ["video1", "video2"]
    assert not (tmp_path / "coco_test.json").exists()
    with pytest.raises(ExportError, match="unknown split"):
        export_coco(str(output), str(tmp_path), splits=("validation",))


# ---------------------------------------------------------------- hf

def load_hf(path, cache):
    return datasets.load_dataset("parquet", data_dir=str(path), cache_dir=str(cache))


def hf_rows_of(output, hf_split):
    """The captions of one split as hf/ must hold them: `split` the hf split's name."""
    split = {hf: msrvtt for msrvtt, hf in HF_SPLIT_NAMES.items()}[hf_split]
    return [dict(row, split=hf_split) for row in caption_rows(output) if row["split"] == split]


def assert_three_typed_splits(loaded, output):
    """Exactly train, validation, test; each with the captions of its split, `split` saying its name,
    and typed features: category a class label with MSR-VTT's 20 names."""
    assert list(loaded) == ["train", "validation", "test"]
    for hf_split in loaded:
        split = loaded[hf_split]
        assert split.to_list() == hf_rows_of(output, hf_split)
        assert set(split["split"]) == {hf_split}
        category = split.features["category"]
        assert isinstance(category, datasets.ClassLabel) and category.num_classes == 20
        assert category.names == list(MSRVTT_CATEGORIES)
        assert category.int2str(3) == "sports/actions" and category.int2str(19) == "advertisement"
        assert split.features == datasets.Features({
            "video_id": datasets.Value("string"), "sen_id": datasets.Value("int64"),
            "split": datasets.Value("string"), "category": datasets.ClassLabel(names=list(MSRVTT_CATEGORIES)),
            "caption": datasets.Value("string")})


def test_the_categories_are_msrvtts_twenty():
    assert len(MSRVTT_CATEGORIES) == len(set(MSRVTT_CATEGORIES)) == 20
    assert MSRVTT_CATEGORIES[0] == "music" and MSRVTT_CATEGORIES[10] == "howto"


def test_hf_loads_as_train_validation_test_with_typed_features(run, tmp_path):
    _, output = run
    dest = export_hf(str(output), str(tmp_path / "hf"))
    assert_three_typed_splits(load_hf(dest, tmp_path / "cache"), output)


def test_hf_folder_loads_with_its_card_the_same_splits_and_features(run, tmp_path):
    _, output = run
    dest = export_hf(str(output), str(tmp_path / "hf"))
    loaded = datasets.load_dataset(str(dest), cache_dir=str(tmp_path / "cache"))
    assert_three_typed_splits(loaded, output)
    # The card's dataset_info is read, not ignored: its split sizes are the loaded ones.
    builder = datasets.load_dataset_builder(str(dest), cache_dir=str(tmp_path / "cache2"))
    assert {name: info.num_examples for name, info in builder.info.splits.items()} == {
        split: loaded[split].num_rows for split in loaded}
    assert builder.info.features == loaded["train"].features


def test_hf_card_names_splits_features_profile_and_licence(run, tmp_path):
    _, output = run
    dest = export_hf(str(output))
    assert dest == output / "hf"
    files = sorted(path.name for path in (dest / "data").iterdir())
    assert files == ["test-00000-of-00001.parquet", "train-00000-of-00001.parquet",
                     "validation-00000-of-00001.parquet"]
    card = (dest / "README.md").read_text()
    header = yaml.safe_load(card.split("---\n")[1])
    paths = {entry["split"]: entry["path"] for entry in header["configs"][0]["data_files"]}
    assert paths == {"train": "data/train-*.parquet", "validation": "data/validation-*.parquet",
                     "test": "data/test-*.parquet"}
    info = header["dataset_info"]
    assert [feature["name"] for feature in info["features"]] == CAPTIONS.names
    assert info["features"][3]["dtype"]["class_label"]["names"] == {str(n): name for n, name in
                                                                    enumerate(MSRVTT_CATEGORIES)}
    assert {split["name"]: split["num_examples"] for split in info["splits"]} == {
        split: len(hf_rows_of(output, split)) for split in ("train", "validation", "test")}
    assert header["license"] == "unknown" and "No licence for them\ncould be established" in card
    assert "Microsoft" in card and "| validation | validate |" in card
    # The small run is the paper profile: the card says it reproduces the paper, and nothing else does.
    assert "the `paper` profile, which reproduces the cleaning published by Chen et al." in card
    assert 'data_files="captions/*.parquet")` gives one `train` split' in card
    assert ("Steps run: special characters, spelling, captions with characters outside the character set removed, "
            "near-duplicate captions of a video removed, "
            "run-on captions.") in card


def test_hf_card_says_the_default_profile_is_capcleans_own():
    from pipelines.cleaning.exports import dataset_card
    card = dataset_card({"train": (3, 100)}, {"profile": "default", "steps_run": ["dedup"]})
    assert "the `default` profile: capclean's own cleaning, not the published method" in card
    assert "reproduces" not in card


def test_hf_without_msrvtt_categories_keeps_the_number(run, tmp_path):
    _, output = run
    other = tmp_path / "other"
    (other / "captions").mkdir(parents=True)
    rows = [dict(row, category=row["category"] + 40) for row in caption_rows(output)]
    pq.write_table(pa.Table.from_pylist(rows, schema=CAPTIONS), other / "captions" / "part-0.parquet")
    loaded = load_hf(export_hf(str(other)), tmp_path / "cache")
    assert loaded["train"].features["category"] == datasets.Value("int32")
    assert "category" in (other / "hf" / "README.md").read_text()


def test_hf_leaves_out_a_split_without_captions(run, tmp_path):
    _, output = run
    dest = export_hf(str(output), str(tmp_path / "hf"))
    # An output of the test videos only: `datasets` cannot load an empty split, and the old file must go.
    test_only = tmp_path / "test_only"
    (test_only / "captions").mkdir(parents=True)
    rows = [row for row in caption_rows(output) if row["split"] == "test"]
    pq.write_table(pa.Table.from_pylist(rows, schema=CAPTIONS), test_only / "captions" / "part-00000.parquet")
    export_hf(str(test_only), str(dest))
    assert sorted(path.name for path in (dest / "data").iterdir()) == ["test-00000-of-00001.parquet"]
    assert list(load_hf(dest, tmp_path / "cache")) == ["test"]


# ---------------------------------------------------------------- run_exports

def test_run_exports_writes_every_export_in_its_default_place(run):
    source, output = run
    written = run_exports(EXPORTS, str(output), str(source))
    assert written == [output / "exports" / "msrvtt_videodatainfo.json", output / "exports" / "coco_validate.json",
                       output / "exports" / "coco_test.json", output / "hf"]
    assert all(path.exists() for path in written)


def test_run_exports_names_what_is_wrong(run):
    _, output = run
    with pytest.raises(ValueError, match="msrvtt-json export needs the run's original annotations"):
        run_exports(["coco", "msrvtt-json"], str(output), None)
    with pytest.raises(ValueError, match="unknown export parquet"):
        run_exports(["parquet"], str(output), None)
    with pytest.raises(ValueError, match="not the output folder of a capclean run"):
        run_exports(["coco"], str(output / "nowhere"), None)
