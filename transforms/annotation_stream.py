"""The records of an annotation file, parsed as a stream, within size limits.

An MSR-VTT annotation file is one JSON object whose lists `videos` and `sentences` hold
the records. ijson parses the file 64 KiB at a time and `parse_annotation_file` hands
each record on as soon as it is complete, so the reader never holds the file, only
what the caller keeps of the records. Limits a user can raise bound the rest: the
bytes of the file (a zip member unpacked) and the bytes of one record; nesting is
bounded too, because a parser's memory can grow with the square of the depth.

ijson has two parsers. yajl's C parser reads MSR-VTT's larger file in 0.6 s; it cannot
give back everything as `json` would: bytes that are not UTF-8 (json.loads of the text
decoded with `surrogateescape` keeps them as lone surrogates, so the record goes to
removed/ with its reason), escapes of lone surrogates (yajl writes '?'), integers of
more than 64 bits, a byte-order mark, UTF-16 or UTF-32. A file the C parser cannot
read, or in which an escape of a surrogate is seen, is parsed again with ijson's
pure-Python parser (3.4 s for that file), fed the file as UTF-8 with every byte
that is not UTF-8 written as such an escape.
"""
import codecs
import json
import re
import zipfile
import zlib
from contextlib import contextmanager
from dataclasses import dataclass

import ijson

from transforms.errors import CapcleanError

RECORD_LISTS = ("videos", "sentences")
# A record of MSR-VTT is an object of scalars (depth 1); nothing usable is nested this deep.
MAX_DEPTH = 32
# What ijson asks of the file at a time; a record's size is measured to this granularity.
CHUNK_BYTES = 64 * 1024


class InputError(CapcleanError):
    """An input file or folder that cannot be read; the message names it."""


@dataclass(frozen=True)
class SizeLimits:
    """The largest annotation file (a zip member unpacked) and the largest record read, as the
    configuration's `input.max_file_megabytes` and `input.max_record_kilobytes` give them."""
    max_file_megabytes: int = 512  # MSR-VTT's larger file is 16 MiB
    max_record_kilobytes: int = 1024  # an MSR-VTT record is about 100 bytes


class _NeedsExactParser(Exception):
    """The C parser cannot give this file back exactly: parse it again with the Python parser."""


@dataclass
class _Place:
    """Where in the file the parse is, for the line that refuses it."""
    list_name: str = ""
    index: int = 0

    def __str__(self):
        return f"record {self.index} of '{self.list_name}'" if self.list_name else "the top-level object"


def parse_annotation_file(source, limits: SizeLimits, consume):
    """consume(records) over the file's records, ("videos" or "sentences", record) in file
    order, with (key, value) for any other key of the top-level object; its result.

    A file the C parser cannot read exactly is consumed again, whole, from the Python
    parser, so `consume` must start from nothing each time it is called."""
    try:
        return consume(_records(source, limits, exact=False))
    except _NeedsExactParser:
        return consume(_records(source, limits, exact=True))


def _records(source, limits: SizeLimits, exact: bool):
    place = _Place()
    with _opened(source) as raw:
        reader = _LimitedReader(raw, source.name, limits, place, watch_escapes=not exact)
        # ijson itself is its fastest parser this platform has: yajl's C parser where its wheel has it.
        backend = ijson.get_backend("python") if exact else ijson
        events = backend.basic_parse(_Utf8Json(reader) if exact else reader, use_float=True)
        try:
            yield from _walk(events, source.name, reader, place)
        except (ijson.JSONError, UnicodeDecodeError) as error:
            reader.raise_if_stopped()
            if not exact:
                raise _NeedsExactParser() from None
            raise InputError(f"{source.name} is not valid JSON near byte {reader.total:,}: "
                             f"{_first_line(error)}") from None
        reader.raise_if_stopped()


@contextmanager
def _opened(source):
    """The file, or the zip member, as a binary stream; a failure to open or read it is one line."""
    try:
        if source.member is None:
            with open(source.path, "rb") as handle:
                yield handle
        else:
            with zipfile.ZipFile(source.path) as archive, archive.open(source.member) as handle:
                yield handle
    except (OSError, zipfile.BadZipFile, EOFError, zlib.error) as error:
        raise InputError(f"cannot read {source.name}: {error}") from None
    except (NotImplementedError, RuntimeError) as error:  # a member compressed or encrypted in a way zipfile cannot read
        raise InputError(f"cannot read {source.name}: {error}") from None


def _walk(events, name: str, reader, place: _Place):
    """(list name, record) for each record that the parse events describe, and (key, value) for
    the other values of the top-level object."""
    event, _ = next(events, (None, None))
    if event != "start_map":
        raise _not_annotations(name)
    lists_found, key = set(), None
    for event, value in events:
        if event == "map_key":
            key = value
        elif event == "end_map":
            for _ in events:  # what follows the object: only white space is valid JSON, and the parser checks
                pass
            break
        elif key in RECORD_LISTS:
            if event != "start_array":
                raise _not_annotations(name)
            lists_found.add(key)
            yield from _list_records(events, key, name, reader, place)
        else:  # another top-level value (MSR-VTT's "info"), handed on whole
            yield key, (_value(events, event, name, place) if event in OPENING else value)
            reader.record_ended()
    if lists_found != set(RECORD_LISTS):
        raise _not_annotations(name)


def _list_records(events, list_name, name, reader, place):
    place.list_name, place.index = list_name, 0
    for event, value in events:
        if event == "end_array":
            break
        yield list_name, (_value(events, event, name, place) if event in OPENING else value)
        reader.record_ended()
        place.index += 1
    place.list_name = ""


OPENING = ("start_map", "start_array")
CLOSING = ("end_map", "end_array")


def _value(events, first_event, name, place, depth=1):
    """The object or list that `first_event` opens, built from the events up to its end."""
    if depth > MAX_DEPTH:
        raise InputError(f"{name}: {place} is nested more than {MAX_DEPTH} deep")
    is_map = first_event == "start_map"
    built, key = ({} if is_map else []), None
    for event, value in events:
        if event == "map_key":
            key = value
            continue
        if event in CLOSING:
            return built
        if event in OPENING:
            value = _value(events, event, name, place, depth + 1)
        if is_map:
            built[key] = value
        else:
            built.append(value)
    return built  # the parser raises for a value left open


def _not_annotations(name: str) -> InputError:
    return InputError(f"{name} is not an MSR-VTT annotation file: expected an object with lists 'videos' and "
                      "'sentences'")


def _first_line(error) -> str:
    text = error.args[0] if error.args else error
    text = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    return text.strip().splitlines()[0] if text.strip() else type(error).__name__


# An escape of a UTF-16 surrogate ("\ud83d", "\uDC00"): the C parser writes '?' for a lone one.
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class _LimitedReader:
    """The raw file as the parser reads it, counting bytes against the limits.

    Over a limit, or on a read error, it ends the stream (as a raised exception would
    leave ijson's Python parser half-closed, printing its own error) and keeps why;
    `raise_if_stopped` then raises it.
    """

    def __init__(self, raw, name: str, limits: SizeLimits, place: _Place, watch_escapes: bool):
        self._raw, self._name, self._place = raw, name, place
        self._max_file = limits.max_file_megabytes * 2**20
        self._max_record = limits.max_record_kilobytes * 2**10
        self._limits = limits
        self._watch_escapes = watch_escapes
        self._tail = b""
        self.total = 0
        self._record_start = 0
        self._stopped = None  # the exception to raise

    def read(self, size=-1) -> bytes:
        if size == 0 or self._stopped:
            return b""
        try:
            chunk = self._raw.read(size if size > 0 else CHUNK_BYTES)
        except (OSError, zipfile.BadZipFile, EOFError, zlib.error) as error:
            return self._stop(InputError(f"cannot read {self._name}: {error}"))
        self.total += len(chunk)
        if self.total > self._max_file:
            return self._stop(InputError(
                f"{self._name} is more than {self._limits.max_file_megabytes:,} MiB unpacked "
                "(input.max_file_megabytes; raise it to read this file)"))
        if self.total - self._record_start > self._max_record + CHUNK_BYTES:
            return self._stop(InputError(
                f"{self._name}: {self._place} (which starts before byte {self._record_start:,}) is more than "
                f"{self._limits.max_record_kilobytes:,} KiB (input.max_record_kilobytes; raise it to read this file)"))
        if self._watch_escapes and SURROGATE_ESCAPE.search(self._tail + chunk):
            return self._stop(_NeedsExactParser())
        self._tail = chunk[-5:]
        return chunk

    def record_ended(self) -> None:
        self._record_start = self.total

    def raise_if_stopped(self) -> None:
        if self._stopped is not None:
            raise self._stopped

    def _stop(self, error) -> bytes:
        self._stopped = error
        return b""


# What surrogateescape decodes a byte that is not UTF-8 to.
ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


class _Utf8Json:
    """A JSON byte stream in any encoding `json` detects, re-encoded as UTF-8 for ijson's Python
    parser, with each byte that is not in the encoding written as the escape of a lone surrogate
    (\\udcXX): what `json.loads` makes of text decoded with `surrogateescape`."""

    def __init__(self, raw):
        self._raw = raw
        self._pending = raw.read(4)  # enough to tell UTF-8, UTF-16 and UTF-32 apart, and a BOM
        encoding = json.detect_encoding(self._pending)
        self._decoder = codecs.getincrementaldecoder(encoding)(errors="surrogateescape")

    def read(self, size=-1) -> bytes:
        if size == 0:
            return b""
        while True:  # a chunk may end inside a character: read on until there is text or the end
            data, self._pending = self._pending or self._raw.read(size if size > 0 else CHUNK_BYTES), b""
            text = self._decoder.decode(data, final=not data)
            if text or not data:
                return ESCAPED_BYTE.sub(lambda match: f"\\u{ord(match.group()):04x}", text).encode("utf-8")
