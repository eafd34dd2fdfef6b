"""Input that cannot be read whole is refused before it is read: a file over the size limit, a device."""
import time
import zipfile

import pytest

from transforms.annotation_stream import SizeLimits
from transforms.read import AnnotationFile, InputError, find_annotation_files, missing_msrvtt_files


def test_a_zip_member_over_the_limit_is_refused_by_its_declared_size(tmp_path):
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as bomb:
        bomb.writestr("train_val_videodatainfo.json", b" " * (3 * 2**20))
    assert archive.stat().st_size < 2**16
    started = time.monotonic()
    with pytest.raises(InputError, match=r"bomb.zip:train_val_videodatainfo.json is 3 MiB unpacked, more than "
                                         r"the limit of 2 MiB \(input.max_file_megabytes"):
        find_annotation_files(str(tmp_path), SizeLimits(max_file_megabytes=2))
    assert time.monotonic() - started < 1.0
    assert len(find_annotation_files(str(tmp_path), SizeLimits(max_file_megabytes=4))) == 1


def test_a_json_file_over_the_limit_is_refused(tmp_path):
    (tmp_path / "big.json").write_bytes(b" " * (2 * 2**20 + 1))
    with pytest.raises(InputError, match="big.json is 2 MiB unpacked"):
        find_annotation_files(str(tmp_path), SizeLimits(max_file_megabytes=2))


def test_a_device_is_neither_a_file_nor_a_folder():
    with pytest.raises(InputError, match="/dev/null is neither a file nor a folder"):
        find_annotation_files("/dev/null")


def test_a_folder_with_one_of_msrvtts_two_files_names_the_other():
    train = AnnotationFile("x/train_val_annotation.zip", "train_val_videodatainfo.json")
    test = AnnotationFile("x/test_videodatainfo.json")
    assert missing_msrvtt_files([train]) == ["test_videodatainfo.json"]
    assert missing_msrvtt_files([train, test]) == []
    assert missing_msrvtt_files([AnnotationFile("x/my_dataset.json")]) == []


def test_an_over_long_caption_is_kept_in_removed_as_a_preview_and_its_length():
    from transforms.read import CaptionLimits, PREVIEW_CHARACTERS, stored_text

    limits = CaptionLimits(max_words=500, max_characters=5000)
    pasted = "word " * 20_000
    kept = stored_text(pasted, limits)
    assert kept.startswith(pasted[:PREVIEW_CHARACTERS]) and kept.endswith("[100,000 characters in all]")
    assert len(kept) < 300
    assert stored_text("a caption that is bad for another reason", limits) == "a caption that is bad for another reason"
