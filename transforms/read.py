"""Reading MSR-VTT-format annotations into one VideoBatch per video.

An annotation file is `{"info", "videos": [...], "sentences": [...]}` (MSR-VTT
v1's `train_val_videodatainfo.json` and `test_videodatainfo.json`), as such or
inside a zip. A file that cannot be read stops the run with one line naming it;
a record that cannot be used goes to `removed/` with step "read" and a reason.
"""
import json
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import apache_beam as beam

from transforms.batch import Caption, VideoBatch
from transforms.errors import CapcleanError

STEP = "read"


class InputError(CapcleanError):
    """An input file or folder that cannot be read; the message names it."""


@dataclass(frozen=True)
class AnnotationFile:
    path: str  # the file on disk
    member: Optional[str] = None  # the JSON file inside it, when `path` is a zip

    @property
    def name(self) -> str:
        return f"{self.path}:{self.member}" if self.member else self.path


def find_annotation_files(input_path: str) -> list:
    """The annotation files of an input folder (JSON files and the JSON members of zips), or the one file given.

    A JSON file that stands beside a zip holding the same file is read once, unzipped.
    """
    path = Path(input_path)
    if not path.exists():
        raise InputError(f"input {input_path} does not exist")
    candidates = [path] if path.is_file() else sorted(p for p in path.iterdir() if p.suffix in (".json", ".zip"))
    plain = [AnnotationFile(str(p)) for p in candidates if p.suffix == ".json"]
    plain_names = {Path(f.path).name for f in plain}
    zipped = [f for p in candidates if p.suffix == ".zip" for f in _json_members(p) if Path(f.member).name not in plain_names]
    files = plain + zipped
    if not files:
        raise InputError(f"no annotation files (*.json, or *.zip holding them) in {input_path}")
    return files


def _json_members(path: Path) -> list:
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except (OSError, zipfile.BadZipFile) as error:
        raise InputError(f"cannot read zip file {path}: {error}") from None
    return [AnnotationFile(str(path), name) for name in sorted(names)
            if name.endswith(".json") and not Path(name).name.startswith(".")]


def load_annotations(source: AnnotationFile) -> dict:
    try:
        if source.member is None:
            with open(source.path, "rb") as handle:
                document = parse_json(handle.read())
        else:
            with zipfile.ZipFile(source.path) as archive, archive.open(source.member) as handle:
                document = parse_json(handle.read())
    except json.JSONDecodeError as error:
        raise InputError(f"{source.name} is not valid JSON: {error}") from None
    except RecursionError:
        raise InputError(f"{source.name} is not usable JSON: nested too deeply") from None
    except ValueError as error:  # e.g. an integer of more than 4,300 digits
        raise InputError(f"{source.name} is not usable JSON: {error}") from None
    except (OSError, zipfile.BadZipFile, EOFError, zlib.error) as error:
        raise InputError(f"cannot read {source.name}: {error}") from None
    except (NotImplementedError, RuntimeError) as error:  # a zip member compressed or encrypted in a way zipfile cannot read
        raise InputError(f"cannot read {source.name}: {error}") from None
    if not isinstance(document, dict) or not isinstance(document.get("sentences"), list) \
            or not isinstance(document.get("videos"), list):
        raise InputError(f"{source.name} is not an MSR-VTT annotation file: "
                         "expected an object with lists 'videos' and 'sentences'")
    return document


def parse_json(data: bytes):
    """JSON in UTF-8 (or UTF-16/32, as `json` detects them). Bytes that are not UTF-8 inside a
    string do not stop the run: they are kept as lone surrogates, and the record that holds
    them goes to removed/ with its reason (see `is_text`)."""
    try:
        return json.loads(data)
    except UnicodeDecodeError:
        return json.loads(data.decode("utf-8", errors="surrogateescape"))


@dataclass(frozen=True)
class CaptionLimits:
    """The largest caption the steps are given: a longer one is pasted text, not a caption,
    and it would cost the spelling and near-duplicate steps time out of all proportion."""
    max_words: Optional[int] = None  # None: no limit
    max_characters: Optional[int] = None


NO_LIMITS = CaptionLimits()


@dataclass
class VideoPart:
    """What one annotation file says about one video."""
    file_index: int
    info: Optional[dict] = None  # video_id, split, category
    problem: Optional[str] = None  # why the video record, if any, is unusable
    conflict: Optional[str] = None  # set when the file holds two different records of the video
    captions: list = field(default_factory=list)  # (sen_id, caption)
    rejected: list = field(default_factory=list)  # (sen_id or None, caption or None, reason)


def is_text(value) -> bool:
    """A string that can be written as UTF-8. Not one with lone surrogates: a JSON escape
    ("\\ud800") makes them, and so does `parse_json` for bytes that are not UTF-8."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(text: str) -> str:
    """`text` with what UTF-8 cannot hold (lone surrogates) written as backslash escapes, so it can be stored."""
    return text if is_text(text) else text.encode("utf-8", "backslashreplace").decode("utf-8")


def binary_characters(text: str) -> list:
    """The distinct control characters of `text` other than white space (NUL, escape, ...): binary data, not
    writing. Hunspell's C interface, for one, cannot take a NUL."""
    if text.isprintable():  # the common case, checked in C: no control character at all
        return []
    return sorted({char for char in text if unicodedata.category(char) == "Cc" and not char.isspace()})


def video_problem(video) -> Optional[str]:
    if not isinstance(video, dict):
        return "video record is not an object"
    if not is_text(video.get("video_id")) or not video["video_id"]:
        return "video record has no video_id string"
    if not is_text(video.get("split")) or not video["split"]:
        return f"video {video['video_id']} has no split string"
    category = video.get("category")
    if not isinstance(category, int) or isinstance(category, bool) or not -2**31 <= category < 2**31:
        return f"video {video['video_id']} has no integer category"
    return None


def sentence_problem(sentence, limits: CaptionLimits = NO_LIMITS) -> Optional[str]:
    if not isinstance(sentence, dict):
        return "sentence record is not an object"
    for key in ("sen_id", "video_id", "caption"):
        if key not in sentence:
            return f"missing field {key!r}"
    if usable_sen_id(sentence) is None:
        return f"sen_id is not a 64-bit integer: {_shown(sentence['sen_id'])}"
    if not isinstance(sentence["video_id"], str):
        return f"video_id is not a string: {_shown(sentence['video_id'])}"
    if not is_text(sentence["video_id"]):
        return f"video_id is not valid Unicode text: {_shown(sentence['video_id'])}"
    return caption_problem(sentence["caption"], limits)


def caption_problem(caption, limits: CaptionLimits = NO_LIMITS) -> Optional[str]:
    if not isinstance(caption, str):
        return f"caption is not a string: {_shown(caption)}"
    if not is_text(caption):
        return "caption is not valid text: it holds bytes that are not UTF-8, or a lone surrogate escape"
    if not caption.strip():
        return "caption is empty"
    binary = binary_characters(caption)
    if binary:
        return "caption holds control characters (binary data): " + ", ".join(f"U+{ord(c):04X}" for c in binary)
    if limits.max_characters is not None and len(caption) > limits.max_characters:
        return f"caption too long: {len(caption)} characters, the limit is {limits.max_characters}"
    if limits.max_words is not None:
        words = len(caption.split())
        if words > limits.max_words:
            return f"caption too long: {words} words, the limit is {limits.max_words}"
    return None


def _shown(value) -> str:
    """A value as a reason quotes it: its first 40 characters, escaped."""
    try:
        text = str(value)
    except ValueError:  # an integer too long to print
        text = type(value).__name__
    return repr(printable(text[:40]))


def split_into_video_parts(document: dict, file_index: int, seen_sen_ids: set,
                           limits: CaptionLimits = NO_LIMITS) -> dict:
    """video_id -> VideoPart for one parsed annotation file.

    `seen_sen_ids` carries the ids of earlier files, so an id repeated anywhere
    in the input is caught: the first record keeps it, later ones are rejected.
    """
    parts = {}

    def part(video_id):
        return parts.setdefault(video_id, VideoPart(file_index))

    for video in document["videos"]:
        problem = video_problem(video)
        video_id = video.get("video_id") if isinstance(video, dict) and is_text(video.get("video_id")) else None
        if video_id is None:
            continue  # no usable id: no sentence can refer to it
        if problem:
            part(video_id).problem = problem
            continue
        info = {key: video[key] for key in ("video_id", "split", "category")}
        if part(video_id).info is None:
            part(video_id).info = info
        elif part(video_id).info != info and part(video_id).conflict is None:
            part(video_id).conflict = conflicting_records(video_id, part(video_id).info, info)
    for sentence in document["sentences"]:
        sen_id = usable_sen_id(sentence)
        problem = sentence_problem(sentence, limits)
        if sen_id is not None:
            if sen_id in seen_sen_ids:
                problem = f"sen_id repeated: {sen_id} was read before"
            seen_sen_ids.add(sen_id)
        video_id = sentence.get("video_id") if isinstance(sentence, dict) else None
        video_id = video_id if is_text(video_id) else ""
        caption = sentence.get("caption") if isinstance(sentence, dict) else None
        if problem:
            part(video_id).rejected.append((sen_id, printable(caption) if isinstance(caption, str) else None, problem))
        else:
            part(video_id).captions.append((sen_id, caption))
    return parts


def conflicting_records(video_id: str, first: dict, other: dict) -> str:
    differences = ", ".join(f"{key} {first[key]!r} and {other[key]!r}" for key in ("split", "category")
                            if first[key] != other[key])
    return f"video {video_id!r} has two different records in the video table ({differences})"


def usable_sen_id(sentence) -> Optional[int]:
    sen_id = sentence.get("sen_id") if isinstance(sentence, dict) else None
    if isinstance(sen_id, int) and not isinstance(sen_id, bool) and -2**63 <= sen_id < 2**63:
        return sen_id
    return None


def assemble_video(video_id: str, parts) -> VideoBatch:
    """One VideoBatch from what every file said about a video, in file order."""
    parts = sorted(parts, key=lambda p: p.file_index)
    infos = [p.info for p in parts if p.info]
    info = infos[0] if infos else None
    problem = next((p.problem for p in parts if p.problem), None)
    conflict = next((p.conflict for p in parts if p.conflict), None)
    if conflict is None and any(other != info for other in infos[1:]):
        conflict = conflicting_records(video_id, info, next(other for other in infos if other != info))
    captions = sorted((Caption(sen_id, text) for p in parts for sen_id, text in p.captions), key=lambda c: c.sen_id)
    rejected = [row for p in parts for row in p.rejected]
    batch = VideoBatch(video_id=video_id, split=info and info["split"], category=info and info["category"],
                       captions=captions, input_records=len(captions) + len(rejected))
    if info is None or conflict:
        why = conflict or problem or f"video {video_id!r} is not in the video table"
        rejected += [(c.sen_id, c.text, why) for c in captions]
        batch.captions = []
    batch.removed = sorted(
        ({"sen_id": sen_id, "video_id": video_id or None, "split": batch.split, "caption": caption,
          "step": STEP, "reason": reason, "kept_sen_id": None} for sen_id, caption, reason in rejected),
        key=lambda row: (row["sen_id"] is None, row["sen_id"] or 0, row["reason"]))
    return batch


class ReadAnnotationFilesFn(beam.DoFn):
    """All annotation files of the input, one after the other, as (video_id, VideoPart)."""

    def __init__(self, limits: CaptionLimits = NO_LIMITS):
        self._limits = limits

    def process(self, sources):
        seen_sen_ids = set()
        for file_index, source in enumerate(sources):
            parts = split_into_video_parts(load_annotations(source), file_index, seen_sen_ids, self._limits)
            yield from parts.items()


class ReadMsrVtt(beam.PTransform):
    """MSR-VTT-format annotation files -> one VideoBatch per video id (sentences of unknown videos included)."""

    def __init__(self, sources, limits: CaptionLimits = NO_LIMITS):
        super().__init__()
        self._sources = list(sources)
        self._limits = limits

    def expand(self, pipeline):
        return (
            pipeline
            | "AnnotationFiles" >> beam.Create([self._sources])
            | "ReadAnnotationFiles" >> beam.ParDo(ReadAnnotationFilesFn(self._limits))
            | "GroupByVideo" >> beam.GroupByKey()
            | "AssembleVideos" >> beam.MapTuple(assemble_video)
        )
