"""A dataset in MSR-VTT's format whose video ids are not MSR-VTT's `video<N>` is cleaned and validated too."""
import pyarrow.parquet as pq

from pipelines.cli import main


def test_video_ids_of_another_dataset_pass_validation_under_the_paper_profile(tmp_path, write_annotations):
    videos = [{"video_id": "clip_kitchen_01", "split": "train", "category": 1},
              {"video_id": "clip_street_07", "split": "test", "category": 2}]
    sentences = [{"sen_id": 1, "video_id": "clip_kitchen_01", "caption": "a man chops onions"},
                 {"sen_id": 2, "video_id": "clip_street_07", "caption": "cars drive down a street"}]
    source = write_annotations(tmp_path / "in", videos, sentences, name="clips.json")
    # The paper profile checks MSR-VTT's video ranges; they do not apply to these ids.
    assert main(["clean", "--input", str(source), "--output", str(tmp_path / "out"), "--profile", "paper"]) == 0
    kept = pq.read_table(tmp_path / "out" / "captions").to_pylist()
    assert [(row["video_id"], row["caption"]) for row in kept] == [
        ("clip_kitchen_01", "a man chops onions"), ("clip_street_07", "cars drive down a street")]
