"""Same outputs: the evidence that a change of the code's layout changed no output of capclean.

It records, for one checkout of the code, every output byte and every printed figure of every
capclean command on fixed inputs, and compares two such records. A refactor that moves modules
about must give a NEW record that compares as the same as the OLD one (the commit before it).

    .venv/bin/python benchmarks/same_outputs.py record --checkout DIR --to RECORD.json --work WORKDIR [--full]
    .venv/bin/python benchmarks/same_outputs.py compare OLD.json NEW.json

`record` imports no capclean module: it runs `<python> -m pipelines.cli COMMAND ...` as a
subprocess with cwd and PYTHONPATH set to the checkout (PYTHONPATH comes before the venv's
editable install of /work/main, so the checkout's code is what runs). `--python` picks the
interpreter (default: the venv beside this script). WORKDIR must be outside any checkout; it
is created, or emptied when an earlier `record` made it, and it holds:

  inputs/        the fixed inputs, made deterministically: an MSR-VTT-format JSON of 40 train
                 videos (video0..video39) and 40 test videos (video7010..video7049) with all
                 their captions, taken from the raw zips; and seeded scores, predictions and
                 labels for ndcg, posrank and fire (made from the outputs they score)
  one folder or file per command (clean, clean-paper, report.html, ...), Beam's defaults
  throughout; with --full also two cleans of the whole raw MSR-VTT on two worker processes.

The record is JSON: {"meta": ..., "commands": {label: {"argv", "returncode", "seconds",
"stdout": [lines], "files": {relpath: "sha256" or {"table": ...}}}}}, relpaths under WORKDIR.

What is normalised before hashing (everything else is hashed as the bytes written). Each rule
is for something that differed between two records of the same checkout, or for the commit:
  - everywhere (file contents, file names, stdout, argv): WORKDIR -> <WORK> and the checkout's
    path -> <CHECKOUT>, so records made in two folders compare; the checkout's git commit, and
    any prefix of it of 7 or more hex digits standing alone, -> as many zeros (same length);
  - manifest.json: the keys `times`, `environment` and `capclean` (version, commit, modified;
    at any depth, so also `source_run.capclean`) are dropped, measurements marked (next rule),
    and the rest is hashed as canonical JSON;
  - other JSON files holding measurements of the run (keys named `seconds`, `*_seconds*` or
    `peak_memory*`: relevance's stats.json): their values -> "<measured>" (the key stays), the
    file hashed as canonical JSON; JSON files without such keys are hashed as written;
  - Parquet files: the commit -> zeros in the bytes, both where it is plain (the `capclean`
    schema metadata) and inside pyarrow's base64 `ARROW:schema` copy of that metadata (decoded,
    replaced, encoded again: same length). Each folder of Parquet files also gets a table record:
    rows; per column its type, nullability and a sha256 of its values in row order; the schema
    metadata. When a table folder's bytes differ, compare falls back to it: NEW passes (with a
    note) when it has the same rows, every OLD column with the same type and values, the same
    metadata, and columns added; anything else fails;
  - Great Expectations Data Docs (files under a validation/ folder): the validation run's time
    as GE stamps it (20261127T202821.811690Z, also in the result pages' file names), as ISO
    time (2026-11-27T20:28:21Z), and the random UUIDs of the pages' collapsible elements;
  - stdout: durations (`done in 11.6 s`, `read 4.8 s`) -> `<T> s`, `peak memory N MiB` ->
    `<MEM>`, and the last cell of the rows under a header ending in `seconds` (relevance's
    proxy table) -> `<T>`; every other figure is kept.
capclean's own HTML pages (report.html, the evaluation reports) needed no rule of their own:
two runs wrote the same bytes once the path and commit placeholders were in.

`compare` prints one line per difference (files of OLD missing or changed in NEW, exit codes,
stdout lines), notes that do not fail (files only in NEW, tables with columns added), skips
command labels that only one record has (saying so), and ends with `same outputs: N files,
M printed figures` (exit 0) or `DIFFERENT: K differences` (exit 1).
"""
import argparse
import base64
import csv
import difflib
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pyarrow.parquet as pq

RAW = Path("/work/shared/data/msrvtt")
RAW_FILES = (("train_val_annotation.zip", "train_val_videodatainfo.json"),
             ("test_videodatainfo.json.zip", "test_videodatainfo.json"))
TRAIN_VIDEOS = tuple(f"video{number}" for number in range(0, 40))
TEST_VIDEOS = tuple(f"video{number}" for number in range(7010, 7050))
SUBSET = "inputs/msrvtt-subset.json"
FULL_BEAM_FLAGS = ("--direct_num_workers=2", "--direct_running_mode=multi_processing")
RELEVANCE_PROXIES = "bow,pos,syn,met"
SEED = 20240917
MARKER = ".same-outputs-workdir"
DEFAULT_PYTHON = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "python"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    record_parser = commands.add_parser("record", help="run every command of a checkout and record its outputs")
    record_parser.add_argument("--checkout", required=True, help="the checkout whose code runs")
    record_parser.add_argument("--to", required=True, help="the record JSON to write")
    record_parser.add_argument("--work", required=True, help="a folder outside any checkout for inputs and outputs")
    record_parser.add_argument("--full", action="store_true", help="also clean the whole raw MSR-VTT, both profiles")
    record_parser.add_argument("--python", default=str(DEFAULT_PYTHON if DEFAULT_PYTHON.exists() else sys.executable),
                               help="the interpreter with capclean's requirements (default: %(default)s)")
    compare_parser = commands.add_parser("compare", help="compare two records")
    compare_parser.add_argument("old")
    compare_parser.add_argument("new")
    args = parser.parse_args(argv)
    if args.command == "record":
        return record(Path(args.checkout).resolve(), Path(args.to), Path(args.work).resolve(), args.full, args.python)
    return compare(json.loads(Path(args.old).read_text()), json.loads(Path(args.new).read_text()))


# ================================================================ record

def record(checkout: Path, to: Path, work: Path, full: bool, python: str) -> int:
    started = time.monotonic()
    prepare_workdir(work, checkout)
    session = Session(python, checkout, work)
    run_commands(session, full)
    seconds = round(time.monotonic() - started, 1)
    result = {"meta": {"checkout": str(checkout), "commit": session.normaliser.commit, "work": str(work),
                       "python": python, "full": full, "seconds": seconds},
              "commands": session.commands}
    to.parent.mkdir(parents=True, exist_ok=True)
    to.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    failed = [label for label, entry in session.commands.items() if entry.get("returncode")]
    print(f"recorded {len(session.commands)} commands in {seconds} s to {to}"
          + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    return 0


def prepare_workdir(work: Path, checkout: Path) -> None:
    """WORKDIR new, or emptied when an earlier record made it (its marker file); never inside the checkout."""
    if work == checkout or checkout in work.parents:
        sys.exit(f"--work {work} is inside the checkout {checkout}")
    if work.exists() and any(work.iterdir()):
        if not (work / MARKER).is_file():
            sys.exit(f"--work {work} is not empty and was not made by this script")
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    (work / MARKER).write_text("made by benchmarks/same_outputs.py\n")


def run_commands(session, full: bool) -> None:
    """Every command on the fixed inputs, in an order where each finds what it reads."""
    w, run = session.path, session.run
    write_subset(session.work / SUBSET)
    run("clean", ["clean", "--input", w(SUBSET), "--output", w("clean"), "--profile", "default",
                  "--export", "msrvtt-json,coco,hf"], ["clean"])
    run("clean-paper", ["clean", "--input", w(SUBSET), "--output", w("clean-paper"), "--profile", "paper",
                        "--export", "msrvtt-json,coco,hf"], ["clean-paper"])
    to_flag = "--output" if re.search(r"^\s*--output\b", session.help_of("report"), re.M) else "--to"  # renamed
    run("report", ["report", w("clean"), to_flag, w("report.html")], ["report.html"])
    run("report-compare", ["report", w("clean"), w("clean-paper"), to_flag, w("compare.html")], ["compare.html"])
    copy_run_without_exports(session.work / "clean", session.work / "export")
    run("export", ["export", w("export")], ["export"])
    run("vocab", ["vocab", "--input", w(SUBSET), "--output", w("vocab.tsv")], ["vocab.tsv"])
    run("sweep", ["sweep", "--input", w(SUBSET), "--output", w("sweep")], ["sweep"])
    run("hardneg", ["hardneg", "--input", w("clean"), "--output", w("hardneg"), "--split", "test"], ["hardneg"])
    run("hardneg-raw", ["hardneg", "--input", w(SUBSET), "--output", w("hardneg-raw"), "--split", "test",
                        "--levels", "word,phrase"], ["hardneg-raw"])
    run("overlap", ["overlap", "--input", w("clean"), "--output", w("overlap")], ["overlap"])
    run("relevance", ["relevance", "--input", w("clean"), "--output", w("relevance"),
                      "--proxies", RELEVANCE_PROXIES], ["relevance"])
    run_ndcg(session)
    run_posrank(session)
    run_fire(session)
    session.record_inputs()
    if full:
        for profile, folder in (("default", "full-clean"), ("paper", "full-clean-paper")):
            run(folder, ["clean", "--input", str(RAW), "--output", w(folder), "--profile", profile,
                         *FULL_BEAM_FLAGS], [folder])


def run_ndcg(session) -> None:
    w = session.path
    write_ndcg_scores(session.work / "relevance", session.work / "inputs" / "ndcg-scores.csv")
    for name, scores in (("random", "random"), ("oracle", "oracle"), ("scores", w("inputs/ndcg-scores.csv"))):
        folder = f"ndcg-{name}"
        (session.work / folder).mkdir()
        session.run(folder, ["ndcg", "--relevance", w("relevance"), "--scores", scores,
                             "--json", w(f"{folder}/ndcg.json"), "--report", w(f"{folder}/report.html")], [folder])


def run_posrank(session) -> None:
    w = session.path
    write_posrank_scores(session.work / "hardneg", session.work / "inputs" / "posrank-scores.csv")
    (session.work / "posrank").mkdir()
    session.run("posrank", ["posrank", "--negatives", w("hardneg"), "--scores", w("inputs/posrank-scores.csv"),
                            "--json", w("posrank/posrank.json"), "--report", w("posrank/report.html")], ["posrank"])


def run_fire(session) -> None:
    w = session.path
    write_fire_inputs(session.work / "clean", session.work / "inputs")
    out_flag = "--output" if re.search(r"^\s*--output\b", session.help_of("fire"), re.M) else "--out"  # renamed
    # The labels hold one of a query no model ranked: since issue 40 a lost label is an error unless skipped.
    skip = ["--skip-unmatched-labels"] if "--skip-unmatched-labels" in session.help_of("fire") else []
    session.run("fire", ["fire", "--predictions", w("inputs/fire-predictions-a.csv"),
                         "--predictions-b", w("inputs/fire-predictions-b.csv"), "--labels", w("inputs/fire-labels.csv"),
                         "--model", "model-a", "--model-b", "model-b", "--captions", w("clean"), *skip,
                         out_flag, w("fire"), "--report", w("fire.html")], ["fire", "fire.html"])


def copy_run_without_exports(run: Path, copy: Path) -> None:
    """The clean run copied for `capclean export` to write its exports into afresh."""
    if not run.is_dir():
        return
    shutil.copytree(run, copy)
    for name in ("exports", "hf"):
        shutil.rmtree(copy / name, ignore_errors=True)


class Session:
    """One checkout's commands run in WORKDIR, and what they printed and wrote."""

    def __init__(self, python: str, checkout: Path, work: Path):
        self.python, self.checkout, self.work = python, checkout, work
        self.normaliser = Normaliser(work, checkout, checkout_commit(checkout))
        self.env = {**os.environ, "PYTHONPATH": str(checkout)}
        self.commands = {}

    def path(self, relpath: str) -> str:
        """A path under WORKDIR, as the commands are given it."""
        return str(self.work / relpath)

    def cli(self, args: list) -> subprocess.CompletedProcess:
        """`python -m pipelines.cli ARGS` with the checkout's code."""
        return subprocess.run([self.python, "-m", "pipelines.cli", *args], cwd=self.checkout, env=self.env,
                              capture_output=True, text=True)

    def help_of(self, command: str) -> str:
        return self.cli([command, "--help"]).stdout

    def run(self, label: str, args: list, outputs: list) -> None:
        started = time.monotonic()
        done = self.cli(args)
        seconds = round(time.monotonic() - started, 1)
        entry = {"argv": [self.normaliser.text(arg) for arg in args], "returncode": done.returncode, "seconds": seconds,
                 "stdout": self.normaliser.stdout(done.stdout), "files": {}}
        if done.returncode:
            entry["error"] = self.normaliser.text((done.stderr.strip().splitlines() or ["(no message)"])[-1])
        for output in outputs:
            entry["files"].update(record_output(self.work / output, self.normaliser))
        self.commands[label] = entry
        status = "ok" if done.returncode == 0 else f"FAILED ({done.returncode}): {entry['error']}"
        print(f"  {label:<18} {seconds:>7.1f} s  {len(entry['files']):>4} files  {status}", flush=True)

    def record_inputs(self) -> None:
        """The generated inputs, so that a compare shows that both records had the same."""
        self.commands["inputs"] = {"argv": [], "returncode": 0, "seconds": 0.0, "stdout": [],
                                   "files": record_output(self.work / "inputs", self.normaliser)}


def checkout_commit(checkout: Path) -> str:
    return subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


# ---------------------------------------------------------------- the fixed inputs

def write_subset(path: Path) -> None:
    """The 80 videos of the subset with all their captions, in the raw files' order, as one MSR-VTT JSON."""
    documents = [read_raw(zip_name, member) for zip_name, member in RAW_FILES]
    keep = set(TRAIN_VIDEOS) | set(TEST_VIDEOS)
    subset = {"info": documents[0]["info"],
              "videos": [video for document in documents for video in document["videos"] if video["video_id"] in keep],
              "sentences": [sentence for document in documents for sentence in document["sentences"]
                            if sentence["video_id"] in keep]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(subset, ensure_ascii=False) + "\n", encoding="utf-8")


def read_raw(zip_name: str, member: str) -> dict:
    with zipfile.ZipFile(RAW / zip_name) as archive:
        return json.loads(archive.read(member))


def write_csv(path: Path, header: tuple, rows) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def video_number(video_id: str) -> int:
    return int(video_id.removeprefix("video"))


def parquet_rows(folder: Path, columns: list) -> list:
    """The rows (tuples of `columns`) of every Parquet file under `folder`, files in name order."""
    rows = []
    for path in sorted(folder.rglob("*.parquet")):
        table = pq.read_table(path, columns=columns)
        rows.extend(zip(*(table.column(name).to_pylist() for name in columns)))
    return rows


def test_captions(run: Path) -> list:
    """(sen_id, video_id, caption) of the test split of a clean run, by sen_id."""
    rows = parquet_rows(run / "captions", ["sen_id", "video_id", "split", "caption"])
    return sorted((sen_id, video, caption) for sen_id, video, split, caption in rows if split == "test")


def write_ndcg_scores(relevance: Path, path: Path) -> None:
    """A seeded score for every (caption, video) of the relevance output's gallery."""
    rows = parquet_rows(relevance / "relevance", ["sen_id", "video_id"]) if relevance.is_dir() else []
    sen_ids = sorted({sen_id for sen_id, _ in rows})
    videos = sorted({video for _, video in rows}, key=video_number)
    draw = random.Random(SEED)
    write_csv(path, ("sen_id", "video_id", "score"),
              ((sen_id, video, f"{draw.random():.6f}") for sen_id in sen_ids for video in videos))


def write_posrank_scores(hardneg: Path, path: Path) -> None:
    """A seeded score for each caption's own (video, sen_id) pair and each (video, negative_id) pair."""
    rows = parquet_rows(hardneg / "hardneg", ["video_id", "sen_id", "negative_id"]) if hardneg.is_dir() else []
    true_pairs = sorted({(video, str(sen_id)) for video, sen_id, _ in rows})
    negative_pairs = sorted({(video, negative_id) for video, _, negative_id in rows})
    draw = random.Random(SEED + 1)
    write_csv(path, ("video_id", "text_id", "score"),
              ((video, text_id, f"{draw.random():.6f}") for video, text_id in true_pairs + negative_pairs))


def write_fire_inputs(run: Path, inputs: Path) -> None:
    """Two models' seeded rankings of every test video for each test caption, and labels for them."""
    captions = test_captions(run) if run.is_dir() else []
    videos = sorted({video for _, video, _ in captions}, key=video_number)
    for name, seed in (("a", SEED + 2), ("b", SEED + 3)):
        write_csv(inputs / f"fire-predictions-{name}.csv", ("sen_id", "video_id", "rank", "score"),
                  ranked_predictions(captions, videos, random.Random(seed)))
    write_csv(inputs / "fire-labels.csv", ("query", "video", "label", "source"),
              fire_labels(captions, videos, random.Random(SEED + 4)))


def ranked_predictions(captions: list, videos: list, draw: random.Random):
    for sen_id, _, _ in captions:
        scores = [(round(draw.random(), 6), video) for video in videos]
        ranked = sorted(scores, key=lambda item: (-item[0], video_number(item[1])))
        for rank, (score, video) in enumerate(ranked, start=1):
            yield sen_id, video, rank, f"{score:.6f}"


def fire_labels(captions: list, videos: list, draw: random.Random):
    """Per caption: its own video (original); two other videos labelled by one or both models' pools,
    relevant or not; every fifth caption's extra label names the query by its text; and one label
    of a query no model ranked."""
    sources = ("model-a", "model-b", "model-a,model-b")
    for index, (sen_id, own, caption) in enumerate(captions):
        yield sen_id, own, 1, "original"
        for video in draw.sample([video for video in videos if video != own], 2):
            query = caption if index % 5 == 0 else sen_id
            yield query, video, draw.choice(("1", "0", "relevant", "irrelevant")), draw.choice(sources)
    if captions:
        yield 99999999, videos[0], 1, "model-a"


# ---------------------------------------------------------------- normalisation

GE_RUN_TIME = re.compile(r"\b\d{8}T\d{6}\.\d{6}Z\b")
DURATION = re.compile(r"\b\d+(?:\.\d+)? s\b")  # "done in 11.6 s", "read 4.8 s"
PEAK_MEMORY = re.compile(r"\bpeak memory [\d,.]+ (MiB|GiB)\b")
SECONDS_COLUMN = re.compile(r"\d+(?:\.\d+)?$")  # the last cell of a row under a header ending in "seconds"


class Normaliser:
    """What varies between two runs of the same code on the same inputs, replaced by fixed text."""

    def __init__(self, work: Path, checkout: Path, commit: str):
        self.work, self.checkout, self.commit = work, checkout, commit
        self._commit_prefix = re.compile(r"(?<![0-9a-fA-F])" + commit[:7] + r"[0-9a-f]{0,33}(?![0-9a-fA-F])")
        places = sorted({(str(work), "<WORK>"), (str(checkout), "<CHECKOUT>")}, key=lambda item: -len(item[0]))
        self._places = places

    def text(self, text: str) -> str:
        for path, placeholder in self._places:
            text = text.replace(path, placeholder)
        return self._commit_prefix.sub(
            lambda found: "0" * len(found.group()) if self.commit.startswith(found.group()) else found.group(), text)

    def relpath(self, path: Path) -> str:
        return GE_RUN_TIME.sub("<RUN-TIME>", self.text(str(path.relative_to(self.work))))

    def stdout(self, stdout: str) -> list:
        lines, in_seconds_table = [], False
        for line in stdout.splitlines():
            line = PEAK_MEMORY.sub(r"peak memory <MEM> \1", DURATION.sub("<T> s", self.text(line)))
            if in_seconds_table and line.startswith("  "):
                line = SECONDS_COLUMN.sub("<T>", line)
            else:
                in_seconds_table = line.rstrip().endswith(" seconds")
            lines.append(line)
        return lines

    def file_digest(self, path: Path) -> str:
        data = path.read_bytes()
        if path.suffix == ".parquet":
            return sha256(self.parquet_bytes(path, data))
        if path.name == "manifest.json":
            return sha256(self.text(canonical_json(manifest_without_provenance(json.loads(data)))).encode())
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return sha256(data.replace(self.commit.encode(), b"0" * 40))
        if path.suffix == ".json":
            text = json_without_measurements(text)
        if "validation" in path.relative_to(self.work).parts[:-1]:
            text = data_docs_without_run_times(text)
        return sha256(self.text(text).encode())

    def parquet_bytes(self, path: Path, data: bytes) -> bytes:
        """The file's bytes with the commit zeroed, in the plain metadata and in the base64 ARROW:schema."""
        zeros = b"0" * 40
        schema = (pq.ParquetFile(path).metadata.metadata or {}).get(b"ARROW:schema")
        if schema:
            decoded = base64.b64decode(schema)
            if self.commit.encode() in decoded:
                data = data.replace(schema, base64.b64encode(decoded.replace(self.commit.encode(), zeros)))
        return data.replace(self.commit.encode(), zeros)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical_json(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def manifest_without_provenance(manifest: dict) -> dict:
    """The manifest less its times, environment and capclean version and commit; measurements marked."""
    manifest = {key: value for key, value in manifest.items() if key not in ("times", "environment")}
    return with_measurements_marked(without_key(manifest, "capclean"))


def without_key(value, key: str):
    if isinstance(value, dict):
        return {name: without_key(item, key) for name, item in value.items() if name != key}
    if isinstance(value, list):
        return [without_key(item, key) for item in value]
    return value


# Keys whose values are measurements of the run, not results: seconds and peak memory (relevance's stats).
MEASUREMENT_KEY = re.compile(r"(^|_)seconds($|_)|^peak_memory")


def with_measurements_marked(value):
    """Every value under a measurement key (a number, or an object of them) -> "<measured>"; the key stays."""
    if isinstance(value, dict):
        return {key: "<measured>" if MEASUREMENT_KEY.search(key) else with_measurements_marked(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [with_measurements_marked(item) for item in value]
    return value


def json_without_measurements(text: str) -> str:
    """A JSON file with measurements: canonical JSON with them marked; any other text as it is."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    marked = with_measurements_marked(value)
    return canonical_json(marked) if marked != value else text


ISO_TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?")
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")


def data_docs_without_run_times(text: str) -> str:
    """Great Expectations' Data Docs: the validation run's time (two spellings) and the random ids of page elements."""
    return UUID.sub("<UUID>", ISO_TIME.sub("<TIME>", GE_RUN_TIME.sub("<RUN-TIME>", text)))


# ---------------------------------------------------------------- what a command wrote

def record_output(path: Path, normaliser: Normaliser) -> dict:
    """{relpath: digest} of a file, or of every file under a folder; {folder/: {"table": ...}} per Parquet folder."""
    if path.is_file():
        return {normaliser.relpath(path): normaliser.file_digest(path)}
    if not path.is_dir():
        return {}
    files = {}
    for file in sorted(item for item in path.rglob("*") if item.is_file()):
        files[normaliser.relpath(file)] = normaliser.file_digest(file)
    for folder in sorted({file.parent for file in path.rglob("*.parquet")}):
        files[normaliser.relpath(folder) + "/"] = {"table": table_record(folder, normaliser)}
    return files


def table_record(folder: Path, normaliser: Normaliser) -> dict:
    """Rows; per column its type, nullability and the sha256 of its values in row order (files by name); and
    the schema metadata other than pyarrow's own copy of the schema (normalised), as it differs between files."""
    columns, digests, rows, metadata = {}, {}, 0, set()
    for path in sorted(folder.glob("*.parquet")):
        table = pq.read_table(path)
        rows += table.num_rows
        metadata.add(normaliser.text(canonical_json({key.decode(): value.decode(errors="replace") for key, value
                                                     in (table.schema.metadata or {}).items()
                                                     if key != b"ARROW:schema"})))
        for field in table.schema:
            kind = {"type": str(field.type), "nullable": field.nullable}
            if columns.setdefault(field.name, kind) != kind:
                columns[field.name] = {"type": "differs between files", "nullable": None}
            digest = digests.setdefault(field.name, hashlib.sha256())
            for value in table.column(field.name).to_pylist():
                digest.update(repr(value).encode() + b"\n")
    for name, digest in digests.items():
        columns[name]["sha256"] = digest.hexdigest()
    return {"rows": rows, "columns": columns, "metadata": sorted(metadata)}


# ================================================================ compare

def compare(old: dict, new: dict) -> int:
    differences, files, figures = [], 0, 0
    for label in sorted(set(old["commands"]) | set(new["commands"])):
        if label not in new["commands"] or label not in old["commands"]:
            print(f"skipped {label}: only in {'OLD' if label in old['commands'] else 'NEW'}")
            continue
        before, after = old["commands"][label], new["commands"][label]
        differences += compare_command(label, before, after)
        files += sum(1 for value in before["files"].values() if isinstance(value, str))
        figures += sum(len(FIGURE.findall(line)) for line in before["stdout"])
    if differences:
        print(f"DIFFERENT: {len(differences)} differences")
        return 1
    print(f"same outputs: {files} files, {figures} printed figures")
    return 0


FIGURE = re.compile(r"(?<![\w<])-?\d+(?:[.,]\d+)*%?")


def compare_command(label: str, before: dict, after: dict) -> list:
    """The differences of one command, each printed on its own line; notes are printed, not returned."""
    differences = []
    if before["returncode"] != after["returncode"]:
        differences.append(f"exit code {before['returncode']} -> {after['returncode']}"
                           + (f" ({after.get('error')})" if after.get("error") else ""))
    differences += stdout_differences(before["stdout"], after["stdout"])
    differences += file_differences(label, before["files"], after["files"])
    for difference in differences:
        print(f"DIFF {label}: {difference}")
    return differences


def stdout_differences(before: list, after: list) -> list:
    lines = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, a_start, a_end, b_start, b_end in matcher.get_opcodes():
        if tag != "equal":
            lines += [f"stdout line {number + 1}: - {before[number]}" for number in range(a_start, a_end)]
            lines += [f"stdout line {number + 1}: + {after[number]}" for number in range(b_start, b_end)]
    return lines


def file_differences(label: str, before: dict, after: dict) -> list:
    tables = {path for path, value in before.items() if isinstance(value, dict)}
    in_table = lambda path: path.rsplit("/", 1)[0] + "/" in tables  # noqa: E731
    differences = []
    for path, digest in before.items():
        if isinstance(digest, str) and not in_table(path):
            if path not in after:
                differences.append(f"{path}: missing in NEW")
            elif after[path] != digest:
                differences.append(f"{path}: content differs")
    for folder in sorted(tables):
        differences += table_differences(label, folder, before, after)
    for path in sorted(set(after) - set(before)):
        if not in_table(path):  # a new file of an OLD table folder is judged with the table
            print(f"added {label}: {path} (only in NEW)")
    return differences


def table_differences(label: str, folder: str, before: dict, after: dict) -> list:
    """A Parquet folder: the same files byte for byte; or else the same rows with OLD's columns and more."""
    members = lambda record: {path: value for path, value in record.items()  # noqa: E731
                              if isinstance(value, str) and path.rsplit("/", 1)[0] + "/" == folder}
    if members(before) == members(after):
        return []
    if folder not in after:
        return [f"{folder}: table missing in NEW"]
    old, new = before[folder]["table"], after[folder]["table"]
    if old["rows"] != new["rows"]:
        return [f"{folder}: {old['rows']} rows -> {new['rows']}"]
    changed = [name for name, column in old["columns"].items() if new["columns"].get(name) != column]
    if changed:
        return [f"{folder}: column(s) missing or different in NEW: {', '.join(changed)}"]
    if old["metadata"] != new["metadata"]:
        return [f"{folder}: the schema metadata (capclean's provenance) differs"]
    added = [name for name in new["columns"] if name not in old["columns"]]
    if not added:
        return [f"{folder}: files differ, with the same rows and columns (metadata, file layout or encoding)"]
    print(f"note {label}: {folder}: same rows, columns added: {', '.join(added)}")
    return []


if __name__ == "__main__":
    sys.exit(main())
