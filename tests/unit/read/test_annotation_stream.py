"""An annotation file parsed as a stream: records are handed on as they are read, within the size
limits, and what the fast parser cannot give back exactly is parsed again as `json` would read it."""
import json
import zipfile

import pytest

from transforms.annotation_stream import CHUNK_BYTES, SizeLimits, parse_annotation_file
from transforms.read import AnnotationFile, InputError, load_annotations


def write(tmp_path, data: bytes, name="a_videodatainfo.json") -> AnnotationFile:
    path = tmp_path / name
    path.write_bytes(data)
    return AnnotationFile(str(path), size=len(data))


def document(captions, **extra) -> dict:
    return {"info": {"year": 2016}, "videos": [{"video_id": "video0", "split": "train", "category": 1}],
            "sentences": [{"sen_id": i, "video_id": "video0", "caption": c} for i, c in enumerate(captions)],
            **extra}


def test_records_come_in_file_order_with_their_list(tmp_path):
    source = write(tmp_path, json.dumps(document(["a man", "a dog"])).encode())
    records = parse_annotation_file(source, SizeLimits(), list)
    assert [name for name, _ in records] == ["info", "videos", "sentences", "sentences"]
    assert records[0][1] == {"year": 2016}
    assert records[3][1] == {"sen_id": 1, "video_id": "video0", "caption": "a dog"}


def test_a_record_is_handed_on_before_the_file_is_read_whole(tmp_path):
    data = json.dumps(document([f"caption number {i}" for i in range(50_000)])).encode()
    assert len(data) > 10 * CHUNK_BYTES
    source = write(tmp_path, data[:-100] + b"not JSON")  # a fault far into the file
    seen = []

    def keep(records):
        for record in records:
            seen.append(record)

    with pytest.raises(InputError, match="is not valid JSON"):
        parse_annotation_file(source, SizeLimits(), keep)
    assert len(seen) > 40_000  # a parser of the whole file would have failed before the first


def test_a_record_over_the_limit_refuses_the_file_naming_the_record(tmp_path):
    pasted = "word " * (300 * 1024)  # 1.5 MiB in one caption
    source = write(tmp_path, json.dumps(document(["a man", pasted])).encode())
    with pytest.raises(InputError, match=r"record 1 of 'sentences' \(which starts before byte [\d,]+\) is more than "
                                         r"1,024 KiB \(input.max_record_kilobytes"):
        parse_annotation_file(source, SizeLimits(max_record_kilobytes=1024), list)
    records = parse_annotation_file(source, SizeLimits(max_record_kilobytes=2048), list)
    assert records[-1][1]["caption"] == pasted


def test_many_small_records_are_not_one_large_one(tmp_path):
    source = write(tmp_path, json.dumps(document(["a man is walking"] * 100_000)).encode())
    assert len(parse_annotation_file(source, SizeLimits(max_record_kilobytes=1), list)) == 100_002


def test_the_file_limit_holds_while_reading_whatever_size_was_declared(tmp_path):
    data = json.dumps(document(["a man is walking"] * 100_000)).encode()
    source = AnnotationFile(write(tmp_path, data).path, size=10)  # as a lying zip or a growing file would say
    with pytest.raises(InputError, match=r"is more than 1 MiB unpacked \(input.max_file_megabytes"):
        parse_annotation_file(source, SizeLimits(max_file_megabytes=1), list)


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-32"])
def test_the_encodings_json_reads_are_read(tmp_path, encoding):
    text = json.dumps(document(["un caf\u00e9 \U0001F600"]), ensure_ascii=False)
    source = write(tmp_path, text.encode(encoding))
    expected = json.loads(text)
    assert load_annotations(source) == expected


@pytest.mark.parametrize("escaped, expected", [
    ("a dog \\ud800 runs", "a dog \ud800 runs"),  # lone: the C parser would write '?'
    ("a \\ud83d\\ude00 b", "a \U0001F600 b"),  # a pair
    ("a \\\\ud800 b", "a \\ud800 b"),  # an escaped backslash, then text
])
def test_escapes_of_surrogates_are_read_as_json_reads_them(tmp_path, escaped, expected):
    data = ('{"videos": [], "sentences": [{"sen_id": 1, "video_id": "v", "caption": "%s"}]}' % escaped).encode()
    assert load_annotations(write(tmp_path, data))["sentences"][0]["caption"] == expected == json.loads(data)[
        "sentences"][0]["caption"]


def test_bytes_that_are_not_utf8_become_lone_surrogates_in_their_string(tmp_path):
    data = b'{"videos": [], "sentences": [{"caption": "caf\xe9 ok"}, {"caption": "fine"}]}'
    sentences = load_annotations(write(tmp_path, data))["sentences"]
    assert sentences == [{"caption": "caf\udce9 ok"}, {"caption": "fine"}]


def test_integers_beyond_64_bits_are_read_whole(tmp_path):
    data = b'{"videos": [], "sentences": [{"sen_id": 1180591620717411303424}, {"sen_id": 18.5}]}'
    assert [s["sen_id"] for s in load_annotations(write(tmp_path, data))["sentences"]] == [2**70, 18.5]


def test_a_zip_member_is_streamed_like_a_file(tmp_path):
    path = tmp_path / "a.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a_videodatainfo.json", json.dumps(document(["a man"])))
    source = AnnotationFile(str(path), "a_videodatainfo.json", 100)
    assert load_annotations(source)["sentences"][0]["caption"] == "a man"


def test_a_list_of_records_that_is_not_a_list_is_refused(tmp_path):
    source = write(tmp_path, b'{"videos": [], "sentences": "none"}')
    with pytest.raises(InputError, match="is not an MSR-VTT annotation file"):
        load_annotations(source)
