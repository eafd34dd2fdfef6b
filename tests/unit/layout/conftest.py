"""The contract every `capclean` command keeps (pipelines/commands/command.py), as checks a test runs on
one command, and the inputs of the commands' examples, built once per session.

test_command_contract.py runs the checks on every command of COMMANDS; test_adding_a_command.py runs
the same checks on a command it adds. A check is a method of CommandContract; it fails with what the
command did wrong.
"""
import argparse
import csv
import functools
import io
import json
import logging
import os
import re
import shutil
import subprocess
import sys
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, fields
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipelines.commands.command import FILES, FOLDER
from pipelines.output.folder import MARKER
from schemas.evaluation_tables import EVALUATION_TABLES
from schemas.tables import TABLES

# --- Running capclean ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Ran:
    """What one `capclean ...` did: its exit code and what it printed."""
    code: int
    stdout: str
    stderr: str


@contextmanager
def logging_as_in_a_process():
    """capclean logs to stderr only when the process has no log handler of its own, and pytest has one:
    without it for the while, what capclean logs lands on stderr, as in `capclean ...` on a terminal."""
    root = logging.getLogger()
    pytest_handlers = root.handlers[:]
    root.handlers = []
    try:
        yield
    finally:
        root.handlers = pytest_handlers


def run_in_process(argv) -> Ran:
    """`capclean ARGV` in this process (Beam, spaCy and WordNet load once for all the runs)."""
    from pipelines.cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    with redirect_stdout(stdout), redirect_stderr(stderr), logging_as_in_a_process():
        try:
            code = main([str(arg) for arg in argv])
        except SystemExit as ended:  # argparse ends --help and a usage error so
            code = ended.code or 0
    return Ran(code, stdout.getvalue(), stderr.getvalue())


@pytest.fixture(scope="session")
def capclean_in_process():
    """argv -> Ran: `capclean ARGV` run in this process."""
    return run_in_process


@pytest.fixture(scope="session")
def capclean_in_a_new_interpreter(repo):
    """(script, pythonpath) -> (argv -> Ran): `python -c SCRIPT ARGV` in a new interpreter each time, SCRIPT
    being a command line (a test's stand-in for an edited module), with PYTHONPATH `pythonpath`."""
    def command_line(script: str, pythonpath: str):
        def run(argv) -> Ran:
            done = subprocess.run([sys.executable, "-c", script, *map(str, argv)], cwd=repo, capture_output=True,
                                  text=True, env={"PYTHONPATH": pythonpath, "PATH": "/usr/bin:/bin"})
            return Ran(done.returncode, done.stdout, done.stderr)
        return run
    return command_line


# --- The inputs of the examples ------------------------------------------------------------------------
# A few train, validate and test videos of a few captions each: the evaluation commands read the test
# split by default. Video numbers are in their split's MSR-VTT range (train 0-6512, validate 6513-7009,
# test 7010-9999), which the cleaning's validation checks.

EXAMPLE_VIDEOS = {
    "video1": ("train", ["a man is playing a guitar on stage", "a man plays the guitar",
                         "a musician performs a song"]),
    "video2": ("train", ["a woman is cooking pasta in a kitchen", "a woman cooks food",
                         "someone stirs a pot of soup"]),
    "video6600": ("validate", ["a dog runs across a green field", "a brown dog is running outside"]),
    "video7010": ("test", ["a man is playing a guitar", "a man is playing a guitar!",  # near-duplicates
                           "a young man sings & plays guitar"]),
    "video7011": ("test", ["a woman is cooking in a small kitchen", "a chef prepares a meal",
                           "a woman slowly stirs the soup"]),
    "video7012": ("test", ["two dogs play with a red ball", "a dog jumps over a fence", "dogs run in the park"]),
}


@pytest.fixture(scope="session")
def example_raw(tmp_path_factory, write_annotations):
    """{raw}: MSR-VTT-format annotations."""
    videos = [{"video_id": video, "split": split, "category": 3} for video, (split, _) in EXAMPLE_VIDEOS.items()]
    texts = [(video, text) for video, (_, captions) in EXAMPLE_VIDEOS.items() for text in captions]
    sentences = [{"sen_id": sen_id, "video_id": video, "caption": text} for sen_id, (video, text) in enumerate(texts)]
    return write_annotations(tmp_path_factory.mktemp("raw"), videos, sentences)


def must_run(argv) -> None:
    ran = run_in_process(argv)
    assert ran.code == 0, f"capclean {' '.join(map(str, argv))}: {ran.stderr[-2000:]}"


@pytest.fixture(scope="session")
def example_run(tmp_path_factory, example_raw):
    """{run}: a clean output of {raw} (steps I and III only: quick, and enough for what reads a run)."""
    run = tmp_path_factory.mktemp("run") / "run"
    must_run(["clean", "--input", example_raw, "--output", run, "--steps", "normalize,dedup"])
    return run


@pytest.fixture(scope="session")
def example_hardneg(tmp_path_factory, example_run):
    """{hardneg}: a hardneg output of {run}'s test split."""
    output = tmp_path_factory.mktemp("hardneg") / "hardneg"
    must_run(["hardneg", "--input", example_run, "--output", output, "--k", "3"])
    return output


@pytest.fixture(scope="session")
def example_relevance(tmp_path_factory, example_run):
    """{relevance}: a relevance output of {run}'s test split."""
    output = tmp_path_factory.mktemp("relevance") / "relevance"
    must_run(["relevance", "--input", example_run, "--output", output, "--proxies", "bow,pos"])
    return output


def write_csv(path: Path, header: list, rows: list) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([header, *rows])
    return path


@pytest.fixture(scope="session")
def example_scores_for_hardneg(tmp_path_factory, example_hardneg):
    """{scores_for_hardneg}: a model's score of every (video, true caption) and (video, negative) pair:
    the true caption 1, its negatives less or more, so that PoSRank is neither 0 nor 1."""
    negatives = pq.read_table(example_hardneg / "hardneg", columns=["negative_id", "sen_id", "video_id", "k"])
    rows = {(video, str(sen_id), 1.0) for video, sen_id in zip(negatives["video_id"].to_pylist(),
                                                                negatives["sen_id"].to_pylist())}
    rows |= {(video, negative, 0.5 + k % 2) for video, negative, k in zip(
        negatives["video_id"].to_pylist(), negatives["negative_id"].to_pylist(), negatives["k"].to_pylist())}
    return write_csv(tmp_path_factory.mktemp("scores") / "scores.csv", ["video_id", "text_id", "score"], sorted(rows))


def captions_of_the_test_split(run: Path) -> list:
    """(sen_id, video_id) of every test caption of a run, by sen_id."""
    table = pq.read_table(run / "captions", columns=["sen_id", "video_id", "split"]).to_pylist()
    return sorted((row["sen_id"], row["video_id"]) for row in table if row["split"] == "test")


@pytest.fixture(scope="session")
def example_predictions(tmp_path_factory, example_run):
    """{predictions}: a model's ranking of the test videos for every test caption; caption i's own video
    is at rank 1 + i mod 3, so some are right at 1 and some only at 3."""
    captions = captions_of_the_test_split(example_run)
    videos = sorted({video for _, video in captions})
    rows = []
    for sen_id, own in captions:
        others = [video for video in videos if video != own]
        ranking = others[:sen_id % 3] + [own] + others[sen_id % 3:]
        rows += [(sen_id, video, rank, round(1 / rank, 3)) for rank, video in enumerate(ranking, 1)]
    return write_csv(tmp_path_factory.mktemp("predictions") / "predictions.csv",
                     ["sen_id", "video_id", "rank", "score"], rows)


@pytest.fixture(scope="session")
def example_labels(tmp_path_factory, example_run):
    """{labels}: each test caption's own video (source original), and one other video judged by people from
    a model's pool: relevant for even sen_ids, not for odd ones."""
    captions = captions_of_the_test_split(example_run)
    videos = sorted({video for _, video in captions})
    rows = []
    for sen_id, own in captions:
        other = videos[(videos.index(own) + 1) % len(videos)]
        rows += [(sen_id, own, 1, "original"), (sen_id, other, int(sen_id % 2 == 0), "MODEL_A")]
    return write_csv(tmp_path_factory.mktemp("labels") / "labels.csv", ["query", "video", "label", "source"], rows)


@pytest.fixture(scope="session")
def example_similarity(tmp_path_factory, example_raw):
    """{similarity}: a model's (texts x videos) similarity matrix on {raw}'s full-test protocol (its 9 test
    captions by sen_id x its 3 test videos): a caption's own video scores 1 for captions 0, 3, 6... and is
    beaten by one other video for the rest, so that R@1 is neither 0 nor 1."""
    import numpy as np

    videos = [video for video, (split, _) in EXAMPLE_VIDEOS.items() if split == "test"]  # in natural order
    own_columns = [column for column, video in enumerate(videos) for _ in EXAMPLE_VIDEOS[video][1]]  # by sen_id
    similarity = np.full((len(own_columns), len(videos)), 0.5)
    for row, own in enumerate(own_columns):
        similarity[row, own] = 1.0 if row % 3 == 0 else 0.7
        similarity[row, (own + 1) % len(videos)] = 0.6 if row % 3 == 0 else 0.9
    path = tmp_path_factory.mktemp("similarity") / "similarity.npy"
    np.save(path, similarity)
    return path


# {da_hits} and {da_judgments}: a Direct Assessment study of {run}'s captions, laid out by `capclean da prepare`
# (every caption kept, raw against cleaned, one caption of each video kept out as its reference): two HITs of
# 20 slots in 2 blocks, 5 degraded copies, a repeat and a reference each, so a worker who rates both has the
# 10 good/degraded pairs `da score` asks for. Two careful workers score a degraded copy 40 below its original;
# a third clicks at random (by a formula).
DA_RECIPE = ("--items-per-hit", "20", "--blocks-per-hit", "2", "--degraded-per-hit", "5", "--repeats-per-hit", "1",
             "--references-per-hit", "1")


@pytest.fixture(scope="session")
def example_da_hits(tmp_path_factory, example_run):
    """{da_hits}: the folder `capclean da prepare` wrote for {run} (hits/ and the rest)."""
    folder = tmp_path_factory.mktemp("da_hits") / "prepared"
    must_run(["da", "prepare", "--input", example_run, "--output", folder, "--all-captions", "--split", "all",
              *DA_RECIPE])
    return folder


def careful_score(slot: int, hit: int, offset: int) -> int:
    """A careful worker's score of a real caption: 60 to 94, by the slot, the HIT and the worker's offset."""
    return 60 + (slot * 11 + hit * 5 + offset) % 35


@pytest.fixture(scope="session")
def example_da_judgments(tmp_path_factory, example_da_hits):
    """{da_judgments}: three workers' judgments of every slot of {da_hits}'s HITs, as the rating page saves them."""
    slots = pq.read_table(example_da_hits / "hits").to_pylist()
    rows = []
    for worker, offset in (("careful-1", 0), ("careful-2", 7), ("clicker", None)):
        for slot in slots:
            hit = int(slot["hit_id"].removeprefix("hit-"))
            if offset is None:
                score = (slot["slot"] * 37 + hit * 11) % 101
            elif slot["kind"] == "degraded":
                score = careful_score(slot["original_slot"], hit, offset) - 40
            else:
                score = careful_score(slot["slot"], hit, offset)
            rows.append((worker, slot["hit_id"], slot["slot"], score, 10))
    return write_csv(tmp_path_factory.mktemp("da_judgments") / "judgments.csv",
                     ["worker", "hit_id", "slot", "score", "seconds"], rows)


PLACEHOLDER = re.compile(r"\{(\w+)\}")


def placeholders(example) -> set:
    """The names of an example's placeholders ({run} -> run)."""
    return {name for arg in example for name in PLACEHOLDER.findall(arg)}


@pytest.fixture(scope="session")
def example_inputs():
    """(request, example) -> {placeholder: path} of the inputs the example names, {out} aside: only those
    are built (each once per session, by the fixture example_NAME)."""
    def inputs(request, example) -> dict:
        return {name: request.getfixturevalue(f"example_{name}") for name in placeholders(example) - {"out"}}
    return inputs


# --- The contract ----------------------------------------------------------------------------------------

# The flags that name what a command writes (baseline's second .npy, its hard negatives' scores, has its own).
FILE_FLAGS = ("--output", "--json", "--report", "--negatives-output")
NOT_ARGS = {"help", "log_level", "quiet", "version"}  # argparse dests every command has, kept by cli.py
TYPED = (int, float)


def one_line(ran: Ran) -> str:
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1, f"not one line on stderr:\n{ran.stderr[-3000:]}"
    return lines[0]


def snapshot(folder: Path) -> dict:
    """Every file under `folder` with its bytes, and every folder (as None)."""
    return {str(path.relative_to(folder)): path.read_bytes() if path.is_file() else None
            for path in sorted(folder.rglob("*"))}


def with_flag(argv: list, flag: str, value) -> list:
    """argv with the value of `flag` (which it holds) replaced."""
    at = argv.index(flag)
    return argv[:at + 1] + [str(value)] + argv[at + 2:]


# -- What the docs name

def usage_lines(doc: str, name: str) -> list:
    """The lines of the doc's ```sh blocks that run `capclean NAME`, with their continuation lines, comments cut."""
    lines, inside, continuing = [], False, False
    for line in doc.splitlines():
        if line.startswith("```"):
            inside, continuing = line.strip() == "```sh", False
            continue
        if not inside:
            continue
        code = line.split(" #", 1)[0]
        if re.match(rf"\s*(\.venv/bin/)?capclean {name}(\s|$)", code):
            continuing = True
        elif not line.startswith(" "):
            continuing = False
        if continuing:
            lines.append(code)
    return lines


LIST_ITEM = re.compile(r"^\s*[-*] ((?:`--[^`]+`(?:, | or )?)+)")  # - `--flag A`, `--other B`: ...
TABLE_ROW = re.compile(r"^\|\s*(`--[^`]+`)\s*\|")  # | `--flag A` | ...
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9_-]*")


def documented_flags(doc: str, name: str) -> set:
    """The flags docs/commands/NAME.md gives `capclean NAME`: those of the lines of its ```sh blocks that
    run it (its usage, its examples), and those a list item or a table row opens with. Flags the doc names
    in passing (Beam's, other commands', an old spelling) are not the command's, and are not read."""
    text = usage_lines(doc, name)
    for line in doc.splitlines():
        opening = LIST_ITEM.match(line) or TABLE_ROW.match(line)
        if opening:
            text.append(opening.group(1))
    return set(FLAG.findall("\n".join(text)))


# -- The checks

def subparser(parser: argparse.ArgumentParser, words: tuple) -> argparse.ArgumentParser:
    """The parser of the command the words name (`("da", "prepare")`: the group's, then the command's)."""
    for word in words:
        subparsers = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
        parser = subparsers.choices[word]
    return parser


class CommandContract:
    """The contract of one command: each check_ method fails, with the reason, when the command breaks it,
    and skips when it does not apply to the command.

    command     the Command
    capclean    argv -> Ran: the command line that has the command
    parser      the command line's argparse parser (pipelines/cli.py's build_parser)
    inputs      {placeholder: path} of what its example reads
    docs        the folder of the commands' docs (docs/commands)
    new_folder  name -> a new empty folder
    """

    def __init__(self, command, capclean, parser, inputs: dict, docs: Path, new_folder):
        self.command, self.capclean, self.parser = command, capclean, subparser(parser, command.words)
        self.inputs, self.docs, self.new_folder = inputs, docs, new_folder

    def checks(self) -> list:
        return [self.check_example_and_docs, self.check_help_names_the_documented_flags,
                self.check_args_are_the_flags, self.check_a_users_output_is_refused,
                self.check_marker_and_manifest, self.check_tables_have_their_schemas, self.check_same_bytes,
                self.check_a_bad_flag_is_one_line, self.check_renamed_flags_are_refused]

    def example(self, out: Path, **inputs) -> list:
        """`NAME` and the example's arguments, with the inputs and `out` filled in (`inputs` replacing some)."""
        places = {**self.inputs, **inputs, "out": out}
        return [*self.command.words] + [arg.format(**places) for arg in self.command.example]

    def run_example(self) -> Path:
        """Run the example into a new folder, which it returns. A command whose example names no {out}
        writes into the capclean output it is given (export, into {run}): it gets a copy of its own."""
        where = self.new_folder(f"{self.command.slug}-example")
        if "out" in placeholders(self.command.example):
            argv = self.example(where)
        else:
            shutil.copytree(self.inputs["run"], where, dirs_exist_ok=True)
            argv = self.example(where, run=where)
        ran = self.capclean(argv)
        assert ran.code == 0, f"capclean {' '.join(argv)} exited {ran.code}: {ran.stderr[-3000:]}"
        return where

    @functools.cached_property
    def written(self) -> Path:
        """The folder the example wrote into, run once for the checks that read it."""
        return self.run_example()

    def check_example_and_docs(self):
        assert self.command.example, f"{self.command.name} has no example"
        assert placeholders(self.command.example) <= {"raw", "run", "hardneg", "relevance", "scores_for_hardneg",
                                                      "predictions", "labels", "similarity", "da_hits",
                                                      "da_judgments", "out"}
        assert (self.docs / f"{self.command.slug}.md").is_file(), f"no {self.docs}/{self.command.slug}.md"

    def check_help_names_the_documented_flags(self):
        ran = self.capclean([*self.command.words, "--help"])
        assert ran.code == 0, ran.stderr
        documented = documented_flags((self.docs / f"{self.command.slug}.md").read_text(), self.command.name)
        assert documented, f"{self.command.slug}.md names no flag in its usage block"
        assert documented - set(FLAG.findall(ran.stdout)) == set(), "flags the docs name that --help does not"

    def check_args_are_the_flags(self):
        arg_names = {field.name for field in fields(self.command.Args)}
        assert {action.dest for action in self.parser._actions} - NOT_ARGS == arg_names - {"beam"}
        assert ("beam" in arg_names) == self.command.takes_beam_options

    def check_a_users_output_is_refused(self):
        """--output at a user's folder (FOLDER), or each file flag at a user's file (FILES): exit 2 in one
        line that names it, and nothing written, there or beside it."""
        assert self.command.writes in (FOLDER, FILES)
        flags = [flag for flag in FILE_FLAGS if flag in self.command.example]
        if self.command.writes == FOLDER:
            assert flags[:1] == ["--output"], "a command that writes a folder takes it as --output"
        if not flags:
            pytest.skip(f"{self.command.name} writes into the capclean output it is given; no flag names a file")
        for flag in flags:
            around = self.new_folder(f"{self.command.slug}-refused")
            users = around / "mine"
            if self.command.writes == FOLDER:
                users.mkdir()
                (users / "notes.txt").write_text("my notes\n")
            else:
                users.write_text("my notes\n")
            before = snapshot(around)
            ran = self.capclean(with_flag(self.example(around), flag, users))
            assert ran.code == 2, f"{flag} at a user's {'folder' if users.is_dir() else 'file'}: exit {ran.code}"
            assert str(users) in one_line(ran)
            assert snapshot(around) == before

    def check_marker_and_manifest(self):
        if self.command.writes != FOLDER:
            pytest.skip(f"{self.command.name} writes files, not a folder")
        assert json.loads((self.written / MARKER).read_text())["written_by"] == "capclean"
        assert json.loads((self.written / "manifest.json").read_text())["command"] == self.command.name

    def check_tables_have_their_schemas(self):
        """Every Parquet table the example wrote has the schema schemas/ declares for it (the cleaning's
        TABLES, the evaluation's EVALUATION_TABLES; relevance/proxy=NAME/ is one `relevance` table per proxy)."""
        declared = {**TABLES, **EVALUATION_TABLES}
        folders = sorted({path.parent for path in self.written.rglob("*.parquet")} - {self.written / "hf"})
        folders = [folder for folder in folders if "exports" not in folder.parts and "hf" not in folder.parts]
        if not folders:
            pytest.skip(f"{self.command.name} writes no Parquet table")
        for folder in folders:
            name = "relevance" if folder.name.startswith("proxy=") else folder.name
            assert name in declared, f"{folder.relative_to(self.written)}: no schema in schemas/ declares it"
            for file in folder.glob("*.parquet"):
                written = pq.read_schema(file).remove_metadata()
                assert written.equals(declared[name].remove_metadata()), f"{file}: {written} is not {name}'s schema"

    def check_same_bytes(self):
        """The example again, into another folder: every file the same, what measures the run aside."""
        first, second = comparable_files(self.written), comparable_files(self.run_example())
        assert sorted(first) == sorted(second)
        assert [name for name in first if first[name] != second[name]] == []

    def check_a_bad_flag_is_one_line(self):
        """An unknown flag, and a value of the wrong type or outside the choices, are one line that names the
        flag, exit 2, and nothing is written."""
        flags = [action for action in self.parser._actions if action.option_strings]
        typed = [action for action in flags if action.type in TYPED][:1]
        chosen = [action for action in flags if action.choices][:1]
        # No dash inside the unknown flag: Beam, to which a Beam command passes it, would name --no-such-flag
        # --no_such_flag.
        bad = [["--nosuchflag"]] + [[action.option_strings[-1], "not-a-value"] for action in typed + chosen]
        for extra in bad:
            out = self.new_folder(f"{self.command.slug}-bad")
            ran = self.capclean(self.example(out) + extra)
            assert ran.code == 2, f"{' '.join(extra)}: exit {ran.code}"
            assert extra[0] in one_line(ran)
            assert snapshot(out) == {}

    def check_renamed_flags_are_refused(self):
        """The old spelling of a renamed flag: one line that names both, exit 2, and nothing written."""
        if not self.command.renamed:
            pytest.skip(f"{self.command.name} has no renamed flag")
        for old, new in self.command.renamed.items():
            out = self.new_folder(f"{self.command.slug}-renamed")
            argv = self.example(out)
            argv = [old if arg == new else arg for arg in argv] if new in argv else argv + [old, str(out / "x")]
            ran = self.capclean(argv)
            assert ran.code == 2
            assert new in one_line(ran) and old in one_line(ran)
            assert snapshot(out) == {}


@pytest.fixture(scope="session")
def command_contract():
    """CommandContract(command, capclean, parser, inputs, docs, new_folder): the checks of one command."""
    return CommandContract


# -- Comparing two runs' outputs

MEASURED = re.compile(r"seconds|^peak_memory")  # keys of JSON values that measure the run, not the input
GE_STAMP = re.compile(rb"\d{8}T\d{6}\.\d{6}Z|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")  # 20261127T205355.582836Z, 2026-11-27T20:53:55Z
UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def comparable_files(folder: Path) -> dict:
    """{path: content} of every file under `folder`, without what two runs of the same input write
    differently (each found by running every command twice):
    - the output folder's own path, which a page may name (clean's report.html);
    - in JSON files, the measurements of the run: manifest.json's `times`, and the values of keys that
      hold seconds or peak memory (relevance's stats.json, and its figures in the manifest);
    - in the Data Docs of Great Expectations (validation/), the validation's time, stamped in file names
      and pages, and the random ids of the pages' folding sections."""
    files = {}
    for path in sorted(path for path in folder.rglob("*") if path.is_file()):
        name = str(path.relative_to(folder))
        content = path.read_bytes().replace(os.fsencode(folder), b"<output>")
        if path.suffix == ".json":
            content = without_measurements(json.loads(content))
            if name == "manifest.json":
                content.pop("times")
        if name.startswith("validation/"):
            name = GE_STAMP.sub(b"<time>", name.encode()).decode()
            content = content if isinstance(content, dict) else UUID.sub(b"<id>", GE_STAMP.sub(b"<time>", content))
        files[name] = content
    return files


def without_measurements(value):
    if isinstance(value, dict):
        return {key: "<measured>" if MEASURED.search(key) else without_measurements(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [without_measurements(item) for item in value]
    return value
