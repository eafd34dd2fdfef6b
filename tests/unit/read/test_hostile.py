"""Hostile input, as the reader sees it: every broken record lands in removed/ with its reason;
a broken file is named. (Screening: tests/unit/screen/test_screen.py; the whole pipeline on hostile
input: tests/unit/pipelines/test_hostile_pipeline.py; the records: the `hostile` fixture, tests/conftest.py.)"""
import json
import random
import zipfile

import pytest

from transforms.read import (
    CaptionLimits,
    InputError,
    caption_problem,
    find_annotation_files,
    load_annotations,
    read_documents,
)


def read_all(document, limits=CaptionLimits(500, 5000)):
    return {batch.video_id: batch for batch in read_documents([document], limits)}


def test_the_reader_puts_every_hostile_record_somewhere(hostile):
    batches = read_all(hostile.document())
    kept = {c.sen_id: c.text for batch in batches.values() for c in batch.captions}
    removed = [row for batch in batches.values() for row in batch.removed]
    assert len(kept) + len(removed) == len(hostile.RECORDS) == sum(b.input_records for b in batches.values())
    for sentence, step, reason in hostile.RECORDS:
        if step == "read":
            assert any(reason in row.reason for row in removed), reason
    assert all(row.step == "read" for row in removed)
    assert all(isinstance(row.caption, (str, type(None))) for row in removed)


def test_a_caption_with_a_lone_surrogate_is_stored_escaped(hostile):
    video, record = hostile.video, hostile.record
    batches = read_all({"videos": [video(1)], "sentences": [record(6, 1, "a dog \ud800 runs")]})
    row = batches["video1"].removed[0]
    assert row.caption == "a dog \\ud800 runs"
    row.caption.encode("utf-8")


@pytest.mark.parametrize("caption, limits, reason", [
    ("a b c", CaptionLimits(2, None), "caption too long: 3 words, the limit is 2"),
    ("abcdef", CaptionLimits(None, 5), "caption too long: 6 characters, the limit is 5"),
    ("a b", CaptionLimits(2, 3), None),
    ("a\x1bb", CaptionLimits(), "caption holds control characters (binary data): U+001B"),
    ("a\tb\r\nc", CaptionLimits(), None),  # white space is not binary: step I collapses it
])
def test_caption_limits_and_binary_data(caption, limits, reason):
    assert caption_problem(caption, limits) == reason


def test_duplicate_video_records_alike_are_one_video_and_unlike_ones_make_its_captions_unusable(hostile):
    video, record = hostile.video, hostile.record
    batches = read_all({"videos": [video(4), video(4), video(5), video(5, "test")],
                        "sentences": [record(1, 4, "a"), record(2, 5, "b")]})
    assert [c.sen_id for c in batches["video4"].captions] == [1]
    assert batches["video5"].captions == []
    assert batches["video5"].removed[0].reason == (
        "video 'video5' has two different records in the video table (split 'train' and 'test')")


def test_duplicate_video_records_in_two_files_that_differ(hostile):
    video, record = hostile.video, hostile.record
    batch, = read_documents([{"videos": [video(5)], "sentences": [record(1, 5, "a")]},
                             {"videos": [video(5, category=9)], "sentences": []}])
    assert batch.captions == [] and "category 3 and 9" in batch.removed[0].reason


@pytest.mark.parametrize("content, message", [
    (b'{"videos": [], "sentences": [', "is not valid JSON"),
    (b"", "is not valid JSON"),
    (b"\x89PNG\r\n\x1a\n\x00\x00binary", "is not valid JSON"),
    (b'[1, 2, 3]', "is not an MSR-VTT annotation file"),
    (b'{"videos": {}, "sentences": []}', "is not an MSR-VTT annotation file"),
    (b"[" * 100_000 + b"]" * 100_000, "is not an MSR-VTT annotation file"),
    (b'{"videos": [], "sentences": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}",
     "record 0 of 'sentences' is nested more than 32 deep"),
    (b'{"info": ' + b"[" * 985 + b"]" * 985 + b', "videos": [], "sentences": []}',
     "the top-level object is nested more than 32 deep"),
    (b'{"videos": [], "sentences": [], "n": ' + b"9" * 5000 + b"}", "is not valid JSON"),
    (b'{"videos": [], "sentences": []} {"videos": []}', "is not valid JSON"),
])
def test_unreadable_json_files_are_named(tmp_path, content, message):
    (tmp_path / "bad.json").write_bytes(content)
    with pytest.raises(InputError, match=message) as error:
        load_annotations(find_annotation_files(str(tmp_path))[0])
    assert "bad.json" in str(error.value) and "\n" not in str(error.value)


def test_a_zip_with_a_corrupted_member_is_named(tmp_path, hostile):
    letters = random.Random(0).choices("abcdefghijklmnopqrstuvwxyz ", k=5000)
    document = json.dumps({"videos": [], "sentences": [hostile.record(1, 1, "".join(letters))]}).encode()
    with zipfile.ZipFile(tmp_path / "corrupt.zip", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a_videodatainfo.json", document)
    data = bytearray((tmp_path / "corrupt.zip").read_bytes())
    middle = data.index(b"a_videodatainfo.json") + 60  # inside the compressed stream
    data[middle:middle + 20] = b"\xff" * 20
    (tmp_path / "corrupt.zip").write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"cannot read .*corrupt.zip:a_videodatainfo.json"):
        load_annotations(find_annotation_files(str(tmp_path))[0])


def test_a_truncated_zip_is_named(tmp_path):
    with zipfile.ZipFile(tmp_path / "whole.zip", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a_videodatainfo.json", json.dumps({"videos": [], "sentences": []}))
    (tmp_path / "cut.zip").write_bytes((tmp_path / "whole.zip").read_bytes()[:40])
    (tmp_path / "whole.zip").unlink()
    with pytest.raises(InputError, match=r"cannot read zip file .*cut.zip"):
        find_annotation_files(str(tmp_path))


def test_bytes_that_are_not_utf8_make_one_record_unusable_not_the_file(tmp_path, hostile):
    folder = hostile.write(tmp_path)
    document = load_annotations(find_annotation_files(str(folder))[0])
    batches = read_all(document)
    row = next(row for row in batches["video3"].removed if row.sen_id == 31)
    assert row.reason.startswith("caption is not valid text")
    assert row.caption == "caf\\udce9 latin-1 bytes"
