"""Progress: one line per step, with the totals of all workers and an estimate of the time left.

Each step is followed by a pass-through DoFn (`log_progress`) that counts the videos and
captions it sees. Workers share nothing and Beam's local FnApiRunner reports its metrics
(counters) only once the pipeline has ended, so each DoFn instance writes its running
counts, about once a second, to a small JSON file of its own in a folder on this machine;
the command that runs the pipeline reads the folder (`progress_lines`), adds up the files
of each step and prints:

- a line when a step is done: `spelling: 10000 of 10000 videos, 182065 captions, 84 s`;
- while steps run, on a terminal, one status line redrawn in place; otherwise (a log, CI)
  a plain line after 30 s, 2 min, 8 min, ... of a stage, no carriage returns:
  `spelling, screen, dedup, runon: 4500 of 10000 videos (45%), 40 s; about 50 s left`.

Every step after the reader keeps each video (one VideoBatch in, one out), so the number of
videos read is every step's total. It is counted by a global count beside the reader, written
to the folder as `total.json`: with several workers, one worker can end its bundles of a step
before another has begun its own, so "every bundle begun has ended" alone would take a share
of the videos for all of them. A step is done when the total is known, it has seen that many
videos and every bundle that began it has ended.
Workers on other machines (Dataflow, a remote Dask cluster) cannot write to the folder:
their DoFns count nothing and the command prints no progress; Beam's own tools show it.
The lines go to the `capclean.progress` logger at INFO: `--quiet` and `--log-level WARNING`
silence them.
"""
import contextlib
import json
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
import uuid

import apache_beam as beam

log = logging.getLogger("capclean.progress")
WRITE_SECONDS = 1.0  # how often a DoFn instance rewrites its file
POLL_SECONDS = 0.5  # how often the command reads the folder
FIRST_PLAIN_LINE_SECONDS = 30.0  # without a terminal: the first line of a long stage, then 4 times as long
PLAIN_LINE_FACTOR = 4.0

# The folder of the pipeline being built, and its steps in pipeline order (progress_lines sets them).
_current = {"folder": None, "steps": []}


class LogProgressFn(beam.DoFn):
    """Pass-through; writes this instance's counts of `step` to `folder` (None: counts nothing)."""

    def __init__(self, step: str, folder=None):
        self._step = step
        self._folder = folder

    def setup(self):
        self._path = None
        if self._folder and os.path.isdir(self._folder):
            self._path = os.path.join(self._folder, f"{self._step}.{os.getpid()}-{uuid.uuid4().hex[:12]}.json")
        self._counts = {"step": self._step, "videos": 0, "captions": 0, "bundles_started": 0, "bundles_ended": 0,
                        "first": None}
        self._written = 0.0

    def start_bundle(self):
        self._counts["bundles_started"] += 1
        self._write()

    def process(self, batch):
        counts = self._counts
        if counts["first"] is None:
            counts["first"] = time.time()
        counts["videos"] += 1
        # A VideoBatch (the cleaning), or a (video_id, captions) pair (the evaluation commands' Beam graphs).
        counts["captions"] += len(batch.captions if hasattr(batch, "captions") else batch[1])
        if time.monotonic() - self._written >= WRITE_SECONDS:
            self._write()
        yield batch

    def finish_bundle(self):
        self._counts["bundles_ended"] += 1
        self._write()
        log.debug("%s: bundle done on process %d, %d videos, %d captions", self._step, os.getpid(),
                  self._counts["videos"], self._counts["captions"])

    def _write(self):
        self._written = time.monotonic()
        if self._path is None:
            return
        try:
            partial = f"{self._path}.partial"
            with open(partial, "w", encoding="utf-8") as handle:
                json.dump(self._counts, handle)
            os.replace(partial, self._path)
        except OSError:
            self._path = None  # progress is never worth failing a run for


class WriteTotalFn(beam.DoFn):
    """Writes the number of videos read (one element: the global count) to `folder`/total.json."""

    def __init__(self, folder=None):
        self._folder = folder

    def process(self, videos: int):
        if self._folder and os.path.isdir(self._folder):
            try:
                partial = os.path.join(self._folder, f"{TOTAL_FILE}.partial")
                with open(partial, "w", encoding="utf-8") as handle:
                    json.dump({"videos": videos}, handle)
                os.replace(partial, os.path.join(self._folder, TOTAL_FILE))
            except OSError:
                pass  # progress is never worth failing a run for
        return []


class LogProgress(beam.PTransform):
    """Pass-through counting of `step`; the first step of a pipeline (the reader) also counts every video
    it passes, globally, so the printer knows every step's total."""

    def __init__(self, step: str, folder, count_total: bool):
        super().__init__()
        self._step, self._folder, self._count_total = step, folder, count_total

    def expand(self, videos):
        if self._count_total:
            _ = (videos
                 | "CountVideos" >> beam.combiners.Count.Globally()
                 | "WriteTotal" >> beam.ParDo(WriteTotalFn(self._folder)))
        # A pass-through keeps the type of what passes, and so its coder (pipelines/cleaning/batch_coder.py).
        return videos | "Count" >> beam.ParDo(LogProgressFn(self._step, self._folder)).with_output_types(
            videos.element_type)


def log_progress(step: str):
    first = not _current["steps"]
    _current["steps"].append(step)
    return f"Progress{step.capitalize()}" >> LogProgress(step, _current["folder"], count_total=first)


TOTAL_FILE = "total.json"


def read_total(folder: str):
    """The number of videos read, once the reader's global count has written it; else None."""
    try:
        with open(os.path.join(folder, TOTAL_FILE), encoding="utf-8") as handle:
            return int(json.load(handle)["videos"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def read_counts(folder: str) -> dict:
    """step -> the sums of its instances' files: videos, captions, bundles_started, bundles_ended; first (time)."""
    steps = {}
    for name in os.listdir(folder):
        if not name.endswith(".json") or name == TOTAL_FILE:
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                counts = json.load(handle)
        except (OSError, ValueError):
            continue  # replaced while read: the next poll reads it
        total = steps.setdefault(counts["step"], {"videos": 0, "captions": 0, "bundles_started": 0,
                                                  "bundles_ended": 0, "first": None})
        for key in ("videos", "captions", "bundles_started", "bundles_ended"):
            total[key] += counts[key]
        if counts["first"] is not None:
            total["first"] = counts["first"] if total["first"] is None else min(total["first"], counts["first"])
    return steps


def format_duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class ProgressPrinter:
    """Reads the counts and says what changed: a line for each step done, a status while steps run."""

    def __init__(self, steps: list, terminal: bool, now=time.time):
        self._steps = steps  # log_progress adds to it while the pipeline is built
        self._terminal = terminal
        self._now = now
        self._done = {}
        self._total = None  # the reader's count: every later step's
        self._status = ""  # the status line shown on the terminal, if any
        self._stage_started = None  # when the steps now running began, and the next plain line
        self._next_plain = None

    def update(self, counts: dict, total=None, ended: bool = False) -> None:
        """`total`: the number of videos read, once known (read_total)."""
        now = self._now()
        if self._total is None and total is not None:
            self._total = total
        steps = list(dict.fromkeys(self._steps))
        for step in steps:
            figures = counts.get(step)
            if step in self._done or figures is None or not figures["videos"]:
                continue
            if ended or self._is_done(step, figures):
                self._print(self._done_line(step, figures, now))
                self._done[step] = figures
                if self._total is None:
                    self._total = figures["videos"]
        running = [step for step in steps if step not in self._done and counts.get(step, {}).get("videos")]
        if ended or not running:
            self._stage_started = None
            self._show_status("")
            return
        if self._stage_started is None:
            firsts = [counts[step]["first"] for step in running if counts[step]["first"] is not None]
            self._stage_started = min(firsts, default=now)
            self._next_plain = self._stage_started + FIRST_PLAIN_LINE_SECONDS
        line = self._running_line(running, counts, now)
        if self._terminal:
            self._show_status(line)
        elif now >= self._next_plain:
            self._print(line)
            self._next_plain = now + (now - self._stage_started) * (PLAIN_LINE_FACTOR - 1)

    def _is_done(self, step, figures) -> bool:
        bundles_over = figures["bundles_ended"] >= figures["bundles_started"]
        return bundles_over and self._total is not None and figures["videos"] >= self._total

    def _done_line(self, step, figures, now) -> str:
        reader = step == self._steps[0]  # its count is the total: "3 of 3" would say nothing
        seen = f"{figures['videos']} of {self._total} videos" if self._total and not reader else f"{figures['videos']} videos"
        took = f", {format_duration(now - figures['first'])}" if figures["first"] is not None else ""
        return f"{step}: {seen}, {figures['captions']} captions{took}"

    def _running_line(self, running, counts, now) -> str:
        # Steps of one stage advance together; the least advanced says how far the stage is.
        slowest = min(running, key=lambda step: counts[step]["videos"])
        figures = counts[slowest]
        elapsed = now - figures["first"] if figures["first"] is not None else 0.0
        names = ", ".join(running)
        if not self._total:
            return f"{names}: {figures['videos']} videos, {format_duration(elapsed)}"
        share = figures["videos"] / self._total
        line = f"{names}: {figures['videos']} of {self._total} videos ({share:.0%}), {format_duration(elapsed)}"
        if figures["videos"] and elapsed >= 2:
            left = (self._total - figures["videos"]) * elapsed / figures["videos"]
            line += f"; about {format_duration(left)} left"
        return line

    def _print(self, line):
        self._show_status("")
        log.info("%s", line)

    def _show_status(self, line):
        if not self._terminal or line == self._status:
            return
        with _terminal_lock:
            sys.stderr.write("\r\033[K" + line)
            sys.stderr.flush()
            self._status = line


_terminal_lock = threading.Lock()


def clear_status_line() -> None:
    """Called by the log handler before a line: the status line, if any, is wiped first."""
    printer = _current.get("printer")
    if printer is not None:
        printer._show_status("")


@contextlib.contextmanager
def progress_lines():
    """While the pipeline is built and run: a folder for the DoFns' counts and a thread that prints them.

    Nothing is printed when the `capclean.progress` logger would drop INFO lines."""
    if not log.isEnabledFor(logging.INFO):
        yield
        return
    folder = tempfile.mkdtemp(prefix="capclean-progress-")
    steps = []
    printer = ProgressPrinter(steps, terminal=sys.stderr.isatty())
    _current.update(folder=folder, steps=steps, printer=printer)
    stop = threading.Event()

    def watch():
        while not stop.wait(POLL_SECONDS):
            printer.update(read_counts(folder), read_total(folder))

    thread = threading.Thread(target=watch, name="capclean-progress", daemon=True)
    thread.start()
    ended = False
    try:
        yield
        ended = True
    finally:
        stop.set()
        thread.join()
        if ended:
            printer.update(read_counts(folder), read_total(folder), ended=True)
        printer._show_status("")
        _current.update(folder=None, steps=[], printer=None)
        shutil.rmtree(folder, ignore_errors=True)
