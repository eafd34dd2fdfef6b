"""The same pipeline on three runners gives the same bytes (the DaskRunner's mended translation on small
pipelines: tests/unit/pipelines/test_dask_runner.py)."""
import hashlib
import json
import zipfile

import pytest

from pipelines.cli import main

DASK = ["--runner", "DaskRunner", "--dask_local_workers=2"]  # the flag value as its own word, as typed


def output_digest(output):
    """sha256 of every Parquet file and of stats.json, by path."""
    paths = sorted(output.rglob("*.parquet")) + [output / "stats.json"]
    return {str(path.relative_to(output)): hashlib.sha256(path.read_bytes()).hexdigest() for path in paths}


@pytest.fixture(scope="module")
def msrvtt_mixed_sample(msrvtt_dir, tmp_path_factory):
    """300 videos of all three splits in two MSR-VTT-format files (in a temporary folder only)."""
    folder = tmp_path_factory.mktemp("mixed-sample")
    with zipfile.ZipFile(msrvtt_dir / "train_val_annotation.zip") as archive:
        train_val = json.load(archive.open("train_val_videodatainfo.json"))
    with zipfile.ZipFile(msrvtt_dir / "test_videodatainfo.json.zip") as archive:
        test = json.load(archive.open("test_videodatainfo.json"))
    train_val_videos = [v for v in train_val["videos"] if v["split"] == "train"][:150] + \
        [v for v in train_val["videos"] if v["split"] == "validate"][:50]
    for name, document, videos in (("train_val", train_val, train_val_videos), ("test", test, test["videos"][:100])):
        ids = {video["video_id"] for video in videos}
        sentences = [s for s in document["sentences"] if s["video_id"] in ids]
        (folder / f"{name}_videodatainfo.json").write_text(
            json.dumps({"info": {}, "videos": videos, "sentences": sentences}))
    return folder


@pytest.mark.integration
def test_in_process_multi_process_and_dask_write_the_same_bytes(msrvtt_mixed_sample, tmp_path, multi_process):
    outputs = {}
    for name, beam_args in (("in_process", []), ("multi_process", multi_process), ("dask", DASK)):
        outputs[name] = tmp_path / name
        assert main(["clean", "--input", str(msrvtt_mixed_sample), "--output", str(outputs[name])] + beam_args) == 0
    reference = output_digest(outputs["in_process"])
    assert {"captions/part-0000000000000000000.parquet", "removed/part-0000000000000000000.parquet",
            "edits/part-0000000000000000000.parquet",
            "corrections/part-0000000000000000000.parquet", "stats.json"} <= set(reference)
    stats = json.loads((outputs["in_process"] / "stats.json").read_text())
    assert set(stats["output"]["captions_by_split"]) == {"train", "validate", "test"}
    assert stats["steps"]["runon"]["captions_changed"] > 0 and stats["steps"]["dedup"]["captions_removed"] > 0
    assert output_digest(outputs["multi_process"]) == reference
    assert output_digest(outputs["dask"]) == reference
