"""The busy time of the pipeline's stages, as Beam counters: seconds spent in a stage's own code,
summed over workers and elements (not wall time: stages run side by side). The launcher reads
them back from the finished pipeline for the run manifest (pipelines/output/manifest.py)."""
import time

# The namespace of the counters (microseconds; a counter holds an integer).
TIMING_NAMESPACE = "capclean.busy_microseconds"


class busy_timer:
    """`with busy_timer("spelling"): ...` adds the block's time to the stage's counter."""

    _counters = {}

    def __init__(self, name: str):
        self._name = name

    def __enter__(self):
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        counter = busy_timer._counters.get(self._name)
        if counter is None:
            from apache_beam.metrics import Metrics
            counter = busy_timer._counters[self._name] = Metrics.counter(TIMING_NAMESPACE, self._name)
        counter.inc(int((time.perf_counter() - self._start) * 1e6))
        return False
