"""Progress in the log: each step says when it starts, how far it is every half minute, and when a bundle ends.

A pass-through DoFn after each step; the counts are per worker, since workers
share nothing. It logs a few lines per step, not one per video.
"""
import logging
import time

import apache_beam as beam

log = logging.getLogger("capclean.progress")
INTERVAL_SECONDS = 30.0


class LogProgressFn(beam.DoFn):
    def __init__(self, step: str):
        self._step = step

    def setup(self):
        self._started = None
        self._last_report = 0.0
        self._videos = self._captions = 0

    def process(self, batch):
        now = time.monotonic()
        if self._started is None:
            self._started = self._last_report = now
            log.info("%s: started", self._step)
        self._videos += 1
        self._captions += len(batch.captions)
        if now - self._last_report >= INTERVAL_SECONDS:
            self._last_report = now
            self._report("in progress")
        yield batch

    def finish_bundle(self):
        if self._started is not None:
            self._report("bundle done")

    def _report(self, state):
        log.info("%s: %s, %d videos, %d captions out, %.0f s", self._step, state, self._videos,
                 self._captions, time.monotonic() - self._started)


def log_progress(step: str):
    return f"Progress{step.capitalize()}" >> beam.ParDo(LogProgressFn(step))
