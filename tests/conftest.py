"""Fixtures shared by the tests of several areas (tests/unit/<area>/ and tests/integration/).

The helpers are fixtures, not imports: no test imports another test module. A fixture that
a test calls with arguments returns a function (or a class).
"""
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MSRVTT = REPO.parent / "shared" / "data" / "msrvtt"


def pytest_configure(config):
    config.addinivalue_line("markers", "integration: runs the pipeline on the real MSR-VTT annotations")


# --- The repository and the real data ----------------------------------------------------------------

@pytest.fixture(scope="session")
def repo():
    """The repository's root folder."""
    return REPO


@pytest.fixture(scope="session")
def msrvtt_dir():
    if not (MSRVTT / "train_val_annotation.zip").is_file():
        pytest.fail(f"MSR-VTT annotations not found in {MSRVTT} (see README: Getting MSR-VTT)")
    return MSRVTT


@pytest.fixture(scope="session")
def multi_process():
    """Beam's flags for two SDK worker processes (this machine's two cores)."""
    return ["--direct_num_workers=2", "--direct_running_mode=multi_processing"]


# --- The profiles' character sets ------------------------------------------------------------------

DEFAULT_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789 $%&"


@pytest.fixture(scope="session")
def default_characters():
    """The characters the default profile's captions may hold."""
    return DEFAULT_CHARACTERS


@pytest.fixture(scope="session")
def paper_characters():
    """The characters the paper profile's captions may hold."""
    return DEFAULT_CHARACTERS + "'-éèêëàâäáçñóôöüïîí"


# --- Small hand-made MSR-VTT-format inputs ----------------------------------------------------------

def _write_annotations(folder, videos, sentences, name="tiny_videodatainfo.json"):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps({"info": {}, "videos": videos, "sentences": sentences}))
    return folder


@pytest.fixture(scope="session")
def write_annotations():
    """write_annotations(folder, videos, sentences, name=...): one MSR-VTT-format file; returns the folder."""
    return _write_annotations


def _write_captions(folder, videos, captions):
    sentences = [{"sen_id": sen_id, "video_id": f"video{number}", "caption": text} for sen_id, number, text in captions]
    return _write_annotations(folder, videos, sentences)


@pytest.fixture(scope="session")
def write_captions():
    """write_captions(folder, videos, [(sen_id, video number, caption), ...]): the same file, from short tuples."""
    return _write_captions


def _tiny_dataset(folder):
    videos = [{"video_id": "video1", "split": "train", "category": 3},
              {"video_id": "video7500", "split": "test", "category": 9}]
    captions = [
        (0, "video1", "a man is playing a guitar"),
        (1, "video1", "a man is playing a guitar on stage"),   # near-duplicate of 0, longer: kept
        (2, "video1", "a man (offscreen) plays the vedio game"),
        (3, "video1", "..."),                                  # empty once step I is done
        (4, "video7500", "a woman & her dog walk in the park"),
        (5, "video99", "a caption of an unknown video"),
        (6, "video7500", 12),
    ]
    sentences = [{"sen_id": s, "video_id": v, "caption": c} for s, v, c in captions]
    return _write_annotations(folder, videos, sentences)


@pytest.fixture(scope="session")
def tiny_dataset():
    """tiny_dataset(folder): seven captions of three videos, one of each kind of trouble; returns the folder."""
    return _tiny_dataset


def _files_digest(output):
    return {str(path.relative_to(output)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(output.rglob("*.parquet"))}


@pytest.fixture(scope="session")
def files_digest():
    """files_digest(output): sha256 of every Parquet file of an output folder, by path."""
    return _files_digest


def _video(number, split="train", category=3):
    return {"video_id": f"video{number}", "split": split, "category": category}


def _record(sen_id, number, caption):
    return {"sen_id": sen_id, "video_id": f"video{number}", "caption": caption}


class HostileInput:
    """Hostile input: every kind of broken record, each with the step and the reason that must take it
    out (None: kept). Videos: video1-video3 are fine, video4 is listed twice alike, video5 twice
    differently, video6 has a text category, video7 has no split, video8 is in a split the profile does
    not have, video9 has only emoji captions, video10 has no sentences; video99 is not listed."""

    HUGE = " ".join(["word"] * 100_000)
    video = staticmethod(_video)
    record = staticmethod(_record)

    VIDEOS = [_video(1), _video(2), _video(3), _video(4), _video(4), _video(5), _video(5, "test"),
              {**_video(6), "category": "3"}, {"video_id": "video7", "category": 3}, _video(8, "dev"),
              _video(9), _video(10), "not a video", {"split": "train"}]
    RECORDS = [
        (_record(0, 1, "a man is playing a guitar"), None, None),
        (_record(1, 1, "a woman is singing a song on a stage"), None, None),
        (_record(2, 1, ""), "read", "caption is empty"),
        (_record(3, 1, " \t\n "), "read", "caption is empty"),
        (_record(4, 1, HUGE), "read", "caption too long: 499999 characters, the limit is 5000"),
        (_record(5, 1, "a cat\u0000\u0001 sleeps"), "read",
         "caption holds control characters (binary data): U+0000, U+0001"),
        (_record(6, 1, "a dog \ud800 runs"), "read", "caption is not valid text"),
        (_record(7, 1, None), "read", "caption is not a string: 'None'"),
        (_record(8, 1, 42), "read", "caption is not a string: '42'"),
        (_record(9, 1, ["a", "list"]), "read", "caption is not a string"),
        (_record(10, 1, "a man plays guitar \U0001F3B8"), "screen", "U+1F3B8 GUITAR"),
        (_record(11, 1, "\u0631\u062c\u0644 \u064a\u0639\u0632\u0641"), "screen", "U+0631 ARABIC LETTER REH"),
        (_record(12, 1, "a man \u200fsings"), "screen", "U+200F RIGHT-TO-LEFT MARK"),
        (_record(13, 1, "\u4e00\u4e2a\u4eba a person"), "screen", "U+4E00 CJK UNIFIED IDEOGRAPH-4E00"),
        (_record(14, 1, "a zero\u200bwidth space"), "screen", "U+200B ZERO WIDTH SPACE"),
        (_record(15, 1, "caf\u00e9 scene \u00e0 paris"), None, None),  # step I maps the accents
        (_record(16, 1, "a \u2018quoted\u2019 word"), None, None),  # and the curly apostrophes
        (_record(17, 2, "a man is cooking pasta"), None, None),
        (_record(17, 2, "a second record with sen_id 17"), "read", "sen_id repeated: 17 was read before"),
        ({"sen_id": "18", "video_id": "video2", "caption": "text id"}, "read", "sen_id is not a 64-bit integer: '18'"),
        ({"sen_id": 18.5, "video_id": "video2", "caption": "float id"}, "read",
         "sen_id is not a 64-bit integer: '18.5'"),
        ({"sen_id": None, "video_id": "video2", "caption": "null id"}, "read", "sen_id is not a 64-bit integer"),
        ({"sen_id": True, "video_id": "video2", "caption": "bool id"}, "read", "sen_id is not a 64-bit integer"),
        ({"sen_id": 2**70, "video_id": "video2", "caption": "big id"}, "read", "sen_id is not a 64-bit integer"),
        (_record(-5, 2, "a negative id is still an id"), None, None),
        ({"sen_id": 19, "caption": "no video id"}, "read", "missing field 'video_id'"),
        ({"sen_id": 20, "video_id": 2, "caption": "numeric video id"}, "read", "video_id is not a string: '2'"),
        ({"video_id": "video2", "caption": "no sen id"}, "read", "missing field 'sen_id'"),
        ({"sen_id": 21, "video_id": "video2"}, "read", "missing field 'caption'"),
        (7, "read", "sentence record is not an object"),
        (_record(22, 3, "a boy rides a bike"), None, None),
        (_record(23, 4, "a video listed twice alike"), None, None),
        (_record(24, 5, "a video listed twice differently"), "read", "video 'video5' has two different records"),
        (_record(25, 6, "a video with a text category"), "read", "video video6 has no integer category"),
        (_record(26, 7, "a video without split"), "read", "video video7 has no split string"),
        (_record(27, 8, "a video in the dev split"), "screen", "split 'dev' is not one of the profile's splits"),
        (_record(28, 9, "\U0001F600\U0001F600"), "screen", "U+1F600 GRINNING FACE"),
        (_record(29, 9, "\U0001F3B8 \U0001F3B8"), "screen", "U+1F3B8 GUITAR"),
        (_record(30, 99, "a sentence of an unknown video"), "read", "video 'video99' is not in the video table"),
    ]

    @classmethod
    def document(cls):
        return {"info": {}, "videos": cls.VIDEOS, "sentences": [sentence for sentence, _, _ in cls.RECORDS]}

    @classmethod
    def write(cls, folder, raw_bytes_caption=True):
        """The hostile records as an MSR-VTT file, plus (as raw bytes) a caption that is not UTF-8."""
        folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps(cls.document())
        if raw_bytes_caption:
            marker = '"caption": "a man is playing a guitar"'
            extra = '{"sen_id": 31, "video_id": "video3", "caption": "caf\\u00e9 BYTES"}, '
            text = text.replace('{"sen_id": 0, "video_id": "video1", ' + marker,
                                extra + '{"sen_id": 0, "video_id": "video1", ' + marker)
        data = text.encode("utf-8").replace(b"caf\\u00e9 BYTES", b"caf\xe9 latin-1 bytes")
        (folder / "hostile_videodatainfo.json").write_bytes(data)
        return folder


@pytest.fixture(scope="session")
def hostile():
    """HostileInput: .RECORDS (record, step, reason), .VIDEOS, .document(), .write(folder), .video(), .record()."""
    return HostileInput


# --- A stand-in for Hunspell ------------------------------------------------------------------------

class FakeHunspell:
    """Accepts exactly the words it is given; LOWERCASE and NAMES_AND_ACRONYMS are the words the
    spelling tests' hand-made corpus statistics need."""

    LOWERCASE = frozenset({
        "beach", "beaches", "volcano", "floors", "handles", "roll", "with", "some", "grill", "girl", "put",
        "and", "the", "plotting", "plowing", "cook", "cock", "style", "sale", "hair", "is", "horn", "shown",
        "gloves", "four", "good", "very", "care", "bear", "career", "a", "on", "puppet", "puppets", "swim",
        "swimming", "play", "plaid", "shirt", "men", "soccer", "two", "are", "band", "brand", "rock"})
    NAMES_AND_ACRONYMS = frozenset({"Obama", "AMD", "ECG", "Portuguese"})

    def __init__(self, words):
        self._words = set(words)

    def spell(self, word):
        return word in self._words


@pytest.fixture(scope="session")
def fake_hunspell():
    """FakeHunspell(words): a checker whose spell() accepts exactly `words`."""
    return FakeHunspell


class _StartTags(HTMLParser):
    """Every start tag of a page with its attributes."""

    def __init__(self, page):
        super().__init__()
        self.tags = []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _start_tags(page: str) -> list:
    return _StartTags(page).tags


def _network_loads(page: str) -> list:
    """What a browser would fetch from the network to show `page`: stylesheets, scripts (any script counts,
    inline too: a self-contained page needs none), images, CSS urls."""
    loads = []
    for tag, attrs in _start_tags(page):
        if tag == "script":
            loads.append(("script", attrs.get("src", "inline")))
        for name in ("src", "href"):
            value = (attrs.get(name) or "").strip().lower()
            if tag != "a" and value.startswith(("http:", "https:", "//")):
                loads.append((tag, value))
    return loads + re.findall(r"url\(\s*['\"]?\s*(?:https?:)?//[^)]*\)", page, re.IGNORECASE)


@pytest.fixture(scope="session")
def start_tags():
    """page -> [(tag, attributes)] of every start tag of an HTML page."""
    return _start_tags


@pytest.fixture(scope="session")
def network_loads():
    """page -> what a browser would fetch from the network to show it (empty for a page that reads offline)."""
    return _network_loads


@pytest.fixture(scope="session")
def wordnet():
    """WordNet 3.0 as `make install` puts it for NLTK; the test is skipped without it."""
    from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet

    folder = default_wordnet_dir()
    if not (folder / "lexnames").is_file():
        pytest.skip(f"no WordNet in {folder}: make install builds it")
    return open_wordnet(folder)


# --- An S3-compatible server on localhost (moto's server mode) ----------------------------------------

class S3Server:
    """A moto S3 server: `flags` are Beam's S3 options that point a command at it, `client` a boto3 client."""

    KEYS = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing"}

    def __init__(self, endpoint):
        import boto3

        self.endpoint = endpoint
        self.flags = [f"--s3_endpoint_url={endpoint}", f"--s3_access_key_id={self.KEYS['aws_access_key_id']}",
                      f"--s3_secret_access_key={self.KEYS['aws_secret_access_key']}", "--s3_region_name=us-east-1"]
        self.client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", **self.KEYS)

    def environment(self) -> dict:
        """The same settings as boto3's environment variables (for the commands that take no Beam options)."""
        return {"AWS_ENDPOINT_URL": self.endpoint, "AWS_ACCESS_KEY_ID": self.KEYS["aws_access_key_id"],
                "AWS_SECRET_ACCESS_KEY": self.KEYS["aws_secret_access_key"], "AWS_DEFAULT_REGION": "us-east-1"}

    def bucket(self, name: str) -> str:
        """A new bucket; returns its URL."""
        self.client.create_bucket(Bucket=name)
        return f"s3://{name}"

    def upload(self, folder: Path, url: str) -> None:
        """Every file of `folder` under the prefix `url` (s3://BUCKET/PREFIX)."""
        bucket, _, prefix = url[len("s3://"):].partition("/")
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                self.client.upload_file(str(path), bucket, f"{prefix}/{path.relative_to(folder).as_posix()}")

    def objects(self, url: str) -> dict:
        """{key under the prefix: bytes} of every object under `url`."""
        bucket, _, prefix = url[len("s3://"):].partition("/")
        found = {}
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=f"{prefix}/"):
            for entry in page.get("Contents", []):
                body = self.client.get_object(Bucket=bucket, Key=entry["Key"])["Body"].read()
                found[entry["Key"][len(prefix) + 1:]] = body
        return found


@pytest.fixture(scope="session")
def s3_server():
    """S3Server: moto's S3 server on a free localhost port, for the session."""
    import logging
    import socket

    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per request otherwise
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield S3Server(f"http://127.0.0.1:{port}")
    server.stop()
