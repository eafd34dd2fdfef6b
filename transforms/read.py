"""Reading MSR-VTT-format annotations into one VideoBatch per video.

An annotation file is `{"info", "videos": [...], "sentences": [...]}` (MSR-VTT
v1's `train_val_videodatainfo.json` and `test_videodatainfo.json`), as such or
inside a zip, parsed as a stream (transforms/annotation_stream.py). A file that
cannot be read stops the run with one line naming it; a record that cannot be used
goes to `removed/` with step "read" and a reason.
"""
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from transforms.annotation_stream import RECORD_LISTS, InputError, SizeLimits, parse_annotation_file
from transforms.batch import Caption, VideoBatch
from transforms.lineage import RemovedRow

STEP = "read"


@dataclass(frozen=True)
class AnnotationFile:
    path: str  # the file on disk
    member: Optional[str] = None  # the JSON file inside it, when `path` is a zip
    size: int = 0  # bytes, unpacked

    @property
    def name(self) -> str:
        return f"{self.path}:{self.member}" if self.member else self.path


# MSR-VTT's two annotation files: a folder holding one of them should hold the other.
MSRVTT_FILES = ("train_val_videodatainfo.json", "test_videodatainfo.json")


def find_annotation_files(input_path: str, limits: SizeLimits = SizeLimits()) -> list:
    """The annotation files of an input folder (JSON files and the JSON members of zips), or the one file given.

    A JSON file that stands beside a zip holding the same file is read once, unzipped. A file
    larger than the limit (unpacked, as the file system or the zip declares it) is refused
    before anything is read; the reader checks the limit again as it reads.
    """
    path = Path(input_path)
    if not path.exists():
        raise InputError(f"input {input_path} does not exist")
    if not (path.is_file() or path.is_dir()):
        raise InputError(f"input {input_path} is neither a file nor a folder")
    candidates = [path] if path.is_file() else sorted(p for p in path.iterdir() if p.suffix in (".json", ".zip"))
    plain = [AnnotationFile(str(p), size=p.stat().st_size) for p in candidates if p.suffix == ".json"]
    plain_names = {Path(f.path).name for f in plain}
    zipped = [f for p in candidates if p.suffix == ".zip" for f in _json_members(p) if Path(f.member).name not in plain_names]
    files = plain + zipped
    if not files:
        raise InputError(f"no annotation files (*.json, or *.zip holding them) in {input_path}")
    for file in files:
        if file.size > limits.max_file_megabytes * 2**20:
            raise InputError(f"{file.name} is {file.size / 2**20:,.0f} MiB unpacked, more than the limit of "
                             f"{limits.max_file_megabytes:,} MiB (input.max_file_megabytes; raise it to read this file)")
    return files


def missing_msrvtt_files(files: list) -> list:
    """MSR-VTT's annotation files absent from `files` when one of the two is there (a split would be missing)."""
    names = {Path(file.member or file.path).name for file in files}
    if not names & set(MSRVTT_FILES):
        return []
    return [name for name in MSRVTT_FILES if name not in names]


def _json_members(path: Path) -> list:
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (OSError, zipfile.BadZipFile) as error:
        raise InputError(f"cannot read zip file {path}: {error}") from None
    # The size a member declares bounds what zipfile unpacks from it.
    return [AnnotationFile(str(path), member.filename, member.file_size)
            for member in sorted(members, key=lambda member: member.filename)
            if member.filename.endswith(".json") and not Path(member.filename).name.startswith(".")]


def load_annotations(source: AnnotationFile, limits: SizeLimits = SizeLimits()) -> dict:
    """The file as {"info": ..., "videos": [...], "sentences": [...]}, keys in file order, for tools
    that want its records whole."""
    def collect(records):
        document = {}
        for key, record in records:
            if key in RECORD_LISTS:
                document.setdefault(key, []).append(record)
            else:
                document[key] = record
        return {**document, **{name: document.get(name, []) for name in RECORD_LISTS if name not in document}}

    return parse_annotation_file(source, limits, collect)


def document_records(document: dict):
    """("videos" or "sentences", record) for a parsed annotation file, as the reader hands them on."""
    return ((list_name, record) for list_name in RECORD_LISTS for record in document[list_name])


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
    captions: list = field(default_factory=list)  # (sen_id, position in the file's sentences, caption)
    rejected: list = field(default_factory=list)  # (sen_id or None, caption or None, reason)
    # (sen_id, position) of every record with a usable sen_id, usable or not: an id is used once read.
    sen_ids: list = field(default_factory=list)


def records_in(part: VideoPart) -> int:
    """The caption records a VideoPart holds, usable or not: every sentence record of a file is in one part."""
    return len(part.captions) + len(part.rejected)


@dataclass(frozen=True)
class RepeatedSenId:
    """A record whose sen_id an earlier record (in file order, then in the file) already has."""
    video_id: str
    sen_id: int
    file_index: int
    position: int


def is_text(value) -> bool:
    """A string that can be written as UTF-8. Not one with lone surrogates: a JSON escape
    ("\\ud800") makes them, and so does the reader for bytes that are not UTF-8."""
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


# How much of an over-long caption removed/ keeps: enough to recognise it, not the pasted text whole.
PREVIEW_CHARACTERS = 200


def stored_text(caption: str, limits: CaptionLimits = NO_LIMITS) -> str:
    """What removed/ keeps of an unusable caption: all of it, or, over the length limit, a preview and its length."""
    text = printable(caption)
    over = limits.max_characters is not None and len(text) > limits.max_characters
    if not over and limits.max_words is not None:
        over = len(text.split()) > limits.max_words
    if not over or len(text) <= PREVIEW_CHARACTERS:
        return text
    return f"{text[:PREVIEW_CHARACTERS]} ... [{len(text):,} characters in all]"


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


def split_into_video_parts(records, file_index: int, limits: CaptionLimits = NO_LIMITS) -> dict:
    """video_id -> VideoPart for the records of one annotation file, ("videos" or "sentences",
    record) in file order (`parse_annotation_file`, or `document_records` of a parsed file).

    A repeated sen_id is found later, over all files at once (`repeated_sen_ids`).
    """
    parts = {}

    def part(video_id):
        return parts.setdefault(video_id, VideoPart(file_index))

    position = 0  # of the record among the file's sentences
    for list_name, record in records:
        if list_name == "videos":
            _add_video(record, part)
        elif list_name == "sentences":
            _add_sentence(record, position, part, limits)
            position += 1
    return parts


def _add_video(video, part) -> None:
    problem = video_problem(video)
    video_id = video.get("video_id") if isinstance(video, dict) and is_text(video.get("video_id")) else None
    if video_id is None:
        return  # no usable id: no sentence can refer to it
    if problem:
        part(video_id).problem = problem
        return
    info = {key: video[key] for key in ("video_id", "split", "category")}
    if part(video_id).info is None:
        part(video_id).info = info
    elif part(video_id).info != info and part(video_id).conflict is None:
        part(video_id).conflict = conflicting_records(video_id, part(video_id).info, info)


def _add_sentence(sentence, position: int, part, limits: CaptionLimits) -> None:
    sen_id = usable_sen_id(sentence)
    problem = sentence_problem(sentence, limits)
    video_id = sentence.get("video_id") if isinstance(sentence, dict) else None
    video_id = video_id if is_text(video_id) else ""
    caption = sentence.get("caption") if isinstance(sentence, dict) else None
    if sen_id is not None:
        part(video_id).sen_ids.append((sen_id, position))
    if problem:
        kept_text = stored_text(caption, limits) if isinstance(caption, str) else None
        part(video_id).rejected.append((sen_id, kept_text, problem))
    else:
        part(video_id).captions.append((sen_id, position, caption))


def read_video_parts(source: AnnotationFile, file_index: int, limits: CaptionLimits = NO_LIMITS,
                     size_limits: SizeLimits = SizeLimits()) -> dict:
    """split_into_video_parts of an annotation file, parsed as a stream."""
    return parse_annotation_file(source, size_limits,
                                 lambda records: split_into_video_parts(records, file_index, limits))


# Repeated sen_ids are found per range of this many ids: a range's records meet in one
# group, so no process ever holds every id of the input.
SEN_ID_RANGE = 4096


def sen_ids_by_range(video_id: str, part: VideoPart) -> list:
    """(range, [(sen_id, file_index, position, video_id), ...]) for the records of one VideoPart."""
    by_range = {}
    for sen_id, position in part.sen_ids:
        by_range.setdefault(sen_id // SEN_ID_RANGE, []).append((sen_id, part.file_index, position, video_id))
    return list(by_range.items())


def repeated_sen_ids(records) -> list:
    """RepeatedSenId for every record but the first of each sen_id, records being
    (sen_id, file_index, position, video_id) in any order."""
    repeated, first_seen = [], set()
    for sen_id, file_index, position, video_id in sorted(records, key=lambda record: record[:3]):
        if sen_id in first_seen:
            repeated.append(RepeatedSenId(video_id, sen_id, file_index, position))
        first_seen.add(sen_id)
    return repeated


def conflicting_records(video_id: str, first: dict, other: dict) -> str:
    differences = ", ".join(f"{key} {first[key]!r} and {other[key]!r}" for key in ("split", "category")
                            if first[key] != other[key])
    return f"video {video_id!r} has two different records in the video table ({differences})"


def video_order(video_id: str) -> list:
    """Sort key of video ids in natural order, video2 before video10: text parts as text, digit runs as numbers."""
    # re.split with a captured group alternates text and digits, so equal positions hold equal types.
    parts = re.split(r"(\d+)", video_id)
    return [int(part) if index % 2 else part for index, part in enumerate(parts)]


def usable_sen_id(sentence) -> Optional[int]:
    sen_id = sentence.get("sen_id") if isinstance(sentence, dict) else None
    if isinstance(sen_id, int) and not isinstance(sen_id, bool) and -2**63 <= sen_id < 2**63:
        return sen_id
    return None


def assemble_video(video_id: str, parts, repeated=()) -> VideoBatch:
    """One VideoBatch from what every file said about a video, in file order, and its repeated sen_ids."""
    parts = sorted(parts, key=lambda p: p.file_index)
    repeats = {(r.file_index, r.position) for r in repeated}
    infos = [p.info for p in parts if p.info]
    info = infos[0] if infos else None
    problem = next((p.problem for p in parts if p.problem), None)
    conflict = next((p.conflict for p in parts if p.conflict), None)
    if conflict is None and any(other != info for other in infos[1:]):
        conflict = conflicting_records(video_id, info, next(other for other in infos if other != info))
    rejected = [row for p in parts for row in p.rejected]
    captions = []
    for p in parts:
        for sen_id, position, text in p.captions:
            if (p.file_index, position) in repeats:
                rejected.append((sen_id, text, f"sen_id repeated: {sen_id} was read before"))
            else:
                captions.append(Caption(sen_id, text))
    captions.sort(key=lambda c: c.sen_id)
    batch = VideoBatch(video_id=video_id, split=info and info["split"], category=info and info["category"],
                       captions=captions, input_records=len(captions) + len(rejected))
    if info is None or conflict:
        why = conflict or problem or f"video {video_id!r} is not in the video table"
        rejected += [(c.sen_id, c.text, why) for c in captions]
        batch.captions = []
    batch.removed = sorted(
        (RemovedRow(sen_id, video_id or None, batch.split, caption, STEP, reason)
         for sen_id, caption, reason in rejected),
        key=lambda row: (row.sen_id is None, row.sen_id or 0, row.reason))
    return batch


def assemble_group(video_id: str, items) -> VideoBatch:
    """assemble_video for what GroupByKey brings together: the video's parts and its repeated sen_ids."""
    items = list(items)
    return assemble_video(video_id, [item for item in items if isinstance(item, VideoPart)],
                          [item for item in items if isinstance(item, RepeatedSenId)])


def read_documents(documents, limits: CaptionLimits = NO_LIMITS) -> list:
    """Every video of these parsed files (in file order) as a VideoBatch, sorted by video_id, in one
    process: what the pipeline's reader makes of them, for tools and tests."""
    parts = {}
    for file_index, document in enumerate(documents):
        for video_id, part in split_into_video_parts(document_records(document), file_index, limits).items():
            parts.setdefault(video_id, []).append(part)
    records = [(sen_id, part.file_index, position, video_id) for video_id, video_parts in parts.items()
               for part in video_parts for sen_id, position in part.sen_ids]
    repeated = {}
    for repeat in repeated_sen_ids(records):
        repeated.setdefault(repeat.video_id, []).append(repeat)
    return [assemble_video(video_id, video_parts, repeated.get(video_id, ()))
            for video_id, video_parts in sorted(parts.items())]


def read_input(input_path: str, limits: CaptionLimits = NO_LIMITS, size_limits: SizeLimits = SizeLimits()) -> list:
    """read_documents over the annotation files of an input folder or file."""
    return read_documents((load_annotations(source, size_limits)
                           for source in find_annotation_files(input_path, size_limits)), limits)
