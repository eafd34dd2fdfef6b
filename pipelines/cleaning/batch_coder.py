"""How a video travels between the pipeline's stages: packed (pickled, then compressed).

The FnApiRunner holds every stage's output in its driver, and copies a stage's input several times on
the way to a worker (into one stream per worker, then into the message that carries it). At 10 times
MSR-VTT the videos alone are about 380 MiB as Beam codes them, and those copies weigh on the driver's peak.
Packed they take a third of that, in no more CPU than Beam's own coding (docs/benchmarks.md, "Videos
packed"). Nothing a step sees changes: it gets an equal VideoBatch back.

Beam chooses a PCollection's coder from its element type, so every transform that outputs videos
declares it (`.with_output_types(VideoBatch)`), importing VideoBatch from here so that the coder is
registered wherever the type is declared; `tests/unit/pipelines/test_batch_coder.py` fails a cleaning run
if a video crosses a stage any other way.
"""
from dataclasses import fields

import apache_beam as beam

from pipelines.runtime.packing import pack, unpack
from transforms.batch import VideoBatch

_FIELD_NAMES = tuple(field.name for field in fields(VideoBatch))


class VideoBatchCoder(beam.coders.Coder):
    """A VideoBatch as its fields' values, packed. The batch object itself is never pickled, so that a
    test can tell this coder from Beam's fallback (pickle) by making VideoBatch refuse to be pickled."""

    def encode(self, batch: VideoBatch) -> bytes:
        return pack(tuple(getattr(batch, name) for name in _FIELD_NAMES))

    def decode(self, data: bytes) -> VideoBatch:
        return VideoBatch(*unpack(data))

    def is_deterministic(self) -> bool:
        # Videos are never keys, so their bytes need not be the same from run to run.
        return False


beam.coders.registry.register_coder(VideoBatch, VideoBatchCoder)
