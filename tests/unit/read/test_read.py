import json
import zipfile

import pytest

from transforms.read import (
    InputError,
    find_annotation_files,
    load_annotations,
    document_records,
    read_documents,
    records_in,
    repeated_sen_ids,
    split_into_video_parts,
)


def video(number, split="train", category=3):
    return {"id": number, "video_id": f"video{number}", "split": split, "category": category, "url": "u",
            "start time": 0.0, "end time": 1.0}


def sentence(sen_id, number, caption):
    return {"sen_id": sen_id, "video_id": f"video{number}", "caption": caption}


def annotations(videos, sentences):
    return {"info": {"version": "1.0"}, "videos": videos, "sentences": sentences}


def read_all(*documents):
    """What the reader makes of these documents: video_id -> VideoBatch."""
    return {batch.video_id: batch for batch in read_documents(documents)}


def test_captions_are_grouped_by_video_and_sorted_by_sen_id():
    batches = read_all(annotations([video(0), video(1, "test", 7)],
                                   [sentence(5, 0, "b"), sentence(2, 0, "a"), sentence(9, 1, "c")]))
    assert [(c.sen_id, c.text) for c in batches["video0"].captions] == [(2, "a"), (5, "b")]
    assert (batches["video1"].split, batches["video1"].category) == ("test", 7)
    assert batches["video0"].input_records == 2 and batches["video0"].removed == []


def test_a_video_table_in_another_file_still_counts():
    batches = read_all(annotations([video(0)], []), annotations([], [sentence(1, 0, "a cat")]))
    assert [c.sen_id for c in batches["video0"].captions] == [1]


@pytest.mark.parametrize("record, reason", [
    ({"sen_id": 1, "video_id": "video0"}, "missing field 'caption'"),
    ({"sen_id": 1, "video_id": "video0", "caption": 42}, "caption is not a string"),
    ({"sen_id": 1, "video_id": "video0", "caption": "   "}, "caption is empty"),
    ({"sen_id": "1", "video_id": "video0", "caption": "a"}, "sen_id is not a 64-bit integer"),
    ({"sen_id": 2**70, "video_id": "video0", "caption": "a"}, "sen_id is not a 64-bit integer"),
    ({"sen_id": 1, "video_id": 0, "caption": "a"}, "video_id is not a string"),
    ("a string", "sentence record is not an object"),
])
def test_unusable_records_go_to_removed_with_a_reason(record, reason):
    batches = read_all(annotations([video(0)], [sentence(0, 0, "fine"), record]))
    removed = [row for batch in batches.values() for row in batch.removed]
    assert len(removed) == 1
    assert removed[0].step == "read" and reason in removed[0].reason
    assert sum(batch.input_records for batch in batches.values()) == 2


def test_a_repeated_sen_id_keeps_the_first_record_even_across_files():
    batches = read_all(annotations([video(0)], [sentence(1, 0, "first")]),
                       annotations([video(1)], [sentence(1, 1, "second")]))
    assert [c.text for c in batches["video0"].captions] == ["first"]
    assert batches["video1"].captions == []
    assert batches["video1"].removed[0].reason.startswith("sen_id repeated")


def test_sentences_of_an_unknown_video_are_removed():
    batches = read_all(annotations([video(0)], [sentence(1, 5, "lost")]))
    assert batches["video5"].captions == []
    assert batches["video5"].removed[0].reason == "video 'video5' is not in the video table"
    assert batches["video5"].removed[0].caption == "lost"


def test_a_video_record_without_category_makes_its_sentences_unusable():
    bad = video(0)
    del bad["category"]
    batches = read_all(annotations([bad], [sentence(1, 0, "a")]))
    assert batches["video0"].captions == []
    assert "has no integer category" in batches["video0"].removed[0].reason


def test_input_folder_with_zips_and_json(tmp_path):
    document = annotations([video(0)], [sentence(0, 0, "a")])
    with zipfile.ZipFile(tmp_path / "train.zip", "w") as archive:
        archive.writestr("train_videodatainfo.json", json.dumps(document))
        archive.writestr("readme.txt", "not annotations")
    (tmp_path / "test_videodatainfo.json").write_text(json.dumps(document))
    files = find_annotation_files(str(tmp_path))
    assert [f.name for f in files] == [str(tmp_path / "test_videodatainfo.json"),
                                       f"{tmp_path / 'train.zip'}:train_videodatainfo.json"]
    assert load_annotations(files[1])["sentences"][0]["caption"] == "a"


def test_an_unzipped_copy_beside_its_zip_is_read_once(tmp_path):
    document = json.dumps(annotations([], []))
    with zipfile.ZipFile(tmp_path / "test.json.zip", "w") as archive:
        archive.writestr("test_videodatainfo.json", document)
    (tmp_path / "test_videodatainfo.json").write_text(document)
    assert len(find_annotation_files(str(tmp_path))) == 1


def test_missing_input_is_one_clear_error(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        find_annotation_files(str(tmp_path / "nope"))
    with pytest.raises(InputError, match="no annotation files"):
        find_annotation_files(str(tmp_path))


def test_broken_files_are_named(tmp_path):
    (tmp_path / "bad.json").write_text('{"videos": [')
    with pytest.raises(InputError, match=r"bad.json is not valid JSON"):
        load_annotations(find_annotation_files(str(tmp_path))[0])
    (tmp_path / "bad.json").write_text('{"videos": []}')
    with pytest.raises(InputError, match=r"bad.json is not an MSR-VTT annotation file"):
        load_annotations(find_annotation_files(str(tmp_path))[0])
    (tmp_path / "bad.json").unlink()
    (tmp_path / "truncated.zip").write_bytes(b"PK\x03\x04 truncated")
    with pytest.raises(InputError, match=r"truncated.zip"):
        find_annotation_files(str(tmp_path))


def test_repeated_sen_ids_keep_the_first_record_in_file_order_whatever_order_they_come_in():
    records = [(7, 1, 0, "video2"), (7, 0, 5, "video1"), (7, 0, 2, "video3"), (8, 1, 1, "video2")]
    for order in (records, records[::-1]):
        repeats = repeated_sen_ids(order)
        assert [(r.video_id, r.file_index, r.position) for r in repeats] == [("video1", 0, 5), ("video2", 1, 0)]


def test_a_sen_id_repeated_in_another_file_is_removed_from_the_later_file():
    batches = read_all(annotations([video(0)], [sentence(1, 0, "a")]),
                       annotations([video(1)], [sentence(1, 1, "b"), sentence(2, 1, "c")]))
    assert [c.sen_id for c in batches["video0"].captions] == [1]
    assert [c.sen_id for c in batches["video1"].captions] == [2]
    assert batches["video1"].removed[0].reason == "sen_id repeated: 1 was read before"
    assert batches["video1"].input_records == 2


def test_every_sentence_record_of_a_file_is_counted_in_one_part():
    """The reader's count of a file's records (the run's conservation check): usable or not, of a known
    video, an unknown one or none, every sentence record is in exactly one part."""
    sentences = [sentence(1, 0, "a man"), sentence(2, 0, 12), sentence(3, 5, "an unknown video"),
                 {"sen_id": 4, "caption": "no video id"}, "not a record", sentence(1, 0, "a repeated id")]
    document = annotations([video(0)], sentences)
    parts = split_into_video_parts(document_records(document), file_index=0)
    assert sum(records_in(part) for part in parts.values()) == len(sentences) == 6
    assert sum(batch.input_records for batch in read_documents([document])) == 6
